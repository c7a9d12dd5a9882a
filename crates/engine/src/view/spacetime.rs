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
                        ItemKind::EndOfData | ItemKind::EndOfPartition => None,
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

    /// Every record the log knows, once — each trip logged, then (never processed) each
    /// record still on a channel now — with its channel, when it was sent and processed, and
    /// the cut's points (`points`, one per task, `u64::MAX` for none) on its sender's and its
    /// receiver's lines; records without both points, or sent before the log began, are left
    /// out.
    fn each_across(
        &self,
        sim: &Simulation,
        points: &[u64],
        mut f: impl FnMut(ChannelId, Record, Moment, Option<Moment>, u64, u64),
    ) {
        let channels = &sim.physical().channels;
        let mut one = |c: ChannelId, rec: Record, processed: Option<Moment>| {
            let Some(info) = channels.get(c as usize) else {
                return;
            };
            let (Some(&s), Some(&r), Some(sent)) = (
                points.get(info.from as usize),
                points.get(info.to as usize),
                self.made_at(rec.id),
            ) else {
                return;
            };
            if s != u64::MAX && r != u64::MAX {
                f(c, rec, sent, processed, s, r);
            }
        };
        for t in &self.trips {
            if let ItemKind::Record(rec) = t.item {
                one(t.channel, rec, t.processed);
            }
        }
        for (c, ch) in sim.channels().iter().enumerate() {
            for i in ch.items() {
                if let ItemKind::Record(rec) = i.kind {
                    one(c as ChannelId, rec, None);
                }
            }
        }
    }

    /// The records on channel `channel` that cross checkpoint `n`'s cut, with how.
    pub fn crossing(
        &self,
        sim: &Simulation,
        channel: ChannelId,
        n: CheckpointId,
    ) -> Vec<(Record, Across)> {
        self.crossings(sim, n)
            .into_iter()
            .filter(|&(c, ..)| c == channel)
            .map(|(_, r, a)| (r, a))
            .collect()
    }

    /// The records that cross checkpoint `n`'s cut, with their channels and how, in one pass
    /// over the log: every trip logged, and the records still on a channel now. A channel
    /// whose two tasks have not both snapshot for `n` (in the log) has none.
    pub fn crossings(&self, sim: &Simulation, n: CheckpointId) -> Vec<(ChannelId, Record, Across)> {
        let phys = sim.physical();
        // Each task's snapshot step, `u64::MAX` for none.
        let points: Vec<u64> = (0..phys.tasks.len() as TaskId)
            .map(|t| self.snapshot_of(t, n).map_or(u64::MAX, |p| p.at.step))
            .collect();
        let mut out = Vec::new();
        self.each_across(sim, &points, |c, rec, sent, processed, s, r| {
            let inside = processed.is_some_and(|p| p.step < r);
            if let Some(how) = classify(sent.step < s, sent.step > s, inside) {
                out.push((c, rec, how));
            }
        });
        out
    }

    /// The records that cross a cut placed by hand, `cut` holding one virtual time per task:
    /// what happened on a task's line at or before its time lies before the cut. In the order
    /// the log has them, with their channels. A cut with no orphan is consistent.
    pub fn across(&self, sim: &Simulation, cut: &[u64]) -> Vec<(ChannelId, Record, Across)> {
        let mut out = Vec::new();
        self.each_across(sim, cut, |c, rec, sent, processed, s, r| {
            let inside = processed.is_some_and(|p| p.time <= r);
            if let Some(how) = classify(sent.time <= s, sent.time > s, inside) {
                out.push((c, rec, how));
            }
        });
        out
    }
}

/// How a record lies across a cut: sent inside it (before its point on the sender's line),
/// or outside it (after; a send in the very step of a snapshot is neither), and processed
/// inside it or not (not yet, or after the receiver's point).
fn classify(sent_inside: bool, sent_outside: bool, processed_inside: bool) -> Option<Across> {
    if sent_inside && !processed_inside {
        Some(Across::InFlight)
    } else if sent_outside && processed_inside {
        Some(Across::Orphan)
    } else {
        None
    }
}
