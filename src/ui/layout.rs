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

mod motion;
mod path;
pub use motion::{held_capacity, held_slot, item_offset, item_offsets, order_key, typical_speed};
pub use path::{blocked_label_below, ChannelPath};

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

/// The size of the graph's smallest text, in ems of its font: an operator's kind, the word
/// "blocked", a slow channel's line, the count of held items past the tray, a chain's label,
/// the compact drawing's subtask names (style.css sets them at this size; the least box the
/// graph is given keeps it readable).
pub const SMALL_TEXT: f64 = 0.88;

/// The width the layout aims for when it picks the gap between layers.
const TARGET_WIDTH: f64 = 780.0;

/// Whether this build draws bundled (the builds with the `views` feature: the second player,
/// which index.html loads for a job this large, and the engineers' views). The
/// student's builds leave the bundled drawing out, so that their first load does not grow; a
/// job this large opens in the second player instead (`state::Leave::Big`).
pub const BUNDLES: bool = cfg!(feature = "views");

/// Graphs with more channels than this are drawn bundled: an operator is a card whose
/// subtasks are a strip of small cells, and each edge one band (see [`Layout::bundles`]).
pub const BUNDLED_MIN_CHANNELS: usize = 8_192;

/// Whether a job is too large for the student's builds, which leave the bundled drawing out
/// ([`BUNDLES`]): the page leaves for the second player (`state::Leave::Big`).
pub fn too_big(s: &crate::scenario::Scenario) -> bool {
    s.channel_count() > BUNDLED_MIN_CHANNELS as u64
}

/// Whether a job needs what the student's builds leave out: the bundled drawing (a job too
/// large for them) or the drawing of chained operators (`components::chains`): a scenario
/// that turns chaining on, which no preset does (it comes from the editor, a link or an
/// imported Flink plan). The page leaves for the second player (`state::Leave::Big`).
pub fn for_second_player(s: &crate::scenario::Scenario) -> bool {
    too_big(s) || s.config.chaining
}
/// The most channels of a band whose items are drawn: a person sees a band, not each of its
/// thousands of channels.
const BUNDLE_SAMPLE: u32 = 1_024;
/// Bundled: the room a band's totals take beyond an arch or a loop (two lines of 10 units).
const BAND_LABEL: f64 = 28.0;
/// Cells per row of a card's strip.
const STRIP_COLUMNS: usize = 16;
/// A strip cell's pitch (layout units).
const CELL: f64 = 8.0;

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

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub metrics: Metrics,
    pub detailed: bool,
    /// Drawn bundled: `channels` is empty, a subtask's box is a cell of its card's strip.
    pub bundled: bool,
    /// By edge index: the curve of the band that stands for all its channels, and which of
    /// them the items are drawn of — one in this many (bundled only).
    pub bundles: Vec<(ChannelPath, u32)>,
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
    let bundled = BUNDLES && phys.channel_count() as usize > BUNDLED_MIN_CHANNELS;
    let m = if detailed { DETAILED } else { COMPACT };
    // A card's strip: rows of cells.
    let rows = |n: usize| n.div_ceil(STRIP_COLUMNS) as f64;
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
            let inner: f64 = if bundled {
                rows(ts.len()) * CELL
            } else {
                ts.iter().map(|&t| sub_h[t as usize]).sum::<f64>()
                    + m.sub_gap * ts.len().saturating_sub(1) as f64
            };
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
    // Bundled, each edge is one band: a back-edge's loops under the graph, and a band that
    // skips a layer arches over it, as channels do in the other drawings — each with room for
    // its totals (two lines) beyond it.
    let (band_loops, band_arches) = if bundled {
        let back_edges = (0..edges.len() as u32).filter(|&e| phys.is_back_edge(e));
        let arches = edges.iter().enumerate().filter(|&(e, &(f, t))| {
            !phys.is_back_edge(e as u32) && layer[t as usize] > layer[f as usize] + 1
        });
        (back_edges.count(), arches.map(|(e, _)| e).collect())
    } else {
        (0, Vec::new())
    };
    let loops = back.len().min(6) as f64;
    let back_room = if bundled && band_loops > 0 {
        // And the cells' legend, which goes under the loops' totals.
        16.0 + 12.0 * band_loops.min(6) as f64 + BAND_LABEL + 24.0
    } else if back.is_empty() {
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
    let arch_room = if bundled {
        // Room for the bands' totals, above the cards (and above the arches).
        16.0 + if band_arches.is_empty() {
            0.0
        } else {
            12.0 * band_arches.len().min(6) as f64 + BAND_LABEL
        }
    } else if skipping.is_empty() {
        0.0
    } else {
        16.0 + 12.0 * arches
    };
    let height = inner_h + 2.0 * m.margin + back_room + arch_room;
    let op_w = if bundled {
        STRIP_COLUMNS as f64 * CELL
    } else {
        m.sub_w
    } + 2.0 * m.op_pad;
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
            if bundled {
                for (i, &t) in phys.operator_tasks[o].iter().enumerate() {
                    let rect = Rect {
                        x: x + m.op_pad + (i % STRIP_COLUMNS) as f64 * CELL,
                        y: sy + (i / STRIP_COLUMNS) as f64 * CELL,
                        w: CELL - 1.0,
                        h: CELL - 1.0,
                    };
                    subtasks[t as usize] = SubtaskBox {
                        rect,
                        inputs: Vec::new(),
                        output: Point {
                            x: rect.x + rect.w,
                            y: rect.y + rect.h / 2.0,
                        },
                    };
                }
                y += op_h[o] + m.op_gap;
                continue;
            }
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
    // A band from the middle of one card's right edge to the middle of the next one's left.
    let bundles = if bundled {
        let mut per_edge = vec![0u32; edges.len()];
        for c in &phys.channels {
            per_edge[c.edge as usize] += 1;
        }
        let mut loop_k = 0;
        edges
            .iter()
            .zip(per_edge)
            .enumerate()
            .map(|(e, (&(f, t), n))| {
                let (a, b) = (&operators[f as usize].rect, &operators[t as usize].rect);
                let from = Point {
                    x: a.x + a.w,
                    y: a.y + a.h / 2.0,
                };
                let to = Point {
                    x: b.x,
                    y: b.y + b.h / 2.0,
                };
                // As the channels' detours are aimed (a cubic with both controls at one height
                // reaches three quarters of the way there).
                // An arch leaves and enters its cards near their tops, a loop near their
                // bottoms, so that it clears the corners of the cards between.
                let near = |tops: bool| {
                    let y = |r: &Rect| if tops { r.y + 12.0 } else { r.y + r.h - 12.0 };
                    (Point { x: from.x, y: y(a) }, Point { x: to.x, y: y(b) })
                };
                let path = if phys.is_back_edge(e as u32) {
                    let (from, to) = near(false);
                    let top = from.y.max(to.y);
                    let lowest = graph_bottom + 10.0 + 12.0 * (loop_k % 6) as f64;
                    loop_k += 1;
                    ChannelPath::detour(from, to, m.tail, top + (lowest - top) / 0.75)
                } else if let Some(k) = band_arches.iter().position(|&s| s == e) {
                    let (from, to) = near(true);
                    let top = from.y.min(to.y);
                    let highest = graph_top - 10.0 - 12.0 * (k % 6) as f64;
                    ChannelPath::detour(from, to, m.tail, top - (top - highest) / 0.75)
                } else {
                    ChannelPath::new(from, to, m.tail)
                };
                (path, n.div_ceil(BUNDLE_SAMPLE).max(1))
            })
            .collect()
    } else {
        Vec::new()
    };
    // Bundled, no channel has a path of its own (`bundles` above stands for them).
    let per_channel = if bundled { &[][..] } else { &phys.channels[..] };
    let mut channels = per_channel
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
        bundled,
        bundles,
        operators,
        subtasks,
        channels,
    }
}

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
    // 8 units of padding each side, 6 between the labels; the kind is set at SMALL_TEXT.
    let room = width - 22.0 - text_width(name, font);
    let full = format!("{kind} ×{parallelism}");
    if text_width(&full, SMALL_TEXT * font) <= room {
        return full;
    }
    let short = format!("×{parallelism}");
    if text_width(&short, SMALL_TEXT * font) <= room {
        short
    } else {
        String::new()
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
mod tests;
