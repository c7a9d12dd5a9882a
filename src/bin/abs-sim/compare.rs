//! `abs-sim compare`: one scenario and seed run in several modes, the cost of each side by
//! side (`engine::view::cost`).

use std::io::{self, Write};
use std::process::ExitCode;

use abs_playground::engine::view::{measure, CostFigures};
use abs_playground::scenario::modes::in_mode;
use abs_playground::scenario::{presets, Scenario};

use super::cli::{help, name_once, number, scenario_file, usage_error};

pub const USAGE: &str = "\
usage: abs-sim compare (--preset NAME | FILE.json) --modes MODE,MODE,... [--steps N] [--seed S]

Runs the same scenario and seed once per mode, each for the same number of steps (or to its
end), and prints what each mode costs as one JSON line:
  {\"modes\": [{\"mode\": \"aligned\", \"throughput\": 0.412, \"latency_p50\": 31, \"latency_p99\": 88,
    \"checkpoints_completed\": 12, \"checkpoint_duration_p50\": 57, \"checkpoint_size_p50\": 240,
    \"duplicates\": 0}, ...]}
with a readable table on stderr. Throughput is records processed at the sinks per time unit
of virtual time; latencies are from a source's read of the record a sink record derives from
to its processing at the sink (median, 99th percentile); durations from trigger to
completion; sizes in bytes of task state and persisted in-flight data (as Flink counts a
checkpointed size); duplicates, the records a recovery's replay counts twice (at-least-once),
over the failures the scenario plans. Times are in the scenario's time units.

  --preset NAME      a preset (`abs-sim preset` lists them)
  FILE.json          a scenario file
  --modes LIST       comma-separated: aligned, aligned-timeout (aligned, unaligned once an
                     alignment takes longer than the scenario's aligned_checkpoint_timeout, or
                     the page's default), aligned-debloat (aligned with buffer debloating:
                     the scenario's buffer_debloat target, or the default 20), unaligned,
                     at-least-once, synchronous (stop the sources, drain, snapshot every
                     task), chandy-lamport
  --steps N          steps per mode (default 20000)
  --seed S           the seed (default: the scenario's)
  -h, --help         print this text

Exit status 0, 2 for a usage error or a mode the scenario cannot run.";

struct Args {
    scenario: Scenario,
    modes: Vec<String>,
    steps: u64,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut scenario = None;
    let mut modes = None;
    let mut steps = 20_000;
    let mut seed = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let named = match arg.as_str() {
            "--preset" => Some(presets::by_name(value("--preset")?).map_err(|e| e.to_string())?),
            "--modes" => {
                let list: Vec<String> = value("--modes")?
                    .split(',')
                    .map(|m| m.trim().to_string())
                    .filter(|m| !m.is_empty())
                    .collect();
                if list.is_empty() {
                    return Err("--modes needs at least one mode".into());
                }
                modes = Some(list);
                None
            }
            "--steps" => {
                steps = number("--steps", value("--steps")?)?;
                None
            }
            "--seed" => {
                seed = Some(number("--seed", value("--seed")?)?);
                None
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            file => Some(scenario_file(file)?),
        };
        name_once(&mut scenario, named)?;
    }
    let mut scenario: Scenario = scenario.ok_or("name a scenario: --preset NAME or FILE.json")?;
    if let Some(seed) = seed {
        scenario.seed = seed;
    }
    let modes = modes.ok_or("name the modes: --modes aligned,unaligned,...")?;
    Ok(Args {
        scenario,
        modes,
        steps,
    })
}

/// One mode's figures as the JSON line writes them.
fn json(mode: &str, f: &CostFigures) -> String {
    format!(
        "{{\"mode\": {}, \"throughput\": {:.3}, \"latency_p50\": {}, \"latency_p99\": {}, \"checkpoints_completed\": {}, \"checkpoint_duration_p50\": {}, \"checkpoint_size_p50\": {}, \"duplicates\": {}}}",
        serde_json::Value::String(mode.to_string()),
        f.throughput,
        f.latency_p50,
        f.latency_p99,
        f.checkpoints_completed,
        f.checkpoint_duration_p50,
        f.checkpoint_size_p50,
        f.duplicates
    )
}

pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return help(USAGE);
    }
    let Args {
        scenario,
        modes,
        steps,
    } = match parse(args) {
        Ok(a) => a,
        Err(e) => return usage_error("compare", &e, USAGE),
    };
    let mut rows = Vec::new();
    for name in &modes {
        let sim = match in_mode(&scenario, name)
            .and_then(|s| s.simulation().map_err(|e| e.to_string()))
        {
            Ok(sim) => sim,
            Err(e) => {
                let _ = writeln!(io::stderr(), "abs-sim compare: {e}");
                return ExitCode::from(2);
            }
        };
        rows.push((name.clone(), measure(sim, steps)));
    }
    let mut err = io::stderr().lock();
    let _ = writeln!(
        err,
        "{:<16} {:>10} {:>8} {:>8} {:>6} {:>9} {:>9} {:>6}   ({} steps each, seed {})",
        "mode",
        "records/t",
        "lat p50",
        "lat p99",
        "ckpts",
        "dur p50",
        "size p50",
        "dups",
        steps,
        scenario.seed
    );
    for (name, f) in &rows {
        let _ = writeln!(
            err,
            "{:<16} {:>10.3} {:>8} {:>8} {:>6} {:>9} {:>9} {:>6}",
            name,
            f.throughput,
            f.latency_p50,
            f.latency_p99,
            f.checkpoints_completed,
            f.checkpoint_duration_p50,
            f.checkpoint_size_p50,
            f.duplicates
        );
    }
    let line: Vec<String> = rows.iter().map(|(n, f)| json(n, f)).collect();
    let mut out = io::stdout().lock();
    let written = writeln!(out, "{{\"modes\": [{}]}}", line.join(", ")).and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "abs-sim compare: {e}");
            ExitCode::FAILURE
        }
    }
}
