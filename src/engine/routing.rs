//! Partitionings: which output channel(s) of an edge a record goes to.

use std::rc::Rc;

use super::model::Partitioning;
use super::physical::TaskId;
use super::record::{ItemKind, Payload, Record};
use super::sim::Simulation;

impl Simulation {
    pub(super) fn send_record(&mut self, t: TaskId, r: Record) {
        self.send_record_on(t, r, None);
    }

    /// As [`Simulation::send_record`], on the back-edges only (`Some(true)`), on the other
    /// edges only (`Some(false)`), or on every edge (`None`).
    pub(super) fn send_record_on(&mut self, t: TaskId, r: Record, back: Option<bool>) {
        let phys = Rc::clone(&self.phys);
        let info = &phys.tasks[t as usize];
        for (e, group) in info.outputs.iter().enumerate() {
            if group.is_empty() {
                continue;
            }
            let edge = phys.channels[group[0] as usize].edge as usize;
            if back.is_some_and(|b| b != phys.is_back_edge(edge as u32)) {
                continue;
            }
            match phys.graph.edges[edge].partitioning {
                Partitioning::Forward => self.send(group[0], ItemKind::Record(r)),
                Partitioning::Rebalance => {
                    let rr = &mut self.tasks[t as usize].round_robin[e];
                    let c = group[*rr as usize % group.len()];
                    *rr = rr.wrapping_add(1);
                    self.send(c, ItemKind::Record(r));
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
                    self.send(group[hash as usize % group.len()], ItemKind::Record(r));
                }
                Partitioning::Broadcast => {
                    for &c in group {
                        self.send(c, ItemKind::Record(r));
                    }
                }
            }
        }
    }

    pub(super) fn broadcast(&mut self, t: TaskId, kind: ItemKind) {
        let phys = Rc::clone(&self.phys);
        for &c in phys.tasks[t as usize].outputs.iter().flatten() {
            self.send(c, kind);
        }
    }
}
