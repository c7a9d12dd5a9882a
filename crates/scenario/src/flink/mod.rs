//! Importing what a Flink cluster says about a job: its plan becomes a scenario, its
//! checkpoint statistics a history in Flink's vocabulary.
//!
//! One entry point, [`import_flink_json`], takes any of the JSON documents a student can copy
//! from a cluster's REST API (or the export bundle `abs-sim` writes) and says which it was:
//!
//! - `GET /jobs/<id>/plan` (`{"plan": {"jid", "name", "nodes": […]}}`, or the inner plan, or
//!   the job details `GET /jobs/<id>`, which holds the same plan) — a [`PlanImport`]: a
//!   scenario that plays like any other, with [`PlanNotice`]s naming what the plan did not say
//!   and what was guessed or approximated ([`plan`]);
//! - `GET /jobs/<id>/checkpoints` (its `history`) or one checkpoint's
//!   `GET /jobs/<id>/checkpoints/details/<cid>` — a [`CheckpointHistory`] ([`history`]);
//! - the export bundle (`{"flink_version", "plan", "checkpoints", "exceptions", "final"}`) —
//!   both, joined: the history's tasks named as the scenario's operators, plus the job's final
//!   word counts ([`Bundle`]);
//! - one vertex's subtasks in one checkpoint (`…/details/<cid>/subtasks/<vertex id>`), the
//!   checkpoint configuration (`GET /jobs/<id>/checkpoints/config`), the job's exceptions
//!   (`GET /jobs/<id>/exceptions`), a vertex's subtask attempts
//!   (`GET /jobs/<id>/vertices/<vertex id>`) and the cluster's `GET /config`
//!   ([`documents`]). A view builds a job up from several of these: histories merge
//!   ([`CheckpointHistory::merge`]), a vertex's subtasks join their checkpoint
//!   ([`CheckpointHistory::add_vertex`]), a configuration sets a scenario's
//!   ([`CheckpointConfig::apply`]).
//!
//! [`CheckpointHistory::from_simulation`] builds the same history from a run, so a run and a
//! real job read side by side. Everything here is pure (no IO) and never panics on input: a
//! document that is none of these, or has a field of the wrong type, is an [`ImportError`]
//! naming the field's path.

mod combine;
pub mod documents;
pub mod history;
mod json;
pub mod names;
mod notice;
pub mod plan;
mod settings;

use std::fmt;

pub use documents::{
    CheckpointConfig, JobException, SubtaskAttempt, VertexAttempts, VertexSubtasks,
};
pub use history::{
    CheckpointHistory, HistoryCheckpoint, HistorySource, HistoryStatus, Phase, SubtaskTiming,
    TaskAggregate,
};
pub use plan::{GuessReason, PlanImport, PlanNotice};

use super::read::{self, Json};
use super::ScenarioError;
use abs_engine::text::Quoted;
use json::{path_text, Obj, Path};

/// Documents larger than this are refused before parsing. A bundle holds per-subtask
/// statistics of every checkpoint in the history: ten checkpoints of a job with a few
/// hundred subtasks is a few megabytes.
pub const MAX_IMPORT_BYTES: usize = 16 << 20;

/// What a document turned out to be.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)]
pub enum FlinkImport {
    /// A job plan, as a scenario to run.
    Plan(PlanImport),
    /// A checkpoint history alone.
    History(CheckpointHistory),
    /// An export bundle: the history, the plan when the bundle has one, and the job's final
    /// word counts when it has them.
    Bundle(Bundle),
    /// One vertex's subtasks in one checkpoint (`…/details/<cid>/subtasks/<vertex id>`).
    Subtasks(VertexSubtasks),
    /// The job's checkpoint configuration (`/jobs/<id>/checkpoints/config`).
    Config(CheckpointConfig),
    /// The job's exceptions (`/jobs/<id>/exceptions`), newest first, at most
    /// [`documents::MAX_EXCEPTIONS`].
    Exceptions(Vec<JobException>),
    /// A vertex's subtasks and their attempts (`/jobs/<id>/vertices/<vertex id>`).
    Vertex(VertexAttempts),
    /// The cluster's configuration (`/config`): its Flink version.
    Cluster { version: String },
}

/// The REST responses [`import_flink_json`] reads, as `(what, where)`: what an
/// unrecognised document is told to paste instead (or an export bundle).
const DOCUMENTS: [(&str, &str); 8] = [
    ("a job's plan", "/jobs/<id>/plan"),
    ("its checkpoint list", "/jobs/<id>/checkpoints"),
    ("one checkpoint", "/jobs/<id>/checkpoints/details/<cid>"),
    (
        "one vertex's subtasks in it",
        "/jobs/<id>/checkpoints/details/<cid>/subtasks/<vertex id>",
    ),
    (
        "the checkpoint configuration",
        "/jobs/<id>/checkpoints/config",
    ),
    ("the job's exceptions", "/jobs/<id>/exceptions"),
    ("a vertex", "/jobs/<id>/vertices/<vertex id>"),
    ("the cluster's configuration", "/config"),
];

/// An export bundle, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    pub history: CheckpointHistory,
    pub plan: Option<PlanImport>,
    /// `final.counts`, sorted by word: what the real job counted, to hold against a run's.
    pub final_counts: Option<Vec<(String, u64)>>,
}

/// Why a document could not be imported. Every message is lower-case and names where the
/// problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// Over [`MAX_IMPORT_BYTES`].
    TooLarge { bytes: u64 },
    /// Not JSON at all.
    Syntax {
        line: u64,
        column: u64,
        message: String,
    },
    /// JSON, but not an object (`found` says what it is).
    NotAnObject { found: String },
    /// An object that is none of the documents this reads; `fields` are its first fields.
    Unrecognised { fields: Vec<String> },
    /// The playground's own scenario file (it has `graph`): the editor opens those.
    PlaygroundScenario,
    /// A field of the wrong type.
    WrongType {
        path: String,
        expected: &'static str,
        found: String,
    },
    /// A required field is absent.
    Missing { path: String, field: String },
    /// A checkpoint status Flink does not write.
    UnknownStatus { path: String, status: String },
    /// A number outside what makes sense there (a parallelism of 0).
    OutOfRange {
        path: String,
        value: u64,
        min: u64,
        max: u64,
    },
    /// More of something than is imported: `what` is counted in `path`.
    TooMany {
        path: String,
        what: &'static str,
        count: u64,
        max: u64,
    },
    /// A plan without nodes.
    NoNodes,
    /// Two nodes with one id.
    DuplicateNode { path: String, id: String },
    /// An input naming no node of the plan.
    UnknownInput { path: String, id: String },
    /// The plan's inputs go round: the nodes of the cycle, by name, the first one again last.
    Cycle { names: Vec<String> },
    /// A node of a streaming iteration (its head or tail).
    Iteration { path: String, name: String },
    /// The scenario built from the plan does not validate (a plan the caps let through but
    /// the engine refuses).
    Scenario(ScenarioError),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::TooLarge { bytes } => write!(
                f,
                "the text is {bytes} bytes; at most {MAX_IMPORT_BYTES} are imported"
            ),
            ImportError::Syntax {
                line,
                column,
                message,
            } => write!(
                f,
                "this is not JSON (line {line}, column {column}): {message}"
            ),
            ImportError::NotAnObject { found } => write!(
                f,
                "this JSON is {found}, not an object: expected a response of flink's REST API \
                 (a job plan, checkpoints, a vertex, exceptions or a configuration) or an \
                 export bundle"
            ),
            ImportError::Unrecognised { fields } => {
                write!(
                    f,
                    "this JSON is none of the documents the flink view reads: paste "
                )?;
                for (what, at) in DOCUMENTS {
                    write!(f, "{what} (`{at}`), ")?;
                }
                write!(f, "or the bundle `abs-sim flink run` writes")?;
                if fields.is_empty() {
                    write!(f, "; it is an empty object")
                } else {
                    write!(f, "; its fields are `{}`", fields.join("`, `"))
                }
            }
            ImportError::PlaygroundScenario => write!(
                f,
                "this JSON is a playground scenario (it has `graph`), not a flink document: \
                 open it in the scenario editor"
            ),
            ImportError::WrongType {
                path,
                expected,
                found,
            } => write!(f, "{path}: expected {expected}, found {found}"),
            ImportError::Missing { path, field } => {
                write!(f, "{path}: missing field `{field}`")
            }
            ImportError::UnknownStatus { path, status } => write!(
                f,
                "{path}: unknown checkpoint status {}; expected COMPLETED, FAILED or IN_PROGRESS",
                Quoted(status)
            ),
            ImportError::OutOfRange {
                path,
                value,
                min,
                max,
            } => write!(f, "{path}: {value} is not in {min} to {max}"),
            ImportError::TooMany {
                path,
                what,
                count,
                max,
            } => write!(f, "{path}: {count} {what}; at most {max} are imported"),
            ImportError::NoNodes => write!(f, "nodes: the plan has no nodes"),
            ImportError::DuplicateNode { path, id } => {
                write!(f, "{path}: a second node with id {}", Quoted(id))
            }
            ImportError::UnknownInput { path, id } => {
                write!(f, "{path}: no node of the plan has id {}", Quoted(id))
            }
            ImportError::Cycle { names } => {
                let quoted: Vec<String> = names.iter().map(|n| Quoted(n).to_string()).collect();
                write!(
                    f,
                    "the plan has a cycle ({}); cyclic jobs are not imported",
                    quoted.join(" → ")
                )
            }
            ImportError::Iteration { path, name } => write!(
                f,
                "{path}: {} is part of an iteration; iterations are not imported",
                Quoted(name)
            ),
            ImportError::Scenario(e) => write!(f, "the imported plan does not run: {e}"),
        }
    }
}

impl std::error::Error for ImportError {}

/// Reads a document copied from a Flink cluster (or an export bundle) and says what it was.
///
/// Which document it is, is decided by its top-level fields: `flink_version` or `checkpoints`
/// make a bundle; `nodes` a plan, as does `plan` (the `/plan` response and the job details
/// wrap it); `history` a checkpoint list; `tasks` with `trigger_timestamp` one checkpoint's
/// details. A scenario file of the playground's own (`graph`) is
/// [`ImportError::PlaygroundScenario`]. Then `subtasks` with `parallelism` is a vertex,
/// `subtasks` with `num_subtasks` or `num_acknowledged_subtasks` one vertex's subtasks in one
/// checkpoint; `mode` with `interval` the checkpoint configuration; `exceptionHistory`,
/// `root-exception` or `all-exceptions` the exceptions; `flink-version` the cluster's
/// configuration. Anything else is [`ImportError::Unrecognised`], listing the fields it has.
pub fn import_flink_json(text: &str) -> Result<FlinkImport, ImportError> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge {
            bytes: text.len() as u64,
        });
    }
    // A file saved by some editors starts with a byte-order mark, which JSON does not allow.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc = read::parse(text).map_err(|(line, column, message)| ImportError::Syntax {
        line,
        column,
        message,
    })?;
    let root = Path::Root;
    let Json::Obj { .. } = &doc.value else {
        return Err(ImportError::NotAnObject {
            found: json::found(&doc),
        });
    };
    let top = Obj::of(&doc, &root)?;
    if top.has("flink_version") || top.has("checkpoints") {
        return bundle(top).map(FlinkImport::Bundle);
    }
    if top.has("nodes") || top.has("plan") {
        return plan::import(top).map(FlinkImport::Plan);
    }
    if top.has("history") {
        return history::from_checkpoints(top, None, &[]).map(FlinkImport::History);
    }
    if top.has("tasks") && top.has("trigger_timestamp") {
        return history::from_details(top, None, &[]).map(FlinkImport::History);
    }
    if top.has("graph") {
        return Err(ImportError::PlaygroundScenario);
    }
    if top.has("subtasks") && top.has("parallelism") {
        return documents::vertex(top).map(FlinkImport::Vertex);
    }
    if top.has("subtasks") && (top.has("num_subtasks") || top.has("num_acknowledged_subtasks")) {
        return documents::subtasks(top).map(FlinkImport::Subtasks);
    }
    if top.has("mode") && top.has("interval") {
        return documents::config(top).map(FlinkImport::Config);
    }
    if top.has("exceptionHistory") || top.has("root-exception") || top.has("all-exceptions") {
        return documents::exceptions(top).map(FlinkImport::Exceptions);
    }
    if top.has("flink-version") {
        return documents::cluster_version(top).map(|version| FlinkImport::Cluster { version });
    }
    Err(ImportError::Unrecognised {
        fields: top.keys().take(8).map(str::to_string).collect(),
    })
}

/// The export bundle: `{"flink_version": "1.20.0", "plan": PLAN, "checkpoints": CHECKPOINTS,
/// "exceptions": …, "final": {"counts": {word: n}}}`, where PLAN is the `/plan` response (or
/// the plan inside it) and CHECKPOINTS the `/checkpoints` response with each completed
/// checkpoint's `/details` (see [`history::from_checkpoints`]). `exceptions` is not read.
fn bundle(top: Obj) -> Result<Bundle, ImportError> {
    let version = top.str("flink_version")?.map(str::to_string);
    let plan = match top.get("plan") {
        Some(node) => {
            let p = top.path.key("plan");
            Some(plan::import(Obj::of(node, &p)?)?)
        }
        None => None,
    };
    let vertices = plan.as_ref().map_or(&[][..], |p| &p.vertices[..]);
    let checkpoints = top.need("checkpoints")?;
    let p = top.path.key("checkpoints");
    let history = history::from_checkpoints(Obj::of(checkpoints, &p)?, version, vertices)?;
    let final_counts = match top.get("final") {
        Some(node) => {
            let p = top.path.key("final");
            let fin = Obj::of(node, &p)?;
            match fin.get("counts") {
                Some(counts) => {
                    let p = p.key("counts");
                    let counts = Obj::of(counts, &p)?;
                    let mut out = Vec::with_capacity(counts.fields.len());
                    for (_, word, n) in counts.fields {
                        let at = counts.path.key(word);
                        let value =
                            json::number_of(n, &at)?.ok_or_else(|| ImportError::WrongType {
                                path: path_text(&at),
                                expected: "a whole number ≥ 0",
                                found: json::found(n),
                            })?;
                        out.push((word.clone(), value));
                    }
                    out.sort();
                    Some(out)
                }
                None => None,
            }
        }
        None => None,
    };
    Ok(Bundle {
        history,
        plan,
        final_counts,
    })
}
