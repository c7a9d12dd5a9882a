//! The recovery line above the dataflow: a failure the scenario plans (with a button that
//! skips it — a different future), the job down after a failure, the restore and the sources
//! rewinding, and once the job has ended after a failure, its counts against the same run
//! without the failure.

use yew::prelude::*;

use crate::engine::view::{self, RecoveryPhase};
use crate::engine::TaskId;
use crate::i18n::Lang;
use crate::ui::run::Run;
use crate::ui::state::RunRef;

/// What the line is drawn from. A plain function of these, like the token diagram.
#[derive(Properties, PartialEq, Clone)]
pub struct RecoveryProps {
    pub run: RunRef,
    pub version: u64,
    pub lang: Lang,
    pub on_skip: Callback<TaskId>,
}

/// Once a run that failed has ended: per word whose merged count differs from the run
/// without the failures, (word, count here, count without). `None` while it has not ended, if
/// nothing failed, or if the run without failures does not end.
pub fn final_differences(run: &Run) -> Option<Vec<(u32, u64, u64)>> {
    let sim = run.sim();
    if !sim.job_finished() || sim.recoveries().is_empty() {
        return None;
    }
    let without = run.failure_free()?;
    let here = view::merged_counts(sim);
    let mut differ: Vec<(u32, u64, u64)> = Vec::new();
    for (&w, &n) in &here {
        let m = without.get(&w).copied().unwrap_or(0);
        if n != m {
            differ.push((w, n, m));
        }
    }
    for (&w, &m) in without.iter() {
        if here.get(&w).is_none() {
            differ.push((w, 0, m));
        }
    }
    Some(differ)
}

pub fn recovery_line(p: &RecoveryProps) -> Html {
    let s = p.lang.strings();
    let run = p.run.0.borrow();
    let name = |t: TaskId| -> String {
        run.sim()
            .physical()
            .tasks
            .get(t as usize)
            .map_or_else(String::new, |i| i.name.clone())
    };
    let phase = view::recovery_phase(run.sim());
    let (attr, body) = match phase {
        Some(RecoveryPhase::Planned { task, at }) => {
            let on_skip = p.on_skip.clone();
            (
                "planned",
                html! {
                    <>
                        <span>{ (s.recovery_planned)(&name(task), at) }</span>
                        <button class="small" data-testid="skip-failure"
                            onclick={move |_| on_skip.emit(task)}>{ s.skip_failure }</button>
                    </>
                },
            )
        }
        Some(RecoveryPhase::Down {
            failed,
            restart_at,
            checkpoint,
        }) => (
            "down",
            html! { <span>{ (s.recovery_down)(failed.map(name).as_deref(), restart_at, checkpoint) }</span> },
        ),
        Some(RecoveryPhase::Restored {
            checkpoint,
            at,
            rewound,
            duplicates,
        }) => {
            let rewound = rewound
                .iter()
                .map(|&(t, from, to)| (s.recovery_rewound)(&name(t), from, to))
                .collect::<Vec<_>>()
                .join(" · ");
            (
                "restored",
                html! {
                    <>
                        <span>{ (s.recovery_restored)(checkpoint, at) }</span>
                        if !rewound.is_empty() { <span class="rewound">{ rewound }</span> }
                        if duplicates > 0 { <span class="twice">{ (s.recovery_duplicates)(duplicates) }</span> }
                    </>
                },
            )
        }
        None => {
            let Some(differ) = final_differences(&run) else {
                return html! {};
            };
            let sim = run.sim();
            let same = differ.is_empty();
            let words = differ
                .iter()
                .map(|&(w, n, m)| (s.final_word)(sim.word(w), n, m))
                .collect::<Vec<_>>()
                .join(" · ");
            return html! {
                <p class={if same { "recovery finished same" } else { "recovery finished differs" }}
                    data-testid="final-comparison" data-equal={if same { "true" } else { "false" }}
                    role="status">
                    if same { { s.final_same } } else {
                        { (s.final_differs)(differ.len()) }{ " " }<span class="twice">{ words }</span>
                    }
                </p>
            };
        }
    };
    html! {
        <p class={classes!("recovery", attr)} data-testid="recovery" data-phase={attr} role="status">{ body }</p>
    }
}
