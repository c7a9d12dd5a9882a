//! What the page tells a student about an imported plan: every default taken, kind guessed,
//! chain collapsed and ship strategy approximated, as typed notices (the page words them in
//! each language; `Display` is the English, for the command line and tests).

use std::fmt;

use abs_engine::text::Quoted;
use abs_engine::Partitioning;

/// The filter a `Filter` vertex becomes keeps words of at least this many characters (the
/// plan's reader builds it; the notice says so).
pub(super) const FILTER_MIN_LEN: u32 = 2;

/// Something the page tells the student about an imported plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanNotice {
    /// What a plan does not say, and what the scenario takes instead.
    Defaults {
        /// Lines in each source's log.
        lines: u32,
        /// Ticks between two reads of a source subtask.
        interval: u64,
        /// Ticks on every channel.
        latency: u64,
        /// Aligned checkpoints every so many ticks.
        checkpoint_interval: u64,
    },
    /// An operator whose kind was guessed.
    Guessed {
        operator: String,
        /// Its kind, as [`OperatorKind::label`](abs_engine::OperatorKind::label) names it.
        kind: &'static str,
        reason: GuessReason,
    },
    /// A vertex of several chained operators runs as one operator (one task in Flink too).
    Chained {
        operator: String,
        parts: Vec<String>,
    },
    /// A ship strategy the model does not have runs as the nearest partitioning.
    Approximated {
        from: String,
        to: String,
        strategy: String,
        runs_as: Partitioning,
    },
    /// A parallelism above [`MAX_IMPORT_PARALLELISM`](super::plan::MAX_IMPORT_PARALLELISM).
    Parallelism {
        operator: String,
        flink: u64,
        runs_with: u32,
    },
    /// A vertex reading one upstream vertex twice: one edge here.
    MergedInputs { operator: String, from: String },
    /// Two vertices with the same name: the later one is renamed.
    Renamed { operator: String, was: String },
    /// A batch job's plan: it runs here as a streaming job, with checkpoints.
    Batch,
}

/// Why an operator got the kind it got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuessReason {
    /// A part of its description said so (the part).
    Description(String),
    /// It reads a `HASH` input (keyed state): it counts per key.
    KeyedInput,
    /// It counts (the part that says so), and the sink chained after it is not simulated:
    /// the counts are the job's result.
    SinkNotSimulated { keyed: String, sink: String },
    /// Nothing consumes it: it is where the job's output leaves.
    NoConsumer,
    /// It has several inputs and its description says nothing more: it merges them.
    SeveralInputs(u32),
    /// Its description says nothing the model has: it passes records on unchanged.
    Nothing,
}

impl fmt::Display for PlanNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanNotice::Defaults {
                lines,
                interval,
                latency,
                checkpoint_interval,
            } => write!(
                f,
                "a plan has no rates, latencies or keys: each source subtask reads one of \
                 {lines} sample lines every {interval} ms, every channel takes {latency} ms, \
                 records are keyed by word, and checkpoints are aligned, every \
                 {checkpoint_interval} ms"
            ),
            PlanNotice::Guessed {
                operator,
                kind,
                reason,
            } => {
                write!(f, "{} runs as a {kind}", Quoted(operator))?;
                if *kind == "filter" {
                    write!(f, " (keeping words of {FILTER_MIN_LEN} letters or more)")?;
                }
                match reason {
                    GuessReason::Description(part) => {
                        write!(f, ", guessed from {}", Quoted(part))
                    }
                    GuessReason::KeyedInput => {
                        write!(f, ", guessed from its hash-partitioned (keyed) input")
                    }
                    GuessReason::SinkNotSimulated { keyed, sink } => write!(
                        f,
                        ", guessed from {}; its chained {} is not simulated: \
                         the counts are the job's result",
                        Quoted(keyed),
                        Quoted(sink)
                    ),
                    GuessReason::NoConsumer => write!(f, ": nothing consumes its output"),
                    GuessReason::SeveralInputs(n) => write!(f, ": it merges its {n} inputs"),
                    GuessReason::Nothing => write!(
                        f,
                        ": nothing in its description says more, so it passes records on"
                    ),
                }
            }
            PlanNotice::Chained { operator, parts } => {
                let quoted: Vec<String> = parts.iter().map(|p| Quoted(p).to_string()).collect();
                write!(
                    f,
                    "{} chains {} operators ({}): one task in flink, one operator here",
                    Quoted(operator),
                    parts.len(),
                    quoted.join(", ")
                )
            }
            PlanNotice::Approximated {
                from,
                to,
                strategy,
                runs_as,
            } => write!(
                f,
                "edge {} → {}: ship strategy {} runs as {}",
                Quoted(from),
                Quoted(to),
                Quoted(strategy),
                partitioning_name(*runs_as)
            ),
            PlanNotice::Parallelism {
                operator,
                flink,
                runs_with,
            } => write!(
                f,
                "{} has parallelism {flink} in flink; it runs with {runs_with} subtasks here",
                Quoted(operator)
            ),
            PlanNotice::MergedInputs { operator, from } => write!(
                f,
                "{} reads {} more than once: one edge here",
                Quoted(operator),
                Quoted(from)
            ),
            PlanNotice::Renamed { operator, was } => write!(
                f,
                "two vertices are named {}: the later one is {} here",
                Quoted(was),
                Quoted(operator)
            ),
            PlanNotice::Batch => write!(
                f,
                "this is a batch job's plan: it runs here as a streaming job, with checkpoints"
            ),
        }
    }
}

/// A partitioning as the scenario format spells it.
pub fn partitioning_name(p: Partitioning) -> &'static str {
    p.as_str()
}
