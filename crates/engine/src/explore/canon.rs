//! A state of the simulation with everything that cannot change its future left out: the
//! search's notion of "the same state".
//!
//! The search leaves time out (every latency and processing time is zero, no checkpoint
//! times out, there is no pause between checkpoints), so the clock, arrival times, metrics
//! and the scheduler's plans tell nothing. What grows for ever while the same things happen
//! again — record ids, a channel's counters, the turn of a round robin — is written relative
//! to a base, so that the token going round the seed's system comes back to the same state:
//! the engine only ever compares ids with ids and counters with counters of the same channel,
//! never with a number from outside, so shifting them all alike changes nothing it decides.
//! Completed global states are left out too: the search checks each once, when it completes.

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;

use super::super::model::OperatorKind;
use super::super::record::{Item, ItemKind, Record};
use super::super::sim::Simulation;
use super::super::snapshot::{TaskMetrics, TaskSnapshot};
use super::super::vocab::{ChannelId, RecordId};

/// Feeds `Debug` output straight into a hasher, so a state is never written out whole.
struct HashWriter(DefaultHasher);

impl std::fmt::Write for HashWriter {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

/// How ids and counters are written: every record id by its rank among the ids the state
/// holds, a snapshot's cut (the next record id when it was taken) by how many of those ids
/// lie below it, and a channel's counters from the smallest count anything still holds of
/// it. The engine only compares ids with ids and with cuts, so these keep every answer.
struct Bases {
    ids: Vec<RecordId>,
    channel: Vec<u64>,
}

impl Bases {
    /// An id by its rank (from 1). 0 stays 0: a source record's parent.
    fn id(&self, id: RecordId) -> RecordId {
        if id == 0 {
            0
        } else {
            self.ids.partition_point(|&i| i < id) as RecordId + 1
        }
    }

    /// A cut by the ids below it; one not taken yet (0) as the largest number.
    fn cut(&self, cut: RecordId) -> RecordId {
        if cut == 0 {
            u64::MAX
        } else {
            self.ids.partition_point(|&i| i < cut) as RecordId
        }
    }

    fn record(&self, r: &mut Record) {
        r.id = self.id(r.id);
        r.parent = self.id(r.parent);
    }

    fn item(&self, i: &mut Item) {
        i.sent_at = 0;
        i.arrives_at = 0;
        if let ItemKind::Record(r) = &mut i.kind {
            self.record(r);
        }
    }

    fn count(&self, c: ChannelId, n: u64) -> u64 {
        n.saturating_sub(self.channel.get(c as usize).copied().unwrap_or(0))
    }
}

/// The ids a record carries.
fn ids_of(r: &Record, ids: &mut Vec<RecordId>) {
    ids.push(r.id);
    ids.push(r.parent);
}

impl Simulation {
    /// The channels a task snapshot's `received` (per input) and `sent` (per output channel,
    /// flattened) counters belong to.
    fn snapshot_counters(&self, s: &TaskSnapshot) -> Vec<(ChannelId, u64)> {
        let Some(info) = self.phys.tasks.get(s.task as usize) else {
            return Vec::new();
        };
        let inputs = info.inputs.iter().copied().zip(s.received.iter().copied());
        let outputs = info
            .outputs
            .iter()
            .flatten()
            .copied()
            .zip(s.sent.iter().copied());
        inputs.chain(outputs).collect()
    }

    fn snapshots_held(&self) -> impl Iterator<Item = &TaskSnapshot> {
        let pending = self
            .coordinator
            .pending
            .values()
            .flat_map(|p| p.snapshots.iter().flatten());
        let awaiting = self
            .tasks
            .iter()
            .flat_map(|t| t.books.awaiting_ack.iter().map(|(_, s)| s));
        pending.chain(awaiting)
    }

    fn bases(&self) -> Bases {
        let mut channel: Vec<u64> = self
            .net
            .channels
            .iter()
            .map(|c| c.records_received.min(c.records_sent))
            .collect();
        for s in self.snapshots_held() {
            for (c, n) in self.snapshot_counters(s) {
                if let Some(b) = channel.get_mut(c as usize) {
                    *b = (*b).min(n);
                }
            }
        }
        Bases {
            ids: Vec::new(),
            channel,
        }
    }

    fn normal_snapshot(&self, s: &TaskSnapshot, b: &Bases) -> TaskSnapshot {
        let mut s = s.clone();
        s.metrics = TaskMetrics::default();
        if let Some(info) = self.phys.tasks.get(s.task as usize) {
            for (n, &c) in s.received.iter_mut().zip(&info.inputs) {
                *n = b.count(c, *n);
            }
            for (n, &c) in s.sent.iter_mut().zip(info.outputs.iter().flatten()) {
                *n = b.count(c, *n);
            }
        }
        s
    }

    /// Whether the run draws random numbers that decide what happens (an account choosing an
    /// amount or a neighbour). When it does, the generator's state is part of the state.
    fn draws_matter(&self) -> bool {
        self.phys.tasks.iter().any(|t| {
            let op = &self.phys.graph.operators[t.operator as usize];
            matches!(op.kind, OperatorKind::Account { max_transfer, .. }
                if max_transfer > 1 || t.outputs.iter().flatten().count() > 1)
        })
    }

    /// A 64-bit hash of this state as the search sees it (see the module's text).
    pub(super) fn canonical_hash(&self) -> u64 {
        let mut h = HashWriter(DefaultHasher::new());
        self.write_canonical(&mut h);
        h.0.finish()
    }

    /// This state as the search sees it, written out (what [`Simulation::canonical_hash`]
    /// hashes).
    pub(super) fn write_canonical(&self, h: &mut impl std::fmt::Write) {
        let mut b = self.bases();
        let mut tasks = self.tasks.clone();
        let mut channels = self.net.channels.clone();
        let mut pending: Vec<_> = self
            .coordinator
            .pending
            .iter()
            .map(|(id, p)| (*id, p.clone()))
            .collect();
        // Every record id the state holds, then each by its rank.
        let mut ids = vec![self.next_record];
        for task in &mut tasks {
            task.handler.for_each_record(|r| ids_of(r, &mut ids));
        }
        for ch in &channels {
            for i in &ch.queue {
                if let ItemKind::Record(r) = &i.kind {
                    ids_of(r, &mut ids);
                }
            }
            ids.extend(ch.overtaken.iter().map(|(id, _)| *id));
        }
        for (_, p) in &pending {
            p.channel_state
                .iter()
                .for_each(|(_, r)| ids_of(r, &mut ids));
            p.crossings.iter().for_each(|x| ids_of(&x.record, &mut ids));
        }
        ids.retain(|&i| i != 0);
        ids.sort_unstable();
        ids.dedup();
        b.ids = ids;
        for (t, task) in tasks.iter_mut().enumerate() {
            task.busy_until = 0;
            task.act_at = 0;
            // The scheduler's plans: a manual step never reads them.
            task.replay_scheduled = false;
            task.wake_scheduled = false;
            task.parked.clear();
            task.waiting.clear();
            task.handler.for_each_record(|r| b.record(r));
            for (_, at) in &mut task.books.first_barrier {
                *at = 0;
            }
            for (_, s) in &mut task.books.awaiting_ack {
                *s = self.normal_snapshot(s, &b);
            }
            // A turn matters modulo the channels it turns over.
            let info = &self.phys.tasks[t];
            let process = self.phys.operator_of(t as u32).kind.is_process();
            let all = info.outputs.iter().flatten().count().max(1) as u32;
            for (e, turn) in task.round_robin.iter_mut().enumerate() {
                let over = if process {
                    all
                } else {
                    info.outputs.get(e).map_or(1, |o| o.len().max(1) as u32)
                };
                *turn %= over;
            }
            let _ = write!(h, "{task:?}");
        }
        for (c, ch) in channels.iter_mut().enumerate() {
            ch.queue.iter_mut().for_each(|i| b.item(i));
            ch.records_sent = b.count(c as ChannelId, ch.records_sent);
            ch.records_received = b.count(c as ChannelId, ch.records_received);
            for (id, _) in &mut ch.overtaken {
                *id = b.id(*id);
            }
            ch.generation = 0;
            ch.scheduled = false;
            let _ = write!(h, "{ch:?}");
        }
        let _ = write!(h, "{:?}", self.net.flow);
        for (id, p) in &mut pending {
            p.trigger_time = 0;
            for snap in p.snapshots.iter_mut().flatten() {
                *snap = self.normal_snapshot(snap, &b);
            }
            p.channel_state.iter_mut().for_each(|(_, r)| b.record(r));
            p.cuts.iter_mut().for_each(|c| *c = b.cut(*c));
            p.crossings.iter_mut().for_each(|x| b.record(&mut x.record));
            let _ = write!(h, "{id}{p:?}");
        }
        let co = &self.coordinator;
        let _ = write!(
            h,
            "{} {} {} {:?}",
            co.next_id,
            co.periodic_waiting > 0,
            co.failed_in_a_row,
            self.initiators
        );
        if co.manual_waiting > 0 {
            let _ = write!(h, " manual {}", co.manual_waiting);
        }
        let life = &self.life;
        let _ = write!(
            h,
            "{} {} {:?} {:?}",
            life.done,
            life.failing,
            life.down_until.is_some(),
            life.region
        );
        if self.draws_matter() {
            let _ = write!(h, "{:?}", self.clock.rng);
        }
    }
}
