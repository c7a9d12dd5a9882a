//! One channel as it is now: the items in flight or waiting at the receiver's port, its
//! counters, its credit (capacity and occupancy) and its delivery settings. How items are sent
//! and delivered — the discipline — is `network.rs`'s.

use std::collections::VecDeque;

use super::record::Item;
use super::vocab::{CheckpointId, RecordId};

/// Why a channel's head cannot be delivered now (`Simulation::delivery_hold`).
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
#[derive(Clone, Debug)]
pub struct Channel {
    /// Items in flight or waiting at the receiver's port, oldest first.
    pub(super) queue: VecDeque<Item>,
    pub paused: bool,
    pub latency: u64,
    /// Records the sender has put on this channel.
    pub records_sent: u64,
    /// Records from this channel the receiving operator has processed.
    pub records_received: u64,
    /// Unaligned: records still queued here that a barrier overtook at the sender, with that
    /// checkpoint, in queue order. They are that checkpoint's channel state.
    pub(super) overtaken: Vec<(RecordId, CheckpointId)>,
    /// Records of this channel waiting in the receiver's alignment buffer. They keep their
    /// network buffers (no credit goes back to the sender), so they count toward capacity.
    pub(super) held: u32,
    /// Records (not control items) in `queue`.
    pub(super) queued_records: u32,
    /// Items the channel holds at most (from its edge).
    pub(super) capacity: u32,
    /// FIFO (the default). Otherwise each item takes a random time of 1 to twice the latency
    /// and the queue is kept in arrival order, so a later item may overtake an earlier one.
    pub fifo: bool,
    /// Bumped whenever the queued delivery event of this channel becomes stale.
    pub(super) generation: u32,
    pub(super) scheduled: bool,
}

impl Channel {
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

    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// No credit left: the sender may not put more records on it.
    pub fn is_full(&self) -> bool {
        self.occupancy() >= self.capacity
    }
}
