//! Channels and their delivery discipline: FIFO queues with a latency, from which the
//! receiving task takes the head once it has arrived and the task is free. The one exception
//! to FIFO is Flink's too: an unaligned barrier overtakes queued records.

use super::barrier::CheckpointId;
use super::channel::Hold;
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
        let ch = &mut self.channels[c as usize];
        let Some(item) = ch.queue.pop_front() else {
            return;
        };
        if let ItemKind::Record(r) = item.kind {
            ch.queued_records = ch.queued_records.saturating_sub(1);
            if ch.overtaken.first().is_some_and(|&(id, _)| id == r.id) {
                ch.overtaken.remove(0);
            }
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

    /// Unaligned checkpoints: the barrier is a priority event. It overtakes every record
    /// queued on the channel — those records become this checkpoint's channel state — but not
    /// the priority events already ahead of them (older barriers, cancellation markers), so
    /// barriers keep their order.
    pub(super) fn send_overtaking(&mut self, c: ChannelId, n: CheckpointId) -> u64 {
        let was_full = self.channels[c as usize].is_full();
        let ch = &mut self.channels[c as usize];
        let at = ch
            .queue
            .iter()
            .position(|i| matches!(i.kind, ItemKind::Record(_)))
            .unwrap_or(ch.queue.len());
        let overtaken: Vec<Record> = ch
            .queue
            .iter()
            .skip(at)
            .filter_map(|i| match i.kind {
                ItemKind::Record(r) => Some(r),
                _ => None,
            })
            .collect();
        let after_previous = at
            .checked_sub(1)
            .and_then(|p| ch.queue.get(p))
            .map_or(0, |i| i.arrives_at);
        let arrives_at = ch
            .queue
            .get(at)
            .map_or(self.clock.now.saturating_add(ch.latency), |h| {
                h.arrives_at.min(self.clock.now.saturating_add(ch.latency))
            })
            .max(after_previous);
        // Drawn where the first record it jumped over is, just ahead of it: the barrier is at
        // the head of the channel, not behind what it overtook.
        let sent_at = ch.queue.get(at).map_or(self.clock.now, |head| head.sent_at);
        ch.queue.insert(
            at,
            Item {
                kind: ItemKind::Barrier(n),
                sent_at,
                arrives_at,
            },
        );
        ch.generation = ch.generation.wrapping_add(1);
        ch.scheduled = false;
        let to = self.phys.channels[c as usize].to as usize;
        self.tasks[to].waiting.retain(|&w| w != c);
        for r in &overtaken {
            self.coordinator.record_channel_state(n, c, *r);
        }
        // Records an older barrier already overtook keep that (older) checkpoint's mark; ids
        // grow along a channel, so the new ones are those past the last mark.
        let marks = &mut self.channels[c as usize].overtaken;
        let last = marks.last().map_or(0, |&(id, _)| id);
        marks.extend(overtaken.iter().filter(|r| r.id > last).map(|r| (r.id, n)));
        self.schedule_channel(c);
        self.refresh_credit(c, was_full);
        overtaken.len() as u64
    }

    pub(super) fn schedule_channel(&mut self, c: ChannelId) {
        let ch = &self.channels[c as usize];
        if ch.scheduled || ch.paused {
            return;
        }
        let Some(head) = ch.queue.front() else { return };
        let to = self.phys.channels[c as usize].to as usize;
        let at = head.arrives_at.max(self.tasks[to].busy_until);
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
            self.channels[s as usize].scheduled = false;
            self.schedule_channel(s);
        }
        self.schedule_replay(from);
        if emit {
            // A process's stalled act happens now instead of when it was planned.
            self.tasks[from as usize].act_at = self.clock.now;
            self.schedule(self.clock.now, Due::Emit(from));
        }
    }

    /// Whether the receiver of channel `c` may take its head although its outputs are full:
    /// where barriers are priority events (unaligned), barriers and cancellation markers are
    /// handled at once.
    pub(super) fn is_priority(&self, c: ChannelId) -> bool {
        self.config.mode.has_priority_barriers()
            && matches!(
                self.channels[c as usize].queue.front().map(|i| i.kind),
                Some(ItemKind::Barrier(_) | ItemKind::Cancel(_))
            )
    }

    /// **The** rule of delivery: why the head of channel `c` cannot be handed to its receiver
    /// now, or `None` when it can. The scheduler, [`Simulation::enabled_actions`] and the
    /// checks of a manual delivery all ask this, in this order: nothing to deliver, a paused
    /// channel, a receiver that must first replay its alignment buffer, a receiver without
    /// output credit (unless the head is a priority event, or the receiver is a process, which
    /// never sends because of what it receives).
    pub(super) fn delivery_hold(&self, c: ChannelId) -> Option<Hold> {
        let ch = &self.channels[c as usize];
        let to = self.phys.channels[c as usize].to;
        if ch.queue.is_empty() {
            Some(Hold::Empty)
        } else if ch.paused {
            Some(Hold::Paused)
        } else if self.tasks[to as usize].handler.has_replay() {
            Some(Hold::Replaying)
        } else if self.flow.has_full_output(to)
            && !self.is_priority(c)
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
