//! The simulation's side of the network: a task's sends handed to the network (routed by
//! `routing.rs`), a taken item handed to its receiver's barrier handler, deliveries planned on
//! the clock, and what a sender resumes when credit comes back. The discipline and the rule
//! of delivery themselves are the network's (`network.rs`).

use std::rc::Rc;

use super::channel::Hold;
use super::flow::Relief;
use super::network::{Receiver, Taken};
use super::physical::{ChannelId, TaskId};
use super::record::{ItemKind, Record};
use super::routing::route;
use super::sim::Simulation;
use super::task::bump;
use super::trace::Event;
use super::vocab::{CheckpointId, Due};

impl Simulation {
    /// The receiver of channel `c` takes its next item now.
    pub(super) fn deliver(&mut self, c: ChannelId) {
        let was_full = self.net.channels[c as usize].is_full();
        let Some(Taken { kind, overtook }) = self.net.take(c, self.clock.now) else {
            return;
        };
        let t = self.phys.channels[c as usize].to;
        if let Some((n, jumped)) = overtook {
            for r in &jumped {
                self.coordinator.record_channel_state(n, c, *r);
                bump(&mut self.tasks[t as usize].books.persisted, n);
            }
            self.events.push(Event::BarrierOvertook {
                channel: c,
                checkpoint: n,
                overtaken: jumped.len() as u64,
            });
        }
        self.take_in(c, kind);
        self.schedule_channel(c);
        self.refresh_credit(c, was_full);
        super::synchronous::snapshot_when_drained(self);
    }

    /// Sends `kind` on channel `c`.
    pub(super) fn send(&mut self, c: ChannelId, kind: ItemKind) {
        if self.net.chains.is_chained(c) {
            self.hand_over(c, kind);
            return;
        }
        let was_full = self.net.channels[c as usize].is_full();
        if self.net.push(c, kind, self.clock.now, &mut self.clock.rng) {
            self.forget_waiting(c);
        }
        self.schedule_channel(c);
        self.refresh_credit(c, was_full);
    }

    /// Channel `c` joins two chained operators: what the sender sends, the receiver takes at
    /// once, in the same thread — no queue, no latency, no credit. Its work follows the
    /// sender's work so far, and the sender is busy until it is done (one thread).
    fn hand_over(&mut self, c: ChannelId, kind: ItemKind) {
        let info = &self.phys.channels[c as usize];
        let (from, t) = (info.from, info.to);
        if matches!(kind, ItemKind::Record(_)) {
            self.net.record_sent(c);
        }
        let start = self.tasks[from as usize].busy_until;
        let task = &mut self.tasks[t as usize];
        task.busy_until = task.busy_until.max(start);
        self.take_in(c, kind);
        let done = self.tasks[t as usize].busy_until;
        let sender = &mut self.tasks[from as usize];
        sender.busy_until = sender.busy_until.max(done);
    }

    /// The receiver of channel `c` takes `kind` (delivered, or handed over in a chain): it
    /// arrives, a barrier is noted for the statistics, and the barrier handler decides.
    fn take_in(&mut self, c: ChannelId, kind: ItemKind) {
        let info = &self.phys.channels[c as usize];
        let (t, input) = (info.to, info.input_index);
        self.events.push(Event::Arrived {
            task: t,
            channel: c,
            item: kind,
        });
        if let ItemKind::Barrier(n) = kind {
            self.tasks[t as usize]
                .books
                .barrier_arrived(n, self.clock.now);
        }
        self.hand_to_handler(t, Some((input, kind)));
    }

    /// Sends record `r` of task `t` on its output edges, as their partitionings route it.
    pub(super) fn send_record(&mut self, t: TaskId, r: Record) {
        self.send_record_on(t, r, None);
    }

    /// As [`Simulation::send_record`], on the back-edges only (`Some(true)`), on the other
    /// edges only (`Some(false)`), or on every edge (`None`).
    pub(super) fn send_record_on(&mut self, t: TaskId, r: Record, back: Option<bool>) {
        let mut targets = std::mem::take(&mut self.targets);
        targets.clear();
        let round_robin = &mut self.tasks[t as usize].round_robin;
        route(&self.phys, t, &r, back, round_robin, &mut targets);
        for &c in &targets {
            self.send(c, ItemKind::Record(r));
        }
        targets.clear();
        self.targets = targets;
    }

    /// Sends `kind` on every output channel of task `t`.
    pub(super) fn broadcast(&mut self, t: TaskId, kind: ItemKind) {
        let phys = Rc::clone(&self.phys);
        for &c in phys.tasks[t as usize].outputs.iter().flatten() {
            self.send(c, kind);
        }
    }

    /// Sends barrier `n` on channel `c` as a priority event (unaligned).
    pub(super) fn send_overtaking(&mut self, c: ChannelId, n: CheckpointId) {
        self.net.push_priority_barrier(c, n, self.clock.now);
        self.forget_waiting(c);
        self.schedule_channel(c);
    }

    /// Barrier `n`, already queued on channel `c`, becomes a priority event (aligned with a
    /// timeout, once its checkpoint went on unaligned).
    pub(super) fn overtake_queued(&mut self, c: ChannelId, n: CheckpointId) {
        if self.net.prioritise(c, n) {
            self.forget_waiting(c);
            self.schedule_channel(c);
        }
    }

    /// Channel `c`'s planned delivery is stale: its receiver no longer waits for it.
    fn forget_waiting(&mut self, c: ChannelId) {
        let to = self.phys.channels[c as usize].to as usize;
        self.tasks[to].waiting.retain(|&w| w != c);
    }

    /// Plans channel `c`'s next delivery on the clock, if it needs one.
    pub(super) fn schedule_channel(&mut self, c: ChannelId) {
        let to = self.phys.channels[c as usize].to as usize;
        let free_at = self.tasks[to].busy_until;
        if let Some((at, generation)) = self.net.plan_delivery(c, self.clock.now, free_at) {
            self.schedule(at, Due::Deliver(c, generation));
        }
    }

    /// After channel `c`'s occupancy changed: when its sender's last full output got room,
    /// the sender resumes what it stalled (input deliveries, replays, source reads).
    pub(super) fn refresh_credit(&mut self, c: ChannelId, was_full: bool) {
        // A chained operator's output is its chain's: the head holds the credit.
        let from = self.net.chains.head_of(self.phys.channels[c as usize].from);
        let Some(Relief { stalled, emit }) = self.net.refresh_credit(c, from, was_full) else {
            return;
        };
        self.events.push(Event::Relieved { task: from });
        for s in stalled {
            // A new plan: any wake planned for a priority barrier meanwhile is stale.
            self.net.channels[s as usize].drop_plan();
            self.schedule_channel(s);
        }
        self.schedule_replay(from);
        if emit {
            // A process's stalled act happens now instead of when it was planned.
            self.tasks[from as usize].act_at = self.clock.now;
            self.schedule(self.clock.now, Due::Emit(from));
        }
    }

    /// Why the head of channel `c` cannot be delivered now ([`Network::hold`], with what it
    /// needs to know of the receiver).
    ///
    /// [`Network::hold`]: super::network::Network::hold
    pub(super) fn delivery_hold(&self, c: ChannelId) -> Option<Hold> {
        self.delivery_hold_at(c, self.clock.now)
    }

    /// [`Simulation::delivery_hold`] for a delivery planned at time `at` (a priority barrier
    /// that has arrived by then goes first).
    pub(super) fn delivery_hold_at(&self, c: ChannelId, at: u64) -> Option<Hold> {
        let to = self.phys.channels[c as usize].to;
        let receiver = Receiver {
            task: to,
            replaying: self.tasks[to as usize].handler.has_replay(),
            takes_input_when_full: self.takes_input_when_full(to),
        };
        self.net.hold(c, at, receiver)
    }

    /// Task `t` wanted to take input (or read its log) but an output channel is full: it is
    /// backpressured until that channel has room again.
    pub(super) fn stall(&mut self, t: TaskId) {
        if let Some(channel) = self.net.backpressure(&self.phys, t) {
            self.events.push(Event::Backpressured { task: t, channel });
        }
    }
}
