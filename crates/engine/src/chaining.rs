//! Operator chaining, as Flink does it by default (`pipeline.operator-chaining.enabled`): an
//! operator whose only input is a forward edge from an operator of the same parallelism runs
//! in its sender's task, in the same thread. Between the two there is no channel — a record is
//! handed over by a method call, with no buffer, no latency and no credit — and no barrier:
//! the task snapshots every operator of its chain at once.
//!
//! The simulation keeps one subtask per operator (each with its own state, snapshot and name,
//! as Flink's web UI lists the chain's operators) and makes the chained channel synchronous:
//! what the sender sends is taken at once by the receiver, whose work lengthens the sender's
//! (one thread), and whose full outputs hold back the chain's head (its credit is the head's).

use super::model::Partitioning;
use super::physical::{ChannelId, Physical, TaskId};

/// Whether this build runs chains: natively always; in the page, only the builds that draw
/// them (feature `chaining`). Elsewhere a scenario with chaining runs unchained — the student's
/// builds never run one: they send it to the second player.
pub const BUILT: bool = cfg!(any(not(target_arch = "wasm32"), feature = "chaining"));

/// Which edges of `phys` Flink would chain, by edge index, whether or not chaining is on: a
/// forward, FIFO edge that is not a back-edge, into an operator with no other input, from an
/// operator of the same parallelism; neither end a process of Chandy-Lamport's systems (they
/// act on their own). (Flink's `StreamingJobGraphGenerator.isChainable`: one input edge, the
/// forward partitioner, equal parallelism, one slot sharing group, which every job here has,
/// and operators that allow it, which every operator here does.)
pub fn chainable_edges(phys: &Physical) -> Vec<bool> {
    let (ops, ends) = (&phys.graph.operators, &phys.operator_edges);
    phys.graph
        .edges
        .iter()
        .zip(ends)
        .enumerate()
        .map(|(i, (e, &(a, b)))| {
            let (up, down) = (&ops[a as usize], &ops[b as usize]);
            e.partitioning == Partitioning::Forward
                && e.fifo
                && !phys.is_back_edge(i as u32)
                && ends.iter().filter(|&&(_, to)| to == b).count() == 1
                && up.parallelism == down.parallelism
                && !up.kind.is_process()
                && !down.kind.is_process()
        })
        .collect()
}

/// The chains of one run: fixed once built, shared by every copy of the simulation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chains {
    /// By channel id: the channel joins two operators of one chain.
    pub chained: Vec<bool>,
    /// By task id: the first task of its chain (itself when it heads one, or is unchained).
    pub head: Vec<TaskId>,
}

impl Chains {
    /// The chains of `phys` with chaining on (`enabled`), or none.
    pub fn new(phys: &Physical, enabled: bool) -> Chains {
        if !(enabled && BUILT) {
            return Chains::default();
        }
        let edges = chainable_edges(phys);
        let chained: Vec<bool> = phys
            .channels
            .iter()
            .map(|c| edges.get(c.edge as usize).copied().unwrap_or(false))
            .collect();
        let mut head: Vec<TaskId> = (0..phys.tasks.len() as TaskId).collect();
        // A chained channel's receiver has no other input, and the layers grow along it:
        // in topological order each task's head is known before its receiver's.
        for &op in &phys.topo_order {
            for &t in &phys.operator_tasks[op as usize] {
                for &c in &phys.tasks[t as usize].inputs {
                    if chained[c as usize] {
                        let from = phys.channels[c as usize].from;
                        head[t as usize] = head[from as usize];
                    }
                }
            }
        }
        Chains { chained, head }
    }

    /// Whether channel `c` joins two operators of one chain.
    pub fn is_chained(&self, c: ChannelId) -> bool {
        BUILT && self.chained.get(c as usize).copied().unwrap_or(false)
    }

    /// Whether any channel is chained.
    pub fn any(&self) -> bool {
        BUILT && self.chained.iter().any(|&c| c)
    }

    /// The head of `t`'s chain: the task whose credit and thread it shares.
    pub fn head_of(&self, t: TaskId) -> TaskId {
        if !BUILT {
            return t;
        }
        self.head.get(t as usize).copied().unwrap_or(t)
    }

    /// The tasks of the chain `t` heads, `t` first (just `t` when it heads none).
    pub fn members(&self, t: TaskId) -> impl Iterator<Item = TaskId> + '_ {
        let others = if BUILT { self.head.len() } else { 0 };
        std::iter::once(t)
            .chain((0..others as TaskId).filter(move |&u| u != t && self.head[u as usize] == t))
    }
}
