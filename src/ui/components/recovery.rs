//! The recovery line above the dataflow: a failure the scenario plans (with a button that
//! skips it — a different future), the job down after a failure, the restore and the sources
//! rewinding, and once the job has ended after a failure, its counts against the same run
//! without the failure.

use yew::prelude::*;

use crate::engine::view::{self, RecoveryPhase};
use crate::engine::TaskId;
use crate::i18n::Lang;
use crate::ui::fmt::escape;
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
    // Written as markup (names escaped): a plain line redrawn with its parent, smaller in the
    // wasm than element builders. Only the skip button, which listens, is an element.
    let line = |attr: &str, inner: String| {
        Html::from_html_unchecked(
            format!(
                "<p class=\"recovery {attr}\" data-testid=\"recovery\" data-phase=\"{attr}\" \
                 role=\"status\">{inner}</p>"
            )
            .into(),
        )
    };
    match phase {
        Some(RecoveryPhase::Planned { task, at }) => {
            let on_skip = p.on_skip.clone();
            html! {
                <p class="recovery planned" data-testid="recovery" data-phase="planned" role="status">
                    <span>{ (s.recovery_planned)(&name(task), at) }</span>
                    <button class="small" data-testid="skip-failure"
                        onclick={move |_| on_skip.emit(task)}>{ s.skip_failure }</button>
                </p>
            }
        }
        Some(RecoveryPhase::Down {
            failed,
            restart_at,
            checkpoint,
            partial,
        }) => line(
            "down",
            format!(
                "<span>{}</span>",
                escape(&(s.recovery_down)(
                    failed.map(name).as_deref(),
                    restart_at,
                    checkpoint,
                    partial
                ))
            ),
        ),
        Some(RecoveryPhase::Restored {
            checkpoint,
            at,
            rewound,
            duplicates,
        }) => {
            let mut inner = format!(
                "<span>{}</span>",
                escape(&(s.recovery_restored)(checkpoint, at))
            );
            let rewound = rewound
                .iter()
                .map(|&(t, from, to)| (s.recovery_rewound)(&name(t), from, to))
                .collect::<Vec<_>>()
                .join(" · ");
            if !rewound.is_empty() {
                inner += &format!("<span class=\"rewound\">{}</span>", escape(&rewound));
            }
            if duplicates > 0 {
                inner += &format!(
                    "<span class=\"twice\">{}</span>",
                    escape(&(s.recovery_duplicates)(duplicates))
                );
            }
            line("restored", inner)
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
            let text = if same {
                escape(s.final_same)
            } else {
                format!(
                    "{} <span class=\"twice\">{}</span>",
                    escape(&(s.final_differs)(differ.len())),
                    escape(&words)
                )
            };
            Html::from_html_unchecked(
                format!(
                    "<p class=\"recovery finished {}\" data-testid=\"final-comparison\" \
                     data-equal=\"{same}\" role=\"status\">{text}</p>",
                    if same { "same" } else { "differs" }
                )
                .into(),
            )
        }
    }
}
