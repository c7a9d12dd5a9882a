//! Scenarios: the serde file format, its validation with typed errors, and the presets.
//!
//! A scenario is a job graph plus coordinator settings, with a name, a title and the lesson
//! it teaches. Everything a user can type or paste enters the engine through here. Unknown
//! fields are refused (a misspelt setting would otherwise silently take its default), and so
//! are settings out of range ([`SettingError`]).

pub mod codec;
pub mod flink;
pub mod lesson;
pub mod modes;
pub mod path;
pub mod presets;
mod read;
pub use read::lesson::{lesson as read_lesson, MAX_LESSON_STEPS};
mod write;

use std::fmt;

use serde::{Deserialize, Serialize};

use abs_engine::model::SettingError;
use abs_engine::text::Quoted;
use abs_engine::{BarrierMode, Config, GraphError, JobGraph, Partitioning, Simulation};

/// The aligned-checkpoint timeout the page's "aligned, unaligned after T ms" entry uses when
/// the scenario sets none.
pub const ALIGNED_TIMEOUT: u64 = 40;

/// The spelling of that entry in the mode menu and in links (`?mode=aligned-timeout`).
pub const ALIGNED_TIMEOUT_MODE: &str = "aligned-timeout";

/// The spelling of aligned checkpoints with buffer debloating (the scenario's own target, or
/// the default) in the mode menu, in links and in comparisons.
pub const ALIGNED_DEBLOAT_MODE: &str = "aligned-debloat";

/// The barrier mode a mode menu entry, link or comparison names: a mode, or one of the two
/// variants of aligned (`aligned-timeout`, `aligned-debloat`).
pub fn mode_named(name: &str) -> Option<BarrierMode> {
    modes::RunMode::named(name).map(|r| r.mode)
}

/// Scenario files larger than this are refused before parsing.
pub const MAX_SCENARIO_BYTES: usize = 1 << 20;
/// The most channels of a job the page runs: twice `huge`'s. Its history keeps copies of the
/// simulation for stepping back (ten megabytes each at `huge`'s size), so past this the tab
/// would run out of memory; `abs-sim` runs jobs up to the engine's own limits.
pub const PAGE_MAX_CHANNELS: u64 = 1 << 18;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Stable id (URL, `abs-sim run --preset`).
    pub name: String,
    pub title: String,
    /// What a student should see.
    #[serde(default)]
    pub lesson: String,
    pub graph: JobGraph,
    #[serde(default)]
    pub config: Config,
    #[serde(default)]
    pub seed: u64,
    /// Failures to happen during the run: subtask `task` fails at virtual time `at`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<Failure>,
}

/// A planned failure: `{"task": "Count#1", "at": 120}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    /// A subtask's name, as the page shows it (`Count#1`; a process: `p`).
    pub task: String,
    /// Virtual time.
    pub at: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    TooLarge(usize),
    /// More channels than the page runs ([`PAGE_MAX_CHANNELS`]); `abs-sim` runs it. (The
    /// student's builds send every job of real size to the build that checks this.)
    #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
    TooLargeForPage(u64),
    /// Not valid scenario JSON: the parser's message, with line and column.
    Syntax {
        line: u64,
        column: u64,
        message: String,
    },
    Graph(GraphError),
    /// A setting out of range (a latency, the checkpoint interval).
    Setting(SettingError),
    UnknownPreset(String),
    /// A planned failure names no subtask of the graph.
    UnknownFailedTask {
        task: String,
        known: Vec<String>,
    },
}

/// The student's builds word only what they meet: a link's or the host page's scenario that
/// does not read (where, and where to see why: the scenario editor of the second build) and
/// Flink's refusal of concurrent unaligned checkpoints. Their page then carries no other
/// sentence of the graph's and settings' checks.
#[cfg(all(target_arch = "wasm32", not(feature = "all-presets")))]
impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Graph(GraphError::ConcurrentUnaligned { asked }) => {
                abs_engine::physical::ConcurrentRefusal(*asked).fmt(f)
            }
            ScenarioError::UnknownPreset(n) => write!(f, "there is no preset named {}", Quoted(n)),
            // Short: a notice shows 40 characters of it.
            ScenarioError::Syntax { line, column, .. } => {
                write!(f, "line {line}, column {column} (the editor says why)")
            }
            _ => write!(f, "not valid: the scenario editor says why"),
        }
    }
}

#[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::TooLarge(n) => write!(
                f,
                "the scenario is {n} bytes; at most {MAX_SCENARIO_BYTES} are accepted"
            ),
            #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
            ScenarioError::TooLargeForPage(n) => write!(
                f,
                "the job has {n} channels; the playground runs at most {PAGE_MAX_CHANNELS} \
                 (`abs-sim` runs up to {})",
                abs_engine::physical::MAX_CHANNELS
            ),
            ScenarioError::Syntax {
                line,
                column,
                message,
            } => write!(
                f,
                "the scenario is not valid (line {line}, column {column}): {message}"
            ),
            // A job Flink refuses is not a wrong graph: its sentence says why itself.
            ScenarioError::Graph(e @ GraphError::ConcurrentUnaligned { .. }) => write!(f, "{e}"),
            ScenarioError::Graph(e) => write!(f, "the job graph is not valid: {e}"),
            ScenarioError::Setting(e) => write!(f, "the scenario is not valid: {e}"),
            ScenarioError::UnknownFailedTask { task, known } => write!(
                f,
                "failures: there is no subtask named {} (subtasks: {})",
                Quoted(task),
                known.join(", ")
            ),
            ScenarioError::UnknownPreset(n) => write!(
                f,
                "there is no preset named {} (known: {})",
                Quoted(n),
                presets::NAMES.join(", ")
            ),
        }
    }
}

impl std::error::Error for ScenarioError {}

impl From<GraphError> for ScenarioError {
    fn from(e: GraphError) -> Self {
        ScenarioError::Graph(e)
    }
}

impl From<SettingError> for ScenarioError {
    fn from(e: SettingError) -> Self {
        ScenarioError::Setting(e)
    }
}

impl Scenario {
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        Scenario::from_json_within(text, |_| Ok(()))
    }

    /// [`Scenario::from_json`] for the page: a job larger than it runs
    /// ([`Scenario::fits_page`]) is refused before its simulation is built.
    #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
    pub fn from_json_for_page(text: &str) -> Result<Scenario, ScenarioError> {
        Scenario::from_json_within(text, Scenario::fits_page)
    }

    fn from_json_within(
        text: &str,
        fits: fn(&Scenario) -> Result<(), ScenarioError>,
    ) -> Result<Scenario, ScenarioError> {
        if text.len() > MAX_SCENARIO_BYTES {
            return Err(ScenarioError::TooLarge(text.len()));
        }
        let scenario = read::scenario(text)?;
        fits(&scenario)?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// How many channels the job has, counted from the graph before anything is built (an
    /// edge to an operator that does not exist counts none: building says what is wrong).
    pub fn channel_count(&self) -> u64 {
        let p = |name: &str| {
            self.graph
                .operators
                .iter()
                .find(|o| o.name == name)
                .map_or(0, |o| u64::from(o.parallelism))
        };
        self.graph
            .edges
            .iter()
            .map(|e| match e.partitioning {
                Partitioning::Forward => p(&e.from),
                _ => p(&e.from) * p(&e.to),
            })
            .sum()
    }

    /// Whether the page runs this job: [`PAGE_MAX_CHANNELS`] at most.
    #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
    pub fn fits_page(&self) -> Result<(), ScenarioError> {
        match self.channel_count() {
            n if n > PAGE_MAX_CHANNELS => Err(ScenarioError::TooLargeForPage(n)),
            _ => Ok(()),
        }
    }

    /// What [`Scenario::from_json`] checks after the syntax: settings in range (the engine
    /// would otherwise bend them, e.g. clamp a latency) and a job graph that builds.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.config.check_settings()?;
        self.graph.check_settings()?;
        self.simulation()?;
        Ok(())
    }

    /// The scenario as a file: JSON indented by two spaces, as serde_json writes it.
    pub fn to_json(&self) -> String {
        write::scenario(self, true)
    }

    /// The scenario as compact JSON (no spaces, one line): what a link carries.
    pub fn to_compact_json(&self) -> String {
        write::scenario(self, false)
    }

    /// The scenario with another barrier-handling mode, as the page's mode switch re-runs it.
    pub fn with_mode(&self, mode: BarrierMode) -> Scenario {
        let mut s = self.clone();
        s.config.mode = mode;
        s
    }

    /// The scenario aligned with a timeout (its own, or [`ALIGNED_TIMEOUT`]), or without one.
    pub fn with_aligned_timeout(&self, on: bool) -> Scenario {
        let mut s = self.with_mode(BarrierMode::Aligned);
        s.config.aligned_checkpoint_timeout = on.then(|| {
            self.config
                .aligned_checkpoint_timeout
                .unwrap_or(ALIGNED_TIMEOUT)
        });
        s
    }

    /// The scenario aligned with buffer debloating (its own target, or the default), or
    /// without it.
    pub fn with_debloat(&self, on: bool) -> Scenario {
        let mut s = self.with_aligned_timeout(false);
        s.config.buffer_debloat = on.then(|| {
            self.config
                .buffer_debloat
                .unwrap_or(abs_engine::debloat::BufferDebloat {
                    target: abs_engine::debloat::DEFAULT_DEBLOAT_TARGET,
                })
        });
        s
    }

    /// The barrier modes this scenario runs in: the ABS modes need sources (and, for now, an
    /// acyclic graph); Chandy-Lamport needs every process reachable from its initiators.
    pub fn modes(&self) -> Vec<BarrierMode> {
        abs_engine::sim::modes_for(&self.graph, &self.config)
    }

    /// The simulation of this scenario, its planned failures included.
    pub fn simulation(&self) -> Result<Simulation, ScenarioError> {
        let mut sim = Simulation::new(&self.graph, &self.config, self.seed)?;
        for f in &self.failures {
            let Some(t) = sim.physical().task_by_name(&f.task) else {
                return Err(ScenarioError::UnknownFailedTask {
                    task: f.task.clone(),
                    known: sim
                        .physical()
                        .tasks
                        .iter()
                        .map(|t| t.name.clone())
                        .collect(),
                });
            };
            sim.plan_failure(t, f.at);
        }
        Ok(sim)
    }
}
