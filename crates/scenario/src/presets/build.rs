//! The presets' builders: each scenario as code, run natively (by `abs-sim` and the tests);
//! the page reads the same scenarios from their files (`presets/*.json`, held to these by a
//! test), except the benchmarks, which are built everywhere.

use abs_engine::{Config, Edge, JobGraph, Operator, OperatorKind, Partitioning};

#[cfg(not(target_arch = "wasm32"))]
use super::super::Failure;
use super::super::Scenario;
use super::{lesson, title};
#[cfg(not(target_arch = "wasm32"))]
use abs_engine::BarrierMode;

// Not inlined: every preset calls it, and each inlined copy is page weight.
#[inline(never)]
fn op(name: &str, kind: OperatorKind, parallelism: u32, processing_time: u64) -> Operator {
    Operator {
        name: name.to_string(),
        kind,
        parallelism,
        processing_time,
    }
}

// Not inlined: every preset calls it, and each inlined copy is page weight.
#[inline(never)]
fn source(name: &str, lines: &[&str], interval: u64, parallelism: u32) -> Operator {
    op(
        name,
        OperatorKind::Source {
            lines: lines.iter().map(|s| s.to_string()).collect(),
            interval,
            bounded: false,
        },
        parallelism,
        1,
    )
}

// Not inlined: every preset calls it, and each inlined copy is page weight.
#[inline(never)]
fn edge(from: &str, to: &str, partitioning: Partitioning, latency: u64) -> Edge {
    Edge {
        from: from.to_string(),
        to: to.to_string(),
        partitioning,
        latency,
        capacity: abs_engine::model::DEFAULT_CAPACITY,
        fifo: true,
    }
}

#[cfg(not(target_arch = "wasm32"))]
const FRUIT_A: &[&str] = &["apple", "apricot", "avocado", "almond", "acerola", "akebi"];
#[cfg(not(target_arch = "wasm32"))]
const FRUIT_B: &[&str] = &[
    "banana",
    "blueberry",
    "bilberry",
    "blackberry",
    "boysenberry",
];

#[cfg(not(target_arch = "wasm32"))]
const TEXT: &[&str] = &[
    "to be or not to be",
    "the barrier splits the stream",
    "records before the barrier belong to the snapshot",
    "records after the barrier belong to the next one",
    "align the inputs then snapshot the state",
    "the sink acknowledges and the checkpoint is complete",
];

#[cfg(not(target_arch = "wasm32"))]
/// Two sources into a two-input Merge and a sink that takes `sink_time` per record; Src B's
/// channel takes `slow` and holds up to `slow_capacity` items, so its latency alone never
/// backpressures Src B. The sources reach Merge by rebalance, as a real job's shuffle would,
/// so that unaligned barriers may overtake there (Flink keeps them aligned on forward edges);
/// Merge reaches the sink by `to_sink`. Not inlined: three presets build it, and the page's
/// wasm would hold three copies.
#[inline(never)]
fn two_inputs(
    slow: u64,
    slow_capacity: u32,
    interval: u64,
    (merge_time, sink_time): (u64, u64),
    to_sink: Partitioning,
) -> JobGraph {
    JobGraph {
        operators: vec![
            source("Src A", FRUIT_A, interval, 1),
            source("Src B", FRUIT_B, interval, 1),
            op("Merge", OperatorKind::Union, 1, merge_time),
            op(
                "Sink",
                OperatorKind::Sink {
                    transactional: true,
                },
                1,
                sink_time,
            ),
        ],
        edges: vec![
            edge("Src A", "Merge", Partitioning::Rebalance, 12),
            Edge {
                capacity: slow_capacity,
                ..edge("Src B", "Merge", Partitioning::Rebalance, slow)
            },
            edge("Merge", "Sink", to_sink, 12),
        ],
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn alignment() -> Scenario {
    Scenario {
        name: "alignment".into(),
        title: title("alignment"),
        lesson: lesson("alignment"),
        // Merge → Sink stays forward: in unaligned mode its barrier waits in line there, as
        // Flink's would (the unaligned lesson asks about it).
        graph: two_inputs(
            48,
            abs_engine::model::DEFAULT_CAPACITY,
            8,
            (1, 1),
            Partitioning::Forward,
        ),
        config: Config {
            checkpoint_interval: Some(120),
            first_trigger: 20,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn wordcount() -> Scenario {
    Scenario {
        name: "wordcount".into(),
        title: title("wordcount"),
        lesson: lesson("wordcount"),
        // One sentence per 17 per source keeps Count and the single Sink below full load
        // (~0.8 records per time unit at the sink), so queues stay short and checkpoints quick.
        graph: wordcount_graph(2, 1, 17),
        config: Config {
            checkpoint_interval: Some(90),
            first_trigger: 30,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Sentences → Split (forward) → Count (hash) → Sink, parallelism `p` but for the sink;
/// a sink of another parallelism is fed by rebalance.
pub fn wordcount_graph(p: u32, sink_p: u32, interval: u64) -> JobGraph {
    JobGraph {
        operators: vec![
            source("Sentences", TEXT, interval, p),
            op("Split", OperatorKind::Split, p, 1),
            op("Count", OperatorKind::Count, p, 1),
            op(
                "Sink",
                OperatorKind::Sink {
                    transactional: true,
                },
                sink_p,
                1,
            ),
        ],
        edges: vec![
            edge("Sentences", "Split", Partitioning::Forward, 8),
            edge("Split", "Count", Partitioning::Hash, 8),
            edge(
                "Count",
                "Sink",
                if sink_p == p {
                    Partitioning::Forward
                } else {
                    Partitioning::Rebalance
                },
                8,
            ),
        ],
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// The lines of the `recovery` preset: word count over a bounded log, so the job ends and its
/// result can be compared with the run without the failure.
const STORY: &[&str] = &[
    "the job reads the log",
    "a task fails and the job stops",
    "every task restores the last checkpoint",
    "the sources rewind and read the log again",
    "the counts come out as if nothing had failed",
    "unless the checkpoint was at least once",
    "then some words are counted twice",
    "the sink commits only what a checkpoint completed",
    "and the job ends with the counts",
    "that a run without the failure ends with",
];

#[cfg(not(target_arch = "wasm32"))]
pub fn recovery() -> Scenario {
    let mut graph = wordcount_graph(2, 1, 30);
    if let OperatorKind::Source { lines, bounded, .. } = &mut graph.operators[0].kind {
        *lines = STORY.iter().map(|s| s.to_string()).collect();
        *bounded = true;
    }
    // Counting takes a while: words queue at Count, so at-least-once's barriers from the two
    // Splits arrive apart and records slip in between.
    graph.operators[2].processing_time = 3;
    Scenario {
        name: "recovery".into(),
        title: title("recovery"),
        lesson: lesson("recovery"),
        graph,
        config: Config {
            checkpoint_interval: Some(40),
            first_trigger: 20,
            restart_delay: 20,
            ..Config::default()
        },
        seed: 1,
        failures: vec![Failure {
            task: "Count#1".into(),
            at: 120,
        }],
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn concurrent() -> Scenario {
    Scenario {
        name: "concurrent".into(),
        title: title("concurrent"),
        lesson: lesson("concurrent"),
        graph: JobGraph {
            operators: vec![
                source("Src", FRUIT_A, 6, 1),
                op("Stage 1", OperatorKind::Map, 1, 1),
                op("Stage 2", OperatorKind::Map, 1, 1),
                op(
                    "Sink",
                    OperatorKind::Sink {
                        transactional: true,
                    },
                    1,
                    1,
                ),
            ],
            edges: vec![
                edge("Src", "Stage 1", Partitioning::Rebalance, 30),
                edge("Stage 1", "Stage 2", Partitioning::Rebalance, 30),
                edge("Stage 2", "Sink", Partitioning::Rebalance, 30),
            ],
        },
        config: Config {
            checkpoint_interval: Some(20),
            first_trigger: 10,
            max_concurrent_checkpoints: 3,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn backpressure() -> Scenario {
    Scenario {
        name: "backpressure".into(),
        title: title("backpressure"),
        lesson: lesson("backpressure"),
        // Src B's records take 160 to arrive; while Merge aligns, Src A's records fill their
        // channel's 24 slots and Src A is backpressured: throughput drops (the seed's point).
        graph: two_inputs(160, 64, 4, (1, 1), Partitioning::Rebalance),
        config: Config {
            mode: BarrierMode::Aligned,
            checkpoint_interval: Some(200),
            first_trigger: 20,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

/// Backpressure from a slow consumer rather than a slow channel: the sink takes 3 per record
/// while the sources read one every 4 each, so every channel fills and an aligned barrier
/// waits behind full buffers at Merge and again at the sink. Buffer debloating
/// (`aligned-debloat`) keeps about 20 of input waiting per task, and the barrier passes almost
/// as soon as an unaligned one, which instead stores the records it overtakes.
#[cfg(not(target_arch = "wasm32"))]
pub fn slow_sink() -> Scenario {
    Scenario {
        name: "slow-sink".into(),
        title: title("slow-sink"),
        lesson: lesson("slow-sink"),
        graph: two_inputs(48, 64, 4, (1, 3), Partitioning::Rebalance),
        config: Config {
            mode: BarrierMode::Aligned,
            checkpoint_interval: Some(200),
            first_trigger: 20,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

pub fn large() -> Scenario {
    let p = 40;
    // Many distinct words, evenly spread, so hash partitioning has no hot key.
    let lines: Vec<String> = (0..120u32)
        .map(|l| {
            (0..6u32)
                .map(|w| format!("w{}", (l * 6 + w) * 37 % 241))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let line_refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    Scenario {
        name: "large".into(),
        title: title("large"),
        lesson: lesson("large"),
        graph: JobGraph {
            operators: vec![
                source("Sentences", &line_refs, 16, p),
                op("Split", OperatorKind::Split, p, 1),
                op("Filter", OperatorKind::Filter { min_len: 2 }, p, 1),
                op("Count", OperatorKind::Count, p, 1),
                op(
                    "Sink",
                    OperatorKind::Sink {
                        transactional: true,
                    },
                    p,
                    1,
                ),
            ],
            edges: vec![
                edge("Sentences", "Split", Partitioning::Forward, 30),
                edge("Split", "Filter", Partitioning::Rebalance, 30),
                edge("Filter", "Count", Partitioning::Hash, 30),
                edge("Count", "Sink", Partitioning::Forward, 30),
            ],
        },
        config: Config {
            checkpoint_interval: Some(150),
            first_trigger: 30,
            // Flink's default (`state.checkpoints.num-retained`): a global state here is 200
            // task snapshots, and the history's keyframes each hold the retained ones.
            retained_checkpoints: 1,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

#[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
/// A real job's size (issue 25): four operators at parallelism 256 with two hash edges —
/// 1,024 subtasks and 131,328 channels. The page draws it as operator cards and bundles.
pub fn huge() -> Scenario {
    let p = 256;
    // Distinct words, evenly spread over the Count subtasks.
    let lines: Vec<String> = (0..512u32)
        .map(|l| {
            (0..4u32)
                .map(|w| format!("w{}", (l * 4 + w) * 37 % 2039))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let line_refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    Scenario {
        name: "huge".into(),
        title: title("huge"),
        lesson: lesson("huge"),
        graph: JobGraph {
            operators: vec![
                source("Sentences", &line_refs, 24, p),
                op("Split", OperatorKind::Split, p, 1),
                op("Count", OperatorKind::Count, p, 1),
                op(
                    "Sink",
                    OperatorKind::Sink {
                        transactional: true,
                    },
                    p,
                    1,
                ),
            ],
            edges: vec![
                edge("Sentences", "Split", Partitioning::Forward, 30),
                edge("Split", "Count", Partitioning::Hash, 30),
                edge("Count", "Sink", Partitioning::Hash, 30),
            ],
        },
        config: Config {
            checkpoint_interval: Some(300),
            first_trigger: 20,
            retained_checkpoints: 1,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

/// The seed's system: processes `p` and `q`, channels `p→q` and `q→p`, one token. Snapshots
/// are initiated by `p` and `q` in turn — from `p` alone, "token in p→q" could never be
/// captured (p records s0 only after sending the token, and its marker follows the token).
#[cfg(not(target_arch = "wasm32"))]
pub fn token() -> Scenario {
    let process = |name: &str, has_token: bool| {
        op(
            name,
            OperatorKind::Token {
                has_token,
                hold: 40,
            },
            1,
            1,
        )
    };
    Scenario {
        name: "token".into(),
        title: title("token"),
        lesson: lesson("token"),
        graph: JobGraph {
            operators: vec![process("p", true), process("q", false)],
            edges: vec![
                edge("p", "q", Partitioning::Forward, 25),
                edge("q", "p", Partitioning::Forward, 25),
            ],
        },
        config: Config {
            mode: BarrierMode::ChandyLamport,
            checkpoint_interval: Some(75),
            first_trigger: 20,
            max_concurrent_checkpoints: 2,
            initiators: vec!["p".into(), "q".into()],
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

/// Three bank accounts, every pair connected, random transfers: every snapshot's balances plus
/// the transfers recorded in flight add up to the money there is.
#[cfg(not(target_arch = "wasm32"))]
pub fn bank() -> Scenario {
    let names = ["A", "B", "C"];
    let account = |name: &str| {
        op(
            name,
            OperatorKind::Account {
                balance: 100,
                interval: 16,
                max_transfer: 30,
            },
            1,
            1,
        )
    };
    let mut edges = Vec::new();
    for a in names {
        for b in names {
            if a != b {
                edges.push(edge(a, b, Partitioning::Forward, 30));
            }
        }
    }
    Scenario {
        name: "bank".into(),
        title: title("bank"),
        lesson: lesson("bank"),
        graph: JobGraph {
            operators: names.iter().map(|n| account(n)).collect(),
            edges,
        },
        config: Config {
            mode: BarrierMode::ChandyLamport,
            checkpoint_interval: Some(90),
            first_trigger: 30,
            max_concurrent_checkpoints: 2,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

/// `alignment` cut down for the exhaustive search: two bounded sources of two records each
/// into a sink, which aligns their barriers. (With a Merge between them, as in `alignment`,
/// one checkpoint's interleavings are 380,000 states instead of 4,800.)
#[cfg(not(target_arch = "wasm32"))]
pub fn alignment_tiny() -> Scenario {
    let bounded = |name: &str, lines: &[&str]| Operator {
        kind: OperatorKind::Source {
            lines: lines.iter().map(|s| s.to_string()).collect(),
            interval: 8,
            bounded: true,
        },
        ..source(name, lines, 8, 1)
    };
    Scenario {
        name: "alignment-tiny".into(),
        title: title("alignment-tiny"),
        lesson: lesson("alignment-tiny"),
        graph: JobGraph {
            operators: vec![
                bounded("Src A", &["apple", "avocado"]),
                bounded("Src B", &["banana", "blueberry"]),
                op(
                    "Sink",
                    OperatorKind::Sink {
                        transactional: false,
                    },
                    1,
                    1,
                ),
            ],
            edges: vec![
                edge("Src A", "Sink", Partitioning::Rebalance, 12),
                edge("Src B", "Sink", Partitioning::Rebalance, 30),
            ],
        },
        config: Config {
            checkpoint_interval: Some(40),
            first_trigger: 10,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

/// `bank` cut down for the exhaustive search: two accounts of $1 each, so at most two
/// transfers of $1 are ever on their way.
#[cfg(not(target_arch = "wasm32"))]
pub fn bank_tiny() -> Scenario {
    let account = |name: &str| {
        op(
            name,
            OperatorKind::Account {
                balance: 1,
                interval: 16,
                max_transfer: 1,
            },
            1,
            1,
        )
    };
    Scenario {
        name: "bank-tiny".into(),
        title: title("bank-tiny"),
        lesson: lesson("bank-tiny"),
        graph: JobGraph {
            operators: vec![account("A"), account("B")],
            edges: vec![
                edge("A", "B", Partitioning::Forward, 30),
                edge("B", "A", Partitioning::Forward, 30),
            ],
        },
        config: Config {
            mode: BarrierMode::ChandyLamport,
            checkpoint_interval: Some(90),
            first_trigger: 30,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

/// ABS for cyclic graphs: every word goes round Step's feedback edge three times before it
/// reaches the sink. The feedback is a back-edge: Step forwards barrier n once its source
/// delivered it, and logs what comes round the loop until barrier n does.
#[cfg(not(target_arch = "wasm32"))]
pub fn iteration() -> Scenario {
    Scenario {
        name: "iteration".into(),
        title: title("iteration"),
        lesson: lesson("iteration"),
        // Bounded: the job finishes once the last word has left the loop (then a final
        // checkpoint), so `abs-sim run --preset iteration --until-finished` gives its result.
        graph: iteration_graph(true),
        config: Config {
            checkpoint_interval: Some(80),
            first_trigger: 25,
            ..Config::default()
        },
        seed: 1,
        failures: Vec::new(),
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Src → Step ⇄ Step (feedback) → Sink; `bounded` sources end after one pass, and the job
/// finishes once the last word has left the loop.
pub fn iteration_graph(bounded: bool) -> JobGraph {
    JobGraph {
        operators: vec![
            op(
                "Src",
                OperatorKind::Source {
                    lines: FRUIT_A
                        .iter()
                        .chain(FRUIT_B)
                        .chain(FRUIT_A)
                        .chain(FRUIT_B)
                        .chain(FRUIT_A)
                        .chain(FRUIT_B)
                        .map(|s| s.to_string())
                        .collect(),
                    interval: 14,
                    bounded,
                },
                1,
                1,
            ),
            op("Step", OperatorKind::Iterate { rounds: 3 }, 1, 2),
            op(
                "Sink",
                OperatorKind::Sink {
                    transactional: true,
                },
                1,
                1,
            ),
        ],
        edges: vec![
            edge("Src", "Step", Partitioning::Rebalance, 10),
            edge("Step", "Step", Partitioning::Rebalance, 16),
            edge("Step", "Sink", Partitioning::Rebalance, 10),
        ],
    }
}
