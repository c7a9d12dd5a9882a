//! The benchmark's job: a word count at parallelism `p` whose words spread evenly over the
//! Count subtasks, so that no key is hot and no task busier than the others.

use abs_playground::engine::{
    Config, Edge, JobGraph, Operator, OperatorKind, Partitioning, Physical,
};

use super::{CHECKPOINT_INTERVAL, LATENCY, LINES_PER_SUBTASK, SOURCE_INTERVAL, WORDS_PER_LINE};

/// The benchmark's job at parallelism `p`.
pub(super) struct Workload {
    pub(super) p: u32,
    pub(super) graph: JobGraph,
    pub(super) config: Config,
}

pub(super) fn operator(name: &str, kind: OperatorKind, p: u32) -> Operator {
    Operator {
        name: name.into(),
        kind,
        parallelism: p,
        processing_time: 1,
    }
}

pub(super) fn edge(from: &str, to: &str, partitioning: Partitioning) -> Edge {
    Edge {
        from: from.into(),
        to: to.into(),
        partitioning,
        latency: LATENCY,
        fifo: true,
        capacity: abs_playground::engine::model::DEFAULT_CAPACITY,
    }
}

/// Sentences → Split (forward) → Count (hash) → Sink (forward, or hash when `keyed_sink`: two
/// all-to-all edges of p² channels each, the shape of a real job's plan at high parallelism),
/// `p` subtasks each.
pub(super) fn workload(p: u32, keyed_sink: bool) -> Result<Workload, String> {
    let graph = JobGraph {
        operators: vec![
            operator(
                "Sentences",
                OperatorKind::Source {
                    lines: balanced_lines(p)?,
                    interval: SOURCE_INTERVAL,
                    bounded: false,
                },
                p,
            ),
            operator("Split", OperatorKind::Split, p),
            operator("Count", OperatorKind::Count, p),
            operator(
                "Sink",
                OperatorKind::Sink {
                    transactional: true,
                },
                p,
            ),
        ],
        edges: vec![
            edge("Sentences", "Split", Partitioning::Forward),
            edge("Split", "Count", Partitioning::Hash),
            edge(
                "Count",
                "Sink",
                if keyed_sink {
                    Partitioning::Hash
                } else {
                    Partitioning::Forward
                },
            ),
        ],
    };
    let config = Config {
        checkpoint_interval: Some(CHECKPOINT_INTERVAL),
        first_trigger: CHECKPOINT_INTERVAL,
        ..Config::default()
    };
    Ok(Workload { p, graph, config })
}

/// The log: `LINES_PER_SUBTASK × p` lines of distinct words, chosen so that every Count
/// subtask receives the same number of words per pass (hash partitioning by the engine's own
/// word hash), hence no hot key and no task busier than the others.
pub(super) fn balanced_lines(p: u32) -> Result<Vec<String>, String> {
    let p = p as usize;
    let per_bucket = LINES_PER_SUBTASK * WORDS_PER_LINE;
    let mut candidates = 48 * p;
    loop {
        let words: Vec<String> = (0..candidates).map(|i| format!("w{i}")).collect();
        let probe = JobGraph {
            operators: vec![
                operator(
                    "Probe",
                    OperatorKind::Source {
                        lines: vec![words.join(" ")],
                        interval: 1,
                        bounded: false,
                    },
                    1,
                ),
                operator(
                    "Sink",
                    OperatorKind::Sink {
                        transactional: true,
                    },
                    1,
                ),
            ],
            edges: vec![edge("Probe", "Sink", Partitioning::Forward)],
        };
        let phys = Physical::build(&probe).map_err(|e| e.to_string())?;
        let mut buckets: Vec<Vec<&str>> = vec![Vec::new(); p];
        for (word, &hash) in phys.words.iter().zip(&phys.word_hash) {
            let bucket = &mut buckets[hash as usize % p];
            if bucket.len() < per_bucket {
                bucket.push(word);
            }
        }
        if buckets.iter().all(|b| b.len() == per_bucket) {
            let lines = (0..LINES_PER_SUBTASK * p)
                .map(|line| {
                    (0..WORDS_PER_LINE)
                        .map(|i| {
                            let o = line * WORDS_PER_LINE + i;
                            buckets[o % p][o / p]
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            return Ok(lines);
        }
        candidates *= 2;
    }
}
