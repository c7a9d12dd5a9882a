//! The checkpoint marks of a run's timeline, and which of them are drawn: one per stretch of
//! the timeline, the most telling (the run keeps its old marks thinned the same way).

use crate::engine::view::MarkKind;
use crate::engine::CheckpointId;

/// A checkpoint event on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub step: u64,
    /// Virtual time of that step (the throughput chart draws marks by time).
    pub time: u64,
    pub checkpoint: CheckpointId,
    pub kind: MarkKind,
}

/// Marks are drawn in this many stretches of the timeline at most.
pub const CLUSTERS: u64 = 90;

/// How telling a mark is: a failure, then an abort, a completion, a trigger.
fn rank(k: MarkKind) -> u8 {
    match k {
        MarkKind::Failed => 3,
        MarkKind::Aborted => 2,
        MarkKind::Completed => 1,
        MarkKind::Triggered => 0,
    }
}

/// The marks to draw (`marks` in step order, the timeline `len` steps long): one per stretch of
/// 1/[`CLUSTERS`] of the timeline — the most telling of the marks in it, the earliest of those
/// — with how many marks it stands for.
pub fn clusters(marks: &[Mark], len: u64) -> Vec<(Mark, u32)> {
    let len = len.max(1);
    let mut out: Vec<(u64, Mark, u32)> = Vec::new();
    for m in marks {
        let at = m.step.min(len).saturating_mul(CLUSTERS) / len;
        match out.last_mut() {
            Some((stretch, best, n)) if *stretch == at => {
                *n += 1;
                if rank(m.kind) > rank(best.kind) {
                    *best = *m;
                }
            }
            _ => out.push((at, *m, 1)),
        }
    }
    out.into_iter().map(|(_, m, n)| (m, n)).collect()
}

/// Thins the marks older than the newest quarter to the ones the timeline would draw for that
/// stretch of the run: the most telling of each of its [`CLUSTERS`] parts (a failure first,
/// then an abort, a completion, a trigger). The timeline still marks the whole run, evenly,
/// and the recent marks stay complete.
pub fn thin_marks(marks: &mut Vec<Mark>) {
    let old = marks.len() - marks.len() / 4;
    let end = marks[old].step;
    let mut kept: Vec<Mark> = clusters(&marks[..old], end)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    kept.extend_from_slice(&marks[old..]);
    *marks = kept;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(step: u64, kind: MarkKind) -> Mark {
        Mark {
            step,
            time: step,
            checkpoint: 1,
            kind,
        }
    }

    #[test]
    fn marks_close_together_are_one_and_the_most_telling_shows() {
        let marks: Vec<Mark> = (0..10_000u64)
            .map(|i| {
                mark(
                    i,
                    if i % 3 == 0 {
                        MarkKind::Triggered
                    } else {
                        MarkKind::Completed
                    },
                )
            })
            .chain([mark(5_000, MarkKind::Failed)])
            .collect();
        let mut sorted = marks.clone();
        sorted.sort_by_key(|m| m.step);
        let shown = clusters(&sorted, 10_000);
        assert!(shown.len() as u64 <= CLUSTERS + 1, "{}", shown.len());
        assert_eq!(
            shown.iter().map(|(_, n)| u64::from(*n)).sum::<u64>(),
            10_001
        );
        assert!(shown.iter().any(|(m, _)| m.kind == MarkKind::Failed));
        // A short run keeps every mark apart.
        let few = [mark(1, MarkKind::Triggered), mark(40, MarkKind::Completed)];
        assert_eq!(clusters(&few, 100).len(), 2);
    }

    /// Thinning keeps the most telling old mark of each stretch (a failure over the rest) and
    /// the newest quarter whole.
    #[test]
    fn thinning_marks_keeps_the_most_telling_and_the_newest() {
        let mark = |step: u64, kind| Mark {
            step,
            time: step,
            checkpoint: step / 2 + 1,
            kind,
        };
        let n = 8 * CLUSTERS;
        let mut marks: Vec<Mark> = (0..n)
            .map(|s| match s % 2 {
                0 => mark(s, MarkKind::Triggered),
                _ => mark(s, MarkKind::Completed),
            })
            .collect();
        marks[40] = mark(40, MarkKind::Failed);
        thin_marks(&mut marks);
        let recent = (n - n / 4) as usize;
        assert_eq!(marks.len(), CLUSTERS as usize + n as usize - recent);
        let old = &marks[..CLUSTERS as usize];
        assert!(old
            .iter()
            .any(|m| m.step == 40 && m.kind == MarkKind::Failed));
        assert_eq!(
            old.iter().filter(|m| m.kind == MarkKind::Triggered).count(),
            0
        );
        assert_eq!(marks[CLUSTERS as usize].step, recent as u64);
        assert_eq!(marks.last().map(|m| m.step), Some(n - 1));
    }
}
