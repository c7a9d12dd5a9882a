//! Failure and recovery, as Flink's default failover strategy does it: a failed task's
//! pipelined region restarts (the connected component of the subtask graph, `Physical::
//! regions`), the rest of the job runs on. In most jobs the region is the whole job; too many
//! failed checkpoints fail the whole job too.
//!
//! A failure brings its region down: its tasks are cancelled, what was in flight on its
//! channels and waiting in its alignment buffers is lost, and every running checkpoint is
//! abandoned. After the restart delay the region's tasks restore their state from the latest
//! completed checkpoint — keyed counts, source offsets, sinks — recorded channel state (unaligned
//! in-flight records, the cyclic ABS back-edge log, Chandy-Lamport's channels) goes back on its
//! channel ahead of new input, and the sources rewind to their restored offsets and read again.
//! With no completed checkpoint, everything starts from the beginning. Checkpoint ids go on
//! after the restart.
//!
//! Exactly-once follows from the snapshot being a consistent cut: what is replayed is exactly
//! what the restored state has not seen. An at-least-once snapshot is not one: records that
//! entered a task's state after an early barrier ("orphans" of the cut) are replayed as well
//! and counted twice — [`Recovery::duplicates`] names them.

use std::rc::Rc;

use super::barrier::CheckpointId;
use super::physical::TaskId;
use super::queue::Due;
use super::record::Record;
use super::sim::{handler_for, Simulation};
use super::snapshot::{Crossing, CrossingKind, GlobalState, TaskState};
use super::trace::{AbortReason, Event};

pub use super::lifecycle::{PlannedFailure, Recovery};

impl Simulation {
    /// Plans a failure of subtask `task` at virtual time `at` (a scenario's `failures`, or
    /// `abs-sim run --fail`). A failure planned after the job has finished does not happen.
    pub fn plan_failure(&mut self, task: TaskId, at: u64) {
        self.life.planned.push(PlannedFailure {
            task,
            at,
            applied: false,
            skipped: false,
        });
    }

    /// The planned failure that is due before anything else is, if any.
    pub(super) fn planned_failure_due(&self) -> Option<usize> {
        if self.life.done || self.life.planned.is_empty() {
            return None;
        }
        let next = self.clock.first_time();
        let (i, f) = self
            .life
            .planned
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.applied && !f.skipped)
            .min_by_key(|(i, f)| (f.at, *i))?;
        next.is_none_or(|t| f.at <= t).then_some(i)
    }

    /// The next planned failure of task `t` that has not happened, if any.
    pub(super) fn next_planned_failure_of(&self, t: TaskId) -> Option<usize> {
        self.life
            .planned
            .iter()
            .enumerate()
            .filter(|(_, f)| f.task == t && !f.applied && !f.skipped)
            .min_by_key(|(i, f)| (f.at, *i))
            .map(|(i, _)| i)
    }

    /// Task `task` fails (none: the job fails because too many checkpoints did). Its region's
    /// tasks are cancelled (every task for a failure of the job, or when the region is the
    /// whole job), their channels and alignment buffers are emptied, running checkpoints are
    /// abandoned, and the restart is due after the restart delay. Failing while a region is
    /// down adds this one to it and starts the delay again.
    pub(super) fn fail(&mut self, task: Option<TaskId>) {
        let all = self.phys.task_count();
        let mut region: Vec<TaskId> = match task {
            Some(t) => self.phys.region_of(t),
            None => (0..all).collect(),
        };
        if self.life.down_until.is_some() {
            // With the region already down (kept in order, without a sort of its own).
            let mut down = vec![false; all as usize];
            for &t in region.iter().chain(&self.life.region) {
                down[t as usize] = true;
            }
            region = (0..all).filter(|&t| down[t as usize]).collect();
        }
        let whole = region.len() as u32 == all;
        // What was in flight is gone: the channel has delivered all it ever will of it.
        let lost = self.net.clear_region(&self.phys, &region, self.clock.now);
        let mut dropped: u32 = lost.iter().fold(0, |sum, &(_, n)| sum.saturating_add(n));
        let phys = Rc::clone(&self.phys);
        let policies = self.net.policies();
        for &t in &region {
            let handler = handler_for(&phys, &self.config, &policies, t);
            dropped = dropped.saturating_add(self.tasks[t as usize].fail(handler, self.clock.now));
        }
        // The region's own plans go (every plan, the coordinator's too, when the whole job
        // stops); the other tasks' stay. Its stopped sources start again at the restart.
        let down = |t: TaskId| region.binary_search(&t).is_ok();
        self.clock.retain_planned(|due| {
            !whole
                && match *due {
                    Due::Wake(t) | Due::Replay(t) | Due::Emit(t) => !down(t),
                    Due::Deliver(c, _) => !down(phys.channels[c as usize].to),
                    _ => true,
                }
        });
        self.coordinator.stopped.retain(|&(t, _)| !down(t));
        let restart_at = self.clock.now.saturating_add(self.config.restart_delay);
        let partial = (!whole).then(|| region.clone());
        self.events.push(Event::Failed {
            task,
            dropped,
            restart_at,
            region: partial.clone(),
        });
        let running: Vec<CheckpointId> = self.coordinator.in_progress().collect();
        for id in running {
            if self
                .coordinator
                .abort(id, AbortReason::Failover, self.clock.now)
            {
                self.events.push(Event::CheckpointAborted {
                    checkpoint: id,
                    reason: AbortReason::Failover,
                });
                if !whole {
                    // The tasks running on are told, as of any abort.
                    self.notify_aborted_outside(id, &region);
                }
            }
        }
        // Transactional sinks abort their open transactions: what they received since the
        // last completed checkpoint is not committed and never will be. (Once: a second
        // failure while the job is down finds nothing open.)
        for &t in &region {
            if !phys.operator_of(t).kind.is_transactional() {
                continue;
            }
            if let TaskState::Sink {
                received,
                committed,
                ..
            } = &mut self.tasks[t as usize].state
            {
                if *received > *committed {
                    self.events.push(Event::TransactionAborted {
                        task: t,
                        aborted: *received - *committed,
                    });
                    *received = *committed;
                }
            }
        }
        self.life.failing = false;
        if whole {
            self.coordinator.periodic_waiting = 0;
            // Flink's coordinator stops its scheduler while the job restarts, and the
            // triggers queued by hand fail with it. (A region's failover leaves the job
            // running, and the scheduler with it.)
            self.coordinator.manual_waiting = 0;
            self.coordinator.savepoints_waiting = 0;
        }
        // Flink's failure manager clears its count of failed checkpoints when the count fails
        // the job, and otherwise only when a checkpoint completes: a task's failure leaves it.
        if task.is_none() {
            self.coordinator.failed_in_a_row = 0;
        }
        if self.life.down_until.is_none() || task.is_some() {
            self.life.failed_task = task;
        }
        self.life.region = region;
        self.life.down_until = Some(restart_at);
        self.schedule(restart_at, Due::Restart);
        self.life.recoveries.push(Recovery {
            failed: task,
            region: partial,
            failed_at: self.clock.now,
            restored_at: None,
            checkpoint: None,
            dropped: lost,
            rewound: Vec::new(),
            duplicates: Vec::new(),
        });
    }

    /// [`Simulation::notify_aborted`] for the tasks outside a restarting region.
    fn notify_aborted_outside(&mut self, n: CheckpointId, region: &[TaskId]) {
        let keep: Vec<_> = region
            .iter()
            .map(|&t| std::mem::take(&mut self.tasks[t as usize].aborted))
            .collect();
        self.notify_aborted(n);
        for (&t, aborted) in region.iter().zip(keep) {
            self.tasks[t as usize].aborted = aborted;
        }
    }

    /// The restart delay is over: every task restores the latest completed checkpoint (or
    /// starts afresh), recorded channel state goes back on its channels, sources rewind.
    pub(super) fn restart(&mut self) {
        self.life.down_until = None;
        let region = std::mem::take(&mut self.life.region);
        let phys = Rc::clone(&self.phys);
        let whole = region.len() as u32 == phys.task_count();
        let down = |t: TaskId| whole || region.binary_search(&t).is_ok();
        let latest: Option<Rc<GlobalState>> = self.coordinator.latest_restorable();
        let mut rewound = Vec::new();
        for t in (0..phys.task_count()).filter(|&t| down(t)) {
            let kind = &phys.operator_of(t).kind;
            let snapshot = latest
                .as_ref()
                .and_then(|g| g.tasks.get(t as usize))
                .filter(|s| s.task == t);
            let task = &mut self.tasks[t as usize];
            let restored = snapshot.map_or_else(|| TaskState::initial(kind), |s| s.state.clone());
            if let (TaskState::Source { offset: was }, TaskState::Source { offset }) =
                (&task.state, &restored)
            {
                task.read_before = task.read_before.max(*was);
                if was != offset {
                    rewound.push((t, *was, *offset));
                }
            }
            task.state = match (kind.is_sink(), kind.is_transactional(), restored) {
                // A plain sink has no transaction to roll back: what it emitted is out in the
                // world, and it keeps counting.
                (true, false, _) => task.state.clone(),
                // The restored checkpoint's pre-committed transaction is committed (if its
                // notification had not arrived); later ones were aborted at the failure.
                (
                    _,
                    true,
                    TaskState::Sink {
                        received, recent, ..
                    },
                ) => TaskState::Sink {
                    received,
                    committed: received,
                    recent,
                },
                (_, _, state) => state,
            };
            task.finished = false;
            task.busy_until = self.clock.now;
        }
        // Channels: what the restored cut says was sent and received; the recorded in-flight
        // records go back at their head, in the order they were sent, marked as replays.
        let mut reinjected: u32 = 0;
        for (c, info) in phys.channels.iter().enumerate() {
            if !down(info.to) {
                continue;
            }
            let (sent, received) = latest.as_ref().map_or((0, 0), |g| {
                let sent = g
                    .tasks
                    .get(info.from as usize)
                    .and_then(|s| {
                        let at = phys.tasks[info.from as usize]
                            .outputs
                            .iter()
                            .flatten()
                            .position(|&o| o == c as u32)?;
                        s.sent.get(at).copied()
                    })
                    .unwrap_or(0);
                let received = g
                    .tasks
                    .get(info.to as usize)
                    .and_then(|s| s.received.get(info.input_index as usize).copied())
                    .unwrap_or(0);
                (sent, received)
            });
            // Recorded in the order they were sent (arrival order on a non-FIFO channel).
            let recorded: Vec<Record> = latest
                .as_ref()
                .and_then(|g| g.channel_state.get(&(c as u32)))
                .cloned()
                .unwrap_or_default();
            let back = self
                .net
                .restore(c as u32, sent, received, recorded, self.clock.now);
            reinjected = reinjected.saturating_add(back);
        }
        self.net.recount_credit_of(&phys, &region);
        for c in 0..phys.channels.len() {
            if down(phys.channels[c].to) {
                self.schedule_channel(c as u32);
            }
        }
        let duplicates: Vec<Crossing> = latest.as_ref().map_or_else(Vec::new, |g| {
            g.verdict
                .crossings
                .iter()
                .filter(|c| {
                    c.kind == CrossingKind::Orphan && down(phys.channels[c.channel as usize].to)
                })
                .copied()
                .collect()
        });
        let checkpoint = latest.as_ref().map(|g| g.checkpoint);
        let partial = (!whole).then(|| region.clone());
        self.events.push(Event::Restored {
            checkpoint,
            reinjected,
            duplicates: duplicates.clone(),
            region: partial,
        });
        for &(task, from, to) in &rewound {
            self.events.push(Event::Rewound { task, from, to });
        }
        if let Some(r) = self.life.recoveries.last_mut() {
            r.restored_at = Some(self.clock.now);
            r.checkpoint = checkpoint;
            r.rewound = rewound;
            r.duplicates = duplicates;
        }
        if whole {
            self.start();
        } else {
            self.start_tasks(&region);
            // Triggers that waited while the region was down go now.
            self.after_checkpoint_end();
        }
    }
}
