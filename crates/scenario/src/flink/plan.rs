//! A Flink job plan (`GET /jobs/<id>/plan`) as a scenario.
//!
//! A plan names the job's vertices — each one task, often several operators chained — their
//! parallelism and, per input, the ship strategy (`FORWARD`, `HASH`, `REBALANCE` …). That is
//! the shape of the dataflow and nothing more: no rates, no latencies, no keys, no code. So
//! the scenario keeps the shape exactly (one operator per vertex, named as Flink's web UI
//! names it, so a real job's checkpoint history lines up with the run's) and fills in the
//! rest with defaults, and every default, guess and approximation is a [`PlanNotice`] the page
//! shows. What an operator does is guessed from its description (`Source: …`, `Flat Map`,
//! `Keyed Aggregation`, `Sink: …`), because the description is all a plan says about it.
//!
//! Also read: the older execution-plan JSON (`env.getExecutionPlan()`: numeric ids,
//! `contents`, `predecessors`), which has the same shape.

use super::json::{array_of, number_of, path_text, wrong_type, Obj, Path};
use super::names::{chain_parts, name_of};
pub use super::notice::{partitioning_name, GuessReason, PlanNotice};
use super::ImportError;
use crate::read::{Json, Node};
use crate::Scenario;
use abs_engine::model::{Edge, JobGraph, Operator, OperatorKind};
use abs_engine::text::Quoted;
use abs_engine::{Config, Partitioning};

/// A plan with more nodes than this is refused: the page draws every operator.
pub const MAX_PLAN_NODES: usize = 64;
/// An operator whose parallelism is higher runs with this many subtasks (with a notice): the
/// page draws every subtask, and 64 operators of 32 subtasks stay within the engine's caps.
pub const MAX_IMPORT_PARALLELISM: u32 = 32;
/// Flink's own upper bound on a parallelism (its largest max parallelism): beyond it a number
/// is not a parallelism, and the plan is refused.
pub const FLINK_MAX_PARALLELISM: u64 = 32_768;

/// What each source reads, a plan having no data: sentences about the subject, in our words.
const SAMPLE_LINES: [&str; 8] = [
    "the barrier flows with the records",
    "a task snapshots its state when every input has the barrier",
    "records behind the barrier wait in the alignment buffer",
    "the coordinator completes the checkpoint when every task acknowledges",
    "the source remembers its offset in the log",
    "offsets and counts together are a consistent cut",
    "an unaligned barrier overtakes the records in flight",
    "the records it overtakes are persisted with the checkpoint",
];
/// Ticks between two reads of a source subtask, at least: more when the job would otherwise
/// be busier than half its capacity somewhere (see [`source_interval`]).
const MIN_SOURCE_INTERVAL: u64 = 10;

/// A plan read as a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanImport {
    pub scenario: Scenario,
    pub notices: Vec<PlanNotice>,
    /// Each operator's Flink vertex id and its name in the scenario, in operator order: how a
    /// checkpoint history's per-vertex statistics find their operator.
    pub vertices: Vec<(String, String)>,
}

/// One vertex as read.
struct Vertex {
    id: String,
    parts: Vec<String>,
    name: String,
    parallelism: u32,
    /// (upstream vertex index, ship strategy), distinct upstreams, in input order.
    inputs: Vec<(usize, String)>,
    /// A node of an execution plan (`pact`): one operator of the stream graph, before Flink
    /// chains any; a REST plan's vertex is a task, its chain collapsed already.
    before_chaining: bool,
    consumers: u32,
}

/// Reads a plan: `top` is the plan itself or an object holding it under `plan` (the `/plan`
/// response, the job details, an export bundle's `plan`).
pub(super) fn import(top: Obj) -> Result<PlanImport, ImportError> {
    if !top.has("nodes") {
        if let Some(inner) = top.get("plan") {
            let p = top.path.key("plan");
            return import(Obj::of(inner, &p)?);
        }
    }
    let nodes_path = top.path.key("nodes");
    let nodes = array_of(top.need("nodes")?, &nodes_path)?;
    if nodes.is_empty() {
        return Err(ImportError::NoNodes);
    }
    if nodes.len() > MAX_PLAN_NODES {
        return Err(ImportError::TooMany {
            path: path_text(&nodes_path),
            what: "nodes",
            count: nodes.len() as u64,
            max: MAX_PLAN_NODES as u64,
        });
    }
    let mut notices = Vec::new();
    let mut vertices = read_vertices(nodes, &nodes_path, &mut notices)?;
    check_acyclic(&vertices)?;
    let job_name = top.str("name")?.unwrap_or("Flink job").to_string();
    if top
        .str("type")?
        .is_some_and(|t| t.eq_ignore_ascii_case("batch"))
    {
        notices.push(PlanNotice::Batch);
    }
    for i in 0..vertices.len() {
        for k in 0..vertices[i].inputs.len() {
            let up = vertices[i].inputs[k].0;
            vertices[up].consumers += 1;
        }
    }
    let mut operators = Vec::with_capacity(vertices.len());
    for v in &vertices {
        operators.push(operator(v, &mut notices));
    }
    let mut edges = Vec::new();
    for v in &vertices {
        for (up, strategy) in &v.inputs {
            let from = &vertices[*up];
            let (partitioning, exact) = partitioning(strategy, from.parallelism, v.parallelism);
            if !exact {
                notices.push(PlanNotice::Approximated {
                    from: from.name.clone(),
                    to: v.name.clone(),
                    strategy: strategy.clone(),
                    runs_as: partitioning,
                });
            }
            edges.push(Edge::new(&from.name, &v.name, partitioning));
        }
    }
    let graph = JobGraph { operators, edges };
    let interval = source_interval(&graph);
    let lines_per_source = graph
        .operators
        .iter()
        .map(|o| o.parallelism as usize)
        .max()
        .unwrap_or(1)
        .max(SAMPLE_LINES.len());
    let mut graph = graph;
    for op in &mut graph.operators {
        if let OperatorKind::Source {
            lines, interval: i, ..
        } = &mut op.kind
        {
            *lines = SAMPLE_LINES
                .iter()
                .cycle()
                .take(lines_per_source)
                .map(|l| l.to_string())
                .collect();
            *i = interval;
        }
    }
    // Chaining as Flink has it. An execution plan lists operators before chaining: Flink
    // chains them by default, as the engine will. A REST plan's vertices are tasks, their
    // chains collapsed: chaining was on if some vertex chains operators, and the scenario
    // keeps it on only if the engine would chain no edge between the vertices, which Flink
    // evidently left unchained (chaining off for that operator, another slot sharing group).
    let flink_chained = vertices.iter().any(|v| v.parts.len() > 1);
    let chains_left = abs_engine::physical::Physical::build(&graph)
        .is_ok_and(|phys| abs_engine::chaining::chainable_edges(&phys).contains(&true));
    let before_chaining = vertices.iter().all(|v| v.before_chaining);
    let config = Config {
        chaining: before_chaining || (flink_chained && !chains_left),
        ..Config::default()
    };
    notices.insert(
        0,
        PlanNotice::Defaults {
            lines: lines_per_source as u32,
            interval,
            latency: Edge::new("", "", Partitioning::Forward).latency,
            checkpoint_interval: config.checkpoint_interval.unwrap_or(0),
        },
    );
    let scenario = Scenario {
        name: "flink-plan".into(),
        title: job_name.clone(),
        lesson: format!(
            "The plan of the Flink job {}, with sample data: its shape, parallelism and \
             partitioning are the job's; rates, latencies and keys are defaults.",
            Quoted(&job_name)
        ),
        graph,
        config,
        seed: 1,
        failures: Vec::new(),
    };
    scenario.validate().map_err(ImportError::Scenario)?;
    Ok(PlanImport {
        scenario,
        notices,
        vertices: vertices.into_iter().map(|v| (v.id, v.name)).collect(),
    })
}

/// The vertices with their inputs resolved to indices, names cleaned and made unique, and
/// parallelism capped.
fn read_vertices(
    nodes: &[Node],
    nodes_path: &Path,
    notices: &mut Vec<PlanNotice>,
) -> Result<Vec<Vertex>, ImportError> {
    let mut vertices: Vec<Vertex> = Vec::with_capacity(nodes.len());
    for (i, node) in nodes.iter().enumerate() {
        let p = nodes_path.index(i);
        let o = Obj::of(node, &p)?;
        let id = id_of(o.need("id")?, &p.key("id"))?;
        if vertices.iter().any(|v| v.id == id) {
            return Err(ImportError::DuplicateNode {
                path: path_text(&p.key("id")),
                id,
            });
        }
        let description = match o.str("description")? {
            Some(d) if !d.trim().is_empty() => d,
            _ => o.str("contents")?.or(o.str("operator")?).unwrap_or(""),
        };
        let parts = chain_parts(description);
        let lower = description.to_ascii_lowercase();
        if lower.contains("iterationsource") || lower.contains("iterationsink") {
            return Err(ImportError::Iteration {
                path: path_text(&p),
                name: name_of(&parts, &id),
            });
        }
        let flink_parallelism = o.need_num("parallelism")?;
        if !(1..=FLINK_MAX_PARALLELISM).contains(&flink_parallelism) {
            return Err(ImportError::OutOfRange {
                path: path_text(&p.key("parallelism")),
                value: flink_parallelism,
                min: 1,
                max: FLINK_MAX_PARALLELISM,
            });
        }
        let mut name = name_of(&parts, &id);
        let was = name.clone();
        let mut n = 2;
        while vertices.iter().any(|v| v.name == name) {
            name = format!("{was} ({n})");
            n += 1;
        }
        if name != was {
            notices.push(PlanNotice::Renamed {
                operator: name.clone(),
                was,
            });
        }
        let parallelism = flink_parallelism.min(u64::from(MAX_IMPORT_PARALLELISM)) as u32;
        if u64::from(parallelism) != flink_parallelism {
            notices.push(PlanNotice::Parallelism {
                operator: name.clone(),
                flink: flink_parallelism,
                runs_with: parallelism,
            });
        }
        vertices.push(Vertex {
            id,
            parts,
            name,
            parallelism,
            inputs: Vec::new(),
            consumers: 0,
            before_chaining: o.str("pact")?.is_some(),
        });
    }
    // Inputs, once every id is known (a plan need not list a vertex after its inputs).
    for (i, node) in nodes.iter().enumerate() {
        let p = nodes_path.index(i);
        let o = Obj::of(node, &p)?;
        let (key, list) = match (o.get("inputs"), o.get("predecessors")) {
            (Some(l), _) => ("inputs", l),
            (None, Some(l)) => ("predecessors", l),
            (None, None) => continue,
        };
        let lp = p.key(key);
        for (k, input) in array_of(list, &lp)?.iter().enumerate() {
            let ip = lp.index(k);
            let io = Obj::of(input, &ip)?;
            let id = id_of(io.need("id")?, &ip.key("id"))?;
            let Some(up) = vertices.iter().position(|v| v.id == id) else {
                return Err(ImportError::UnknownInput {
                    path: path_text(&ip.key("id")),
                    id,
                });
            };
            let strategy = io.str("ship_strategy")?.unwrap_or("").trim().to_string();
            if vertices[i].inputs.iter().any(|(u, _)| *u == up) {
                let notice = PlanNotice::MergedInputs {
                    operator: vertices[i].name.clone(),
                    from: vertices[up].name.clone(),
                };
                if !notices.contains(&notice) {
                    notices.push(notice);
                }
                continue;
            }
            vertices[i].inputs.push((up, strategy));
        }
    }
    Ok(vertices)
}

/// A vertex id: a string (the REST plan's hex ids) or a number (the execution plan's).
fn id_of(node: &Node, path: &Path) -> Result<String, ImportError> {
    match &node.value {
        Json::Str(s) => Ok(s.clone()),
        Json::Num(_) => number_of(node, path)?
            .map(|n| n.to_string())
            .ok_or_else(|| wrong_type(node, path, "a string or a whole number")),
        _ => Err(wrong_type(node, path, "a string or a whole number")),
    }
}

/// Refuses a plan whose inputs go round, naming the cycle.
fn check_acyclic(vertices: &[Vertex]) -> Result<(), ImportError> {
    // 0: not seen, 1: on the current path, 2: done.
    let mut mark = vec![0u8; vertices.len()];
    let mut path: Vec<usize> = Vec::new();
    for start in 0..vertices.len() {
        if mark[start] != 0 {
            continue;
        }
        // Depth-first over inputs, with an explicit stack of (vertex, next input).
        let mut stack = vec![(start, 0usize)];
        mark[start] = 1;
        path.push(start);
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&(up, _)) = vertices[v].inputs.get(*next) {
                *next += 1;
                match mark[up] {
                    0 => {
                        mark[up] = 1;
                        path.push(up);
                        stack.push((up, 0));
                    }
                    1 => {
                        // The cycle, in data-flow order: from `v` back round to it.
                        // `path` runs against the data (each entry an input of the one
                        // before): reversed from `up`, it flows from `v` to `up`, whose
                        // output `v` reads.
                        let at = path.iter().position(|&x| x == up).unwrap_or(0);
                        let mut names: Vec<String> = path[at..]
                            .iter()
                            .rev()
                            .map(|&x| vertices[x].name.clone())
                            .collect();
                        names.push(vertices[v].name.clone());
                        return Err(ImportError::Cycle { names });
                    }
                    _ => {}
                }
            } else {
                mark[v] = 2;
                path.pop();
                stack.pop();
            }
        }
    }
    Ok(())
}

/// What a ship strategy becomes, and whether that is exact.
fn partitioning(strategy: &str, from_p: u32, to_p: u32) -> (Partitioning, bool) {
    let s = strategy.to_ascii_lowercase();
    let same = from_p == to_p;
    if s.starts_with("forward") {
        // A forward edge between different parallelisms (capped) cannot be one to one; rescale
        // keeps it pointwise, so its barriers stay aligned as the forward edge's would.
        let pointwise = if same {
            Partitioning::Forward
        } else {
            Partitioning::Rescale
        };
        (pointwise, same)
    } else if s.contains("hash") || s.contains("keygroup") || s.contains("key_group") {
        (Partitioning::Hash, true)
    } else if s.contains("rebalance") || s.contains("redistribute") || s.contains("round") {
        (Partitioning::Rebalance, true)
    } else if s.contains("broadcast") {
        (Partitioning::Broadcast, true)
    } else if s.contains("rescale") {
        (Partitioning::Rescale, true)
    } else if s.contains("global") && to_p == 1 {
        // Everything to the receiver's first subtask, the only one: rebalance routes alike,
        // and like Flink's global partitioner it is not pointwise (unaligned barriers cross).
        (Partitioning::Rebalance, true)
    } else if s.contains("custom") || s.contains("range") {
        (Partitioning::Hash, false)
    } else {
        // Shuffle (random), global to several subtasks, anything unknown.
        (Partitioning::Rebalance, false)
    }
}

/// The operator a vertex becomes, with the notices saying what was guessed.
fn operator(v: &Vertex, notices: &mut Vec<PlanNotice>) -> Operator {
    if v.parts.len() > 1 {
        notices.push(PlanNotice::Chained {
            operator: v.name.clone(),
            parts: v.parts.clone(),
        });
    }
    // Words of each part, lower-cased (`KeyedProcess` is one word, `keyedprocess`).
    let words = |p: &str| -> Vec<String> {
        p.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let find = |says: &dyn Fn(&str) -> bool| {
        v.parts
            .iter()
            .find(|p| words(p).iter().any(|w| says(w)))
            .cloned()
    };
    let keyed = find(&|w| {
        [
            "keyed", "aggregat", "window", "reduce", "join", "dedup", "rank",
        ]
        .iter()
        .any(|k| w.contains(k))
            || w.starts_with("count")
            || w.starts_with("group")
            || w == "sum"
    });
    let sink = v
        .parts
        .iter()
        .find(|p| p.to_ascii_lowercase().starts_with("sink"))
        .cloned();
    let split = find(&|w| {
        w.contains("flatmap")
            || ["split", "tokeniz", "explode", "unnest"]
                .iter()
                .any(|k| w.starts_with(k))
    })
    .or_else(|| {
        v.parts
            .iter()
            .find(|p| p.to_ascii_lowercase().contains("flat map"))
            .cloned()
    });
    let filter = find(&|w| w.contains("filter"));
    let hashed = v
        .inputs
        .iter()
        .any(|(_, s)| partitioning(s, 1, 1).0 == Partitioning::Hash);
    // A two-phase-commit sink shows its committer (the sink API since 1.15).
    let committer = find(&|w| w.contains("committer") || w.contains("transaction"));
    let transactional = committer.is_some();
    let (kind, reason) = if v.inputs.is_empty() {
        (
            OperatorKind::Source {
                lines: Vec::new(),
                interval: MIN_SOURCE_INTERVAL,
                bounded: false,
            },
            None,
        )
    } else if let Some(k) = keyed {
        let reason = match (v.consumers, sink) {
            (0, Some(s)) => GuessReason::SinkNotSimulated { keyed: k, sink: s },
            _ => GuessReason::Description(k),
        };
        (OperatorKind::Count, Some(reason))
    } else if v.consumers == 0 {
        let reason = match (committer, sink) {
            (Some(c), _) => Some(GuessReason::Description(c)),
            (None, Some(_)) => None,
            (None, None) => Some(GuessReason::NoConsumer),
        };
        (OperatorKind::Sink { transactional }, reason)
    } else if hashed {
        (OperatorKind::Count, Some(GuessReason::KeyedInput))
    } else if let Some(s) = split {
        (OperatorKind::Split, Some(GuessReason::Description(s)))
    } else if let Some(s) = filter {
        (
            OperatorKind::Filter {
                min_len: super::notice::FILTER_MIN_LEN,
            },
            Some(GuessReason::Description(s)),
        )
    } else if v.inputs.len() > 1 {
        (
            OperatorKind::Union,
            Some(GuessReason::SeveralInputs(v.inputs.len() as u32)),
        )
    } else {
        (OperatorKind::Map, Some(GuessReason::Nothing))
    };
    if let Some(reason) = reason {
        notices.push(PlanNotice::Guessed {
            operator: v.name.clone(),
            kind: kind.label(),
            reason,
        });
    }
    Operator {
        name: v.name.clone(),
        kind,
        parallelism: v.parallelism,
        processing_time: 1,
    }
}

/// Ticks between a source subtask's reads, so that no subtask is busy more than half the
/// time: the records reaching each subtask per tick are estimated through the graph (a line
/// becomes a word per word at a split or a count; a broadcast sends each record to every
/// receiver), and the interval stretched until the busiest takes at most one record every
/// two ticks.
fn source_interval(graph: &JobGraph) -> u64 {
    let words = SAMPLE_LINES
        .iter()
        .map(|l| l.split_whitespace().count())
        .max()
        .unwrap_or(1) as f64;
    let ops = &graph.operators;
    let index = |name: &str| ops.iter().position(|o| o.name == name);
    // Per operator: records arriving at each subtask per tick, records each subtask emits per
    // tick, and whether they are lines still (not yet words); with one read per tick.
    let mut arriving = vec![0.0f64; ops.len()];
    let mut emitting = vec![0.0f64; ops.len()];
    let mut lines = vec![false; ops.len()];
    let mut done = vec![false; ops.len()];
    // The graph is acyclic (checked): settle operators whose inputs are all settled.
    for _ in 0..ops.len() {
        for (i, op) in ops.iter().enumerate() {
            if done[i] {
                continue;
            }
            let ins: Vec<_> = graph.edges.iter().filter(|e| e.to == op.name).collect();
            if ins.iter().any(|e| index(&e.from).is_none_or(|u| !done[u])) {
                continue;
            }
            let mut arrive = 0.0;
            let mut any_lines = ins.is_empty();
            for e in &ins {
                let Some(u) = index(&e.from) else { continue };
                let total = emitting[u] * f64::from(ops[u].parallelism);
                arrive += match e.partitioning {
                    Partitioning::Forward => emitting[u],
                    Partitioning::Broadcast => total,
                    _ => total / f64::from(op.parallelism.max(1)),
                };
                any_lines |= lines[u];
            }
            arriving[i] = arrive;
            let (out, out_lines) = match op.kind {
                OperatorKind::Source { .. } => (1.0, true),
                OperatorKind::Split => (arrive * words, false),
                OperatorKind::Count if any_lines => (arrive * words, false),
                OperatorKind::Sink { .. } => (0.0, false),
                _ => (arrive, any_lines),
            };
            emitting[i] = out;
            lines[i] = out_lines;
            done[i] = true;
        }
    }
    let busiest = arriving.iter().cloned().fold(0.0, f64::max);
    let needed = (busiest * 2.0).ceil();
    if needed.is_finite() && needed > MIN_SOURCE_INTERVAL as f64 {
        needed.min(1_000_000.0) as u64
    } else {
        MIN_SOURCE_INTERVAL
    }
}
