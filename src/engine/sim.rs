//! The simulation: subtasks, channels, the event queue and the coordinator, advanced one
//! event at a time.
//!
//! `enabled_actions()` lists what may happen now, `apply(action)` does one of them (manual
//! mode), and `step()` lets the scheduler pick the next timed event, ties broken by the seeded
//! PRNG. Both end in the same handlers, so a manual and a scheduled delivery are one code path.

use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;

use super::barrier::{BarrierHandler, BarrierMode, CheckpointId, Output};
use super::coordinator::Coordinator;
use super::model::{Config, JobGraph, OperatorKind, Partitioning};
use super::physical::{ChannelId, GraphError, Physical, TaskId};
use super::record::{Item, ItemKind, Payload, Record, RecordId};
use super::rng::SplitMix64;
use super::snapshot::{TaskMetrics, TaskSnapshot, TaskState, SINK_RECENT};
use super::trace::{AbortReason, Action, Event};

/// Latencies above this are refused (a "slow" channel is at most this slow).
pub const MAX_LATENCY: u64 = 1_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    NoSuchChannel(ChannelId),
    NoSuchTask(TaskId),
    ChannelEmpty(ChannelId),
    ChannelPaused(ChannelId),
    /// The task must first replay its alignment buffer (step ④) before reading new input.
    TaskReplaying(TaskId),
    NothingToReplay(TaskId),
    NotASource(TaskId),
    SourceFinished(TaskId),
    CannotTrigger,
    NotExpired(CheckpointId),
    BadLatency(u64),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::NoSuchChannel(c) => write!(f, "there is no channel {c}"),
            ActionError::NoSuchTask(t) => write!(f, "there is no task {t}"),
            ActionError::ChannelEmpty(c) => write!(f, "channel {c} has nothing to deliver"),
            ActionError::ChannelPaused(c) => write!(f, "channel {c} is paused"),
            ActionError::TaskReplaying(t) => write!(
                f,
                "task {t} must first drain its alignment buffer before it reads new input"
            ),
            ActionError::NothingToReplay(t) => write!(f, "task {t} holds nothing to replay"),
            ActionError::NotASource(t) => write!(f, "task {t} is not a source"),
            ActionError::SourceFinished(t) => write!(f, "source task {t} has finished"),
            ActionError::CannotTrigger => write!(
                f,
                "no checkpoint can be triggered now (too many in progress, or within the min pause)"
            ),
            ActionError::NotExpired(n) => write!(f, "checkpoint {n} has not timed out"),
            ActionError::BadLatency(l) => {
                write!(f, "latency {l} is out of range (1 to {MAX_LATENCY})")
            }
        }
    }
}

impl std::error::Error for ActionError {}

/// One input or output channel, as it is now.
#[derive(Clone, Debug)]
pub struct Channel {
    /// Items in flight or waiting at the receiver's port, oldest first.
    pub queue: VecDeque<Item>,
    pub paused: bool,
    pub latency: u64,
    /// Records the sender has put on this channel.
    pub records_sent: u64,
    /// Records from this channel the receiving operator has processed.
    pub records_received: u64,
    /// Bumped whenever the queued delivery event of this channel becomes stale.
    generation: u32,
    scheduled: bool,
}

/// One subtask, as it is now.
#[derive(Clone, Debug)]
pub struct Task {
    pub handler: BarrierHandler<Record>,
    pub state: TaskState,
    pub busy_until: u64,
    pub finished: bool,
    /// Checkpoints whose barrier reached this task, with the time of the first one.
    first_barrier: Vec<(CheckpointId, u64)>,
    /// Records held in the alignment buffer per checkpoint being aligned.
    held_records: Vec<(CheckpointId, u64)>,
    /// Records persisted as channel state per checkpoint (unaligned).
    persisted: Vec<(CheckpointId, u64)>,
    /// Round-robin position per outgoing edge.
    round_robin: Vec<u32>,
    replay_scheduled: bool,
    /// Channels whose delivery waits until the alignment buffer is drained.
    parked: Vec<ChannelId>,
    /// Channels whose head has arrived while the task was busy; when it is free, the PRNG
    /// picks one of them (a tie between items that were all ready).
    waiting: Vec<ChannelId>,
    wake_scheduled: bool,
    /// Unaligned: the snapshot taken when the first barrier came, acknowledged only once
    /// every input has delivered that barrier (or closed) and so all channel state is in.
    awaiting_ack: Option<(CheckpointId, TaskSnapshot)>,
}

impl Task {
    /// The checkpoint this task is aligning (or, unaligned, has pending), if any.
    pub fn aligning(&self) -> Option<CheckpointId> {
        self.handler.current_checkpoint()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Due {
    Deliver(ChannelId, u32),
    Replay(TaskId),
    /// The task is free again: deliver one of its waiting channels.
    Wake(TaskId),
    Emit(TaskId),
    Trigger,
    Expire(CheckpointId),
}

/// The event queue: events bucketed by virtual time. Among the events due at the same time the
/// seeded PRNG picks one uniformly — the tie-break rule — and buckets are few (times cluster
/// within one channel latency of now), so push and pop stay cheap at any graph size.
///
/// The buckets sit in a vector sorted latest first, so the earliest is popped from the end and
/// no other bucket moves. A `BTreeMap` does the same as fast but with far more code in the
/// page's wasm.
#[derive(Clone, Debug, Default)]
struct TimeQueue {
    /// `(time, events due then)`, in decreasing time, no bucket empty.
    buckets: Vec<(u64, Vec<Due>)>,
    /// Emptied buckets kept for reuse, so steady state allocates nothing.
    spare: Vec<Vec<Due>>,
    /// Where the last push went. Events pushed together are often due together (a record sent
    /// on every channel of an edge), so it is tried before searching; a stale hint just misses.
    last_push: usize,
}

impl TimeQueue {
    fn push(&mut self, time: u64, due: Due) {
        if let Some((t, bucket)) = self.buckets.get_mut(self.last_push) {
            if *t == time {
                bucket.push(due);
                return;
            }
        }
        let at = self.buckets.partition_point(|&(t, _)| t > time);
        self.last_push = at;
        match self.buckets.get_mut(at) {
            Some((t, bucket)) if *t == time => bucket.push(due),
            _ => {
                let mut bucket = self.spare.pop().unwrap_or_default();
                bucket.push(due);
                self.buckets.insert(at, (time, bucket));
            }
        }
    }

    fn pop(&mut self, rng: &mut SplitMix64) -> Option<(u64, Due)> {
        let (time, bucket) = self.buckets.last_mut()?;
        let time = *time;
        let due = bucket.swap_remove(rng.below(bucket.len() as u64) as usize);
        if bucket.is_empty() {
            if let Some((_, empty)) = self.buckets.pop() {
                self.spare.push(empty);
            }
        }
        Some((time, due))
    }

    fn first_time(&self) -> Option<u64> {
        self.buckets.last().map(|&(time, _)| time)
    }
}

#[derive(Clone, Debug)]
pub struct Simulation {
    phys: Rc<Physical>,
    config: Config,
    now: u64,
    steps: u64,
    rng: SplitMix64,
    tasks: Vec<Task>,
    channels: Vec<Channel>,
    queue: TimeQueue,
    next_record: RecordId,
    coordinator: Coordinator,
    events: Vec<Event>,
    scratch: Vec<Output<Record>>,
}

impl Simulation {
    pub fn new(graph: &JobGraph, config: &Config, seed: u64) -> Result<Simulation, GraphError> {
        let phys = Rc::new(Physical::build(graph)?);
        let tasks = phys
            .tasks
            .iter()
            .map(|t| {
                let op = &phys.graph.operators[t.operator as usize];
                Task {
                    handler: BarrierHandler::new(
                        config.mode,
                        t.inputs.len() as u32,
                        config.finished_channels_align,
                    ),
                    state: TaskState::initial(&op.kind),
                    busy_until: 0,
                    finished: false,
                    first_barrier: Vec::new(),
                    held_records: Vec::new(),
                    persisted: Vec::new(),
                    round_robin: vec![t.subtask; t.outputs.len()],
                    replay_scheduled: false,
                    parked: Vec::new(),
                    waiting: Vec::new(),
                    wake_scheduled: false,
                    awaiting_ack: None,
                }
            })
            .collect();
        let channels = phys
            .channels
            .iter()
            .map(|c| Channel {
                queue: VecDeque::new(),
                paused: false,
                latency: c.latency.clamp(1, MAX_LATENCY),
                records_sent: 0,
                records_received: 0,
                generation: 0,
                scheduled: false,
            })
            .collect();
        let mut sim = Simulation {
            coordinator: Coordinator::new(config),
            config: config.clone(),
            phys,
            now: 0,
            steps: 0,
            rng: SplitMix64::new(seed),
            tasks,
            channels,
            queue: TimeQueue::default(),
            next_record: 1,
            events: Vec::new(),
            scratch: Vec::new(),
        };
        for t in 0..sim.phys.tasks.len() {
            let info = &sim.phys.tasks[t];
            let op = &sim.phys.graph.operators[info.operator as usize];
            if let OperatorKind::Source { interval, .. } = op.kind {
                // Stagger the subtasks of one source across its interval.
                let first =
                    1 + (interval as u128 * info.subtask as u128 / op.parallelism as u128) as u64;
                sim.schedule(first, Due::Emit(t as TaskId));
            }
        }
        if sim.config.checkpoint_interval.is_some() {
            sim.schedule(sim.config.first_trigger, Due::Trigger);
        }
        Ok(sim)
    }

    // ----- reading -----

    pub fn physical(&self) -> &Physical {
        &self.phys
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn mode(&self) -> BarrierMode {
        self.config.mode
    }

    /// Virtual time of the last event.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Number of actions applied so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    /// True once every task has finished (bounded sources ended and every input closed):
    /// the job is over and nothing more will be triggered.
    pub fn job_finished(&self) -> bool {
        self.tasks.iter().all(|t| t.finished)
    }

    /// What the last action did.
    pub fn last_events(&self) -> &[Event] {
        &self.events
    }

    /// Time of the next scheduled event (stale entries may make it early, never late).
    pub fn next_time(&self) -> Option<u64> {
        self.queue.first_time().map(|t| t.max(self.now))
    }

    /// A rough count of the bytes a copy of this simulation owns (the physical graph and
    /// retained global states are shared between copies and not counted).
    pub fn approx_bytes(&self) -> usize {
        use std::mem::size_of;
        let items: usize = self.channels.iter().map(|c| c.queue.capacity()).sum();
        let task_vecs: usize = self
            .tasks
            .iter()
            .map(|t| {
                t.handler.held_count() as usize * size_of::<Record>() * 2
                    + t.state.size_bytes() as usize * 3
                    + (t.round_robin.capacity() + t.parked.capacity() + t.waiting.capacity()) * 4
                    + (t.first_barrier.capacity()
                        + t.held_records.capacity()
                        + t.persisted.capacity())
                        * 16
            })
            .sum();
        let queued: usize = self
            .queue
            .buckets
            .iter()
            .map(|(_, b)| b.capacity())
            .sum::<usize>()
            + self.queue.spare.iter().map(|b| b.capacity()).sum::<usize>();
        size_of::<Self>()
            + items * size_of::<Item>()
            + std::mem::size_of_val(&self.channels[..])
            + std::mem::size_of_val(&self.tasks[..])
            + task_vecs
            + (queued + self.queue.buckets.len()) * size_of::<Due>()
            + self.coordinator.checkpoints().len() * 64
    }

    /// The words and lines records refer to.
    pub fn describe(&self, payload: &Payload) -> String {
        match *payload {
            Payload::Line(l) => self
                .phys
                .lines
                .get(l as usize)
                .map_or_else(String::new, |l| l.text.clone()),
            Payload::Word(w) => self.word(w).to_string(),
            Payload::Count { word, count } => format!("{}={}", self.word(word), count),
        }
    }

    pub fn word(&self, w: u32) -> &str {
        self.phys.words.get(w as usize).map_or("", |s| s.as_str())
    }

    // ----- choosing -----

    /// Everything the user may do now, in a fixed order.
    pub fn enabled_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        for (c, ch) in self.channels.iter().enumerate() {
            let to = self.phys.channels[c].to as usize;
            if !ch.queue.is_empty() && !ch.paused && !self.tasks[to].handler.has_replay() {
                actions.push(Action::Deliver {
                    channel: c as ChannelId,
                });
            }
        }
        for (t, task) in self.tasks.iter().enumerate() {
            if task.handler.has_replay() {
                actions.push(Action::Replay { task: t as TaskId });
            }
        }
        for (t, task) in self.tasks.iter().enumerate() {
            if self.phys.operator_of(t as TaskId).kind.is_source() && !task.finished {
                actions.push(Action::Emit { task: t as TaskId });
            }
        }
        if self.coordinator.earliest_trigger(self.now) == Some(self.now) {
            actions.push(Action::Trigger);
        }
        for id in self.coordinator.in_progress() {
            if self.coordinator.deadline(id).is_some_and(|d| d <= self.now) {
                actions.push(Action::Expire { checkpoint: id });
            }
        }
        actions
    }

    /// Applies one action chosen by the user. Nothing changes when it is refused.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        self.check(action)?;
        self.events.clear();
        self.steps += 1;
        match action {
            Action::Deliver { channel } => {
                let ch = &mut self.channels[channel as usize];
                ch.generation = ch.generation.wrapping_add(1);
                ch.scheduled = false;
                let to = self.phys.channels[channel as usize].to as usize;
                let head = ch.queue.front().map_or(self.now, |i| i.arrives_at);
                self.tasks[to].waiting.retain(|&c| c != channel);
                self.now = self.now.max(head).max(self.tasks[to].busy_until);
                self.deliver(channel);
            }
            Action::Replay { task } => {
                let t = &self.tasks[task as usize];
                self.now = self.now.max(t.busy_until);
                self.replay(task);
            }
            Action::Emit { task } => self.emit(task),
            Action::Trigger => self.trigger(),
            Action::Expire { checkpoint } => self.expire(checkpoint),
            Action::Pause { channel, paused } => {
                let ch = &mut self.channels[channel as usize];
                ch.paused = paused;
                ch.generation = ch.generation.wrapping_add(1);
                ch.scheduled = false;
                let to = self.phys.channels[channel as usize].to as usize;
                self.tasks[to].waiting.retain(|&c| c != channel);
                self.events.push(Event::ChannelPaused { channel, paused });
                self.schedule_channel(channel);
            }
            Action::SetLatency { channel, latency } => {
                self.channels[channel as usize].latency = latency;
                self.events.push(Event::LatencyChanged { channel, latency });
            }
        }
        Ok(())
    }

    fn check(&self, action: Action) -> Result<(), ActionError> {
        let channel = |c: ChannelId| {
            self.channels
                .get(c as usize)
                .ok_or(ActionError::NoSuchChannel(c))
        };
        let task = |t: TaskId| self.tasks.get(t as usize).ok_or(ActionError::NoSuchTask(t));
        match action {
            Action::Deliver { channel: c } => {
                let ch = channel(c)?;
                let to = self.phys.channels[c as usize].to;
                if ch.queue.is_empty() {
                    return Err(ActionError::ChannelEmpty(c));
                }
                if ch.paused {
                    return Err(ActionError::ChannelPaused(c));
                }
                if self.tasks[to as usize].handler.has_replay() {
                    return Err(ActionError::TaskReplaying(to));
                }
            }
            Action::Replay { task: t } => {
                if !task(t)?.handler.has_replay() {
                    return Err(ActionError::NothingToReplay(t));
                }
            }
            Action::Emit { task: t } => {
                let tk = task(t)?;
                if !self.phys.operator_of(t).kind.is_source() {
                    return Err(ActionError::NotASource(t));
                }
                if tk.finished {
                    return Err(ActionError::SourceFinished(t));
                }
            }
            Action::Trigger => {
                if self.coordinator.earliest_trigger(self.now) != Some(self.now) {
                    return Err(ActionError::CannotTrigger);
                }
            }
            Action::Expire { checkpoint } => {
                if self
                    .coordinator
                    .deadline(checkpoint)
                    .is_none_or(|d| d > self.now)
                {
                    return Err(ActionError::NotExpired(checkpoint));
                }
            }
            Action::Pause { channel: c, .. } => {
                channel(c)?;
            }
            Action::SetLatency {
                channel: c,
                latency,
            } => {
                channel(c)?;
                if !(1..=MAX_LATENCY).contains(&latency) {
                    return Err(ActionError::BadLatency(latency));
                }
            }
        }
        Ok(())
    }

    /// The scheduler's move: runs the earliest due event (ties broken by the seeded PRNG)
    /// and returns what it did, or `None` when nothing is left to happen.
    pub fn step(&mut self) -> Option<Action> {
        self.events.clear();
        while let Some((time, due)) = self.queue.pop(&mut self.rng) {
            let time = time.max(self.now);
            let action = match due {
                Due::Deliver(c, generation) => {
                    let ch = &self.channels[c as usize];
                    if ch.generation != generation || ch.paused || ch.queue.is_empty() {
                        continue;
                    }
                    let to = self.phys.channels[c as usize].to as usize;
                    let task = &mut self.tasks[to];
                    if task.handler.has_replay() {
                        task.parked.push(c);
                        self.channels[c as usize].scheduled = false;
                        continue;
                    }
                    if task.busy_until > time {
                        // Stays `scheduled`: the task's wake-up will deliver it.
                        task.waiting.push(c);
                        self.schedule_wake(to as TaskId);
                        continue;
                    }
                    self.channels[c as usize].scheduled = false;
                    self.now = time;
                    self.steps += 1;
                    self.deliver(c);
                    Action::Deliver { channel: c }
                }
                Due::Wake(t) => {
                    let task = &mut self.tasks[t as usize];
                    task.wake_scheduled = false;
                    if task.handler.has_replay() {
                        // The waiting channels move to `parked` and resume after the replay.
                        let waiting = std::mem::take(&mut task.waiting);
                        task.parked.extend(waiting.iter().copied());
                        for c in waiting {
                            self.channels[c as usize].scheduled = false;
                        }
                        continue;
                    }
                    if task.busy_until > time {
                        self.schedule_wake(t);
                        continue;
                    }
                    if task.waiting.is_empty() {
                        continue;
                    }
                    let i = self.rng.below(task.waiting.len() as u64) as usize;
                    let c = task.waiting.swap_remove(i);
                    let ch = &mut self.channels[c as usize];
                    ch.scheduled = false;
                    if ch.paused || ch.queue.is_empty() {
                        self.schedule_wake(t);
                        continue;
                    }
                    self.now = time;
                    self.steps += 1;
                    self.deliver(c);
                    self.schedule_wake(t);
                    Action::Deliver { channel: c }
                }
                Due::Replay(t) => {
                    let task = &mut self.tasks[t as usize];
                    task.replay_scheduled = false;
                    if !task.handler.has_replay() {
                        continue;
                    }
                    if task.busy_until > time {
                        task.replay_scheduled = true;
                        let at = task.busy_until;
                        self.schedule(at, Due::Replay(t));
                        continue;
                    }
                    self.now = time;
                    self.steps += 1;
                    self.replay(t);
                    Action::Replay { task: t }
                }
                Due::Emit(t) => {
                    if self.tasks[t as usize].finished {
                        continue;
                    }
                    self.now = time;
                    self.steps += 1;
                    self.emit(t);
                    if let OperatorKind::Source { interval, .. } = self.phys.operator_of(t).kind {
                        if !self.tasks[t as usize].finished {
                            self.schedule(time.saturating_add(interval), Due::Emit(t));
                        }
                    }
                    Action::Emit { task: t }
                }
                Due::Trigger => {
                    let interval = self.config.checkpoint_interval.unwrap_or(u64::MAX);
                    match self.coordinator.earliest_trigger(time) {
                        Some(at) if at == time => {
                            self.now = time;
                            self.steps += 1;
                            self.trigger();
                            self.schedule(time.saturating_add(interval), Due::Trigger);
                            Action::Trigger
                        }
                        Some(at) => {
                            self.schedule(at, Due::Trigger);
                            continue;
                        }
                        None => {
                            self.coordinator.trigger_waiting = true;
                            continue;
                        }
                    }
                }
                Due::Expire(id) => {
                    if self.coordinator.deadline(id).is_none() {
                        continue;
                    }
                    self.now = time;
                    self.steps += 1;
                    self.expire(id);
                    Action::Expire { checkpoint: id }
                }
            };
            return Some(action);
        }
        None
    }

    // ----- the event queue -----

    fn schedule(&mut self, time: u64, due: Due) {
        self.queue.push(time, due);
    }

    fn schedule_channel(&mut self, c: ChannelId) {
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

    fn schedule_wake(&mut self, t: TaskId) {
        let task = &mut self.tasks[t as usize];
        if task.wake_scheduled || task.waiting.is_empty() {
            return;
        }
        task.wake_scheduled = true;
        let at = task.busy_until.max(self.now);
        self.schedule(at, Due::Wake(t));
    }

    fn schedule_replay(&mut self, t: TaskId) {
        let task = &mut self.tasks[t as usize];
        if task.replay_scheduled || !task.handler.has_replay() {
            return;
        }
        task.replay_scheduled = true;
        let at = task.busy_until.max(self.now);
        self.schedule(at, Due::Replay(t));
    }

    // ----- what happens -----

    fn deliver(&mut self, c: ChannelId) {
        let Some(item) = self.channels[c as usize].queue.pop_front() else {
            return;
        };
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
                task.first_barrier.push((n, self.now));
            }
        }
        self.hand_to_handler(t, Some((input, item.kind)));
        self.schedule_channel(c);
    }

    fn replay(&mut self, t: TaskId) {
        self.hand_to_handler(t, None);
        let task = &mut self.tasks[t as usize];
        if !task.handler.has_replay() {
            let parked = std::mem::take(&mut task.parked);
            for c in parked {
                self.schedule_channel(c);
            }
        }
    }

    /// Gives one arriving item (or, with `None`, the next replayed one) to the task's
    /// barrier handler and carries out what the handler decides.
    fn hand_to_handler(&mut self, t: TaskId, arriving: Option<(u32, ItemKind)>) {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let task = &mut self.tasks[t as usize];
        let held_before = task.handler.held_count();
        let aligning_before = task.handler.current_checkpoint();
        let replayed = match arriving {
            Some((input, kind)) => {
                task.handler.receive(input, kind.to_input(), &mut out);
                None
            }
            None => {
                let next = task
                    .handler
                    .peek_replay()
                    .map(|(input, item)| (input, ItemKind::from_input(item)));
                task.handler.replay_one(&mut out);
                next
            }
        };
        let held_after = task.handler.held_count();
        let aligning_after = task.handler.current_checkpoint();
        if let Some((input, kind)) = replayed {
            let channel = self.phys.tasks[t as usize].inputs[input as usize];
            self.events.push(Event::Replayed {
                task: t,
                channel,
                item: kind,
            });
        }
        // An item went into the buffer: either the arriving one, or a replayed one held again.
        if held_after > held_before || (replayed.is_some() && held_after == held_before) {
            if let Some((input, kind)) = arriving.or(replayed) {
                let channel = self.phys.tasks[t as usize].inputs[input as usize];
                self.events.push(Event::Held {
                    task: t,
                    channel,
                    item: kind,
                });
                if let (ItemKind::Record(_), Some(n)) = (kind, aligning_after) {
                    bump(&mut self.tasks[t as usize].held_records, n);
                }
            }
        }
        if aligning_after != aligning_before && self.config.mode == BarrierMode::Aligned {
            if let Some(n) = aligning_after {
                self.events.push(Event::AlignmentStarted {
                    task: t,
                    checkpoint: n,
                });
            }
        }
        if self.config.mode == BarrierMode::Aligned {
            self.report_blocking(t, aligning_after);
        }
        for o in out.drain(..) {
            self.carry_out(t, o);
        }
        self.scratch = out;
        self.acknowledge_when_recorded(t);
        // An alignment ended (completed or given up): the blocked inputs flow again.
        if self.config.mode == BarrierMode::Aligned
            && aligning_before.is_some()
            && self.tasks[t as usize].handler.current_checkpoint() != aligning_before
        {
            self.events.push(Event::Unblocked { task: t });
        }
        self.schedule_replay(t);
    }

    /// Emits `Blocked` for channels that became blocked; cheap enough to run on each
    /// barrier-related step only.
    fn report_blocking(&mut self, t: TaskId, aligning: Option<CheckpointId>) {
        let Some(n) = aligning else { return };
        let last = self.events.iter().rev().find_map(|e| match e {
            Event::Arrived { item, .. } | Event::Replayed { item, .. } => Some(*item),
            _ => None,
        });
        if !matches!(last, Some(ItemKind::Barrier(_))) {
            return;
        }
        let inputs = &self.phys.tasks[t as usize].inputs;
        let handler = &self.tasks[t as usize].handler;
        let already: Vec<ChannelId> = self
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Blocked { task, channel, .. } if *task == t => Some(*channel),
                _ => None,
            })
            .collect();
        let newly: Vec<ChannelId> = self
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Arrived { channel, .. } | Event::Replayed { channel, .. } => Some(*channel),
                _ => None,
            })
            .filter(|c| {
                let input = self.phys.channels[*c as usize].input_index;
                handler.is_blocked(input) && !already.contains(c) && inputs.contains(c)
            })
            .collect();
        for channel in newly {
            self.events.push(Event::Blocked {
                task: t,
                channel,
                checkpoint: n,
            });
        }
    }

    fn carry_out(&mut self, t: TaskId, output: Output<Record>) {
        match output {
            Output::Record { ch, record } => {
                let channel = self.phys.tasks[t as usize].inputs[ch as usize];
                self.channels[channel as usize].records_received += 1;
                self.process(t, channel, record);
            }
            Output::Triggered(n) => self.snapshot_task(t, n),
            Output::Aborted(n) => {
                self.events.push(Event::TaskAborted {
                    task: t,
                    checkpoint: n,
                });
                self.forget(t, n);
                let task = &mut self.tasks[t as usize];
                if task.awaiting_ack.as_ref().is_some_and(|(id, _)| *id == n) {
                    task.awaiting_ack = None;
                }
                self.broadcast(t, ItemKind::Cancel(n));
                if self
                    .coordinator
                    .abort(n, AbortReason::Declined { task: t }, self.now)
                {
                    self.events.push(Event::CheckpointAborted {
                        checkpoint: n,
                        reason: AbortReason::Declined { task: t },
                    });
                    self.after_checkpoint_end();
                }
            }
            Output::EndOfPartition(ch) => {
                let channel = self.phys.tasks[t as usize].inputs[ch as usize];
                self.events.push(Event::PartitionEnded { task: t, channel });
                let inputs = self.phys.tasks[t as usize].inputs.len() as u32;
                let handler = &self.tasks[t as usize].handler;
                if (0..inputs).all(|i| handler.is_closed(i)) && !self.tasks[t as usize].finished {
                    self.finish(t);
                }
            }
            Output::ChannelState {
                checkpoint,
                ch,
                record,
            } => {
                let channel = self.phys.tasks[t as usize].inputs[ch as usize];
                self.events.push(Event::ChannelState {
                    task: t,
                    checkpoint,
                    channel,
                    record,
                });
                bump(&mut self.tasks[t as usize].persisted, checkpoint);
                self.coordinator
                    .record_channel_state(checkpoint, channel, record);
            }
        }
    }

    /// The operator's work on one record.
    fn process(&mut self, t: TaskId, channel: ChannelId, record: Record) {
        let phys = Rc::clone(&self.phys);
        let op = phys.operator_of(t);
        let mut emitted: u32 = 0;
        let mut emit = |sim: &mut Simulation, payload: Payload| {
            let r = Record {
                id: sim.next_record,
                parent: record.id,
                payload,
            };
            sim.next_record += 1;
            emitted += 1;
            sim.send_record(t, r);
        };
        match &op.kind {
            OperatorKind::Split => match record.payload {
                Payload::Line(l) => {
                    for &w in phys.lines.get(l as usize).map_or(&[][..], |l| &l.words[..]) {
                        emit(self, Payload::Word(w));
                    }
                }
                p => emit(self, p),
            },
            OperatorKind::Filter { min_len } => {
                let pass = match record.payload {
                    Payload::Word(w) | Payload::Count { word: w, .. } => {
                        self.word(w).chars().count() as u32 >= *min_len
                    }
                    Payload::Line(_) => true,
                };
                if pass {
                    emit(self, record.payload);
                }
            }
            OperatorKind::Count => {
                let words: Vec<u32> = match record.payload {
                    Payload::Word(w) | Payload::Count { word: w, .. } => vec![w],
                    Payload::Line(l) => phys
                        .lines
                        .get(l as usize)
                        .map_or_else(Vec::new, |l| l.words.clone()),
                };
                for w in words {
                    let count = match &mut self.tasks[t as usize].state {
                        TaskState::Count { counts } => {
                            let c = counts.get_or_default(w);
                            *c += 1;
                            *c
                        }
                        _ => 0,
                    };
                    emit(self, Payload::Count { word: w, count });
                }
            }
            OperatorKind::Sink => {
                if let TaskState::Sink {
                    received, recent, ..
                } = &mut self.tasks[t as usize].state
                {
                    *received += 1;
                    if recent.len() == SINK_RECENT {
                        recent.pop_front();
                    }
                    recent.push_back(record.payload);
                }
            }
            OperatorKind::Map | OperatorKind::Union | OperatorKind::Source { .. } => {
                emit(self, record.payload)
            }
        }
        if let TaskState::Stateless { processed } = &mut self.tasks[t as usize].state {
            *processed += 1;
        }
        let task = &mut self.tasks[t as usize];
        task.busy_until = task
            .busy_until
            .max(self.now)
            .saturating_add(op.processing_time);
        self.events.push(Event::Processed {
            task: t,
            channel,
            record,
            emitted,
        });
    }

    fn emit(&mut self, t: TaskId) {
        let phys = Rc::clone(&self.phys);
        let info = &phys.tasks[t as usize];
        let op = &phys.graph.operators[info.operator as usize];
        let OperatorKind::Source { bounded, .. } = op.kind else {
            return;
        };
        let Some(lines) = phys.source_lines.get(&info.operator) else {
            return;
        };
        let TaskState::Source { offset } = self.tasks[t as usize].state else {
            return;
        };
        let p = op.parallelism as u64;
        let sub = info.subtask as u64;
        // Subtask s reads lines s, s+p, s+2p …; a bounded log ends after one pass.
        let mine = (lines.len() as u64 + p - 1 - sub) / p;
        if bounded && offset >= mine {
            self.finish(t);
            self.events.push(Event::SourceEnded { task: t });
            return;
        }
        let line = lines[((sub + offset * p) % lines.len() as u64) as usize];
        let record = Record {
            id: self.next_record,
            parent: 0,
            payload: Payload::Line(line),
        };
        self.next_record += 1;
        self.tasks[t as usize].state = TaskState::Source { offset: offset + 1 };
        self.events.push(Event::SourceRead {
            task: t,
            offset,
            record,
        });
        self.send_record(t, record);
        let task = &mut self.tasks[t as usize];
        task.busy_until = task
            .busy_until
            .max(self.now)
            .saturating_add(op.processing_time);
    }

    fn send_record(&mut self, t: TaskId, r: Record) {
        let phys = Rc::clone(&self.phys);
        let info = &phys.tasks[t as usize];
        for (e, group) in info.outputs.iter().enumerate() {
            if group.is_empty() {
                continue;
            }
            let edge = phys.channels[group[0] as usize].edge as usize;
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
                        Payload::Word(w) | Payload::Count { word: w, .. } => {
                            phys.word_hash.get(w as usize).copied().unwrap_or(0)
                        }
                        Payload::Line(l) => l.wrapping_mul(0x9E37_79B9),
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

    fn broadcast(&mut self, t: TaskId, kind: ItemKind) {
        let phys = Rc::clone(&self.phys);
        for &c in phys.tasks[t as usize].outputs.iter().flatten() {
            self.send(c, kind);
        }
    }

    fn send(&mut self, c: ChannelId, kind: ItemKind) {
        let ch = &mut self.channels[c as usize];
        let arrives_at = ch
            .queue
            .back()
            .map_or(0, |i| i.arrives_at)
            .max(self.now.saturating_add(ch.latency));
        if matches!(kind, ItemKind::Record(_)) {
            ch.records_sent += 1;
        }
        ch.queue.push_back(Item {
            kind,
            sent_at: self.now,
            arrives_at,
        });
        self.schedule_channel(c);
    }

    /// Unaligned checkpoints: the barrier is a priority event. It overtakes every record
    /// queued on the channel — those records become this checkpoint's channel state — but not
    /// the priority events already ahead of them (older barriers, cancellation markers), so
    /// barriers keep their order.
    fn send_overtaking(&mut self, c: ChannelId, n: CheckpointId) -> u64 {
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
            .map_or(self.now.saturating_add(ch.latency), |h| {
                h.arrives_at.min(self.now.saturating_add(ch.latency))
            })
            .max(after_previous);
        ch.queue.insert(
            at,
            Item {
                kind: ItemKind::Barrier(n),
                sent_at: self.now,
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
        self.schedule_channel(c);
        overtaken.len() as u64
    }

    /// Step ③: snapshot the state, forward the barrier, acknowledge.
    fn snapshot_task(&mut self, t: TaskId, n: CheckpointId) {
        let phys = Rc::clone(&self.phys);
        let info = &phys.tasks[t as usize];
        self.events.push(Event::Snapshot {
            task: t,
            checkpoint: n,
        });
        let mut persisted = take(&mut self.tasks[t as usize].persisted, n);
        // Counters are read before the barrier goes out: they are what the cut contains.
        let received = info
            .inputs
            .iter()
            .map(|&c| self.channels[c as usize].records_received)
            .collect();
        let sent = info
            .outputs
            .iter()
            .flatten()
            .map(|&c| self.channels[c as usize].records_sent)
            .collect();
        for &c in info.outputs.iter().flatten() {
            if self.config.mode == BarrierMode::Unaligned {
                persisted += self.send_overtaking(c, n);
            } else {
                self.send(c, ItemKind::Barrier(n));
            }
        }
        let task = &mut self.tasks[t as usize];
        let trigger_time = self
            .coordinator
            .summary(n)
            .map_or(self.now, |s| s.trigger_time);
        let first = take(&mut task.first_barrier, n).max(trigger_time);
        let first = if info.inputs.is_empty() {
            self.now
        } else {
            first
        };
        let metrics = TaskMetrics {
            ack_time: self.now,
            start_delay: first.saturating_sub(trigger_time),
            alignment_duration: self.now.saturating_sub(first),
            records_held: take(&mut task.held_records, n),
            state_size: task.state.size_bytes(),
            persisted_in_flight: persisted,
        };
        // Older bookkeeping can never be used again: ids only grow.
        task.first_barrier.retain(|&(id, _)| id > n);
        task.held_records.retain(|&(id, _)| id > n);
        task.persisted.retain(|&(id, _)| id > n);
        let snapshot = TaskSnapshot {
            task: t,
            state: task.state.clone(),
            received,
            sent,
            metrics,
        };
        if task.handler.current_checkpoint() == Some(n)
            && self.config.mode == BarrierMode::Unaligned
        {
            task.awaiting_ack = Some((n, snapshot));
        } else {
            self.acknowledge(t, n, snapshot);
        }
    }

    /// Unaligned: acknowledges the waiting snapshot once its channel state is complete.
    fn acknowledge_when_recorded(&mut self, t: TaskId) {
        let task = &mut self.tasks[t as usize];
        let Some((n, _)) = task.awaiting_ack else {
            return;
        };
        if task.handler.current_checkpoint() == Some(n) {
            return;
        }
        let Some((n, mut snapshot)) = task.awaiting_ack.take() else {
            return;
        };
        snapshot.metrics.ack_time = self.now;
        snapshot.metrics.persisted_in_flight += take(&mut task.persisted, n);
        self.acknowledge(t, n, snapshot);
    }

    fn acknowledge(&mut self, t: TaskId, n: CheckpointId, snapshot: TaskSnapshot) {
        let Some(acked) = self.coordinator.ack(n, snapshot) else {
            return;
        };
        self.events.push(Event::Acknowledged {
            task: t,
            checkpoint: n,
            acked,
            total: self.phys.task_count(),
        });
        if self.coordinator.is_complete(n) {
            self.complete(n);
        }
    }

    fn complete(&mut self, n: CheckpointId) {
        let Some(gs) = self.coordinator.take_complete(n, self.now, &self.phys) else {
            return;
        };
        self.events
            .push(Event::CheckpointCompleted { checkpoint: n });
        // Notify-complete: transactional sinks commit what their snapshot pre-committed.
        for snap in &gs.tasks {
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
        // Subsumption: a completed checkpoint makes every older running one pointless.
        let older: Vec<CheckpointId> = self
            .coordinator
            .in_progress()
            .filter(|&id| id < n)
            .collect();
        for id in older {
            if self.coordinator.abort(id, AbortReason::Subsumed, self.now) {
                self.events.push(Event::CheckpointAborted {
                    checkpoint: id,
                    reason: AbortReason::Subsumed,
                });
            }
        }
        self.after_checkpoint_end();
    }

    fn trigger(&mut self) {
        let n = self.coordinator.start(self.now, self.phys.task_count());
        self.events
            .push(Event::CheckpointTriggered { checkpoint: n });
        let deadline = self.now.saturating_add(self.coordinator.timeout);
        self.schedule(deadline, Due::Expire(n));
        // Sources snapshot their offsets and inject the barrier; finished tasks acknowledge
        // with their final state (checkpoints after tasks finish).
        for t in 0..self.phys.task_count() {
            let is_source = self.phys.operator_of(t).kind.is_source();
            if is_source || self.tasks[t as usize].finished {
                if self.tasks[t as usize].finished {
                    let snapshot = self.final_snapshot(t);
                    self.acknowledge(t, n, snapshot);
                } else {
                    self.snapshot_task(t, n);
                }
            }
        }
    }

    fn final_snapshot(&self, t: TaskId) -> TaskSnapshot {
        let info = &self.phys.tasks[t as usize];
        let task = &self.tasks[t as usize];
        TaskSnapshot {
            task: t,
            state: task.state.clone(),
            received: info
                .inputs
                .iter()
                .map(|&c| self.channels[c as usize].records_received)
                .collect(),
            sent: info
                .outputs
                .iter()
                .flatten()
                .map(|&c| self.channels[c as usize].records_sent)
                .collect(),
            metrics: TaskMetrics {
                ack_time: self.now,
                state_size: task.state.size_bytes(),
                ..TaskMetrics::default()
            },
        }
    }

    fn expire(&mut self, n: CheckpointId) {
        if self.coordinator.abort(n, AbortReason::Expired, self.now) {
            self.events.push(Event::CheckpointAborted {
                checkpoint: n,
                reason: AbortReason::Expired,
            });
            // Cancellation markers follow the barriers, so tasks still aligning the expired
            // checkpoint give it up as soon as a marker reaches an unblocked input.
            for t in 0..self.phys.task_count() {
                if self.phys.operator_of(t).kind.is_source() && !self.tasks[t as usize].finished {
                    self.broadcast(t, ItemKind::Cancel(n));
                }
            }
            self.after_checkpoint_end();
        }
    }

    fn after_checkpoint_end(&mut self) {
        if self.coordinator.trigger_waiting {
            if let Some(at) = self.coordinator.earliest_trigger(self.now) {
                self.coordinator.trigger_waiting = false;
                self.schedule(at, Due::Trigger);
            }
        }
    }

    fn forget(&mut self, t: TaskId, n: CheckpointId) {
        let task = &mut self.tasks[t as usize];
        take(&mut task.first_barrier, n);
        take(&mut task.held_records, n);
        take(&mut task.persisted, n);
    }

    fn finish(&mut self, t: TaskId) {
        self.tasks[t as usize].finished = true;
        self.broadcast(t, ItemKind::EndOfPartition);
        self.events.push(Event::TaskFinished { task: t });
    }
}

fn bump(counters: &mut Vec<(CheckpointId, u64)>, n: CheckpointId) {
    match counters.iter_mut().find(|(id, _)| *id == n) {
        Some((_, c)) => *c += 1,
        None => counters.push((n, 1)),
    }
}

fn take(counters: &mut Vec<(CheckpointId, u64)>, n: CheckpointId) -> u64 {
    match counters.iter().position(|(id, _)| *id == n) {
        Some(i) => counters.swap_remove(i).1,
        None => 0,
    }
}
