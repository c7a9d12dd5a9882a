//! Geometry of the dataflow view, as pure functions of the physical graph (tested natively).
//!
//! Operators are placed left → right in layers (longest path from a source, which the physical
//! graph computes once with its topological order), stacked within a layer in the order of their inputs, and each
//! operator box holds its subtasks. A channel is a curve from its sender's output port to a
//! short straight tail ending at the receiver's input port: the tail is where the alignment
//! buffer, the lock of a blocked input and the items waiting at the port are drawn.
//!
//! Items are placed by [`item_offsets`] from their send and arrival times alone, so their
//! motion is smooth, deterministic and needs nothing from the engine but its plain data.

use crate::engine::Physical;
use crate::ui::fmt::clamp;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.x && p.x <= self.x + self.w && p.y >= self.y && p.y <= self.y + self.h
    }
}

/// Sizes for one level of detail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    pub sub_w: f64,
    pub sub_h: f64,
    /// Height per input port (room for its buffer above the channel's tail).
    pub per_input: f64,
    pub sub_gap: f64,
    pub op_pad: f64,
    pub op_head: f64,
    pub op_gap: f64,
    pub min_layer_gap: f64,
    pub max_layer_gap: f64,
    pub margin: f64,
    pub tail: f64,
    /// Side of one held item's square in a buffer.
    pub held: f64,
    /// Distance between items waiting at a port.
    pub spacing: f64,
    pub record_r: f64,
    pub barrier_h: f64,
    pub font: f64,
}

pub const DETAILED: Metrics = Metrics {
    sub_w: 136.0,
    sub_h: 62.0,
    per_input: 30.0,
    sub_gap: 10.0,
    op_pad: 8.0,
    op_head: 24.0,
    op_gap: 34.0,
    min_layer_gap: 120.0,
    max_layer_gap: 210.0,
    margin: 30.0,
    tail: 84.0,
    held: 8.0,
    spacing: 9.0,
    record_r: 4.0,
    barrier_h: 18.0,
    font: 12.0,
};

pub const COMPACT: Metrics = Metrics {
    sub_w: 84.0,
    sub_h: 12.0,
    per_input: 0.0,
    sub_gap: 3.0,
    op_pad: 6.0,
    op_head: 20.0,
    op_gap: 20.0,
    min_layer_gap: 110.0,
    max_layer_gap: 150.0,
    margin: 20.0,
    tail: 14.0,
    held: 3.0,
    spacing: 3.0,
    record_r: 1.6,
    barrier_h: 9.0,
    font: 10.0,
};

/// The width the layout aims for when it picks the gap between layers.
const TARGET_WIDTH: f64 = 780.0;

/// Graphs up to this many subtasks per operator (and in all) get the detailed drawing.
pub const DETAILED_MAX_PARALLELISM: u32 = 4;
pub const DETAILED_MAX_TASKS: u32 = 24;

#[derive(Clone, Debug, PartialEq)]
pub struct OperatorBox {
    pub rect: Rect,
    pub layer: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SubtaskBox {
    pub rect: Rect,
    /// Input ports, by input index, on the left edge.
    pub inputs: Vec<Point>,
    /// The output port, on the right edge.
    pub output: Point,
}

/// A channel's path: a cubic curve `from → bend` with horizontal tangents, then a straight
/// tail `bend → to` into the input port.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelPath {
    pub from: Point,
    pub c1: Point,
    pub c2: Point,
    pub bend: Point,
    pub to: Point,
    pub curve_len: f64,
    /// Where the word "blocked" goes when this input is blocked: under the tail instead of
    /// over it (see [`blocked_label_below`]).
    pub label_below: bool,
}

impl ChannelPath {
    pub fn new(from: Point, to: Point, tail: f64) -> ChannelPath {
        let bend = Point {
            x: (to.x - tail).max(from.x + 1.0),
            y: to.y,
        };
        let dx = (bend.x - from.x) * 0.5;
        let c1 = Point {
            x: from.x + dx,
            y: from.y,
        };
        let c2 = Point {
            x: bend.x - dx,
            y: bend.y,
        };
        ChannelPath::through(from, c1, c2, bend, to)
    }

    /// The path with these control points, its curve measured.
    fn through(from: Point, c1: Point, c2: Point, bend: Point, to: Point) -> ChannelPath {
        let mut path = ChannelPath {
            from,
            c1,
            c2,
            bend,
            to,
            curve_len: 0.0,
            label_below: false,
        };
        path.curve_len = path.measure_curve();
        path
    }

    fn curve(&self, t: f64) -> Point {
        let u = 1.0 - t;
        let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        Point {
            x: a * self.from.x + b * self.c1.x + c * self.c2.x + d * self.bend.x,
            y: a * self.from.y + b * self.c1.y + c * self.c2.y + d * self.bend.y,
        }
    }

    fn measure_curve(&self) -> f64 {
        let mut len = 0.0;
        let mut prev = self.from;
        for i in 1..=16 {
            let p = self.curve(i as f64 / 16.0);
            len += ((p.x - prev.x).powi(2) + (p.y - prev.y).powi(2)).sqrt();
            prev = p;
        }
        len
    }

    /// A back-edge's channel (it closes a cycle): out of the sender to the right, down and back
    /// under the graph at height `below`, and into the receiver's input port from the left.
    /// With `below` above the graph instead, it is a forward edge that skips a layer, arching
    /// over the operators in between rather than through them.
    pub fn detour(from: Point, to: Point, tail: f64, below: f64) -> ChannelPath {
        let bend = Point {
            x: (to.x - tail).max(to.x.min(12.0)),
            y: to.y,
        };
        let reach = if bend.x > from.x {
            (bend.x - from.x) * 0.2
        } else {
            60.0f64.max((from.x - bend.x).abs() * 0.25)
        };
        let c1 = Point {
            x: from.x + reach,
            y: below,
        };
        // Never left of the drawing: the loop turns up into the port from its margin.
        let c2 = Point {
            x: (bend.x - reach).max(2.0),
            y: below,
        };
        ChannelPath::through(from, c1, c2, bend, to)
    }

    pub fn tail_len(&self) -> f64 {
        self.to.x - self.bend.x
    }

    pub fn length(&self) -> f64 {
        self.curve_len + self.tail_len()
    }

    /// The point `d` along the path (clamped to its ends).
    pub fn point_at(&self, d: f64) -> Point {
        let d = clamp(d, 0.0, self.length());
        if d < self.curve_len && self.curve_len > 0.0 {
            self.curve(d / self.curve_len)
        } else {
            Point {
                x: self.bend.x + (d - self.curve_len),
                y: self.to.y,
            }
        }
    }

    /// The right end of the baseline of the word "blocked" (drawn anchored there): over the
    /// tail, or under it.
    pub fn blocked_label_at(&self) -> Point {
        Point {
            x: self.to.x - 2.0,
            y: self.to.y
                + if self.label_below {
                    BLOCKED_BELOW
                } else {
                    -BLOCKED_ABOVE
                },
        }
    }

    /// The SVG path data of the whole channel.
    pub fn svg_d(&self) -> String {
        let mut d = String::with_capacity(64);
        svg_cmd(&mut d, 'M', &[self.from]);
        svg_cmd(&mut d, 'C', &[self.c1, self.c2, self.bend]);
        svg_cmd(&mut d, 'L', &[self.to]);
        d
    }

    /// The SVG path data of the tail only (drawn over the channel when it is blocked).
    pub fn tail_d(&self) -> String {
        let mut d = String::with_capacity(24);
        svg_cmd(&mut d, 'M', &[self.bend]);
        svg_cmd(&mut d, 'L', &[self.to]);
        d
    }
}

/// Appends one SVG path command with its points, one decimal each (no float formatting).
fn svg_cmd(d: &mut String, cmd: char, points: &[Point]) {
    d.push(cmd);
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            d.push(' ');
        }
        d.push_str(&crate::ui::fmt::px(p.x));
        d.push(' ');
        d.push_str(&crate::ui::fmt::px(p.y));
    }
}

/// How far above the port the baseline of the word "blocked" is when over the tail: clear of
/// the alignment buffer drawn there and of the lock.
const BLOCKED_ABOVE: f64 = 16.0;
/// How far below the port it is when under the tail: clear of the lock and of the records
/// waiting on the tail.
const BLOCKED_BELOW: f64 = 14.0;

/// Whether the word "blocked" of a subtask's input `input` (of `inputs`) goes under its tail.
/// Over it, where it reads best, the word would cover the items, barrier and buffer of the
/// input above when there is one in the same subtask (its ports are 31 units apart at most,
/// too close): so the last of two or more inputs has it under its tail, where the next port
/// is another subtask's, far enough (the test holds every preset to that). A middle input of
/// three or more has room on neither side and keeps it over the tail.
pub fn blocked_label_below(input: usize, inputs: usize) -> bool {
    inputs > 1 && input + 1 == inputs
}

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub metrics: Metrics,
    pub detailed: bool,
    /// By operator index.
    pub operators: Vec<OperatorBox>,
    /// By task id.
    pub subtasks: Vec<SubtaskBox>,
    /// By channel id.
    pub channels: Vec<ChannelPath>,
}

/// Whether the graph is small enough for the detailed drawing (names, states, buffers).
pub fn is_detailed(phys: &Physical) -> bool {
    phys.task_count() <= DETAILED_MAX_TASKS
        && phys
            .graph
            .operators
            .iter()
            .all(|o| o.parallelism <= DETAILED_MAX_PARALLELISM)
}

/// The whole view's geometry.
pub fn layout(phys: &Physical) -> Layout {
    let detailed = is_detailed(phys);
    let m = if detailed { DETAILED } else { COMPACT };
    let n_ops = phys.graph.operators.len();
    // Graph structure (topological order, layers) is the physical graph's, computed once.
    let edges = &phys.operator_edges;
    let layer = &phys.layers;
    let n_layers = layer.iter().copied().max().map_or(1, |l| l + 1) as usize;

    // Subtask heights: room for every input port (and its buffer) in the detailed view.
    let sub_h: Vec<f64> = phys
        .tasks
        .iter()
        .map(|t| (m.sub_h).max(m.per_input * t.inputs.len() as f64 + 10.0))
        .collect();
    let op_h: Vec<f64> = phys
        .operator_tasks
        .iter()
        .map(|ts| {
            let inner: f64 = ts.iter().map(|&t| sub_h[t as usize]).sum::<f64>()
                + m.sub_gap * ts.len().saturating_sub(1) as f64;
            m.op_head + inner + m.op_pad
        })
        .collect();

    // Order within a layer: by the mean position of the operators feeding it, so edges
    // cross as little as a single sweep can manage; sources keep their declared order.
    let mut rank = vec![0.0f64; n_ops];
    let mut columns: Vec<Vec<usize>> = vec![Vec::new(); n_layers];
    for (l, column) in columns.iter_mut().enumerate() {
        let mut ops: Vec<usize> = (0..n_ops).filter(|&o| layer[o] as usize == l).collect();
        if l > 0 {
            for &o in &ops {
                let preds: Vec<f64> = edges
                    .iter()
                    .filter(|&&(_, b)| b as usize == o)
                    .map(|&(a, _)| rank[a as usize])
                    .collect();
                rank[o] = if preds.is_empty() {
                    o as f64
                } else {
                    preds.iter().sum::<f64>() / preds.len() as f64
                };
            }
            let mut keyed: Vec<(u64, u64)> = ops
                .iter()
                .map(|&o| (order_key(rank[o]), o as u64))
                .collect();
            keyed.sort_unstable();
            ops = keyed.into_iter().map(|(_, o)| o as usize).collect();
        }
        for (i, &o) in ops.iter().enumerate() {
            rank[o] = i as f64;
        }
        *column = ops;
    }
    let column_h: Vec<f64> = columns
        .iter()
        .map(|ops| {
            ops.iter().map(|&o| op_h[o]).sum::<f64>()
                + m.op_gap * ops.len().saturating_sub(1) as f64
        })
        .collect();
    let inner_h = column_h.iter().copied().fold(0.0, f64::max);
    // Back-edges (feedback, the channels that close a cycle) loop under the graph: room for
    // them, a little deeper for each, so their loops stay apart.
    let back: Vec<usize> = phys
        .channels
        .iter()
        .enumerate()
        .filter(|(_, c)| phys.is_back_edge(c.edge))
        .map(|(i, _)| i)
        .collect();
    let loops = back.len().min(6) as f64;
    let back_room = if back.is_empty() {
        0.0
    } else {
        16.0 + 12.0 * loops
    };
    // Forward edges that skip a layer arch over the graph (room above it, like the loops'
    // below), so they never run through the operators in between.
    let skipping: Vec<usize> = phys
        .channels
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            let (f, t) = phys.operator_edges[c.edge as usize];
            !back.contains(i) && layer[t as usize] > layer[f as usize] + 1
        })
        .map(|(i, _)| i)
        .collect();
    let arches = skipping.len().min(6) as f64;
    let arch_room = if skipping.is_empty() {
        0.0
    } else {
        16.0 + 12.0 * arches
    };
    let height = inner_h + 2.0 * m.margin + back_room + arch_room;
    let op_w = m.sub_w + 2.0 * m.op_pad;
    let gap = if n_layers > 1 {
        clamp(
            (TARGET_WIDTH - 2.0 * m.margin - n_layers as f64 * op_w) / (n_layers - 1) as f64,
            m.min_layer_gap,
            m.max_layer_gap,
        )
    } else {
        0.0
    };
    let width = 2.0 * m.margin + n_layers as f64 * op_w + (n_layers.saturating_sub(1)) as f64 * gap;

    let mut operators = vec![
        OperatorBox {
            rect: Rect {
                x: 0.0,
                y: 0.0,
                w: 0.0,
                h: 0.0
            },
            layer: 0
        };
        n_ops
    ];
    let mut subtasks = vec![
        SubtaskBox {
            rect: Rect {
                x: 0.0,
                y: 0.0,
                w: 0.0,
                h: 0.0
            },
            inputs: Vec::new(),
            output: Point { x: 0.0, y: 0.0 },
        };
        phys.tasks.len()
    ];
    for (l, ops) in columns.iter().enumerate() {
        let x = m.margin + l as f64 * (op_w + gap);
        let mut y = m.margin + arch_room + (inner_h - column_h[l]) / 2.0;
        for &o in ops {
            operators[o] = OperatorBox {
                rect: Rect {
                    x,
                    y,
                    w: op_w,
                    h: op_h[o],
                },
                layer: l as u32,
            };
            let mut sy = y + m.op_head;
            for &t in &phys.operator_tasks[o] {
                let h = sub_h[t as usize];
                let rect = Rect {
                    x: x + m.op_pad,
                    y: sy,
                    w: m.sub_w,
                    h,
                };
                let n_in = phys.tasks[t as usize].inputs.len();
                let inputs = (0..n_in)
                    .map(|i| Point {
                        x: rect.x,
                        y: rect.y + rect.h * (i + 1) as f64 / (n_in + 1) as f64,
                    })
                    .collect();
                subtasks[t as usize] = SubtaskBox {
                    rect,
                    inputs,
                    output: Point {
                        x: rect.x + rect.w,
                        y: rect.y + rect.h / 2.0,
                    },
                };
                sy += h + m.sub_gap;
            }
            y += op_h[o] + m.op_gap;
        }
    }
    let graph_top = m.margin + arch_room;
    let graph_bottom = graph_top + inner_h;
    let mut channels = phys
        .channels
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let from = subtasks[c.from as usize].output;
            let to = subtasks[c.to as usize]
                .inputs
                .get(c.input_index as usize)
                .copied()
                .unwrap_or(from);
            match back.iter().position(|&b| b == i) {
                Some(k) => {
                    // A cubic with both controls at `below` dips three quarters of the way
                    // there: aim so the lowest point clears the graph, each loop a step deeper.
                    let top = from.y.max(to.y);
                    let lowest = graph_bottom + 10.0 + 12.0 * (k % 6) as f64;
                    let below = top + (lowest - top) / 0.75;
                    ChannelPath::detour(from, to, m.tail, below)
                }
                None => match skipping.iter().position(|&s| s == i) {
                    Some(k) => {
                        let top = from.y.min(to.y);
                        let highest = graph_top - 10.0 - 12.0 * (k % 6) as f64;
                        let above = top - (top - highest) / 0.75;
                        ChannelPath::detour(from, to, m.tail, above)
                    }
                    None => ChannelPath::new(from, to, m.tail),
                },
            }
        })
        .collect::<Vec<ChannelPath>>();
    for (path, c) in channels.iter_mut().zip(&phys.channels) {
        let inputs = phys.tasks[c.to as usize].inputs.len();
        path.label_below = blocked_label_below(c.input_index as usize, inputs);
    }
    Layout {
        width,
        height,
        metrics: m,
        detailed,
        operators,
        subtasks,
        channels,
    }
}

/// Where each item of one channel is, as a distance along its path of length `len`, at
/// virtual time `t`. `times` are the items' (sent, arrives) times, head of the queue first.
/// Roughly how wide `text` is at `font` size (layout units): enough to decide whether two
/// labels collide, without measuring text in the DOM. Wide (CJK) characters count one em.
pub fn text_width(text: &str, font: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| if (c as u32) < 0x1100 { 0.62 } else { 1.0 })
        .sum();
    ems * font
}

/// The operator header's right-hand label: "kind ×p" when it fits beside the name in a box
/// `width` wide, else just "×p", else nothing.
pub fn operator_kind_label(
    name: &str,
    kind: &str,
    parallelism: u32,
    width: f64,
    font: f64,
) -> String {
    // 8 units of padding each side, 6 between the labels; the kind is set at 0.85 em.
    let room = width - 22.0 - text_width(name, font);
    let full = format!("{kind} ×{parallelism}");
    if text_width(&full, 0.85 * font) <= room {
        return full;
    }
    let short = format!("×{parallelism}");
    if text_width(&short, 0.85 * font) <= room {
        short
    } else {
        String::new()
    }
}

/// An item moves at constant speed from the sender (at its send time) to the port (at its
/// arrival time); items that have arrived but were not taken yet wait in a row at the port,
/// `spacing` apart, the head nearest to it.
pub fn item_offsets(
    times: impl IntoIterator<Item = (u64, u64)>,
    t: f64,
    len: f64,
    spacing: f64,
) -> Vec<f64> {
    times
        .into_iter()
        .enumerate()
        .map(|(i, (sent, arrives))| item_offset(i, sent, arrives, t, len, spacing))
        .collect()
}

/// The distance along its channel of the `i`-th queued item (see [`item_offsets`]); the frame
/// loop calls it per item so that placing items allocates nothing.
pub fn item_offset(i: usize, sent: u64, arrives: u64, t: f64, len: f64, spacing: f64) -> f64 {
    let frac = if arrives <= sent {
        1.0
    } else {
        clamp((t - sent as f64) / (arrives - sent) as f64, 0.0, 1.0)
    };
    let end = (len - spacing * (i as f64 + 0.5)).max(0.0);
    (frac * len).min(end)
}

/// Where a held item's square sits: `k` = 0 is the oldest, nearest the port, and the row
/// grows away from the port above the channel's tail. `None` when the row is full.
pub fn held_slot(path: &ChannelPath, k: usize, m: &Metrics) -> Option<Rect> {
    let step = m.held + 2.0;
    let room = ((path.tail_len() - 2.0 * m.held).max(0.0) / step).floor() as usize;
    if k >= room.max(1) {
        return None;
    }
    Some(Rect {
        x: path.to.x - 1.5 * m.held - step * (k + 1) as f64,
        y: path.to.y - m.held - 3.0,
        w: m.held,
        h: m.held,
    })
}

/// How many held items a channel's tail shows before it says "+n".
pub fn held_capacity(path: &ChannelPath, m: &Metrics) -> usize {
    let step = m.held + 2.0;
    (((path.tail_len() - 2.0 * m.held).max(0.0) / step).floor() as usize).max(1)
}

/// The median of item speeds (0 for none): the paint cadence follows a typical item, not the
/// one on the longest diagonal.
pub fn typical_speed(speeds: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<(u64, u64)> = speeds
        .filter(|s| s.is_finite())
        .map(|s| (order_key(s), s.to_bits()))
        .collect();
    v.sort_unstable();
    v.get(v.len() / 2).map_or(0.0, |&(_, s)| f64::from_bits(s))
}

/// An `f64` as a `u64` in the same total order, so that every sort on the page is the one
/// `sort_unstable` over `(u64, u64)` pairs — each sort instantiated per type costs kilobytes of
/// wasm.
pub fn order_key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

/// How the view box maps onto a drawing surface of `w × h` pixels, centred, aspect kept
/// (SVG's `xMidYMid meet`), so the item canvas lines up with the SVG under it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub scale: f64,
    pub dx: f64,
    pub dy: f64,
}

pub fn fit(layout_w: f64, layout_h: f64, w: f64, h: f64) -> Fit {
    if layout_w <= 0.0 || layout_h <= 0.0 || w <= 0.0 || h <= 0.0 {
        return Fit {
            scale: 1.0,
            dx: 0.0,
            dy: 0.0,
        };
    }
    let scale = (w / layout_w).min(h / layout_h);
    Fit {
        scale,
        dx: (w - layout_w * scale) / 2.0,
        dy: (h - layout_h * scale) / 2.0,
    }
}

impl Fit {
    /// A point on the surface, in layout units.
    pub fn to_layout(&self, px: f64, py: f64) -> Point {
        Point {
            x: (px - self.dx) / self.scale,
            y: (py - self.dy) / self.scale,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    fn phys(name: &str) -> Physical {
        presets::by_name(name)
            .unwrap()
            .simulation()
            .unwrap()
            .physical()
            .clone()
    }

    #[test]
    fn layers_follow_the_longest_path() {
        // Sentences → Split → Count → Sink: one layer each, whatever the edge order.
        let p = phys("wordcount");
        assert_eq!(p.layers, vec![0, 1, 2, 3]);
        // Src A and Src B both feed Merge: both in layer 0, Merge 1, Sink 2.
        assert_eq!(phys("alignment").layers, vec![0, 0, 1, 2]);
    }

    #[test]
    fn the_alignment_preset_reads_left_to_right() {
        let p = phys("alignment");
        let l = layout(&p);
        assert!(l.detailed);
        let x = |name: &str| {
            let i = p
                .graph
                .operators
                .iter()
                .position(|o| o.name == name)
                .unwrap();
            l.operators[i].rect
        };
        assert_eq!(x("Src A").x, x("Src B").x);
        assert!(
            x("Src A").y + x("Src A").h < x("Src B").y,
            "sources stacked"
        );
        assert!(x("Src A").x < x("Merge").x && x("Merge").x < x("Sink").x);
        // Every box and channel lies inside the view box.
        for s in &l.subtasks {
            assert!(s.rect.x >= 0.0 && s.rect.x + s.rect.w <= l.width);
            assert!(s.rect.y >= 0.0 && s.rect.y + s.rect.h <= l.height);
        }
        // Channels end on the receiver's input ports, in input order, top to bottom.
        let merge = p.task_by_name("Merge#0").unwrap() as usize;
        let ports = &l.subtasks[merge].inputs;
        assert_eq!(ports.len(), 2);
        assert!(ports[0].y < ports[1].y);
        for (c, info) in p.channels.iter().enumerate() {
            let path = &l.channels[c];
            assert_eq!(
                path.to,
                l.subtasks[info.to as usize].inputs[info.input_index as usize]
            );
            assert_eq!(path.from, l.subtasks[info.from as usize].output);
            assert!(path.tail_len() > 0.0 && path.curve_len > 0.0);
        }
    }

    #[test]
    fn the_large_preset_is_compact_and_fits() {
        let p = phys("large");
        let l = layout(&p);
        assert!(!l.detailed);
        assert_eq!(l.subtasks.len(), 200);
        assert!(
            l.width < 1400.0 && l.height < 1000.0,
            "{}×{}",
            l.width,
            l.height
        );
        // Subtasks of one operator do not overlap.
        for ts in &p.operator_tasks {
            for w in ts.windows(2) {
                let (a, b) = (
                    l.subtasks[w[0] as usize].rect,
                    l.subtasks[w[1] as usize].rect,
                );
                assert!(a.y + a.h <= b.y);
            }
        }
    }

    #[test]
    fn points_along_a_channel_run_from_port_to_port() {
        let path = ChannelPath::new(Point { x: 0.0, y: 0.0 }, Point { x: 200.0, y: 80.0 }, 50.0);
        assert_eq!(path.point_at(0.0), path.from);
        assert_eq!(path.point_at(path.length()), path.to);
        assert_eq!(path.point_at(1e9), path.to);
        // The middle of the curve is the middle between its ends (a symmetric curve).
        let mid = path.point_at(path.curve_len / 2.0);
        assert!((mid.x - 75.0).abs() < 1e-6 && (mid.y - 40.0).abs() < 1e-6);
        // Monotone in x.
        let xs: Vec<f64> = (0..=20)
            .map(|i| path.point_at(path.length() * i as f64 / 20.0).x)
            .collect();
        assert!(xs.windows(2).all(|w| w[0] <= w[1] + 1e-9));
        assert!(path.svg_d().starts_with("M0 0C"));
    }

    #[test]
    fn items_move_at_constant_speed_and_wait_in_a_row_at_the_port() {
        // Sent at 0, arrives at 10: half-way at 5.
        assert_eq!(item_offsets([(0, 10)], 5.0, 100.0, 10.0), vec![50.0]);
        // Arrived: at the port end, less half a spacing.
        assert_eq!(item_offsets([(0, 10)], 20.0, 100.0, 10.0), vec![95.0]);
        // Three arrived items queue up behind each other.
        assert_eq!(
            item_offsets([(0, 10), (1, 11), (2, 12)], 30.0, 100.0, 10.0),
            vec![95.0, 85.0, 75.0]
        );
        // Not yet sent (a past view) stays at the sender; zero latency is at the port.
        assert_eq!(item_offsets([(10, 20)], 0.0, 100.0, 10.0), vec![0.0]);
        assert_eq!(item_offsets([(5, 5)], 5.0, 100.0, 10.0), vec![95.0]);
        // A very long queue never goes behind the sender.
        let many = item_offsets((0..50).map(|i| (0, i)), 100.0, 100.0, 10.0);
        assert!(many.iter().all(|&d| d >= 0.0));
    }

    #[test]
    fn held_items_fill_a_row_beside_the_port() {
        let path = ChannelPath::new(Point { x: 0.0, y: 0.0 }, Point { x: 300.0, y: 0.0 }, 84.0);
        let m = DETAILED;
        let cap = held_capacity(&path, &m);
        assert!(cap >= 5);
        let first = held_slot(&path, 0, &m).unwrap();
        let second = held_slot(&path, 1, &m).unwrap();
        assert!(second.x < first.x, "the row grows away from the port");
        assert!(first.x + first.w < path.to.x && first.y + first.h < path.to.y);
        assert!(held_slot(&path, cap, &m).is_none());
    }

    #[test]
    fn the_typical_speed_is_the_median() {
        assert_eq!(typical_speed([1.0, 9.0, 2.0].into_iter()), 2.0);
        assert_eq!(typical_speed(std::iter::empty()), 0.0);
    }

    #[test]
    fn fit_centres_and_inverts() {
        let f = fit(200.0, 100.0, 400.0, 400.0);
        assert_eq!(f.scale, 2.0);
        assert_eq!((f.dx, f.dy), (0.0, 100.0));
        assert_eq!(f.to_layout(200.0, 200.0), Point { x: 100.0, y: 50.0 });
        assert_eq!(fit(0.0, 1.0, 1.0, 1.0).scale, 1.0);
    }

    /// The word "blocked"'s size, in ems of the graph's font (`.blocked-label` in style.css).
    const BLOCKED_FONT: f64 = 0.85;
    /// How far what is drawn at an input port reaches over its line (a barrier's number over
    /// its bar, the alignment buffer's tray) and under it (a barrier's bar, the lock).
    const PORT_ABOVE: f64 = 22.0;
    const PORT_BELOW: f64 = 9.0;

    /// The box the word "blocked" covers when `path`'s input is blocked (`text` is the word in
    /// a language), its text reaching 0.75 em over its baseline and 0.25 em under it.
    fn blocked_label_box(path: &ChannelPath, m: &Metrics, text: &str) -> Rect {
        let at = path.blocked_label_at();
        let f = BLOCKED_FONT * m.font;
        let w = text_width(text, f);
        Rect {
            x: at.x - w,
            y: at.y - 0.75 * f,
            w,
            h: f,
        }
    }

    fn overlap(a: Rect, b: Rect) -> bool {
        a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
    }

    #[test]
    fn the_word_blocked_covers_no_other_input() {
        // In a mode that blocks inputs, every input of a subtask with two or more may be
        // blocked. Its word must stay clear of what every other input port draws on its tail
        // (items, a barrier and its number, the buffer), of its own port's buffer, lock and
        // waiting records, and in the view.
        for name in presets::NAMES {
            let blocks = presets::by_name(name)
                .unwrap()
                .modes()
                .iter()
                .any(|m| m.blocks_inputs());
            let p = phys(name);
            let l = layout(&p);
            if !l.detailed || !blocks {
                continue;
            }
            let m = l.metrics;
            for (c, info) in p.channels.iter().enumerate() {
                if p.tasks[info.to as usize].inputs.len() < 2 {
                    continue;
                }
                let path = &l.channels[c];
                let to = path.to;
                for text in ["blocked", "阻塞"] {
                    let label = blocked_label_box(path, &m, text);
                    let what = format!("{name}: {} ({text})", p.channel_name(c as u32));
                    assert!(
                        label.x >= 0.0 && label.y >= 0.0 && label.y + label.h <= l.height,
                        "{what}: outside the view {label:?}"
                    );
                    let own = Rect {
                        x: to.x - m.tail,
                        y: to.y - m.held - 5.0,
                        w: m.tail,
                        h: m.held + 5.0 + m.record_r,
                    };
                    assert!(
                        !overlap(label, own),
                        "{what}: covers its own port {label:?}"
                    );
                    for s in &l.subtasks {
                        for q in s.inputs.iter().filter(|&&q| q != to) {
                            let busy = Rect {
                                x: q.x - m.tail,
                                y: q.y - PORT_ABOVE,
                                w: m.tail,
                                h: PORT_ABOVE + PORT_BELOW,
                            };
                            assert!(!overlap(label, busy), "{what}: covers the port at {q:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_word_blocked_goes_under_the_lower_of_two_close_inputs() {
        // Word count's Count#0 (issue 22, step 238): its second input blocked, the word goes
        // under its tail, not over the first input's barrier and records.
        let p = phys("wordcount");
        let l = layout(&p);
        let count0 = p.task_by_name("Count#0").unwrap();
        let ins: Vec<&ChannelPath> = p
            .channels
            .iter()
            .enumerate()
            .filter(|(_, c)| c.to == count0)
            .map(|(i, _)| &l.channels[i])
            .collect();
        assert_eq!(ins.len(), 2);
        let (upper, lower) = if ins[0].to.y < ins[1].to.y {
            (ins[0], ins[1])
        } else {
            (ins[1], ins[0])
        };
        assert!(!upper.label_below && upper.blocked_label_at().y < upper.to.y);
        assert!(lower.label_below && lower.blocked_label_at().y > lower.to.y);
        // A lone input, and the first and middle ones of three, keep the word over the tail.
        assert!(!blocked_label_below(0, 1));
        assert!(!blocked_label_below(0, 3) && !blocked_label_below(1, 3));
        assert!(blocked_label_below(2, 3));
    }

    #[test]
    fn an_operator_kind_that_would_collide_with_the_name_is_shortened() {
        assert_eq!(
            operator_kind_label("Merge", "union", 1, 160.0, 12.0),
            "union ×1"
        );
        assert_eq!(
            operator_kind_label("Sentences", "source", 40, 100.0, 10.0),
            "×40"
        );
        assert_eq!(
            operator_kind_label("Sentences", "source", 40, 70.0, 10.0),
            ""
        );
        // In the large preset every header keeps at least its parallelism.
        let phys = presets::large().simulation().unwrap();
        let l = layout(phys.physical());
        for (o, op) in phys.physical().graph.operators.iter().enumerate() {
            let w = l.operators[o].rect.w;
            let label =
                operator_kind_label(&op.name, "count by key", op.parallelism, w, l.metrics.font);
            assert!(label.ends_with("×40"), "{} ({w}): {label:?}", op.name);
        }
        // Chinese labels are about twice as wide per character.
        assert!(text_width("計數", 10.0) > text_width("ab", 10.0) * 1.5);
    }
}
