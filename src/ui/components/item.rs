//! Items on channels: records (dots), barriers (bars labelled with their checkpoint), cancel
//! markers (hollow bars with a cross) and ends of partition (hollow squares).
//!
//! Moving items are painted on a canvas over the SVG every animation frame — thousands of
//! them cost one pass, not thousands of DOM nodes; [`place`] (pure) says where each one is,
//! and the same placement answers clicks. [`item_glyph`] draws one item in SVG for the
//! legend, the alignment buffers and the inspector, in the same vocabulary.

use std::fmt::Write;

use crate::engine::record::ItemKind;
use crate::engine::view;
use crate::engine::{ChannelId, CheckpointId, Simulation};
use crate::ui::layout::{item_offset, Layout, Metrics, Point};
use crate::ui::palette;
#[cfg(target_arch = "wasm32")]
use crate::ui::palette::Theme;

/// An item where it is drawn now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub channel: ChannelId,
    pub kind: ItemKind,
    pub at: Point,
    /// Unaligned: the checkpoint whose channel state this record is (or will be) part of.
    /// At-least-once: the checkpoint this record will slip into after an early barrier (drawn
    /// with a dashed ring).
    pub persisted: Option<CheckpointId>,
}

/// Every item on every channel at virtual time `clock`.
pub fn place(sim: &Simulation, layout: &Layout, clock: f64) -> Vec<Placed> {
    let mut out = Vec::new();
    place_into(&mut out, sim, layout, clock);
    out
}

/// [`place`] into a buffer the frame loop keeps, so a frame allocates nothing.
pub fn place_into(out: &mut Vec<Placed>, sim: &Simulation, layout: &Layout, clock: f64) {
    out.clear();
    let phys = sim.physical();
    MARKS.with_borrow_mut(|marks| {
        for (c, ch) in sim.channels().iter().enumerate() {
            if ch.items().is_empty() {
                continue;
            }
            // Bundled: along its band, spread across it by the receiving subtask, for one
            // channel in the band's stride (see `Layout::bundles`).
            let (path, (dy0, dy1)) = if crate::ui::layout::BUNDLES && layout.bundled {
                let pc = &phys.channels[c];
                let Some((band, stride)) = layout.bundles.get(pc.edge as usize) else {
                    continue;
                };
                if !(c as u32).is_multiple_of(*stride) {
                    continue;
                }
                // From the sender's cell's row to the receiver's: the band fans out. A band
                // arching over the graph or looping under it (its controls off its ends'
                // height) does not: its items keep to its line, clear of the cards.
                let (a, b) = (
                    &layout.subtasks[pc.from as usize],
                    &layout.subtasks[pc.to as usize],
                );
                let fans = band.c1.y == band.from.y;
                let fan = if fans {
                    (a.output.y - band.from.y, b.output.y - band.to.y)
                } else {
                    (0.0, 0.0)
                };
                (band, fan)
            } else {
                match layout.channels.get(c) {
                    Some(path) => (path, (0.0, 0.0)),
                    None => continue,
                }
            };
            let c = c as ChannelId;
            let (len, spacing) = (path.length(), layout.metrics.spacing);
            // Which records are channel state (or slip into a snapshot) is the engine's to say.
            view::item_marks(sim, c, marks);
            for (i, item) in ch.items().iter().enumerate() {
                let d = item_offset(i, item.sent_at, item.arrives_at, clock, len, spacing);
                out.push(Placed {
                    channel: c,
                    kind: item.kind,
                    at: {
                        let at = path.point_at(d);
                        Point {
                            x: at.x,
                            y: at.y + dy0 + (dy1 - dy0) * (d / len.max(1.0)),
                        }
                    },
                    persisted: marks.get(i).copied().flatten(),
                });
            }
        }
    });
}

thread_local! {
    /// The channel-state marks of one channel, reused so a frame allocates nothing.
    static MARKS: std::cell::RefCell<Vec<Option<CheckpointId>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The item under a point (in layout units), if one is within reach.
pub fn hit(items: &[Placed], p: Point, m: &Metrics) -> Option<Placed> {
    let reach = (m.record_r * 2.5).max(5.0);
    items
        .iter()
        .map(|it| (it, (it.at.x - p.x).powi(2) + (it.at.y - p.y).powi(2)))
        .filter(|(_, d2)| *d2 <= reach * reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(it, _)| *it)
}

/// Paints the items on a 2D canvas already transformed to layout units.
#[cfg(target_arch = "wasm32")]
pub fn paint(
    ctx: &web_sys::CanvasRenderingContext2d,
    items: &[Placed],
    m: &Metrics,
    detailed: bool,
    theme: &Theme,
    selected: Option<(ChannelId, ItemKind)>,
    mode: crate::engine::BarrierMode,
) {
    // At-least-once rings records that slip into a snapshot dashed; Chandy-Lamport's markers
    // are diamonds.
    let dashed = mode.may_slip();
    let diamonds = mode.processes_initiate();
    use std::f64::consts::TAU;

    let r = m.record_r;
    // Records first, one fill per colour. Dots (detailed drawing) go as SVG path data in one
    // call; the compact drawing's squares as `rect` calls, which need no string at all.
    let mut colours: Vec<&str> = Vec::new();
    for it in items {
        if let ItemKind::Record(rec) = &it.kind {
            let colour = palette::record(rec, theme.record);
            if !colours.contains(&colour) {
                colours.push(colour);
            }
        }
    }
    let mut d = String::new();
    for colour in colours {
        ctx.begin_path();
        d.clear();
        for it in items {
            let ItemKind::Record(rec) = &it.kind else {
                continue;
            };
            if palette::record(rec, theme.record) != colour {
                continue;
            }
            if detailed {
                dot(&mut d, it.at.x, it.at.y, r);
            } else {
                ctx.rect(it.at.x - r, it.at.y - r, 2.0 * r, 2.0 * r);
            }
        }
        ctx.set_fill_style_str(colour);
        if detailed {
            if let Ok(path) = web_sys::Path2d::new_with_path_string(&d) {
                ctx.fill_with_path_2d(&path);
            }
        } else {
            ctx.fill();
        }
    }
    // Replays after a recovery: a hollow centre (the halo colour), so a replayed record is
    // told apart at a glance without another colour.
    if detailed {
        ctx.begin_path();
        let mut any = false;
        for it in items {
            if matches!(it.kind, ItemKind::Record(rec) if rec.replay) {
                ctx.move_to(it.at.x + r * 0.45, it.at.y);
                let _ = ctx.arc(it.at.x, it.at.y, r * 0.45, 0.0, TAU);
                any = true;
            }
        }
        if any {
            ctx.set_fill_style_str(theme.halo);
            ctx.fill();
        }
    }
    // Rings of records that are (or will be) channel state, and barriers: one path per
    // checkpoint, so a frame sets a colour a handful of times, not once per item.
    let mut ids: Vec<CheckpointId> = Vec::new();
    for it in items {
        let n = match it.kind {
            ItemKind::Record(_) => it.persisted,
            ItemKind::Barrier(n) => Some(n),
            _ => None,
        };
        if let Some(n) = n {
            if !ids.contains(&n) {
                ids.push(n);
            }
        }
    }
    ctx.set_line_width(if detailed { 1.6 } else { 0.8 });
    let ring = r + 2.2;
    let dash = js_sys::Array::new();
    if dashed {
        dash.push(&wasm_bindgen::JsValue::from_f64(2.0));
        dash.push(&wasm_bindgen::JsValue::from_f64(1.6));
    }
    let _ = ctx.set_line_dash(&dash);
    for &n in &ids {
        ctx.begin_path();
        let mut any = false;
        for it in items {
            if matches!(it.kind, ItemKind::Record(_)) && it.persisted == Some(n) {
                ctx.move_to(it.at.x + ring, it.at.y);
                let _ = ctx.arc(it.at.x, it.at.y, ring, 0.0, TAU);
                any = true;
            }
        }
        if any {
            ctx.set_stroke_style_str(palette::checkpoint(n));
            ctx.stroke();
        }
    }
    if dashed {
        let _ = ctx.set_line_dash(&js_sys::Array::new());
    }
    let h = m.barrier_h;
    let w = if detailed { 4.0 } else { 1.6 };
    let barriers = || {
        items.iter().filter_map(|it| match it.kind {
            ItemKind::Barrier(n) => Some((n, it.at.x, it.at.y)),
            _ => None,
        })
    };
    // Chandy-Lamport's markers are diamonds, the barriers of the other modes bars.
    let d = h * 0.42;
    let shape = |x: f64, y: f64, grow: f64| {
        if diamonds {
            ctx.move_to(x, y - d - grow);
            ctx.line_to(x + d + grow, y);
            ctx.line_to(x, y + d + grow);
            ctx.line_to(x - d - grow, y);
            ctx.close_path();
        } else {
            ctx.rect(
                x - w / 2.0 - grow,
                y - h / 2.0 - grow,
                w + 2.0 * grow,
                h + 2.0 * grow,
            );
        }
    };
    // Halos behind every barrier first, then each checkpoint's bars in its colour.
    ctx.begin_path();
    for (_, x, y) in barriers() {
        shape(x, y, 1.0);
    }
    ctx.set_fill_style_str(theme.halo);
    ctx.fill();
    if detailed {
        ctx.set_font("bold 10px system-ui, sans-serif");
        ctx.set_text_align("center");
    }
    for &n in &ids {
        ctx.begin_path();
        let mut any = false;
        for (_, x, y) in barriers().filter(|b| b.0 == n) {
            shape(x, y, 0.0);
            any = true;
        }
        if !any {
            continue;
        }
        ctx.set_fill_style_str(palette::checkpoint(n));
        ctx.fill();
        if detailed {
            let label = n.to_string();
            for (_, x, y) in barriers().filter(|b| b.0 == n) {
                let _ = ctx.fill_text(&label, x, y - h / 2.0 - 3.0);
            }
        }
    }
    for it in items {
        let (x, y) = (it.at.x, it.at.y);
        match it.kind {
            ItemKind::Cancel(n) => {
                ctx.set_stroke_style_str(palette::checkpoint(n));
                ctx.set_line_width(1.5);
                ctx.stroke_rect(x - w / 2.0, y - h / 2.0, w, h);
                ctx.begin_path();
                ctx.move_to(x - 4.0, y - 4.0);
                ctx.line_to(x + 4.0, y + 4.0);
                ctx.move_to(x + 4.0, y - 4.0);
                ctx.line_to(x - 4.0, y + 4.0);
                ctx.stroke();
            }
            ItemKind::EndOfPartition => {
                ctx.set_stroke_style_str(theme.muted);
                ctx.set_line_width(1.5);
                ctx.stroke_rect(x - r, y - r, 2.0 * r, 2.0 * r);
            }
            ItemKind::EndOfData => {
                // The end of partition's square, half drawn: the channel is still open.
                ctx.set_stroke_style_str(theme.muted);
                ctx.set_line_width(1.5);
                ctx.begin_path();
                ctx.move_to(x - r, y - r);
                ctx.line_to(x + r, y - r);
                ctx.line_to(x + r, y + r);
                ctx.move_to(x - r, y);
                ctx.line_to(x + r, y);
                ctx.stroke();
            }
            ItemKind::Record(_) | ItemKind::Barrier(_) => {}
        }
    }
    if let Some((c, kind)) = selected {
        if let Some(it) = items.iter().find(|it| it.channel == c && it.kind == kind) {
            ctx.set_stroke_style_str(theme.text);
            ctx.set_line_width(1.5);
            ctx.begin_path();
            let _ = ctx.arc(it.at.x, it.at.y, r + 5.0, 0.0, TAU);
            ctx.stroke();
        }
    }
}

/// Appends a circle to SVG path data.
pub fn dot(d: &mut String, x: f64, y: f64, r: f64) {
    use std::fmt::Write;
    let (x, y, r) = (px_int(x + r), px_int(y), px_int(r));
    let _ = write!(
        d,
        "M{} {}a{} {} 0 1 0 -{} 0a{} {} 0 1 0 {} 0",
        x,
        y,
        r,
        r,
        Tenths(2 * r.0),
        r,
        r,
        Tenths(2 * r.0)
    );
}

/// Appends a square to SVG path data.
pub fn square(d: &mut String, x: f64, y: f64, side: f64) {
    use std::fmt::Write;
    let s = px_int(side);
    let _ = write!(d, "M{} {}h{}v{}h-{}z", px_int(x), px_int(y), s, s, s);
}

/// A coordinate in tenths, written without float formatting.
#[derive(Clone, Copy)]
pub struct Tenths(i64);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        let sign = if v < 0 { "-" } else { "" };
        let a = v.unsigned_abs();
        if a.is_multiple_of(10) {
            write!(f, "{sign}{}", a / 10)
        } else {
            write!(f, "{sign}{}.{}", a / 10, a % 10)
        }
    }
}

fn px_int(v: f64) -> Tenths {
    Tenths(if v.is_finite() {
        (v * 10.0).round() as i64
    } else {
        0
    })
}

#[derive(PartialEq, Clone)]
pub struct ItemGlyphProps {
    pub kind: ItemKind,
    pub x: f64,
    pub y: f64,
    /// Side of the square a held item is drawn in.
    pub size: f64,
    pub persisted: Option<CheckpointId>,
    /// Draw the ring dashed: the record slips into the snapshot (at-least-once).
    pub dashed: bool,
    /// A barrier as Chandy-Lamport's marker: a diamond.
    pub diamond: bool,
}

impl ItemGlyphProps {
    /// `kind` drawn in the `size`-wide square at (`x`, `y`).
    pub fn new(kind: ItemKind, x: f64, y: f64, size: f64) -> Self {
        Self {
            kind,
            x,
            y,
            size,
            persisted: None,
            dashed: false,
            diamond: false,
        }
    }

    /// Ringed in the colour of the checkpoint that recorded it, if any.
    pub fn persisted(self, persisted: Option<CheckpointId>) -> Self {
        Self { persisted, ..self }
    }

    pub fn dashed(self) -> Self {
        Self {
            dashed: true,
            ..self
        }
    }

    pub fn diamond(self) -> Self {
        Self {
            diamond: true,
            ..self
        }
    }
}

/// One item in SVG markup: a record as a dot, a barrier as its coloured bar, a cancel marker
/// as a hollow crossed bar, an end of data as half a square crossed, an end of partition as a hollow
/// square.
pub fn item_glyph(p: &ItemGlyphProps) -> String {
    let (x, y, s) = (p.x, p.y, p.size);
    let cx = fmt(x + s / 2.0);
    let cy = y + s / 2.0;
    let (cxf, cyf) = (x + s / 2.0, fmt(cy));
    match p.kind {
        ItemKind::Record(rec) => {
            let mut o = format!(
                r#"<g class="glyph record"><circle cx="{cx}" cy="{cyf}" r="{}" class="record-dot"/>"#,
                fmt(s * 0.42)
            );
            if rec.replay {
                let _ = write!(
                    o,
                    r#"<circle cx="{cx}" cy="{cyf}" r="{}" class="replay-dot"/>"#,
                    fmt(s * 0.19)
                );
            }
            if let Some(n) = p.persisted {
                let _ = write!(
                    o,
                    r#"<circle cx="{cx}" cy="{cyf}" r="{}" fill="none" stroke="{}" stroke-width="1.5"{}/>"#,
                    fmt(s * 0.62),
                    palette::checkpoint(n),
                    if p.dashed {
                        r#" stroke-dasharray="2 1.6""#
                    } else {
                        ""
                    }
                );
            }
            o + "</g>"
        }
        ItemKind::Barrier(n) if p.diamond => format!(
            r#"<g class="glyph marker"><path d="M{cx} {}L{} {cyf}L{cx} {}L{} {cyf}Z" fill="{}"/><text x="{}" y="{}" class="glyph-label">{n}</text></g>"#,
            fmt(cy - s * 0.6),
            fmt(cxf + s * 0.6),
            fmt(cy + s * 0.6),
            fmt(cxf - s * 0.6),
            palette::checkpoint(n),
            fmt(cxf + s * 0.75),
            fmt(y + s * 0.35)
        ),
        ItemKind::Barrier(n) => format!(
            r#"<g class="glyph barrier"><rect x="{}" y="{}" width="{}" height="{}" fill="{}"/><text x="{}" y="{}" class="glyph-label">{n}</text></g>"#,
            fmt(cxf - s * 0.2),
            fmt(y - s * 0.3),
            fmt(s * 0.4),
            fmt(s * 1.6),
            palette::checkpoint(n),
            fmt(cxf + s * 0.45),
            fmt(y + s * 0.35)
        ),
        ItemKind::Cancel(n) => format!(
            r#"<g class="glyph cancel" stroke="{}" fill="none" stroke-width="1.3"><rect x="{}" y="{}" width="{}" height="{}"/><path d="M{x0} {y0}L{x1} {y1}M{x1} {y0}L{x0} {y1}"/></g>"#,
            palette::checkpoint(n),
            fmt(cxf - s * 0.2),
            fmt(y - s * 0.3),
            fmt(s * 0.4),
            fmt(s * 1.6),
            x0 = fmt(x),
            y0 = fmt(y),
            x1 = fmt(x + s),
            y1 = fmt(y + s)
        ),
        ItemKind::EndOfData => format!(
            r#"<path class="glyph eod" d="M{x0} {y0}H{x1}V{y1}M{x0} {ym}H{x1}" fill="none" stroke-width="1.3"/>"#,
            x0 = fmt(x + 1.0),
            x1 = fmt(x + s - 1.0),
            y0 = fmt(y + 1.0),
            y1 = fmt(y + s - 1.0),
            ym = fmt(y + s / 2.0)
        ),
        ItemKind::EndOfPartition => format!(
            r#"<rect class="glyph eop" x="{}" y="{}" width="{w}" height="{w}" fill="none" stroke-width="1.3"/>"#,
            fmt(x + 1.0),
            fmt(y + 1.0),
            w = fmt(s - 2.0)
        ),
    }
}

pub use crate::ui::fmt::px as fmt;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::BarrierMode;
    use crate::scenario::presets;
    use crate::ui::layout::layout;

    #[test]
    fn items_are_placed_on_their_channels_and_can_be_hit() {
        let mut sim = presets::alignment().simulation().unwrap();
        for _ in 0..20 {
            sim.step();
        }
        let l = layout(sim.physical());
        let items = place(&sim, &l, sim.now() as f64);
        let in_flight: usize = sim.channels().iter().map(|c| c.items().len()).sum();
        assert_eq!(items.len(), in_flight);
        assert!(in_flight > 0);
        for it in &items {
            let path = &l.channels[it.channel as usize];
            assert!(it.at.x >= path.from.x - 1e-6 && it.at.x <= path.to.x + 1e-6);
        }
        let first = items[0];
        assert_eq!(
            hit(&items, first.at, &l.metrics).map(|h| h.at),
            Some(first.at)
        );
        assert_eq!(
            hit(
                &items,
                Point {
                    x: -100.0,
                    y: -100.0
                },
                &l.metrics
            ),
            None
        );
    }

    #[test]
    fn path_data_is_written_without_float_formatting() {
        let mut d = String::new();
        square(&mut d, 1.25, -2.0, 3.0);
        assert_eq!(d, "M1.3 -2h3v3h-3z");
        let mut d = String::new();
        dot(&mut d, 10.0, 5.0, 1.5);
        assert_eq!(d, "M11.5 5a1.5 1.5 0 1 0 -3 0a1.5 1.5 0 1 0 3 0");
    }

    #[test]
    fn unaligned_in_flight_records_are_ringed() {
        let mut sim = presets::backpressure()
            .with_mode(BarrierMode::Unaligned)
            .simulation()
            .unwrap();
        let l = layout(sim.physical());
        let mut ringed = false;
        for _ in 0..3000 {
            sim.step();
            if place(&sim, &l, sim.now() as f64)
                .iter()
                .any(|p| p.persisted.is_some())
            {
                ringed = true;
                break;
            }
        }
        assert!(ringed);
    }
}
