//! Channels and their delivery discipline: FIFO queues with a latency, from which the
//! receiving task takes the head once it has arrived and the task is free. The one exception
//! to FIFO is Flink's too: an unaligned barrier overtakes queued records.

use super::barrier::CheckpointId;
use super::channel::Hold;
use super::checkpoint::bump;
use super::flow::Relief;
use super::physical::{ChannelId, TaskId};
use super::queue::Due;
use super::record::{Item, ItemKind, Record};
use super::sim::Simulation;
use super::trace::Event;

pub use super::channel::Channel;

impl Simulation {
    pub(super) fn deliver(&mut self, c: ChannelId) {
        let was_full = self.channels[c as usize].is_full();
        let now = self.clock.now;
        let ch = &mut self.channels[c as usize];
        let Some((at, _)) = ch.next_delivery(now) else {
            return;
        };
        if at > 0 {
            self.overtake_on_arrival(c, at);
        }
        let ch = &mut self.channels[c as usize];
        let Some(item) = ch.queue.remove(at) else {
            return;
        };
        match item.kind {
            ItemKind::Record(r) => {
                ch.queued_records = ch.queued_records.saturating_sub(1);
                if ch.overtaken.first().is_some_and(|&(id, _)| id == r.id) {
                    ch.overtaken.remove(0);
                }
            }
            ItemKind::Barrier(n) => ch.overtaking.retain(|&id| id != n),
            _ => {}
        }
        let info = &self.phys.channels[c as usize];
        let (t, input) = (info.to, info.input_index);
        self.events.push(Event::Arrived {
            task: t,
            channel: c,
            item: item.kind,
        });
        if let ItemKind::Barrier(n) = item.kind {
            let task = &mut self.tasks[t as usize];
            if !task.first_barrier.iter().any(|&(id, _)| id == n) {
                task.first_barrier.push((n, self.clock.now));
            }
        }
        self.hand_to_handler(t, Some((input, item.kind)));
        self.schedule_channel(c);
        self.refresh_credit(c, was_full);
    }

    /// A priority barrier, `at` places behind the head of channel `c`, has arrived: it
    /// overtakes every record still queued ahead of it — sent before it, so before its
    /// sender's snapshot, and not yet taken by the receiver, which is about to snapshot or
    /// is recording this channel: the checkpoint's channel state, persisted by the receiver.
    fn overtake_on_arrival(&mut self, c: ChannelId, at: usize) {
        let ch = &mut self.channels[c as usize];
        let Some(ItemKind::Barrier(n)) = ch.queue.get(at).map(|i| i.kind) else {
            return;
        };
        let jumped: Vec<Record> = ch
            .queue
            .iter()
            .take(at)
            .filter_map(|i| match i.kind {
                ItemKind::Record(r) => Some(r),
                _ => None,
            })
            .collect();
        if jumped.is_empty() {
            return;
        }
        // Every record ahead is now channel state of `n`, the newest checkpoint; one an older
        // barrier overtook too belongs to both, and is marked with the newer.
        ch.overtaken.clear();
        ch.overtaken.extend(jumped.iter().map(|r| (r.id, n)));
        let to = self.phys.channels[c as usize].to;
        for r in &jumped {
            self.coordinator.record_channel_state(n, c, *r);
            bump(&mut self.tasks[to as usize].persisted, n);
        }
        self.events.push(Event::BarrierOvertook {
            channel: c,
            checkpoint: n,
            overtaken: jumped.len() as u64,
        });
    }

    pub(super) fn send(&mut self, c: ChannelId, kind: ItemKind) {
        let was_full = self.channels[c as usize].is_full();
        if !self.channels[c as usize].fifo {
            return self.send_unordered(c, kind, was_full);
        }
        let ch = &mut self.channels[c as usize];
        let arrives_at = ch
            .queue
            .back()
            .map_or(0, |i| i.arrives_at)
            .max(self.clock.now.saturating_add(ch.latency));
        if matches!(kind, ItemKind::Record(_)) {
            ch.records_sent += 1;
            ch.queued_records += 1;
        }
        ch.queue.push_back(Item {
            kind,
            sent_at: self.clock.now,
            arrives_at,
        });
        self.schedule_channel(c);
        self.refresh_credit(c, was_full);
    }

    /// A non-FIFO channel: the item takes a random 1 to 2 × latency and goes into the queue in
    /// arrival order (after items arriving at the same time), overtaking slower ones.
    fn send_unordered(&mut self, c: ChannelId, kind: ItemKind, was_full: bool) {
        let latency = self.channels[c as usize].latency;
        let delay = 1 + self.clock.rng.below(latency.saturating_mul(2).max(1));
        let arrives_at = self.clock.now.saturating_add(delay);
        let ch = &mut self.channels[c as usize];
        if matches!(kind, ItemKind::Record(_)) {
            ch.records_sent += 1;
            ch.queued_records += 1;
        }
        let at = ch.queue.partition_point(|i| i.arrives_at <= arrives_at);
        ch.queue.insert(
            at,
            Item {
                kind,
                sent_at: self.clock.now,
                arrives_at,
            },
        );
        if at == 0 {
            // A new head arrives sooner than the delivery planned for the old one.
            ch.generation = ch.generation.wrapping_add(1);
            ch.scheduled = false;
            let to = self.phys.channels[c as usize].to as usize;
            self.tasks[to].waiting.retain(|&w| w != c);
        }
        self.schedule_channel(c);
        self.refresh_credit(c, was_full);
    }

    /// Unaligned checkpoints: the barrier is a priority event. It crosses the channel in the
    /// channel's latency (and behind older priority barriers), but it does not wait for the
    /// items ahead of it: those the receiver has not taken when it arrives, it overtakes
    /// ([`Simulation::deliver`]), and they become the checkpoint's channel state. Until then the
    /// receiver goes on taking what has arrived.
    pub(super) fn send_overtaking(&mut self, c: ChannelId, n: CheckpointId) {
        let ch = &mut self.channels[c as usize];
        // Barriers keep their order: none arrives before one sent earlier.
        let after_previous = ch
            .queue
            .iter()
            .filter(|i| matches!(i.kind, ItemKind::Barrier(_)))
            .map(|i| i.arrives_at)
            .max()
            .unwrap_or(0);
        let arrives_at = self
            .clock
            .now
            .saturating_add(ch.latency)
            .max(after_previous);
        let behind = !ch.queue.is_empty();
        ch.queue.push_back(Item {
            kind: ItemKind::Barrier(n),
            sent_at: self.clock.now,
            arrives_at,
        });
        if behind {
            ch.overtaking.push(n);
        }
        self.reschedule(c);
    }

    /// Aligned with a timeout: barrier `n`, queued on channel `c` since before its checkpoint
    /// went on unaligned, becomes a priority event: when it arrives (it may have already) it
    /// overtakes the records still ahead of it, as Flink's timed-out barrier overtakes the
    /// output buffers it waited behind.
    pub(super) fn overtake_queued(&mut self, c: ChannelId, n: CheckpointId) {
        let ch = &mut self.channels[c as usize];
        let Some(at) = ch.queue.iter().position(|i| i.kind == ItemKind::Barrier(n)) else {
            return;
        };
        if at == 0 || ch.overtaking.contains(&n) {
            return;
        }
        ch.overtaking.push(n);
        self.reschedule(c);
    }

    /// The channel's next delivery may come sooner than the one planned: plan it afresh.
    fn reschedule(&mut self, c: ChannelId) {
        let ch = &mut self.channels[c as usize];
        ch.generation = ch.generation.wrapping_add(1);
        ch.scheduled = false;
        let to = self.phys.channels[c as usize].to as usize;
        self.tasks[to].waiting.retain(|&w| w != c);
        self.schedule_channel(c);
    }

    pub(super) fn schedule_channel(&mut self, c: ChannelId) {
        let ch = &self.channels[c as usize];
        if ch.scheduled || ch.paused {
            return;
        }
        let Some((_, next)) = ch.next_delivery(self.clock.now) else {
            return;
        };
        let to = self.phys.channels[c as usize].to as usize;
        let at = next.max(self.tasks[to].busy_until);
        let generation = ch.generation;
        self.channels[c as usize].scheduled = true;
        self.schedule(at, Due::Deliver(c, generation));
    }

    /// Credit-based flow control: after channel `c`'s occupancy changed, keeps its sender's
    /// count of full outputs right; when the last full output gets room, the sender resumes
    /// what it stalled (input deliveries, replays, source reads).
    pub(super) fn refresh_credit(&mut self, c: ChannelId, was_full: bool) {
        let now_full = self.channels[c as usize].is_full();
        if now_full == was_full {
            return;
        }
        let from = self.phys.channels[c as usize].from;
        if now_full {
            self.flow.output_filled(from);
            return;
        }
        let Some(Relief { stalled, emit }) = self.flow.output_freed(from) else {
            return;
        };
        self.events.push(Event::Relieved { task: from });
        for s in stalled {
            // A new plan: any wake planned for a priority barrier meanwhile is stale.
            let ch = &mut self.channels[s as usize];
            ch.generation = ch.generation.wrapping_add(1);
            ch.scheduled = false;
            self.schedule_channel(s);
        }
        self.schedule_replay(from);
        if emit {
            // A process's stalled act happens now instead of when it was planned.
            self.tasks[from as usize].act_at = self.clock.now;
            self.schedule(self.clock.now, Due::Emit(from));
        }
    }

    /// Whether the receiver of channel `c` may take its next item at time `at` although its
    /// outputs are full: a priority barrier that overtakes, and where barriers are priority
    /// events (unaligned) a barrier or cancellation marker at the head, are handled at once.
    pub(super) fn is_priority(&self, c: ChannelId, at: u64) -> bool {
        let ch = &self.channels[c as usize];
        match ch.next_delivery(at) {
            Some((i, _)) if i > 0 => true,
            Some((_, _)) => {
                let head = ch.queue.front().map(|i| i.kind);
                matches!(head, Some(ItemKind::Barrier(n)) if ch.overtaking.contains(&n))
                    || (self.config.mode.has_priority_barriers()
                        && matches!(head, Some(ItemKind::Barrier(_) | ItemKind::Cancel(_))))
            }
            None => false,
        }
    }

    /// **The** rule of delivery: why the head of channel `c` cannot be handed to its receiver
    /// now, or `None` when it can. The scheduler, [`Simulation::enabled_actions`] and the
    /// checks of a manual delivery all ask this, in this order: nothing to deliver, a paused
    /// channel, a receiver that must first replay its alignment buffer, a receiver without
    /// output credit (unless the head is a priority event, or the receiver is a process, which
    /// never sends because of what it receives).
    pub(super) fn delivery_hold(&self, c: ChannelId) -> Option<Hold> {
        self.delivery_hold_at(c, self.clock.now)
    }

    /// [`Simulation::delivery_hold`] for a delivery planned at time `at` (a priority barrier
    /// that has arrived by then goes first).
    pub(super) fn delivery_hold_at(&self, c: ChannelId, at: u64) -> Option<Hold> {
        let ch = &self.channels[c as usize];
        let to = self.phys.channels[c as usize].to;
        if ch.queue.is_empty() {
            Some(Hold::Empty)
        } else if ch.paused {
            Some(Hold::Paused)
        } else if self.tasks[to as usize].handler.has_replay() {
            Some(Hold::Replaying)
        } else if self.flow.has_full_output(to)
            && !self.is_priority(c, at)
            && !self.takes_input_when_full(to)
        {
            Some(Hold::Backpressured)
        } else {
            None
        }
    }

    /// Task `t` wanted to take input (or read its log) but an output channel is full: it is
    /// backpressured until that channel has room again.
    pub(super) fn stall(&mut self, t: TaskId) {
        if !self.flow.mark_backpressured(t) {
            return;
        }
        let phys = &self.phys;
        let full = phys.tasks[t as usize]
            .outputs
            .iter()
            .flatten()
            .copied()
            .find(|&c| self.channels[c as usize].is_full());
        if let Some(channel) = full {
            self.events.push(Event::Backpressured { task: t, channel });
        }
    }
}
