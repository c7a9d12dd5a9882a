//! A bounded job's end, as Flink runs it since FLIP-147 (checkpoints after tasks finish): a
//! source whose log ends sends end of data and keeps running; a task whose inputs all ended
//! their data finishes its operator and sends end of data on; every task keeps taking
//! barriers until a checkpoint it took after its end of data has completed, and then, its
//! inputs closed, sends end of partition and finishes. The job ends with its last task.
//! With the switch off nothing waits, and no checkpoint is triggered once a task finished.

use std::rc::Rc;

use super::record::ItemKind;
use super::sim::Simulation;
use super::snapshot::TaskState;
use super::trace::Event;
use super::vocab::{CheckpointId, TaskId};

impl Simulation {
    /// FLIP-147: task `t`'s data has ended — a bounded source read its whole log, every input
    /// of a task delivered its end of data, or a loop head's outside inputs did and nothing
    /// is left going round. Its operator finishes and its end of data goes out on every
    /// output; the task keeps running, taking barriers and snapshotting, until a checkpoint
    /// it snapshots from now on completes (`finish_if_ready`). With checkpoints after tasks
    /// finish switched off, nothing waits: it finishes at once.
    pub(super) fn end_data(&mut self, t: TaskId) {
        let task = &mut self.tasks[t as usize];
        if task.data_ended || task.finished {
            return;
        }
        task.data_ended = true;
        let finishes_now = !self.waits_for_final_checkpoint();
        if !self.phys.operator_of(t).kind.is_source() {
            // A loop's head: its back-edge's end of data is its own, and comes round later.
            let phys = &self.phys;
            let looped = (phys.tasks[t as usize].inputs.iter())
                .any(|&c| phys.is_back_edge(phys.channels[c as usize].edge));
            self.events.push(Event::DataEnded {
                task: t,
                finishes_now,
                looped,
            });
        }
        self.broadcast(t, ItemKind::EndOfData);
        self.finish_if_ready(t);
    }

    /// Whether every input of `t` has delivered its end of data (back-edges aside: a loop
    /// ends by draining, see `end_loop_if_drained`).
    pub(super) fn inputs_data_ended(&self, t: TaskId) -> bool {
        self.every_regular_input(t, |h, i| h.has_data_ended(i))
    }

    /// Whether `holds` for every input of `t` that is not a back-edge (`i` its index).
    fn every_regular_input(
        &self,
        t: TaskId,
        holds: impl Fn(&super::barrier::BarrierHandler<super::record::Record>, u32) -> bool,
    ) -> bool {
        let handler = &self.tasks[t as usize].handler;
        (self.phys.tasks[t as usize].inputs.iter().enumerate())
            .all(|(i, &c)| self.phys.channel_is_back_edge(c) || holds(handler, i as u32))
    }

    /// Task `t` finishes if it may: its data has ended, every input but its back-edges has
    /// closed, and its final checkpoint has completed (unless it does not wait for one).
    /// Once its inputs have closed, the checkpoints the coordinator triggered on it directly
    /// are snapshotted — one of them may be the final checkpoint it waits for.
    pub(super) fn finish_if_ready(&mut self, t: TaskId) {
        let task = &self.tasks[t as usize];
        if task.finished || !task.data_ended || !self.inputs_closed(t) {
            return;
        }
        self.snapshot_direct(t);
        if self.waits_for_final_checkpoint() && self.tasks[t as usize].final_done.is_none() {
            return;
        }
        self.finish(t);
    }

    /// Whether every input of `t` but its back-edges has closed (none: a source).
    pub(super) fn inputs_closed(&self, t: TaskId) -> bool {
        self.every_regular_input(t, |h, i| h.is_closed(i))
    }

    /// The checkpoints triggered on `t` directly (its upstream had finished), snapshotted now
    /// that no end of partition is on its way to it any more: its final state.
    fn snapshot_direct(&mut self, t: TaskId) {
        let direct = std::mem::take(&mut self.tasks[t as usize].books.direct);
        for n in direct {
            if self.coordinator.deadline(n).is_some() && !self.coordinator.acked_by(n, t) {
                self.snapshot_task(t, n);
            }
        }
    }

    /// Task `t` finishes: it sends its end of partition (behind the barriers of what it
    /// snapshotted). When the last task has finished, so has the job.
    pub(super) fn finish(&mut self, t: TaskId) {
        self.snapshot_direct(t);
        let task = &mut self.tasks[t as usize];
        task.finished = true;
        let checkpoint = task.final_done;
        let phys = Rc::clone(&self.phys);
        for &c in phys.tasks[t as usize].outputs.iter().flatten() {
            // A loop's feedback ends with its head: no end of partition goes round to a head
            // that has finished (the task itself, on an iteration's feedback edge).
            let ch = &phys.channels[c as usize];
            if phys.is_back_edge(ch.edge) && self.tasks[ch.to as usize].finished {
                continue;
            }
            self.send(c, ItemKind::EndOfPartition);
        }
        self.events.push(Event::TaskFinished {
            task: t,
            checkpoint,
        });
        if self.tasks.iter().all(|task| task.finished) && !self.life.done {
            self.finish_job(checkpoint);
        }
    }

    /// A task with back-edges (an iteration's head) never sees them end by themselves: its
    /// data ends once every other input has delivered its end of data and nothing is left on
    /// its back-edges — no record is still going round the loop. (This reads the back-edge
    /// channels only, which is the whole loop when the feedback goes straight back to the
    /// task.)
    pub(super) fn end_loop_if_drained(&mut self, t: TaskId) {
        if self.phys.back_edges.is_empty() {
            return;
        }
        let phys = Rc::clone(&self.phys);
        let info = &phys.tasks[t as usize];
        let task = &self.tasks[t as usize];
        if task.data_ended || task.finished || task.handler.has_replay() {
            return;
        }
        let (mut loops, mut regular) = (0, 0);
        for (i, &c) in info.inputs.iter().enumerate() {
            let back = phys.is_back_edge(phys.channels[c as usize].edge);
            if back {
                loops += 1;
                if !self.net.channels[c as usize].items().is_empty() {
                    return;
                }
            } else if !task.handler.has_data_ended(i as u32) {
                return;
            } else {
                regular += 1;
            }
        }
        // Only a loop fed from outside ends: processes in a cycle of their own (the token,
        // the bank) run for ever.
        if loops > 0 && regular > 0 {
            self.end_data(t);
        }
    }

    /// Whether one of `t`'s inputs is a back-edge: its data ends by draining the loop.
    pub(super) fn has_loop(&self, t: TaskId) -> bool {
        self.phys.tasks[t as usize]
            .inputs
            .iter()
            .any(|&c| self.phys.channel_is_back_edge(c))
    }

    /// Whether a task whose data ended waits for its final checkpoint: with checkpoints after
    /// tasks finish on and periodic checkpoints running (Flink: checkpointing enabled).
    pub(super) fn waits_for_final_checkpoint(&self) -> bool {
        self.config.finished_channels_align && self.config.checkpoint_interval.is_some()
    }

    /// Flink's `checkpoints-after-tasks-finish` switched off (`finished_channels_align:
    /// false`): once any task has finished, the coordinator triggers no checkpoint (Flink
    /// declines it: not all required tasks are running).
    pub(super) fn refuses_checkpoints_after_finish(&self) -> bool {
        !self.config.finished_channels_align && self.tasks.iter().any(|t| t.finished)
    }

    /// The last task has finished, after `checkpoint` completed: the job is over. With
    /// checkpoints after tasks finish off there is no final checkpoint, and a transactional
    /// sink's open transaction is never committed.
    pub(super) fn finish_job(&mut self, checkpoint: Option<CheckpointId>) {
        self.life.done = true;
        if checkpoint.is_none() {
            // Without periodic checkpoints (Flink: checkpointing disabled) the committer
            // commits what is left at the end of its input; with them, only a checkpoint
            // commits, and none will come.
            let lost = self.config.checkpoint_interval.is_some();
            for t in 0..self.phys.task_count() {
                if !self.phys.operator_of(t).kind.is_transactional() {
                    continue;
                }
                if let TaskState::Sink {
                    received,
                    committed,
                    ..
                } = &mut self.tasks[t as usize].state
                {
                    if !lost {
                        *committed = *received;
                    } else if *received > *committed {
                        self.events.push(Event::NeverCommitted {
                            task: t,
                            records: *received - *committed,
                        });
                        *received = *committed;
                    }
                }
            }
        }
        self.events.push(Event::JobFinished { checkpoint });
    }
}
