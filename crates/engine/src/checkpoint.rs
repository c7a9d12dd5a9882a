//! The checkpoint protocol on the simulation's side: trigger at the sources, snapshot a task
//! (step ③), acknowledge, complete (notify-complete, subsumption), expire, forget.

use std::rc::Rc;

use super::barrier::CheckpointId;
use super::initiators::Start;
use super::physical::TaskId;
use super::queue::Due;
use super::record::ItemKind;
use super::sim::Simulation;
use super::snapshot::{TaskMetrics, TaskSnapshot, TaskState};
use super::task::take;
use super::trace::{AbortReason, AckKind, Event};

impl Simulation {
    pub(super) fn snapshot_task(&mut self, t: TaskId, n: CheckpointId) {
        let phys = Rc::clone(&self.phys);
        let info = &phys.tasks[t as usize];
        let task = &mut self.tasks[t as usize];
        task.last_snapshot = task.last_snapshot.max(n);
        if let Some(i) = task.aborted.iter().position(|&a| a == n) {
            // Aborted before it got here: no snapshot, and a cancellation marker goes on in
            // the barrier's place, so that tasks downstream stop aligning it.
            task.aborted.swap_remove(i);
            self.events.push(Event::SnapshotSkipped {
                task: t,
                checkpoint: n,
            });
            self.broadcast(t, ItemKind::Cancel(n));
            return;
        }
        self.coordinator.mark_cut(n, t, self.next_record);
        let savepoint = self.coordinator.is_savepoint(n);
        let task = &mut self.tasks[t as usize];
        if task.data_ended && task.final_checkpoint.is_none() && !savepoint {
            // Its first snapshot after its data ended: its final checkpoint (a savepoint is
            // never one: no task is notified of its completion).
            task.final_checkpoint = Some(n);
        }
        let at = self.events.len();
        self.events.push(Event::Snapshot {
            task: t,
            checkpoint: n,
            forwarded: 0,
            offset: None,
            priority: false,
        });
        let persisted_in = take(&mut self.tasks[t as usize].books.persisted, n);
        // Counters are read before the barrier goes out: they are what the cut contains.
        let received = info
            .inputs
            .iter()
            .map(|&c| self.net.channels[c as usize].records_received)
            .collect();
        let sent = info
            .outputs
            .iter()
            .flatten()
            .map(|&c| self.net.channels[c as usize].records_sent)
            .collect();
        let (mut forwarded, mut overtook) = (0, false);
        // Unaligned barriers overtake the output queue; so does an aligned one whose
        // checkpoint went on unaligned (its alignment timed out) — each channel's policy says.
        let timed_out =
            self.tasks[t as usize].handler.timed_out() == Some(n) || self.coordinator.timed_out(n);
        // A stopped world sends no barrier: every task snapshots in the same step.
        let barriers = !self.config.mode.stops_the_world();
        for &c in info.outputs.iter().flatten().filter(|_| barriers) {
            if self.net.overtakes(c, n, timed_out) {
                self.send_overtaking(c, n);
                overtook = true;
            } else {
                self.send(c, ItemKind::Barrier(n));
            }
            forwarded += 1;
        }
        if let Some(Event::Snapshot {
            forwarded: f,
            offset,
            priority,
            ..
        }) = self.events.get_mut(at)
        {
            *f = forwarded;
            *priority = overtook;
            if let TaskState::Source { offset: o } = self.tasks[t as usize].state {
                *offset = Some(o);
            }
        }
        let task = &mut self.tasks[t as usize];
        let trigger_time = self
            .coordinator
            .summary(n)
            .map_or(self.clock.now, |s| s.trigger_time);
        let reached = task.books.first_barrier.iter().any(|&(id, _)| id == n);
        let first = take(&mut task.books.first_barrier, n).max(trigger_time);
        // Stopped: the start delay is the time the job took to drain. Triggered directly (its
        // upstream had finished, as Flink triggers such a task): no barrier came, the wait for
        // the end of its input is its start delay, and it aligned nothing.
        let first = if info.inputs.is_empty() || !barriers || !reached {
            self.clock.now
        } else {
            first
        };
        let metrics = TaskMetrics {
            ack_time: self.clock.now,
            start_delay: first.saturating_sub(trigger_time),
            // From the task's first barrier to now, as Flink reports it in every mode: here the
            // last barrier when the task aligns or tracks; a task that snapshots at its first
            // barrier and records until its last adds the wait when it acknowledges.
            alignment_duration: self.clock.now.saturating_sub(first),
            records_held: take(&mut task.books.held_records, n),
            state_size: task.state.size_bytes(),
            persisted_in_flight: persisted_in,
            sync_duration: 0,
            async_duration: 0,
            processed_in_alignment: take(&mut task.books.processed, n),
            // Set when it acknowledges (`acknowledge`): Flink's flag says whether the subtask
            // persisted in-flight data, whatever barriers it took.
            unaligned: false,
        };
        // Older bookkeeping can never be used again: ids only grow.
        task.books.first_barrier.retain(|&(id, _)| id > n);
        task.books.held_records.retain(|&(id, _)| id > n);
        task.books.persisted.retain(|&(id, _)| id > n);
        task.books.processed.retain(|&(id, _)| id > n);
        let snapshot = TaskSnapshot {
            task: t,
            state: task.state.clone(),
            received,
            sent,
            metrics,
        };
        if task.handler.is_recording(n) {
            task.books.awaiting_ack.push((n, snapshot));
        } else {
            self.acknowledge(t, n, snapshot, AckKind::Snapshot);
        }
    }

    /// Unaligned and Chandy-Lamport: acknowledges each waiting snapshot once its channel
    /// state is complete.
    pub(super) fn acknowledge_when_recorded(&mut self, t: TaskId) {
        let task = &mut self.tasks[t as usize];
        if task.books.awaiting_ack.is_empty() {
            return;
        }
        let handler = &task.handler;
        let (done, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut task.books.awaiting_ack)
            .into_iter()
            .partition(|(n, _)| !handler.is_recording(*n));
        task.books.awaiting_ack = waiting;
        for (n, mut snapshot) in done {
            let waited = self.clock.now.saturating_sub(snapshot.metrics.ack_time);
            snapshot.metrics.async_duration = waited;
            // Its last barrier (or marker) has come: the alignment, as Flink counts it, ends.
            snapshot.metrics.alignment_duration += waited;
            snapshot.metrics.ack_time = self.clock.now;
            let books = &mut self.tasks[t as usize].books;
            snapshot.metrics.persisted_in_flight += take(&mut books.persisted, n);
            snapshot.metrics.processed_in_alignment += take(&mut books.processed, n);
            self.acknowledge(t, n, snapshot, AckKind::ChannelState);
        }
    }

    pub(super) fn acknowledge(
        &mut self,
        t: TaskId,
        n: CheckpointId,
        mut snapshot: TaskSnapshot,
        why: AckKind,
    ) {
        // Flink's per-subtask `unaligned_checkpoint` is whether it persisted any in-flight
        // data (CheckpointMetricsBuilder): an unaligned snapshot with nothing to overtake says
        // false, as does a savepoint's, which is aligned everywhere.
        snapshot.metrics.unaligned = snapshot.metrics.persisted_in_flight > 0;
        let Some(acked) = self.coordinator.ack(n, snapshot) else {
            return;
        };
        self.events.push(Event::Acknowledged {
            task: t,
            checkpoint: n,
            acked,
            total: self.phys.task_count(),
            why,
        });
        if self.coordinator.is_complete(n) {
            self.complete(n);
        }
    }

    pub(super) fn complete(&mut self, n: CheckpointId) {
        let channels = &self.net.channels;
        self.coordinator
            .check_in_flight(n, &self.phys, |c| channels[c as usize].items());
        let Some(gs) = self
            .coordinator
            .take_complete(n, self.clock.now, &self.phys)
        else {
            return;
        };
        let savepoint = gs.savepoint;
        self.events.push(Event::CheckpointCompleted {
            checkpoint: n,
            consistent: gs.verdict.ok(),
            finding: gs.verdict.finding(),
            savepoint,
        });
        if savepoint {
            // Flink's coordinator neither notifies the tasks of a completed savepoint (no sink
            // commits on it, it is no task's final checkpoint) nor drops older checkpoints
            // for it; the minimum pause still counts from it.
            self.coordinator.retain(gs);
            self.after_checkpoint_end();
            return;
        }
        // Notify-complete: transactional sinks commit what their snapshot pre-committed.
        for snap in &gs.tasks {
            if !self.phys.operator_of(snap.task).kind.is_transactional() {
                continue;
            }
            if let (TaskState::Sink { received, .. }, TaskState::Sink { committed, .. }) =
                (&snap.state, &mut self.tasks[snap.task as usize].state)
            {
                if *received > *committed {
                    *committed = *received;
                    self.events.push(Event::Committed {
                        task: snap.task,
                        checkpoint: n,
                        committed: *received,
                    });
                }
            }
        }
        self.coordinator.retain(gs);
        // Subsumption: a completed checkpoint makes every older running one pointless (but
        // a savepoint, which is never subsumed).
        let subsumes = self.config.mode.completion_subsumes();
        let older: Vec<CheckpointId> = self
            .coordinator
            .in_progress()
            .filter(|&id| subsumes && id < n && !self.coordinator.is_savepoint(id))
            .collect();
        for id in older {
            if self
                .coordinator
                .abort(id, AbortReason::Subsumed, self.clock.now)
            {
                self.events.push(Event::CheckpointAborted {
                    checkpoint: id,
                    reason: AbortReason::Subsumed,
                });
                self.notify_aborted(id);
            }
        }
        self.after_checkpoint_end();
        // FLIP-147: every task whose final checkpoint this is (it snapshotted this one or an
        // earlier one after its data ended) may finish now.
        for t in 0..self.phys.task_count() {
            let task = &mut self.tasks[t as usize];
            if task.final_checkpoint.is_some_and(|f| f <= n) && task.final_done.is_none() {
                task.final_done = Some(n);
                self.finish_if_ready(t);
            }
        }
    }

    pub(super) fn trigger(&mut self) {
        self.trigger_at(None);
    }

    /// Starts a savepoint: a checkpoint whose barriers go in line on every channel and that
    /// every task takes aligned (Flink's modes only: [`Action::Savepoint`] checks).
    ///
    /// [`Action::Savepoint`]: super::Action::Savepoint
    pub(super) fn trigger_savepoint(&mut self) {
        self.begin(None, true);
    }

    /// Starts a new checkpoint. Chandy-Lamport: `initiator` (chosen by hand) or the next of the
    /// configured initiators starts it by the marker rule; the ABS modes inject at the sources.
    pub(super) fn trigger_at(&mut self, initiator: Option<TaskId>) {
        self.begin(initiator, false);
    }

    fn begin(&mut self, initiator: Option<TaskId>, savepoint: bool) {
        let n = self
            .coordinator
            .start(self.clock.now, self.phys.task_count(), savepoint);
        if savepoint {
            self.net.savepoints.push(n);
        }
        self.events.push(Event::CheckpointTriggered {
            checkpoint: n,
            savepoint,
        });
        let deadline = self.clock.now.saturating_add(self.coordinator.timeout);
        self.schedule(deadline, Due::Expire(n));
        match self.coordinator.alignment_deadline(n) {
            // A timeout of 0: every checkpoint starts unaligned (Flink's behaviour too).
            Some(at) if at <= self.clock.now => {
                self.coordinator.time_out(n);
            }
            Some(at) => self.schedule(at, Due::AlignmentTimeout(n)),
            None => {}
        }
        let chandy_lamport = self.config.mode.processes_initiate();
        if chandy_lamport {
            if let Start::Alone(who) = self.initiators.start(initiator) {
                // One process initiates, chosen by hand or the next in turn.
                if let Some(t) = who {
                    self.initiate(t, n);
                }
                return;
            }
        }
        if self.config.mode.stops_the_world() {
            // The sources stop at their next read (`stop_source`); every task snapshots once
            // the job has drained — a finished one too, which may still receive what a
            // non-FIFO channel delivers after its end of partition.
            super::synchronous::snapshot_when_drained(self);
            return;
        }
        // Sources snapshot their offsets and inject the barrier; finished tasks acknowledge
        // with their final state (checkpoints after tasks finish).
        for t in 0..self.phys.task_count() {
            let is_source = self.phys.operator_of(t).kind.is_source();
            if self.tasks[t as usize].finished {
                self.acknowledge_finished(t, n);
            } else if is_source && chandy_lamport {
                // Chandy-Lamport on a dataflow: no marker reaches a source, so each initiates.
                self.initiate(t, n);
            } else if is_source {
                self.snapshot_task(t, n);
            } else if self.upstream_finished(t) {
                // No barrier can come from a finished task: trigger this one directly; it
                // snapshots once the ends of partition still in flight to it have arrived
                // (at once if none is: it waits for its final checkpoint).
                self.tasks[t as usize].books.direct.push(n);
                if self.inputs_closed(t) {
                    self.finish_if_ready(t);
                }
            }
        }
    }

    /// Chandy-Lamport: task `t` initiates snapshot `n` — it records its state and sends
    /// markers (the handler's `Triggered`), then records every input until its marker comes.
    fn initiate(&mut self, t: TaskId, n: CheckpointId) {
        if self.tasks[t as usize].finished {
            self.acknowledge_finished(t, n);
            return;
        }
        self.events.push(Event::Initiated {
            task: t,
            checkpoint: n,
        });
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        self.tasks[t as usize].handler.initiate(n, &mut out);
        for o in out.drain(..) {
            self.carry_out(t, o, None);
        }
        out.clear();
        self.scratch = out;
        self.acknowledge_when_recorded(t);
    }

    /// True when every task sending to `t` has finished.
    fn upstream_finished(&self, t: TaskId) -> bool {
        // A back-edge comes from downstream (or from the task itself): no barrier waits there.
        self.phys.tasks[t as usize].inputs.iter().all(|&c| {
            let ch = &self.phys.channels[c as usize];
            self.phys.is_back_edge(ch.edge) || self.tasks[ch.from as usize].finished
        })
    }

    /// A finished task acknowledges checkpoint `n` with its final state; its cut is now.
    pub(super) fn acknowledge_finished(&mut self, t: TaskId, n: CheckpointId) {
        let snapshot = self.final_snapshot(t);
        self.coordinator.mark_cut(n, t, self.next_record);
        self.acknowledge(t, n, snapshot, AckKind::Finished);
    }

    pub(super) fn final_snapshot(&self, t: TaskId) -> TaskSnapshot {
        let info = &self.phys.tasks[t as usize];
        let task = &self.tasks[t as usize];
        TaskSnapshot {
            task: t,
            state: task.state.clone(),
            received: info
                .inputs
                .iter()
                .map(|&c| self.net.channels[c as usize].records_received)
                .collect(),
            sent: info
                .outputs
                .iter()
                .flatten()
                .map(|&c| self.net.channels[c as usize].records_sent)
                .collect(),
            metrics: TaskMetrics {
                ack_time: self.clock.now,
                state_size: task.state.size_bytes(),
                ..TaskMetrics::default()
            },
        }
    }

    pub(super) fn expire(&mut self, n: CheckpointId) {
        if self
            .coordinator
            .abort(n, AbortReason::Expired, self.clock.now)
        {
            self.events.push(Event::CheckpointAborted {
                checkpoint: n,
                reason: AbortReason::Expired,
            });
            self.notify_aborted(n);
            self.after_checkpoint_end();
        }
    }

    /// The coordinator tells every task that checkpoint `n` was aborted (Flink's
    /// `notifyCheckpointAborted`, sent for every abort but a failover's). A running task that
    /// has not snapshotted it yet remembers: if it reaches it later it sends a cancellation
    /// marker instead of the barrier. Snapshots taken and not yet acknowledged are dropped.
    pub(super) fn notify_aborted(&mut self, n: CheckpointId) {
        for task in &mut self.tasks {
            if task.finished {
                continue;
            }
            if n > task.last_snapshot {
                if !task.aborted.contains(&n) {
                    task.aborted.push(n);
                }
            } else {
                task.books.awaiting_ack.retain(|(id, _)| *id != n);
            }
        }
    }

    pub(super) fn after_checkpoint_end(&mut self) {
        super::synchronous::resume_sources(self);
        let failed = self.coordinator.failed_in_a_row;
        if self
            .coordinator
            .tolerable_failed
            .is_some_and(|tolerable| failed > tolerable)
            && !self.life.failing
        {
            // Too many failed checkpoints in a row: the job fails, and restarts from the
            // latest completed checkpoint as after any failure (`recovery.rs`), as the next
            // step — not in the middle of this one.
            self.life.failing = true;
            let restore = self.coordinator.latest_completed().map(|g| g.checkpoint);
            self.events.push(Event::JobFailed {
                failed_checkpoints: failed,
                restore,
            });
            self.schedule(self.clock.now, Due::FailJob);
        }
        // A savepoint or a trigger by hand that waited starts now, before a periodic one
        // (Flink's queue puts savepoints first, then requests by hand; the pause does not
        // hold them back).
        let co = &self.coordinator;
        if (co.manual_waiting > 0 || co.savepoints_waiting > 0) && co.has_room() {
            self.schedule(self.clock.now, Due::ManualTrigger);
        }
        // A periodic trigger that waited: Flink takes it from its queue now (the pause may
        // still turn it away).
        if self.coordinator.periodic_waiting > 0 && self.coordinator.has_room() {
            self.schedule(self.clock.now, Due::QueuedTrigger);
        }
    }

    pub(super) fn forget(&mut self, t: TaskId, n: CheckpointId) {
        self.tasks[t as usize].books.forget(n);
    }
}
