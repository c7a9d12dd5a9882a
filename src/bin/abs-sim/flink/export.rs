//! A scenario as a Flink 2.x job: the checks (what Flink cannot express is refused with a
//! sentence), the bounded scenario both Flink and the simulation run, the planned failures as
//! record counts, and the job's files (Java source, run script, log settings, README).

use abs_playground::engine::snapshot::TaskState;
use abs_playground::engine::{BarrierMode, OperatorKind, Partitioning, Simulation};
use abs_playground::scenario::flink::plan::partitioning_name;
use abs_playground::scenario::Scenario;

/// The Flink release the job is written for and `.ci/flink-setup.sh` installs.
pub const FLINK_VERSION: &str = "2.3.0";

/// The JVM flags of a local run: a small heap and a cheap JIT, for a 2-CPU machine.
pub const JVM_FLAGS: [&str; 3] = ["-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"];

/// Source lines a job may carry: Java's class initialiser holds at most 64 KB of code.
const MAX_LINES: usize = 4_000;

/// Flink refuses a checkpoint interval below 10 ms.
pub const MIN_INTERVAL_MS: u64 = 10;

/// How long the unbounded sources of a scenario read, in checkpoint intervals, when
/// `--passes` is not given.
const DEFAULT_INTERVALS: u64 = 6;

/// The checkpointing of a Flink job: the simulation's ABS modes, and aligned with a timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlinkMode {
    Aligned,
    Unaligned,
    AtLeastOnce,
    /// Aligned, going on unaligned after this many ticks.
    AlignedTimeout(u64),
}

impl FlinkMode {
    pub fn name(self) -> &'static str {
        match self {
            FlinkMode::Aligned => "aligned",
            FlinkMode::Unaligned => "unaligned",
            FlinkMode::AtLeastOnce => "at-least-once",
            FlinkMode::AlignedTimeout(_) => "aligned-timeout",
        }
    }
}

/// A planned failure as the Flink job throws it: subtask `subtask` of operator `operator`, in
/// its `attempt`-th run (0 before any restart), before it takes record `records` + 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlinkFailure {
    pub task: String,
    pub at: u64,
    pub operator: usize,
    pub subtask: u32,
    pub attempt: u32,
    pub records: u64,
}

/// What `export` writes.
#[derive(Clone)]
pub struct Job {
    /// The scenario as given (its sources' own lines).
    pub original: Scenario,
    /// The scenario as it runs in Flink: unbounded sources made bounded, the mode set.
    pub scenario: Scenario,
    pub mode: FlinkMode,
    pub passes: u64,
    pub tick_us: u64,
    pub failures: Vec<FlinkFailure>,
    /// Planned failures the simulation does not apply (after the job has finished).
    pub skipped: Vec<String>,
    pub notes: Vec<String>,
    /// Flink settings given with `--flink-option KEY=VALUE`, in place of the scenario's.
    pub overrides: Vec<(String, String)>,
}

/// The mode a scenario runs in, `--mode` (if given) overriding the scenario's own.
pub fn mode_of(scenario: &Scenario, asked: Option<&str>) -> Result<FlinkMode, String> {
    let timeout = scenario
        .config
        .aligned_checkpoint_timeout
        .unwrap_or(abs_playground::scenario::ALIGNED_TIMEOUT);
    let mode = match asked {
        Some("aligned-timeout") => return Ok(FlinkMode::AlignedTimeout(timeout)),
        Some(m) => m.parse::<BarrierMode>().map_err(|e| {
            format!("{e} (for Flink: aligned, unaligned, at-least-once or aligned-timeout)")
        })?,
        None => scenario.config.mode,
    };
    match mode {
        BarrierMode::Aligned => Ok(match scenario.config.aligned_checkpoint_timeout {
            Some(t) => FlinkMode::AlignedTimeout(t),
            None => FlinkMode::Aligned,
        }),
        BarrierMode::Unaligned => Ok(FlinkMode::Unaligned),
        BarrierMode::AtLeastOnce => Ok(FlinkMode::AtLeastOnce),
        BarrierMode::ChandyLamport => Err(
            "Flink has no Chandy-Lamport mode: its checkpoints are barrier snapshots, so choose \
             --mode aligned, unaligned, at-least-once or aligned-timeout"
                .into(),
        ),
        BarrierMode::Synchronous => Err(
            "Flink has no stop-the-world mode: it never stops its sources to checkpoint (that \
             is the scheme ABS replaced), so choose --mode aligned, unaligned, at-least-once or \
             aligned-timeout"
                .into(),
        ),
    }
}

/// Refuses what Flink cannot express, with one sentence saying why.
fn check(scenario: &Scenario) -> Result<(), String> {
    let graph = &scenario.graph;
    for op in &graph.operators {
        match &op.kind {
            OperatorKind::Token { .. } | OperatorKind::Account { .. } => {
                return Err(format!(
                    "{:?} is a Chandy-Lamport process: Flink runs operators that transform \
                     records, not processes passing a token or money, so this scenario cannot \
                     become a Flink job",
                    op.name
                ))
            }
            OperatorKind::Iterate { .. } => {
                return Err(format!(
                    "{:?} is an iteration: Flink 2.x has no iterations in its DataStream API \
                     (they were removed in 2.0), so a cyclic graph cannot become a Flink job",
                    op.name
                ))
            }
            _ => {}
        }
    }
    if let Some(e) = graph.edges.iter().find(|e| !e.fifo) {
        return Err(format!(
            "the edge {:?} -> {:?} is not FIFO: Flink's channels always deliver in order, so \
             it cannot become a Flink job",
            e.from, e.to
        ));
    }
    let lines = |name: &str| carries_lines(scenario, name, 0);
    for op in graph
        .operators
        .iter()
        .filter(|o| o.kind == OperatorKind::Count)
    {
        for e in graph.edges.iter().filter(|e| e.to == op.name) {
            if e.partitioning != Partitioning::Hash {
                return Err(format!(
                    "the edge {:?} -> {:?} is {}: Flink keeps a count per word only on a keyed \
                     stream, so every edge into a count must be hash",
                    e.from,
                    e.to,
                    partitioning_name(e.partitioning)
                ));
            }
            if lines(&e.from) {
                return Err(format!(
                    "{:?} counts whole lines from {:?}: Flink's keyed state keeps one count per \
                     record's key, so put a split before the count",
                    op.name, e.from
                ));
            }
        }
    }
    let total: usize = graph
        .operators
        .iter()
        .map(|o| match &o.kind {
            OperatorKind::Source { lines, .. } => lines.len(),
            _ => 0,
        })
        .sum();
    if total > MAX_LINES {
        return Err(format!(
            "the sources have {total} lines; a Flink job exported from a scenario carries at \
             most {MAX_LINES} (Java's limit on the size of a class's initialiser)"
        ));
    }
    Ok(())
}

/// Whether records reaching `name`'s output may be whole lines (no split on the way).
fn carries_lines(scenario: &Scenario, name: &str, depth: usize) -> bool {
    let Some(op) = scenario.graph.operators.iter().find(|o| o.name == name) else {
        return false;
    };
    match op.kind {
        OperatorKind::Source { .. } => true,
        OperatorKind::Split | OperatorKind::Count => false,
        _ if depth > scenario.graph.operators.len() => false,
        _ => scenario
            .graph
            .edges
            .iter()
            .filter(|e| e.to == name)
            .any(|e| carries_lines(scenario, &e.from, depth + 1)),
    }
}

/// The scenario as Flink runs it: each unbounded source reads its lines `passes` times, then
/// ends (the same as a bounded source over its lines repeated `passes` times, which is what
/// the simulation is given); without `passes`, enough passes for the longest source to read
/// for [`DEFAULT_INTERVALS`] checkpoint intervals.
pub fn bounded(scenario: &Scenario, passes: Option<u64>) -> (Scenario, u64) {
    let pass_time = |o: &abs_playground::engine::Operator| match &o.kind {
        OperatorKind::Source {
            lines,
            interval,
            bounded: false,
        } => (lines.len() as u64).div_ceil(u64::from(o.parallelism)) * interval,
        _ => 0,
    };
    let longest = scenario.graph.operators.iter().map(pass_time).max();
    let passes = passes.unwrap_or_else(|| match (longest, scenario.config.checkpoint_interval) {
        (Some(t), Some(i)) if t > 0 => (DEFAULT_INTERVALS * i).div_ceil(t).max(1),
        _ => 1,
    });
    let mut s = scenario.clone();
    for op in &mut s.graph.operators {
        if let OperatorKind::Source { lines, bounded, .. } = &mut op.kind {
            if !*bounded {
                let one = lines.clone();
                lines.clear();
                for _ in 0..passes {
                    lines.extend(one.iter().cloned());
                }
                *bounded = true;
            }
        }
    }
    (s, passes)
}

/// Everything `export` needs, checked: the bounded scenario in `mode`, and the planned
/// failures as record counts, read from the simulation of that scenario.
pub fn prepare(
    scenario: &Scenario,
    mode: FlinkMode,
    passes: Option<u64>,
    tick_us: u64,
) -> Result<Job, String> {
    check(scenario)?;
    let (mut bounded, passes) = bounded(scenario, passes);
    bounded.config.mode = match mode {
        FlinkMode::Aligned | FlinkMode::AlignedTimeout(_) => BarrierMode::Aligned,
        FlinkMode::Unaligned => BarrierMode::Unaligned,
        FlinkMode::AtLeastOnce => BarrierMode::AtLeastOnce,
    };
    bounded.config.aligned_checkpoint_timeout = match mode {
        FlinkMode::AlignedTimeout(t) => Some(t),
        _ => None,
    };
    let total: usize = bounded
        .graph
        .operators
        .iter()
        .map(|o| match &o.kind {
            OperatorKind::Source { lines, .. } => lines.len(),
            _ => 0,
        })
        .sum();
    if total > 1_000_000 {
        return Err(format!(
            "{passes} passes make {total} source records; at most 1,000,000 are run"
        ));
    }
    let mut sim = bounded.simulation().map_err(|e| e.to_string())?;
    let (failures, skipped) = failures_as_records(&mut sim);
    let mut notes = Vec::new();
    if let Some(i) = bounded.config.checkpoint_interval {
        if ms(i, tick_us) < MIN_INTERVAL_MS {
            notes.push(format!(
                "The checkpoint interval of {i} ticks is {} ms at this tick; Flink's least is \
                 {MIN_INTERVAL_MS} ms, which the job uses.",
                ms(i, tick_us)
            ));
        }
    }
    if matches!(mode, FlinkMode::Unaligned | FlinkMode::AlignedTimeout(_)) {
        // Partitioning::keeps_barriers_aligned: the edges where barriers stay aligned, in
        // Flink and in the simulation alike.
        let aligned: Vec<String> = bounded
            .graph
            .edges
            .iter()
            .filter(|e| e.partitioning.keeps_barriers_aligned())
            .map(|e| {
                format!(
                    "{} → {} ({})",
                    e.from,
                    e.to,
                    partitioning_name(e.partitioning)
                )
            })
            .collect();
        if !aligned.is_empty() {
            notes.push(format!(
                "Flink keeps barriers aligned on forward, rescale and broadcast edges even with \
                 unaligned checkpoints, and aligns every input of a task that has one, as the \
                 simulation does: here {}. Make an edge rebalance or hash for unaligned \
                 barriers there (the same routing at parallelism 1).",
                aligned.join(", ")
            ));
        }
    }
    Ok(Job {
        original: scenario.clone(),
        scenario: bounded,
        mode,
        passes,
        tick_us,
        failures,
        skipped,
        notes,
        overrides: Vec::new(),
    })
}

/// Ticks as whole milliseconds, rounded up.
pub fn ms(ticks: u64, tick_us: u64) -> u64 {
    (ticks.saturating_mul(tick_us)).div_ceil(1000)
}

/// Records a task has taken: a source's reads, another task's records from all its inputs.
fn taken(sim: &Simulation, task: usize) -> u64 {
    match sim.tasks()[task].state {
        TaskState::Source { offset } => offset,
        _ => sim.physical().tasks[task]
            .inputs
            .iter()
            .map(|&c| sim.channels()[c as usize].records_received)
            .sum(),
    }
}

/// Runs the simulation to find, for each planned failure it applies, the records the failing
/// subtask has taken since the job last (re)started when it fails, and in which attempt.
fn failures_as_records(sim: &mut Simulation) -> (Vec<FlinkFailure>, Vec<String>) {
    let mut plan: Vec<(u64, usize)> = sim
        .planned_failures()
        .iter()
        .map(|f| (f.at, f.task as usize))
        .collect();
    plan.sort();
    let tasks = sim.physical().tasks.len();
    let mut base = vec![0u64; tasks];
    let mut restored = 0;
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for (at, task) in plan {
        let name = sim.physical().tasks[task].name.clone();
        let mut steps = 0u64;
        while sim.next_time().is_some_and(|t| t < at) && steps < 10_000_000 {
            sim.step();
            steps += 1;
            let done = sim
                .recoveries()
                .iter()
                .filter(|r| r.restored_at.is_some())
                .count();
            if done > restored {
                restored = done;
                base = (0..tasks).map(|t| taken(sim, t)).collect();
            }
        }
        if sim.job_finished() || sim.next_time().is_none() {
            skipped.push(format!("{name}@{at}"));
            continue;
        }
        let info = &sim.physical().tasks[task];
        out.push(FlinkFailure {
            task: name,
            at,
            operator: info.operator as usize,
            subtask: info.subtask,
            attempt: out.len() as u32,
            records: taken(sim, task).saturating_sub(base[task]),
        });
    }
    (out, skipped)
}
