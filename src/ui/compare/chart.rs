//! The compare view's charts: one SVG per figure, every mode on the same axes — virtual time
//! across, the figure up, both labelled with their units — so that a student reads the cost
//! of each mode off one scale. Written as markup strings (they only show). Plain Rust, tested
//! natively.

use std::fmt::Write;

use crate::ui::fmt::{escape, num, px};

/// A mode's colour, by its place in the list: distinct in light and dark themes, and never
/// the only cue (the legend and the table name the modes).
pub const COLOURS: [&str; 5] = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#d97706"];

/// One mode's figure over time.
pub struct Line {
    pub colour: &'static str,
    /// (time, value), in time order.
    pub points: Vec<(f64, f64)>,
    /// Drawn as dots (one per checkpoint) rather than a line.
    pub dots: bool,
    /// Drawn dashed (a second figure of the same mode, e.g. p99 beside p50).
    pub dashed: bool,
    /// The line's width (a dot's radius is as wide).
    pub width: f64,
}

const W: f64 = 320.0;
const H: f64 = 150.0;
const LEFT: f64 = 46.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 30.0;

/// The smallest 1, 2 or 5 × 10ⁿ at least `v` (1 for nothing).
pub fn nice_max(v: f64) -> f64 {
    if v.is_nan() || v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let mut step = 10f64.powf(v.log10().floor());
    loop {
        for m in [1.0, 2.0, 5.0, 10.0] {
            if m * step >= v * (1.0 - 1e-9) {
                return m * step;
            }
        }
        step *= 10.0;
    }
}

/// A tick's label: whole numbers as they are, small ones with what decimals they need.
fn label(v: f64) -> String {
    if v >= 10.0 || v == v.trunc() {
        num(v, 0)
    } else if v >= 1.0 {
        num(v, 1)
    } else {
        num(v, 2)
    }
}

/// A chart: its title, the y axis's unit, the x axis from 0 to `x_max` in `x_unit`, the lines.
pub fn chart(
    title: &str,
    y_unit: &str,
    x_max: f64,
    x_unit: &str,
    lines: &[Line],
    testid: &str,
) -> String {
    chart_on(title, y_unit, Across::Time(x_max), x_unit, lines, testid)
}

/// A chart whose x axis is a list of values evenly spaced (a line's point `i` at the `i`-th).
pub fn chart_by(
    title: &str,
    y_unit: &str,
    xs: &[String],
    x_unit: &str,
    lines: &[Line],
    testid: &str,
) -> String {
    chart_on(title, y_unit, Across::Values(xs), x_unit, lines, testid)
}

/// `chart` with `note` written across its empty plot (what it waits for).
pub fn with_note(chart: String, note: &str) -> String {
    let text = format!(
        r#"<text class="unit cmp-empty" x="{}" y="{}" text-anchor="middle">{}</text></svg>"#,
        px(LEFT + (W - LEFT - RIGHT) / 2.0),
        px(TOP + (H - TOP - BOTTOM) / 2.0),
        escape(note)
    );
    match chart.rfind("</svg>") {
        Some(at) => format!("{}{text}{}", &chart[..at], &chart[at + 6..]),
        None => chart,
    }
}

/// What the x axis measures: time from 0, or values evenly spaced.
enum Across<'a> {
    Time(f64),
    Values(&'a [String]),
}

fn chart_on(
    title: &str,
    y_unit: &str,
    across: Across,
    x_unit: &str,
    lines: &[Line],
    testid: &str,
) -> String {
    let x_max = match across {
        Across::Time(t) => t,
        Across::Values(v) => v.len().saturating_sub(1) as f64,
    };
    let y_max = nice_max(
        lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.1))
            .fold(0.0, f64::max),
    );
    let x_max = x_max.max(1.0);
    let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
    let x = |t: f64| LEFT + pw * (t / x_max).clamp(0.0, 1.0);
    let y = |v: f64| TOP + ph * (1.0 - (v / y_max).clamp(0.0, 1.0));
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<figure class="cmp-chart" data-testid="{testid}" data-y-max="{}" data-x-max="{}"><figcaption>{}</figcaption><svg viewBox="0 0 {} {}" role="img" aria-label="{}">"#,
        label(y_max),
        label(x_max),
        escape(title),
        px(W),
        px(H),
        escape(title)
    );
    // Axes, with three ticks each and their units.
    for k in 0..=2 {
        let v = y_max * k as f64 / 2.0;
        let _ = write!(
            o,
            r#"<line class="grid" x1="{}" x2="{}" y1="{yy}" y2="{yy}"/><text class="cmp-tick" x="{}" y="{}" text-anchor="end">{}</text>"#,
            px(LEFT),
            px(W - RIGHT),
            px(LEFT - 4.0),
            px(y(v) + 3.5),
            label(v),
            yy = px(y(v)),
        );
        if let Across::Time(_) = across {
            let t = x_max * k as f64 / 2.0;
            let anchor = ["start", "middle", "end"][k];
            let _ = write!(
                o,
                r#"<text class="cmp-tick" x="{}" y="{}" text-anchor="{anchor}">{}</text>"#,
                px(x(t)),
                px(H - BOTTOM + 13.0),
                label(t)
            );
        }
    }
    if let Across::Values(values) = across {
        for (i, v) in values.iter().enumerate() {
            let _ = write!(
                o,
                r#"<text class="cmp-tick" x="{}" y="{}" text-anchor="middle">{}</text>"#,
                px(x(i as f64)),
                px(H - BOTTOM + 13.0),
                escape(v)
            );
        }
    }
    let _ = write!(
        o,
        r#"<line class="axis" x1="{l}" x2="{l}" y1="{}" y2="{b}"/><line class="axis" x1="{l}" x2="{}" y1="{b}" y2="{b}"/><text class="unit" x="{l}" y="{}">{}</text><text class="unit" x="{}" y="{}" text-anchor="end">{}</text>"#,
        px(TOP),
        px(W - RIGHT),
        px(TOP - 2.0),
        escape(y_unit),
        px(W - RIGHT),
        px(H - 3.0),
        escape(x_unit),
        l = px(LEFT),
        b = px(H - BOTTOM),
    );
    for line in lines {
        if line.dots {
            for &(t, v) in &line.points {
                let _ = write!(
                    o,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{}"/>"#,
                    px(x(t)),
                    px(y(v)),
                    px(line.width),
                    line.colour
                );
            }
        } else if !line.points.is_empty() {
            let d: Vec<String> = line
                .points
                .iter()
                .map(|&(t, v)| format!("{},{}", px(x(t)), px(y(v))))
                .collect();
            let _ = write!(
                o,
                r#"<polyline fill="none" stroke="{}" stroke-width="{}"{} points="{}"/>"#,
                line.colour,
                px(line.width),
                if line.dashed {
                    r#" stroke-dasharray="4 3""#
                } else {
                    ""
                },
                d.join(" ")
            );
        }
    }
    o += "</svg></figure>";
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_rounds_up_to_one_two_or_five() {
        assert_eq!(nice_max(0.0), 1.0);
        assert_eq!(nice_max(0.42), 0.5);
        assert_eq!(nice_max(1.0), 1.0);
        assert_eq!(nice_max(1.2), 2.0);
        assert_eq!(nice_max(37.0), 50.0);
        assert_eq!(nice_max(172.0), 200.0);
        assert_eq!(nice_max(501.0), 1000.0);
    }

    #[test]
    fn values_across_are_evenly_spaced_and_labelled() {
        let xs: Vec<String> = ["10", "20", "500"].map(String::from).to_vec();
        let line = Line {
            colour: COLOURS[0],
            points: vec![(0.0, 25.6), (1.0, 26.2), (2.0, 2.2)],
            dots: false,
            dashed: false,
            width: 2.0,
        };
        let svg = chart_by("Overhead", "%", &xs, "interval", &[line], "o");
        assert!(svg.contains(r#"data-y-max="50""#), "{svg}");
        for (i, v) in xs.iter().enumerate() {
            let x = px(LEFT + (W - LEFT - RIGHT) * i as f64 / 2.0);
            assert!(
                svg.contains(&format!(
                    r#"x="{x}" y="{}" text-anchor="middle">{v}<"#,
                    px(H - BOTTOM + 13.0)
                )),
                "{v}: {svg}"
            );
        }
    }

    #[test]
    fn every_mode_is_drawn_on_one_scale_with_its_units() {
        let lines = [
            Line {
                colour: COLOURS[0],
                points: vec![(0.0, 0.0), (50.0, 8.0), (100.0, 4.0)],
                dots: false,
                dashed: false,
                width: 1.5,
            },
            Line {
                colour: COLOURS[1],
                points: vec![(25.0, 17.0)],
                dots: true,
                dashed: false,
                width: 2.5,
            },
        ];
        let svg = chart("Latency <ms>", "ms", 100.0, "t", &lines, "chart-latency");
        assert!(svg.contains(r#"data-y-max="20""#), "{svg}");
        assert!(svg.contains(r#"data-x-max="100""#));
        assert!(svg.contains("Latency &lt;ms&gt;"));
        assert!(svg.contains(r##"stroke="#2563eb""##));
        assert_eq!(svg.matches("<circle").count(), 1);
        // The highest value sits below the top of the scale, inside the plot.
        assert!(svg.contains(&format!(
            r#"cy="{}""#,
            px(TOP + (H - TOP - BOTTOM) * (1.0 - 17.0 / 20.0))
        )));
    }
}
