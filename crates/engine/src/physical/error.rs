//! Every way a job graph can be refused, each with its sentence.

use std::fmt;

use crate::text::Quoted;
use crate::vocab::{MAX_CHANNELS, MAX_LINES, MAX_TASKS};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GraphError {
    NoOperators,
    NoSource,
    EmptyName,
    DuplicateOperator(String),
    ZeroParallelism(String),
    UnknownOperator {
        edge: u32,
        name: String,
    },
    DuplicateEdge {
        from: String,
        to: String,
    },
    ForwardParallelism {
        from: String,
        to: String,
        from_p: u32,
        to_p: u32,
    },
    SourceHasInputs(String),
    NoInputs(String),
    UnionNeedsTwoInputs(String),
    SourceWithoutLines(String),
    ZeroInterval(String),
    Cycle(String),
    /// A process (token holder, account) with parallelism other than 1.
    ProcessParallelism(String),
    /// More than one process starts with the token.
    TwoTokens(String, String),
    /// A barrier mode that injects barriers at sources, on a graph without one.
    NoSourceForBarriers,
    /// A Chandy-Lamport initiator named in the config that is no subtask.
    UnknownInitiator(String),
    /// A Chandy-Lamport initiator from which a marker cannot reach every process.
    Unreachable {
        initiator: String,
        task: String,
    },
    /// An iteration step without an edge to itself, round which its words go: they would be
    /// dropped.
    IterateWithoutLoop(String),
    TooManyTasks(u64),
    TooManyChannels(u64),
    TooManyLines(usize),
    /// Unaligned checkpoints are on (the unaligned mode, or aligned with a timeout) and the
    /// config asks for `asked` checkpoints at once: Flink refuses to start such a job.
    ConcurrentUnaligned {
        asked: u32,
    },
}

/// Flink's reason for refusing unaligned checkpoints with more than one at once
/// (`CheckpointCoordinatorConfiguration`), quoted as Flink words it.
pub const FLINK_CONCURRENT_UNALIGNED: &str =
    "maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled";

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::NoOperators => write!(f, "the job graph has no operators"),
            GraphError::NoSource => write!(f, "the job graph has no source"),
            GraphError::EmptyName => write!(f, "an operator has an empty name"),
            GraphError::DuplicateOperator(n) => {
                write!(f, "two operators are named {}", Quoted(n))
            }
            GraphError::ZeroParallelism(n) => {
                write!(
                    f,
                    "operator {} has parallelism 0 (it needs at least 1)",
                    Quoted(n)
                )
            }
            GraphError::UnknownOperator { edge, name } => {
                write!(
                    f,
                    "edge {edge} names operator {}, which does not exist",
                    Quoted(name)
                )
            }
            GraphError::DuplicateEdge { from, to } => {
                write!(
                    f,
                    "there are two edges from {} to {}",
                    Quoted(from),
                    Quoted(to)
                )
            }
            GraphError::ForwardParallelism {
                from,
                to,
                from_p,
                to_p,
            } => write!(
                f,
                "the forward edge {} → {} joins parallelism {from_p} to {to_p}; \
                 forward needs equal parallelism (use rebalance or hash)",
                Quoted(from),
                Quoted(to)
            ),
            GraphError::SourceHasInputs(n) => {
                write!(f, "source {} cannot have inputs", Quoted(n))
            }
            GraphError::NoInputs(n) => {
                write!(f, "operator {} has no inputs", Quoted(n))
            }
            GraphError::UnionNeedsTwoInputs(n) => {
                write!(f, "union {} needs at least two input edges", Quoted(n))
            }
            GraphError::SourceWithoutLines(n) => {
                write!(f, "source {} has no lines to read", Quoted(n))
            }
            GraphError::ZeroInterval(n) => {
                write!(f, "source {} has interval 0", Quoted(n))
            }
            GraphError::Cycle(n) => write!(
                f,
                "the graph has a cycle through {}; at-least-once needs an acyclic graph \
                 (records in flight round the loop would be lost): run it aligned, unaligned \
                 or with chandy-lamport",
                Quoted(n)
            ),
            GraphError::ProcessParallelism(n) => {
                write!(f, "process {} must have parallelism 1", Quoted(n))
            }
            GraphError::TwoTokens(a, b) => write!(
                f,
                "processes {} and {} both start with the token; at most one may",
                Quoted(a),
                Quoted(b)
            ),
            GraphError::ConcurrentUnaligned { asked } => ConcurrentRefusal(*asked).fmt(f),
            GraphError::NoSourceForBarriers => write!(
                f,
                "the graph has no source to inject barriers at; run it with chandy-lamport, \
                 where a process initiates the snapshot"
            ),
            GraphError::UnknownInitiator(n) => {
                write!(
                    f,
                    "the initiator {} is not a subtask of the graph",
                    Quoted(n)
                )
            }
            GraphError::Unreachable { initiator, task } => write!(
                f,
                "a marker from {} can never reach {}, so its snapshot could \
                 never complete (Chandy-Lamport needs every process reachable from the initiator)",
                Quoted(initiator),
                Quoted(task)
            ),
            GraphError::IterateWithoutLoop(n) => write!(
                f,
                "iterate {} needs an edge from itself to itself (its feedback loop): its \
                 words go round it before they leave on its other outputs",
                Quoted(n)
            ),
            GraphError::TooManyTasks(n) => {
                write!(
                    f,
                    "the graph has {n} subtasks; at most {MAX_TASKS} are allowed"
                )
            }
            GraphError::TooManyChannels(n) => {
                write!(
                    f,
                    "the graph has {n} channels; at most {MAX_CHANNELS} are allowed"
                )
            }
            GraphError::TooManyLines(n) => {
                write!(
                    f,
                    "the sources have {n} lines; at most {MAX_LINES} are allowed"
                )
            }
        }
    }
}

impl std::error::Error for GraphError {}

/// Flink's refusal of concurrent unaligned checkpoints (`GraphError::ConcurrentUnaligned`),
/// worded alone: the student's builds word this one graph error and no other.
pub struct ConcurrentRefusal(pub u32);

impl fmt::Display for ConcurrentRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Flink refuses to start this job: max_concurrent_checkpoints is {}, but \
             with unaligned checkpoints on (the unaligned mode, or aligned with a timeout) \
             at most 1 may run at once (“{FLINK_CONCURRENT_UNALIGNED}”); set it to 1",
            self.0
        )
    }
}
