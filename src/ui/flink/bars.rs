//! One checkpoint's subtasks as horizontal bars on one time axis from the trigger: start
//! delay, alignment, sync and async one after another (`SubtaskTiming::spans`), so a slow
//! channel's alignment or a slow upload's async part stands out at a glance.

use std::rc::Rc;

use yew::prelude::*;

use super::words::ViewLang;
use crate::scenario::flink::{Phase, SubtaskTiming};

#[derive(Properties, PartialEq, Clone)]
pub struct BarsProps {
    pub lang: ViewLang,
    pub checkpoint: u64,
    pub subtasks: Rc<Vec<SubtaskTiming>>,
    pub testid: AttrValue,
    /// The axis's end, when another drawing shares it (the job's and the simulation's, side
    /// by side); its own last acknowledgement, if that is later.
    #[prop_or_default]
    pub axis_end: Option<u64>,
}

/// Where a checkpoint's drawing ends on its own: the last acknowledgement (at least 1 ms, so
/// a checkpoint of no time still draws).
pub fn own_end(subtasks: &[SubtaskTiming]) -> u64 {
    subtasks
        .iter()
        .flat_map(|s| s.spans().map(|(_, _, to)| to))
        .max()
        .unwrap_or(0)
        .max(1)
}

// The drawing is about as wide as its column (half the view), so a unit is about a pixel and
// the 11-unit text reads at 11 px.
const LABEL: f64 = 170.0;
const PLOT: f64 = 330.0;
const ROW: f64 = 18.0;
const TOP: f64 = 22.0;
/// Room under the rows for the time axis.
const AXIS: f64 = 24.0;
/// The most characters of a subtask's name that fit left of the bars at 11 units.
const LABEL_CHARS: usize = 24;

/// A subtask's label, "name #i", shortened in its middle to fit (a chained Flink task is
/// named by all its operators, "Keyed Aggregation → Sink: Print to Std. Out"); the whole name
/// is the label's tooltip.
fn short_label(task: &str, index: u32) -> String {
    let suffix = format!(" #{index}");
    let room = LABEL_CHARS.saturating_sub(suffix.chars().count()).max(6);
    let count = task.chars().count();
    if count <= room {
        return format!("{task}{suffix}");
    }
    let head = (room - 1) / 2;
    let tail = room - 1 - head;
    let start: String = task.chars().take(head).collect();
    let end: String = task.chars().skip(count - tail).collect();
    format!("{start}…{end}{suffix}")
}

fn phase_code(p: Phase) -> &'static str {
    match p {
        Phase::StartDelay => "start-delay",
        Phase::Alignment => "alignment",
        Phase::Sync => "sync",
        Phase::Async => "async",
    }
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::StartDelay => 0,
        Phase::Alignment => 1,
        Phase::Sync => 2,
        Phase::Async => 3,
    }
}

#[function_component(SubtaskBars)]
pub fn subtask_bars(p: &BarsProps) -> Html {
    let w = p.lang.words();
    // The axis runs to the last acknowledgement, or further when it is shared.
    let end = own_end(&p.subtasks).max(p.axis_end.unwrap_or(0));
    let x = |ms: u64| LABEL + PLOT * ms as f64 / end as f64;
    let plot_bottom = TOP + ROW * p.subtasks.len() as f64;
    let height = plot_bottom + AXIS;
    let rows = p.subtasks.iter().enumerate().map(|(i, s)| {
        let y = TOP + ROW * i as f64;
        let bars = s.spans().into_iter().filter(|(_, from, to)| to > from).map(|(phase, from, to)| {
            let name = w.phases[phase_index(phase)];
            html! {
                <rect class={classes!("phase", phase_code(phase))} data-phase={phase_code(phase)}
                    x={format!("{:.1}", x(from))} y={format!("{:.1}", y + 2.0)}
                    width={format!("{:.1}", (x(to) - x(from)).max(1.0))} height={format!("{:.1}", ROW - 4.0)}>
                    <title>{ format!("{}: {} → {} ms", name, from, to) }</title>
                </rect>
            }
        });
        html! {
            <g class="subtask" data-task={s.task.clone()} data-index={s.index.to_string()}
                data-acknowledged={s.acknowledged.to_string()}>
                <text x={format!("{:.1}", LABEL - 6.0)} y={format!("{:.1}", y + ROW - 5.0)} text-anchor="end">
                    <title>{ format!("{} #{}", s.task, s.index) }</title>
                    { short_label(&s.task, s.index) }
                </text>
                { for bars }
            </g>
        }
    });
    let legend = [Phase::StartDelay, Phase::Alignment, Phase::Sync, Phase::Async]
        .into_iter()
        .enumerate()
        .map(|(i, phase)| {
            let lx = LABEL + 84.0 * i as f64;
            html! {
                <g>
                    <rect class={classes!("phase", phase_code(phase))} x={format!("{lx:.1}")} y="4" width="10" height="10" />
                    <text x={format!("{:.1}", lx + 14.0)} y="13">{ w.phases[phase_index(phase)] }</text>
                </g>
            }
        });
    html! {
        <figure class="flink-bars">
            <svg data-testid={p.testid.clone()} data-checkpoint={p.checkpoint.to_string()}
                data-axis-end={end.to_string()}
                viewBox={format!("0 0 {} {height:.1}", LABEL + PLOT + 10.0)}
                width={format!("{:.0}", LABEL + PLOT + 10.0)} role="img" aria-label={format!("{} {}", w.id, p.checkpoint)}>
                { for legend }
                { for rows }
                <g class="axis">
                    <line x1={format!("{LABEL:.1}")} x2={format!("{:.1}", LABEL + PLOT)}
                        y1={format!("{:.1}", plot_bottom + 2.0)} y2={format!("{:.1}", plot_bottom + 2.0)} />
                    { for [0, end / 2, end].into_iter().enumerate().map(|(i, ms)| html! {
                        <text x={format!("{:.1}", x(ms))} y={format!("{:.1}", plot_bottom + 16.0)}
                            text-anchor={["start", "middle", "end"][i]}>{ format!("{ms} ms") }</text>
                    }) }
                </g>
            </svg>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::short_label;

    #[test]
    fn a_long_name_is_shortened_in_its_middle_and_keeps_its_index() {
        assert_eq!(short_label("Merge", 0), "Merge #0");
        let long = short_label("Keyed Aggregation → Sink: Print to Std. Out", 12);
        assert_eq!(long, "Keyed Agg…o Std. Out #12");
        assert_eq!(long.chars().count(), super::LABEL_CHARS);
        // Exactly at the limit: whole.
        let name = "a".repeat(super::LABEL_CHARS - 3);
        assert_eq!(short_label(&name, 1), format!("{name} #1"));
    }
}
