//! A channel's path on the dataflow view: its curve, its tail into the input port, its SVG
//! and where the word "blocked" goes.

use super::Point;
use crate::ui::fmt::clamp;

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
