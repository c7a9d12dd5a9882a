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
}

const LABEL: f64 = 190.0;
const PLOT: f64 = 520.0;
const ROW: f64 = 18.0;
const TOP: f64 = 22.0;

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
    // The axis runs to the last acknowledgement (at least 1 ms, so a checkpoint of no time
    // still draws).
    let end = p
        .subtasks
        .iter()
        .flat_map(|s| s.spans().map(|(_, _, to)| to))
        .max()
        .unwrap_or(0)
        .max(1);
    let x = |ms: u64| LABEL + PLOT * ms as f64 / end as f64;
    let height = TOP + ROW * p.subtasks.len() as f64 + 8.0;
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
                    { format!("{} #{}", s.task, s.index) }
                </text>
                { for bars }
            </g>
        }
    });
    let legend = [Phase::StartDelay, Phase::Alignment, Phase::Sync, Phase::Async]
        .into_iter()
        .enumerate()
        .map(|(i, phase)| {
            let lx = LABEL + 130.0 * i as f64;
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
                viewBox={format!("0 0 {} {height:.1}", LABEL + PLOT + 10.0)}
                width="100%" role="img" aria-label={format!("{} {}", w.id, p.checkpoint)}>
                { for legend }
                { for rows }
            </svg>
            <figcaption>{ format!("0 – {end} ms") }</figcaption>
        </figure>
    }
}
