//! The Java source of an exported job: the Flink settings the scenario's config becomes, and
//! the scenario's part of the source (names, lines, latencies, failures, the topology), put
//! into `job_template.java`, the part every job shares.

use std::fmt::Write as _;

use abs_playground::engine::{OperatorKind, Partitioning};
use abs_playground::scenario::Scenario;

use super::export::{ms, FlinkMode, Job, MIN_INTERVAL_MS};

const JOB_TEMPLATE: &str = include_str!("job_template.java");

/// A Java string literal.
fn java_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Octal, not \u: Java reads \u escapes before it reads the literal.
            c if (c as u32) < 32 => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The Flink settings the scenario's config becomes, as (key, value).
pub fn settings(job: &Job) -> Vec<(String, String)> {
    let mut s = scenario_settings(job);
    for (k, v) in &job.overrides {
        match s.iter_mut().find(|(key, _)| key == k) {
            Some(setting) => setting.1.clone_from(v),
            None => s.push((k.clone(), v.clone())),
        }
    }
    s
}

/// The Flink settings the scenario's own configuration becomes.
fn scenario_settings(job: &Job) -> Vec<(String, String)> {
    let c = &job.scenario.config;
    let t = |ticks: u64| format!("{} ms", ms(ticks, job.tick_us));
    // Chaining as the scenario has it (off unless it asks, so each operator is a vertex of
    // its own in Flink's web UI and REST API, as on the page).
    let mut s = vec![("pipeline.operator-chaining.enabled", c.chaining.to_string())];
    if let Some(i) = c.checkpoint_interval {
        s.push((
            "execution.checkpointing.interval",
            format!("{} ms", ms(i, job.tick_us).max(MIN_INTERVAL_MS)),
        ));
    }
    let exactly_once = job.mode != FlinkMode::AtLeastOnce;
    s.push((
        "execution.checkpointing.mode",
        if exactly_once {
            "EXACTLY_ONCE"
        } else {
            "AT_LEAST_ONCE"
        }
        .into(),
    ));
    let unaligned = matches!(
        job.mode,
        FlinkMode::Unaligned | FlinkMode::AlignedTimeout(_)
    );
    s.push((
        "execution.checkpointing.unaligned.enabled",
        unaligned.to_string(),
    ));
    if let FlinkMode::AlignedTimeout(ticks) = job.mode {
        s.push((
            "execution.checkpointing.aligned-checkpoint-timeout",
            t(ticks),
        ));
    }
    // A scenario with unaligned checkpoints and several at once does not build (Flink
    // refuses to start it), so this is what Flink accepts.
    s.push((
        "execution.checkpointing.max-concurrent-checkpoints",
        c.max_concurrent_checkpoints.to_string(),
    ));
    s.push(("execution.checkpointing.min-pause", t(c.min_pause)));
    s.push(("execution.checkpointing.timeout", t(c.timeout)));
    s.push((
        "execution.checkpointing.tolerable-failed-checkpoints",
        c.tolerable_failed_checkpoints
            .map_or(i32::MAX.to_string(), |n| n.min(i32::MAX as u32).to_string()),
    ));
    s.push((
        "execution.checkpointing.num-retained",
        c.retained_checkpoints.to_string(),
    ));
    s.push((
        "execution.checkpointing.checkpoints-after-tasks-finish",
        c.finished_channels_align.to_string(),
    ));
    if let Some(b) = c.buffer_debloat {
        // Buffer debloating as the simulation does it: its target, measured every fifth of it
        // (Flink's 200 ms for its 1 s); 20 samples and the 25 % threshold are Flink's defaults.
        s.push((
            "taskmanager.network.memory.buffer-debloat.enabled",
            "true".into(),
        ));
        s.push((
            "taskmanager.network.memory.buffer-debloat.target",
            t(b.target),
        ));
        s.push((
            "taskmanager.network.memory.buffer-debloat.period",
            t((b.target / 5).max(1)),
        ));
    }
    if job.failures.is_empty() {
        s.push(("restart-strategy.type", "none".into()));
    } else {
        s.push(("restart-strategy.type", "fixed-delay".into()));
        s.push((
            "restart-strategy.fixed-delay.attempts",
            job.failures.len().to_string(),
        ));
        s.push(("restart-strategy.fixed-delay.delay", t(c.restart_delay)));
    }
    s.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// The scenario's part of the Java source: names, lines, latencies, failures, settings and
/// the topology.
fn generated(job: &Job) -> String {
    let s = &job.scenario;
    let ops = &s.graph.operators;
    let index = |name: &str| ops.iter().position(|o| o.name == name).unwrap_or(0);
    let mut j = String::new();
    let _ = writeln!(
        j,
        "    static final String JOB_NAME = {};",
        java_str(&format!("abs-playground {} ({})", s.name, job.mode.name()))
    );
    let _ = writeln!(
        j,
        "    /** One tick of the scenario, in microseconds of real time. */\n    static final \
         long TICK_MICROS = {};",
        job.tick_us
    );
    let slots = ops.iter().map(|o| o.parallelism).max().unwrap_or(1);
    let _ = writeln!(
        j,
        "    /** Slots a local run needs: every operator shares them (one slot-sharing group). \
         */\n    static final int SLOTS = {slots};"
    );
    let names: Vec<String> = ops.iter().map(|o| java_str(&o.name)).collect();
    let _ = writeln!(
        j,
        "    static final String[] OPERATORS = {{{}}};",
        names.join(", ")
    );
    j.push_str("    /** Each source's lines (the others': none). */\n");
    j.push_str("    static final String[][] LINES = {\n");
    for o in &job.original.graph.operators {
        match &o.kind {
            OperatorKind::Source { lines, .. } => {
                let _ = writeln!(j, "        {{ // {}", o.name);
                for l in lines {
                    let _ = writeln!(j, "            {},", java_str(l));
                }
                j.push_str("        },\n");
            }
            _ => j.push_str("        {},\n"),
        }
    }
    j.push_str("    };\n");
    let logs: Vec<String> = ops
        .iter()
        .map(|o| match &o.kind {
            OperatorKind::Source { lines, .. } => lines.len().to_string(),
            _ => "0".into(),
        })
        .collect();
    let _ = writeln!(
        j,
        "    /** Each source's log: how many records it reads, its lines over and over. */\n    \
         static final long[] LOG = {{{}}};",
        logs.join(", ")
    );
    j.push_str(
        "    /** LATENCY[from][to]: the ticks a record spends on the edge from one operator to \
         another. */\n    static final long[][] LATENCY = {\n",
    );
    for a in ops {
        let row: Vec<String> = ops
            .iter()
            .map(|b| {
                s.graph
                    .edges
                    .iter()
                    .find(|e| e.from == a.name && e.to == b.name)
                    .map_or(0, |e| e.latency)
                    .to_string()
            })
            .collect();
        let _ = writeln!(j, "        {{{}}},", row.join(", "));
    }
    j.push_str("    };\n");
    j.push_str(
        "    /** Planned failures: {operator, subtask, attempt, records taken before it}. */\n    \
         static final long[][] FAILURES = {\n",
    );
    for f in &job.failures {
        let _ = writeln!(
            j,
            "        {{{}, {}, {}, {}}}, // {} at tick {}",
            f.operator, f.subtask, f.attempt, f.records, f.task, f.at
        );
    }
    j.push_str("    };\n\n");
    j.push_str("    static Configuration configuration() {\n");
    j.push_str("        Configuration conf = new Configuration();\n");
    for (k, v) in settings(job) {
        let _ = writeln!(
            j,
            "        conf.setString({}, {});",
            java_str(&k),
            java_str(&v)
        );
    }
    j.push_str("        return conf;\n    }\n\n");
    j.push_str("    static void build(StreamExecutionEnvironment env, String results) {\n");
    if !s.config.chaining {
        j.push_str("        env.disableOperatorChaining();\n");
    }
    for i in topological(s) {
        let o = &ops[i];
        let var = format!("s{i}");
        let head = match &o.kind {
            OperatorKind::Source { interval, .. } => format!(
                "env.addSource(new Source({i}, {interval}), {}, REC)",
                java_str(&o.name)
            ),
            kind => {
                let inputs: Vec<_> = s.graph.edges.iter().filter(|e| e.to == o.name).collect();
                let input = if *kind == OperatorKind::Count {
                    let streams: Vec<String> = inputs
                        .iter()
                        .map(|e| format!("s{}", index(&e.from)))
                        .collect();
                    match streams.split_first() {
                        Some((first, [])) => format!("{first}.keyBy(WORD)"),
                        Some((first, rest)) => {
                            format!("{first}.union({}).keyBy(WORD)", rest.join(", "))
                        }
                        None => "null".into(),
                    }
                } else {
                    let streams: Vec<String> = inputs
                        .iter()
                        .map(|e| {
                            let call = match e.partitioning {
                                Partitioning::Forward => "forward()",
                                Partitioning::Rebalance => "rebalance()",
                                Partitioning::Hash => "keyBy(WORD)",
                                Partitioning::Broadcast => "broadcast()",
                                Partitioning::Rescale => "rescale()",
                            };
                            format!("s{}.{call}", index(&e.from))
                        })
                        .collect();
                    match streams.split_first() {
                        Some((first, [])) => first.clone(),
                        Some((first, rest)) => format!("{first}.union({})", rest.join(", ")),
                        None => "null".into(),
                    }
                };
                let (k, min_len, transactional) = match kind {
                    OperatorKind::Split => ("SPLIT", 0, false),
                    OperatorKind::Filter { min_len } => ("FILTER", *min_len, false),
                    OperatorKind::Count => ("COUNT", 0, false),
                    OperatorKind::Union => ("UNION", 0, false),
                    OperatorKind::Sink { transactional } => ("SINK", 0, *transactional),
                    _ => ("MAP", 0, false),
                };
                format!(
                    "{input}\n                .transform({}, REC, new Step({i}, Step.{k}, {}, \
                     {min_len}, {transactional}, results))",
                    java_str(&o.name),
                    o.processing_time
                )
            }
        };
        let _ = writeln!(
            j,
            "        DataStream<Rec> {var} = {head}\n                \
             .setParallelism({}).uid(\"op-{i}\");",
            o.parallelism
        );
    }
    j.push_str("    }");
    j
}

/// The operators in an order where every edge goes forward (the graph has no cycle: checked).
fn topological(s: &Scenario) -> Vec<usize> {
    let ops = &s.graph.operators;
    let mut done = vec![false; ops.len()];
    let mut order = Vec::new();
    while order.len() < ops.len() {
        let before = order.len();
        for (i, o) in ops.iter().enumerate() {
            if done[i] {
                continue;
            }
            let ready = s.graph.edges.iter().filter(|e| e.to == o.name).all(|e| {
                ops.iter()
                    .position(|p| p.name == e.from)
                    .is_some_and(|p| done[p])
            });
            if ready {
                done[i] = true;
                order.push(i);
            }
        }
        if order.len() == before {
            break;
        }
    }
    order
}

/// The Java source of the job.
pub fn java(job: &Job) -> String {
    JOB_TEMPLATE
        .replace(
            "@SCENARIO@",
            &job.scenario.name.replace(char::is_control, " "),
        )
        .replace("@MODE@", job.mode.name())
        .replace("@GENERATED@", &generated(job))
}
