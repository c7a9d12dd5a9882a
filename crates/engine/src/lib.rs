//! The simulation engine: Flink's asynchronous barrier snapshots on a simulated dataflow.
//!
//! Architecture invariants — every change must keep these true:
//!
//! - **Deterministic.** The same job graph, config, seed and sequence of chosen actions give
//!   a byte-identical trace, natively and in wasm. All randomness comes from one
//!   [`rng::SplitMix64`] owned by the simulation; nothing that orders events iterates a
//!   `HashMap`; everything serialised uses `u32`/`u64`, never `usize`.
//! - **Pure.** No IO, no wall clock, no OS randomness, no yew/web-sys/gloo. The page and the
//!   `abs-sim` command read plain data from here and call `step`/`apply`.
//! - **Never panics on input.** A bad job graph is a [`physical::GraphError`], a refused
//!   action an [`action::ActionError`]; nothing changes when either is returned.
//! - **Every step ends.** Whatever the numbers, `step` does a bounded amount of work: the last
//!   time there is ([`clock::NEVER`]) never comes, and timer ticks that change nothing are
//!   skipped (`scheduler`), the PRNG advanced as walking them would.
//! - **One set of barrier rules.** [`barrier::BarrierHandler`] is the only implementation of
//!   `docs/barrier-rules.md`; simulated tasks and `abs-sim gate` both drive it.
//!
//! Map: [`vocab`] (the shared words, a leaf) and [`model`] (job graph + coordinator config,
//! serde) → [`physical`] (subtasks, channels, graph structure) → [`sim`] (`apply`), a
//! dispatcher over parts that own their state — [`clock`] (time, steps, PRNG, time queue),
//! `network` (every channel — [`channel`] is one — with [`flow`], credit-based flow control,
//! the delivery discipline and the one rule of delivery), [`lifecycle`] (failures, restarts,
//! the end of the job), [`initiators`] (who starts a Chandy-Lamport snapshot),
//! [`coordinator`] and each task's [`barrier`] handler — with the behaviour one concern per
//! file: `scheduler` (`step`: the next due event to its handler), [`action`] (what may be
//! done, and the checks), `delivery` (the simulation's side of the network), `routing` (a pure
//! function: which channels a record goes to), `input` (a task's input side; [`task`] is one
//! task, with its checkpoint bookkeeping), `operator` (a pure function: what an operator emits
//! for a record), `acts` (a source's read, a process's act), `checkpoint` (the protocol),
//! [`recovery`] (failure, restart, restore);
//! [`snapshot`] (global states and the consistency checker); [`history`] adds step back /
//! seek / fork; [`trace`] holds the events, which carry the decisions made; [`view`] is what
//! the page reads.
//!
//! A new protocol is a name in `BarrierMode` and a line in the protocols' registry
//! (`barrier/protocol.rs`), with — if its tasks handle barriers in a new way — a per-task
//! core of its own (a file or folder implementing `barrier/task_protocol.rs`'s trait, one line
//! in `barrier/cores.rs`), or — if it coordinates in a new way, as stop-the-world does — a
//! folder of its own (`synchronous/`); and its words in each language. A new delivery
//! discipline is a change to `network.rs` alone (`Network::push`, `Channel::next_delivery`,
//! `Network::hold`).

pub mod action;
mod acts;
pub mod barrier;
pub mod chaining;
pub mod channel;
mod checkpoint;
pub mod clock;
pub mod coordinator;
pub mod debloat;
mod delivery;
pub mod explore;
mod finishing;
pub mod flow;
pub mod gate;
pub mod history;
pub mod initiators;
mod input;
pub mod lifecycle;
pub mod model;
pub mod modes;
mod names;
mod network;
mod operator;
pub mod physical;
mod queue;
pub mod record;
pub mod recovery;
pub mod report;
pub mod rng;
mod routing;
mod scheduler;
pub mod sim;
pub mod snapshot;
pub mod sorted_map;
mod synchronous;
pub mod task;
pub mod text;
pub mod trace;
pub mod view;
pub mod vocab;
mod world;

pub use barrier::{BarrierMode, CheckpointId};
pub use channel::Channel;
pub use history::History;
pub use model::{Config, Edge, JobGraph, Operator, OperatorKind, Partitioning};
pub use physical::{ChannelId, GraphError, Physical, TaskId};
pub use sim::Simulation;
pub use task::Task;
pub use trace::Event;
pub use vocab::{Action, ActionError};
