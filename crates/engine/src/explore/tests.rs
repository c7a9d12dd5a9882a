use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use super::*;
use crate::BarrierMode;

/// The job of one of the presets' small systems, read from the scenario crate's file of it:
/// the engine sits below the scenario format, so its tests read the files, not the crate.
#[derive(Deserialize)]
struct Scenario {
    name: String,
    graph: JobGraph,
    config: Config,
    seed: u64,
}

mod presets {
    use super::Scenario;

    fn read(json: &str) -> Scenario {
        serde_json::from_str(json).expect("a preset file the scenario crate's tests read")
    }
    pub fn token() -> Scenario {
        read(include_str!("../../../scenario/src/presets/token.json"))
    }
    pub fn bank_tiny() -> Scenario {
        read(include_str!("../../../scenario/src/presets/bank-tiny.json"))
    }
    pub fn alignment_tiny() -> Scenario {
        read(include_str!(
            "../../../scenario/src/presets/alignment-tiny.json"
        ))
    }
}

fn root(s: &Scenario, mode: Option<BarrierMode>, non_fifo: bool) -> Simulation {
    let mut graph = s.graph.clone();
    if non_fifo {
        graph.edges.iter_mut().for_each(|e| e.fifo = false);
    }
    let mut config = s.config.clone();
    if let Some(mode) = mode {
        config.mode = mode;
    }
    model(&graph, &config, s.seed).unwrap()
}

fn text(sim: &Simulation) -> String {
    let mut t = String::new();
    sim.write_canonical(&mut t);
    t
}

fn explore(sim: Simulation, max_states: u64, snapshots: u64) -> Outcome {
    let mut ex = Explorer::new(
        sim,
        Options {
            max_states,
            snapshots,
        },
    );
    while !ex.run(10_000) {}
    ex.outcome().clone()
}

/// `alignment-tiny` cut down to one record per source: the smallest case with an alignment.
fn micro() -> Scenario {
    let mut s = presets::alignment_tiny();
    for op in &mut s.graph.operators {
        if let crate::OperatorKind::Source { lines, .. } = &mut op.kind {
            lines.truncate(1);
        }
    }
    s
}

/// What completing moves found: per completed snapshot, whether it was consistent.
fn completed(sim: &Simulation) -> Vec<bool> {
    sim.last_events()
        .iter()
        .filter_map(|e| match e {
            Event::CheckpointCompleted { checkpoint, .. } => Some(
                sim.coordinator()
                    .global_state(*checkpoint)
                    .is_some_and(|g| g.verdict.ok()),
            ),
            _ => None,
        })
        .collect()
}

fn step(sim: &Simulation, m: Move) -> Simulation {
    let mut next = sim.clone();
    next.apply_move(m).unwrap();
    next.clock.clear_planned();
    next
}

/// Every state the moves reach, keyed by its full canonical text (not a hash), breadth
/// first. Whenever a second path reaches a text already seen, the two states must behave
/// alike for one more move: the same moves, leading to the same texts, completing the same
/// snapshots with the same verdicts. Returns the texts' count and how many merges it checked.
fn check_merges(sim: Simulation, options: &Options, limit: usize) -> (usize, usize) {
    let mut seen: HashMap<String, Simulation> = HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    let mut checked = 0;
    seen.insert(text(&sim), sim.clone());
    queue.push_back(sim);
    while let Some(s) = queue.pop_front() {
        for m in s.moves(options) {
            let next = step(&s, m);
            let t = text(&next);
            match seen.get(&t) {
                Some(rep) => {
                    checked += 1;
                    let (a, b) = (rep.moves(options), next.moves(options));
                    assert_eq!(a, b, "merged states offer different moves:\n{t}");
                    for m in a {
                        let (x, y) = (step(rep, m), step(&next, m));
                        let (tx, ty) = (text(&x), text(&y));
                        if tx != ty {
                            let at = tx
                                .bytes()
                                .zip(ty.bytes())
                                .take_while(|(a, b)| a == b)
                                .count();
                            panic!(
                                "merged states part after {m:?}; raw {:?} now {} / {:?} now {} at:\n{}\n{}\nwere:\n{t}",
                                rep.net.channels, rep.clock.now, next.net.channels, next.clock.now,
                                &tx[at.saturating_sub(300)..(at + 200).min(tx.len())],
                                &ty[at.saturating_sub(300)..(at + 200).min(ty.len())]
                            );
                        }
                        assert_eq!(completed(&x), completed(&y), "verdicts differ after {m:?}");
                    }
                }
                None if seen.len() < limit => {
                    seen.insert(t, next.clone());
                    queue.push_back(next);
                }
                None => {}
            }
        }
    }
    (seen.len(), checked)
}

#[test]
fn merged_states_behave_alike() {
    let two = Options {
        max_states: u64::MAX,
        snapshots: 2,
    };
    let cases = [
        ("token", presets::token(), None, false),
        ("token non-FIFO", presets::token(), None, true),
        ("bank-tiny", presets::bank_tiny(), None, false),
        ("bank-tiny non-FIFO", presets::bank_tiny(), None, true),
        ("micro aligned", micro(), Some(BarrierMode::Aligned), false),
        (
            "micro unaligned",
            micro(),
            Some(BarrierMode::Unaligned),
            false,
        ),
        (
            "micro at-least-once non-FIFO",
            micro(),
            Some(BarrierMode::AtLeastOnce),
            true,
        ),
    ];
    for (name, s, mode, non_fifo) in cases {
        let (states, checked) = check_merges(root(&s, mode, non_fifo), &two, 3_000);
        eprintln!("{name}: {states} states, {checked} merges checked one move deep");
        assert!(
            checked > states / 2,
            "{name}: too few merges to say anything"
        );
    }
}

/// Every sequence of moves from the start, without merging anything: the distinct states
/// (by full text), the distinct (state, move) pairs, and the length of the shortest
/// sequence that completes an inconsistent snapshot.
fn brute_force(
    sim: &Simulation,
    options: &Options,
    depth: u32,
    states: &mut HashSet<String>,
    pairs: &mut HashSet<(String, String)>,
    shortest: &mut Option<u32>,
) {
    let t = text(sim);
    states.insert(t.clone());
    for m in sim.moves(options) {
        let next = step(sim, m);
        pairs.insert((t.clone(), format!("{m:?}")));
        if completed(&next).contains(&false) {
            *shortest = Some(shortest.map_or(depth + 1, |d| d.min(depth + 1)));
        }
        brute_force(&next, options, depth + 1, states, pairs, shortest);
    }
}

#[test]
fn the_search_counts_what_brute_force_counts_on_the_smallest_case() {
    let options = Options {
        max_states: u64::MAX,
        snapshots: 1,
    };
    for mode in [
        BarrierMode::Aligned,
        BarrierMode::AtLeastOnce,
        BarrierMode::Unaligned,
    ] {
        let sim = root(&micro(), Some(mode), false);
        let (mut states, mut pairs, mut shortest) = (HashSet::new(), HashSet::new(), None);
        brute_force(&sim, &options, 0, &mut states, &mut pairs, &mut shortest);
        let o = explore(sim, u64::MAX, 1);
        eprintln!(
            "{mode:?}: {} states, {} transitions, shortest violation {:?}",
            states.len(),
            pairs.len(),
            shortest
        );
        assert!(o.complete);
        assert_eq!(o.states, states.len() as u64, "{mode:?}");
        assert_eq!(o.transitions, pairs.len() as u64, "{mode:?}");
        assert_eq!(
            o.counterexample.as_ref().map(|c| c.len() as u32),
            shortest,
            "{mode:?}"
        );
        // Only at-least-once lets a record slip into a snapshot.
        assert_eq!(shortest.is_some(), mode == BarrierMode::AtLeastOnce);
    }
}

#[test]
fn the_token_going_round_comes_back_to_the_same_state() {
    let mut sim = root(&presets::token(), None, false);
    let start = sim.canonical_hash();
    for (i, m) in [
        Move::Act(Action::Emit { task: 0 }),
        Move::Act(Action::Deliver { channel: 0 }),
        Move::Act(Action::Emit { task: 1 }),
        Move::Act(Action::Deliver { channel: 1 }),
    ]
    .into_iter()
    .enumerate()
    {
        sim.apply_move(m).unwrap();
        if i < 3 {
            assert_ne!(sim.canonical_hash(), start, "after {m:?}");
        }
    }
    // Two records made, two received on each channel: only ids and counters differ.
    assert_eq!(sim.canonical_hash(), start);
}

/// Plays `moves` from the start; what the last one completed.
fn replay(sim: &mut Simulation, moves: &[Move]) -> Vec<bool> {
    for &m in moves {
        sim.apply_move(m).unwrap();
    }
    completed(sim)
}

#[test]
fn fifo_systems_have_no_inconsistent_snapshot_in_any_interleaving() {
    let cases = [
        (presets::token(), None),
        (presets::bank_tiny(), None),
        (presets::alignment_tiny(), Some(BarrierMode::Aligned)),
        (presets::alignment_tiny(), Some(BarrierMode::Unaligned)),
        (presets::alignment_tiny(), Some(BarrierMode::ChandyLamport)),
    ];
    for (s, mode) in cases {
        let o = explore(root(&s, mode, false), 200_000, 2);
        eprintln!("{} {mode:?}: {o:?}", s.name);
        assert!(o.complete, "{} {mode:?}", s.name);
        assert!(o.snapshots > 100, "{} {mode:?}: {o:?}", s.name);
        assert_eq!(o.violations, 0, "{} {mode:?}: {o:?}", s.name);
        assert_eq!(o.counterexample, None);
        if mode == Some(BarrierMode::Unaligned) {
            // Both orders of a priority barrier and the head it may overtake were tried.
            assert!(o.kinds[2] > 1000 && o.kinds[3] > 1000, "{:?}", o.kinds);
        } else {
            assert_eq!(o.kinds[1..], [0, 0, 0]);
        }
    }
}

#[test]
fn at_least_once_and_non_fifo_chandy_lamport_are_caught_with_a_replayable_counterexample() {
    let cases = [
        (
            presets::alignment_tiny(),
            Some(BarrierMode::AtLeastOnce),
            false,
        ),
        (presets::bank_tiny(), None, true),
        (presets::token(), None, true),
    ];
    for (s, mode, non_fifo) in cases {
        let o = explore(root(&s, mode, non_fifo), 20_000, 2);
        eprintln!("{} {mode:?} non-FIFO {non_fifo}: {o:?}", s.name);
        assert!(o.violations > 0, "{}", s.name);
        assert_eq!(o.kinds[1] > 1000, non_fifo, "{:?}", o.kinds);
        let moves = o.counterexample.unwrap();
        let mut sim = root(&s, mode, non_fifo);
        let last = replay(&mut sim, &moves);
        assert!(
            last.contains(&false),
            "{}: the replay ends consistent",
            s.name
        );
        // Shortest: no prefix completes an inconsistent snapshot.
        let mut sim = root(&s, mode, non_fifo);
        for &m in &moves[..moves.len() - 1] {
            sim.apply_move(m).unwrap();
            assert!(!completed(&sim).contains(&false));
        }
    }
}

#[test]
fn moves_read_back_what_they_write() {
    let moves = [
        Move::Act(Action::Trigger),
        Move::Act(Action::Deliver { channel: 3 }),
        Move::Act(Action::Initiate { task: 1 }),
        Move::DeliverItem {
            channel: 2,
            item: 1,
        },
        Move::DeliverHead { channel: 0 },
        Move::Overtake { channel: 4 },
    ];
    for m in moves {
        assert_eq!(Move::from_json(&m.to_json()), Ok(m));
    }
    let bad = [
        (json!(3), "a move is a JSON object, not 3"),
        (json!({"action": "fly"}), "not an action"),
        (
            json!({"action": "trigger", "item": 1}),
            "go with a deliver action",
        ),
        (
            json!({"action": "deliver", "channel": 1, "item": 1, "head": true}),
            "one of",
        ),
        (
            json!({"action": "deliver", "channel": 1, "item": "x"}),
            "\"item\" needs a number",
        ),
    ];
    for (v, says) in bad {
        let e = Move::from_json(&v).unwrap_err();
        assert!(e.contains(says), "{v}: {e}");
    }
}

#[test]
fn a_refused_move_changes_nothing() {
    let mut sim = root(&presets::bank_tiny(), None, true);
    let before = text(&sim);
    assert!(sim
        .apply_move(Move::DeliverItem {
            channel: 0,
            item: 0
        })
        .is_err());
    sim.apply_move(Move::Act(Action::Emit { task: 0 })).unwrap();
    let after_emit = text(&sim);
    assert_ne!(before, after_emit);
    assert!(sim
        .apply_move(Move::DeliverItem {
            channel: 0,
            item: 5
        })
        .is_err());
    assert!(sim.apply_move(Move::Overtake { channel: 0 }).is_err());
    assert_eq!(text(&sim), after_emit);
}
