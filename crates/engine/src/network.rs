//! The network: every channel with its queue and credit, and the delivery discipline — FIFO,
//! non-FIFO, and the one exception to FIFO that Flink makes too: a priority (unaligned)
//! barrier overtakes the records queued ahead of it.
//!
//! This part owns the channels and the credit bookkeeping ([`FlowControl`]) and answers the
//! one rule of delivery, [`Network::hold`], for the scheduler, the list of enabled actions and
//! the checks of a manual delivery alike. It knows nothing of tasks or checkpoints: what the
//! rule needs of a receiver comes in a [`Receiver`], and what a delivery or a send means for
//! the rest of the job comes back as a value (`delivery.rs` hands it on). A new discipline is
//! a change here alone: where [`Network::push`] puts an item and which item
//! [`Channel::next_delivery`] takes next.

use std::collections::VecDeque;
use std::rc::Rc;

use super::barrier::BarrierPolicy;
use super::chaining::Chains;
use super::channel::{Channel, Hold};
use super::debloat::{BufferDebloat, Debloater};
use super::flow::{FlowControl, Relief};
use super::physical::Physical;
use super::record::{Item, ItemKind, Record};
use super::rng::SplitMix64;
use super::vocab::{ChannelId, CheckpointId, TaskId, MAX_LATENCY};

/// Every channel, and every task's credit.
#[derive(Clone, Debug)]
pub struct Network {
    pub(super) channels: Vec<Channel>,
    pub(super) flow: FlowControl,
    /// How barriers cross each channel (by channel id): where they are priority events
    /// (unaligned), a barrier or cancellation marker at the head is taken even by a receiver
    /// without output credit. Fixed once built, so a copy (a history keyframe) shares it.
    policies: Rc<[BarrierPolicy]>,
    /// Some channel keeps its barriers aligned (Flink's partitioner rule): asked by every
    /// render, so found once, not by a scan of the channels.
    keeps_aligned: bool,
    /// The savepoints: their barriers cross every channel in line, whatever its policy
    /// (Flink's savepoints are always aligned, and never time out).
    pub(super) savepoints: Vec<CheckpointId>,
    /// Buffer debloating, when the scenario asks for it: channel capacities follow what
    /// their receivers consume.
    pub(super) debloat: Option<Debloater>,
    /// Operator chaining: which channels are a chain's method calls rather than channels,
    /// and each task's chain head, which owns the chain's credit (fixed once built, shared).
    pub(super) chains: Rc<Chains>,
}

/// What the rule of delivery needs to know of a channel's receiver.
#[derive(Clone, Copy, Debug)]
pub(super) struct Receiver {
    pub(super) task: TaskId,
    /// It must first replay its alignment buffer (step ④).
    pub(super) replaying: bool,
    /// It takes input even while an output is full (a process, which only ever sends on its
    /// own).
    pub(super) takes_input_when_full: bool,
}

/// The item a receiver takes from a channel.
pub(super) struct Taken {
    pub(super) kind: ItemKind,
    /// A priority barrier of this checkpoint, arriving, overtook these records still queued
    /// ahead of it: they are the checkpoint's channel state, persisted by the receiver.
    pub(super) overtook: Option<(CheckpointId, Vec<Record>)>,
}

impl Network {
    pub(super) fn new(
        phys: &Physical,
        policies: Rc<[BarrierPolicy]>,
        debloat: Option<BufferDebloat>,
        chains: Rc<Chains>,
    ) -> Network {
        let channels = phys
            .channels
            .iter()
            .map(|c| Channel {
                queue: VecDeque::new(),
                paused: false,
                latency: c.latency.clamp(1, MAX_LATENCY),
                records_sent: 0,
                records_received: 0,
                overtaken: Vec::new(),
                overtaking: Vec::new(),
                held: 0,
                queued_records: 0,
                capacity: c.capacity,
                fifo: phys.graph.edges[c.edge as usize].fifo,
                generation: 0,
                scheduled: false,
            })
            .collect();
        Network {
            channels,
            flow: FlowControl::new(phys.tasks.len()),
            // A chained channel's receiver takes no barrier: it keeps none aligned.
            keeps_aligned: policies
                .iter()
                .enumerate()
                .any(|(c, p)| p.kept_aligned.is_some() && !chains.is_chained(c as ChannelId)),
            savepoints: Vec::new(),
            policies,
            debloat: debloat.map(|d| Debloater::new(d, phys.channels.len(), phys.tasks.len(), 0)),
            chains,
        }
    }

    /// How barriers cross channel `c`.
    /// Whether some channel keeps its barriers aligned although the run's would overtake.
    pub(super) fn keeps_aligned(&self) -> bool {
        self.keeps_aligned
    }

    /// Every channel's policy, by channel id (shared, not copied).
    pub(super) fn policies(&self) -> Rc<[BarrierPolicy]> {
        Rc::clone(&self.policies)
    }

    pub(super) fn policy(&self, c: ChannelId) -> BarrierPolicy {
        self.policies.get(c as usize).copied().unwrap_or_default()
    }

    /// Whether checkpoint `n`'s barrier crosses channel `c` as a priority event, `timed_out`
    /// saying whether it went on unaligned: never a savepoint's.
    pub(super) fn overtakes(&self, c: ChannelId, n: CheckpointId, timed_out: bool) -> bool {
        self.policy(c).overtakes(timed_out) && !self.savepoints.contains(&n)
    }

    /// Buffer debloating: when the next recalculation of capacities is due, if ever.
    pub(super) fn debloat_due(&self) -> Option<u64> {
        self.debloat.as_ref().map(Debloater::next_at)
    }

    /// Buffer debloating's recalculation at `now` ([`Debloater::recalculate`]).
    pub(super) fn debloat(
        &mut self,
        phys: &Physical,
        now: u64,
        next_event: u64,
    ) -> Vec<(ChannelId, u32, u64, bool)> {
        match self.debloat.as_mut() {
            Some(d) => d.recalculate(phys, &mut self.channels, now, next_event),
            None => Vec::new(),
        }
    }

    /// Whether no channel holds an item: the job has drained.
    pub(super) fn is_empty(&self) -> bool {
        self.channels.iter().all(|c| c.queue.is_empty())
    }

    /// **The** rule of delivery: why the head of channel `c` cannot be handed to its receiver
    /// at time `at`, or `None` when it can. In this order: nothing to deliver, a paused
    /// channel, a receiver that must first replay its alignment buffer, a receiver without
    /// output credit (unless the head is a priority event, or the receiver takes input when
    /// full).
    pub(super) fn hold(&self, c: ChannelId, at: u64, receiver: Receiver) -> Option<Hold> {
        let ch = &self.channels[c as usize];
        if ch.queue.is_empty() {
            Some(Hold::Empty)
        } else if ch.paused {
            Some(Hold::Paused)
        } else if receiver.replaying {
            Some(Hold::Replaying)
        } else if self.flow.has_full_output(receiver.task)
            && !self.is_priority(c, at)
            && !receiver.takes_input_when_full
        {
            Some(Hold::Backpressured)
        } else {
            None
        }
    }

    /// Whether the receiver of channel `c` may take its next item at time `at` although its
    /// outputs are full: a priority barrier that overtakes, and where barriers are priority
    /// events (unaligned) a barrier or cancellation marker at the head, are handled at once.
    fn is_priority(&self, c: ChannelId, at: u64) -> bool {
        let ch = &self.channels[c as usize];
        match ch.next_delivery(at) {
            Some((i, _)) if i > 0 => true,
            Some((_, _)) => {
                let head = ch.queue.front().map(|i| i.kind);
                matches!(head, Some(ItemKind::Barrier(n)) if ch.overtaking.contains(&n))
                    || (self.policy(c).priority
                        && matches!(head, Some(ItemKind::Barrier(n) | ItemKind::Cancel(n))
                            if !self.savepoints.contains(&n)))
            }
            None => false,
        }
    }

    /// Puts an item on channel `c` at time `now`. FIFO: it arrives a latency after it was
    /// sent and never before the item ahead of it. Non-FIFO: it takes a random 1 to 2 ×
    /// latency and goes into the queue in arrival order (after items arriving at the same
    /// time), overtaking slower ones. Returns true when it became the head of a non-FIFO
    /// channel: the delivery planned for the old head is stale.
    pub(super) fn push(
        &mut self,
        c: ChannelId,
        kind: ItemKind,
        now: u64,
        rng: &mut SplitMix64,
    ) -> bool {
        let ch = &mut self.channels[c as usize];
        ch.room_for_first();
        if matches!(kind, ItemKind::Record(_)) {
            ch.records_sent += 1;
            ch.queued_records += 1;
        }
        if ch.fifo {
            let arrives_at = ch
                .queue
                .back()
                .map_or(0, |i| i.arrives_at)
                .max(now.saturating_add(ch.latency));
            ch.queue.push_back(Item {
                kind,
                sent_at: now,
                arrives_at,
            });
            return false;
        }
        let delay = 1 + rng.below(ch.latency.saturating_mul(2).max(1));
        let arrives_at = now.saturating_add(delay);
        let at = ch.queue.partition_point(|i| i.arrives_at <= arrives_at);
        ch.queue.insert(
            at,
            Item {
                kind,
                sent_at: now,
                arrives_at,
            },
        );
        if at == 0 {
            ch.drop_plan();
        }
        at == 0
    }

    /// Unaligned checkpoints: barrier `n` is a priority event. It crosses the channel in the
    /// channel's latency (and behind older priority barriers), but it does not wait for the
    /// items ahead of it: those the receiver has not taken when it arrives, it overtakes
    /// ([`Network::take`]). The channel's delivery must be planned afresh.
    pub(super) fn push_priority_barrier(&mut self, c: ChannelId, n: CheckpointId, now: u64) {
        let ch = &mut self.channels[c as usize];
        // Barriers keep their order: none arrives before one sent earlier.
        let after_previous = ch
            .queue
            .iter()
            .filter(|i| matches!(i.kind, ItemKind::Barrier(_)))
            .map(|i| i.arrives_at)
            .max()
            .unwrap_or(0);
        let arrives_at = now.saturating_add(ch.latency).max(after_previous);
        let behind = !ch.queue.is_empty();
        ch.room_for_first();
        ch.queue.push_back(Item {
            kind: ItemKind::Barrier(n),
            sent_at: now,
            arrives_at,
        });
        if behind {
            ch.overtaking.push(n);
        }
        ch.drop_plan();
    }

    /// Aligned with a timeout: barrier `n`, queued on channel `c` since before its checkpoint
    /// went on unaligned, becomes a priority event: when it arrives (it may have already) it
    /// overtakes the records still ahead of it. Returns true when it did become one (the
    /// channel's delivery must then be planned afresh).
    pub(super) fn prioritise(&mut self, c: ChannelId, n: CheckpointId) -> bool {
        let ch = &mut self.channels[c as usize];
        let Some(at) = ch.queue.iter().position(|i| i.kind == ItemKind::Barrier(n)) else {
            return false;
        };
        if at == 0 || ch.overtaking.contains(&n) {
            return false;
        }
        ch.overtaking.push(n);
        ch.drop_plan();
        true
    }

    /// The exhaustive search's choice on a non-FIFO channel: item `at` arrives first, ahead of
    /// those queued before it (any order is possible there). False, and nothing changes, on a
    /// FIFO channel or past the queue's end.
    pub(super) fn bring_forward(&mut self, c: ChannelId, at: usize) -> bool {
        let Some(ch) = self.channels.get_mut(c as usize) else {
            return false;
        };
        if ch.fifo || at >= ch.queue.len() {
            return false;
        }
        if let Some(mut item) = ch.queue.remove(at) {
            item.arrives_at = ch.queue.front().map_or(item.arrives_at, |h| h.arrives_at);
            ch.queue.push_front(item);
            ch.drop_plan();
        }
        true
    }

    /// The exhaustive search's choice on a channel where a priority barrier waits behind
    /// other items: whether it has arrived at `now` (then it overtakes them when the channel
    /// next delivers, and a backpressured receiver takes it) or is still on its way (then the
    /// head goes first). Every channel when `c` is `None`.
    pub(super) fn set_priority_arrived(&mut self, c: Option<ChannelId>, arrived: bool, now: u64) {
        for (i, ch) in self.channels.iter_mut().enumerate() {
            if c.is_some_and(|c| c as usize != i) || ch.overtaking.is_empty() {
                continue;
            }
            let overtaking = &ch.overtaking;
            // Held back, the head is not: it is what goes first.
            for item in ch.queue.iter_mut().skip(usize::from(!arrived)) {
                if matches!(item.kind, ItemKind::Barrier(n) if overtaking.contains(&n)) {
                    item.arrives_at = if arrived { now } else { u64::MAX };
                }
            }
        }
    }

    /// The exhaustive search keeps a non-FIFO channel's items in one fixed order (records by
    /// age, then barriers, cancellation markers, the end of data and the end of the partition): any of them
    /// may arrive first there, so the order they happen to be queued in tells nothing, and
    /// two states that differ only in it are one. A channel with a priority barrier keeps
    /// its order (what is ahead of that barrier is its channel state).
    pub(super) fn order_unordered(&mut self) {
        for ch in &mut self.channels {
            if ch.fifo || !ch.overtaking.is_empty() {
                continue;
            }
            ch.queue.make_contiguous().sort_by_key(|i| match i.kind {
                ItemKind::Record(r) => (0, r.id),
                ItemKind::Barrier(n) => (1, n),
                ItemKind::Cancel(n) => (2, n),
                ItemKind::EndOfData => (3, 0),
                ItemKind::EndOfPartition => (4, 0),
            });
        }
    }

    /// Whether queued item `at` of channel `c` is a priority barrier.
    pub(super) fn is_overtaking(&self, c: ChannelId, at: usize) -> bool {
        self.channels.get(c as usize).is_some_and(|ch| {
            matches!(ch.queue.get(at), Some(i) if matches!(i.kind, ItemKind::Barrier(n) if ch.overtaking.contains(&n)))
        })
    }

    /// Whether a priority barrier waits behind channel `c`'s head.
    pub(super) fn has_overtaking(&self, c: ChannelId) -> bool {
        self.channels.get(c as usize).is_some_and(|ch| {
            ch.queue
                .iter()
                .skip(1)
                .any(|i| matches!(i.kind, ItemKind::Barrier(n) if ch.overtaking.contains(&n)))
        })
    }

    /// The receiver takes the next item of channel `c` at time `now`: the head, or a
    /// priority barrier that has arrived behind it, which then overtakes every record still
    /// queued ahead of it — sent before it, so before its sender's snapshot, and not yet taken
    /// by the receiver: the checkpoint's channel state.
    pub(super) fn take(&mut self, c: ChannelId, now: u64) -> Option<Taken> {
        let ch = &mut self.channels[c as usize];
        let (at, _) = ch.next_delivery(now)?;
        let overtook = if at > 0 { overtake(ch, at) } else { None };
        let item = ch.queue.remove(at)?;
        match item.kind {
            ItemKind::Record(r) => {
                ch.queued_records = ch.queued_records.saturating_sub(1);
                if ch.overtaken.first().is_some_and(|&(id, _)| id == r.id) {
                    ch.overtaken.remove(0);
                }
            }
            ItemKind::Barrier(n) => ch.overtaking.retain(|&id| id != n),
            _ => {}
        }
        if let (ItemKind::Record(_), Some(d)) = (item.kind, self.debloat.as_mut()) {
            d.took(c);
        }
        Some(Taken {
            kind: item.kind,
            overtook,
        })
    }

    /// Plans channel `c`'s next delivery, when it has none planned and is not paused: at the
    /// time its next item can be taken, and not before its receiver is free at `free_at`.
    /// Returns that time and the plan's generation.
    pub(super) fn plan_delivery(
        &mut self,
        c: ChannelId,
        now: u64,
        free_at: u64,
    ) -> Option<(u64, u32)> {
        let ch = &mut self.channels[c as usize];
        if ch.scheduled || ch.paused {
            return None;
        }
        let (_, next) = ch.next_delivery(now)?;
        ch.scheduled = true;
        Some((next.max(free_at), ch.generation))
    }

    /// Credit-based flow control: after channel `c`'s occupancy changed, keeps its sender's
    /// count of full outputs right (`sender`: the channel's sender, or where it is chained,
    /// its chain's head, which owns the chain's credit). When the sender's last full output
    /// got room and it was backpressured, returns what it resumes.
    pub(super) fn refresh_credit(
        &mut self,
        c: ChannelId,
        sender: TaskId,
        was_full: bool,
    ) -> Option<Relief> {
        let now_full = self.channels[c as usize].is_full();
        if now_full == was_full {
            return None;
        }

        if now_full {
            self.flow.output_filled(sender);
            return None;
        }
        self.flow.output_freed(sender)
    }

    /// Task `t` wanted to take input (or read its log) but an output is full: it is
    /// backpressured until that channel has room again. Returns the full channel when `t` was
    /// not backpressured yet.
    pub(super) fn backpressure(&mut self, phys: &Physical, t: TaskId) -> Option<ChannelId> {
        if !self.flow.mark_backpressured(t) {
            return None;
        }
        // The full output may be a chained operator's, further along the chain.
        let channels = &self.channels;
        self.chains.members(t).find_map(|u| {
            phys.tasks[u as usize]
                .outputs
                .iter()
                .flatten()
                .copied()
                .find(|&c| channels[c as usize].is_full())
        })
    }

    /// A record was handed over on chained channel `c`, which it never waits on.
    pub(super) fn record_sent(&mut self, c: ChannelId) {
        self.channels[c as usize].records_sent += 1;
    }

    /// The receiver took a record of channel `c` (its operator processes it).
    pub(super) fn record_received(&mut self, c: ChannelId) {
        self.channels[c as usize].records_received += 1;
    }

    /// A record of channel `c` went into (`true`) or came out of (`false`) its receiver's
    /// alignment buffer: while held it keeps its network buffer, so it counts toward the
    /// channel's capacity.
    pub(super) fn buffered(&mut self, c: ChannelId, held: bool) {
        let ch = &mut self.channels[c as usize];
        ch.held = if held {
            ch.held.saturating_add(1)
        } else {
            ch.held.saturating_sub(1)
        };
    }

    /// The delivery planned for channel `c` has been used (or dropped by the scheduler): the
    /// next one must be planned.
    pub(super) fn plan_used(&mut self, c: ChannelId) {
        self.channels[c as usize].scheduled = false;
    }

    /// Channel `c` waits for its receiver's output room, but a priority barrier behind its
    /// head does not: plans the channel's delivery for when that barrier arrives (not before
    /// `now`), to overtake. Returns that time and the plan's generation.
    pub(super) fn plan_priority(&mut self, c: ChannelId, now: u64) -> Option<(u64, u32)> {
        let ch = &mut self.channels[c as usize];
        let at = ch.overtaking_arrival()?;
        ch.drop_plan();
        ch.scheduled = true;
        Some((at.max(now), ch.generation))
    }

    /// After a restart: channel `c` counts from the restored cut — `sent` by its sender,
    /// `received` by its receiver — and its `recorded` channel state goes back at its head,
    /// arriving at `now + 1`, marked as replayed. Returns how many records went back.
    pub(super) fn restore(
        &mut self,
        c: ChannelId,
        sent: u64,
        received: u64,
        recorded: Vec<Record>,
        now: u64,
    ) -> u32 {
        let ch = &mut self.channels[c as usize];
        ch.records_sent = sent;
        // An at-least-once cut may hold records its sender had not sent yet (they will be
        // received again): the channel counts from where its sender resumes.
        ch.records_received = received.min(sent.saturating_sub(recorded.len() as u64));
        let arrives_at = now.saturating_add(1);
        let mut reinjected: u32 = 0;
        for r in recorded {
            ch.queue.push_back(Item {
                kind: ItemKind::Record(Record { replay: true, ..r }),
                sent_at: now,
                arrives_at,
            });
            ch.queued_records += 1;
            reinjected = reinjected.saturating_add(1);
        }
        reinjected
    }

    /// After a failure of a region (sorted `tasks`): its channels empty (what was in flight
    /// is gone, the channel has delivered all it ever will of it), its tasks owe no credit and
    /// wait for nothing. No channel joins two regions, so nothing else changes. When the
    /// region is the whole job, buffer debloating starts afresh too. Returns the channels that
    /// held items, with how many.
    pub(super) fn clear_region(
        &mut self,
        phys: &Physical,
        tasks: &[TaskId],
        now: u64,
    ) -> Vec<(ChannelId, u32)> {
        let mut lost = Vec::new();
        if let Some(d) = self
            .debloat
            .as_mut()
            .filter(|_| tasks.len() == phys.tasks.len())
        {
            // New tasks start with full-sized buffers and measure afresh.
            d.reset(now);
            for (ch, info) in self.channels.iter_mut().zip(&phys.channels) {
                ch.capacity = info.capacity;
            }
        }
        for (c, ch) in self.channels.iter_mut().enumerate() {
            if tasks.binary_search(&phys.channels[c].to).is_err() {
                continue;
            }
            if !ch.queue.is_empty() {
                lost.push((c as ChannelId, ch.queue.len() as u32));
            }
            ch.queue.clear();
            ch.records_sent = ch.records_received;
            ch.queued_records = 0;
            ch.held = 0;
            ch.overtaken.clear();
            ch.overtaking.clear();
            ch.drop_plan();
        }
        self.flow.reset_tasks(tasks);
        lost
    }

    /// [`Network::recount_credit`] for the channels into a region (sorted `tasks`).
    pub(super) fn recount_credit_of(&mut self, phys: &Physical, tasks: &[TaskId]) {
        for (c, info) in phys.channels.iter().enumerate() {
            if tasks.binary_search(&info.to).is_ok() && self.channels[c].is_full() {
                self.flow.output_filled(self.chains.head_of(info.from));
            }
        }
    }
}

/// A priority barrier, `at` places behind the head of `ch`, has arrived: every record still
/// queued ahead of it is now channel state of that barrier's checkpoint, the newest; one an
/// older barrier overtook too belongs to both, and is marked with the newer.
fn overtake(ch: &mut Channel, at: usize) -> Option<(CheckpointId, Vec<Record>)> {
    let Some(ItemKind::Barrier(n)) = ch.queue.get(at).map(|i| i.kind) else {
        return None;
    };
    let jumped: Vec<Record> = ch
        .queue
        .iter()
        .take(at)
        .filter_map(|i| match i.kind {
            ItemKind::Record(r) => Some(r),
            _ => None,
        })
        .collect();
    if jumped.is_empty() {
        return None;
    }
    ch.overtaken.clear();
    ch.overtaken.extend(jumped.iter().map(|r| (r.id, n)));
    Some((n, jumped))
}
