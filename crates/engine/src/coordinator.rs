//! The checkpoint coordinator: triggers checkpoints, collects acknowledgements, completes,
//! subsumes and aborts them, and keeps the retained global states.

use std::collections::VecDeque;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::barrier::CheckpointId;
use super::model::Config;
use super::physical::Physical;
use super::physical::{ChannelId, TaskId};
use super::record::{Item, ItemKind, Record, RecordId};
use super::snapshot::{
    self, Crossing, CrossingKind, Finding, GlobalState, TaskMetrics, TaskSnapshot,
};
use super::sorted_map::SortedMap;
use super::trace::AbortReason;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum CheckpointStatus {
    InProgress,
    Completed,
    Aborted { reason: AbortReason },
}

impl CheckpointStatus {
    /// The status as the page's attributes and the host API spell it (the trace's `status`).
    pub fn name(&self) -> &'static str {
        match self {
            CheckpointStatus::InProgress => "in-progress",
            CheckpointStatus::Completed => "completed",
            CheckpointStatus::Aborted { .. } => "aborted",
        }
    }
}

/// The coordinator's line for one checkpoint, as the page's checkpoint list shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointSummary {
    pub id: CheckpointId,
    pub status: CheckpointStatus,
    pub trigger_time: u64,
    pub end_time: Option<u64>,
    pub acked: u32,
    pub total: u32,
    /// Once completed: whether its global state is consistent (the verdict's `ok`). Kept
    /// here so the list can say so after the global state itself is no longer retained.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consistent: Option<bool>,
    /// Once completed: the verdict's finding ([`Finding`]), as the page words it.
    #[serde(default, skip_serializing_if = "Finding::is_consistent")]
    pub finding: Finding,
    /// A savepoint (Flink's checkpoint of kind savepoint), not a checkpoint.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub savepoint: bool,
    /// Once completed: Flink's checkpointed size and the in-flight data persisted (bytes),
    /// kept here, as the verdict is, for when its global state is no longer retained: one size
    /// for a checkpoint wherever it is shown.
    #[serde(default)]
    pub checkpointed_size: u64,
    #[serde(default)]
    pub persisted_bytes: u64,
}

impl CheckpointSummary {
    /// Its kind as Flink's REST API names it: `checkpoint` or `savepoint`.
    pub fn kind(&self) -> &'static str {
        if self.savepoint {
            "savepoint"
        } else {
            "checkpoint"
        }
    }
}

/// How many ended checkpoints' summaries the coordinator keeps (the newest), as Flink's web UI
/// keeps a bounded checkpoint history (`web.checkpoints.history`). The page lists far fewer;
/// a long run's memory would otherwise grow with every checkpoint, in every copy the history
/// keeps.
pub const CHECKPOINT_HISTORY: usize = 256;

/// A checkpoint still collecting acknowledgements.
#[derive(Clone, Debug)]
pub(super) struct Pending {
    pub trigger_time: u64,
    pub snapshots: Vec<Option<TaskSnapshot>>,
    pub acked: u32,
    /// In-flight records persisted for this checkpoint (unaligned), in the order they were
    /// recorded; grouped by channel only when the checkpoint completes.
    pub channel_state: Vec<(ChannelId, Record)>,
    /// Per task, where its snapshot cut the record ids: records it created before its
    /// snapshot have smaller ids (every record is sent in the step it is made). 0: no
    /// snapshot yet.
    pub cuts: Vec<RecordId>,
    /// Records seen crossing the cut the wrong way so far (see [`Coordinator::observe`]).
    pub crossings: Vec<Crossing>,
    /// Aligned with a timeout: the checkpoint has run longer than the aligned-checkpoint
    /// timeout and goes on unaligned everywhere.
    pub unaligned: bool,
    /// A savepoint: aligned everywhere, never times out.
    pub savepoint: bool,
}

#[derive(Clone, Debug)]
pub struct Coordinator {
    pub(super) next_id: CheckpointId,
    pub(super) summaries: Vec<CheckpointSummary>,
    /// Checkpoints still collecting acknowledgements; ids only grow, so each start appends.
    pub(super) pending: SortedMap<CheckpointId, Pending>,
    pub(super) retained: VecDeque<Rc<GlobalState>>,
    /// When the latest checkpoint completed: Flink's minimum pause counts from it.
    pub(super) last_completed: Option<u64>,
    /// When the latest checkpoint ended, completed or aborted (a stopped world pauses from it).
    pub(super) last_end: Option<u64>,
    /// The pause counts from any end, not only a completion (stop-the-world, not Flink).
    pause_from_any_end: bool,
    /// Periodic triggers that came due while the most checkpoints ran: Flink queues each
    /// request, and starts one whenever a checkpoint ends (at most [`MAX_QUEUED`] wait).
    pub(super) periodic_waiting: u32,
    /// The periodic trigger's timer: a trigger held back by the minimum pause restarts it
    /// (Flink's `rescheduleTrigger`), and a due of an older timer is dropped.
    pub(super) timer: u32,
    /// Triggers by hand that came while the most checkpoints ran that may: each starts one as
    /// soon as one ends (Flink queues them; the minimum pause does not hold them back).
    pub(super) manual_waiting: u32,
    /// Savepoints that came while the most checkpoints ran that may (unaligned checkpoints
    /// on): each starts as soon as one ends, before any other waiting trigger.
    pub(super) savepoints_waiting: u32,
    /// Flink forces a savepoint past the most checkpoints at once unless unaligned
    /// checkpoints are on (`CheckpointProperties.forSavepoint(!unalignedCheckpointsEnabled)`).
    pub(super) savepoints_forced: bool,
    pub(super) retain: usize,
    pub(super) max_concurrent: u32,
    pub(super) min_pause: u64,
    pub(super) timeout: u64,
    /// Checkpoints that failed since the last one completed, counted as Flink counts them:
    /// only expired ones (see [`AbortReason::counts_as_failure`]).
    pub(super) failed_in_a_row: u32,
    pub(super) tolerable_failed: Option<u32>,
    /// Aligned with a timeout: how long after its trigger a checkpoint goes on unaligned.
    pub(super) aligned_timeout: Option<u64>,
    /// Stop-the-world: the sources stopped for the running checkpoint, each with the time it
    /// was due to read; they read again once the checkpoint ends.
    pub(super) stopped: Vec<(TaskId, u64)>,
}

/// How many savepoints' global states are kept beside the retained checkpoints, at most.
pub const SAVEPOINTS_KEPT: usize = 4;

/// The most trigger requests Flink's coordinator keeps waiting (`CheckpointRequestDecider`).
pub const MAX_QUEUED: u32 = 1000;

impl Coordinator {
    pub(super) fn new(config: &Config) -> Self {
        Coordinator {
            next_id: 1,
            summaries: Vec::new(),
            pending: SortedMap::new(),
            retained: VecDeque::new(),
            last_completed: None,
            last_end: None,
            pause_from_any_end: config.mode.stops_the_world(),
            periodic_waiting: 0,
            timer: 0,
            manual_waiting: 0,
            savepoints_waiting: 0,
            // The aligned-checkpoint timeout is a setting of unaligned checkpoints in Flink.
            savepoints_forced: !(config.mode.description().priority_barriers
                || (config.aligned_checkpoint_timeout.is_some() && config.mode.blocks_inputs())),
            retain: config.retained_checkpoints.max(1) as usize,
            max_concurrent: max_concurrent(config),
            // A stopped world runs at least an interval between two checkpoints: at a fixed
            // rate, a drain longer than the interval would leave it no time to run at all.
            min_pause: if config.mode.stops_the_world() {
                config
                    .min_pause
                    .max(config.checkpoint_interval.unwrap_or(0))
            } else {
                config.min_pause
            },
            timeout: config.timeout.max(1),
            failed_in_a_row: 0,
            tolerable_failed: config.tolerable_failed_checkpoints,
            aligned_timeout: config
                .aligned_checkpoint_timeout
                .filter(|_| config.mode.blocks_inputs()),
            stopped: Vec::new(),
        }
    }

    /// When running checkpoint `id` goes on unaligned (aligned with a timeout).
    /// A savepoint never goes on unaligned.
    pub(super) fn alignment_deadline(&self, id: CheckpointId) -> Option<u64> {
        let after = self.aligned_timeout?;
        self.pending
            .get(&id)
            .filter(|p| !p.savepoint)
            .map(|p| p.trigger_time.saturating_add(after))
    }

    /// Whether checkpoint `id` is a savepoint (as long as its summary is kept).
    pub fn is_savepoint(&self, id: CheckpointId) -> bool {
        self.summary(id).is_some_and(|s| s.savepoint)
    }

    /// Whether a savepoint asked for now starts at once: there is room, or Flink forces it.
    pub(super) fn savepoint_starts(&self) -> bool {
        self.savepoints_forced || self.has_room()
    }

    /// Savepoints waiting for a checkpoint to end.
    pub fn savepoints_waiting(&self) -> u32 {
        self.savepoints_waiting
    }

    /// Whether running checkpoint `id` has gone on unaligned after its alignment timed out.
    pub fn timed_out(&self, id: CheckpointId) -> bool {
        self.pending.get(&id).is_some_and(|p| p.unaligned)
    }

    /// Marks running checkpoint `id` unaligned from now on; false if it is not running or
    /// already was.
    pub(super) fn time_out(&mut self, id: CheckpointId) -> bool {
        match self.pending.get_mut(&id) {
            Some(p) if !p.unaligned => {
                p.unaligned = true;
                true
            }
            _ => false,
        }
    }

    /// The checkpoints kept, oldest first: every one still running and the newest of the
    /// ended ones, about [`CHECKPOINT_HISTORY`] in all.
    pub fn checkpoints(&self) -> &[CheckpointSummary] {
        &self.summaries
    }

    /// The id the next checkpoint (or snapshot) started will have.
    pub fn next_checkpoint(&self) -> CheckpointId {
        self.next_id
    }

    /// Where checkpoint `id`'s summary sits: ids are dense, from the oldest kept.
    fn index(&self, id: CheckpointId) -> Option<usize> {
        Some(id.checked_sub(self.summaries.first()?.id)? as usize)
    }

    pub fn summary(&self, id: CheckpointId) -> Option<&CheckpointSummary> {
        self.summaries.get(self.index(id)?).filter(|s| s.id == id)
    }

    fn summary_mut(&mut self, id: CheckpointId) -> Option<&mut CheckpointSummary> {
        let i = self.index(id)?;
        self.summaries.get_mut(i).filter(|s| s.id == id)
    }

    /// Retained global states of completed checkpoints (and of the savepoints among them),
    /// oldest first.
    pub fn completed(&self) -> impl DoubleEndedIterator<Item = &GlobalState> {
        self.retained.iter().map(|g| g.as_ref())
    }

    pub fn global_state(&self, id: CheckpointId) -> Option<&GlobalState> {
        self.completed().find(|g| g.checkpoint == id)
    }

    /// The latest completed checkpoint: what a failover restores (never a savepoint).
    pub fn latest_completed(&self) -> Option<&GlobalState> {
        self.completed().rev().find(|g| !g.savepoint)
    }

    /// [`Coordinator::latest_completed`], shared.
    pub(super) fn latest_restorable(&self) -> Option<Rc<GlobalState>> {
        self.retained.iter().rev().find(|g| !g.savepoint).cloned()
    }

    /// The records recorded so far as channel state of running checkpoint `id` on channel `c`,
    /// in the order they were recorded.
    pub fn recorded_so_far(&self, id: CheckpointId, c: ChannelId) -> Vec<Record> {
        self.pending.get(&id).map_or_else(Vec::new, |p| {
            p.channel_state
                .iter()
                .filter(|(ch, _)| *ch == c)
                .map(|(_, r)| *r)
                .collect()
        })
    }

    pub fn in_progress(&self) -> impl Iterator<Item = CheckpointId> + '_ {
        self.pending.keys().copied()
    }

    /// When a periodic trigger may start a checkpoint at the earliest, if it may at all now or
    /// later without another one ending first: while fewer than the most run at once, and no
    /// sooner than the minimum pause after the latest completed checkpoint (Flink's
    /// `CheckpointRequestDecider`; an aborted one does not count).
    pub(super) fn earliest_trigger(&self, now: u64) -> Option<u64> {
        if !self.has_room() {
            return None;
        }
        let since = if self.pause_from_any_end {
            self.last_end
        } else {
            self.last_completed
        };
        Some(match since {
            Some(end) => now.max(end.saturating_add(self.min_pause)),
            None => now,
        })
    }

    /// Whether another checkpoint may start now: fewer than the most run at once. A trigger by
    /// hand asks only this (the minimum pause is for periodic triggers).
    pub fn has_room(&self) -> bool {
        (self.pending.len() as u32) < self.max_concurrent
    }

    /// Triggers by hand waiting for a checkpoint to end.
    pub fn manual_waiting(&self) -> u32 {
        self.manual_waiting
    }

    pub(super) fn deadline(&self, id: CheckpointId) -> Option<u64> {
        self.pending
            .get(&id)
            .map(|p| p.trigger_time.saturating_add(self.timeout))
    }

    pub(super) fn start(&mut self, now: u64, tasks: u32, savepoint: bool) -> CheckpointId {
        let id = self.next_id;
        self.next_id += 1;
        self.pending.insert(
            id,
            Pending {
                trigger_time: now,
                snapshots: vec![None; tasks as usize],
                acked: 0,
                channel_state: Vec::new(),
                cuts: vec![0; tasks as usize],
                crossings: Vec::new(),
                unaligned: false,
                savepoint,
            },
        );
        self.summaries.push(CheckpointSummary {
            id,
            status: CheckpointStatus::InProgress,
            trigger_time: now,
            end_time: None,
            acked: 0,
            total: tasks,
            consistent: None,
            finding: Finding::Consistent,
            savepoint,
            checkpointed_size: 0,
            persisted_bytes: 0,
        });
        if self.summaries.len() > CHECKPOINT_HISTORY {
            // The oldest ended ones go, a quarter at a time (never one still running).
            let ended = (self.summaries.iter())
                .take(CHECKPOINT_HISTORY / 4)
                .take_while(|s| s.end_time.is_some())
                .count();
            self.summaries.drain(..ended);
        }
        id
    }

    /// Records an acknowledgement; returns the new ack count, or `None` when the checkpoint
    /// is no longer pending (a late ack of an aborted checkpoint is dropped, as in Flink).
    pub(super) fn ack(&mut self, id: CheckpointId, snapshot: TaskSnapshot) -> Option<u32> {
        let pending = self.pending.get_mut(&id)?;
        let slot = pending.snapshots.get_mut(snapshot.task as usize)?;
        if slot.is_none() {
            pending.acked += 1;
        }
        *slot = Some(snapshot);
        let acked = pending.acked;
        if let Some(s) = self.summary_mut(id) {
            s.acked = acked;
        }
        Some(acked)
    }

    pub(super) fn record_channel_state(&mut self, id: CheckpointId, c: ChannelId, r: Record) {
        if let Some(p) = self.pending.get_mut(&id) {
            p.channel_state.push((c, r));
        }
    }

    /// Task `t` took its snapshot for `id` when the next record id was `next_record`.
    pub(super) fn mark_cut(&mut self, id: CheckpointId, t: TaskId, next_record: RecordId) {
        if let Some(cut) = self
            .pending
            .get_mut(&id)
            .and_then(|p| p.cuts.get_mut(t as usize))
        {
            if *cut == 0 {
                *cut = next_record;
            }
        }
    }

    /// Task `to` is about to let `record`, from `sender` over `channel`, change its state:
    /// for every running checkpoint, does that cross the cut the wrong way? Received before
    /// the receiver's snapshot but sent after the sender's is an orphan; received after the
    /// receiver's snapshot, sent before the sender's (or the sender has none yet) and not
    /// recorded in the channel's state is lost.
    pub(super) fn observe(
        &mut self,
        to: TaskId,
        sender: TaskId,
        channel: ChannelId,
        record: Record,
    ) {
        for p in self.pending.values_mut() {
            let (Some(&receiver_cut), Some(&sender_cut)) =
                (p.cuts.get(to as usize), p.cuts.get(sender as usize))
            else {
                continue;
            };
            let sent_after = sender_cut != 0 && record.id >= sender_cut;
            let kind = if receiver_cut == 0 {
                if !sent_after {
                    continue;
                }
                CrossingKind::Orphan
            } else {
                let recorded = p
                    .channel_state
                    .iter()
                    .rev()
                    .any(|&(c, r)| c == channel && r.id == record.id);
                if sent_after || recorded {
                    continue;
                }
                CrossingKind::Lost
            };
            p.crossings.push(Crossing {
                channel,
                record,
                kind,
            });
        }
    }

    /// Completes the identity check of `id` before it completes: records still in flight that
    /// were sent before their sender's snapshot and are not recorded are lost; recorded records
    /// sent after it are counted twice.
    pub(super) fn check_in_flight<'a>(
        &mut self,
        id: CheckpointId,
        phys: &Physical,
        queued: impl Fn(ChannelId) -> &'a VecDeque<Item>,
    ) {
        let Some(p) = self.pending.get_mut(&id) else {
            return;
        };
        let mut recorded: Vec<(u64, u64)> = p
            .channel_state
            .iter()
            .map(|&(c, r)| (u64::from(c), r.id))
            .collect();
        recorded.sort_unstable();
        for &(c, r) in &p.channel_state {
            let sender = phys.channels.get(c as usize).map_or(0, |i| i.from);
            let cut = p.cuts.get(sender as usize).copied().unwrap_or(0);
            if cut != 0 && r.id >= cut {
                p.crossings.push(Crossing {
                    channel: c,
                    record: r,
                    kind: CrossingKind::RecordedAfterCut,
                });
            }
        }
        for (c, info) in phys.channels.iter().enumerate() {
            let cut = p.cuts.get(info.from as usize).copied().unwrap_or(0);
            for item in queued(c as ChannelId) {
                if let ItemKind::Record(r) = item.kind {
                    let before = cut == 0 || r.id < cut;
                    if before && recorded.binary_search(&(c as u64, r.id)).is_err() {
                        p.crossings.push(Crossing {
                            channel: c as ChannelId,
                            record: r,
                            kind: CrossingKind::Lost,
                        });
                    }
                }
            }
        }
    }

    pub(super) fn is_complete(&self, id: CheckpointId) -> bool {
        self.pending
            .get(&id)
            .is_some_and(|p| p.acked as usize == p.snapshots.len())
    }

    /// Turns a fully acknowledged checkpoint into its global state, with the checker's verdict.
    pub(super) fn take_complete(
        &mut self,
        id: CheckpointId,
        now: u64,
        phys: &Physical,
    ) -> Option<GlobalState> {
        let p = self.pending.remove(&id)?;
        self.set_status(id, CheckpointStatus::Completed, now);
        self.last_completed = Some(now);
        self.last_end = Some(now);
        self.failed_in_a_row = 0;
        let tasks = p.snapshots.into_iter().flatten().collect();
        let mut gs = snapshot::checked(
            id,
            p.trigger_time,
            now,
            tasks,
            by_channel(&p.channel_state),
            p.crossings,
            phys,
        );
        gs.savepoint = p.savepoint;
        if let Some(s) = self.summary_mut(id) {
            s.consistent = Some(gs.verdict.ok());
            s.finding = gs.verdict.finding();
            let metrics = gs.tasks.iter().map(|t| &t.metrics);
            s.checkpointed_size = metrics.clone().map(|m| m.checkpointed_size()).sum();
            s.persisted_bytes = metrics.map(|m| m.persisted_bytes()).sum();
        }
        Some(gs)
    }

    /// Keeps a completed checkpoint's global state: the newest `retain` checkpoints, as
    /// Flink's completed-checkpoint store does. A savepoint is not in that store; it is kept
    /// among them to be opened, and goes once every checkpoint before it has gone (or when
    /// more than [`SAVEPOINTS_KEPT`] are kept).
    pub(super) fn retain(&mut self, gs: GlobalState) {
        self.retained.push_back(Rc::new(gs));
        while self.retained.iter().filter(|g| !g.savepoint).count() > self.retain
            || self.retained.len() > self.retain + SAVEPOINTS_KEPT
        {
            self.retained.pop_front();
        }
    }

    /// Aborts a pending checkpoint; false if it was not pending.
    pub(super) fn abort(&mut self, id: CheckpointId, reason: AbortReason, now: u64) -> bool {
        if self.pending.remove(&id).is_none() {
            return false;
        }
        self.set_status(id, CheckpointStatus::Aborted { reason }, now);
        self.last_end = Some(now);
        // Flink's failure manager does not count a savepoint that failed.
        if reason.counts_as_failure() && !self.is_savepoint(id) {
            self.failed_in_a_row += 1;
        }
        true
    }

    fn set_status(&mut self, id: CheckpointId, status: CheckpointStatus, now: u64) {
        if let Some(s) = self.summary_mut(id) {
            s.status = status;
            s.end_time = Some(now);
        }
    }

    /// What `task` reported with its acknowledgement of the running checkpoint `id`, if it has
    /// acknowledged it.
    pub fn ack_of(&self, id: CheckpointId, task: TaskId) -> Option<&TaskMetrics> {
        self.pending
            .get(&id)
            .and_then(|p| p.snapshots.get(task as usize))
            .and_then(|s| s.as_ref())
            .map(|s| &s.metrics)
    }

    pub fn acked_by(&self, id: CheckpointId, task: TaskId) -> bool {
        self.pending
            .get(&id)
            .and_then(|p| p.snapshots.get(task as usize))
            .is_some_and(|s| s.is_some())
    }
}

/// Recorded in-flight records grouped by channel, each channel's in the order they were recorded.
fn by_channel(recorded: &[(ChannelId, Record)]) -> SortedMap<ChannelId, Vec<Record>> {
    // Sorting (channel, position) pairs keeps each channel's order, and uses the one sort the
    // page already has (`sort_unstable` over `(u64, u64)`) instead of adding another.
    let mut order: Vec<(u64, u64)> = recorded
        .iter()
        .enumerate()
        .map(|(at, &(c, _))| (u64::from(c), at as u64))
        .collect();
    order.sort_unstable();
    let mut state: SortedMap<ChannelId, Vec<Record>> = SortedMap::new();
    for (_, at) in order {
        if let Some(&(c, record)) = recorded.get(at as usize) {
            // Channels come in increasing order, so a new one is appended.
            state.get_or_default(c).push(record);
        }
    }
    state
}

/// How many checkpoints may run at once. A stopped world runs one by its nature. (Unaligned
/// checkpoints with more than one at once is a job Flink refuses to start, and so does
/// `Simulation::new`.)
fn max_concurrent(config: &Config) -> u32 {
    if config.mode.stops_the_world() {
        1
    } else {
        config.max_concurrent_checkpoints.max(1)
    }
}
