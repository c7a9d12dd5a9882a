//! `abs-sim explore`: every interleaving of a small system, every snapshot checked
//! (`engine::explore`), and `abs-sim run --replay`, which plays a counterexample back.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use abs_playground::engine::explore::{self, Explorer, Options};
use abs_playground::engine::BarrierMode;
use abs_playground::scenario::{presets, Scenario};

use super::cli::{help, name_once, number, scenario_file, usage_error};
use super::counting_alloc;

pub const USAGE: &str = "\
usage: abs-sim explore (--preset NAME | FILE.json) [--mode MODE] [--non-fifo] [--max-states N] [--snapshots K]

Explores every interleaving of a small system breadth-first — every order in which its
channels may deliver, its tasks replay and read, and its snapshots start — and checks every
snapshot that completes in any of them with the engine's checker. Time is left out (every
latency and processing time is zero, nothing times out), so is any failure the scenario
plans. States are told apart by what can still change the future (docs/explore.md).

Prints progress on stderr, then one JSON line:
  {\"states\": n, \"transitions\": t, \"snapshots\": m, \"violations\": k, \"complete\": bool,
   \"counterexample\": [MOVE, ...]}
where the counterexample is the shortest sequence of moves to the first snapshot that is not
consistent (empty when there is none). A move is an action as `abs-sim run` prints it
({\"action\": \"deliver\", \"channel\": 2}), with \"item\": N when a non-FIFO channel delivers its
N-th item first, or \"head\": true when a channel delivers its head before a priority barrier
behind it arrives. Save the list in a file and `abs-sim run --replay FILE` plays it.

Presets small enough: token, alignment-tiny, bank-tiny.

  --preset NAME      explore a preset
  FILE.json          explore a scenario file
  --mode MODE        aligned, at-least-once, unaligned, chandy-lamport or synchronous (default: the
                     scenario's)
  --non-fifo         make every channel non-FIFO: any queued item may arrive first
  --max-states N     stop after N distinct states (default 200000, about
                     300 MB at most); then \"complete\": false
  --snapshots K      start at most K checkpoints or snapshots in a run (default 2)
  -h, --help         print this text

Exit status 0 when the search ran (violations or not), 2 for a usage error or bad input.";

struct Args {
    scenario: Scenario,
    options: Options,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut scenario = None;
    let mut mode = None;
    let mut non_fifo = false;
    let mut options = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let named = match arg.as_str() {
            "--preset" => Some(presets::by_name(value("--preset")?).map_err(|e| e.to_string())?),
            "--mode" => {
                let m = value("--mode")?;
                mode = Some(m.parse::<BarrierMode>().map_err(|e| e.to_string())?);
                None
            }
            "--non-fifo" => {
                non_fifo = true;
                None
            }
            "--max-states" => {
                options.max_states = number("--max-states", value("--max-states")?)?.max(1);
                None
            }
            "--snapshots" => {
                options.snapshots = number("--snapshots", value("--snapshots")?)?;
                None
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            file => Some(scenario_file(file)?),
        };
        name_once(&mut scenario, named)?;
    }
    let mut scenario: Scenario = scenario.ok_or("name a scenario: --preset NAME or FILE.json")?;
    if let Some(mode) = mode {
        scenario.config.mode = mode;
    }
    if non_fifo {
        for edge in &mut scenario.graph.edges {
            edge.fifo = false;
        }
    }
    Ok(Args { scenario, options })
}

pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return help(USAGE);
    }
    let Args { scenario, options } = match parse(args) {
        Ok(a) => a,
        Err(e) => return usage_error("explore", &e, USAGE),
    };
    let root = match explore::model(&scenario.graph, &scenario.config, scenario.seed) {
        Ok(sim) => sim,
        Err(e) => {
            let _ = writeln!(io::stderr(), "abs-sim explore: {e}");
            return ExitCode::from(2);
        }
    };
    let mut err = io::stderr().lock();
    if scenario.config.aligned_checkpoint_timeout.is_some() {
        let _ = writeln!(
            err,
            "abs-sim explore: the aligned checkpoint timeout is a rule of time; it is left out"
        );
    }
    if !scenario.failures.is_empty() {
        let _ = writeln!(
            err,
            "abs-sim explore: the scenario's planned failures are left out"
        );
    }
    let started = Instant::now();
    let mut explorer = Explorer::new(root, options);
    loop {
        let over = explorer.run(2_000);
        let o = explorer.outcome();
        let _ = writeln!(
            err,
            "explore: {} states, {} transitions, {} snapshots ({} violations), {} to expand, depth {}, {:.1} s",
            o.states,
            o.transitions,
            o.snapshots,
            o.violations,
            explorer.frontier(),
            o.depth,
            started.elapsed().as_secs_f64()
        );
        if over {
            break;
        }
    }
    let o = explorer.outcome();
    let _ = writeln!(
        err,
        "explore: {} in {:.2} s, at most {:.1} MB in use",
        if o.complete {
            "complete"
        } else {
            "stopped at --max-states"
        },
        started.elapsed().as_secs_f64(),
        counting_alloc::peak_bytes() as f64 / 1e6
    );
    let _ = writeln!(
        err,
        "explore: transitions by move: {} actions, {} out-of-order deliveries (non-FIFO), {} heads before a priority barrier, {} priority barriers overtaking",
        o.kinds[0], o.kinds[1], o.kinds[2], o.kinds[3]
    );
    let mut out = io::stdout().lock();
    let written = writeln!(out, "{}", o.to_json_line()).and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "abs-sim explore: {e}");
            ExitCode::FAILURE
        }
    }
}
