//! One channel as it is now: the items in flight or waiting at the receiver's port, its
//! counters, its credit (capacity and occupancy) and its delivery settings. How items are sent
//! and delivered — the discipline — is the network's (`network.rs`).

use std::collections::VecDeque;

use super::record::{Item, ItemKind};
use super::vocab::{CheckpointId, RecordId};

/// Why a channel's head cannot be delivered now (`Network::hold`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hold {
    Empty,
    Paused,
    /// The receiver first replays its alignment buffer (step ④).
    Replaying,
    /// The receiver has a full output and this is no priority event.
    Backpressured,
}

/// One input or output channel, as it is now.
///
/// Natively its fields are laid out in this order, the channel 64-byte aligned (`repr(C)`): a
/// job of real size has 131,328 channels, some 17 MB, and a delivery is a cache miss on a
/// random one; what the scheduler reads first (the queue, the barriers overtaking, the plan's
/// generation, the capacity) fills the first cache line. The page's wasm keeps the compiler's
/// layout, 88 bytes a channel instead of 128.
#[derive(Clone, Debug)]
#[cfg_attr(not(target_arch = "wasm32"), repr(C, align(64)))]
pub struct Channel {
    /// Items in flight or waiting at the receiver's port, oldest first.
    pub(super) queue: VecDeque<Item>,
    /// Priority barriers (unaligned, or of a checkpoint gone unaligned) still behind other
    /// items, oldest first. Each crosses the channel in its latency and, on arrival, overtakes
    /// whatever is still queued ahead of it.
    pub(super) overtaking: Vec<CheckpointId>,
    /// Bumped whenever the queued delivery event of this channel becomes stale.
    pub(super) generation: u32,
    /// Items the channel holds at most (from its edge).
    pub(super) capacity: u32,
    /// Records of this channel waiting in the receiver's alignment buffer. They keep their
    /// network buffers (no credit goes back to the sender), so they count toward capacity.
    pub(super) held: u32,
    /// Records (not control items) in `queue`.
    pub(super) queued_records: u32,
    pub paused: bool,
    /// FIFO (the default). Otherwise each item takes a random time of 1 to twice the latency
    /// and the queue is kept in arrival order, so a later item may overtake an earlier one.
    pub fifo: bool,
    pub(super) scheduled: bool,
    pub latency: u64,
    /// Records the sender has put on this channel.
    pub records_sent: u64,
    /// Records from this channel the receiving operator has processed.
    pub records_received: u64,
    /// Records still queued here that a priority barrier overtook when it arrived, with that
    /// checkpoint, in queue order. They are that checkpoint's channel state.
    pub(super) overtaken: Vec<(RecordId, CheckpointId)>,
}

impl Channel {
    /// Which item the receiver takes next if it takes one now or as soon as one arrives, and
    /// when that is: the head — unless a priority barrier behind it arrives no later than the
    /// head can be taken, which then overtakes everything ahead of it.
    pub(super) fn next_delivery(&self, now: u64) -> Option<(usize, u64)> {
        let head = self.queue.front()?.arrives_at.max(now);
        for &n in &self.overtaking {
            let found = self
                .queue
                .iter()
                .enumerate()
                .find(|(_, i)| i.kind == ItemKind::Barrier(n));
            if let Some((at, item)) = found {
                if item.arrives_at <= head {
                    return Some((at, item.arrives_at.max(now)));
                }
            }
        }
        Some((0, head))
    }

    /// Before the first item ever queued: room for exactly one. A queue's first allocation
    /// would otherwise be four items, and a checkpoint's barrier reaches every channel — with
    /// 131,000 channels, 22 MB more per copy of the simulation for what is mostly one barrier
    /// each (a queue that needs more grows as usual).
    pub(super) fn room_for_first(&mut self) {
        if self.queue.capacity() == 0 {
            self.queue.reserve_exact(1);
        }
    }

    /// The delivery planned for this channel is stale: a new one must be planned.
    pub(super) fn drop_plan(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.scheduled = false;
    }

    /// When the first priority barrier still behind other items arrives.
    pub(super) fn overtaking_arrival(&self) -> Option<u64> {
        let n = *self.overtaking.first()?;
        self.queue
            .iter()
            .find(|i| i.kind == ItemKind::Barrier(n))
            .map(|i| i.arrives_at)
    }

    /// Items in flight or waiting at the receiver's port, oldest first.
    pub fn items(&self) -> &VecDeque<Item> {
        &self.queue
    }

    /// Records in flight plus those held in the receiver's alignment buffer. Barriers,
    /// cancellation markers and ends of partition are small events that never wait for
    /// credit, so they do not count.
    pub fn occupancy(&self) -> u32 {
        self.queued_records.saturating_add(self.held)
    }

    /// Records sent and not yet arrived at the receiver's port at `now`.
    pub fn records_on_wire(&self, now: u64) -> u32 {
        self.queue
            .iter()
            .filter(|i| i.arrives_at > now && matches!(i.kind, ItemKind::Record(_)))
            .count() as u32
    }

    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// No credit left: the sender may not put more records on it.
    pub fn is_full(&self) -> bool {
        self.occupancy() >= self.capacity
    }
}
