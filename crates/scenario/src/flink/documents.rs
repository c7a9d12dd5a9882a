//! The REST responses beyond a plan and checkpoint statistics that the Flink view reads, one
//! at a time as a student pastes them:
//!
//! - `GET /jobs/<id>/checkpoints/details/<cid>/subtasks/<vertex id>` — one vertex's subtasks
//!   in one checkpoint ([`VertexSubtasks`]; the response does not say its vertex id, so
//!   [`CheckpointHistory::add_vertex`](super::CheckpointHistory::add_vertex) names it by the checkpoint's per-vertex figures);
//! - `GET /jobs/<id>/checkpoints/config` — the job's checkpointing settings
//!   ([`CheckpointConfig`], which [`CheckpointConfig::apply`] sets on a scenario);
//! - `GET /jobs/<id>/exceptions` — the job's failures ([`JobException`]);
//! - `GET /jobs/<id>/vertices/<vertex id>` — a vertex's subtasks and their attempts
//!   ([`VertexAttempts`]);
//! - `GET /config` — the cluster's configuration, read for its Flink version.
//!
//! Each is recognised by its top-level fields (`import_flink_json`) and read as leniently as
//! the others: unknown fields are ignored, a wrong type is refused with its path.

use super::history::{self, HistoryStatus, SubtaskTiming, MAX_HISTORY_SUBTASKS};
use super::json::{array_of, number_of, path_text, wrong_type, Obj};
use super::ImportError;

/// Exceptions read from one `/exceptions` response, at most (the newest).
pub const MAX_EXCEPTIONS: usize = 1_000;
/// Subtasks of one vertex read, at most: Flink's highest parallelism.
pub const MAX_VERTEX_SUBTASKS: usize = 32_768;
/// Flink's `interval` when periodic checkpoints are off: `Long.MAX_VALUE`.
pub const INTERVAL_OFF: u64 = i64::MAX as u64;

/// What `ImportError::WrongType` expects of the checkpoint configuration's `mode`.
pub const MODE_EXPECTED: &str = "\"exactly_once\" or \"at_least_once\"";

/// One vertex's subtasks in one checkpoint: `GET …/checkpoints/details/<cid>/subtasks/<vertex
/// id>`. Its subtasks' `task` is empty: the response does not name its vertex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexSubtasks {
    pub checkpoint: u64,
    pub status: HistoryStatus,
    /// `None` while no subtask has acknowledged (Flink's `-1`).
    pub latest_ack_ms: Option<u64>,
    pub checkpointed_size: u64,
    pub subtask_count: u32,
    pub subtasks: Vec<SubtaskTiming>,
}

/// The job's checkpointing settings: `GET /jobs/<id>/checkpoints/config`. Times are ms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointConfig {
    /// `mode`: `exactly_once` (true) or `at_least_once`.
    pub exactly_once: bool,
    /// `None`: periodic checkpoints are off (Flink writes `Long.MAX_VALUE`).
    pub interval_ms: Option<u64>,
    pub timeout_ms: u64,
    pub min_pause_ms: u64,
    pub max_concurrent: u32,
    /// `unaligned_checkpoints`.
    pub unaligned: bool,
    /// `aligned_checkpoint_timeout`: 0 when checkpoints go unaligned at once.
    pub aligned_timeout_ms: u64,
    /// `tolerable_failed_checkpoints`, when the response has it.
    pub tolerable_failed: Option<u32>,
    /// `checkpoints_after_tasks_finish`, when the response has it.
    pub after_tasks_finish: Option<bool>,
}

/// One failure of the job, from `GET /jobs/<id>/exceptions`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobException {
    /// When it happened, ms since the epoch.
    pub time_ms: u64,
    /// The exception's class (`java.lang.RuntimeException`).
    pub name: String,
    /// The first line of its stack trace, without the class name when it starts with it.
    pub message: String,
    /// The subtask it happened in, as Flink names it (`Count (2/2) - execution #0`); `None`
    /// for a failure of the job as a whole.
    pub task: Option<String>,
}

/// A vertex and its subtasks' current attempts: `GET /jobs/<id>/vertices/<vertex id>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexAttempts {
    pub id: String,
    pub name: String,
    pub subtasks: Vec<SubtaskAttempt>,
}

/// One subtask of a vertex: which attempt runs (0 until its first restart) and its state
/// (`RUNNING`, `FINISHED`, …, as Flink spells it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtaskAttempt {
    pub index: u32,
    pub attempt: u32,
    pub status: String,
}

/// Reads `…/details/<cid>/subtasks/<vertex id>`: `{"id", "status", "latest_ack_timestamp",
/// "checkpointed_size", "end_to_end_duration", "num_subtasks", "subtasks": […], "summary"}`.
pub(super) fn subtasks(o: Obj) -> Result<VertexSubtasks, ImportError> {
    let checkpoint = o.need_num("id")?;
    let status = history::status_of(o)?;
    let latest_ack_ms = o.num("latest_ack_timestamp")?;
    // The response has no trigger time; its latest acknowledgement less its end-to-end
    // duration is one, for a subtask that says only when it acknowledged.
    let trigger_ms = match (latest_ack_ms, o.num("end_to_end_duration")?) {
        (Some(ack), Some(d)) => ack.saturating_sub(d),
        _ => 0,
    };
    let sp = o.path.key("subtasks");
    let items = array_of(o.need("subtasks")?, &sp)?;
    if items.len() > MAX_HISTORY_SUBTASKS {
        return Err(ImportError::TooMany {
            path: path_text(&sp),
            what: "subtask statistics",
            count: items.len() as u64,
            max: MAX_HISTORY_SUBTASKS as u64,
        });
    }
    let mut subtasks = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = sp.index(i);
        subtasks.push(history::subtask(Obj::of(item, &p)?, "", trigger_ms)?);
    }
    subtasks.sort_by_key(|s| s.index);
    Ok(VertexSubtasks {
        checkpoint,
        status,
        latest_ack_ms,
        checkpointed_size: history::checkpointed_size_of(o)?,
        subtask_count: history::small(o.figure("num_subtasks")?),
        subtasks,
    })
}

/// Reads `GET /jobs/<id>/checkpoints/config`: `{"mode", "interval", "timeout", "min_pause",
/// "max_concurrent", "unaligned_checkpoints", "aligned_checkpoint_timeout",
/// "tolerable_failed_checkpoints", "checkpoints_after_tasks_finish", …}`.
pub(super) fn config(o: Obj) -> Result<CheckpointConfig, ImportError> {
    let mode = o.need_str("mode")?;
    let exactly_once = match mode.to_ascii_lowercase().as_str() {
        "exactly_once" => true,
        "at_least_once" => false,
        _ => {
            return Err(wrong_type(
                o.need("mode")?,
                &o.path.key("mode"),
                MODE_EXPECTED,
            ))
        }
    };
    let ip = o.path.key("interval");
    let interval_ms = number_of(o.need("interval")?, &ip)?.filter(|&i| i < INTERVAL_OFF);
    Ok(CheckpointConfig {
        exactly_once,
        interval_ms,
        timeout_ms: o.need_num("timeout")?,
        min_pause_ms: o.figure("min_pause")?,
        max_concurrent: match o.num("max_concurrent")? {
            Some(n) => u32_at(o, "max_concurrent", n)?,
            None => 1,
        },
        unaligned: o.bool("unaligned_checkpoints")?.unwrap_or(false),
        aligned_timeout_ms: o.figure("aligned_checkpoint_timeout")?,
        tolerable_failed: match o.num("tolerable_failed_checkpoints")? {
            Some(n) => Some(u32_at(o, "tolerable_failed_checkpoints", n)?),
            None => None,
        },
        after_tasks_finish: o.bool("checkpoints_after_tasks_finish")?,
    })
}

fn u32_at(o: Obj, key: &str, n: u64) -> Result<u32, ImportError> {
    u32::try_from(n).map_err(|_| ImportError::OutOfRange {
        path: path_text(&o.path.key(key)),
        value: n,
        min: 0,
        max: u64::from(u32::MAX),
    })
}

/// Reads `GET /jobs/<id>/exceptions`, newest first as Flink lists them: Flink 2.x's
/// `{"exceptionHistory": {"entries": [{"exceptionName", "stacktrace", "timestamp",
/// "taskName", …}], "truncated"}}`, or 1.x's `{"root-exception", "timestamp",
/// "all-exceptions": [{"exception", "task", "timestamp", …}], "truncated"}` (1.13 to 1.x
/// write both: the history is read then).
pub(super) fn exceptions(o: Obj) -> Result<Vec<JobException>, ImportError> {
    let mut out = Vec::new();
    if let Some(h) = o.get("exceptionHistory") {
        let hp = o.path.key("exceptionHistory");
        let h = Obj::of(h, &hp)?;
        let ep = hp.key("entries");
        let entries = array_of(h.need("entries")?, &ep)?;
        for (i, item) in entries.iter().take(MAX_EXCEPTIONS).enumerate() {
            let p = ep.index(i);
            let e = Obj::of(item, &p)?;
            let name = e.need_str("exceptionName")?;
            out.push(JobException {
                time_ms: e.figure("timestamp")?,
                name: name.to_string(),
                message: first_line(e.str("stacktrace")?.unwrap_or(""), name),
                task: e.str("taskName")?.map(str::to_string),
            });
        }
        return Ok(out);
    }
    // Flink 1.x: the job's root cause, then the subtasks' own failures.
    if let Some(root) = o.str("root-exception")? {
        let (name, message) = split_trace(root);
        out.push(JobException {
            time_ms: o.figure("timestamp")?,
            name,
            message,
            task: None,
        });
    }
    if let Some(all) = o.get("all-exceptions") {
        let ap = o.path.key("all-exceptions");
        for (i, item) in array_of(all, &ap)?.iter().enumerate() {
            if out.len() >= MAX_EXCEPTIONS {
                break;
            }
            let p = ap.index(i);
            let e = Obj::of(item, &p)?;
            let trace = e.str("exception")?.unwrap_or("");
            if o.str("root-exception")? == Some(trace) {
                continue;
            }
            let (name, message) = split_trace(trace);
            out.push(JobException {
                time_ms: e.figure("timestamp")?,
                name,
                message,
                task: e.str("task")?.map(str::to_string),
            });
        }
    }
    Ok(out)
}

/// A stack trace's first line that says something.
fn head(trace: &str) -> &str {
    trace
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// The first line of `trace` without the class name `name` and its colon, where it starts
/// with them.
fn first_line(trace: &str, name: &str) -> String {
    let line = head(trace);
    match line.strip_prefix(name) {
        Some(rest) if rest.is_empty() || rest.starts_with(':') => {
            rest.trim_start_matches(':').trim().to_string()
        }
        _ => line.to_string(),
    }
}

/// A 1.x stack trace as a class name and a message: the first line up to its first `: `.
fn split_trace(trace: &str) -> (String, String) {
    let line = head(trace);
    match line.split_once(':') {
        Some((name, rest)) if !name.contains(' ') => (name.to_string(), rest.trim().to_string()),
        _ => (line.to_string(), String::new()),
    }
}

/// Reads `GET /jobs/<id>/vertices/<vertex id>`: `{"id", "name", "parallelism",
/// "subtasks": [{"subtask", "status", "attempt", …}], …}`.
pub(super) fn vertex(o: Obj) -> Result<VertexAttempts, ImportError> {
    let sp = o.path.key("subtasks");
    let items = array_of(o.need("subtasks")?, &sp)?;
    if items.len() > MAX_VERTEX_SUBTASKS {
        return Err(ImportError::TooMany {
            path: path_text(&sp),
            what: "subtasks",
            count: items.len() as u64,
            max: MAX_VERTEX_SUBTASKS as u64,
        });
    }
    let mut subtasks = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = sp.index(i);
        let s = Obj::of(item, &p)?;
        subtasks.push(SubtaskAttempt {
            index: history::small(s.need_num("subtask")?),
            attempt: history::small(s.figure("attempt")?),
            status: s.need_str("status")?.to_string(),
        });
    }
    Ok(VertexAttempts {
        id: o.need_str("id")?.to_string(),
        name: o.need_str("name")?.to_string(),
        subtasks,
    })
}

/// Reads the cluster's `GET /config`: its `flink-version`.
pub(super) fn cluster_version(o: Obj) -> Result<String, ImportError> {
    Ok(o.need_str("flink-version")?.to_string())
}
