//! `abs-sim overhead`: the ABS paper's evaluation — the runtime overhead of taking snapshots,
//! against the snapshot interval, per mode: the extra virtual time a bounded input takes with
//! checkpoints every `interval` time units over the same input without any.

use std::io::{self, Write};
use std::process::ExitCode;

use abs_playground::engine::BarrierMode;
use abs_playground::scenario::modes::{bounded_input, input_time, overhead};
use abs_playground::scenario::{presets, Scenario};

use super::cli::{help, name_once, number, scenario_file, usage_error};

pub const USAGE: &str = "\
usage: abs-sim overhead (--preset NAME | FILE.json) --intervals N,N,... [--modes MODE,...] [--lines N] [--seed S]

Runs a bounded input through the scenario once without checkpoints and once with a checkpoint
every N time units for each interval, in each mode, and prints the runtime overhead — the
extra virtual time the input takes, in % of the time without checkpoints — as one JSON line,
mode → interval → overhead:
  {\"aligned\": {\"10\": 4.1, \"20\": 2.0, ...}, \"unaligned\": {...}, ...}
after a readable table on stderr. The time an input takes is when the sinks processed its
last record (not when the job finished: a finishing job waits for a final checkpoint).

  --preset NAME      a preset (`abs-sim preset` lists them)
  FILE.json          a scenario file
  --intervals LIST   checkpoint intervals in time units, comma-separated
  --modes LIST       aligned, aligned-timeout, aligned-debloat, unaligned, at-least-once,
                     synchronous, chandy-lamport (default: those of aligned, unaligned, at-least-once and
                     synchronous the scenario runs)
  --lines N          every source reads N lines (its log repeated) and ends (default 400)
  --seed S           the seed (default: the scenario's)
  -h, --help         print this text

The scenario's planned failures are left out. Exit status 0; 2 for a usage error, a mode the
scenario cannot run, or an input that does not end within 5,000,000 steps.";

struct Args {
    scenario: Scenario,
    intervals: Vec<u64>,
    modes: Option<Vec<String>>,
    lines: usize,
}

fn list_of_numbers(name: &str, v: &str) -> Result<Vec<u64>, String> {
    let list: Result<Vec<u64>, _> = v.split(',').map(|n| n.trim().parse::<u64>()).collect();
    match list {
        Ok(l) if !l.is_empty() && l.iter().all(|&n| n >= 1) => Ok(l),
        _ => Err(format!(
            "{name} needs whole numbers of at least 1, comma-separated, not {v:?}"
        )),
    }
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut scenario = None;
    let mut intervals = None;
    let mut modes = None;
    let mut lines = 400;
    let mut seed = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let named = match arg.as_str() {
            "--preset" => Some(presets::by_name(value("--preset")?).map_err(|e| e.to_string())?),
            "--intervals" => {
                intervals = Some(list_of_numbers("--intervals", value("--intervals")?)?);
                None
            }
            "--modes" => {
                modes = Some(
                    value("--modes")?
                        .split(',')
                        .map(|m| m.trim().to_string())
                        .filter(|m| !m.is_empty())
                        .collect(),
                );
                None
            }
            "--lines" => {
                let v = value("--lines")?;
                lines = v
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| (1..=abs_playground::engine::vocab::MAX_LINES).contains(&n))
                    .ok_or_else(|| {
                        format!(
                            "--lines needs a number from 1 to {}, not {v:?}",
                            abs_playground::engine::vocab::MAX_LINES
                        )
                    })?;
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
    let intervals = intervals.ok_or("name the intervals: --intervals 10,20,50,...")?;
    Ok(Args {
        scenario,
        intervals,
        modes,
        lines,
    })
}

pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return help(USAGE);
    }
    let Args {
        scenario,
        intervals,
        modes,
        lines,
    } = match parse(args) {
        Ok(a) => a,
        Err(e) => return usage_error("overhead", &e, USAGE),
    };
    let fail = |e: String| {
        let _ = writeln!(io::stderr(), "abs-sim overhead: {e}");
        ExitCode::from(2)
    };
    let input = match bounded_input(&scenario, lines) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let modes = modes.unwrap_or_else(|| {
        [
            BarrierMode::Aligned,
            BarrierMode::Unaligned,
            BarrierMode::AtLeastOnce,
            BarrierMode::Synchronous,
        ]
        .into_iter()
        .filter(|m| input.modes().contains(m))
        .map(|m| m.as_str().to_string())
        .collect()
    });
    // Per mode: its name, the time without checkpoints, and per interval (interval, time,
    // overhead %).
    type Cells = Vec<(u64, u64, f64)>;
    let mut rows: Vec<(String, u64, Cells)> = Vec::new();
    for name in &modes {
        let base = match input_time(&input, name, None) {
            Ok(t) => t.max(1),
            Err(e) => return fail(e),
        };
        let mut cells = Vec::new();
        for &i in &intervals {
            let t = match input_time(&input, name, Some(i)) {
                Ok(t) => t,
                Err(e) => return fail(e),
            };
            cells.push((i, t, overhead(t, base)));
        }
        rows.push((name.clone(), base, cells));
    }
    let mut err = io::stderr().lock();
    let _ = writeln!(
        err,
        "runtime overhead, % of the time without checkpoints ({} lines per source, seed {}):",
        lines, scenario.seed
    );
    let _ = write!(err, "{:<16} {:>10}", "mode \\ interval", "none");
    for i in &intervals {
        let _ = write!(err, " {i:>8}");
    }
    let _ = writeln!(err);
    for (name, base, cells) in &rows {
        let _ = write!(err, "{name:<16} {base:>8} t");
        for (_, _, o) in cells {
            let _ = write!(err, " {o:>7.1}%");
        }
        let _ = writeln!(err);
    }
    let json: Vec<String> = rows
        .iter()
        .map(|(name, _, cells)| {
            let cells: Vec<String> = cells
                .iter()
                .map(|(i, _, o)| format!("\"{i}\": {o:.1}"))
                .collect();
            format!(
                "{}: {{{}}}",
                serde_json::Value::String(name.clone()),
                cells.join(", ")
            )
        })
        .collect();
    let mut out = io::stdout().lock();
    let written = writeln!(out, "{{{}}}", json.join(", ")).and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "abs-sim overhead: {e}");
            ExitCode::FAILURE
        }
    }
}
