//! A subtask's input side: its barrier handler, what arrives, what the handler decides and how
//! the task carries that out.

use std::rc::Rc;

use super::barrier::{CheckpointId, Output};
use super::model::OperatorKind;
use super::operator;
use super::physical::{ChannelId, TaskId};
use super::queue::Due;
use super::record::{ItemKind, Record};
use super::sim::Simulation;
use super::task::bump;

use super::trace::{AbortReason, Event};

impl Simulation {
    pub(super) fn replay(&mut self, t: TaskId) {
        // The replayed item's channel: its occupancy changes (left the buffer, maybe held
        // again), which may give its sender credit back.
        let channel = self.tasks[t as usize]
            .handler
            .peek_replay()
            .and_then(|(input, _)| self.phys.tasks[t as usize].inputs.get(input as usize))
            .copied();
        let was_full = channel.is_some_and(|c| self.net.channels[c as usize].is_full());
        self.hand_to_handler(t, None);
        let task = &mut self.tasks[t as usize];
        if !task.handler.has_replay() {
            let parked = std::mem::take(&mut task.parked);
            for c in parked {
                self.schedule_channel(c);
            }
        }
        if let Some(c) = channel {
            self.refresh_credit(c, was_full);
        }
    }

    /// Gives one arriving item (or, with `None`, the next replayed one) to the task's
    /// barrier handler and carries out what the handler decides.
    pub(super) fn hand_to_handler(&mut self, t: TaskId, arriving: Option<(u32, ItemKind)>) {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let task = &mut self.tasks[t as usize];
        let item = match arriving {
            Some((input, kind)) => {
                match kind {
                    ItemKind::Barrier(n) if self.net.savepoints.contains(&n) => {
                        task.handler.receive_savepoint(input, n, &mut out)
                    }
                    _ => task.handler.receive(input, kind.to_input(), &mut out),
                }
                Some((input, kind))
            }
            None => {
                let next = task
                    .handler
                    .peek_replay()
                    .map(|(input, item)| (input, ItemKind::from_input(item)));
                task.handler.replay_one(&mut out);
                if let Some((input, kind)) = next {
                    let channel = self.phys.tasks[t as usize].inputs[input as usize];
                    if matches!(kind, ItemKind::Record(_)) {
                        self.net.buffered(channel, false);
                    }
                    let left = self.tasks[t as usize].handler.held_count();
                    self.events.push(Event::Replayed {
                        task: t,
                        channel,
                        item: kind,
                        left,
                    });
                }
                next
            }
        };
        for o in out.drain(..) {
            self.carry_out(t, o, item.map(|(_, kind)| kind));
        }
        out.clear();
        self.scratch = out;
        // A barrier of a checkpoint that has already gone on unaligned starts no alignment:
        // the task goes on unaligned for it at once, as Flink's handler does with a barrier
        // whose checkpoint started longer ago than the aligned-checkpoint timeout.
        if let Some(n) = self.tasks[t as usize].aligning() {
            if self.coordinator.timed_out(n) && self.alignment_may_time_out(t) {
                self.time_out_alignment(t, n);
            }
        }
        self.acknowledge_when_recorded(t);
        self.schedule_replay(t);
        self.end_loop_if_drained(t);
    }

    /// Aligned with a timeout: checkpoint `n` has run as long as the aligned-checkpoint
    /// timeout allows since its trigger, and goes on unaligned everywhere. Every task still
    /// aligning it snapshots now (its barrier overtakes its output queue), and every barrier of
    /// `n` still queued behind records on a channel overtakes them — those records become the
    /// checkpoint's channel state, as Flink persists the output buffers a timed-out barrier
    /// jumps over.
    pub(super) fn time_out_checkpoint(&mut self, n: CheckpointId) {
        if !self.coordinator.time_out(n) {
            return;
        }
        for t in 0..self.tasks.len() as TaskId {
            if self.tasks[t as usize].aligning() == Some(n) && self.alignment_may_time_out(t) {
                self.time_out_alignment(t, n);
            }
        }
        for c in 0..self.net.channels.len() as ChannelId {
            if self.net.policy(c).may_time_out {
                self.overtake_queued(c, n);
            }
        }
    }

    /// Whether task `t`'s alignment may time out: not where its inputs keep their barriers
    /// aligned (Flink's partitioner rule), nor where no timeout is set.
    fn alignment_may_time_out(&self, t: TaskId) -> bool {
        let inputs = &self.phys.tasks[t as usize].inputs;
        !inputs.is_empty() && inputs.iter().all(|&c| self.net.policy(c).may_time_out)
    }

    /// Aligned with a timeout: task `t` has aligned checkpoint `n` too long; it goes on unaligned
    /// for it.
    pub(super) fn time_out_alignment(&mut self, t: TaskId, n: CheckpointId) {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        self.events.push(Event::AlignmentTimedOut {
            task: t,
            checkpoint: n,
        });
        let task = &mut self.tasks[t as usize];
        task.handler.time_out_alignment(&mut out);
        for o in out.drain(..) {
            self.carry_out(t, o, None);
        }
        out.clear();
        self.scratch = out;
        self.acknowledge_when_recorded(t);
        self.schedule_replay(t);
    }

    /// The operator's work on one record ([`operator::apply`]) and what follows from it: a
    /// token holder plans when it passes the token on, the records it emits are routed and
    /// sent, and the task is busy for its processing time.
    fn process(
        &mut self,
        t: TaskId,
        channel: ChannelId,
        record: Record,
        early: Option<CheckpointId>,
    ) {
        let phys = Rc::clone(&self.phys);
        let op = phys.operator_of(t);
        let mut out = std::mem::take(&mut self.outbox);
        out.clear();
        let state = &mut self.tasks[t as usize].state;
        let token = operator::apply(
            &phys,
            &op.kind,
            state,
            record,
            &mut self.next_record,
            &mut out,
        );
        if let (true, OperatorKind::Token { hold, .. }) = (token, &op.kind) {
            // Kept for a while: `hold` on average, from half to one and a half of it.
            let at = self
                .clock
                .now
                .saturating_add(hold / 2)
                .saturating_add(self.clock.rng.below(hold + 1));
            self.tasks[t as usize].act_at = at;
            self.schedule(at, Due::Emit(t));
        }
        // Told before what it sends is taken: a chained operator takes it at once.
        self.events.push(Event::Processed {
            task: t,
            channel,
            record,
            emitted: out.len() as u32,
            early,
        });
        for &(r, edges) in &out {
            self.send_record_on(t, r, edges);
        }
        out.clear();
        self.outbox = out;
        let task = &mut self.tasks[t as usize];
        task.busy_until = task
            .busy_until
            .max(self.clock.now)
            .saturating_add(op.processing_time);
    }

    /// Carries out one decision of the handler about `item` (what arrived or was replayed).
    pub(super) fn carry_out(&mut self, t: TaskId, output: Output<Record>, item: Option<ItemKind>) {
        let channel_of = |ch: u32| self.phys.tasks[t as usize].inputs[ch as usize];
        match output {
            Output::Record { ch, record } => {
                let channel = channel_of(ch);
                let task = &mut self.tasks[t as usize];
                if let Some(n) = task.handler.current_checkpoint() {
                    // Between the first and the last barrier: Flink's processed data.
                    bump(&mut task.books.processed, n);
                }
                let early = self.tasks[t as usize].handler.early_on(ch);
                self.net.record_received(channel);
                let sender = self.phys.channels[channel as usize].from;
                self.coordinator.observe(t, sender, channel, record);
                self.process(t, channel, record, early);
            }
            Output::Barrier {
                ch,
                id,
                take,
                have,
                need,
                unawaited,
                timed_out,
            } => {
                let channel = channel_of(ch);
                self.events.push(Event::Barrier {
                    task: t,
                    channel,
                    checkpoint: id,
                    take,
                    have,
                    unawaited,
                    need,
                    kept_aligned: self.net.policy(channel).kept_aligned,
                    timed_out,
                    // Where barriers overtake, a savepoint's are taken aligned all the same.
                    savepoint: self.net.policy(channel).priority
                        && self.net.savepoints.contains(&id),
                    back_edge: self.phys.channel_is_back_edge(channel),
                    chained: self.net.chains.is_chained(channel),
                });
            }
            Output::Held { ch, held } => {
                let channel = channel_of(ch);
                if matches!(item, Some(ItemKind::Record(_))) {
                    self.net.buffered(channel, true);
                }
                let kind = item.unwrap_or(ItemKind::EndOfPartition);
                self.events.push(Event::Held {
                    task: t,
                    channel,
                    item: kind,
                    held,
                });
                let task = &mut self.tasks[t as usize];
                if let (ItemKind::Record(_), Some(n)) = (kind, task.handler.current_checkpoint()) {
                    bump(&mut task.books.held_records, n);
                }
            }
            Output::Unblocked { to_replay } => {
                self.events.push(Event::Unblocked { task: t, to_replay });
            }
            Output::Triggered(n) => self.snapshot_task(t, n),
            Output::Aborted(n) => {
                self.events.push(Event::TaskAborted {
                    task: t,
                    checkpoint: n,
                });
                self.forget(t, n);
                let task = &mut self.tasks[t as usize];
                task.books.awaiting_ack.retain(|(id, _)| *id != n);
                self.broadcast(t, ItemKind::Cancel(n));
                if self
                    .coordinator
                    .abort(n, AbortReason::Declined { task: t }, self.clock.now)
                {
                    self.events.push(Event::CheckpointAborted {
                        checkpoint: n,
                        reason: AbortReason::Declined { task: t },
                    });
                    self.notify_aborted(n);
                    self.after_checkpoint_end();
                }
            }
            Output::EndOfData(ch) => {
                let channel = self.phys.tasks[t as usize].inputs[ch as usize];
                self.events.push(Event::EndOfData { task: t, channel });
                if self.inputs_data_ended(t) && !self.has_loop(t) {
                    self.end_data(t);
                }
            }
            Output::EndOfPartition(ch) => {
                let channel = self.phys.tasks[t as usize].inputs[ch as usize];
                self.events.push(Event::PartitionEnded { task: t, channel });
                self.finish_if_ready(t);
            }
            Output::ChannelState {
                checkpoint,
                ch,
                record,
            } => {
                if self.coordinator.deadline(checkpoint).is_none() {
                    // The checkpoint was aborted: the task stopped writing its channel state
                    // when it was told (Flink aborts its channel state writer).
                    return;
                }
                let channel = self.phys.tasks[t as usize].inputs[ch as usize];
                self.events.push(Event::ChannelState {
                    task: t,
                    checkpoint,
                    channel,
                    record,
                    back_edge: self.phys.channel_is_back_edge(channel),
                });
                bump(&mut self.tasks[t as usize].books.persisted, checkpoint);
                self.coordinator
                    .record_channel_state(checkpoint, channel, record);
            }
        }
    }
}
