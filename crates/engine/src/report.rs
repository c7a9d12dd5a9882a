//! The textual trace of a run: what `abs-sim run` prints and the golden files hold.
//!
//! One JSON line per scheduled step, then one summary line. The writers stream: a line is
//! written as soon as its step has run, so a long run never holds its whole trace.

use std::io::{self, Write};

use serde_json::json;

use super::barrier::CheckpointId;
use super::coordinator::CheckpointStatus;
use super::physical::{ChannelId, Physical, TaskId};
use super::record::{Payload, Record};
use super::sim::Simulation;
use super::snapshot::{GlobalState, TaskState};
use super::trace::Event;

/// The trace of `steps` scheduled steps as JSON lines, then one summary line. The golden
/// trace tests compare exactly this text; it is [`write_trace`] into a string.
pub fn trace(sim: &mut Simulation, steps: u64) -> String {
    let mut out = Vec::new();
    // Writing into a vector cannot fail, and serde_json writes UTF-8 only.
    let _ = write_trace(sim, steps, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Runs up to `steps` scheduled steps (fewer if nothing is left to happen), writing each
/// step's line as it goes, then the summary line.
pub fn write_trace<W: Write>(sim: &mut Simulation, steps: u64, out: &mut W) -> io::Result<()> {
    let mut report = Report::default();
    for _ in 0..steps {
        if !report.write_step(sim, out)? {
            break;
        }
    }
    report.write_summary(sim, out)
}

/// A run being written: it keeps each checkpoint's verdict and global state from the step it
/// completed, so the summary has them all although the coordinator retains only the latest.
#[derive(Default)]
pub struct Report {
    completed: Vec<(CheckpointId, serde_json::Value)>,
    /// What each sink wrote, as text, in order: the job's output for `"final"`. A plain
    /// sink's is everything it ever emitted; a transactional sink's is its committed output
    /// followed by its open transaction, which a failure cuts off.
    sinks: Vec<(TaskId, Vec<String>)>,
}

impl Report {
    /// Runs one scheduled step and writes its line. `Ok(false)` when nothing was left to
    /// happen (and nothing was written).
    pub fn write_step<W: Write>(&mut self, sim: &mut Simulation, out: &mut W) -> io::Result<bool> {
        let Some(action) = sim.step() else {
            return Ok(false);
        };
        let action = serde_json::to_value(action)?;
        self.write_applied(sim, &action, out)?;
        Ok(true)
    }

    /// Writes the line of a step already taken — `action` as it should be printed (a move of
    /// the exhaustive search is an action with a choice added) — and keeps what it completed.
    pub fn write_applied<W: Write>(
        &mut self,
        sim: &Simulation,
        action: &serde_json::Value,
        out: &mut W,
    ) -> io::Result<()> {
        write_step_line(sim, action, out)?;
        for e in sim.last_events() {
            if let Event::Processed { task, record, .. } = e {
                if sim.physical().operator_of(*task).kind.is_sink() {
                    let text = sim.describe(&record.payload);
                    self.sink(*task).push(text);
                }
            }
            if let Event::TransactionAborted { task, .. } = e {
                // Back to what the sink has committed: the aborted transaction is gone.
                if let TaskState::Sink { committed, .. } = sim.tasks()[*task as usize].state {
                    self.sink(*task).truncate(committed as usize);
                }
            }
            if let Event::CheckpointCompleted { checkpoint, .. } = e {
                if let Some(g) = sim.coordinator().global_state(*checkpoint) {
                    self.completed
                        .push((*checkpoint, completed_json(sim.physical(), g)));
                }
            }
        }
        Ok(())
    }

    fn sink(&mut self, t: TaskId) -> &mut Vec<String> {
        let at = match self.sinks.iter().position(|(s, _)| *s == t) {
            Some(at) => at,
            None => {
                self.sinks.push((t, Vec::new()));
                self.sinks.len() - 1
            }
        };
        &mut self.sinks[at].1
    }

    /// The summary line: `{"summary": ...}`.
    pub fn write_summary<W: Write>(&self, sim: &Simulation, out: &mut W) -> io::Result<()> {
        serde_json::to_writer(&mut *out, &json!({ "summary": self.summary(sim) }))?;
        out.write_all(b"\n")
    }

    /// Steps, time, whether the job has finished, and every checkpoint with its status and,
    /// once completed, its verdict and global state.
    pub fn summary(&self, sim: &Simulation) -> serde_json::Value {
        let checkpoints: Vec<_> = sim
            .coordinator()
            .checkpoints()
            .iter()
            .map(|c| {
                let seen = self.completed.iter().find(|(id, _)| *id == c.id);
                checkpoint_entry(sim, c, seen.map(|(_, v)| v.clone()))
            })
            .collect();
        let failures: Vec<_> = sim
            .planned_failures()
            .iter()
            .map(|f| {
                let name = sim.physical().tasks.get(f.task as usize);
                json!({
                    "task": name.map_or("?", |i| i.name.as_str()),
                    "at": f.at,
                    "applied": f.applied,
                })
            })
            .collect();
        let mut summary = json!({
            "steps": sim.steps(),
            "time": sim.now(),
            "finished": sim.job_finished(),
            "checkpoints": checkpoints,
            "failures": failures,
        });
        if sim.job_finished() {
            summary["final"] = self.final_result(sim);
        }
        summary
    }

    /// The result of a finished job, nothing time-dependent: the keyed counts of every
    /// counting operator merged over its subtasks, and what the sinks received, sorted.
    fn final_result(&self, sim: &Simulation) -> serde_json::Value {
        let phys = sim.physical();
        let mut counts: Vec<(String, u64)> = super::view::merged_counts(sim)
            .iter()
            .map(|(&w, &n)| (word(phys, w).to_string(), n))
            .collect();
        counts.sort();
        let mut by_word = serde_json::Map::new();
        for (w, n) in counts {
            by_word.insert(w, json!(n));
        }
        // A transactional sink's open transaction is empty once the final checkpoint has
        // committed; cut it off all the same, by the sink's own count of what it committed.
        let mut sink: Vec<String> = Vec::new();
        for (t, log) in &self.sinks {
            let committed = match (
                &sim.tasks()[*t as usize].state,
                phys.operator_of(*t).kind.is_transactional(),
            ) {
                (TaskState::Sink { committed, .. }, true) => (*committed as usize).min(log.len()),
                _ => log.len(),
            };
            sink.extend_from_slice(&log[..committed]);
        }
        sink.sort();
        json!({ "counts": by_word, "sink": sink })
    }
}

/// A checkpoint's entry in the summary: its id, kind, status and acknowledgements and, once
/// completed, its verdict, figures and global state (`completed`: as kept when it completed;
/// else the coordinator's, or `"not retained"`).
fn checkpoint_entry(
    sim: &Simulation,
    c: &super::coordinator::CheckpointSummary,
    completed: Option<serde_json::Value>,
) -> serde_json::Value {
    let mut line = json!({
        "id": c.id, "kind": c.kind(), "status": c.status, "acked": c.acked,
        "total": c.total, "verdict": serde_json::Value::Null,
    });
    if c.status == CheckpointStatus::Completed {
        let now = || {
            sim.coordinator()
                .global_state(c.id)
                .map(|g| completed_json(sim.physical(), g))
        };
        match completed.or_else(now) {
            Some(serde_json::Value::Object(fields)) => {
                if let Some(obj) = line.as_object_mut() {
                    obj.extend(fields);
                }
            }
            _ => line["verdict"] = json!("not retained"),
        }
    }
    line
}

/// A checkpoint as the summary lists it (`abs-sim run`'s `"checkpoints"` entry), from the
/// coordinator as it is now: the page's export of a global state. `None` if the coordinator
/// no longer lists it.
pub fn checkpoint_json(sim: &Simulation, id: CheckpointId) -> Option<serde_json::Value> {
    let c = sim.coordinator().summary(id)?;
    Some(checkpoint_entry(sim, c, None))
}

/// Runs one scheduled step and writes its line, without keeping global states (the summary
/// then has those the coordinator retains). `Ok(false)` when nothing was left to happen.
pub fn write_step<W: Write>(sim: &mut Simulation, out: &mut W) -> io::Result<bool> {
    let Some(action) = sim.step() else {
        return Ok(false);
    };
    write_step_line(sim, &action, out)?;
    Ok(true)
}

/// The line of the step that just ran `action`.
fn write_step_line<W: Write>(
    sim: &Simulation,
    action: &impl serde::Serialize,
    out: &mut W,
) -> io::Result<()> {
    let line = json!({
        "step": sim.steps(),
        "time": sim.now(),
        "action": action,
        "events": sim.last_events(),
    });
    serde_json::to_writer(&mut *out, &line)?;
    out.write_all(b"\n")
}

/// The summary line of a run whose global states were not kept as it went.
pub fn write_summary<W: Write>(sim: &Simulation, out: &mut W) -> io::Result<()> {
    Report::default().write_summary(sim, out)
}

/// The summary of a run whose global states were not kept as it went: completed checkpoints
/// the coordinator no longer retains say `"not retained"`.
pub fn summary(sim: &Simulation) -> serde_json::Value {
    Report::default().summary(sim)
}

/// A completed checkpoint's `"verdict"` and `"global_state"`.
///
/// The verdict is `"consistent"`, or an object saying what is wrong: records duplicated or
/// lost by counts, the records that crossed the cut the wrong way (by identity), word counts
/// that do not match the input, tokens or money not conserved. The global state names tasks
/// and channels as the page does: `{"tasks": {"Count#1": STATE}, "channels": {"p->q": [ITEM]}}`
/// with every channel listed.
pub fn completed_json(phys: &Physical, g: &GlobalState) -> serde_json::Value {
    let v = &g.verdict;
    let item = |r: &Record| match r.payload {
        Payload::Token => json!("token"),
        Payload::Transfer { amount } => json!({ "id": r.id, "amount": amount }),
        Payload::Line(l) => json!({
            "id": r.id,
            "payload": phys.lines.get(l as usize).map_or("", |l| l.text.as_str()),
        }),
        Payload::Word(w) => json!({ "id": r.id, "payload": word(phys, w) }),
        Payload::Round { word: w, round } => {
            json!({ "id": r.id, "payload": word(phys, w), "round": round })
        }
        Payload::Count { word: w, count } => {
            json!({ "id": r.id, "payload": format!("{}={count}", word(phys, w)) })
        }
    };
    let verdict = if v.ok() {
        json!("consistent")
    } else {
        let crossings: Vec<_> = v
            .crossings
            .iter()
            .map(|c| {
                json!({
                    "channel": channel_key(phys, c.channel),
                    "record": item(&c.record),
                    "kind": c.kind,
                })
            })
            .collect();
        let mut wrong = json!({ "duplicated": v.duplicated, "lost": v.lost });
        if !crossings.is_empty() {
            wrong["crossings"] = json!(crossings);
        }
        if let Some(c) = &v.conservation {
            if c.expected != c.found {
                wrong["conservation"] = json!(c);
            }
        }
        if let Some(w) = &v.word_check {
            if !w.mismatches.is_empty() {
                wrong["word_mismatches"] = json!(w.mismatches);
            }
        }
        json!({ "inconsistent": wrong })
    };
    let mut tasks = serde_json::Map::new();
    for snap in &g.tasks {
        if let Some(info) = phys.tasks.get(snap.task as usize) {
            tasks.insert(info.name.clone(), state_json(phys, &snap.state));
        }
    }
    let mut channels = serde_json::Map::new();
    for c in 0..phys.channel_count() {
        let recorded: Vec<_> = g
            .channel_state
            .get(&c)
            .map_or(&[][..], |v| &v[..])
            .iter()
            .map(item)
            .collect();
        channels.insert(channel_key(phys, c), json!(recorded));
    }
    // The figures the inspector shows, as Flink names them: the checkpointed size includes
    // the persisted in-flight data (bytes).
    let metrics = g.tasks.iter().map(|t| &t.metrics);
    json!({
        "verdict": verdict,
        "checkpointed_size": metrics.clone().map(|m| m.checkpointed_size()).sum::<u64>(),
        "persisted_in_flight": metrics.map(|m| m.persisted_bytes()).sum::<u64>(),
        "subtasks": subtasks_json(phys, g),
        "global_state": { "tasks": tasks, "channels": channels },
    })
}

/// Each subtask's figures of a completed checkpoint, under Flink's REST names (a checkpoint's
/// `/subtasks` statistics): times in ticks, sizes in bytes. `persisted_data` is what the
/// subtask persisted as channel state: the records its barriers overtook in its input (in the
/// simulation a sender keeps no output buffer, so none is persisted by a sender);
/// `processed_data` is what it processed between its first and its last barrier.
pub fn subtasks_json(phys: &Physical, g: &GlobalState) -> serde_json::Value {
    let mut subtasks = serde_json::Map::new();
    for snap in &g.tasks {
        let Some(info) = phys.tasks.get(snap.task as usize) else {
            continue;
        };
        let m = &snap.metrics;
        subtasks.insert(
            info.name.clone(),
            json!({
                "start_delay": m.start_delay,
                "alignment_duration": m.alignment_duration,
                "sync_duration": m.sync_duration,
                "async_duration": m.async_duration,
                "checkpointed_size": m.checkpointed_size(),
                "persisted_data": m.persisted_bytes(),
                "processed_data": m.processed_bytes(),
                "unaligned_checkpoint": m.unaligned,
            }),
        );
    }
    serde_json::Value::Object(subtasks)
}

/// A task's state with words spelt out (keyed counts by word, not by word id).
fn state_json(phys: &Physical, state: &TaskState) -> serde_json::Value {
    match state {
        TaskState::Count { counts } => {
            let mut by_word = serde_json::Map::new();
            for (&w, &n) in counts {
                by_word.insert(word(phys, w).to_string(), json!(n));
            }
            json!({ "kind": "count", "counts": by_word })
        }
        other => json!(other),
    }
}

fn word(phys: &Physical, w: u32) -> &str {
    phys.words.get(w as usize).map_or("", String::as_str)
}

/// `from->to`, by subtask names.
fn channel_key(phys: &Physical, c: ChannelId) -> String {
    match phys.channels.get(c as usize) {
        Some(ch) => format!(
            "{}->{}",
            phys.tasks[ch.from as usize].name, phys.tasks[ch.to as usize].name
        ),
        None => format!("channel {c}"),
    }
}
