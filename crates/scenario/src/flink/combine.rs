//! A job's history built up from several documents pasted one after another: checkpoint
//! lists and details merged by checkpoint id, and one vertex's subtasks
//! (`…/details/<cid>/subtasks/<vertex id>`) put into their checkpoint, named by the vertex
//! whose figures they share.

use super::documents::VertexSubtasks;
use super::history::{
    CheckpointHistory, HistoryCheckpoint, HistorySource, SubtaskTiming, MAX_HISTORY_CHECKPOINTS,
};

/// How a vertex nobody could name is called: `Vertex ?1`, `Vertex ?2`, …
const UNKNOWN_VERTEX: &str = "Vertex ?";

impl CheckpointHistory {
    /// Adds a newer document's checkpoints: by id, the newer entry replaces the older one but
    /// keeps the older's subtasks and per-vertex figures where it has none (a checkpoint
    /// list's entries have neither; a checkpoint's details have its vertices' figures). The
    /// checkpoints stay sorted by id, the newest [`MAX_HISTORY_CHECKPOINTS`] of them. A Flink
    /// version the newer document says replaces one that was not known.
    pub fn merge(&mut self, newer: CheckpointHistory) {
        match (&mut self.source, newer.source) {
            (HistorySource::Flink { version }, HistorySource::Flink { version: new }) => {
                if new.is_some() {
                    *version = new;
                }
            }
            (source, new) => *source = new,
        }
        for mut c in newer.checkpoints {
            match self.checkpoints.iter_mut().find(|o| o.id == c.id) {
                Some(old) => {
                    if c.subtasks.is_empty() {
                        c.subtasks = std::mem::take(&mut old.subtasks);
                    }
                    if c.tasks.is_empty() {
                        c.tasks = std::mem::take(&mut old.tasks);
                    }
                    *old = c;
                }
                None => self.checkpoints.push(c),
            }
        }
        self.checkpoints.sort_by_key(|c| c.id);
        let over = self
            .checkpoints
            .len()
            .saturating_sub(MAX_HISTORY_CHECKPOINTS);
        self.checkpoints.drain(..over);
    }

    /// Puts one vertex's subtasks into checkpoint `v.checkpoint` and says the name they were
    /// given. The response does not say its vertex id: the vertex is the one of that
    /// checkpoint's per-vertex figures ([`HistoryCheckpoint::tasks`]) with the same latest
    /// acknowledgement, checkpointed size and number of subtasks (where several have them,
    /// the one already holding these very subtasks, else one holding none yet, else the
    /// first); without one it is `Vertex ?N`, N a number no other vertex of the history has
    /// (the same unknown vertex pasted twice is two).
    /// A vertex's subtasks already there are replaced. A checkpoint the history lacks is
    /// added with what `v` says of it (trigger time 0: the response does not say it).
    pub fn add_vertex(&mut self, v: VertexSubtasks) -> String {
        let at = match self.checkpoints.iter().position(|c| c.id == v.checkpoint) {
            Some(at) => at,
            None => {
                let at = self.checkpoints.partition_point(|c| c.id < v.checkpoint);
                self.checkpoints.insert(at, minimal(&v));
                at
            }
        };
        let name = self.name_of(&self.checkpoints[at], &v);
        let c = &mut self.checkpoints[at];
        let from = c
            .subtasks
            .iter()
            .position(|s| s.task == name)
            .unwrap_or(c.subtasks.len());
        c.subtasks.retain(|s| s.task != name);
        let from = from.min(c.subtasks.len());
        c.unaligned |= v.subtasks.iter().any(|s| s.unaligned);
        let named = v.subtasks.into_iter().map(|s| SubtaskTiming {
            task: name.clone(),
            ..s
        });
        c.subtasks.splice(from..from, named);
        name
    }

    /// The name `v`'s subtasks get in checkpoint `c` (see [`CheckpointHistory::add_vertex`]).
    fn name_of(&self, c: &HistoryCheckpoint, v: &VertexSubtasks) -> String {
        let same = |name: &str| {
            let held: Vec<&SubtaskTiming> = c.subtasks.iter().filter(|s| s.task == name).collect();
            held.len() == v.subtasks.len()
                && held.iter().zip(&v.subtasks).all(|(a, b)| {
                    SubtaskTiming {
                        task: String::new(),
                        ..(*a).clone()
                    } == *b
                })
        };
        let holds = |name: &str| c.subtasks.iter().any(|s| s.task == name);
        let matching: Vec<&str> = c
            .tasks
            .iter()
            .filter(|t| {
                (t.latest_ack_ms, t.checkpointed_size, t.subtask_count)
                    == (v.latest_ack_ms, v.checkpointed_size, v.subtask_count)
            })
            .map(|t| t.name.as_str())
            .collect();
        let chosen = matching
            .iter()
            .find(|n| same(n))
            .or_else(|| matching.iter().find(|n| !holds(n)))
            .or(matching.first());
        if let Some(name) = chosen {
            return name.to_string();
        }
        // Not even the same subtasks tell an unknown vertex pasted again from another: two
        // vertices of a chain-less pipeline often acknowledge alike. Each gets a new number.
        let taken: Vec<u64> = self
            .checkpoints
            .iter()
            .flat_map(|c| &c.subtasks)
            .filter_map(|s| s.task.strip_prefix(UNKNOWN_VERTEX)?.parse().ok())
            .collect();
        let n = (1..).find(|n| !taken.contains(n)).unwrap_or(1);
        format!("{UNKNOWN_VERTEX}{n}")
    }
}

/// A checkpoint the history lacks, from what one vertex's subtasks say of it.
fn minimal(v: &VertexSubtasks) -> HistoryCheckpoint {
    HistoryCheckpoint {
        id: v.checkpoint,
        status: v.status,
        savepoint: false,
        trigger_ms: 0,
        duration_ms: v.subtasks.iter().map(|s| s.ack_ms).max().unwrap_or(0),
        checkpointed_size: v.checkpointed_size,
        persisted_bytes: v.subtasks.iter().map(|s| s.persisted_bytes).sum(),
        processed_bytes: 0,
        unaligned: v.subtasks.iter().any(|s| s.unaligned),
        acknowledged: v.subtasks.iter().filter(|s| s.acknowledged).count() as u32,
        subtask_count: v.subtask_count,
        failure: None,
        subtasks: Vec::new(),
        tasks: Vec::new(),
    }
}
