//! The Chandy-Lamport tests' oracle: the engine's event trace, re-read.
//!
//! The engine judges its own snapshots (the verdict: crossings, conservation). A test that
//! only read that verdict would pass whenever the engine and its checker were wrong in the
//! same way, so this oracle takes nothing from the checker: it follows the events one by one,
//! checks the marker rule as they come, rebuilds what each process held at its snapshot, what
//! each channel should have recorded and which records crossed each cut, and holds the
//! engine's global state and verdict against that.
//!
//! It is kept out of `chandy_lamport.rs` so that the random systems (`process_systems.rs`) and
//! the hand-driven marker-rule tests answer to the one oracle, and the test file reads as its
//! tests. It is not a submodule of `common`: every test binary compiles all of `common`, and
//! only `chandy_lamport.rs` needs this, so that file includes it by `#[path]` — and dead code
//! here is still reported.

use std::collections::{BTreeMap, BTreeSet};

use abs_playground::engine::barrier::BarrierTake;
use abs_playground::engine::record::{ItemKind, Payload, RecordId};
use abs_playground::engine::snapshot::{Conserved, CrossingKind, GlobalState, TaskState};
use abs_playground::engine::{
    ChannelId, CheckpointId, Event, OperatorKind, Physical, Simulation, TaskId,
};
use proptest::test_runner::TestCaseError;

/// Fails the current case with a message (a `prop_assert!` that also works outside proptest).
macro_rules! ensure {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!($($arg)+)));
        }
    };
}
pub(crate) use ensure;

/// What a process holds, as the trace says: the token or not, or a balance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holding {
    Token(bool),
    Money(u64),
}

/// How a record crossed a cut the wrong way (the engine's [`CrossingKind`], orderable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Orphan,
    RecordedAfterCut,
    Lost,
}

fn kind_of(k: CrossingKind) -> Kind {
    match k {
        CrossingKind::Orphan => Kind::Orphan,
        CrossingKind::RecordedAfterCut => Kind::RecordedAfterCut,
        CrossingKind::Lost => Kind::Lost,
    }
}

/// A record a process sent: on which channel, when (trace position), and what it carried.
#[derive(Clone, Copy, Debug)]
struct Sent {
    channel: ChannelId,
    at: u64,
    payload: Payload,
}

/// One snapshot as the trace describes it.
#[derive(Clone, Debug, Default)]
pub struct SnapshotTrace {
    /// Task → trace position of its `Snapshot` event, and what it held then.
    pub taken: BTreeMap<TaskId, (u64, Holding)>,
    /// Channel → trace position at which the marker arrived at the receiver.
    pub markers: BTreeMap<ChannelId, u64>,
    /// Recorded channel state, in recording order: (channel, record).
    pub recorded: Vec<(ChannelId, RecordId)>,
    initiator: Option<TaskId>,
}

/// The event trace of one run, re-read and checked against the marker rule as it comes.
///
/// Every event gets a trace position (step by step, and in order within a step), so "before
/// the snapshot" means an earlier position, independently of record ids or the clock.
pub struct Trace {
    phys: Physical,
    pub at: u64,
    holding: Vec<Holding>,
    initial_total: u64,
    sent: BTreeMap<RecordId, Sent>,
    /// Record → trace position at which its receiver processed it.
    processed: BTreeMap<RecordId, u64>,
    pub snapshots: BTreeMap<CheckpointId, SnapshotTrace>,
    /// Per task, the snapshots it has taken whose inputs have not all delivered their marker:
    /// the ones it must still be recording some input for.
    open: Vec<BTreeSet<CheckpointId>>,
    /// Per channel, the last record processed from it (FIFO runs check processing order).
    last_processed: Vec<RecordId>,
    /// Records processed out of send order so far (a non-FIFO channel let one overtake).
    pub overtaken: u64,
    fifo_everywhere: bool,
    pub completed: BTreeSet<CheckpointId>,
}

impl Trace {
    pub fn new(sim: &Simulation, fifo_everywhere: bool) -> Trace {
        let phys = sim.physical().clone();
        let holding: Vec<Holding> = phys
            .tasks
            .iter()
            .map(|t| match phys.graph.operators[t.operator as usize].kind {
                OperatorKind::Token { has_token, .. } => Holding::Token(has_token),
                OperatorKind::Account { balance, .. } => Holding::Money(balance),
                ref other => panic!("not a process: {other:?}"),
            })
            .collect();
        let initial_total = holding
            .iter()
            .map(|h| match *h {
                Holding::Token(t) => u64::from(t),
                Holding::Money(m) => m,
            })
            .sum();
        let tasks = phys.tasks.len();
        let channels = phys.channels.len();
        Trace {
            phys,
            at: 0,
            holding,
            initial_total,
            sent: BTreeMap::new(),
            processed: BTreeMap::new(),
            snapshots: BTreeMap::new(),
            open: vec![BTreeSet::new(); tasks],
            last_processed: vec![0; channels],
            overtaken: 0,
            fifo_everywhere,
            completed: BTreeSet::new(),
        }
    }

    fn from(&self, c: ChannelId) -> TaskId {
        self.phys.channels[c as usize].from
    }

    fn to(&self, c: ChannelId) -> TaskId {
        self.phys.channels[c as usize].to
    }

    fn name(&self, t: TaskId) -> &str {
        &self.phys.tasks[t as usize].name
    }

    fn outputs(&self, t: TaskId) -> u32 {
        self.phys.tasks[t as usize].outputs.iter().flatten().count() as u32
    }

    /// Reads one step's events, checking the marker rule as it goes. Returns the snapshots
    /// this step completed.
    pub fn observe(&mut self, events: &[Event]) -> Result<Vec<CheckpointId>, TestCaseError> {
        let mut completed = Vec::new();
        // ChannelState events of this step not yet matched with their `Processed`.
        let mut recorded_now: Vec<(CheckpointId, ChannelId, RecordId)> = Vec::new();
        // The last `Initiated` and the last marker arrival of this step.
        let mut initiated: Option<(TaskId, CheckpointId)> = None;
        let mut marker: Option<(TaskId, ChannelId, CheckpointId, bool)> = None;
        for e in events {
            self.at += 1;
            let at = self.at;
            match *e {
                Event::Sent {
                    task,
                    channel,
                    record,
                    ..
                } => {
                    ensure!(
                        self.from(channel) == task,
                        "{} sent record {} on a channel it does not send on",
                        self.name(task),
                        record.id
                    );
                    ensure!(
                        !self.sent.contains_key(&record.id),
                        "record {} sent twice",
                        record.id
                    );
                    let h = &mut self.holding[task as usize];
                    match (*h, record.payload) {
                        (Holding::Token(true), Payload::Token) => *h = Holding::Token(false),
                        (Holding::Money(m), Payload::Transfer { amount })
                            if amount >= 1 && amount <= m =>
                        {
                            *h = Holding::Money(m - amount)
                        }
                        (h, p) => {
                            ensure!(false, "task {task} holding {h:?} sent {p:?}")
                        }
                    }
                    self.sent.insert(
                        record.id,
                        Sent {
                            channel,
                            at,
                            payload: record.payload,
                        },
                    );
                }
                Event::Initiated { task, checkpoint } => {
                    let s = self.snapshots.entry(checkpoint).or_default();
                    ensure!(
                        s.initiator.is_none() && s.taken.is_empty(),
                        "snapshot {checkpoint} initiated by {task} after it had started"
                    );
                    s.initiator = Some(task);
                    initiated = Some((task, checkpoint));
                }
                Event::Arrived {
                    task,
                    channel,
                    item: ItemKind::Barrier(n),
                } => {
                    ensure!(
                        self.to(channel) == task,
                        "marker delivered to the wrong task"
                    );
                    let from = self.from(channel);
                    let s = self.snapshots.entry(n).or_default();
                    ensure!(
                        s.taken.contains_key(&from),
                        "a marker of {n} came on channel {channel} before its sender snapshotted"
                    );
                    ensure!(
                        s.markers.insert(channel, at).is_none(),
                        "two markers of {n} on channel {channel}"
                    );
                    let first = !s.taken.contains_key(&task);
                    marker = Some((task, channel, n, first));
                    if !first
                        && self.phys.tasks[task as usize]
                            .inputs
                            .iter()
                            .all(|c| s.markers.contains_key(c))
                    {
                        self.open[task as usize].remove(&n);
                    }
                }
                Event::Barrier {
                    task,
                    channel,
                    checkpoint,
                    take,
                    ..
                } => {
                    let Some((t, c, n, first)) = marker else {
                        return Err(TestCaseError::fail("a marker taken that did not arrive"));
                    };
                    ensure!(
                        (t, c, n) == (task, channel, checkpoint),
                        "the marker taken is not the one that arrived"
                    );
                    let expected = if first {
                        BarrierTake::First
                    } else {
                        BarrierTake::Counted
                    };
                    ensure!(
                        take == expected,
                        "marker of {n} on channel {c} at {}: taken {take:?}, expected {expected:?}",
                        self.name(t)
                    );
                }
                Event::Snapshot {
                    task,
                    checkpoint: n,
                    forwarded,
                    ..
                } => {
                    // Either the task initiated n just now, or n's first marker reached it.
                    let by_initiation = initiated == Some((task, n));
                    let by_marker = matches!(marker, Some((t, _, m, true)) if t == task && m == n);
                    ensure!(
                        by_initiation || by_marker,
                        "{} snapshotted {n} neither initiating it nor at its first marker",
                        self.name(task)
                    );
                    ensure!(
                        forwarded == self.outputs(task),
                        "{} sent {forwarded} markers of {n}, it has {} outputs",
                        self.name(task),
                        self.outputs(task)
                    );
                    let holding = self.holding[task as usize];
                    let s = self.snapshots.entry(n).or_default();
                    ensure!(
                        s.taken.insert(task, (at, holding)).is_none(),
                        "{} snapshotted {n} twice",
                        self.name(task)
                    );
                    let inputs = &self.phys.tasks[task as usize].inputs;
                    if !inputs.iter().all(|c| s.markers.contains_key(c)) {
                        self.open[task as usize].insert(n);
                    }
                }
                Event::ChannelState {
                    task,
                    checkpoint: n,
                    channel,
                    record,
                    ..
                } => {
                    ensure!(
                        self.to(channel) == task,
                        "channel state recorded by a non-receiver"
                    );
                    let s = self.snapshots.entry(n).or_default();
                    ensure!(
                        s.taken.contains_key(&task),
                        "{} recorded channel {channel} for {n} before its snapshot",
                        self.name(task)
                    );
                    ensure!(
                        !s.markers.contains_key(&channel),
                        "{} recorded record {} on channel {channel} for {n} after that channel's \
                         marker",
                        self.name(task),
                        record.id
                    );
                    s.recorded.push((channel, record.id));
                    recorded_now.push((n, channel, record.id));
                }
                Event::Processed {
                    task,
                    channel,
                    record,
                    ..
                } => {
                    ensure!(self.to(channel) == task, "processed by a non-receiver");
                    let Some(sent) = self.sent.get(&record.id).copied() else {
                        return Err(TestCaseError::fail(format!(
                            "record {} processed but never sent",
                            record.id
                        )));
                    };
                    ensure!(
                        sent.channel == channel,
                        "record {} sent on {} but arrived on {channel}",
                        record.id,
                        sent.channel
                    );
                    ensure!(
                        self.processed.insert(record.id, at).is_none(),
                        "record {} processed twice",
                        record.id
                    );
                    let last = &mut self.last_processed[channel as usize];
                    if record.id < *last {
                        self.overtaken += 1;
                        ensure!(
                            !self.fifo_everywhere,
                            "FIFO channel {channel} delivered record {} after {}",
                            record.id,
                            last
                        );
                    }
                    *last = (*last).max(record.id);
                    let h = &mut self.holding[task as usize];
                    match (*h, record.payload) {
                        (Holding::Token(false), Payload::Token) => *h = Holding::Token(true),
                        (Holding::Money(m), Payload::Transfer { amount }) => {
                            *h = Holding::Money(m + amount)
                        }
                        (h, p) => ensure!(false, "task {task} holding {h:?} received {p:?}"),
                    }
                    // The rule: the record is recorded for exactly the snapshots this task has
                    // taken and whose marker has not yet come on this channel.
                    let should: BTreeSet<CheckpointId> = self.open[task as usize]
                        .iter()
                        .copied()
                        .filter(|n| !self.snapshots[n].markers.contains_key(&channel))
                        .collect();
                    let was: BTreeSet<CheckpointId> = recorded_now
                        .iter()
                        .filter(|&&(_, c, r)| c == channel && r == record.id)
                        .map(|&(n, _, _)| n)
                        .collect();
                    ensure!(
                        should == was,
                        "{} processed record {} from channel {channel}: recorded for {was:?}, \
                         should have been for {should:?}",
                        self.name(task),
                        record.id
                    );
                    recorded_now.retain(|&(_, c, r)| !(c == channel && r == record.id));
                }
                Event::CheckpointCompleted { checkpoint, .. } => {
                    let s = self.snapshots.entry(checkpoint).or_default();
                    ensure!(
                        s.taken.len() == self.phys.tasks.len(),
                        "snapshot {checkpoint} completed with {} of {} processes",
                        s.taken.len(),
                        self.phys.tasks.len()
                    );
                    ensure!(
                        s.markers.len() == self.phys.channels.len(),
                        "snapshot {checkpoint} completed with markers on {} of {} channels",
                        s.markers.len(),
                        self.phys.channels.len()
                    );
                    ensure!(
                        self.completed.insert(checkpoint),
                        "snapshot {checkpoint} completed twice"
                    );
                    completed.push(checkpoint);
                }
                _ => {}
            }
        }
        ensure!(
            recorded_now.is_empty(),
            "records recorded but not processed in the same step: {recorded_now:?}"
        );
        Ok(completed)
    }

    /// The records that crossed snapshot `n`'s cut the wrong way, from the trace alone:
    /// sent after the sender's snapshot but processed before the receiver's (orphan) or
    /// recorded (recorded after the cut); sent before the sender's snapshot but neither
    /// processed before the receiver's nor recorded (lost).
    fn crossings(
        &self,
        n: CheckpointId,
    ) -> Result<BTreeSet<(ChannelId, RecordId, Kind)>, TestCaseError> {
        let s = &self.snapshots[&n];
        let recorded: BTreeSet<(ChannelId, RecordId)> = s.recorded.iter().copied().collect();
        let mut out = BTreeSet::new();
        for (&id, sent) in &self.sent {
            let c = sent.channel;
            let (sender_cut, _) = s.taken[&self.from(c)];
            let (receiver_cut, _) = s.taken[&self.to(c)];
            let before = sent.at < sender_cut;
            let taken_in = self.processed.get(&id).is_some_and(|&p| p < receiver_cut);
            let rec = recorded.contains(&(c, id));
            ensure!(
                !(taken_in && rec),
                "record {id} both processed before the receiver's snapshot {n} and recorded"
            );
            let kind = match (before, taken_in, rec) {
                (true, false, false) => Some(Kind::Lost),
                (false, true, _) => Some(Kind::Orphan),
                (false, _, true) => Some(Kind::RecordedAfterCut),
                _ => None,
            };
            if let Some(kind) = kind {
                out.insert((c, id, kind));
            }
        }
        Ok(out)
    }
}

/// What one completed snapshot showed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Seen {
    pub ok: bool,
    /// The money or tokens it holds, recounted here from the global state, differ from the
    /// scenario's.
    pub not_conserved: bool,
    pub recorded: usize,
    /// The token sat in a channel (token systems).
    pub token_in_channel: bool,
    pub orphans: u64,
    pub recorded_after_cut: u64,
    pub lost: u64,
}

/// Checks one completed snapshot's global state against the trace and recounts what it
/// conserves; in a run whose channels were FIFO throughout, it must be a consistent cut.
pub fn check_snapshot(trace: &Trace, gs: &GlobalState) -> Result<Seen, TestCaseError> {
    let n = gs.checkpoint;
    let s = &trace.snapshots[&n];
    let phys = &trace.phys;

    // Each process's state is what it held at its Snapshot event.
    ensure!(
        gs.tasks.len() == phys.tasks.len(),
        "snapshot {n} has {} task states",
        gs.tasks.len()
    );
    for snap in &gs.tasks {
        let (_, held) = s.taken[&snap.task];
        let same = match (held, &snap.state) {
            (Holding::Token(a), TaskState::Token { token }) => a == *token,
            (Holding::Money(a), TaskState::Account { balance }) => a == *balance,
            _ => false,
        };
        ensure!(
            same,
            "snapshot {n}: {} recorded {:?}, but held {held:?} at its snapshot",
            trace.name(snap.task),
            snap.state
        );
    }

    // Each channel's recorded state is exactly its ChannelState events, in order.
    let mut by_trace: BTreeMap<ChannelId, Vec<RecordId>> = BTreeMap::new();
    for &(c, r) in &s.recorded {
        by_trace.entry(c).or_default().push(r);
    }
    let by_engine: BTreeMap<ChannelId, Vec<RecordId>> = gs
        .channel_state
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(&c, v)| (c, v.iter().map(|r| r.id).collect()))
        .collect();
    ensure!(
        by_engine == by_trace,
        "snapshot {n}: channel state {by_engine:?}, the trace recorded {by_trace:?}"
    );

    // Conservation, recounted from the global state alone.
    let mut found = 0u64;
    let mut token_in_channel = false;
    for snap in &gs.tasks {
        found += match snap.state {
            TaskState::Token { token } => u64::from(token),
            TaskState::Account { balance } => balance,
            ref other => return Err(TestCaseError::fail(format!("not a process: {other:?}"))),
        };
    }
    for records in gs.channel_state.values() {
        for r in records {
            found += match r.payload {
                Payload::Token => {
                    token_in_channel = true;
                    1
                }
                Payload::Transfer { amount } => amount,
                other => return Err(TestCaseError::fail(format!("odd payload {other:?}"))),
            };
        }
    }
    let expected = trace.initial_total;
    let tokens = matches!(trace.holding[0], Holding::Token(_));
    let c = gs.verdict.conservation.ok_or_else(|| {
        TestCaseError::fail(format!("snapshot {n}: the verdict checks no conservation"))
    })?;
    let what = if tokens {
        Conserved::Tokens
    } else {
        Conserved::Money
    };
    ensure!(
        (c.what, c.expected, c.found) == (what, expected, found),
        "snapshot {n}: the engine counts {c:?}, recounted {what:?} expected {expected} found {found}"
    );

    // The crossings: the engine's list is exactly the real ones.
    let real = trace.crossings(n)?;
    let mut listed = BTreeSet::new();
    for x in &gs.verdict.crossings {
        let sent = trace.sent.get(&x.record.id).ok_or_else(|| {
            TestCaseError::fail(format!(
                "snapshot {n}: crossing of unknown record {}",
                x.record.id
            ))
        })?;
        ensure!(
            sent.channel == x.channel && sent.payload == x.record.payload,
            "snapshot {n}: crossing {x:?} does not match the record sent"
        );
        ensure!(
            listed.insert((x.channel, x.record.id, kind_of(x.kind))),
            "snapshot {n}: crossing {x:?} listed twice"
        );
    }
    let invented: Vec<_> = listed.difference(&real).collect();
    ensure!(
        invented.is_empty(),
        "snapshot {n}: the engine lists crossings the trace does not show: {invented:?} \
         (real: {real:?})"
    );
    let missed: Vec<_> = real.difference(&listed).collect();
    ensure!(
        missed.is_empty(),
        "snapshot {n}: the engine misses real crossings {missed:?}"
    );
    let ok = gs.verdict.ok();
    ensure!(
        ok == real.is_empty(),
        "snapshot {n}: verdict ok = {ok}, but {} real crossings: {:?}",
        real.len(),
        gs.verdict
    );
    let not_conserved = found != expected;
    if not_conserved {
        ensure!(
            !ok && !gs.verdict.crossings.is_empty(),
            "snapshot {n} holds {found} of {expected}, yet its verdict is {:?}",
            gs.verdict
        );
    }
    if trace.fifo_everywhere {
        ensure!(
            ok && gs.verdict.crossings.is_empty() && !not_conserved,
            "snapshot {n} over FIFO channels is not consistent: {:?}",
            gs.verdict
        );
    }
    let count = |k: Kind| real.iter().filter(|x| x.2 == k).count() as u64;
    Ok(Seen {
        ok,
        not_conserved,
        recorded: s.recorded.len(),
        token_in_channel,
        orphans: count(Kind::Orphan),
        recorded_after_cut: count(Kind::RecordedAfterCut),
        lost: count(Kind::Lost),
    })
}

/// Where a token system's snapshot found the token: "at P" or "in P->Q".
pub fn token_place(trace: &Trace, gs: &GlobalState) -> String {
    for s in &gs.tasks {
        if s.state == (TaskState::Token { token: true }) {
            return format!("at {}", trace.name(s.task));
        }
    }
    for (&c, records) in gs.channel_state.iter() {
        if !records.is_empty() {
            return format!(
                "in {}->{}",
                trace.name(trace.from(c)),
                trace.name(trace.to(c))
            );
        }
    }
    "nowhere".into()
}
