//! How barriers cross one channel: the protocol's description and the channel's edge applied
//! once, when the simulation is built, so that the network, the checkpointing and the tasks ask
//! the channel how its barriers go — never which protocol runs. The aligned-checkpoint timeout
//! and Flink's partitioner rule are policies here, not modes of their own.

use std::rc::Rc;

use crate::model::{Config, Partitioning};
use crate::physical::Physical;

/// How barriers (and cancellation markers) cross one channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BarrierPolicy {
    /// They cross as priority events from the start: they overtake queued records (which
    /// become channel state) and are taken by a receiver without output credit (unaligned).
    pub priority: bool,
    /// A barrier may become a priority event once its checkpoint's alignment has timed out
    /// (aligned with `aligned_checkpoint_timeout`).
    pub may_time_out: bool,
    /// The protocol would let barriers overtake here, but the receiving operator has an input
    /// edge with this partitioning (forward, rescale or broadcast), over which Flink sends
    /// only aligned barriers: every input of the receiver keeps its barriers in line, never
    /// times out, and the receiver takes each checkpoint aligned. `None` where the protocol's
    /// barriers never overtake anyway.
    pub kept_aligned: Option<Partitioning>,
}

impl BarrierPolicy {
    /// The policy of every channel of `phys` under `config`, by channel id.
    pub fn resolve(phys: &Physical, config: &Config) -> Rc<[BarrierPolicy]> {
        let protocol = config.mode.description();
        let policy = BarrierPolicy {
            priority: protocol.priority_barriers,
            may_time_out: protocol.blocks_inputs && config.aligned_checkpoint_timeout.is_some(),
            kept_aligned: None,
        };
        if !policy.priority && !policy.may_time_out {
            return vec![policy; phys.channels.len()].into();
        }
        // Flink marks every input edge of an operator unaligned-unsupported as soon as one of
        // them is (the first such edge, in the graph's order, is the one named).
        let graph = &phys.graph;
        let kept: Vec<Option<Partitioning>> = graph
            .operators
            .iter()
            .map(|op| {
                graph
                    .edges
                    .iter()
                    .filter(|e| e.to == op.name)
                    .map(|e| e.partitioning)
                    .find(|p| p.keeps_barriers_aligned())
            })
            .collect();
        phys.channels
            .iter()
            .map(|ch| {
                let operator = phys.tasks[ch.to as usize].operator as usize;
                match kept.get(operator).copied().flatten() {
                    Some(by) => BarrierPolicy {
                        priority: false,
                        may_time_out: false,
                        kept_aligned: Some(by),
                    },
                    None => policy,
                }
            })
            .collect()
    }

    /// Whether a barrier of a checkpoint crosses this channel as a priority event, `timed_out`
    /// saying whether that checkpoint (or the sending task's alignment of it) went on
    /// unaligned.
    pub fn overtakes(self, timed_out: bool) -> bool {
        self.priority || (timed_out && self.may_time_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edge, JobGraph, Operator, OperatorKind, Partitioning};
    use crate::BarrierMode;

    fn phys() -> Physical {
        let op = |name: &str, kind| Operator {
            name: name.into(),
            kind,
            parallelism: 2,
            processing_time: 1,
        };
        let source = OperatorKind::Source {
            lines: vec!["a".into()],
            interval: 5,
            bounded: false,
        };
        let graph = JobGraph {
            operators: vec![
                op("Src", source),
                op(
                    "Sink",
                    OperatorKind::Sink {
                        transactional: false,
                    },
                ),
            ],
            edges: vec![Edge {
                from: "Src".into(),
                to: "Sink".into(),
                partitioning: Partitioning::Rebalance,
                latency: 5,
                capacity: 4,
                fifo: true,
            }],
        };
        Physical::build(&graph).unwrap()
    }

    /// Unaligned barriers overtake from the start; aligned ones only after a timeout, and
    /// only where one is set; no other protocol's barriers ever overtake.
    #[test]
    fn each_channel_gets_its_protocols_policy() {
        let phys = phys();
        let policy = |mode, timeout| {
            let config = Config {
                mode,
                aligned_checkpoint_timeout: timeout,
                ..Config::default()
            };
            let all = BarrierPolicy::resolve(&phys, &config);
            assert_eq!(all.len(), 4, "one per channel");
            assert!(all.iter().all(|p| *p == all[0]));
            all[0]
        };
        let unaligned = policy(BarrierMode::Unaligned, None);
        assert!(unaligned.priority && unaligned.overtakes(false));
        let aligned = policy(BarrierMode::Aligned, None);
        assert!(!aligned.overtakes(false) && !aligned.overtakes(true));
        let timeout = policy(BarrierMode::Aligned, Some(40));
        assert!(!timeout.overtakes(false) && timeout.overtakes(true));
        for mode in [
            BarrierMode::AtLeastOnce,
            BarrierMode::ChandyLamport,
            BarrierMode::Synchronous,
        ] {
            let p = policy(mode, Some(40));
            assert!(!p.overtakes(false) && !p.overtakes(true), "{mode}");
        }
    }
}
