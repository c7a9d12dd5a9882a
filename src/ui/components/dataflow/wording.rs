//! What a subtask says of itself: its status badge and its state line (also the inspector's).

use crate::engine::snapshot::TaskState;
use crate::engine::view::TaskStatus;
use crate::engine::Simulation;
use crate::i18n::Strings;

/// What a subtask's status badge says.
pub fn status_text(s: &Strings, status: &TaskStatus) -> String {
    match status {
        TaskStatus::Running => s.status_running.to_string(),
        TaskStatus::Aligning { checkpoint, .. } => (s.status_aligning)(*checkpoint),
        TaskStatus::Tracking { checkpoint, .. } => (s.status_tracking)(*checkpoint),
        TaskStatus::Persisting { checkpoint, .. } => (s.status_persisting)(*checkpoint),
        TaskStatus::Snapshotting { checkpoint } => (s.status_snapshotting)(*checkpoint),
        TaskStatus::Replaying { held } => (s.status_replaying)(*held),
        TaskStatus::Ending => s.status_ending.to_string(),
        TaskStatus::Finished => s.status_finished.to_string(),
        TaskStatus::Backpressured => s.status_backpressured.to_string(),
        TaskStatus::Stopped { checkpoint } => (s.status_stopped)(*checkpoint),
        TaskStatus::Failed => s.status_failed.to_string(),
        TaskStatus::Cancelled => s.status_cancelled.to_string(),
    }
}

/// The state line under a subtask's badge: its state, and for a source replaying after a
/// recovery, up to where (↻).
pub(super) fn task_text(s: &Strings, sim: &Simulation, task: &crate::engine::task::Task) -> String {
    let text = state_text(s, sim, &task.state);
    match task.state {
        TaskState::Source { offset } if offset < task.replays_until() => {
            format!("{text} ↻ {}", task.replays_until())
        }
        _ => text,
    }
}

/// One line of a subtask's state.
pub fn state_text(s: &Strings, sim: &Simulation, state: &TaskState) -> String {
    match state {
        TaskState::Source { offset } => (s.state_offset)(*offset),
        TaskState::Stateless { processed } => (s.state_processed)(*processed),
        TaskState::Token { token } => (s.state_token)(*token),
        TaskState::Account { balance } => (s.state_balance)(*balance),
        TaskState::Count { counts } => {
            if counts.is_empty() {
                return (s.state_keys)(0);
            }
            // Most frequent first, ties by word id; `!n` sorts descending in the shared sort.
            let mut top: Vec<(u64, u64)> =
                counts.iter().map(|(&w, &n)| (!n, u64::from(w))).collect();
            top.sort_unstable();
            let mut line = String::new();
            for (n, w) in top {
                let part = format!("{}={}", sim.word(w as u32), !n);
                if !line.is_empty() && line.chars().count() + part.chars().count() > 18 {
                    line.push('…');
                    break;
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line += &part;
            }
            line
        }
        TaskState::Sink { received, .. } => (s.state_received)(*received),
    }
}
