//! Partitionings: which output channel(s) of its edges a record goes to. A pure function of
//! the physical graph, the record and the sender's round-robin turns; the simulation sends.

use super::model::Partitioning;
use super::physical::Physical;
use super::record::{Payload, Record};
use super::vocab::{ChannelId, TaskId};

/// Appends to `out` the channels that record `r` of task `t` goes to, edge by edge in the
/// task's output order: on the back-edges only (`back == Some(true)`), on the other edges only
/// (`Some(false)`), or on every edge (`None`). `round_robin` holds the task's turn per output
/// edge (rebalance), advanced here.
pub(super) fn route(
    phys: &Physical,
    t: TaskId,
    r: &Record,
    back: Option<bool>,
    round_robin: &mut [u32],
    out: &mut Vec<ChannelId>,
) {
    let info = &phys.tasks[t as usize];
    for (e, group) in info.outputs.iter().enumerate() {
        let Some(&first) = group.first() else {
            continue;
        };
        let edge = phys.channels[first as usize].edge;
        if back.is_some_and(|b| b != phys.is_back_edge(edge)) {
            continue;
        }
        match phys.graph.edges[edge as usize].partitioning {
            Partitioning::Forward => out.push(first),
            // Rescale: round robin over the few receivers this sender is connected to.
            Partitioning::Rebalance | Partitioning::Rescale => {
                let Some(rr) = round_robin.get_mut(e) else {
                    continue;
                };
                out.push(group[*rr as usize % group.len()]);
                *rr = rr.wrapping_add(1);
            }
            Partitioning::Hash => {
                let hash = match r.payload {
                    Payload::Word(w)
                    | Payload::Count { word: w, .. }
                    | Payload::Round { word: w, .. } => {
                        phys.word_hash.get(w as usize).copied().unwrap_or(0)
                    }
                    Payload::Line(l) => l.wrapping_mul(0x9E37_79B9),
                    Payload::Token | Payload::Transfer { .. } => {
                        (r.id as u32).wrapping_mul(0x9E37_79B9)
                    }
                };
                out.push(group[hash as usize % group.len()]);
            }
            Partitioning::Broadcast => out.extend_from_slice(group),
        }
    }
}
