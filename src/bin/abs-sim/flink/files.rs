//! The files of an exported job: the Java source, a run script, log settings, a README and
//! the scenario as the job runs it.

use std::fmt::Write as _;
use std::path::Path;

use super::export::{Job, FLINK_VERSION, JVM_FLAGS};
use super::java;
use abs_playground::scenario::flink::plan::partitioning_name;

/// Log settings for a local run: Flink's own log goes to `flink.log`, warnings and up.
pub const LOG4J: &str = "\
rootLogger.level = WARN
rootLogger.appenderRef.file.ref = FileAppender
appender.file.name = FileAppender
appender.file.type = File
appender.file.fileName = flink.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n
";

fn run_script() -> String {
    format!(
        "#!/usr/bin/env bash
# Compiles and runs this job. ABS_FLINK_HOME is the folder holding flink-dist-{FLINK_VERSION}.jar
# (the ABS Playground's .ci/flink-setup.sh installs it and prints the folder).
#   ./run.sh          a local Flink in this JVM, REST API on 127.0.0.1 (a free port; --port N)
#   ./run.sh jar      build abs-job.jar, for: flink run -c AbsJob abs-job.jar
set -euo pipefail
cd \"$(dirname \"$0\")\"
: \"${{ABS_FLINK_HOME:?set ABS_FLINK_HOME to the folder holding flink-dist-{FLINK_VERSION}.jar}}\"
mkdir -p classes results
javac -encoding UTF-8 -nowarn -d classes -cp \"$ABS_FLINK_HOME/*\" AbsJob.java
if [ \"${{1:-}}\" = jar ]; then
  jar cf abs-job.jar -C classes .
  echo abs-job.jar
  exit 0
fi
exec java {} -Dlog4j2.configurationFile=log4j2.properties \\
  -cp \"$ABS_FLINK_HOME/*:classes\" AbsJob --local --results results \"$@\"
",
        JVM_FLAGS.join(" ")
    )
}

/// One line saying what was exported.
pub fn summary(job: &Job) -> String {
    let s = &job.scenario;
    let tasks: u32 = s.graph.operators.iter().map(|o| o.parallelism).sum();
    format!(
        "{} operators, {tasks} subtasks, {}, {} planned failure(s), {} pass(es), {} µs per tick",
        s.graph.operators.len(),
        job.mode.name(),
        job.failures.len(),
        job.passes,
        job.tick_us
    )
}

fn readme(job: &Job) -> String {
    let s = &job.scenario;
    let mut r = String::new();
    let _ = writeln!(
        r,
        "# {} — a Flink {FLINK_VERSION} job\n\nExported by `abs-sim flink export` from the ABS \
         Playground scenario `{}` ({}), mode **{}**. `AbsJob.java` is the whole job; \
         `scenario.json` is the scenario as this job runs it (`abs-sim run scenario.json \
         --until-finished` simulates the same).\n",
        s.title,
        s.name,
        summary(job),
        job.mode.name()
    );
    r.push_str(
        "## Run it\n\n```sh\nexport ABS_FLINK_HOME=/path/to/flink/lib   # holds \
         flink-dist-2.3.0.jar\n./run.sh                # a local Flink; REST API on 127.0.0.1, \
         the port printed as ABS-REST\n./run.sh jar && flink run -c AbsJob abs-job.jar   # on a \
         cluster (needs as many slots as the largest parallelism)\n```\n\nRun locally, the job \
         prints `ABS-REST url`, `ABS-JOB id` and, once it has ended, `ABS-END status`; the \
         local Flink then stays up, so its REST API can still be read, until stdin closes \
         (Ctrl-D). Each Count subtask writes its final counts to `results/` (on a cluster: to \
         the task manager's stdout).\n\n",
    );
    r.push_str("## What became what\n\n| operator | Flink | parallelism |\n|---|---|---|\n");
    for o in &s.graph.operators {
        let inputs: Vec<String> = s
            .graph
            .edges
            .iter()
            .filter(|e| e.to == o.name)
            .map(|e| {
                format!(
                    "{} from {} ({} ticks)",
                    partitioning_name(e.partitioning),
                    e.from,
                    e.latency
                )
            })
            .collect();
        let what = match &o.kind {
            abs_playground::engine::OperatorKind::Source {
                interval, lines, ..
            } => format!(
                "source: {} lines, one read every {interval} ticks per subtask, offset in \
                 checkpointed state",
                lines.len()
            ),
            k => format!(
                "{}, {} ticks per record; input: {}",
                k.label(),
                o.processing_time,
                inputs.join(", ")
            ),
        };
        let _ = writeln!(r, "| {} | {what} | {} |", o.name, o.parallelism);
    }
    r.push_str("\n| setting | value |\n|---|---|\n");
    for (k, v) in java::settings(job) {
        let _ = writeln!(r, "| `{k}` | {v} |");
    }
    if !job.failures.is_empty() || !job.skipped.is_empty() {
        r.push_str("\n## Planned failures\n\n");
        for f in &job.failures {
            let _ = writeln!(
                r,
                "- {} (tick {}): throws in attempt {} after {} records (or at the end of its \
                 input, if it takes fewer here).",
                f.task, f.at, f.attempt, f.records
            );
        }
        for f in &job.skipped {
            let _ = writeln!(
                r,
                "- {f}: not exported — the simulated job has finished by then."
            );
        }
    }
    if !job.notes.is_empty() {
        r.push_str("\n## Notes\n\n");
        for n in &job.notes {
            let _ = writeln!(r, "- {n}");
        }
    }
    r
}

/// Writes the job's files into `dir` (made if missing).
pub fn write(job: &Job, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let files = [
        ("AbsJob.java", java::java(job)),
        ("run.sh", run_script()),
        ("log4j2.properties", LOG4J.to_string()),
        ("README.md", readme(job)),
        ("scenario.json", job.scenario.to_json() + "\n"),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = dir.join("run.sh");
        let _ = std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755));
    }
    Ok(())
}
