//! The space-time diagram's cut against the checker: for every completed snapshot of many
//! runs, the records the diagram sees crossing the cut (by where their ends lie on the
//! task lines) are exactly those the snapshot recorded or the checker found crossing it.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::time::Duration;

use abs_playground::engine::record::ItemKind;
use abs_playground::engine::snapshot::CrossingKind;
use abs_playground::engine::view::{Across, SpaceTime};
use abs_playground::engine::{Event, Simulation};
use abs_playground::scenario::{presets, Scenario};

#[path = "common/time_limit.rs"]
mod time_limit;

/// Presets also compared with every channel non-FIFO. Not yet `iteration`: there, made
/// non-FIFO, a completed snapshot's global state holds tasks whose snapshot events the log
/// did not see (to be found before the diagram draws non-FIFO cyclic runs).
const NON_FIFO: &[&str] = &["token", "bank", "bank-tiny", "alignment", "wordcount"];

#[derive(Default, Debug)]
struct Tally {
    snapshots: u64,
    with_in_flight: u64,
    with_orphans: u64,
    with_lost_or_late: u64,
}

/// Runs `steps` steps, comparing every snapshot that completes.
fn compare(scenario: &Scenario, steps: u32, tally: &mut Tally) {
    let mut sim: Simulation = scenario.simulation().unwrap();
    let fifo = scenario.graph.edges.iter().all(|e| e.fifo);
    let mut st = SpaceTime::default();
    for _ in 0..steps {
        if sim.step().is_none() {
            break;
        }
        st.record(&sim);
        let completed: Vec<u64> = sim
            .last_events()
            .iter()
            .filter_map(|e| match e {
                Event::CheckpointCompleted { checkpoint, .. } => Some(*checkpoint),
                _ => None,
            })
            .collect();
        for n in completed {
            let g = sim.coordinator().global_state(n).unwrap().clone();
            tally.snapshots += 1;
            let (mut flight, mut orphans, mut odd) = (false, false, false);
            for c in 0..sim.physical().channels.len() as u32 {
                let seen = st.crossing(&sim, c, n);
                let drawn = |how: Across| -> BTreeSet<u64> {
                    seen.iter()
                        .filter(|(_, a)| *a == how)
                        .map(|(r, _)| r.id)
                        .collect()
                };
                let named = |kind: CrossingKind| -> BTreeSet<u64> {
                    g.verdict
                        .crossings
                        .iter()
                        .filter(|x| x.channel == c && x.kind == kind)
                        .map(|x| x.record.id)
                        .collect()
                };
                let recorded: BTreeSet<u64> = g
                    .channel_state
                    .get(&c)
                    .map(|v| v.iter().map(|r| r.id).collect())
                    .unwrap_or_default();
                // In flight at the cut: what the snapshot recorded, but for what it recorded
                // although sent after the cut, plus what it lost.
                let late = named(CrossingKind::RecordedAfterCut);
                let lost = named(CrossingKind::Lost);
                let expected: BTreeSet<u64> =
                    recorded.difference(&late).chain(&lost).copied().collect();
                let what = format!(
                    "{} {:?} seed {} FIFO {fifo} checkpoint {n} channel {c}",
                    scenario.name, scenario.config.mode, scenario.seed
                );
                let in_flight = drawn(Across::InFlight);
                if fifo {
                    assert_eq!(in_flight, expected, "in flight: {what}");
                } else {
                    // The checker names a lost record when its receiver processes it; one
                    // still held when the snapshot completes is in its count only.
                    assert!(
                        in_flight.is_superset(&expected),
                        "in flight: {what}: drawn {in_flight:?}, recorded {recorded:?}, late {late:?}, lost {lost:?}"
                    );
                    let extra = (in_flight.len() - expected.len()) as u64;
                    assert!(
                        extra <= g.verdict.lost,
                        "{what}: {extra} more than counted lost"
                    );
                }
                assert_eq!(
                    drawn(Across::Orphan),
                    named(CrossingKind::Orphan),
                    "orphans: {what}"
                );
                flight |= !expected.is_empty();
                orphans |= !named(CrossingKind::Orphan).is_empty();
                odd |= !late.is_empty() || !lost.is_empty();
            }
            tally.with_in_flight += u64::from(flight);
            tally.with_orphans += u64::from(orphans);
            tally.with_lost_or_late += u64::from(odd);
        }
    }
}

#[test]
fn the_diagrams_cut_is_the_checkers_in_every_preset_and_mode() {
    time_limit::within(Duration::from_secs(240), || {
        let mut tally = Tally::default();
        for name in presets::NAMES.iter().chain(presets::SMALL) {
            let preset = presets::by_name(name).unwrap();
            for mode in preset.modes() {
                for seed in 1..=3 {
                    let mut s = preset.with_mode(mode);
                    s.failures.clear();
                    s.seed = seed;
                    let steps = if *name == "large" { 3_000 } else { 4_000 };
                    compare(&s, steps, &mut tally);
                    if NON_FIFO.contains(name) {
                        s.graph.edges.iter_mut().for_each(|e| e.fifo = false);
                        compare(&s, steps, &mut tally);
                    }
                }
            }
        }
        eprintln!("{tally:?}");
        assert!(tally.snapshots > 1_000, "{tally:?}");
        assert!(tally.with_in_flight > 100, "{tally:?}");
        assert!(tally.with_orphans > 20, "{tally:?}");
        assert!(tally.with_lost_or_late > 5, "{tally:?}");
    });
}

/// Runs `steps` steps of `scenario` logging them, calling `each` after every step.
fn run_logged(scenario: &Scenario, steps: u32, mut each: impl FnMut(&Simulation, &SpaceTime)) {
    let mut sim: Simulation = scenario.simulation().unwrap();
    let mut st = SpaceTime::starting_at(&sim);
    for _ in 0..steps {
        if sim.step().is_none() {
            break;
        }
        st.record(&sim);
        each(&sim, &st);
    }
}

/// The scenarios the cut tests walk: every preset in each of its modes, FIFO and (where the
/// preset allows it) not, planned failures left out.
fn every_run(seeds: std::ops::RangeInclusive<u64>) -> Vec<Scenario> {
    let mut out = Vec::new();
    for name in presets::NAMES.iter().chain(presets::SMALL) {
        let preset = presets::by_name(name).unwrap();
        for mode in preset.modes() {
            for seed in seeds.clone() {
                let mut s = preset.with_mode(mode);
                s.failures.clear();
                s.seed = seed;
                out.push(s.clone());
                if NON_FIFO.contains(name) {
                    s.graph.edges.iter_mut().for_each(|e| e.fifo = false);
                    out.push(s);
                }
            }
        }
    }
    out
}

#[test]
fn a_straight_cut_has_no_orphan_and_a_cut_leaning_back_over_a_send_makes_one() {
    // A cut straight down through one moment holds every receipt's send (nothing arrives
    // before it was sent); moving one sender's point back before a send whose record its
    // receiver has already processed inside the cut makes that record an orphan — named.
    time_limit::within(Duration::from_secs(240), || {
        let (mut straight, mut with_flight, mut leaning) = (0u64, 0u64, 0u64);
        for s in every_run(1..=2) {
            let steps = if s.name == "large" { 800 } else { 1_500 };
            let mut n = 0u32;
            run_logged(&s, steps, |sim, st| {
                n += 1;
                if !n.is_multiple_of(50) {
                    return;
                }
                let tasks = sim.physical().tasks.len();
                let now = sim.now();
                let start = st.start().map_or(0, |m| m.time);
                for t in [
                    start + (now - start) / 3,
                    start + 2 * (now - start) / 3,
                    now,
                ] {
                    let cut = vec![t; tasks];
                    let across = st.across(sim, &cut);
                    let what = format!("{} {:?} seed {} at {t}", s.name, s.config.mode, s.seed);
                    assert!(
                        across.iter().all(|(_, _, a)| *a == Across::InFlight),
                        "a straight cut with an orphan: {what}"
                    );
                    straight += 1;
                    with_flight += u64::from(!across.is_empty());
                }
                // The latest processed record that was sent inside the log, after its start.
                let Some(trip) = st.trips().iter().rev().find(|t| {
                    matches!(t.item, ItemKind::Record(_))
                        && t.processed.is_some()
                        && t.sent.time > start
                }) else {
                    return;
                };
                let info = &sim.physical().channels[trip.channel as usize];
                if info.from == info.to {
                    return;
                }
                let mut cut = vec![now; tasks];
                cut[info.from as usize] = trip.sent.time - 1;
                let ItemKind::Record(rec) = trip.item else {
                    unreachable!()
                };
                let across = st.across(sim, &cut);
                assert!(
                    across.contains(&(trip.channel, rec, Across::Orphan)),
                    "{} {:?} seed {}: record {} sent at {} not an orphan of {cut:?}: {across:?}",
                    s.name,
                    s.config.mode,
                    s.seed,
                    rec.id,
                    trip.sent.time
                );
                leaning += 1;
            });
        }
        eprintln!("straight cuts {straight} ({with_flight} with records in flight), leaning cuts {leaning}");
        assert!(
            straight > 1_000 && with_flight > straight / 2,
            "{straight} {with_flight}"
        );
        assert!(leaning > 300, "{leaning}");
    });
}

#[test]
fn the_snapshots_cut_placed_by_hand_is_judged_as_the_snapshot_is() {
    // A cut placed at the times of a completed snapshot's own points: the records across it
    // are those the diagram finds across the snapshot's cut (which equal the checker's). Only
    // where no record was sent or processed on a line at its point's very time, in any step
    // (a time cannot order two events of one moment).
    time_limit::within(Duration::from_secs(240), || {
        let (mut compared, mut tied, mut with_orphans, mut with_flight) = (0u64, 0u64, 0u64, 0u64);
        for s in every_run(1..=2) {
            let steps = if s.name == "large" { 1_500 } else { 3_000 };
            run_logged(&s, steps, |sim, st| {
                for e in sim.last_events() {
                    let Event::CheckpointCompleted { checkpoint: n, .. } = *e else {
                        continue;
                    };
                    let tasks = sim.physical().tasks.len() as u32;
                    let points: Option<Vec<_>> = (0..tasks)
                        .map(|t| st.snapshot_of(t, n).map(|p| p.at))
                        .collect();
                    let Some(points) = points else { continue };
                    let cut: Vec<u64> = points.iter().map(|m| m.time).collect();
                    // A send or processing at the very time of the cut's point on its line
                    // (in another step, or in the snapshot's own step, whose order within
                    // the step the steps leave open).
                    let phys = sim.physical();
                    let at_point = |c: u32, sent: Option<u64>, processed: Option<u64>| {
                        let info = &phys.channels[c as usize];
                        let (s, r) = (points[info.from as usize], points[info.to as usize]);
                        sent == Some(s.time) || processed == Some(r.time)
                    };
                    let logged = st.trips().iter().any(|t| match t.item {
                        ItemKind::Record(_) => {
                            at_point(t.channel, Some(t.sent.time), t.processed.map(|p| p.time))
                        }
                        _ => false,
                    });
                    let queued = sim.channels().iter().enumerate().any(|(c, ch)| {
                        ch.items().iter().any(|i| match i.kind {
                            ItemKind::Record(r) => {
                                at_point(c as u32, st.made_at(r.id).map(|m| m.time), None)
                            }
                            _ => false,
                        })
                    });
                    let ties = logged || queued;
                    if ties {
                        tied += 1;
                        continue;
                    }
                    let by_hand: BTreeSet<(u32, u64, bool)> = st
                        .across(sim, &cut)
                        .into_iter()
                        .map(|(c, r, a)| (c, r.id, a == Across::Orphan))
                        .collect();
                    let own: BTreeSet<(u32, u64, bool)> = (0..sim.physical().channels.len() as u32)
                        .flat_map(|c| {
                            st.crossing(sim, c, n)
                                .into_iter()
                                .map(move |(r, a)| (c, r.id, a == Across::Orphan))
                        })
                        .collect();
                    assert_eq!(
                        by_hand, own,
                        "{} {:?} seed {} checkpoint {n}",
                        s.name, s.config.mode, s.seed
                    );
                    compared += 1;
                    with_orphans += u64::from(own.iter().any(|x| x.2));
                    with_flight += u64::from(own.iter().any(|x| !x.2));
                }
            });
        }
        eprintln!("snapshots compared {compared} ({with_flight} with records in flight, {with_orphans} with orphans), {tied} left out for ties");
        assert!(
            compared > 500 && with_flight > 50 && with_orphans > 10,
            "{compared} {with_flight} {with_orphans}"
        );
    });
}
