//! The run as a space-time diagram sees it: every item's trip along a channel (sent, arrived,
//! processed — as steps and virtual times), every snapshot as a point on its task's line, and a
//! completed snapshot's cut with the records that cross it, classified by where their ends lie.
//!
//! The classification is geometric — a record sent before its sender's snapshot and not
//! processed before its receiver's is *in flight at the cut*; one sent after its sender's
//! snapshot but processed before its receiver's is an *orphan* — and never read from the
//! checker: `tests/spacetime.rs` holds it equal to what the checker recorded and found, so the
//! picture cannot say something the global-state panel does not.
//!
//! Send steps come from record ids: ids are handed out in order and a record is sent in the
//! step it is made, so the step that made an id is the first whose `next_record` passed it.

use super::super::barrier::CheckpointId;
use super::super::physical::{ChannelId, TaskId};
use super::super::record::{ItemKind, Record};
use super::super::sim::Simulation;
use super::super::trace::Event;
use super::super::vocab::RecordId;

/// A point of the run: the step, and the virtual time it happened at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Moment {
    pub step: u64,
    pub time: u64,
}

/// One item's trip along a channel, logged when it arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trip {
    pub channel: ChannelId,
    pub item: ItemKind,
    pub sent: Moment,
    pub arrived: Moment,
    /// A record: when its receiver processed it — later than its arrival when it waited in
    /// an alignment buffer, never when it was recorded as channel state instead.
    pub processed: Option<Moment>,
}

/// A task's snapshot for a checkpoint: a dot on its line, a point of that checkpoint's cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnapshotPoint {
    pub task: TaskId,
    pub checkpoint: CheckpointId,
    pub at: Moment,
}

/// How a record lies across a cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Across {
    /// Sent before its sender's snapshot, not processed before its receiver's: in flight at
    /// the cut, so a consistent snapshot records it as channel state.
    InFlight,
    /// Sent after its sender's snapshot, processed before its receiver's: counted twice.
    Orphan,
}

/// The log the diagram draws from, kept as the run goes (`record` after each step).
#[derive(Clone, Debug, Default)]
pub struct SpaceTime {
    trips: Vec<Trip>,
    snapshots: Vec<SnapshotPoint>,
    /// `(moment, next record id after it)` for every step that made records, in step order.
    made: Vec<(Moment, RecordId)>,
    /// Trips of records that arrived but are not processed yet (held), by index.
    waiting: Vec<usize>,
}

impl SpaceTime {
    /// A log that starts at `sim`'s step: records made before it count as made then.
    pub fn starting_at(sim: &Simulation) -> SpaceTime {
        let mut st = SpaceTime::default();
        let at = Moment {
            step: sim.steps(),
            time: sim.now(),
        };
        st.made.push((at, sim.next_record_id()));
        st
    }

    /// Where the log starts.
    pub fn start(&self) -> Option<Moment> {
        self.made.first().map(|&(m, _)| m)
    }

    /// Logs what the step the simulation just took did.
    pub fn record(&mut self, sim: &Simulation) {
        let now = Moment {
            step: sim.steps(),
            time: sim.now(),
        };
        let next = sim.next_record_id();
        if self.made.last().is_none_or(|&(_, n)| n < next) {
            self.made.push((now, next));
        }
        let phys = sim.physical();
        for e in sim.last_events() {
            match *e {
                Event::Snapshot {
                    task, checkpoint, ..
                } => self.snapshots.push(SnapshotPoint {
                    task,
                    checkpoint,
                    at: now,
                }),
                Event::Arrived { channel, item, .. } => {
                    let from = phys.channels.get(channel as usize).map(|c| c.from);
                    let sent = match item {
                        ItemKind::Record(r) => self.made_at(r.id),
                        ItemKind::Barrier(n) | ItemKind::Cancel(n) => {
                            from.and_then(|f| self.snapshot_of(f, n)).map(|p| p.at)
                        }
                        ItemKind::EndOfPartition => None,
                    };
                    let processed = None;
                    self.trips.push(Trip {
                        channel,
                        item,
                        sent: sent.unwrap_or(now),
                        arrived: now,
                        processed,
                    });
                    if matches!(item, ItemKind::Record(_)) {
                        self.waiting.push(self.trips.len() - 1);
                    }
                }
                Event::Processed {
                    channel, record, ..
                } => self.processed(channel, &record, now),
                _ => {}
            }
        }
    }

    fn processed(&mut self, channel: ChannelId, record: &Record, now: Moment) {
        let found = self.waiting.iter().position(|&i| {
            let t = &self.trips[i];
            t.channel == channel && t.item == ItemKind::Record(*record)
        });
        if let Some(w) = found {
            let i = self.waiting.swap_remove(w);
            self.trips[i].processed = Some(now);
        }
    }

    /// The moment the record with id `id` was made (and sent), if the log goes back so far.
    pub fn made_at(&self, id: RecordId) -> Option<Moment> {
        let at = self.made.partition_point(|&(_, next)| next <= id);
        self.made.get(at).map(|&(at, _)| at)
    }

    /// Task `task`'s snapshot for `checkpoint`.
    pub fn snapshot_of(&self, task: TaskId, checkpoint: CheckpointId) -> Option<&SnapshotPoint> {
        self.snapshots
            .iter()
            .rev()
            .find(|p| p.task == task && p.checkpoint == checkpoint)
    }

    pub fn trips(&self) -> &[Trip] {
        &self.trips
    }

    pub fn snapshots(&self) -> &[SnapshotPoint] {
        &self.snapshots
    }

    /// The records on channel `channel` that cross checkpoint `n`'s cut, with how: every
    /// trip logged, and (`queued`) the records still on the channel now.
    pub fn crossing(
        &self,
        sim: &Simulation,
        channel: ChannelId,
        n: CheckpointId,
    ) -> Vec<(Record, Across)> {
        let Some(info) = sim.physical().channels.get(channel as usize) else {
            return Vec::new();
        };
        let (Some(from), Some(to)) = (self.snapshot_of(info.from, n), self.snapshot_of(info.to, n))
        else {
            return Vec::new();
        };
        let (s, r) = (from.at.step, to.at.step);
        let logged = self
            .trips
            .iter()
            .filter(|t| t.channel == channel)
            .filter_map(|t| {
                let ItemKind::Record(rec) = t.item else {
                    return None;
                };
                Some((rec, t.processed.map(|p| p.step)))
            });
        let queued = sim.channels()[channel as usize]
            .items()
            .iter()
            .filter_map(|i| match i.kind {
                ItemKind::Record(rec) => Some((rec, None)),
                _ => None,
            });
        let mut out = Vec::new();
        for (rec, processed) in logged.chain(queued) {
            let Some(sent) = self.made_at(rec.id).map(|m| m.step) else {
                continue;
            };
            let before_receiver = processed.is_some_and(|p| p < r);
            if sent < s && !before_receiver {
                out.push((rec, Across::InFlight));
            } else if sent > s && before_receiver {
                out.push((rec, Across::Orphan));
            }
        }
        out
    }
}
