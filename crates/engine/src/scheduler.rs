//! The scheduler: `step` pops the earliest due event from the clock's time queue (ties broken
//! by the seeded PRNG) and hands it to the part it concerns; a due event whose plan went stale
//! is dropped, one that must wait is planned again.

use std::rc::Rc;

use super::channel::Hold;
use super::coordinator::MAX_QUEUED;
use super::model::OperatorKind;
use super::physical::TaskId;
use super::sim::Simulation;
use super::trace::Event;
use super::vocab::{Action, ChannelId, CheckpointId, Due};

/// What [`Simulation::turned_away_ticks`] found at the head of the time queue.
enum Ticks {
    /// Something that may change the job: run it.
    Live,
    /// Ticks that change nothing were skipped: look again.
    Skipped,
    /// Only such ticks are left: nothing happens on its own any more.
    Idle,
}

impl Simulation {
    /// The scheduler's move: runs the earliest due event (ties broken by the seeded PRNG)
    /// and returns what it did, or `None` when nothing is left to happen.
    pub fn step(&mut self) -> Option<Action> {
        self.events.clear();
        loop {
            if let Some(i) = self.planned_failure_due() {
                let failure = &mut self.life.planned[i];
                failure.applied = true;
                let (task, at) = (failure.task, failure.at);
                self.clock.now = self.clock.now.max(at);
                self.clock.steps += 1;
                self.fail(Some(task));
                return Some(Action::Fail { task });
            }
            match self.turned_away_ticks() {
                Ticks::Live => {}
                Ticks::Skipped => continue,
                Ticks::Idle => return None,
            }
            if self.debloat_before_next() {
                continue;
            }
            let (time, due) = self.clock.pop()?;
            let time = time.max(self.clock.now);
            let done = match due {
                Due::Deliver(c, generation) => self.on_delivery_due(c, generation, time),
                Due::Wake(t) => self.on_wake(t, time),
                Due::Replay(t) => self.on_replay_due(t, time),
                Due::Emit(t) => self.on_emit_due(t, time),
                Due::Trigger(timer) => self.on_trigger_due(timer, time),
                Due::QueuedTrigger => self.on_queued_trigger_due(time),
                Due::ManualTrigger => self.on_manual_trigger_due(time),
                Due::AlignmentTimeout(n) => self.on_alignment_timeout(n, time),
                Due::Expire(id) => self.on_expiry_due(id, time),
                Due::SnapshotAll(n) => super::synchronous::on_drained_due(self, n, time),
                Due::PlannedSavepoint => self.on_planned_savepoint(time),
                Due::FailJob => self.on_job_failure_due(time),
                Due::Restart => self.on_restart_due(time),
            };
            if done.is_some() {
                return done;
            }
        }
    }

    /// Buffer debloating: when a recalculation of capacities is due no later than the next
    /// event, it happens first (no step of its own: what it changed is told with the step
    /// that follows). Returns whether it did.
    fn debloat_before_next(&mut self) -> bool {
        let (Some(at), Some(next)) = (self.net.debloat_due(), self.clock.first_time()) else {
            return false;
        };
        if at > next {
            return false;
        }
        self.clock.now = self.clock.now.max(at);
        let phys = Rc::clone(&self.phys);
        let target = self.config.buffer_debloat.map_or(0, |b| b.target);
        for (channel, capacity, throughput, was_full) in
            self.net.debloat(&phys, self.clock.now, next)
        {
            self.events.push(Event::BufferResized {
                channel,
                capacity,
                throughput,
                target,
            });
            self.refresh_credit(channel, was_full);
        }
        true
    }

    /// A channel's planned delivery: its head is handed over, unless its plan is stale, nothing
    /// has arrived yet, or the delivery rule holds it (the channel then waits where it must).
    fn on_delivery_due(&mut self, c: ChannelId, generation: u32, time: u64) -> Option<Action> {
        let ch = &self.net.channels[c as usize];
        if ch.generation != generation {
            return None;
        }
        if ch.next_delivery(time).is_some_and(|(_, at)| at > time) {
            // Nothing has arrived yet (a wake planned for an earlier head).
            self.net.plan_used(c);
            self.schedule_channel(c);
            return None;
        }
        let to = self.phys.channels[c as usize].to as usize;
        match self.delivery_hold_at(c, time) {
            None => {}
            Some(Hold::Empty | Hold::Paused) => return None,
            Some(Hold::Replaying) => {
                self.tasks[to].parked.push(c);
                self.net.plan_used(c);
                return None;
            }
            Some(Hold::Backpressured) => {
                self.net.flow.stall_inputs(to as TaskId, [c]);
                self.net.plan_used(c);
                self.stall(to as TaskId);
                self.wake_for_priority(c, time);
                return None;
            }
        }
        let task = &mut self.tasks[to];
        if task.busy_until > time {
            // Stays `scheduled`: the task's wake-up will deliver it.
            task.waiting.push(c);
            self.schedule_wake(to as TaskId);
            return None;
        }
        self.net.plan_used(c);
        self.clock.now = time;
        self.clock.steps += 1;
        self.deliver(c);
        Some(Action::Deliver { channel: c })
    }

    /// Task `t` is free again: it takes one of its waiting channels, chosen by the PRNG.
    fn on_wake(&mut self, t: TaskId, time: u64) -> Option<Action> {
        let task = &mut self.tasks[t as usize];
        task.wake_scheduled = false;
        if task.handler.has_replay() {
            // The waiting channels move to `parked` and resume after the replay.
            let waiting = std::mem::take(&mut task.waiting);
            task.parked.extend(waiting.iter().copied());
            for c in waiting {
                self.net.plan_used(c);
            }
            return None;
        }
        if self.net.flow.has_full_output(t) && !self.takes_input_when_full(t) {
            // The waiting channels wait for output room; priority items among
            // them are rescheduled by `schedule_channel` once room comes.
            let waiting = std::mem::take(&mut self.tasks[t as usize].waiting);
            self.net.flow.stall_inputs(t, waiting.iter().copied());
            for &c in &waiting {
                self.net.plan_used(c);
            }
            self.stall(t);
            for c in waiting {
                self.wake_for_priority(c, time);
            }
            return None;
        }
        let task = &mut self.tasks[t as usize];
        if task.busy_until > time {
            self.schedule_wake(t);
            return None;
        }
        if task.waiting.is_empty() {
            return None;
        }
        let i = self.clock.rng.below(task.waiting.len() as u64) as usize;
        let c = task.waiting.swap_remove(i);
        self.net.plan_used(c);
        let ch = &self.net.channels[c as usize];
        if ch.paused || ch.queue.is_empty() {
            self.schedule_wake(t);
            return None;
        }
        self.clock.now = time;
        self.clock.steps += 1;
        self.deliver(c);
        self.schedule_wake(t);
        Some(Action::Deliver { channel: c })
    }

    /// Task `t` replays the next item of its alignment buffer (step ④).
    fn on_replay_due(&mut self, t: TaskId, time: u64) -> Option<Action> {
        let task = &mut self.tasks[t as usize];
        task.replay_scheduled = false;
        if !task.handler.has_replay() {
            return None;
        }
        if self.net.flow.has_full_output(t) {
            // `refresh_credit` reschedules the replay when room comes.
            self.stall(t);
            return None;
        }
        if task.busy_until > time {
            task.replay_scheduled = true;
            let at = task.busy_until;
            self.schedule(at, Due::Replay(t));
            return None;
        }
        self.clock.now = time;
        self.clock.steps += 1;
        self.replay(t);
        Some(Action::Replay { task: t })
    }

    /// Task `t` acts on its own: a source reads its next line, a process sends.
    fn on_emit_due(&mut self, t: TaskId, time: u64) -> Option<Action> {
        if self.tasks[t as usize].finished || self.tasks[t as usize].data_ended {
            return None;
        }
        let kind = &self.phys.operator_of(t).kind;
        let stale = self.tasks[t as usize].act_at != time;
        if kind.is_process() && (stale || !self.can_act(t)) {
            // A planned act that was replaced (the token came back, a manual
            // act), or a process with nothing to send: a process without the
            // token waits for it, an account without money tries again at its
            // next turn (it may have been paid meanwhile).
            if let (false, OperatorKind::Account { interval, .. }) = (stale, kind) {
                let at = self.next_account_act(time, *interval);
                self.tasks[t as usize].act_at = at;
                self.schedule(at, Due::Emit(t));
            }
            return None;
        }
        if super::synchronous::stop_source(self, t, time) {
            return None;
        }
        if self.net.flow.has_full_output(t) {
            self.net.flow.stall_emit(t);
            self.stall(t);
            return None;
        }
        self.clock.now = time;
        self.clock.steps += 1;
        self.emit(t);
        match self.phys.operator_of(t).kind {
            OperatorKind::Source { interval, .. } if !self.tasks[t as usize].data_ended => {
                self.schedule(time.saturating_add(interval), Due::Emit(t));
            }
            OperatorKind::Account { interval, .. } => {
                let at = self.next_account_act(time, interval);
                self.tasks[t as usize].act_at = at;
                self.schedule(at, Due::Emit(t));
            }
            _ => {}
        }
        Some(Action::Emit { task: t })
    }

    /// The periodic trigger's timer, as Flink's `ScheduledTrigger` and `CheckpointRequestDecider`
    /// run it: the timer keeps its interval's grid; its request starts a checkpoint if it may,
    /// waits in the queue while the most run, and is turned away inside the minimum pause after
    /// the latest completed checkpoint, the timer then starting again when the pause ends.
    fn on_trigger_due(&mut self, timer: u32, time: u64) -> Option<Action> {
        if timer != self.coordinator.timer || self.life.done {
            // An older timer, or the job is over: no more.
            return None;
        }
        let next = self
            .config
            .checkpoint_interval
            .map(|interval| time.saturating_add(interval));
        if self.life.down_until.is_some() {
            // A region is restarting: Flink's coordinator declines the trigger (not all
            // required tasks are running); the timer goes on.
            if let Some(at) = next {
                self.schedule(at, Due::Trigger(timer));
            }
            return None;
        }
        if self.refuses_checkpoints_after_finish() {
            // Flink's coordinator declines every trigger from now on (not all required tasks
            // are running): the timer stops here, and a restart starts a new one.
            return None;
        }
        if self.trigger_would_wait() {
            // The request waits in the queue; the timer goes on.
            let co = &mut self.coordinator;
            co.periodic_waiting = (co.periodic_waiting + 1).min(MAX_QUEUED);
            if let Some(at) = next {
                self.schedule(at, Due::Trigger(timer));
            }
            return None;
        }
        let started = self.start_periodic(time);
        if started.is_some() {
            if let Some(at) = next {
                self.schedule(at, Due::Trigger(timer));
            }
        }
        started
    }

    /// Whether a periodic trigger's request would wait in the queue now: a trigger by hand or
    /// a savepoint waits before it, or the most checkpoints run.
    fn trigger_would_wait(&self) -> bool {
        let co = &self.coordinator;
        co.manual_waiting > 0 || co.savepoints_waiting > 0 || !co.has_room()
    }

    /// The periodic timer's ticks that can change nothing: each is declined while a region
    /// restarts, or its request would wait with Flink's queue of waiting requests already
    /// full ([`MAX_QUEUED`]). A job held up for good (a subtask whose processing never ends, a
    /// checkpoint with no timeout, a restart that takes for ever) would otherwise walk them one
    /// interval at a time to the end of time, inside one step. Those before the next other
    /// event (or planned failure) are skipped at once, the PRNG advanced by the draw each would
    /// have taken, so the run is the one walking them gives. When nothing else is planned,
    /// nothing will happen on its own again: `Idle` (the step is `None`; the timer stays, for
    /// whatever the user does next).
    fn turned_away_ticks(&mut self) -> Ticks {
        let Some((at, Due::Trigger(timer), next)) = self.clock.lone_first() else {
            return Ticks::Live;
        };
        let Some(interval) = self.config.checkpoint_interval.filter(|&i| i > 0) else {
            return Ticks::Live;
        };
        // As `on_trigger_due` decides: declined while a region restarts; else queued, and
        // with the queue full, dropped. (The cheap checks first: a lone tick at the head of
        // the queue is common, and the last one looks at every task.)
        let turned_away = self.life.down_until.is_some()
            || (self.coordinator.periodic_waiting >= MAX_QUEUED
                && self.trigger_would_wait()
                && !self.refuses_checkpoints_after_finish());
        if timer != self.coordinator.timer || self.life.done || at < self.clock.now || !turned_away
        {
            return Ticks::Live;
        }
        let failure = (self.life.planned.iter())
            .filter(|f| !f.applied && !f.skipped)
            .map(|f| f.at)
            .min();
        let Some(until) = next.into_iter().chain(failure).min() else {
            return Ticks::Idle;
        };
        if until <= at {
            return Ticks::Live;
        }
        // The ticks at `at`, `at + interval`, … before `until`, each alone at its time: each
        // pop would have drawn once from the PRNG.
        let ticks = (until - at).div_ceil(interval);
        self.clock.pop();
        self.clock.rng.skip(ticks - 1);
        let resume = at.saturating_add(ticks.saturating_mul(interval));
        self.schedule(resume, Due::Trigger(timer));
        Ticks::Skipped
    }

    /// A periodic trigger that waited in the queue: a checkpoint has ended.
    fn on_queued_trigger_due(&mut self, time: u64) -> Option<Action> {
        if self.life.done
            || self.life.failing
            || self.life.down_until.is_some()
            || self.refuses_checkpoints_after_finish()
            || self.coordinator.periodic_waiting == 0
            || self.coordinator.manual_waiting > 0
            || self.coordinator.savepoints_waiting > 0
            || !self.coordinator.has_room()
        {
            return None;
        }
        self.coordinator.periodic_waiting -= 1;
        let started = self.start_periodic(time);
        if started.is_some() && self.coordinator.periodic_waiting > 0 && self.coordinator.has_room()
        {
            self.schedule(time, Due::QueuedTrigger);
        }
        started
    }

    /// A periodic request the coordinator has room for: it starts a checkpoint, unless the
    /// minimum pause turns it away, when the timer starts again at the pause's end.
    fn start_periodic(&mut self, time: u64) -> Option<Action> {
        match self.coordinator.earliest_trigger(time) {
            Some(at) if at <= time => {
                self.clock.now = time;
                self.clock.steps += 1;
                self.trigger();
                Some(Action::Trigger)
            }
            Some(at) => {
                self.coordinator.timer += 1;
                self.schedule(at, Due::Trigger(self.coordinator.timer));
                None
            }
            None => None,
        }
    }

    /// A savepoint or a trigger by hand waited while the most checkpoints ran that may; one
    /// has ended. Savepoints go first, as in Flink's queue.
    fn on_manual_trigger_due(&mut self, time: u64) -> Option<Action> {
        let co = &self.coordinator;
        if self.life.done
            || self.life.failing
            || self.life.down_until.is_some()
            || self.refuses_checkpoints_after_finish()
            || co.manual_waiting + co.savepoints_waiting == 0
            || !co.has_room()
        {
            return None;
        }
        self.clock.now = time;
        self.clock.steps += 1;
        let action = if self.coordinator.savepoints_waiting > 0 {
            self.coordinator.savepoints_waiting -= 1;
            self.trigger_savepoint();
            Action::Savepoint
        } else {
            self.coordinator.manual_waiting -= 1;
            self.trigger();
            Action::Trigger
        };
        // As Flink takes the next queued request once one is triggered: a completion that
        // subsumed older checkpoints may have made room for more than one.
        let co = &self.coordinator;
        if co.manual_waiting + co.savepoints_waiting > 0 && co.has_room() {
            self.schedule(time, Due::ManualTrigger);
        }
        Some(action)
    }

    /// A savepoint asked for ahead: it is asked for now, as by hand (it starts, or waits for
    /// a checkpoint to end), unless the coordinator takes none now.
    fn on_planned_savepoint(&mut self, time: u64) -> Option<Action> {
        let now = self.clock.now;
        self.clock.now = time;
        match self.apply(Action::Savepoint) {
            Ok(()) => Some(Action::Savepoint),
            Err(_) => {
                self.clock.now = now;
                None
            }
        }
    }

    /// Aligned with a timeout: checkpoint `n` has aligned as long as it may.
    fn on_alignment_timeout(&mut self, n: CheckpointId, time: u64) -> Option<Action> {
        if self.coordinator.alignment_deadline(n).is_none() || self.coordinator.timed_out(n) {
            return None;
        }
        self.clock.now = time;
        self.clock.steps += 1;
        self.time_out_checkpoint(n);
        Some(Action::TimeOutAlignment { checkpoint: n })
    }

    /// Checkpoint `id` has run out of time.
    fn on_expiry_due(&mut self, id: CheckpointId, time: u64) -> Option<Action> {
        self.coordinator.deadline(id)?;
        self.clock.now = time;
        self.clock.steps += 1;
        self.expire(id);
        Some(Action::Expire { checkpoint: id })
    }

    /// Too many checkpoints failed in a row: the job fails.
    fn on_job_failure_due(&mut self, time: u64) -> Option<Action> {
        if !self.life.failing || self.life.done {
            return None;
        }
        self.clock.now = time;
        self.clock.steps += 1;
        self.fail(None);
        Some(Action::FailJob)
    }

    /// The restart delay is over: every task restores.
    fn on_restart_due(&mut self, time: u64) -> Option<Action> {
        // Not a restart planned for an earlier failure (a later one moved the restart on).
        // While a region is down the rest runs on, and a move by hand may have taken the
        // clock past the planned restart: it is then overdue, and happens now.
        if self.life.down_until.is_none_or(|d| d > time) {
            return None;
        }
        self.clock.now = time;
        self.clock.steps += 1;
        self.restart();
        Some(Action::Restart)
    }

    // ----- the event queue -----

    /// Channel `c` waits for its receiver's output room, but a priority barrier behind its
    /// head does not: wake the channel when that barrier arrives, to overtake.
    fn wake_for_priority(&mut self, c: super::vocab::ChannelId, now: u64) {
        if let Some((at, generation)) = self.net.plan_priority(c, now) {
            self.schedule(at, Due::Deliver(c, generation));
        }
    }

    pub(super) fn schedule(&mut self, time: u64, due: Due) {
        self.clock.schedule(time, due);
    }

    pub(super) fn schedule_wake(&mut self, t: TaskId) {
        let task = &mut self.tasks[t as usize];
        if task.wake_scheduled || task.waiting.is_empty() {
            return;
        }
        task.wake_scheduled = true;
        let at = task.busy_until.max(self.clock.now);
        self.schedule(at, Due::Wake(t));
    }

    pub(super) fn schedule_replay(&mut self, t: TaskId) {
        let task = &mut self.tasks[t as usize];
        if task.replay_scheduled || !task.handler.has_replay() {
            return;
        }
        task.replay_scheduled = true;
        let at = task.busy_until.max(self.clock.now);
        self.schedule(at, Due::Replay(t));
    }

    /// An account's next transfer, after a random pause averaging `interval`.
    fn next_account_act(&mut self, now: u64, interval: u64) -> u64 {
        now.saturating_add(interval / 2)
            .saturating_add(self.clock.rng.below(interval))
            .max(now + 1)
    }
}
