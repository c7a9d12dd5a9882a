//! Checkpoint histories in Flink's vocabulary: a real job's, read from its REST statistics,
//! and a run's, read from the simulation, as the same plain data.
//!
//! Flink's web UI shows, per checkpoint, its status, trigger time, end-to-end duration,
//! checkpointed size and the in-flight data it persisted; per subtask the start delay (from
//! the trigger to the first barrier), the alignment, the synchronous and the asynchronous
//! part of the snapshot, and when it acknowledged. [`CheckpointHistory`] holds exactly these,
//! so one view draws both a job's and a run's, each subtask as bars on one time axis from the
//! checkpoint's trigger ([`SubtaskTiming::spans`]).

use super::json::{array_of, path_text, wrong_type, Obj};
use super::ImportError;
use crate::read::Json;
use abs_engine::coordinator::CheckpointStatus;
use abs_engine::trace::AbortReason;
use abs_engine::view::checkpoint_figures;
use abs_engine::Simulation;

/// Checkpoints read from one document, at most.
pub const MAX_HISTORY_CHECKPOINTS: usize = 1_000;
/// Subtask statistics read from one document, all checkpoints together, at most.
pub const MAX_HISTORY_SUBTASKS: usize = 262_144;

/// Where a history comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistorySource {
    /// A Flink job; the version when the document says it (an export bundle does).
    Flink { version: Option<String> },
    /// This playground's simulation: times are virtual ticks, shown as ms.
    Simulation,
}

/// A checkpoint's status, as Flink's REST API spells it (`COMPLETED`, `FAILED`,
/// `IN_PROGRESS`). A simulated checkpoint that was aborted (expired, subsumed, declined,
/// abandoned in a failover) is `Failed`, as Flink's statistics count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryStatus {
    Completed,
    Failed,
    InProgress,
}

/// A history, oldest checkpoint first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointHistory {
    pub source: HistorySource,
    pub checkpoints: Vec<HistoryCheckpoint>,
}

/// One checkpoint. Times are ms (Flink: since the epoch; a run: virtual ticks); sizes bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryCheckpoint {
    pub id: u64,
    pub status: HistoryStatus,
    pub savepoint: bool,
    pub trigger_ms: u64,
    /// From the trigger to the latest acknowledgement (for one in progress: so far).
    pub duration_ms: u64,
    /// Flink's checkpointed data size (before 1.15 the REST API called it `state_size`): state
    /// and persisted in-flight data.
    pub checkpointed_size: u64,
    /// In-flight data persisted as channel state (unaligned).
    pub persisted_bytes: u64,
    /// In-flight data processed during the alignment.
    pub processed_bytes: u64,
    /// Whether it was (or went) unaligned.
    pub unaligned: bool,
    pub acknowledged: u32,
    pub subtask_count: u32,
    /// Why it failed, when it did and that is known.
    pub failure: Option<String>,
    /// Per-subtask timings, when the document has them (a job's `/details` with subtask
    /// statistics; a run's retained global state), by task then index.
    pub subtasks: Vec<SubtaskTiming>,
    /// Per-vertex figures, when the document has them (a job's `/details`, whose `tasks` maps
    /// each vertex id to them), in the plan's order when it is known, else by vertex id;
    /// empty for a checkpoint list's entries and for a run.
    pub tasks: Vec<TaskAggregate>,
}

/// One vertex's part of a checkpoint, as a checkpoint's `/details` sums it up in its `tasks`
/// object. These figures are what tells which vertex a pasted `…/subtasks/<vertex id>`
/// response is about: that response does not say its vertex id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskAggregate {
    /// The vertex id.
    pub vertex: String,
    /// The plan's name for it, or `Vertex ` and the start of its id.
    pub name: String,
    /// `None` while no subtask has acknowledged (Flink's `-1`).
    pub latest_ack_ms: Option<u64>,
    pub checkpointed_size: u64,
    pub subtask_count: u32,
}

/// One subtask's part of a checkpoint, in ms from the checkpoint's trigger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtaskTiming {
    /// The vertex (operator) name, as the plan or the scenario names it.
    pub task: String,
    pub index: u32,
    /// Whether it acknowledged; the figures are 0 when it did not.
    pub acknowledged: bool,
    /// From the trigger to the first barrier reaching it.
    pub start_delay_ms: u64,
    /// From the first barrier to the last (aligned) or the snapshot.
    pub alignment_ms: u64,
    /// The synchronous part of the snapshot.
    pub sync_ms: u64,
    /// The asynchronous part, up to the acknowledgement.
    pub async_ms: u64,
    /// From the trigger to its acknowledgement (Flink's subtask end-to-end duration).
    pub ack_ms: u64,
    pub checkpointed_size: u64,
    pub persisted_bytes: u64,
    pub unaligned: bool,
}

/// A phase of a subtask's checkpoint, as a bar of [`SubtaskTiming::spans`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    StartDelay,
    Alignment,
    Sync,
    Async,
}

impl SubtaskTiming {
    /// The phases one after another from the trigger — start delay, alignment, sync, async —
    /// as `(phase, from_ms, to_ms)`, each ending by the acknowledgement (Flink measures them
    /// apart, so they need not add up to it exactly).
    pub fn spans(&self) -> [(Phase, u64, u64); 4] {
        let mut at = 0u64;
        let end = self.ack_ms.max(self.start_delay_ms);
        let mut span = |phase, len: u64| {
            let from = at.min(end);
            at = at.saturating_add(len);
            (phase, from, at.min(end).max(from))
        };
        [
            span(Phase::StartDelay, self.start_delay_ms),
            span(Phase::Alignment, self.alignment_ms),
            span(Phase::Sync, self.sync_ms),
            span(Phase::Async, self.async_ms),
        ]
    }
}

/// The name a vertex id has: the plan's, or the start of the id.
fn vertex_name(vid: &str, vertices: &[(String, String)]) -> String {
    match vertices.iter().find(|(id, _)| id == vid) {
        Some((_, name)) => name.clone(),
        None => format!("Vertex {}", vid.chars().take(8).collect::<String>()),
    }
}

/// Reads `GET /jobs/<id>/checkpoints` (`{"counts", "summary", "latest", "history": […]}`):
/// the `history` array, each entry a checkpoint. In an export bundle it may carry more:
/// `details`, each completed checkpoint's `GET …/checkpoints/details/<cid>` (an array, or an
/// object keyed by checkpoint id), with its own `subtasks` (vertex id → the response of
/// `GET …/details/<cid>/subtasks/<vertex id>`, as `abs-sim flink run` writes it) or with
/// that response's `subtasks` array inside its `tasks` entries; or `subtasks`, an object
/// keyed by checkpoint id, then by vertex id, holding those responses. `vertices` names the vertex ids.
pub(super) fn from_checkpoints(
    top: Obj,
    version: Option<String>,
    vertices: &[(String, String)],
) -> Result<CheckpointHistory, ImportError> {
    let hp = top.path.key("history");
    let items = array_of(top.need("history")?, &hp)?;
    if items.len() > MAX_HISTORY_CHECKPOINTS {
        return Err(ImportError::TooMany {
            path: path_text(&hp),
            what: "checkpoints",
            count: items.len() as u64,
            max: MAX_HISTORY_CHECKPOINTS as u64,
        });
    }
    let mut budget = MAX_HISTORY_SUBTASKS;
    let mut checkpoints = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let ip = hp.index(i);
        let o = Obj::of(item, &ip)?;
        let mut c = checkpoint(o, vertices, &mut budget)?;
        with_details(top, &mut c, vertices, &mut budget)?;
        checkpoints.push(c);
    }
    Ok(finish(checkpoints, version))
}

/// Reads one checkpoint's `GET /jobs/<id>/checkpoints/details/<cid>` as a history of one.
pub(super) fn from_details(
    top: Obj,
    version: Option<String>,
    vertices: &[(String, String)],
) -> Result<CheckpointHistory, ImportError> {
    let mut budget = MAX_HISTORY_SUBTASKS;
    let c = checkpoint(top, vertices, &mut budget)?;
    Ok(finish(vec![c], version))
}

fn finish(mut checkpoints: Vec<HistoryCheckpoint>, version: Option<String>) -> CheckpointHistory {
    // Flink lists the newest first; a run's coordinator the oldest first, as shown here.
    checkpoints.sort_by_key(|c| c.id);
    CheckpointHistory {
        source: HistorySource::Flink { version },
        checkpoints,
    }
}

/// A checkpoint's (or a vertex's part's) `status`: `COMPLETED`, `FAILED` or `IN_PROGRESS`.
pub(super) fn status_of(o: Obj) -> Result<HistoryStatus, ImportError> {
    let status_text = o.need_str("status")?;
    match status_text.to_ascii_uppercase().as_str() {
        "COMPLETED" => Ok(HistoryStatus::Completed),
        "FAILED" => Ok(HistoryStatus::Failed),
        "IN_PROGRESS" => Ok(HistoryStatus::InProgress),
        _ => Err(ImportError::UnknownStatus {
            path: path_text(&o.path.key("status")),
            status: status_text.to_string(),
        }),
    }
}

/// The checkpointed data size. Since 1.15 `checkpointed_size` is the checkpointed data size
/// and `state_size` the full state; before, `state_size` was the checkpointed data size.
pub(super) fn checkpointed_size_of(o: Obj) -> Result<u64, ImportError> {
    match o.num("checkpointed_size")? {
        Some(n) => Ok(n),
        None => o.figure("state_size"),
    }
}

/// One checkpoint's statistics (a `history` entry or a `/details` response), with the
/// subtasks its `tasks` hold.
fn checkpoint(
    o: Obj,
    vertices: &[(String, String)],
    budget: &mut usize,
) -> Result<HistoryCheckpoint, ImportError> {
    let id = o.need_num("id")?;
    let status = status_of(o)?;
    let checkpointed_size = checkpointed_size_of(o)?;
    let kind = o.str("checkpoint_type")?.unwrap_or("");
    let unaligned = kind.to_ascii_uppercase().contains("UNALIGNED")
        || o.bool("is_unaligned")?.unwrap_or(false)
        || o.bool("unaligned")?.unwrap_or(false);
    let mut c = HistoryCheckpoint {
        id,
        status,
        savepoint: o.bool("is_savepoint")?.unwrap_or(false) || kind.contains("SAVEPOINT"),
        trigger_ms: o.figure("trigger_timestamp")?,
        duration_ms: match o.num("end_to_end_duration")? {
            Some(d) => d,
            None => o.num("latest_ack_timestamp")?.map_or(0, |a| {
                a.saturating_sub(o.figure("trigger_timestamp").unwrap_or(0))
            }),
        },
        checkpointed_size,
        persisted_bytes: o.figure("persisted_data")?,
        processed_bytes: o.figure("processed_data")?,
        unaligned,
        acknowledged: small(o.figure("num_acknowledged_subtasks")?),
        subtask_count: small(o.figure("num_subtasks")?),
        failure: o.str("failure_message")?.map(str::to_string),
        subtasks: Vec::new(),
        tasks: Vec::new(),
    };
    if let Some(tasks) = o.get("tasks") {
        let tp = o.path.key("tasks");
        let tasks = Obj::of(tasks, &tp)?;
        c.tasks = aggregates(tasks, vertices)?;
        tasks_into(tasks, &[], &mut c, vertices, budget)?;
    }
    Ok(c)
}

pub(super) fn small(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The per-vertex figures of a `tasks` object (vertex id → task statistics).
fn aggregates(
    tasks: Obj,
    vertices: &[(String, String)],
) -> Result<Vec<TaskAggregate>, ImportError> {
    let mut out = Vec::with_capacity(tasks.fields.len());
    for (_, vid, node) in tasks.fields {
        let p = tasks.path.key(vid);
        let task = Obj::of(node, &p)?;
        out.push(TaskAggregate {
            vertex: vid.clone(),
            name: vertex_name(vid, vertices),
            latest_ack_ms: task.num("latest_ack_timestamp")?,
            checkpointed_size: checkpointed_size_of(task)?,
            subtask_count: small(task.figure("num_subtasks")?),
        });
    }
    // Flink writes them in no particular order: the plan's, else by id.
    out.sort_by_key(|t| {
        let at = vertices.iter().position(|(id, _)| *id == t.vertex);
        (at.unwrap_or(usize::MAX), t.vertex.clone())
    });
    Ok(out)
}

/// The subtasks of a `tasks` object (vertex id → task statistics), where they have any,
/// but for the vertices in `read` (their subtasks were read already).
fn tasks_into(
    tasks: Obj,
    read: &[String],
    c: &mut HistoryCheckpoint,
    vertices: &[(String, String)],
    budget: &mut usize,
) -> Result<(), ImportError> {
    for (_, vid, node) in tasks.fields {
        let p = tasks.path.key(vid);
        let task = Obj::of(node, &p)?;
        if task.has("subtasks") && !read.iter().any(|r| r == vid) {
            subtasks_into(task, vid, c, vertices, budget)?;
        }
    }
    Ok(())
}

/// A bundle's details and subtask statistics for checkpoint `c`, where it has them.
fn with_details(
    top: Obj,
    c: &mut HistoryCheckpoint,
    vertices: &[(String, String)],
    budget: &mut usize,
) -> Result<(), ImportError> {
    let id = c.id.to_string();
    if let Some(details) = top.get("details") {
        let dp = top.path.key("details");
        match &details.value {
            Json::Arr(items) => {
                for (i, item) in items.iter().enumerate() {
                    let p = dp.index(i);
                    let d = Obj::of(item, &p)?;
                    if d.num("id")? == Some(c.id) {
                        details_into(d, c, vertices, budget)?;
                    }
                }
            }
            Json::Obj { .. } => {
                if let Some(item) = Obj::of(details, &dp)?.get(&id) {
                    let p = dp.key(&id);
                    details_into(Obj::of(item, &p)?, c, vertices, budget)?;
                }
            }
            _ => return Err(wrong_type(details, &dp, "an array or an object")),
        }
    }
    if let Some(subtasks) = top.get("subtasks") {
        let sp = top.path.key("subtasks");
        if let Some(per_vertex) = Obj::of(subtasks, &sp)?.get(&id) {
            let cp = sp.key(&id);
            let per_vertex = Obj::of(per_vertex, &cp)?;
            for (_, vid, node) in per_vertex.fields {
                let p = cp.key(vid);
                subtasks_into(Obj::of(node, &p)?, vid, c, vertices, budget)?;
            }
        }
    }
    Ok(())
}

/// One checkpoint's `/details`: its subtasks, and its own type where the history entry
/// lacked it. The subtasks come from its `subtasks` (vertex id → the response of
/// `…/details/<cid>/subtasks/<vertex id>`, as `abs-sim flink run` writes them) or from its
/// `tasks` entries' own `subtasks` arrays.
fn details_into(
    d: Obj,
    c: &mut HistoryCheckpoint,
    vertices: &[(String, String)],
    budget: &mut usize,
) -> Result<(), ImportError> {
    let kind = d.str("checkpoint_type")?.unwrap_or("");
    c.unaligned |= kind.to_ascii_uppercase().contains("UNALIGNED");
    let mut read = Vec::new();
    if let Some(per_vertex) = d.get("subtasks") {
        let sp = d.path.key("subtasks");
        let per_vertex = Obj::of(per_vertex, &sp)?;
        for (_, vid, node) in per_vertex.fields {
            let p = sp.key(vid);
            subtasks_into(Obj::of(node, &p)?, vid, c, vertices, budget)?;
            read.push(vid.to_string());
        }
    }
    if let Some(tasks) = d.get("tasks") {
        let tp = d.path.key("tasks");
        let tasks = Obj::of(tasks, &tp)?;
        // A `/checkpoints` history entry has an empty `tasks`: the details' figures count.
        if c.tasks.is_empty() {
            c.tasks = aggregates(tasks, vertices)?;
        }
        tasks_into(tasks, &read, c, vertices, budget)?;
    }
    Ok(())
}

/// The `subtasks` array of a vertex's statistics (`GET …/subtasks/<vertex id>`).
fn subtasks_into(
    task: Obj,
    vid: &str,
    c: &mut HistoryCheckpoint,
    vertices: &[(String, String)],
    budget: &mut usize,
) -> Result<(), ImportError> {
    let name = vertex_name(vid, vertices);
    let sp = task.path.key("subtasks");
    let items = array_of(task.need("subtasks")?, &sp)?;
    if items.len() > *budget {
        return Err(ImportError::TooMany {
            path: path_text(&sp),
            what: "subtask statistics, with those before",
            count: (MAX_HISTORY_SUBTASKS - *budget + items.len()) as u64,
            max: MAX_HISTORY_SUBTASKS as u64,
        });
    }
    *budget -= items.len();
    // A vertex read twice (from the history entry and from a bundle's details) counts once.
    c.subtasks.retain(|s| s.task != name);
    for (i, item) in items.iter().enumerate() {
        let p = sp.index(i);
        c.subtasks
            .push(subtask(Obj::of(item, &p)?, &name, c.trigger_ms)?);
    }
    c.subtasks
        .sort_by_key(|s| (position(&s.task, vertices), s.task.clone(), s.index));
    Ok(())
}

fn position(task: &str, vertices: &[(String, String)]) -> usize {
    vertices
        .iter()
        .position(|(_, n)| n == task)
        .unwrap_or(usize::MAX)
}

/// One subtask's statistics: `{"index", "status": "completed", "ack_timestamp",
/// "end_to_end_duration", "checkpointed_size", "checkpoint": {"sync", "async"}, "alignment":
/// {"buffered", "processed", "persisted", "duration"}, "start_delay",
/// "unaligned_checkpoint"}`, or `{"index", "status": "pending_or_failed"}`.
pub(super) fn subtask(o: Obj, task: &str, trigger_ms: u64) -> Result<SubtaskTiming, ImportError> {
    let index = small(o.need_num("index")?);
    let acknowledged = o
        .str("status")?
        .is_none_or(|s| s.eq_ignore_ascii_case("completed"));
    let part = |key: &str, field: &str| -> Result<u64, ImportError> {
        match o.get(key) {
            Some(n) => {
                let p = o.path.key(key);
                Obj::of(n, &p)?.figure(field)
            }
            None => Ok(0),
        }
    };
    // The subtask endpoint writes the snapshot's parts under `checkpoint`; its summary (and
    // some exporters) under `checkpoint_duration`.
    let duration_key = if o.has("checkpoint") {
        "checkpoint"
    } else {
        "checkpoint_duration"
    };
    let ack_ms = match o.num("end_to_end_duration")? {
        Some(d) => d,
        None => o
            .num("ack_timestamp")?
            .map_or(0, |a| a.saturating_sub(trigger_ms)),
    };
    let checkpointed_size = match o.num("checkpointed_size")? {
        Some(n) => n,
        None => o.figure("state_size")?,
    };
    Ok(SubtaskTiming {
        task: task.to_string(),
        index,
        acknowledged,
        start_delay_ms: o.figure("start_delay")?,
        alignment_ms: part("alignment", "duration")?,
        sync_ms: part(duration_key, "sync")?,
        async_ms: part(duration_key, "async")?,
        ack_ms,
        checkpointed_size,
        persisted_bytes: part("alignment", "persisted")?,
        unaligned: o.bool("unaligned_checkpoint")?.unwrap_or(false),
    })
}

impl CheckpointHistory {
    /// The history of a run so far, from what the page shows of it: the coordinator's
    /// checkpoint list, and each retained global state's figures ([`checkpoint_figures`], the
    /// inspector's) and per-task metrics. A completed checkpoint no longer retained keeps its
    /// status, times, counts and sizes (the coordinator keeps them), but has no subtasks.
    pub fn from_simulation(sim: &Simulation) -> CheckpointHistory {
        let coord = sim.coordinator();
        let phys = sim.physical();
        let config = sim.config();
        let mode_persists = sim.mode().persists_in_flight();
        let checkpoints = coord
            .checkpoints()
            .iter()
            .map(|s| {
                let end = s.end_time.unwrap_or_else(|| sim.now());
                let duration_ms = end.saturating_sub(s.trigger_time);
                let (status, failure) = match s.status {
                    CheckpointStatus::Completed => (HistoryStatus::Completed, None),
                    CheckpointStatus::InProgress => (HistoryStatus::InProgress, None),
                    CheckpointStatus::Aborted { reason } => {
                        (HistoryStatus::Failed, Some(abort_text(sim, reason)))
                    }
                };
                let timed_out = config.aligned_checkpoint_timeout.is_some_and(|t| {
                    sim.mode().blocks_inputs()
                        && status != HistoryStatus::InProgress
                        && duration_ms > t
                }) || coord.timed_out(s.id);
                let mut c = HistoryCheckpoint {
                    id: s.id,
                    status,
                    savepoint: false,
                    trigger_ms: s.trigger_time,
                    duration_ms,
                    // Kept by the coordinator, also once its global state has gone.
                    checkpointed_size: s.checkpointed_size,
                    persisted_bytes: s.persisted_bytes,
                    processed_bytes: 0,
                    unaligned: if status == HistoryStatus::Completed {
                        s.persisted_bytes > 0
                    } else {
                        mode_persists || timed_out
                    },
                    acknowledged: s.acked,
                    subtask_count: s.total,
                    failure,
                    subtasks: Vec::new(),
                    tasks: Vec::new(),
                };
                if let Some(g) = coord.global_state(s.id) {
                    let f = checkpoint_figures(g);
                    c.checkpointed_size = f.checkpointed_size;
                    c.persisted_bytes = f.persisted_bytes;
                    // Retained, its subtasks say it as Flink's do: unaligned is what persisted
                    // in-flight data (Flink's checkpoint type is unaligned when any did).
                    c.unaligned = false;
                    for t in &g.tasks {
                        let Some(info) = phys.tasks.get(t.task as usize) else {
                            continue;
                        };
                        let m = &t.metrics;
                        let unaligned = m.unaligned;
                        c.unaligned |= unaligned;
                        c.subtasks.push(SubtaskTiming {
                            task: phys.operator_of(t.task).name.clone(),
                            index: info.subtask,
                            acknowledged: true,
                            start_delay_ms: m.start_delay,
                            alignment_ms: m.alignment_duration,
                            sync_ms: m.sync_duration,
                            async_ms: m.async_duration,
                            ack_ms: m.ack_time.saturating_sub(g.trigger_time),
                            checkpointed_size: m.checkpointed_size(),
                            persisted_bytes: m.persisted_bytes(),
                            unaligned,
                        });
                    }
                }
                c
            })
            .collect();
        CheckpointHistory {
            source: HistorySource::Simulation,
            checkpoints,
        }
    }
}

/// Why a simulated checkpoint was aborted, as Flink's failure message would say it.
fn abort_text(sim: &Simulation, reason: AbortReason) -> String {
    match reason {
        AbortReason::Subsumed => "subsumed by a newer checkpoint".into(),
        AbortReason::Expired => "expired before it completed".into(),
        AbortReason::Failover => "abandoned when the job failed over".into(),
        AbortReason::Declined { task } => {
            let name = sim
                .physical()
                .tasks
                .get(task as usize)
                .map_or("a subtask", |t| t.name.as_str());
            format!("declined by {name}")
        }
    }
}
