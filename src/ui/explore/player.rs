//! A counterexample the search found, made something a student can read and play: each move
//! in words, the run replayed to its inconsistent snapshot, and the link that opens the same
//! run in the player with that snapshot's global state and the space-time diagram. Plain Rust,
//! tested natively.

use crate::engine::explore::{self, Move};
use crate::engine::record::ItemKind;
use crate::engine::view::SpaceTime;
use crate::engine::{Action, CheckpointId, OperatorKind, Simulation};
use crate::scenario::Scenario;
use crate::ui::permalink::{encode, encode_choices};

use super::words::{ItemText, MoveText, What};

/// The search's model as the player can run it: every latency 1 (the least a scenario
/// allows; the search's is 0, but a delivery chosen by hand waits for its item whatever the
/// latency, so only the times differ), no processing time, nothing timing out, no pause
/// between checkpoints, no planned failures — the moves then mean in the player what they
/// meant in the search.
pub fn player_scenario(s: &Scenario, title: String) -> Scenario {
    let mut p = s.clone();
    p.title = title;
    for e in &mut p.graph.edges {
        e.latency = 1;
    }
    for op in &mut p.graph.operators {
        op.processing_time = 0;
    }
    p.config.timeout = 1 << 40;
    p.config.min_pause = 0;
    p.config.aligned_checkpoint_timeout = None;
    p.config.tolerable_failed_checkpoints = None;
    p.failures.clear();
    p
}

/// The moves as the player's choices, one per step from step 0, played on `player` (the
/// [`player_scenario`] of `s`) — or `None` when a move is one the player cannot make (a
/// priority barrier held back or overtaking by choice, which the player leaves to time). A
/// non-FIFO channel's item delivered out of order is found by what it is in the player's
/// queue, which is in order of arrival where the search's is by age: the player delivers it
/// as `DeliverNth`.
pub fn player_choices(
    s: &Scenario,
    player: &Scenario,
    moves: &[Move],
) -> Option<Vec<(u64, Action)>> {
    let mut model = explore::model(&s.graph, &s.config, s.seed).ok()?;
    let mut sim = player.simulation().ok()?;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        let action = match m {
            Move::Act(a) => a,
            Move::DeliverItem { channel, item } => {
                let kind = model
                    .channels()
                    .get(channel as usize)?
                    .items()
                    .get(item as usize)?
                    .kind;
                let nth = sim
                    .channels()
                    .get(channel as usize)?
                    .items()
                    .iter()
                    .position(|it| it.kind == kind)? as u32;
                if nth == 0 {
                    Action::Deliver { channel }
                } else {
                    Action::DeliverNth { channel, nth }
                }
            }
            Move::DeliverHead { .. } | Move::Overtake { .. } => return None,
        };
        model.apply_move(m).ok()?;
        sim.apply(action).ok()?;
        out.push((i as u64, action));
    }
    Some(out)
}

/// A counterexample replayed on the model: each move described, the run at its end, the
/// snapshot that is not consistent, and the cut of that snapshot as the space-time diagram
/// times it.
pub struct Replayed {
    pub steps: Vec<MoveText>,
    pub end: Simulation,
    pub violation: Option<CheckpointId>,
    /// The violating snapshot's time on each task's line, when every task took part.
    pub cut: Option<Vec<u64>>,
}

/// Replays `moves` on the search's model of `s` (as `abs-sim run --replay` does), or says
/// which move was refused.
pub fn replay(s: &Scenario, moves: &[Move]) -> Result<Replayed, String> {
    let mut sim = explore::model(&s.graph, &s.config, s.seed).map_err(|e| e.to_string())?;
    let mut steps = Vec::with_capacity(moves.len());
    let mut violation = None;
    for (i, &m) in moves.iter().enumerate() {
        steps.push(describe(&sim, m));
        sim.apply_move(m)
            .map_err(|e| format!("move {} was refused: {e}", i + 1))?;
        for gs in sim.coordinator().completed() {
            if violation.is_none() && !gs.verdict.ok() {
                violation = Some(gs.checkpoint);
            }
        }
    }
    Ok(Replayed {
        steps,
        end: sim,
        violation,
        cut: None,
    })
}

/// The cut of snapshot `n` in the player's run of `scenario` after `choices`: each task's
/// snapshot time, as the diagram places it.
pub fn player_cut(
    scenario: &Scenario,
    choices: &[(u64, Action)],
    n: CheckpointId,
) -> Option<Vec<u64>> {
    let mut sim = scenario.simulation().ok()?;
    let mut st = SpaceTime::starting_at(&sim);
    for &(_, a) in choices {
        sim.apply(a).ok()?;
        st.record(&sim);
    }
    (0..sim.physical().task_count())
        .map(|t| st.snapshot_of(t, n).map(|p| p.at.time))
        .collect()
}

/// The link that opens the run in the player: the model as a scenario, every move a choice, at
/// its last step, with the inconsistent snapshot's global state open and its cut placed on the
/// space-time diagram (so the diagram opens and names the orphans).
pub fn player_link(
    scenario: &Scenario,
    choices: &[(u64, Action)],
    open: Option<CheckpointId>,
    cut: Option<&[u64]>,
    lang: Option<&str>,
) -> String {
    let steps = choices.len() as u64;
    let mut link = super::super::kit::playground_link(scenario, lang);
    link += &format!(
        "&mode={}&seed={}&step={steps}&choices={}",
        scenario.config.mode,
        scenario.seed,
        encode_choices(choices, steps)
    );
    if let Some(n) = open {
        link += &format!("&open={n}");
    }
    if let Some(cut) = cut {
        let times: Vec<String> = cut.iter().map(u64::to_string).collect();
        link += &format!("&cut={}", encode(&times.join(".")));
    }
    link
}

/// What move `m` does in `sim`'s state, before it is applied.
pub fn describe(sim: &Simulation, m: Move) -> MoveText {
    let phys = sim.physical();
    let task = |t: u32| {
        phys.tasks
            .get(t as usize)
            .map_or_else(|| format!("task {t}"), |i| i.name.clone())
    };
    // As the global state's tables name a channel: "p → q".
    let name = |c: u32| match phys.channels.get(c as usize) {
        Some(ch) => format!("{} → {}", task(ch.from), task(ch.to)),
        None => format!("channel {c}"),
    };
    let queue = |c: u32| sim.channels().get(c as usize).map(|ch| ch.items());
    let item_at = |c: u32, k: usize| {
        queue(c)
            .and_then(|q| q.get(k))
            .map(|i| item_text(sim, i.kind))
    };
    let markers = sim.mode().processes_initiate();
    let (what, item) = match m {
        Move::Act(Action::Deliver { channel }) | Move::DeliverItem { channel, item: 0 } => (
            What::Deliver {
                channel: name(channel),
            },
            item_at(channel, 0),
        ),
        Move::DeliverItem { channel, item } => (
            What::DeliverAhead {
                channel: name(channel),
                ahead: item,
            },
            item_at(channel, item as usize),
        ),
        Move::DeliverHead { channel } => (
            What::DeliverBefore {
                channel: name(channel),
            },
            item_at(channel, 0),
        ),
        Move::Overtake { channel } => {
            let barrier = queue(channel).and_then(|q| {
                q.iter()
                    .skip(1)
                    .find(|i| matches!(i.kind, ItemKind::Barrier(_)))
                    .map(|i| item_text(sim, i.kind))
            });
            (
                What::Overtake {
                    channel: name(channel),
                },
                barrier,
            )
        }
        Move::Act(Action::Replay { task: t }) => (What::Replay { task: task(t) }, None),
        Move::Act(Action::Emit { task: t }) if phys.operator_of(t).kind.is_process() => (
            What::Act {
                task: task(t),
                token: matches!(phys.operator_of(t).kind, OperatorKind::Token { .. }),
            },
            None,
        ),
        Move::Act(Action::Emit { task: t }) => (What::Read { task: task(t) }, None),
        Move::Act(Action::Trigger) => (
            What::Trigger {
                checkpoint: sim.coordinator().next_checkpoint(),
            },
            None,
        ),
        Move::Act(Action::Initiate { task: t }) => (
            What::Initiate {
                task: task(t),
                checkpoint: sim.coordinator().next_checkpoint(),
            },
            None,
        ),
        Move::Act(_) => (What::Other(m.to_json().to_string()), None),
    };
    let item = item.map(|i| match i {
        ItemText::Barrier(n) if markers => ItemText::Marker(n),
        i => i,
    });
    MoveText { what, item }
}

fn item_text(sim: &Simulation, kind: ItemKind) -> ItemText {
    match kind {
        ItemKind::Record(r) => ItemText::Record {
            id: r.id,
            what: sim.describe(&r.payload),
        },
        ItemKind::Barrier(n) => ItemText::Barrier(n),
        ItemKind::Cancel(n) => ItemText::Cancel(n),
        ItemKind::EndOfData => ItemText::EndOfData,
        ItemKind::EndOfPartition => ItemText::End,
    }
}

#[cfg(test)]
mod tests;
