//! The parts of the imported job beside its checkpoints: what has been imported so far, the
//! checkpoint configuration (under Flink's own setting names), the exceptions and each
//! vertex's subtask attempts.

use yew::prelude::*;

use super::job::Job;
use super::job_words::added;
use super::words::{trigger, ViewLang};
use crate::scenario::flink::CheckpointConfig;

/// "This job so far: …", one item per import.
pub fn so_far(lang: ViewLang, job: &Job, clear: Callback<MouseEvent>) -> Html {
    let w = lang.job_words();
    let items = job
        .added
        .iter()
        .map(|a| html! { <li>{ added(lang, a) }</li> });
    html! {
        <section class="flink-so-far" data-testid="flink-so-far">
            <h2>{ w.so_far }</h2>
            <ul>{ for items }</ul>
            <button onclick={clear} data-testid="flink-clear">{ w.clear }</button>
        </section>
    }
}

/// The configuration as Flink's settings, and what the simulation kept of its own.
pub fn config(lang: ViewLang, c: &CheckpointConfig, kept: &[String]) -> Html {
    let w = lang.job_words();
    let ms = |v: u64| format!("{v} ms");
    let rows: Vec<(&str, String)> = vec![
        (
            "execution.checkpointing.mode",
            if c.exactly_once {
                "EXACTLY_ONCE"
            } else {
                "AT_LEAST_ONCE"
            }
            .into(),
        ),
        (
            "execution.checkpointing.interval",
            c.interval_ms.map_or_else(|| w.off.to_string(), ms),
        ),
        (
            "execution.checkpointing.unaligned.enabled",
            c.unaligned.to_string(),
        ),
        (
            "execution.checkpointing.aligned-checkpoint-timeout",
            ms(c.aligned_timeout_ms),
        ),
        (
            "execution.checkpointing.max-concurrent-checkpoints",
            c.max_concurrent.to_string(),
        ),
        ("execution.checkpointing.min-pause", ms(c.min_pause_ms)),
        ("execution.checkpointing.timeout", ms(c.timeout_ms)),
        (
            "execution.checkpointing.tolerable-failed-checkpoints",
            c.tolerable_failed.map_or("–".into(), |n| n.to_string()),
        ),
        (
            "execution.checkpointing.checkpoints-after-tasks-finish",
            c.after_tasks_finish.map_or("–".into(), |b| b.to_string()),
        ),
    ];
    let rows = rows.into_iter().map(|(k, v)| {
        html! { <tr data-key={k}><td><code>{ k }</code></td><td>{ v }</td></tr> }
    });
    let kept_items = kept.iter().map(|k| html! { <li>{ k }</li> });
    html! {
        <section class="flink-config" data-testid="flink-config">
            <h2>{ w.config }</h2>
            <div class="flink-scroll"><table>{ for rows }</table></div>
            <p class="hint">{ w.config_note }</p>
            if !kept.is_empty() {
                <p class="hint">{ w.config_kept }</p>
                <ul data-testid="flink-config-kept">{ for kept_items }</ul>
            }
        </section>
    }
}

/// The exceptions, newest first as Flink lists them.
pub fn exceptions(lang: ViewLang, job: &Job) -> Html {
    let w = lang.job_words();
    let rows = job.exceptions.iter().map(|e| {
        html! {
            <tr data-time={e.time_ms.to_string()}>
                <td>{ trigger(e.time_ms, false) }</td>
                <td>{ e.task.clone().unwrap_or_default() }</td>
                <td title={e.name.clone()}>{ e.message.clone() }</td>
            </tr>
        }
    });
    html! {
        <section data-testid="flink-exceptions">
            <h2>{ w.exceptions }</h2>
            <div class="flink-scroll"><table>
                <thead><tr><th>{ w.time }</th><th>{ w.task }</th><th>{ w.exception }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table></div>
        </section>
    }
}

/// Each vertex's subtasks with their attempt numbers and states.
pub fn attempts(lang: ViewLang, job: &Job) -> Html {
    let w = lang.job_words();
    let rows = job.vertices.iter().flat_map(|v| {
        v.subtasks.iter().map(move |s| {
            html! {
                <tr data-task={v.name.clone()} data-index={s.index.to_string()}
                    data-attempt={s.attempt.to_string()}>
                    <td>{ format!("{} #{}", v.name, s.index) }</td>
                    <td class="num">{ format!("{} {}", w.attempt, s.attempt) }</td>
                    <td>{ s.status.clone() }</td>
                </tr>
            }
        })
    });
    html! {
        <section data-testid="flink-attempts">
            <h2>{ w.attempts }</h2>
            <p class="hint">{ w.attempts_note }</p>
            <div class="flink-scroll"><table><tbody>{ for rows }</tbody></table></div>
        </section>
    }
}
