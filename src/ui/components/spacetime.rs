//! The space-time diagram: a line per subtask or process, virtual time left to right, every
//! item's trip as a line from its sender's to its receiver's, each snapshot a dot in its
//! checkpoint's colour, and each completed snapshot's cut drawn through its dots. The records
//! across a cut are marked where they cross it: ringed if in flight (the channel state a
//! consistent snapshot records), red if they crossed it the wrong way (an orphan). It shows the
//! last steps — enough for the latest completed checkpoint's whole cut, [`STEPS`] to 400 —
//! replayed from the history (`Run::space_time`), so a long run stays readable; the
//! classification is the engine's (`view::SpaceTime::crossing`).
//!
//! The student can place a cut of their own (`UserCut`): a point per line, moved by a click or
//! a drag on the line or by the arrow keys; the engine classifies the records across it
//! (`SpaceTime::across`) and the verdict names each orphan.
//!
//! The picture is written as one SVG string (names escaped), not as a tree of elements: it is
//! redrawn whole on every step anyway, and the string weighs a fraction of the element
//! builders in the page's wasm.

use std::fmt::Write;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::engine::record::ItemKind;
use crate::engine::view::{Across, MarkKind, SpaceTime};
use crate::i18n::Lang;
use crate::ui::fmt::{clamp, escape, px};
use crate::ui::palette::checkpoint_class as k;
use crate::ui::state::{RunRef, Selection, UserCut};

#[cfg(feature = "views")]
mod grouped;
#[cfg(feature = "views")]
pub use grouped::STYLE as GROUPED_STYLE;

/// Steps the diagram shows at least, up to the position; more (up to `MOST`) when the
/// latest completed checkpoint took longer, so its whole cut is in view.
pub const STEPS: u64 = 80;
const MOST: u64 = 400;
/// Trips drawn at most (the newest).
const TRIPS: usize = 600;
/// Orphans of the student's cut named one by one, at most.
const NAMED: usize = 6;

/// The labels' column: a subtask's name of 11 characters (`Sentences#0`) at the labels' 11
/// units fits it; a longer one is narrowed to it (`label_fit`), never drawn over the plot.
const LEFT: f64 = 88.0;
const RIGHT: f64 = 8.0;
const WIDTH: f64 = 640.0;
const TOP: f64 = 14.0;
const PLOT: f64 = WIDTH - LEFT - RIGHT;

/// The distance between two task lines: roomy for a few processes, tight for many subtasks.
fn row_height(tasks: usize) -> f64 {
    (180.0 / tasks.max(1) as f64).clamp(12.0, 44.0)
}

#[derive(Properties, PartialEq, Clone)]
pub struct SpaceTimeProps {
    pub run: RunRef,
    pub version: u64,
    pub lang: Lang,
    /// The student's cut, if one is placed.
    pub cut: Option<UserCut>,
    pub on_cut: Callback<Option<UserCut>>,
    /// The dataflow's selection, shared: a subtask's line, a channel's or an item's trips
    /// are drawn highlighted, and a click on a line selects its subtask.
    pub selection: Option<Selection>,
    pub on_select: Callback<Option<Selection>>,
    /// Opens the search of every run of this system (offered when it is small).
    pub on_explore: Callback<()>,
}

/// Where time `t` is drawn, `t0` at the left edge of the plot and `t1` at its right (earlier
/// times fall left of it: a trip that began before the window enters it with its own slope).
fn x(t: u64, t0: u64, t1: u64) -> f64 {
    let span = t1.saturating_sub(t0).max(1) as f64;
    LEFT + ((t as f64 - t0 as f64) / span).min(1.0) * PLOT
}

/// A label too long for the labels' column (at about 0.62 em a character, a wide glyph two)
/// is narrowed to the column's width.
fn label_fit(name: &str) -> String {
    let room = LEFT - 10.0;
    let ems: f64 = name
        .chars()
        .map(|c| if c.is_ascii() { 0.62 } else { 1.0 })
        .sum();
    if ems * 11.0 > room {
        // `px`, not `{room}`: Rust's float formatting weighs kilobytes of the page's wasm.
        format!(
            r#" textLength="{}" lengthAdjust="spacingAndGlyphs""#,
            px(room)
        )
    } else {
        String::new()
    }
}

/// The time drawn at `x`, within the window.
fn time_at(x: f64, t0: u64, t1: u64) -> u64 {
    let span = t1.saturating_sub(t0) as f64;
    t0 + (clamp((x - LEFT) / PLOT, 0.0, 1.0) * span).round() as u64
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

/// Where the trip from `a` to `b` crosses the cut drawn as `path` (a point per line, top to
/// bottom): the first segment of the path it meets, if it meets one.
fn on_path(a: (f64, f64), b: (f64, f64), path: &[(f64, f64)]) -> Option<(f64, f64)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    path.windows(2).find_map(|w| {
        let (p, q) = (w[0], w[1]);
        let (ex, ey) = (q.0 - p.0, q.1 - p.1);
        let den = dx * ey - dy * ex;
        if den.abs() < 1e-9 {
            return None;
        }
        let (fx, fy) = (p.0 - a.0, p.1 - a.1);
        let u = (fx * ey - fy * ex) / den;
        let v = (fx * dy - fy * dx) / den;
        let inside = |t: f64| (-1e-9..=1.0 + 1e-9).contains(&t);
        (inside(u) && inside(v)).then_some((a.0 + dx * u, a.1 + dy * u))
    })
}

/// A ring where a record crosses a cut: in flight, or (filled red) an orphan.
fn ring(svg: &mut String, how: Across, (mx, my): (f64, f64), class: &str) {
    let how = match how {
        Across::InFlight => "st-flight",
        Across::Orphan => "st-orphan",
    };
    let _ = write!(
        svg,
        r#"<circle class="{how} {class}" r="4" cx="{}" cy="{}"/>"#,
        px(mx),
        px(my)
    );
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
    // A job drawn bundled: a line per operator, as the dataflow draws it.
    #[cfg(feature = "views")]
    if run.layout.bundled {
        return grouped::section(p.lang, sim, &st, t0, t1);
    }
    let tasks = phys.tasks.len();
    let step = row_height(tasks);
    let row = |t: u32| TOP + step * f64::from(t);
    // As much room under the last line as above the first; whole units, as the export reads
    // the view box back as whole numbers.
    let height = (row(tasks.saturating_sub(1) as u32) + TOP).ceil();
    let (w, h) = (px(WIDTH), px(height));
    let mut svg = format!(
        r#"<svg viewBox="0 0 {w} {h}" role="img" aria-label="{}">"#,
        s.spacetime_title
    );
    let sel = p.selection;
    for (t, info) in phys.tasks.iter().enumerate() {
        let y = px(row(t as u32));
        let on = sel == Some(Selection::Task(t as u32));
        let _ = write!(
            svg,
            r#"<g class="st-task{}" data-task="{t}"><text x="4" y="{}"{}>{}</text><line x1="{}" x2="{}" y1="{y}" y2="{y}"/></g>"#,
            if on { " sel" } else { "" },
            px(row(t as u32) + 4.0),
            label_fit(&info.name),
            escape(&info.name),
            px(LEFT),
            px(WIDTH - RIGHT),
        );
    }
    // Trips that arrived in the window (the newest at most), and the snapshots taken in it.
    let trips: Vec<_> = st.trips().iter().filter(|t| t.arrived.time >= t0).collect();
    let first = trips.len().saturating_sub(TRIPS);
    for trip in &trips[first..] {
        let info = &phys.channels[trip.channel as usize];
        let (class, n) = trip_class(trip.item);
        // A trip that began before the window enters it at the left edge, on its own line.
        let (mut xs, mut ys) = (x(trip.sent.time, t0, t1), row(info.from));
        let (xa, ya) = (x(trip.arrived.time, t0, t1), row(info.to));
        if xs < LEFT && xa > xs {
            ys += (ya - ys) * (LEFT - xs) / (xa - xs);
            xs = LEFT;
        }
        let _ = write!(
            svg,
            r#"<line class="{class} {}{}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            n.map_or("", k),
            match sel {
                Some(Selection::Channel(c)) if c == trip.channel => " sel",
                Some(Selection::Item { channel, item })
                    if channel == trip.channel && item == trip.item =>
                    " sel",
                _ => "",
            },
            px(xs),
            px(ys),
            px(xa),
            px(ya)
        );
        // A record that waited in its receiver's alignment buffer: the wait, along the
        // receiver's line up to its processing, which is what a cut counts.
        if let (ItemKind::Record(_), Some(done)) = (trip.item, trip.processed) {
            if done.time > trip.arrived.time {
                let _ = write!(
                    svg,
                    r#"<line class="st-wait" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
                    px(xa),
                    px(ya),
                    px(x(done.time, t0, t1)),
                    px(ya)
                );
            }
        }
    }
    // Where a record's line meets a cut through `ca` on its sender's line and `cb` on its
    // receiver's: on the receiver's line at the right edge if it has not arrived yet.
    let meeting = |channel: u32, id: u64, points: &[f64]| {
        let info = &phys.channels[channel as usize];
        let trip = st.trips().iter().find(|t| match t.item {
            ItemKind::Record(r) => r.id == id && t.channel == channel,
            _ => false,
        });
        match trip {
            Some(t) => {
                let a = (x(t.sent.time, t0, t1), row(info.from));
                let b = (x(t.arrived.time, t0, t1), row(info.to));
                let path: Vec<(f64, f64)> = points
                    .iter()
                    .enumerate()
                    .map(|(i, &px)| (px, row(i as u32)))
                    .collect();
                on_path(a, b, &path).unwrap_or_else(|| {
                    meets(a, b, points[info.from as usize], points[info.to as usize])
                })
            }
            None => (x(t1, t0, t1), row(info.to)),
        }
    };
    // Each completed snapshot whose every point is in the window: its cut, and the records
    // across it where they cross (hidden while the student places a cut, unless asked for).
    let own = p.cut.as_ref().is_none_or(|c| c.own);
    for g in sim.coordinator().completed().filter(|_| own) {
        let n = g.checkpoint;
        let points: Option<Vec<f64>> = (0..tasks as u32)
            .map(|t| {
                let p = st.snapshot_of(t, n).filter(|p| p.at.time >= t0)?;
                Some(x(p.at.time, t0, t1))
            })
            .collect();
        let Some(points) = points else { continue };
        let mut rings = String::new();
        let mut flight = Vec::new();
        let (mut orphans, mut lost) = (0, 0);
        let mut channels: Vec<u32> = Vec::new();
        // A record in flight at the cut that the snapshot did not record as channel state is
        // lost (a non-FIFO channel can do that): a red ring, not the ring of channel state.
        let recorded = |c: u32, id: u64| {
            sim.coordinator().global_state(n).is_none_or(|g| {
                g.channel_state
                    .get(&c)
                    .is_some_and(|v| v.iter().any(|r| r.id == id))
            })
        };
        for (c, record, how) in st.crossings(sim, n) {
            orphans += usize::from(how == Across::Orphan);
            let missed = how == Across::InFlight && !recorded(c, record.id);
            lost += usize::from(missed);
            let class = if missed { "st-lost" } else { k(n) };
            ring(&mut rings, how, meeting(c, record.id, &points), class);
            // In channel order, once each (a sort would add its own code to the page).
            if how == Across::InFlight {
                if let Err(at) = channels.binary_search(&c) {
                    channels.insert(at, c);
                }
            }
        }
        for c in channels {
            let info = &phys.channels[c as usize];
            flight.push(format!(
                "{}->{}",
                phys.tasks[info.from as usize].name, phys.tasks[info.to as usize].name
            ));
        }
        let _ = write!(
            svg,
            r#"<g class="st-cut {}" data-testid="cut-{n}" data-in-flight="{}" data-orphans="{orphans}" data-lost="{lost}"><polyline points="{}"/>{rings}</g>"#,
            k(n),
            escape(&flight.join(" ")),
            polyline(&points, row),
        );
    }
    for p in st.snapshots().iter().filter(|p| p.at.time >= t0) {
        let _ = write!(
            svg,
            r#"<circle class="st-snap {}" r="3.5" cx="{}" cy="{}"/>"#,
            k(p.checkpoint),
            px(x(p.at.time, t0, t1)),
            px(row(p.task))
        );
    }
    // The student's cut: its line, the records across it, a handle per line, and the verdict.
    let mut verdict = String::new();
    if let Some(cut) = p.cut.as_ref().filter(|c| c.at.len() == tasks) {
        let at: Vec<u64> = cut.at.iter().map(|&t| t.clamp(t0, t1)).collect();
        let points: Vec<f64> = at.iter().map(|&t| x(t, t0, t1)).collect();
        let across = st.across(sim, &at);
        let mut rings = String::new();
        let mut orphans = Vec::new();
        let mut flight = 0;
        for &(c, record, how) in &across {
            let info = &phys.channels[c as usize];
            let spot = meeting(c, record.id, &points);
            ring(&mut rings, how, spot, "st-mine");
            match how {
                Across::InFlight => flight += 1,
                Across::Orphan => orphans.push((record.id, info.from, info.to)),
            }
        }
        let _ = write!(
            svg,
            r#"<g class="st-user" data-testid="user-cut-line" data-at="{}"><polyline points="{}"/>{rings}"#,
            cut.at
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            polyline(&points, row),
        );
        for (t, &px_) in points.iter().enumerate() {
            let on = if t as u32 == cut.line { " on" } else { "" };
            let _ = write!(
                svg,
                r#"<circle class="st-handle{on}" data-testid="cut-point" data-line="{t}" r="6" cx="{}" cy="{}"/>"#,
                px(px_),
                px(row(t as u32))
            );
        }
        svg += "</g>";
        let name = |t: u32| phys.tasks[t as usize].name.as_str();
        let n = orphans.len();
        let (ok, head) = match n {
            0 => ("true", (s.cut_consistent)(flight)),
            n => ("false", (s.cut_inconsistent)(n)),
        };
        let mut v = format!(
            r#"<div class="verdict st-verdict {}" data-testid="cut-verdict" role="status" data-consistent="{ok}"><p>{}</p><ul>"#,
            if n == 0 { "ok" } else { "bad" },
            escape(&head)
        );
        for &(id, from, to) in orphans.iter().take(NAMED) {
            let _ = write!(
                v,
                "<li>{}</li>",
                escape(&(s.cut_orphan)(id, name(from), name(to)))
            );
        }
        v += "</ul>";
        if n > NAMED {
            let _ = write!(v, "<p>{}</p>", escape(&(s.more)(n - NAMED)));
        }
        verdict = v + "</div>";
    }
    let now = px(x(t1, t0, t1));
    let _ = write!(
        svg,
        r#"<line class="st-now" x1="{now}" x2="{now}" y1="2" y2="{}"/></svg>"#,
        px(height - 2.0)
    );

    // A click or a drag on the plot moves the point of the line under it (the line the drag
    // began on); the arrow keys move the chosen line's point, or choose another line; the
    // buttons (by their `data-act`) place or take away the cut and show the snapshots' cuts.
    let cutting = p.cut.is_some();
    let emit = {
        let on_cut = p.on_cut.clone();
        move |e: &Event, next: Option<UserCut>| {
            e.prevent_default();
            e.stop_propagation();
            on_cut.emit(next);
        }
    };
    let place = {
        let (cut, emit) = (p.cut.clone(), emit.clone());
        move |e: &MouseEvent, down: bool| {
            let Some(cut) = cut.as_ref() else { return };
            let Some(svg) = super::target_closest(e, "svg") else {
                return;
            };
            let r = svg.get_bounding_client_rect();
            if r.width() <= 0.0 || r.height() <= 0.0 || (!down && e.buttons() & 1 == 0) {
                return;
            }
            let vx = (f64::from(e.client_x()) - r.left()) / r.width() * WIDTH;
            let vy = (f64::from(e.client_y()) - r.top()) / r.height() * height;
            let mut next = cut.clone();
            if down {
                let last = tasks.saturating_sub(1) as f64;
                next.line = clamp(((vy - TOP) / step).round(), 0.0, last) as u32;
                let _ = svg.set_pointer_capture(e.unchecked_ref::<PointerEvent>().pointer_id());
            }
            if let Some(a) = next.at.get_mut(next.line as usize) {
                *a = time_at(vx, t0, t1);
            }
            emit(e, Some(next));
        }
    };
    let onpointerdown = {
        let place = place.clone();
        Callback::from(move |e: PointerEvent| place(&e, true))
    };
    let onpointermove = Callback::from(move |e: PointerEvent| place(&e, false));
    let onkeydown = {
        let (cut, emit) = (p.cut.clone(), emit.clone());
        Callback::from(move |e: KeyboardEvent| {
            let Some(cut) = cut.as_ref() else { return };
            let mut next = cut.clone();
            let by = (t1.saturating_sub(t0) / 80).max(1) * if e.shift_key() { 10 } else { 1 };
            let at = next
                .at
                .get(next.line as usize)
                .copied()
                .unwrap_or(t0)
                .clamp(t0, t1);
            let moved = match e.key().as_str() {
                "ArrowLeft" => at.saturating_sub(by).max(t0),
                "ArrowRight" => (at + by).min(t1),
                "ArrowUp" => {
                    next.line = next.line.saturating_sub(1);
                    at
                }
                "ArrowDown" => {
                    next.line = (next.line + 1).min((tasks as u32).saturating_sub(1));
                    next.at.get(next.line as usize).copied().unwrap_or(t0)
                }
                _ => return,
            };
            if let Some(a) = next.at.get_mut(next.line as usize) {
                *a = moved;
            }
            emit(&e, Some(next));
        })
    };
    let onclick = {
        let (cut, on_select, on_explore) =
            (p.cut.clone(), p.on_select.clone(), p.on_explore.clone());
        let middle = t0 + t1.saturating_sub(t0) / 2;
        Callback::from(move |e: MouseEvent| {
            let act =
                super::target_closest(&e, "[data-act]").and_then(|el| el.get_attribute("data-act"));
            let next = match (act.as_deref(), &cut) {
                (Some("explore"), _) => return on_explore.emit(()),
                (Some("cut"), Some(_)) => None,
                (Some("cut"), None) => Some(UserCut {
                    at: vec![middle; tasks],
                    ..UserCut::default()
                }),
                (Some("own"), Some(c)) => Some(UserCut {
                    own: !c.own,
                    ..c.clone()
                }),
                // Not placing a cut: a click on a line selects its subtask.
                (None, None) => {
                    let task = super::target_closest(&e, "[data-task]")
                        .and_then(|el| el.get_attribute("data-task"))
                        .and_then(|t| t.parse().ok());
                    if let Some(t) = task {
                        on_select.emit(Some(Selection::Task(t)));
                    }
                    return;
                }
                _ => return,
            };
            let section = super::target_closest(&e, ".spacetime")
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
            emit(&e, next);
            // The section takes the focus once redrawn (its buttons are drawn anew, and the
            // one clicked is gone): the arrow keys move the cut at once.
            if let Some(section) = section {
                yew::platform::spawn_local(async move {
                    let _ = section.focus();
                });
            }
        })
    };
    let pressed = |on: bool| if on { "true" } else { "false" };
    let mut body = format!(
        r#"<p class="hint">{}</p><p class="st-tools"><button data-act="cut" data-testid="user-cut" aria-pressed="{}">{}</button>"#,
        s.spacetime_hint,
        pressed(cutting),
        s.cut_place
    );
    if cutting {
        let _ = write!(
            body,
            r#"<button data-act="own" data-testid="own-cut" aria-pressed="{}">{}</button>"#,
            pressed(own),
            s.cut_own
        );
    }
    // The search of every run (`?view=explore`) ends only for a handful of tasks.
    if tasks <= 6 {
        let _ = write!(
            body,
            r#"<button data-act="explore" data-testid="explore-open">{}</button>"#,
            s.explore_open
        );
    }
    body += "</p>";
    if cutting {
        let _ = write!(body, r#"<p class="hint">{}</p>"#, s.cut_keys);
    }
    let _ = write!(
        body,
        r#"<div class="st-scroll{}">{svg}</div>{verdict}"#,
        if cutting { " st-cutting" } else { "" }
    );
    html! {
        <section class="spacetime" data-testid="spacetime" aria-label={s.spacetime_title}
            tabindex={if cutting { "0" } else { "-1" }}
            onclick={onclick} onpointerdown={onpointerdown} onpointermove={onpointermove}
            onkeydown={onkeydown}>
            { Html::from_html_unchecked(body.into()) }
        </section>
    }
}

/// How a trip is drawn: its class, and the checkpoint whose colour it takes.
fn trip_class(item: ItemKind) -> (&'static str, Option<u64>) {
    match item {
        ItemKind::Record(_) => ("st-rec", None),
        ItemKind::Barrier(n) => ("st-bar", Some(n)),
        ItemKind::Cancel(n) => ("st-cancel", Some(n)),
        ItemKind::EndOfData | ItemKind::EndOfPartition => ("st-eop", None),
    }
}

/// A cut's points, one per line, as an SVG polyline's `points`.
fn polyline(points: &[f64], row: impl Fn(u32) -> f64) -> String {
    points
        .iter()
        .enumerate()
        .map(|(t, x)| format!("{},{} ", px(*x), px(row(t as u32))))
        .collect()
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
    fn a_trip_is_marked_where_it_crosses_the_drawn_cut() {
        // The cut bends: (100, 0) → (200, 10) → (100, 20). A trip from (50, 0) to (250, 20),
        // at x = 50 + 10y, runs parallel to the first segment (x = 100 + 10y) and crosses
        // the second (x = 300 - 10y) at y = 12.5, x = 175.
        let path = [(100.0, 0.0), (200.0, 10.0), (100.0, 20.0)];
        let (x, y) = on_path((50.0, 0.0), (250.0, 20.0), &path).unwrap();
        assert!(
            (x - 175.0).abs() < 1e-9 && (y - 12.5).abs() < 1e-9,
            "{x},{y}"
        );
        // A trip wholly left of the cut does not cross it.
        assert_eq!(on_path((0.0, 0.0), (10.0, 20.0), &path), None);
    }

    #[test]
    fn a_label_too_long_for_its_column_is_narrowed_to_it() {
        assert_eq!(label_fit("Sentences#0"), "");
        assert_eq!(label_fit("p"), "");
        let narrowed = label_fit("Enrichment-with-a-long-name#12");
        assert!(
            narrowed.contains(&format!("textLength=\"{}\"", LEFT - 10.0)),
            "{narrowed}"
        );
        assert_ne!(label_fit("計數計數計數計數#0"), "");
    }

    #[test]
    fn time_maps_onto_the_plot_and_earlier_falls_left_of_it() {
        assert_eq!(x(100, 100, 200), LEFT);
        assert_eq!(x(200, 100, 200), WIDTH - RIGHT);
        assert!(x(50, 100, 200) < LEFT);
        assert_eq!(x(300, 100, 200), WIDTH - RIGHT);
    }
}
