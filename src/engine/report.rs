//! The textual trace of a run: what `abs-sim run` prints and the golden files hold.
//!
//! One JSON line per scheduled step, then one summary line. The writers stream: a line is
//! written as soon as its step has run, so a long run never holds its whole trace.

use std::io::{self, Write};

use serde_json::json;

use super::coordinator::CheckpointStatus;
use super::sim::Simulation;
use super::trace::Action;

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
    for _ in 0..steps {
        if !write_step(sim, out)? {
            break;
        }
    }
    write_summary(sim, out)
}

/// Runs one scheduled step and writes its line. `Ok(false)` when nothing was left to happen
/// (and nothing was written).
pub fn write_step<W: Write>(sim: &mut Simulation, out: &mut W) -> io::Result<bool> {
    let Some(action) = sim.step() else {
        return Ok(false);
    };
    write_step_line(sim, &action, out)?;
    Ok(true)
}

/// The line of the step that just ran `action`.
fn write_step_line<W: Write>(sim: &Simulation, action: &Action, out: &mut W) -> io::Result<()> {
    let line = json!({
        "step": sim.steps(),
        "time": sim.now(),
        "action": action,
        "events": sim.last_events(),
    });
    serde_json::to_writer(&mut *out, &line)?;
    out.write_all(b"\n")
}

/// The summary line: `{"summary": ...}`.
pub fn write_summary<W: Write>(sim: &Simulation, out: &mut W) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &json!({ "summary": summary(sim) }))?;
    out.write_all(b"\n")
}

/// Steps, time, whether the job has finished, and every checkpoint with its status and, once
/// completed, the consistency verdict of its global state.
pub fn summary(sim: &Simulation) -> serde_json::Value {
    let checkpoints: Vec<_> = sim
        .coordinator()
        .checkpoints()
        .iter()
        .map(|c| {
            let verdict = match c.status {
                CheckpointStatus::Completed => match sim.coordinator().global_state(c.id) {
                    Some(g) if g.verdict.ok() => json!("consistent"),
                    Some(g) => json!({
                        "inconsistent": { "duplicated": g.verdict.duplicated, "lost": g.verdict.lost }
                    }),
                    None => json!("not retained"),
                },
                _ => serde_json::Value::Null,
            };
            json!({ "id": c.id, "status": c.status, "acked": c.acked, "total": c.total, "verdict": verdict })
        })
        .collect();
    json!({
        "steps": sim.steps(),
        "time": sim.now(),
        "finished": sim.job_finished(),
        "checkpoints": checkpoints,
    })
}
