//! The simulation: a dispatcher over the parts — the physical graph, the clock, the network,
//! the tasks, the coordinator, the lifecycle — advanced one event at a time.
//!
//! `enabled_actions()` lists what may happen now (`action.rs`), `apply(action)` does one of
//! them (manual mode), and `step()` lets the scheduler pick the next timed event, ties broken by
//! the seeded PRNG (`scheduler.rs`). Both end in the same handlers, so a manual and a scheduled
//! delivery are one code path. What each concept does lives in its own file: `network.rs`
//! (channels, credit and their delivery discipline) with `delivery.rs` (the simulation's side
//! of it), `input.rs` (a subtask's input side and its barrier handler), `operator.rs` (what an
//! operator does with a record), `routing.rs` (partitionings), `checkpoint.rs` (trigger,
//! snapshot, acknowledge, complete, expire, subsume) and `clock.rs` (time and the time queue).

use std::rc::Rc;

use super::barrier::{BarrierHandler, BarrierMode, BarrierPolicy, Description, Handler, Output};
use super::chaining::Chains;
use super::channel::Channel;
use super::clock::Clock;
use super::coordinator::Coordinator;
use super::flow::FlowControl;
use super::initiators::Initiators;
use super::lifecycle::Lifecycle;
use super::lifecycle::{PlannedFailure, Recovery};
use super::model::{Config, JobGraph, OperatorKind};
use super::modes::check_mode;
pub use super::modes::{modes_for, modes_of, Capabilities};
use super::network::Network;
use super::operator::Edges;
use super::physical::{ChannelId, GraphError, Physical, TaskId};
use super::record::{Payload, Record, RecordId};
use super::snapshot::TaskState;
use super::task::Task;
use super::trace::Event;
use super::vocab::{Action, ActionError, Due};

pub use super::vocab::MAX_LATENCY;

#[derive(Debug)]
pub struct Simulation {
    pub(super) phys: Rc<Physical>,
    pub(super) config: Config,
    /// Virtual time, steps, the seeded PRNG and the time queue (`clock.rs`).
    pub(super) clock: Clock,
    pub(super) tasks: Vec<Task>,
    /// Every channel and every task's credit, and the delivery discipline (`network.rs`).
    pub(super) net: Network,
    pub(super) next_record: RecordId,
    pub(super) coordinator: Coordinator,
    pub(super) events: Vec<Event>,
    /// Where the job is: running, down until its restart, failing, finishing, done; its
    /// planned failures and restarts (`lifecycle.rs`).
    pub(super) life: Lifecycle,
    pub(super) scratch: Vec<Output<Record>>,
    /// The channels a record is routed to (reused, so that routing allocates nothing).
    pub(super) targets: Vec<ChannelId>,
    /// The records an operator emits for one record (reused, so that processing allocates
    /// nothing).
    pub(super) outbox: Vec<(Record, Edges)>,
    /// Chandy-Lamport: who initiates the periodic snapshots (see [`Config::initiators`]).
    pub(super) initiators: Initiators,
    /// The seed it was built with: with the physical graph and the configuration, what builds
    /// it again at step 0 (the history's first keyframe, [`Simulation::rebuilt`]).
    pub(super) seed: u64,
}

/// A copy (a history keyframe): everything but the buffers a step reuses, which are empty
/// between steps (each use clears them before and after) — a copy starts them empty, and its
/// code does not clone what they would hold.
impl Clone for Simulation {
    fn clone(&self) -> Simulation {
        let Simulation {
            phys,
            config,
            clock,
            tasks,
            net,
            next_record,
            coordinator,
            events,
            life,
            scratch: _,
            targets: _,
            outbox: _,
            initiators,
            seed,
        } = self;
        Simulation {
            phys: Rc::clone(phys),
            config: config.clone(),
            clock: clock.clone(),
            tasks: tasks.clone(),
            net: net.clone(),
            next_record: *next_record,
            coordinator: coordinator.clone(),
            events: events.clone(),
            life: life.clone(),
            scratch: Vec::new(),
            targets: Vec::new(),
            outbox: Vec::new(),
            initiators: initiators.clone(),
            seed: *seed,
        }
    }
}

impl Simulation {
    pub fn new(graph: &JobGraph, config: &Config, seed: u64) -> Result<Simulation, GraphError> {
        Simulation::on(Rc::new(Physical::build(graph)?), config, seed)
    }

    /// The simulation this one was at step 0, built again from its physical graph (shared),
    /// its configuration (which no step changes) and its seed, with the failures planned then
    /// (`planned`): what the history keeps instead of a copy of step 0.
    pub(super) fn rebuilt(&self, planned: &[PlannedFailure]) -> Result<Simulation, GraphError> {
        let mut sim = Simulation::on(Rc::clone(&self.phys), &self.config, self.seed)?;
        sim.life.planned = planned.to_vec();
        Ok(sim)
    }

    /// Lets go of the channels and tasks, the bulk of a large job, just before this simulation
    /// is replaced by a copy (a seek back to a keyframe), so that a third copy is never held.
    /// Nothing may read it before it is replaced.
    pub(super) fn let_go(&mut self) {
        self.net.channels = Vec::new();
        self.tasks = Vec::new();
    }

    fn on(phys: Rc<Physical>, config: &Config, seed: u64) -> Result<Simulation, GraphError> {
        let (initiators, initiate_together) = check_mode(&phys, config)?;
        let policies = BarrierPolicy::resolve(&phys, config);
        let tasks: Vec<Task> = phys
            .tasks
            .iter()
            .enumerate()
            .map(|(id, t)| {
                let op = &phys.graph.operators[t.operator as usize];
                Task::new(
                    handler_for(&phys, config, &policies, id as TaskId),
                    TaskState::initial(&op.kind),
                    vec![t.subtask; t.outputs.len()],
                )
            })
            .collect();
        let chains = Rc::new(Chains::new(&phys, config.chaining));
        let net = Network::new(&phys, policies, config.buffer_debloat, chains);
        let mut sim = Simulation {
            coordinator: Coordinator::new(config),
            config: config.clone(),
            phys,
            clock: Clock::new(seed),
            net,
            tasks,
            next_record: 1,
            events: Vec::new(),
            life: Lifecycle::default(),
            scratch: Vec::new(),
            targets: Vec::new(),
            outbox: Vec::new(),
            initiators: Initiators::new(initiators, initiate_together),
            seed,
        };
        sim.start();
        Ok(sim)
    }

    /// Plans the first acts of every task and the first periodic trigger, from now: at the
    /// start, and again when the job restarts after a failure.
    pub(super) fn start(&mut self) {
        let all: Vec<TaskId> = (0..self.phys.task_count()).collect();
        self.start_tasks(&all);
        if self.config.checkpoint_interval.is_some() {
            // A new timer, as Flink's coordinator starts its scheduler again after a restart.
            self.coordinator.timer += 1;
            let timer = self.coordinator.timer;
            self.schedule(
                self.clock.now.saturating_add(self.config.first_trigger),
                Due::Trigger(timer),
            );
        }
    }

    /// Tasks `tasks` start: sources read, processes act (a region's restart keeps the
    /// coordinator's timer).
    pub(super) fn start_tasks(&mut self, tasks: &[TaskId]) {
        let phys = Rc::clone(&self.phys);
        let now = self.clock.now;
        for t in tasks.iter().map(|&t| t as usize) {
            let info = &phys.tasks[t];
            let op = &phys.graph.operators[info.operator as usize];
            if let OperatorKind::Source { interval, .. } = op.kind {
                // Stagger the subtasks of one source across its interval.
                let first =
                    1 + (interval as u128 * info.subtask as u128 / op.parallelism as u128) as u64;
                self.schedule(now.saturating_add(first), Due::Emit(t as TaskId));
            }
            // Processes act on their own: the token holder passes the token after `hold`,
            // accounts start sending at a random moment of their first interval.
            let first = match (&op.kind, &self.tasks[t].state) {
                (OperatorKind::Token { hold, .. }, TaskState::Token { token: true }) => Some(*hold),
                (OperatorKind::Account { interval, .. }, _) => {
                    Some(1 + self.clock.rng.below(*interval))
                }
                _ => None,
            };
            if let Some(at) = first {
                let at = now.saturating_add(at);
                self.tasks[t].act_at = at;
                self.schedule(at, Due::Emit(t as TaskId));
            }
        }
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

    /// What this run's protocol does, as data.
    pub fn protocol(&self) -> &'static Description {
        self.config.mode.description()
    }

    /// Whether this run's snapshots may persist records in flight as channel state: the mode
    /// does ([`BarrierMode::persists_in_flight`]), or aligned mode may time out into an
    /// unaligned snapshot.
    pub fn persists_in_flight(&self) -> bool {
        let mode = self.config.mode;
        mode.persists_in_flight()
            || (mode.blocks_inputs() && self.config.aligned_checkpoint_timeout.is_some())
    }

    /// Whether a completed snapshot of this run can hold channel state at all: records in
    /// flight, or — aligned on a cyclic graph — the back-edge log (the ABS paper's
    /// Algorithm 2). An aligned checkpoint of an acyclic graph never does.
    pub fn holds_channel_state(&self) -> bool {
        self.persists_in_flight()
            || (self.config.mode.blocks_inputs() && !self.phys.back_edges.is_empty())
    }

    /// What this run's snapshots do, as the page's views ask it (one answer, from the mode,
    /// the settings and the graph).
    #[inline(never)]
    pub fn capabilities(&self) -> Capabilities {
        let mode = self.config.mode;
        let keeps_aligned = self.net.keeps_aligned();
        Capabilities {
            // Unaligned tasks align a savepoint: once one is taken, inputs block there too.
            blocks_inputs: mode.blocks_inputs()
                || keeps_aligned
                || (mode.description().priority_barriers && !self.net.savepoints.is_empty()),
            persists_in_flight: self.persists_in_flight(),
            logs_back_edges: mode.blocks_inputs() && !self.phys.back_edges.is_empty(),
            holds_channel_state: self.holds_channel_state(),
            may_slip: mode.may_slip(),
            processes_initiate: mode.processes_initiate(),
            sends_barriers: !mode.stops_the_world(),
            keeps_aligned,
            chained: self.net.chains.any(),
        }
    }

    /// How barriers cross channel `c` in this run (resolved when the run was built).
    pub fn barrier_policy(&self, c: ChannelId) -> BarrierPolicy {
        self.net.policy(c)
    }

    /// Where channel `c`'s barriers stay aligned although the run's would overtake (Flink's
    /// partitioner rule): the partitioning of the receiver's input edge that keeps them so.
    /// A chained channel has no barrier to keep: none.
    pub fn kept_aligned(&self, c: ChannelId) -> Option<crate::model::Partitioning> {
        if self.net.chains.is_chained(c) {
            return None;
        }
        self.net.policy(c).kept_aligned
    }

    /// Whether task `t` may initiate a snapshot by hand: in a mode where processes initiate
    /// (Chandy-Lamport), any process may; whether it can *now* is what `enabled_actions` says.
    pub fn may_initiate(&self, t: TaskId) -> bool {
        self.config.mode.processes_initiate()
            && (t as usize) < self.phys.tasks.len()
            && self.phys.operator_of(t).kind.is_process()
    }

    /// Virtual time of the last event.
    /// The id the next record made will get (ids only grow).
    pub fn next_record_id(&self) -> u64 {
        self.next_record
    }

    pub fn now(&self) -> u64 {
        self.clock.now
    }

    /// Number of actions applied so far.
    pub fn steps(&self) -> u64 {
        self.clock.steps
    }

    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    pub fn channels(&self) -> &[Channel] {
        &self.net.channels
    }

    /// Operator chaining: which channels are a chain's method calls, and each task's head.
    pub fn chains(&self) -> &Chains {
        &self.net.chains
    }

    /// Credit-based flow control: which tasks have a full output, which are backpressured.
    pub fn flow(&self) -> &FlowControl {
        &self.net.flow
    }

    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    /// True once every task has finished (bounded sources ended and every input closed):
    /// the job is over and nothing more will be triggered.
    pub fn job_finished(&self) -> bool {
        self.life.done
    }

    /// While the job is down after a failure: the time it restarts.
    pub fn restarting_at(&self) -> Option<u64> {
        self.life.down_until
    }

    /// While the job is down: the task whose failure brought it down (none when too many
    /// checkpoints failed in a row).
    pub fn failed_task(&self) -> Option<TaskId> {
        self.life.down_until.and(self.life.failed_task)
    }

    /// Whether task `t` is down, waiting for its region's restart.
    pub fn is_down(&self, t: TaskId) -> bool {
        self.life.down_until.is_some() && self.life.region.binary_search(&t).is_ok()
    }

    /// While a region smaller than the job is down: its tasks (the rest runs on).
    pub fn down_region(&self) -> Option<&[TaskId]> {
        let partial = self.life.region.len() < self.tasks.len();
        (self.life.down_until.is_some() && partial).then_some(self.life.region.as_slice())
    }

    /// Every restart so far, oldest first: what was restored, which sources rewound, which
    /// records at-least-once will count twice.
    pub fn recoveries(&self) -> &[Recovery] {
        &self.life.recoveries
    }

    /// Asks for a savepoint at virtual time `at` (`abs-sim run --savepoint`): the scheduler
    /// takes it as a savepoint by hand when the clock gets there. Refused at once in a mode
    /// without savepoints.
    pub fn plan_savepoint(&mut self, at: u64) -> Result<(), ActionError> {
        let mode = self.config.mode;
        if mode.processes_initiate() || mode.stops_the_world() {
            return Err(ActionError::NoSavepoints);
        }
        self.schedule(at, Due::PlannedSavepoint);
        Ok(())
    }

    /// The failures the scenario plans, with whether each has happened (or was skipped).
    pub fn planned_failures(&self) -> &[PlannedFailure] {
        &self.life.planned
    }

    /// What the last action did.
    pub fn last_events(&self) -> &[Event] {
        &self.events
    }

    /// Time of the next scheduled event (stale entries may make it early, never late).
    pub fn next_time(&self) -> Option<u64> {
        self.clock.first_time().map(|t| t.max(self.clock.now))
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
            Payload::Token => "token".into(),
            Payload::Transfer { amount } => format!("${amount}"),
            // "·r2": on its second round of the loop (↻ marks a replay).
            Payload::Round { word, round } => format!("{}·r{round}", self.word(word)),
        }
    }

    pub fn word(&self, w: u32) -> &str {
        self.phys.words.get(w as usize).map_or("", |s| s.as_str())
    }

    /// Applies one action chosen by the user. Nothing changes when it is refused.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        self.check(action)?;
        self.events.clear();
        self.clock.steps += 1;
        match action {
            Action::Deliver { channel } | Action::DeliverNth { channel, .. } => {
                if let Action::DeliverNth { nth, .. } = action {
                    self.net.bring_forward(channel, nth as usize);
                }
                let ch = &mut self.net.channels[channel as usize];
                ch.drop_plan();
                let to = self.phys.channels[channel as usize].to as usize;
                let next = ch
                    .next_delivery(self.clock.now)
                    .map_or(self.clock.now, |(_, at)| at);
                self.tasks[to].waiting.retain(|&c| c != channel);
                self.clock.now = self.clock.now.max(next).max(self.tasks[to].busy_until);
                self.deliver(channel);
            }
            Action::Replay { task } => {
                let t = &self.tasks[task as usize];
                self.clock.now = self.clock.now.max(t.busy_until);
                self.replay(task);
            }
            Action::Emit { task } => self.emit(task),
            Action::Trigger if self.coordinator.has_room() => self.trigger(),
            Action::Trigger => {
                self.coordinator.manual_waiting += 1;
                self.events
                    .push(Event::TriggerDeferred { savepoint: false });
            }
            Action::Savepoint if self.coordinator.savepoint_starts() => self.trigger_savepoint(),
            Action::Savepoint => {
                self.coordinator.savepoints_waiting += 1;
                self.events.push(Event::TriggerDeferred { savepoint: true });
            }
            Action::Initiate { task } => self.trigger_at(Some(task)),
            Action::TimeOutAlignment { checkpoint } => self.time_out_checkpoint(checkpoint),
            Action::SetFifo { channel, fifo } => {
                self.net.channels[channel as usize].fifo = fifo;
                self.events.push(Event::FifoChanged { channel, fifo });
            }
            Action::Expire { checkpoint } => self.expire(checkpoint),
            Action::SnapshotAll { checkpoint } => {
                super::synchronous::snapshot_all(self, checkpoint)
            }
            Action::Pause { channel, paused } => {
                let ch = &mut self.net.channels[channel as usize];
                ch.paused = paused;
                ch.drop_plan();
                let to = self.phys.channels[channel as usize].to as usize;
                self.tasks[to].waiting.retain(|&c| c != channel);
                self.events.push(Event::ChannelPaused { channel, paused });
                self.schedule_channel(channel);
            }
            Action::SetLatency { channel, latency } => {
                self.net.channels[channel as usize].latency = latency;
                self.events.push(Event::LatencyChanged { channel, latency });
            }
            Action::Fail { task } => self.fail(Some(task)),
            Action::FailJob => self.fail(None),
            Action::Restart => {
                self.clock.now = self
                    .clock
                    .now
                    .max(self.life.down_until.unwrap_or(self.clock.now));
                self.restart();
            }
            Action::SkipFailure { task } => {
                if let Some(i) = self.next_planned_failure_of(task) {
                    self.life.planned[i].skipped = true;
                }
            }
        }
        Ok(())
    }

    // ----- what happens -----

    /// Whether task `t` takes input even while an output is full: a process (token holder,
    /// account) only sends on its own, never because of what it receives — only its own
    /// sends wait for credit. (Otherwise two processes with full channels to each other
    /// would wait for each other for ever.)
    pub(super) fn takes_input_when_full(&self, t: TaskId) -> bool {
        self.phys.operator_of(t).kind.is_process()
    }

    /// Whether process `t` has something to do: the token holder holds the token, an account
    /// has money. Other tasks: always.
    pub(super) fn can_act(&self, t: TaskId) -> bool {
        match self.tasks[t as usize].state {
            TaskState::Token { token } => token,
            TaskState::Account { balance } => balance > 0,
            _ => true,
        }
    }
}

/// A fresh barrier handler for task `t`: the protocol's, or the aligned one where the task's
/// inputs keep their barriers aligned (`policies`, by channel). ABS for cyclic graphs: it
/// knows which of its inputs close a cycle.
pub(super) fn handler_for(
    phys: &Physical,
    config: &Config,
    policies: &[BarrierPolicy],
    t: TaskId,
) -> BarrierHandler<Record> {
    let info = &phys.tasks[t as usize];
    let kept = info.inputs.iter().any(|&c| {
        policies
            .get(c as usize)
            .is_some_and(|p| p.kept_aligned.is_some())
    });
    let kind = if kept {
        Handler::Aligned
    } else {
        config.mode.description().handler
    };
    let mut handler = BarrierHandler::of(
        kind,
        info.inputs.len() as u32,
        config.finished_channels_align,
    );
    let loops: Vec<u32> = info
        .inputs
        .iter()
        .enumerate()
        .filter(|(_, &c)| phys.is_back_edge(phys.channels[c as usize].edge))
        .map(|(i, _)| i as u32)
        .collect();
    if !loops.is_empty() {
        handler.set_back_edges(&loops);
    }
    handler
}
