//! `abs-sim flink export` and `abs-sim flink run`: a scenario as a Flink 2.x job, and that job
//! run on a local Flink whose REST API is polled into one JSON bundle (docs/flink.md).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use abs_playground::scenario::{presets, Scenario};

use crate::cli::{failure_arg, name_once, scenario_file};

mod cluster;
mod export;
mod files;
mod http;
mod java;
mod run;

pub const USAGE: &str = "\
usage:
  abs-sim flink export (--preset NAME | FILE.json) [--mode M] [--fail SUBTASK@TIME]... [--passes N] [--tick-us U] --out DIR
      write the scenario as a self-contained Flink 2.x job (Java source, run script, README)
  abs-sim flink run (--preset NAME | FILE.json) [--mode M] [--fail SUBTASK@TIME]... [--passes N] [--tick-us U] [--flink-option K=V]... [--savepoint T]... [--timeout S] [--port P] [--cluster URL] --out RUN.json
      export, compile and run the job on a local Flink, polling its REST API; write one
      JSON bundle: flink_version, plan, checkpoints, exceptions, final counts

  --preset NAME        a preset (`abs-sim preset` lists them)
  FILE.json            a scenario file
  --mode M             aligned, unaligned, at-least-once or aligned-timeout (default: the
                       scenario's)
  --fail SUBTASK@TIME  a planned failure (as in `abs-sim run`), repeatable: the subtask throws
                       an exception once, after the records the simulation says it has taken
                       by then
  --passes N           how many times an unbounded source reads its lines before it ends
                       (default: enough for the longest to read for 6 checkpoint intervals)
  --tick-us U          real microseconds per tick of the scenario (default 1000: a tick is a
                       millisecond, as the page shows it); rates, latencies and checkpoint
                       settings are scaled by it
  --out DIR|RUN.json   where the job (export) or the bundle (run) goes
  --flink-option KEY=VALUE
                       a Flink setting the job uses in place of the scenario's (repeatable),
                       e.g. to see what Flink does with a setting the simulation refuses
  --savepoint TIME     run: ask Flink's REST API for a savepoint TIME ticks after the job
                       started (repeatable), as `abs-sim run --savepoint TIME` does
  --timeout S          run: give up, stop Flink and exit 1 after S seconds (default 300)
  --port P             run: the REST API's port on 127.0.0.1 (default: any free one)
  --cluster URL        run: on the running Flink 2.3 cluster whose REST API is at URL (e.g.
                       http://127.0.0.1:8081; .ci/flink-cluster.sh starts one), not a local
                       Flink: the job is uploaded as a jar, run and polled, and its jar deleted;
                       past --timeout it is cancelled. The cluster must be able to write to the
                       results folder (an absolute path in this machine's temp folder): a
                       cluster on this machine. The job restarts as the cluster's restart
                       strategy says, unless --flink-option sets a restart-strategy setting
  -h, --help           this text

`run` needs Java 17 (javac, java) and Flink's jars: set ABS_FLINK_HOME to the folder holding
flink-dist-2.3.0.jar, or run `.ci/flink-setup.sh`, which installs both when missing and
prints that folder. Exit status: 0 on success; 1 when the job fails for good, runs past the
time limit, or Flink cannot be started; 2 for a usage error or a scenario Flink cannot
express (the message says why).";

pub struct Args {
    pub scenario: Scenario,
    pub mode: Option<String>,
    pub passes: Option<u64>,
    pub tick_us: u64,
    pub out: PathBuf,
    pub timeout: u64,
    pub port: u16,
    /// `--flink-option KEY=VALUE`: Flink settings in place of the scenario's.
    pub overrides: Vec<(String, String)>,
    /// `--savepoint TIME`: ticks after the job started when a savepoint is asked for (run).
    pub savepoints: Vec<u64>,
    /// `--cluster URL`: run on the Flink cluster whose REST API is at URL (run).
    pub cluster: Option<String>,
}

fn number<T: std::str::FromStr>(flag: &str, v: &str, what: &str) -> Result<T, String> {
    v.parse::<T>()
        .map_err(|_| format!("{flag} needs {what}, not {v:?}"))
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut scenario: Option<Scenario> = None;
    let mut mode = None;
    let mut passes = None;
    let mut tick_us = 1000;
    let mut out = None;
    let mut timeout = 300;
    let mut port = 0;
    let mut failures = Vec::new();
    let mut overrides = Vec::new();
    let mut savepoints = Vec::new();
    let mut cluster = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let named = match arg.as_str() {
            "--preset" => Some(presets::by_name(value("--preset")?).map_err(|e| e.to_string())?),
            "--mode" => {
                mode = Some(value("--mode")?.clone());
                None
            }
            "--passes" => {
                let v = value("--passes")?;
                let n: u64 = number("--passes", v, "a number of 1 or more")?;
                if n == 0 {
                    return Err("--passes needs a number of 1 or more, not \"0\"".into());
                }
                passes = Some(n);
                None
            }
            "--tick-us" => {
                let v = value("--tick-us")?;
                tick_us = number("--tick-us", v, "a number of microseconds from 1 to 1000000")?;
                if !(1..=1_000_000).contains(&tick_us) {
                    return Err(format!(
                        "--tick-us needs a number of microseconds from 1 to 1000000, not {v:?}"
                    ));
                }
                None
            }
            "--timeout" => {
                let v = value("--timeout")?;
                timeout = number("--timeout", v, "a number of seconds")?;
                None
            }
            "--port" => {
                let v = value("--port")?;
                port = number("--port", v, "a port number")?;
                None
            }
            "--out" => {
                out = Some(PathBuf::from(value("--out")?));
                None
            }
            "--flink-option" => {
                let v = value("--flink-option")?;
                let (k, val) = v
                    .split_once('=')
                    .filter(|(k, _)| !k.trim().is_empty())
                    .ok_or_else(|| format!("--flink-option needs KEY=VALUE, not {v:?}"))?;
                overrides.push((k.trim().to_string(), val.trim().to_string()));
                None
            }
            "--savepoint" => {
                let v = value("--savepoint")?;
                savepoints.push(number("--savepoint", v, "a time in ticks")?);
                None
            }
            "--cluster" => {
                cluster = Some(value("--cluster")?.clone());
                None
            }
            "--fail" => {
                failures.push(failure_arg(value("--fail")?)?);
                None
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            file => Some(scenario_file(file)?),
        };
        name_once(&mut scenario, named)?;
    }
    let mut scenario = scenario.ok_or("name a scenario: --preset NAME or FILE.json")?;
    scenario.failures.extend(failures);
    scenario.validate().map_err(|e| e.to_string())?;
    Ok(Args {
        scenario,
        mode,
        passes,
        tick_us,
        out: out.ok_or("--out is required")?,
        timeout,
        port,
        overrides,
        savepoints,
        cluster,
    })
}

fn say(message: &str) {
    let _ = writeln!(io::stderr(), "abs-sim flink: {message}");
}

/// `abs-sim flink ...`
pub fn main(args: &[String]) -> ExitCode {
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        return crate::cli::help(USAGE);
    }
    let command = args[0].as_str();
    if !matches!(command, "export" | "run") {
        let _ = writeln!(
            io::stderr(),
            "abs-sim flink: unknown command {command:?} (export or run)\n\n{USAGE}"
        );
        return ExitCode::from(2);
    }
    let a = match parse(&args[1..]) {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(io::stderr(), "abs-sim flink {command}: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let job = match export::mode_of(&a.scenario, a.mode.as_deref())
        .and_then(|mode| export::prepare(&a.scenario, mode, a.passes, a.tick_us))
    {
        Ok(mut job) => {
            job.overrides.clone_from(&a.overrides);
            job
        }
        Err(e) => {
            say(&format!("{} cannot be exported: {e}.", a.scenario.name));
            return ExitCode::from(2);
        }
    };
    if command == "export" {
        return match files::write(&job, &a.out) {
            Ok(()) => {
                let _ = writeln!(
                    io::stderr(),
                    "abs-sim flink: wrote the job to {} ({})",
                    a.out.display(),
                    files::summary(&job)
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                say(&e);
                ExitCode::FAILURE
            }
        };
    }
    let ran = match &a.cluster {
        Some(url) => cluster::run(&job, &a, url),
        None => run::run(&job, &a),
    };
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say(&e);
            ExitCode::FAILURE
        }
    }
}
