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

    /// Src B → Merge by rebalance (first), Src A → Merge forward, Src C → Merge broadcast,
    /// Merge → Sink by rebalance; parallelism 2 but Src B's 1.
    fn mixed() -> Physical {
        let op = |name: &str, kind, parallelism| Operator {
            name: name.into(),
            kind,
            parallelism,
            processing_time: 1,
        };
        let source = || OperatorKind::Source {
            lines: vec!["a".into()],
            interval: 5,
            bounded: false,
        };
        let graph = JobGraph {
            operators: vec![
                op("Src A", source(), 2),
                op("Src B", source(), 1),
                op("Src C", source(), 2),
                op("Merge", OperatorKind::Union, 2),
                op(
                    "Sink",
                    OperatorKind::Sink {
                        transactional: false,
                    },
                    2,
                ),
            ],
            edges: vec![
                Edge::new("Src B", "Merge", Partitioning::Rebalance),
                Edge::new("Src A", "Merge", Partitioning::Forward),
                Edge::new("Src C", "Merge", Partitioning::Broadcast),
                Edge::new("Merge", "Sink", Partitioning::Rebalance),
            ],
        };
        Physical::build(&graph).unwrap()
    }

    fn resolve(phys: &Physical, mode: BarrierMode, timeout: Option<u64>) -> Rc<[BarrierPolicy]> {
        let config = Config {
            mode,
            aligned_checkpoint_timeout: timeout,
            ..Config::default()
        };
        BarrierPolicy::resolve(phys, &config)
    }

    /// The channels into the operator named `name`.
    fn into(phys: &Physical, name: &str) -> Vec<usize> {
        let op = phys
            .graph
            .operators
            .iter()
            .position(|o| o.name == name)
            .unwrap() as u32;
        (0..phys.channels.len())
            .filter(|&c| phys.tasks[phys.channels[c].to as usize].operator == op)
            .collect()
    }

    /// Flink's partitioner rule: an operator with a forward input keeps every input aligned —
    /// its rebalance input too — names the first such edge (forward, not the broadcast after
    /// it), and never times out; the operator after it, with a rebalance input only, keeps
    /// the protocol's policy.
    #[test]
    fn a_forward_input_keeps_every_input_of_its_operator_aligned() {
        let phys = mixed();
        let (merge, sink) = (into(&phys, "Merge"), into(&phys, "Sink"));
        // Src B's 2 rebalance channels, Src A's 2 forward ones, Src C's 4 broadcast ones.
        assert_eq!(merge.len(), 8);
        assert_eq!(sink.len(), 4);
        assert_eq!(merge.len() + sink.len(), phys.channels.len());
        let kept = BarrierPolicy {
            priority: false,
            may_time_out: false,
            kept_aligned: Some(Partitioning::Forward),
        };
        for timeout in [None, Some(40)] {
            let all = resolve(&phys, BarrierMode::Unaligned, timeout);
            assert_eq!(all.len(), phys.channels.len());
            for &c in &merge {
                assert_eq!(all[c], kept, "unaligned, channel {c}");
                assert!(!all[c].overtakes(false) && !all[c].overtakes(true));
            }
            for &c in &sink {
                assert!(all[c].priority && all[c].overtakes(false), "channel {c}");
                assert_eq!(all[c].kept_aligned, None);
            }
        }
        let all = resolve(&phys, BarrierMode::Aligned, Some(40));
        for &c in &merge {
            assert_eq!(all[c], kept, "aligned with a timeout, channel {c}");
            assert!(!all[c].overtakes(true));
        }
        for &c in &sink {
            assert_eq!(
                all[c],
                BarrierPolicy {
                    priority: false,
                    may_time_out: true,
                    kept_aligned: None,
                },
                "channel {c}"
            );
            assert!(all[c].overtakes(true));
        }
    }

    /// Where the protocol's barriers never overtake, nothing is kept aligned: the policy is
    /// the protocol's on every channel, whatever the partitioning.
    #[test]
    fn without_priority_barriers_or_a_timeout_nothing_is_kept() {
        let phys = mixed();
        let plain = BarrierPolicy::default();
        assert_eq!(
            resolve(&phys, BarrierMode::Aligned, None).as_ref(),
            vec![plain; phys.channels.len()].as_slice()
        );
        for mode in [
            BarrierMode::AtLeastOnce,
            BarrierMode::ChandyLamport,
            BarrierMode::Synchronous,
        ] {
            for timeout in [None, Some(40)] {
                let all = resolve(&phys, mode, timeout);
                assert!(
                    all.iter().all(|p| *p == plain),
                    "{mode} {timeout:?}: {all:?}"
                );
            }
        }
    }

    /// Rescale and broadcast keep barriers aligned as forward does; hash and rebalance do not.
    #[test]
    fn each_partitioning_that_keeps_barriers_aligned() {
        for p in Partitioning::ALL {
            let mut graph = mixed().graph;
            graph
                .operators
                .retain(|o| o.name != "Src B" && o.name != "Src C");
            graph
                .edges
                .retain(|e| e.from == "Src A" || e.from == "Merge");
            graph.operators[1].kind = OperatorKind::Map;
            graph.edges[0].partitioning = p;
            let phys = Physical::build(&graph).unwrap();
            let all = resolve(&phys, BarrierMode::Unaligned, None);
            let expect = matches!(
                p,
                Partitioning::Forward | Partitioning::Rescale | Partitioning::Broadcast
            )
            .then_some(p);
            for c in into(&phys, "Merge") {
                assert_eq!(all[c].kept_aligned, expect, "{p:?}");
                assert_eq!(all[c].priority, expect.is_none(), "{p:?}");
            }
        }
    }
}
