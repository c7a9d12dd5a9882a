//! The scenarios the playground ships (see `docs/presets.md` for what each must teach).

#[cfg(feature = "en")]
pub mod text_en;
#[cfg(feature = "zh")]
pub mod text_zh;

use abs_engine::{Config, Edge, JobGraph, Operator, OperatorKind, Partitioning};

#[cfg(not(target_arch = "wasm32"))]
use super::Failure;
use super::{Scenario, ScenarioError};
#[cfg(not(target_arch = "wasm32"))]
use abs_engine::BarrierMode;

/// Preset names in picker order.
pub const NAMES: &[&str] = &[
    "alignment",
    "wordcount",
    "concurrent",
    "backpressure",
    "slow-sink",
    "recovery",
    "iteration",
    "token",
    "bank",
    "large",
];

/// Presets that measure the page rather than teach: left out of the students' list (a link
/// still opens them).
pub const BENCHMARKS: &[&str] = &["large", HUGE];

/// A job of real size (131,328 channels), the page's benchmark at scale: reachable by a link
/// and in `abs-sim`, but not among [`NAMES`], whose every preset the tests run in every mode.
pub const HUGE: &str = "huge";

/// Systems small enough for `abs-sim explore` to try every interleaving of: not in the
/// students' list either (a link opens them, in the second player: index.html), and not among
/// [`NAMES`].
pub const SMALL: &[&str] = &["alignment-tiny", "bank-tiny"];

// The presets the page reads from JSON files (`presets/NAME.json`, made from the builders
// below by `UPDATE_PRESETS=1 cargo test --lib presets`): every one but the benchmarks. In the
// wasm, a file and the JSON reader the page has anyway weigh less than the code that builds
// them. The native build — the CLI and the tests — runs the builders, and a test holds the
// files to them.
#[cfg(target_arch = "wasm32")]
mod stored {
    use super::{lesson, title, Scenario};

    /// A preset from its file, with the page's title and lesson.
    fn read(name: &str, json: &str) -> Scenario {
        let Ok(mut s) = Scenario::from_json(json) else {
            unreachable!("the preset files are read by the tests: {name}")
        };
        s.title = title(name);
        s.lesson = lesson(name);
        s
    }

    macro_rules! stored {
        ($($f:ident $name:literal)*) => {
            $( pub fn $f() -> Scenario { read($name, include_str!(concat!("presets/", $name, ".json"))) } )*
        };
    }

    stored! {
        alignment "alignment"
        wordcount "wordcount"
        concurrent "concurrent"
        backpressure "backpressure"
        slow_sink "slow-sink"
        recovery "recovery"
        iteration "iteration"
        token "token"
        bank "bank"
        alignment_tiny "alignment-tiny"
        bank_tiny "bank-tiny"
    }
}
#[cfg(target_arch = "wasm32")]
pub use stored::*;

pub fn by_name(name: &str) -> Result<Scenario, ScenarioError> {
    match name {
        "alignment" => Ok(alignment()),
        "wordcount" => Ok(wordcount()),
        "concurrent" => Ok(concurrent()),
        "backpressure" => Ok(backpressure()),
        "slow-sink" => Ok(slow_sink()),
        "recovery" => Ok(recovery()),
        "iteration" => Ok(iteration()),
        "token" => Ok(token()),
        "bank" => Ok(bank()),
        "large" => Ok(large()),
        // The student's builds leave out `huge` and the small systems of the search (the
        // explore view's): index.html loads the second player (`bin/abs-big.rs`) for them.
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        "huge" => Ok(huge()),
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        "alignment-tiny" => Ok(alignment_tiny()),
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        "bank-tiny" => Ok(bank_tiny()),
        _ => Err(ScenarioError::UnknownPreset(name.to_string())),
    }
}

/// A preset's title: the page's, in the language it is built in (English when built with
/// both, as the CLI and the tests are). One text per preset, so a preset file and the page
/// say the same.
// Not inlined: every preset calls it, and each inlined copy is page weight.
#[inline(never)]
fn title(name: &str) -> String {
    words(name).0.to_string()
}

/// A preset's lesson, as [`title`] (its mode's own lesson is the page's to choose).
// Not inlined: every preset calls it, and each inlined copy is page weight.
#[inline(never)]
fn lesson(name: &str) -> String {
    words(name).1.to_string()
}

fn words(name: &str) -> (&'static str, &'static str) {
    #[cfg(feature = "en")]
    let text = text_en::preset_text(name);
    #[cfg(all(feature = "zh", not(feature = "en")))]
    let text = text_zh::preset_text(name);
    #[cfg(not(any(feature = "en", feature = "zh")))]
    let text = None::<(&'static str, &'static str)>;
    text.unwrap_or(("", ""))
}

pub fn all() -> Vec<Scenario> {
    NAMES.iter().filter_map(|n| by_name(n).ok()).collect()
}

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
/// backpressures Src B. Not inlined: three presets build it, and the page's wasm would hold
/// three copies.
#[inline(never)]
fn two_inputs(
    slow: u64,
    slow_capacity: u32,
    interval: u64,
    merge_time: u64,
    sink_time: u64,
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
            edge("Src A", "Merge", Partitioning::Forward, 12),
            Edge {
                capacity: slow_capacity,
                ..edge("Src B", "Merge", Partitioning::Forward, slow)
            },
            edge("Merge", "Sink", Partitioning::Forward, 12),
        ],
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn alignment() -> Scenario {
    Scenario {
        name: "alignment".into(),
        title: title("alignment"),
        lesson: lesson("alignment"),
        graph: two_inputs(48, abs_engine::model::DEFAULT_CAPACITY, 8, 1, 1),
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
                edge("Src", "Stage 1", Partitioning::Forward, 30),
                edge("Stage 1", "Stage 2", Partitioning::Forward, 30),
                edge("Stage 2", "Sink", Partitioning::Forward, 30),
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
        graph: two_inputs(160, 64, 4, 1, 1),
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
        graph: two_inputs(48, 64, 4, 1, 3),
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
                edge("Src A", "Sink", Partitioning::Forward, 12),
                edge("Src B", "Sink", Partitioning::Forward, 30),
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
            edge("Src", "Step", Partitioning::Forward, 10),
            edge("Step", "Step", Partitioning::Forward, 16),
            edge("Step", "Sink", Partitioning::Forward, 10),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files the page reads are the builders' presets, title and lesson aside
    /// (`UPDATE_PRESETS=1` writes them).
    #[test]
    fn the_stored_presets_are_the_built_ones() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/presets");
        let stored = NAMES
            .iter()
            .chain(SMALL)
            .filter(|n| !BENCHMARKS.contains(n));
        for name in stored {
            let mut s = by_name(name).unwrap();
            s.title.clear();
            s.lesson.clear();
            let json = without_defaults(&s);
            let path = dir.join(format!("{name}.json"));
            if std::env::var("UPDATE_PRESETS").as_deref() == Ok("1") {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &json).unwrap();
            }
            let stored = std::fs::read_to_string(&path)
                .unwrap_or_else(|_| panic!("{} is missing: UPDATE_PRESETS=1", path.display()));
            assert_eq!(stored, json, "{name}: run with UPDATE_PRESETS=1");
            assert_eq!(crate::Scenario::from_json(&stored).unwrap(), s, "{name}");
        }
        // No file left over from a preset that is gone.
        let files = std::fs::read_dir(&dir).unwrap().count();
        let stored = NAMES
            .iter()
            .chain(SMALL)
            .filter(|n| !BENCHMARKS.contains(n));
        assert_eq!(files, stored.count());
    }

    /// The scenario's compact JSON without the fields the reader fills in the same (every
    /// byte of the files is page weight).
    fn without_defaults(s: &Scenario) -> String {
        use serde_json::Value;
        let mut v: Value = serde_json::from_str(&s.to_compact_json()).unwrap();
        let mut plain = s.clone();
        plain.config = Config::default();
        let plain: Value = serde_json::from_str(&plain.to_compact_json()).unwrap();
        let defaults = &plain["config"];
        let drop = |o: &mut Value, key: &str, default: &Value| {
            if let Some(m) = o.as_object_mut() {
                if m.get(key) == Some(default) {
                    m.remove(key);
                }
            }
        };
        if let (Some(config), Some(d)) = (v.get_mut("config"), defaults.as_object()) {
            for (key, default) in d {
                drop(config, key, default);
            }
        }
        drop(&mut v, "lesson", &Value::from(""));
        drop(&mut v, "seed", &Value::from(0));
        for op in v["graph"]["operators"].as_array_mut().unwrap() {
            drop(op, "processing_time", &Value::from(1));
        }
        for edge in v["graph"]["edges"].as_array_mut().unwrap() {
            drop(
                edge,
                "capacity",
                &Value::from(abs_engine::model::DEFAULT_CAPACITY),
            );
            drop(edge, "fifo", &Value::from(true));
        }
        v.to_string()
    }

    #[test]
    fn every_preset_has_the_pages_title_and_lesson() {
        for s in all() {
            let (title, lesson) = words(&s.name);
            assert!(!title.is_empty() && !lesson.is_empty(), "{}", s.name);
            assert_eq!((s.title.as_str(), s.lesson.as_str()), (title, lesson));
        }
        assert_eq!(all().len(), NAMES.len());
    }
}
