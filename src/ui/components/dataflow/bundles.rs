//! The bundled drawing of a job of real size (more channels than
//! [`BUNDLED_MIN_CHANNELS`](crate::ui::layout::BUNDLED_MIN_CHANNELS)): each operator a card
//! whose subtasks are a strip of cells coloured by state, each edge one band with its totals —
//! records and barriers on its channels, and how many of them are blocked. With 131,000
//! channels an element each would take seconds to draw and megabytes to keep, so the whole is
//! one markup string (a path per cell colour, a path and a label per band), rebuilt per render
//! in one pass over the channels. A cell is clicked by geometry (`pick.rs`); a card's header
//! opens the operator, a band's totals the edge — the inspector lists their busiest and
//! slowest subtasks and channels (`components/bundled.rs`).

use std::fmt::Write;

use crate::engine::record::ItemKind;
use crate::engine::view::{self, TaskStatus};
use crate::engine::{Simulation, TaskId};
use crate::i18n::Strings;
use crate::ui::fmt::escape;
use crate::ui::layout::{text_width, Layout, Rect};
use crate::ui::state::Selection;

/// The drawing's style rules: added by the build that draws bundled (`bin/abs-big.rs`), not
/// in index.html's sheet, which every student loads. On a phone the graph is drawn at its own
/// size (1.1 px per unit, as a detailed graph is there: its labels 11 px, its cells 9) and the
/// stage scrolls sideways, instead of fitting 1,024 cells into the width.
pub const STYLE: &str = ".band path{fill:none;stroke:var(--chan);stroke-opacity:.3;}.band.blocked path{stroke:var(--blocked);stroke-opacity:.4;stroke-dasharray:12 6;}.band text{font-size:10px;fill:var(--fg);text-anchor:middle;}.cells{fill:var(--badge);stroke:var(--line-strong);stroke-width:.4;}.cells.backpressured{fill:var(--blocked-soft);stroke:var(--blocked);}.cells.aligning{fill:var(--blocked);}.cells.acked{fill:var(--ok);}.cells.finished{fill:var(--line);}.cells.failed{fill:var(--bad);}.cell-selected{fill:none;stroke:var(--accent);stroke-width:2;}.card-head{fill:transparent;cursor:pointer;}.card-head:hover,.card-head:focus-visible{fill:var(--accent);fill-opacity:.12;}.card-head.selected{fill:none;stroke:var(--accent);stroke-width:2;}.band{cursor:pointer;}.band.selected path{stroke:var(--accent);stroke-opacity:.35;}.band.selected text{font-weight:bold;}.cells-legend text{font-size:10px;fill:var(--muted);}.ranked{margin:.2rem 0 .4rem 1.6rem;padding:0;font-size:.85rem;}.ranked li{margin:.15rem 0;}@media (max-width:640px){.app:not(.embed) .stage.bundled{flex:none;min-height:0;overflow-x:auto;overflow-y:hidden;}.app:not(.embed) .stage.bundled svg.graph{position:relative;width:auto;min-width:100%;height:auto;}.app:not(.embed) .stage.bundled+.pan-hint{display:block;margin:.15rem 0 0;font-size:.8rem;color:var(--muted);}}";

/// A band's totals: what its channels hold, how many of them are blocked.
#[derive(Clone, Copy, Default)]
pub struct Totals {
    pub records: u64,
    pub barriers: u64,
    pub blocked: u64,
    pub channels: u64,
}

/// Each edge's totals, in one pass over the channels.
pub fn totals(sim: &Simulation) -> Vec<Totals> {
    let phys = sim.physical();
    let mut totals = vec![Totals::default(); phys.operator_edges.len()];
    for (c, ch) in sim.channels().iter().enumerate() {
        let Some(t) = totals.get_mut(phys.channels[c].edge as usize) else {
            continue;
        };
        for i in ch.items() {
            match i.kind {
                ItemKind::Record(_) => t.records += 1,
                ItemKind::Barrier(_) => t.barriers += 1,
                _ => {}
            }
        }
        t.channels += 1;
        if view::is_blocked(sim, c as u32) {
            t.blocked += 1;
        }
    }
    totals
}

/// What a strip cell's colour says, in the order the paths are drawn (and the legend under the
/// cards lists them).
pub const CELLS: [&str; 6] = [
    "running",
    "backpressured",
    "aligning",
    "acked",
    "finished",
    "failed",
];

/// The card and the band selected, if one is (only the second player opens them).
#[cfg(feature = "views")]
fn opened(selection: Option<Selection>) -> (Option<u32>, Option<u32>) {
    match selection {
        Some(Selection::Operator(o)) => (Some(o), None),
        Some(Selection::Edge(e)) => (None, Some(e)),
        _ => (None, None),
    }
}

#[cfg(not(feature = "views"))]
fn opened(_: Option<Selection>) -> (Option<u32>, Option<u32>) {
    (None, None)
}

/// Which of [`CELLS`] subtask `t`'s cell is.
pub fn cell_class(sim: &Simulation, t: TaskId) -> usize {
    let coordinator = sim.coordinator();
    match view::task_status(sim, t) {
        TaskStatus::Failed | TaskStatus::Cancelled => 5,
        TaskStatus::Finished => 4,
        TaskStatus::Aligning { .. }
        | TaskStatus::Tracking { .. }
        | TaskStatus::Persisting { .. }
        | TaskStatus::Snapshotting { .. }
        | TaskStatus::Stopped { .. } => 2,
        _ if coordinator
            .in_progress()
            .any(|n| coordinator.acked_by(n, t)) =>
        {
            3
        }
        TaskStatus::Backpressured => 1,
        _ => 0,
    }
}

fn cell(out: &mut String, r: &Rect) {
    // Whole units (no float formatting: it weighs kilobytes of wasm).
    let (x, y, w, h) = (r.x as i32, r.y as i32, r.w as i32, r.h as i32);
    let _ = write!(out, "M{x} {y}h{w}v{h}h-{w}z");
}

/// The strips, the bands and their labels (`blocked`: the page's word for a blocked input),
/// the cards' headers to click; the selected subtask's cell, card or band outlined.
pub(super) fn markup(
    sim: &Simulation,
    layout: &Layout,
    selection: Option<Selection>,
    s: &Strings,
) -> String {
    let blocked = s.blocked;
    let phys = sim.physical();
    let totals = totals(sim);
    let (selected_card, selected_edge) = opened(selection);
    let mut out = String::from(r#"<g class="bundles">"#);
    // The lowest a loop's totals reach (the legend goes under them).
    let mut under = 0.0f64;
    for (e, ((band, _), t)) in layout.bundles.iter().zip(&totals).enumerate() {
        let (from, to) = phys.operator_edges[e];
        // Half a card's height; an arch or a loop (its controls off its ends' height) a
        // thin line, which passes over or under the cards between.
        let width = if band.c1.y == band.from.y {
            0.5 * layout.operators[from as usize]
                .rect
                .h
                .min(layout.operators[to as usize].rect.h)
        } else {
            10.0
        };
        // The totals above the cards' tops, where no item passes (items keep within the
        // cards' height), so a click on them always opens the band; above an arch, under a
        // loop.
        let mid = band.point_at(band.length() / 2.0);
        let (a, b) = (
            layout.operators[from as usize].rect,
            layout.operators[to as usize].rect,
        );
        let (top, bottom) = (a.y.min(b.y), (a.y + a.h).max(b.y + b.h));
        let y = if mid.y < top {
            mid.y - 18.0
        } else if mid.y > bottom {
            under = under.max(mid.y + 26.0);
            mid.y + 14.0
        } else {
            top - 18.0
        };
        let (x, y) = (mid.x as i32, y as i32);
        let _ = write!(
            out,
            r#"<g class="band{}{}" data-testid="bundle-{e}" data-sel="e:{e}" tabindex="0" role="button" aria-label="{} → {}"><path d="{}" stroke-width="{}"/><text x="{x}" y="{y}"><tspan>● {} · ▌{}</tspan><tspan x="{x}" dy="1.15em">{blocked} {}/{}</tspan></text></g>"#,
            if t.blocked > 0 { " blocked" } else { "" },
            if selected_edge == Some(e as u32) {
                " selected"
            } else {
                ""
            },
            escape(&phys.graph.operators[from as usize].name),
            escape(&phys.graph.operators[to as usize].name),
            band.svg_d(),
            width as i32,
            t.records,
            t.barriers,
            t.blocked,
            t.channels,
        );
    }
    out.push_str("</g><g class=\"strips\">");
    let mut cells: [String; 6] = Default::default();
    for (t, b) in layout.subtasks.iter().enumerate() {
        cell(&mut cells[cell_class(sim, t as TaskId)], &b.rect);
    }
    for (class, d) in CELLS.iter().zip(&cells) {
        if !d.is_empty() {
            let _ = write!(out, r#"<path class="cells {class}" d="{d}"/>"#);
        }
    }
    // Each card's header (its name and parallelism) opens the operator.
    for (o, (b, op)) in layout
        .operators
        .iter()
        .zip(&phys.graph.operators)
        .enumerate()
    {
        let r = b.rect;
        let _ = write!(
            out,
            r#"<rect class="card-head{}" data-sel="o:{o}" data-testid="card-{o}" tabindex="0" role="button" aria-label="{}" x="{}" y="{}" width="{}" height="20" rx="8"/>"#,
            if selected_card == Some(o as u32) {
                " selected"
            } else {
                ""
            },
            escape(&op.name),
            r.x as i32,
            r.y as i32,
            r.w as i32,
        );
    }
    let selected = match selection {
        Some(Selection::Task(t)) => Some(t),
        _ => None,
    };
    if let Some(r) = selected.and_then(|t| layout.subtasks.get(t as usize)) {
        let mut d = String::new();
        cell(&mut d, &r.rect);
        let _ = write!(out, r#"<path class="cell-selected" d="{d}"/>"#);
    }
    // What the cells' colours say, under the cards (and the loops), in the status badges'
    // words.
    let bottom = layout
        .operators
        .iter()
        .map(|o| o.rect.y + o.rect.h)
        .fold(under, f64::max);
    let words = cell_words(sim, s);
    let (mut x, y) = (layout.operators[0].rect.x, bottom + 16.0);
    out.push_str(r#"<g class="cells-legend">"#);
    for (class, word) in CELLS.iter().zip(&words) {
        let (xi, yi) = (x as i32, y as i32);
        let _ = write!(
            out,
            r#"<path class="cells {class}" d="M{xi} {}h7v7h-7z"/><text x="{}" y="{yi}">{word}</text>"#,
            yi - 7,
            xi + 10
        );
        x += 22.0 + text_width(word, 10.0);
    }
    out.push_str("</g></g>");
    out
}

/// What each of [`CELLS`] is called: the status badges' words, the one between a checkpoint's
/// first barrier and its last as `view::task_status` says it in this mode.
pub fn cell_words(sim: &Simulation, s: &Strings) -> [String; 6] {
    let n = sim.coordinator().in_progress().next().unwrap_or(1);
    let mode = sim.mode();
    let aligning = if mode.stops_the_world() {
        (s.status_stopped)(n)
    } else if mode.blocks_inputs() {
        (s.status_aligning)(n)
    } else if mode.may_slip() {
        (s.status_tracking)(n)
    } else if sim.capabilities().keeps_aligned {
        // Unaligned, where some inputs keep their barriers aligned: those tasks align.
        format!("{} · {}", (s.status_persisting)(n), (s.status_aligning)(n))
    } else {
        (s.status_persisting)(n)
    };
    [
        s.status_running.to_string(),
        s.status_backpressured.to_string(),
        aligning,
        "✓".to_string(),
        s.status_finished.to_string(),
        s.status_failed.to_string(),
    ]
}
