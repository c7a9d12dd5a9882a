//! The space-time diagram: a line per subtask or process, virtual time left to right, every
//! item's trip as a line from its sender's to its receiver's, each snapshot a dot in its
//! checkpoint's colour, and each completed snapshot's cut drawn through its dots. The records
//! across a cut are marked where they cross it: ringed if in flight (the channel state a
//! consistent snapshot records), red if they crossed it the wrong way (an orphan). It shows the
//! last steps — enough for the latest completed checkpoint's whole cut, [`STEPS`] to 400 —
//! replayed from the history (`Run::space_time`), so a long run stays readable; the
//! classification is the engine's (`view::SpaceTime::crossing`).

use yew::prelude::*;

use crate::engine::record::ItemKind;
use crate::engine::view::{Across, MarkKind, SpaceTime};
use crate::i18n::Lang;
use crate::ui::fmt::px;
use crate::ui::palette;
use crate::ui::state::RunRef;

/// Steps the diagram shows at least, up to the position; more (up to `MOST`) when the
/// latest completed checkpoint took longer, so its whole cut is in view.
pub const STEPS: u64 = 80;
const MOST: u64 = 400;
/// Trips drawn at most (the newest).
const TRIPS: usize = 600;

const LEFT: f64 = 64.0;
const RIGHT: f64 = 8.0;
const WIDTH: f64 = 640.0;
const TOP: f64 = 14.0;

/// The distance between two task lines: roomy for a few processes, tight for many subtasks.
fn row_height(tasks: usize) -> f64 {
    (180.0 / tasks.max(1) as f64).clamp(12.0, 44.0)
}

#[derive(Properties, PartialEq, Clone)]
pub struct SpaceTimeProps {
    pub run: RunRef,
    pub version: u64,
    pub lang: Lang,
}

/// Where time `t` is drawn, `t0` at the left edge of the plot and `t1` at its right (earlier
/// times fall left of it: a trip that began before the window enters it with its own slope).
fn x(t: u64, t0: u64, t1: u64) -> f64 {
    let span = t1.saturating_sub(t0).max(1) as f64;
    LEFT + ((t as f64 - t0 as f64) / span).min(1.0) * (WIDTH - LEFT - RIGHT)
}

/// Where a trip from `a` (on its sender's line) to `b` (on its receiver's) meets the cut,
/// taken as straight from the cut's point on the sender's line, `ca`, to its point on the
/// receiver's, `cb`: both lines are walked together from the sender's line down (or up) to the
/// receiver's, and they meet where their x is the same (clamped to the trip).
fn meets(a: (f64, f64), b: (f64, f64), ca: f64, cb: f64) -> (f64, f64) {
    let closing = (b.0 - a.0) - (cb - ca);
    let u = if closing.abs() < 1e-9 {
        0.5
    } else {
        ((ca - a.0) / closing).clamp(0.0, 1.0)
    };
    (a.0 + (b.0 - a.0) * u, a.1 + (b.1 - a.1) * u)
}

pub fn spacetime(p: &SpaceTimeProps) -> Html {
    let s = p.lang.strings();
    let run = p.run.0.borrow();
    let sim = run.sim();
    let phys = sim.physical();
    let marks = run.marks();
    let done = marks.iter().rev().find(|m| m.kind == MarkKind::Completed);
    let began = done.and_then(|d| {
        marks
            .iter()
            .find(|m| m.checkpoint == d.checkpoint && m.kind == MarkKind::Triggered)
    });
    let steps = began.map_or(STEPS, |b| {
        (run.position().saturating_sub(b.step) + 8).clamp(STEPS, MOST)
    });
    let (st, t0): (SpaceTime, u64) = run.space_time(steps);
    let t1 = sim.now().max(1);
    let t0 = t0.min(t1.saturating_sub(1));
    let step = row_height(phys.tasks.len());
    let row = |t: u32| TOP + step * f64::from(t);
    let height = row(phys.tasks.len() as u32) + 4.0;
    let lines = phys.tasks.iter().enumerate().map(|(t, info)| {
        let y = px(row(t as u32));
        html! { <g class="st-task">
            <text x="4" y={px(row(t as u32) + 4.0)}>{ info.name.clone() }</text>
            <line x1={px(LEFT)} x2={px(WIDTH - RIGHT)} y1={y.clone()} y2={y} />
        </g> }
    });
    // Trips that arrived in the window (the newest at most), and the snapshots taken in it.
    let trips: Vec<_> = st.trips().iter().filter(|t| t.arrived.time >= t0).collect();
    let first = trips.len().saturating_sub(TRIPS);
    let trip_lines = trips[first..].iter().map(|trip| {
        let info = &phys.channels[trip.channel as usize];
        let (class, k) = match trip.item {
            ItemKind::Record(_) => ("st-rec", None),
            ItemKind::Barrier(n) => ("st-bar", Some(n)),
            ItemKind::Cancel(n) => ("st-cancel", Some(n)),
            ItemKind::EndOfPartition => ("st-eop", None),
        };
        // A trip that began before the window enters it at the left edge, on its own line.
        let (mut xs, mut ys) = (x(trip.sent.time, t0, t1), row(info.from));
        let (xa, ya) = (x(trip.arrived.time, t0, t1), row(info.to));
        if xs < LEFT && xa > xs {
            ys += (ya - ys) * (LEFT - xs) / (xa - xs);
            xs = LEFT;
        }
        html! { <line class={classes!(class, k.map(palette::checkpoint_class))}
        x1={px(xs)} y1={px(ys)} x2={px(xa)} y2={px(ya)} /> }
    });
    let dots = st.snapshots().iter().filter(|p| p.at.time >= t0).map(|p| {
        html! { <circle class={classes!("st-snap", palette::checkpoint_class(p.checkpoint))} r="3.5"
        cx={px(x(p.at.time, t0, t1))} cy={px(row(p.task))} /> }
    });
    // Each completed snapshot whose every point is in the window: its cut, and the records
    // across it where they cross.
    let mut cuts = Vec::new();
    for g in sim.coordinator().completed() {
        let n = g.checkpoint;
        let points: Option<Vec<(f64, f64)>> = (0..phys.tasks.len() as u32)
            .map(|t| {
                let p = st.snapshot_of(t, n).filter(|p| p.at.time >= t0)?;
                Some((x(p.at.time, t0, t1), row(t)))
            })
            .collect();
        let Some(points) = points else { continue };
        let mut flight = Vec::new();
        let mut marks = Vec::new();
        let mut orphans = 0;
        for (c, info) in phys.channels.iter().enumerate() {
            let across = st.crossing(sim, c as u32, n);
            orphans += across.iter().filter(|(_, a)| *a == Across::Orphan).count();
            for (record, how) in &across {
                // Where the record's line meets the cut: on the receiver's line if it never
                // arrived in the window, else halfway.
                let at = st
                    .trips()
                    .iter()
                    .find(|t| t.item == ItemKind::Record(*record));
                let (mx, my) = match at {
                    Some(t) => meets(
                        (x(t.sent.time, t0, t1), row(info.from)),
                        (x(t.arrived.time, t0, t1), row(info.to)),
                        points[info.from as usize].0,
                        points[info.to as usize].0,
                    ),
                    None => (x(t1, t0, t1), row(info.to)),
                };
                let class = match how {
                    Across::InFlight => "st-flight",
                    Across::Orphan => "st-orphan",
                };
                marks.push(
                    html! { <circle class={classes!(class, palette::checkpoint_class(n))}
                    r="4" cx={px(mx)} cy={px(my)} /> },
                );
            }
            if across.iter().any(|(_, a)| *a == Across::InFlight) {
                flight.push(format!(
                    "{}->{}",
                    phys.tasks[info.from as usize].name, phys.tasks[info.to as usize].name
                ));
            }
        }
        let path: String = points
            .iter()
            .map(|(x, y)| format!("{},{} ", px(*x), px(*y)))
            .collect();
        cuts.push(
            html! { <g class={classes!("st-cut", palette::checkpoint_class(n))}
                data-testid={format!("cut-{n}")} data-in-flight={flight.join(" ")}
                data-orphans={orphans.to_string()}>
                <polyline points={path} />
                { for marks }
            </g> },
        );
    }
    let now = px(x(t1, t0, t1));
    html! {
        <section class="spacetime" data-testid="spacetime" aria-label={s.spacetime_title}>
            <p class="hint">{ s.spacetime_hint }</p>
            <div class="st-scroll">
            <svg viewBox={format!("0 0 {} {}", px(WIDTH), px(height))} role="img"
                aria-label={s.spacetime_title}>
                { for lines }
                { for trip_lines }
                { for cuts }
                { for dots }
                <line class="st-now" x1={now.clone()} x2={now} y1="2" y2={px(height - 2.0)} />
            </svg>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trip_is_marked_where_it_meets_the_cut() {
        // A cut straight down at x = 100; a trip from x = 50 to 150 meets it halfway.
        let (x, y) = meets((50.0, 0.0), (150.0, 10.0), 100.0, 100.0);
        assert!(
            (x - 100.0).abs() < 1e-9 && (y - 5.0).abs() < 1e-9,
            "{x},{y}"
        );
        // The cut leans from 100 to 140: the trip from 80 to 160 meets it at (120, 5).
        let (x, y) = meets((80.0, 0.0), (160.0, 10.0), 100.0, 140.0);
        assert!(
            (x - 120.0).abs() < 1e-9 && (y - 5.0).abs() < 1e-9,
            "{x},{y}"
        );
        // Parallel to the cut: the middle; past its end: clamped to the trip.
        assert_eq!(meets((0.0, 0.0), (40.0, 10.0), 100.0, 140.0), (20.0, 5.0));
        assert_eq!(
            meets((200.0, 0.0), (300.0, 10.0), 100.0, 100.0),
            (200.0, 0.0)
        );
        // A loop back to the same task (a back-edge): on its line, at the cut.
        assert_eq!(meets((50.0, 4.0), (150.0, 4.0), 100.0, 100.0), (100.0, 4.0));
    }

    #[test]
    fn time_maps_onto_the_plot_and_earlier_falls_left_of_it() {
        assert_eq!(x(100, 100, 200), LEFT);
        assert_eq!(x(200, 100, 200), WIDTH - RIGHT);
        assert!(x(50, 100, 200) < LEFT);
        assert_eq!(x(300, 100, 200), WIDTH - RIGHT);
    }
}
