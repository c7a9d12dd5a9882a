//! The space-time diagram of a job drawn bundled (`layout::Layout::bundled`, the second
//! player): a line per operator, as the dataflow draws an operator as one card — a line per
//! subtask would be a thousand lines a pixel apart. Trips run between operators' lines; a
//! checkpoint's snapshots on an operator in the window are one span, from its first subtask's
//! snapshot to its last; a completed checkpoint's cut is the band between its operators' first
//! and last snapshots (each subtask's own point lies inside it), read from its global state.
//! The records across a cut are counted (the engine's classification, as for the drawing by
//! subtask), not ringed: where one crosses inside the band depends on subtasks the drawing has
//! merged.

use std::fmt::Write;

use yew::prelude::*;

use super::{label_fit, trip_class, x, LEFT, RIGHT, TOP, WIDTH};
use crate::engine::record::ItemKind;
use crate::engine::view::{Across, SpaceTime};
use crate::engine::Simulation;
use crate::i18n::Lang;
use crate::ui::fmt::{escape, px};
use crate::ui::palette::checkpoint_class as k;

/// The grouped drawing's own rules, added with the bundled drawing's (`dataflow::bundles`).
pub const STYLE: &str = ".st-many{stroke-opacity:.35;}.st-span{stroke:var(--k);stroke-width:7;stroke-opacity:.55;stroke-linecap:round;}.st-band polygon{fill:var(--k);fill-opacity:.14;stroke:var(--k);stroke-opacity:.6;stroke-width:1;}";

/// The earliest and latest time of a checkpoint's snapshots on each operator, and how many
/// of its subtasks took one, from the snapshots at or after `t0`.
fn spans(sim: &Simulation, st: &SpaceTime, n: u64, t0: u64) -> Vec<Option<(u64, u64, u32)>> {
    let phys = sim.physical();
    let mut out: Vec<Option<(u64, u64, u32)>> = vec![None; phys.graph.operators.len()];
    for p in st.snapshots() {
        if p.checkpoint != n || p.at.time < t0 {
            continue;
        }
        let Some(o) = phys.tasks.get(p.task as usize).map(|t| t.operator as usize) else {
            continue;
        };
        let t = p.at.time;
        out[o] = Some(match out[o] {
            None => (t, t, 1),
            Some((a, b, c)) => (a.min(t), b.max(t), c + 1),
        });
    }
    out
}

/// The diagram's section: what it shows, and the plot. No cut of one's own here: it would
/// take a point on each of a thousand lines.
pub fn section(lang: Lang, sim: &Simulation, st: &SpaceTime, t0: u64, t1: u64) -> Html {
    let title = lang.strings().spacetime_title;
    let hint = crate::ui::kit::pick(
        lang,
        "A line per operator: its subtasks drawn as one, as the dataflow draws them as one card. \
         A thick span is a checkpoint's snapshots on that operator, from its first subtask's to \
         its last; a completed checkpoint's cut is the band between them (each subtask's own \
         point is inside it). The axis reaches back to the latest completed checkpoint's \
         trigger; the trips drawn are the last steps'.",
        "每個算子一條線：它的子任務合成一條，如同資料流圖把它們畫成一張卡片。粗段是一個檢查點在該算子上的快照，\
         從第一個子任務的到最後一個的；完成的檢查點的切面是其間的帶狀區域（每個子任務自己的點都在其中）。\
         時間軸往回延伸到最近完成的檢查點被觸發的時刻；畫出的傳輸是最近幾步的。",
    );
    let body = format!(
        r#"<p class="hint">{}</p><div class="st-scroll">{}</div>"#,
        escape(&hint),
        plot(sim, st, t0, t1, title)
    );
    html! {
        <section class="spacetime" data-testid="spacetime" aria-label={title}>
            { Html::from_html_unchecked(body.into()) }
        </section>
    }
}

/// The plot (an SVG) of the last steps, `st`, from time `t0` to `t1` — from earlier, the
/// latest completed checkpoint's trigger, if it came before: a cut of a job this large spans
/// far more steps than the diagram replays (huge's first one 136,000 steps, 92 ms), and its
/// band is the point of the picture.
pub fn plot(sim: &Simulation, st: &SpaceTime, t0: u64, t1: u64, title: &str) -> String {
    let t0 = sim
        .coordinator()
        .latest_completed()
        .map_or(t0, |g| t0.min(g.trigger_time));
    let phys = sim.physical();
    let ops = &phys.graph.operators;
    let step = super::row_height(ops.len());
    let row = |o: usize| TOP + step * o as f64;
    let op_of = |task: u32| {
        phys.tasks
            .get(task as usize)
            .map_or(0, |t| t.operator as usize)
    };
    let height = (row(ops.len().saturating_sub(1)) + TOP).ceil();
    let mut svg = format!(
        r#"<svg viewBox="0 0 {} {}" role="img" aria-label="{}" class="st-grouped">"#,
        px(WIDTH),
        px(height),
        escape(title)
    );
    for (o, op) in ops.iter().enumerate() {
        let label = format!("{} ×{}", op.name, op.parallelism);
        let y = px(row(o));
        let _ = write!(
            svg,
            r#"<g class="st-task" data-operator="{o}"><text x="4" y="{}"{}>{}</text><line x1="{}" x2="{}" y1="{y}" y2="{y}"/></g>"#,
            px(row(o) + 4.0),
            label_fit(&label),
            escape(&label),
            px(LEFT),
            px(WIDTH - RIGHT),
        );
    }
    let trips: Vec<_> = st.trips().iter().filter(|t| t.arrived.time >= t0).collect();
    let first = trips.len().saturating_sub(super::TRIPS);
    for trip in &trips[first..] {
        let info = &phys.channels[trip.channel as usize];
        let (class, n) = trip_class(trip.item);
        // Records by the hundred between two lines: fainter.
        let many = if matches!(trip.item, ItemKind::Record(_)) {
            " st-many"
        } else {
            ""
        };
        let (mut xs, mut ys) = (x(trip.sent.time, t0, t1), row(op_of(info.from)));
        let (xa, ya) = (x(trip.arrived.time, t0, t1), row(op_of(info.to)));
        if xs < LEFT && xa > xs {
            ys += (ya - ys) * (LEFT - xs) / (xa - xs);
            xs = LEFT;
        }
        let _ = write!(
            svg,
            r#"<line class="{class}{many} {}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            n.map_or("", k),
            px(xs),
            px(ys),
            px(xa),
            px(ya)
        );
    }
    // Each completed checkpoint's cut, as its global state has it (a snapshot is taken at the
    // acknowledgement less its asynchronous part), where it reaches into the window; the
    // records across it in the window counted.
    for g in sim.coordinator().completed() {
        let n = g.checkpoint;
        let mut edge: Vec<Option<(u64, u64)>> = vec![None; ops.len()];
        for t in &g.tasks {
            let at = t.metrics.ack_time.saturating_sub(t.metrics.async_duration);
            let o = op_of(t.task);
            edge[o] = Some(edge[o].map_or((at, at), |(a, b)| (a.min(at), b.max(at))));
        }
        if edge.iter().flatten().all(|&(_, b)| b < t0) {
            continue;
        }
        let at = |t: u64| px(x(t, t0, t1).max(LEFT));
        let mut points = String::new();
        let edge = edge
            .iter()
            .enumerate()
            .filter_map(|(o, e)| Some((o, (*e)?)));
        for (o, (a, _)) in edge.clone() {
            let _ = write!(points, "{},{} ", at(a), px(row(o)));
        }
        for (o, (_, b)) in edge.rev() {
            let _ = write!(points, "{},{} ", at(b), px(row(o)));
        }
        let (mut flight, mut orphans) = (0, 0);
        for (_, _, how) in st.crossings(sim, n) {
            match how {
                Across::InFlight => flight += 1,
                Across::Orphan => orphans += 1,
            }
        }
        let _ = write!(
            svg,
            r#"<g class="st-band {}" data-testid="cut-{n}" data-records-in-flight="{flight}" data-orphans="{orphans}"><polygon points="{points}"/></g>"#,
            k(n)
        );
    }
    // Each checkpoint's snapshots on each operator: a span from the first to the last, and a
    // dot where the last subtask took its own.
    let mut seen: Vec<u64> = Vec::new();
    for p in st.snapshots().iter().filter(|p| p.at.time >= t0) {
        if seen.contains(&p.checkpoint) {
            continue;
        }
        seen.push(p.checkpoint);
        for (o, s) in spans(sim, st, p.checkpoint, t0).into_iter().enumerate() {
            let Some((a, b, count)) = s else { continue };
            let y = px(row(o));
            let _ = write!(
                svg,
                r#"<g class="{}" data-operator="{o}" data-snapshots="{count}"><line class="st-span" x1="{}" x2="{}" y1="{y}" y2="{y}"/><circle class="st-snap" r="3.5" cx="{}" cy="{y}"/></g>"#,
                k(p.checkpoint),
                px(x(a, t0, t1)),
                px(x(b, t0, t1)),
                px(x(b, t0, t1)),
            );
        }
    }
    let now = px(x(t1, t0, t1));
    let _ = write!(
        svg,
        r#"<line class="st-now" x1="{now}" x2="{now}" y1="2" y2="{}"/></svg>"#,
        px(height - 2.0)
    );
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::run::Run;

    /// The numbers after `name="` in `svg`, in order.
    fn values(svg: &str, name: &str) -> Vec<f64> {
        let key = format!(" {name}=\"");
        svg.match_indices(&key)
            .filter_map(|(i, _)| {
                let rest = &svg[i + key.len()..];
                rest[..rest.find('"')?].parse().ok()
            })
            .collect()
    }

    #[test]
    fn huge_is_a_line_per_operator_with_its_snapshots_spanned_and_its_cut_a_band() {
        let mut run = Run::new(crate::scenario::presets::huge()).unwrap();
        assert!(run.layout.bundled, "huge is drawn bundled");
        let rows: Vec<f64> = (0..4)
            .map(|o| TOP + super::super::row_height(4) * o as f64)
            .collect();
        let on_a_row = |y: f64| rows.iter().any(|r| (r - y).abs() < 0.01);
        let mut before_completion = false;
        while run.sim().coordinator().latest_completed().is_none() {
            assert!(run.forward(), "the run ended before checkpoint 1 completed");
            if run.position() == 900 {
                let (st, t0) = run.space_time(400);
                let svg = plot(run.sim(), &st, t0, run.sim().now(), "T");
                assert!(
                    !svg.contains("cut-1"),
                    "no cut before the checkpoint completes"
                );
                // Checkpoint 1 is under way: spans of its snapshots, none over an operator's
                // parallelism.
                let counts = values(&svg, "data-snapshots");
                assert!(!counts.is_empty(), "no snapshot spanned at step 900");
                assert!(
                    counts.iter().all(|&c| (1.0..=256.0).contains(&c)),
                    "{counts:?}"
                );
                before_completion = true;
            }
        }
        assert!(before_completion);
        let (st, t0) = run.space_time(400);
        let sim = run.sim();
        // As the diagram is drawn: at least a millisecond (huge takes ~100 steps a
        // millisecond: these 400 steps all came at one).
        let svg = plot(sim, &st, t0.min(sim.now() - 1), sim.now(), "T");
        // Four lines, each an operator with its parallelism; no line of a subtask.
        assert_eq!(svg.matches(r#"class="st-task""#).count(), 4);
        for name in ["Sentences ×256", "Split ×256", "Count ×256", "Sink ×256"] {
            assert!(svg.contains(&format!(">{name}</text>")), "{name}");
        }
        assert!(!svg.contains("data-task="));
        // Every trip runs from an operator's line (or, begun before the window, from its left
        // edge) to another's.
        let trips: Vec<&str> = svg
            .split("<line class=\"st-")
            .skip(1)
            .filter(|l| !l.starts_with("now"))
            .collect();
        assert!(trips.len() > 100, "{} trips", trips.len());
        for trip in trips {
            let (x1, y1, y2) = (
                values(trip, "x1")[0],
                values(trip, "y1")[0],
                values(trip, "y2")[0],
            );
            assert!(
                on_a_row(y2) && (on_a_row(y1) || x1 == LEFT),
                "a trip off the lines: {trip}"
            );
        }
        // The completed checkpoint's cut: a band through the four lines (down its first
        // snapshots, back up its last), right of the labels.
        let at = svg
            .find(r#"data-testid="cut-1""#)
            .expect("checkpoint 1's cut");
        let points = &svg[at..];
        let points = &points[points.find("points=\"").unwrap() + 8..];
        let points: Vec<(f64, f64)> = points[..points.find('"').unwrap()]
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(points.len(), 8);
        assert!(
            points.iter().all(|&(x, y)| x >= LEFT && on_a_row(y)),
            "{points:?}"
        );
        assert_eq!(points[0].1, rows[0]);
        assert_eq!(points[3].1, rows[3]);
        assert_eq!(points[4].1, rows[3]);
        // The axis begins at the checkpoint's trigger, where the sources snapshot; the sink's
        // last snapshot is the checkpoint's last acknowledgement: now, the right edge.
        assert!((points[0].0 - LEFT).abs() < 0.01, "{points:?}");
        assert!((points[4].0 - (WIDTH - RIGHT)).abs() < 0.01, "{points:?}");
        // Each operator's band widens downstream: Count and Sink snapshot later than Split.
        assert!(points[2].0 > points[1].0, "{points:?}");
    }
}
