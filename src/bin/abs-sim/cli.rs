//! The commands of `abs-sim`: `run`, `gate`, `bench` and `preset`, their usage texts and
//! argument parsing.
//!
//! Output goes to a locked stdout with `writeln!`, never `println!` (which panics when the
//! reader has gone away); a closed pipe ends the command quietly with status 0.

use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use abs_playground::engine::gate::{run_gate, GateOptions};
use abs_playground::engine::{report, BarrierMode, Simulation};
use abs_playground::scenario::{presets, Failure, Scenario};

pub const USAGE: &str = "\
abs-sim: the ABS Playground engine, headless.

usage:
  abs-sim run (--preset NAME | FILE.json) [--mode MODE] [--seed S] [--steps N] [--fail SUBTASK@TIME]... [--savepoint TIME]... [--until-finished] [--non-fifo]
      run a scenario and print its trace as JSON lines, then a summary line
  abs-sim gate --mode MODE --channels N [--finished-channels-align true|false]
      drive one task's barrier handler: arrivals on stdin, what the task does on stdout
  abs-sim bench [--quick]
      print the engine's figures (events/s, history bytes/event, seek time)
  abs-sim preset [NAME]
      list the presets, or print one as a scenario file (pretty JSON)
  abs-sim explore (--preset NAME | FILE.json) [--mode M] [--non-fifo] [--max-states N]
      try every interleaving of a small system and check every snapshot (`abs-sim explore --help`)
  abs-sim compare (--preset NAME | FILE.json) --modes a,b,c [--steps N]
      the same run in several modes: throughput, latency, checkpoints, duplicates (one JSON line)
  abs-sim overhead (--preset NAME | FILE.json) --intervals 10,20,50,...
      the runtime overhead of checkpoints per mode and interval, as the ABS paper measured it
  abs-sim flink export|run (--preset NAME | FILE.json) [--mode M] ... --out PATH
      the scenario as a Flink 2.3 job, or that job run on a local Flink (`abs-sim flink --help`)
  abs-sim lesson FILE.json [--scorm OUT.zip [--lang LANG] [--site DIR]]
      check a lesson: every step's moment and the engine's answer to its question (JSON lines);
      with --scorm, package it for a course site (SCORM 1.2)
  abs-sim shells DIR
      draw the page's first pictures into the built site DIR (the build runs it)
  abs-sim help | --help | -h
      this text

MODE is aligned, at-least-once, unaligned, chandy-lamport or synchronous (stop-the-world).
`abs-sim COMMAND --help`
describes a command.";

pub const RUN_USAGE: &str = "\
usage: abs-sim run (--preset NAME | FILE.json) [--mode MODE] [--seed S] [--steps N] [--fail SUBTASK@TIME]... [--savepoint TIME]... [--until-finished] [--non-fifo] [--replay FILE]

Runs a scenario with the scheduler and prints its trace: one JSON line per step, written as
the step runs, then {\"summary\": {...}}: steps, time, finished, and every checkpoint (or
Chandy-Lamport snapshot) with its \"kind\" (\"checkpoint\" or \"savepoint\") and, once completed, its
\"verdict\" (\"consistent\" or what is wrong), its \"checkpointed_size\" and
\"persisted_in_flight\" (bytes, as Flink counts them: the checkpointed size includes the
persisted in-flight data), its \"subtasks\" ({SUBTASK: Flink's per-subtask statistics:
\"start_delay\", \"alignment_duration\", \"sync_duration\", \"async_duration\",
\"checkpointed_size\", \"persisted_data\", \"processed_data\", \"unaligned_checkpoint\"})
and its \"global_state\" ({\"tasks\": {SUBTASK: STATE}, \"channels\": {\"FROM->TO\": [ITEM, ...]}}).

  --preset NAME      run a preset (`abs-sim preset` lists them)
  FILE.json          run a scenario file (`abs-sim preset NAME` prints one to start from)
  --mode MODE        aligned, at-least-once, unaligned, chandy-lamport or synchronous (default: the
                     scenario's)
  --seed S           the seed that breaks ties between events (default: the scenario's)
  --steps N          the number of steps to run (default 500; fewer if nothing is left to
                     happen); with --until-finished, the most steps to run (default 1000000)
  --until-finished   run until the job has finished (every source bounded, every task done);
                     exit status 1, after the trace, if it has not within --steps steps
  --non-fifo         make every channel non-FIFO: a later item may overtake an earlier one
  --fail SUBTASK@TIME
                     the subtask (as the page names it, e.g. Count#1) fails at that virtual
                     time: the job restarts from its latest completed checkpoint; repeatable.
                     The summary lists every planned failure with \"applied\" (a failure
                     after the job has finished does not happen)
  --savepoint TIME   the coordinator is asked for a savepoint at that virtual time (Flink's
                     modes only: aligned, unaligned, at-least-once); repeatable. A savepoint
                     is aligned in every mode, is never subsumed, and no failover restores it
  --replay FILE      play the moves FILE lists (`abs-sim explore`'s counterexample, or its
                     whole output line) instead of scheduling: on the search's model of the
                     scenario (no time: every latency and processing time zero, nothing
                     times out), one line per move, then the summary
  -h, --help         print this text";

pub const GATE_USAGE: &str = "\
usage: abs-sim gate --mode MODE --channels N [--finished-channels-align true|false]

Drives one task's barrier handler. Each stdin line is an arrival:
  {\"ch\":0,\"record\":\"r1\"}  {\"ch\":1,\"barrier\":3}  {\"ch\":2,\"cancel\":2}  {\"ch\":0,\"end_of_partition\":true}
each stdout line is what the task does:
  {\"record\":\"r1\"}  {\"triggered\":3}  {\"aborted\":2}  {\"end_of_partition\":0}
  {\"channel_state\":{\"checkpoint\":1,\"ch\":0,\"record\":\"r4\"}}
A malformed line prints nothing, names the line and exits with status 2.

  --mode MODE                        aligned, at-least-once, unaligned or chandy-lamport
                                     (required)
  --channels N                       the task's number of input channels, 1 or more (required)
  --finished-channels-align BOOL     whether finished channels count as aligned (default
                                     true, as in Flink since 1.15)
  -h, --help                         print this text";

pub const BENCH_USAGE: &str = "\
usage: abs-sim bench [--quick]

Prints the engine's figures as Markdown tables, with the targets they are held to:
events per second on word-count graphs of 8, 64 and 512 tasks and of 1,024 tasks with 131,328
channels, timed in a steady state
(median, min and max of 5 runs); items queued and checkpoints completed in each timed
window; a 1,000,000-event history's bytes per event (counted by the allocator) and the
time to seek in it from step 0.

Exit status 1 if a timed window was not a steady state: its queues grew, fewer than 3
checkpoints completed in it, or one was aborted. A missed target is reported, not an error.

  --quick      one run per size and a 100,000-event history
  -h, --help   print this text";

pub const PRESET_USAGE: &str = "\
usage: abs-sim preset [NAME]

Without NAME, lists the presets with their titles. With NAME, prints that preset as a
scenario file (pretty JSON), a starting point for one's own: `abs-sim run FILE.json` runs it
exactly as `abs-sim run --preset NAME`.

  -h, --help   print this text";

/// The default `--steps` of a run.
const DEFAULT_STEPS: u64 = 500;
/// The default `--steps` of a run `--until-finished`: a bound, not a target.
const DEFAULT_FINISH_LIMIT: u64 = 1_000_000;

/// Prints `text` to stdout: the usage asked for with `--help`, so a success.
pub fn help(text: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    let written = writeln!(out, "{text}").and_then(|()| out.flush());
    finish("help", written.map(|()| ExitCode::SUCCESS))
}

fn wants_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

pub fn usage_error(command: &str, message: &str, usage: &str) -> ExitCode {
    let _ = writeln!(io::stderr(), "abs-sim {command}: {message}\n\n{usage}");
    ExitCode::from(2)
}

/// The end of a command that wrote to stdout. A closed pipe means the reader has all it
/// wanted (`| head`): a quiet success.
fn finish(command: &str, result: io::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(
                io::stderr(),
                "abs-sim {command}: cannot write the output: {e}"
            );
            ExitCode::FAILURE
        }
    }
}

struct RunArgs {
    scenario: Scenario,
    steps: Option<u64>,
    until_finished: bool,
    /// `--replay`: moves to play instead of scheduling.
    replay: Option<Vec<abs_playground::engine::explore::Move>>,
    /// `--savepoint TIME`s.
    savepoints: Vec<u64>,
}

/// `--fail SUBTASK@TIME`, as `run` and `flink` read it.
pub fn failure_arg(v: &str) -> Result<Failure, String> {
    let bad = || format!("--fail takes SUBTASK@TIME (e.g. Count#1@120), not {v:?}");
    let (task, at) = v.rsplit_once('@').ok_or_else(bad)?;
    let at = at.parse::<u64>().map_err(|_| bad())?;
    if task.is_empty() {
        return Err(bad());
    }
    Ok(Failure {
        task: task.to_string(),
        at,
    })
}

/// A scenario file named on the command line, read and validated.
/// A whole number given to `flag`, or what the flag needs.
pub fn number(flag: &str, v: &str) -> Result<u64, String> {
    v.parse::<u64>()
        .map_err(|_| format!("{flag} needs a number, not {v:?}"))
}

/// Keeps the one scenario a command names (`--preset NAME` or FILE.json) in `slot`; a second
/// one is refused.
pub fn name_once(slot: &mut Option<Scenario>, named: Option<Scenario>) -> Result<(), String> {
    if let Some(named) = named {
        if slot.replace(named).is_some() {
            return Err("name one scenario: --preset NAME or FILE.json, not both".into());
        }
    }
    Ok(())
}

pub fn scenario_file(file: &str) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    Scenario::from_json(&text).map_err(|e| format!("{file}: {e}"))
}

fn parse_run(args: &[String]) -> Result<RunArgs, String> {
    let mut scenario = None;
    let mut seed = None;
    let mut mode = None;
    let mut steps = None;
    let mut until_finished = false;
    let mut non_fifo = false;
    let mut replay = None;
    let mut failures = Vec::new();
    let mut savepoints = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let named = match arg.as_str() {
            "--preset" => {
                let name = value("--preset")?;
                Some(presets::by_name(name).map_err(|e| e.to_string())?)
            }
            "--seed" => {
                seed = Some(number("--seed", value("--seed")?)?);
                None
            }
            "--steps" => {
                steps = Some(number("--steps", value("--steps")?)?);
                None
            }
            "--mode" => {
                mode = Some(
                    value("--mode")?
                        .parse::<BarrierMode>()
                        .map_err(|e| e.to_string())?,
                );
                None
            }
            "--until-finished" => {
                until_finished = true;
                None
            }
            "--non-fifo" => {
                non_fifo = true;
                None
            }
            "--fail" => {
                failures.push(failure_arg(value("--fail")?)?);
                None
            }
            "--replay" => {
                replay = Some(super::replay::read_moves(value("--replay")?)?);
                None
            }
            "--savepoint" => {
                savepoints.push(number("--savepoint", value("--savepoint")?)?);
                None
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            file => Some(scenario_file(file)?),
        };
        name_once(&mut scenario, named)?;
    }
    let mut scenario = scenario.ok_or("name a scenario: --preset NAME or FILE.json")?;
    if let Some(seed) = seed {
        scenario.seed = seed;
    }
    if let Some(mode) = mode {
        scenario.config.mode = mode;
    }
    if non_fifo {
        for edge in &mut scenario.graph.edges {
            edge.fifo = false;
        }
    }
    scenario.failures.extend(failures);
    if replay.is_some()
        && (until_finished
            || steps.is_some()
            || !scenario.failures.is_empty()
            || !savepoints.is_empty())
    {
        return Err(
            "--replay plays its moves: --steps, --until-finished, --fail and --savepoint do not go with it"
                .into(),
        );
    }
    Ok(RunArgs {
        scenario,
        steps,
        until_finished,
        replay,
        savepoints,
    })
}

pub fn run(args: &[String]) -> ExitCode {
    if wants_help(args) {
        return help(RUN_USAGE);
    }
    let RunArgs {
        scenario,
        steps,
        until_finished,
        replay,
        savepoints,
    } = match parse_run(args) {
        Ok(a) => a,
        Err(e) => return usage_error("run", &e, RUN_USAGE),
    };
    if let Some(moves) = replay {
        return super::replay::replay(&scenario, &moves);
    }
    let mut sim = match scenario.simulation() {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(io::stderr(), "abs-sim run: {e}");
            return ExitCode::from(2);
        }
    };
    for at in savepoints {
        if let Err(e) = sim.plan_savepoint(at) {
            return usage_error("run", &format!("--savepoint: {e}"), RUN_USAGE);
        }
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let result = if until_finished {
        run_until_finished(&mut sim, steps.unwrap_or(DEFAULT_FINISH_LIMIT), &mut out)
    } else {
        report::write_trace(&mut sim, steps.unwrap_or(DEFAULT_STEPS), &mut out)
            .map(|()| ExitCode::SUCCESS)
    };
    let result = result.and_then(|code| out.flush().map(|()| code));
    finish("run", result)
}

/// Steps until the job has finished, at most `limit` steps; the trace, then the summary.
fn run_until_finished(
    sim: &mut Simulation,
    limit: u64,
    out: &mut impl Write,
) -> io::Result<ExitCode> {
    let mut done = 0u64;
    let mut idle = false;
    let mut report = report::Report::default();
    while !sim.job_finished() && done < limit {
        if !report.write_step(sim, out)? {
            idle = true;
            break;
        }
        done += 1;
    }
    report.write_summary(sim, out)?;
    if sim.job_finished() {
        return Ok(ExitCode::SUCCESS);
    }
    out.flush()?;
    let why = if idle {
        format!("nothing was left to happen after {done} steps")
    } else {
        format!("the limit of {limit} steps (--steps) was reached")
    };
    let _ = writeln!(io::stderr(), "abs-sim run: the job did not finish: {why}");
    Ok(ExitCode::FAILURE)
}

fn parse_gate(args: &[String]) -> Result<GateOptions, String> {
    let mut mode = None;
    let mut channels = None;
    let mut finished_channels_align = true;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if !matches!(
            flag.as_str(),
            "--mode" | "--channels" | "--finished-channels-align"
        ) {
            return Err(format!("unknown option {flag}"));
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--mode" => mode = Some(value.parse::<BarrierMode>().map_err(|e| e.to_string())?),
            "--channels" => {
                channels =
                    Some(value.parse::<u32>().map_err(|_| {
                        format!("--channels needs a positive number, not {value:?}")
                    })?)
            }
            _ => {
                finished_channels_align = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "--finished-channels-align takes true or false, not {value:?}"
                        ))
                    }
                }
            }
        }
    }
    Ok(GateOptions {
        mode: mode.ok_or("--mode is required")?,
        channels: channels.ok_or("--channels is required")?,
        finished_channels_align,
    })
}

pub fn gate(args: &[String]) -> ExitCode {
    if wants_help(args) {
        return help(GATE_USAGE);
    }
    let options = match parse_gate(args) {
        Ok(o) => o,
        Err(e) => return usage_error("gate", &e, GATE_USAGE),
    };
    let mut input = String::new();
    if let Err(e) = io::stdin().read_to_string(&mut input) {
        let _ = writeln!(io::stderr(), "abs-sim gate: cannot read stdin: {e}");
        return ExitCode::from(2);
    }
    match run_gate(&options, &input) {
        Ok(text) => {
            let mut out = io::stdout().lock();
            let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
            finish("gate", written.map(|()| ExitCode::SUCCESS))
        }
        Err(e) => {
            let _ = writeln!(io::stderr(), "abs-sim gate: {e}");
            ExitCode::from(2)
        }
    }
}

pub fn preset(args: &[String]) -> ExitCode {
    if wants_help(args) {
        return help(PRESET_USAGE);
    }
    let mut out = io::stdout().lock();
    let written = match args {
        [] => {
            let width = presets::NAMES.iter().map(|n| n.len()).max().unwrap_or(0);
            presets::all()
                .iter()
                .try_for_each(|s| writeln!(out, "{:width$}  {}", s.name, s.title))
        }
        [flag] if flag.starts_with('-') => {
            return usage_error("preset", &format!("unknown option {flag}"), PRESET_USAGE)
        }
        [name] => match presets::by_name(name) {
            Ok(scenario) => writeln!(out, "{}", scenario.to_json()),
            Err(e) => {
                let _ = writeln!(io::stderr(), "abs-sim preset: {e}");
                return ExitCode::from(2);
            }
        },
        [_, extra, ..] => {
            return usage_error(
                "preset",
                &format!("unexpected argument {extra:?} (name one preset)"),
                PRESET_USAGE,
            )
        }
    };
    let written = written.and_then(|()| out.flush());
    finish("preset", written.map(|()| ExitCode::SUCCESS))
}

pub fn bench(args: &[String]) -> ExitCode {
    if wants_help(args) {
        return help(BENCH_USAGE);
    }
    let mut quick = false;
    for arg in args {
        match arg.as_str() {
            "--quick" => quick = true,
            flag if flag.starts_with('-') => {
                return usage_error("bench", &format!("unknown option {flag}"), BENCH_USAGE)
            }
            other => {
                return usage_error(
                    "bench",
                    &format!("unexpected argument {other:?}"),
                    BENCH_USAGE,
                )
            }
        }
    }
    // Stdout's own line buffering shows each row as soon as it is measured.
    let result = crate::bench::bench_to(&mut io::stdout().lock(), quick);
    finish("bench", result)
}
