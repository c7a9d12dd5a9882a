//! The textual trace of a run: what `abs-sim run` prints and the golden files hold.

use serde_json::json;

use super::coordinator::CheckpointStatus;
use super::sim::Simulation;

/// The trace of `steps` scheduled steps as JSON lines, then one summary line. The golden
/// trace tests compare exactly this text.
pub fn trace(sim: &mut Simulation, steps: u64) -> String {
    let mut out = String::new();
    for _ in 0..steps {
        let Some(action) = sim.step() else { break };
        let line = json!({
            "step": sim.steps(),
            "time": sim.now(),
            "action": action,
            "events": sim.last_events(),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out.push_str(&json!({ "summary": summary(sim) }).to_string());
    out.push('\n');
    out
}

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
    json!({ "steps": sim.steps(), "time": sim.now(), "checkpoints": checkpoints })
}
