//! `abs-sim run` and `abs-sim bench`.

use std::process::ExitCode;
use std::time::Instant;

use abs_playground::engine::{report, BarrierMode, History, Simulation};
use abs_playground::scenario::{presets, Scenario};

pub const USAGE: &str = "usage:
  abs-sim run (--preset NAME | FILE.json) [--seed S] [--steps N] [--mode aligned|at-least-once|unaligned]
  abs-sim gate --mode aligned|at-least-once|unaligned --channels N [--finished-channels-align true|false]
  abs-sim bench [--quick]";

struct RunArgs {
    scenario: Scenario,
    steps: u64,
}

fn parse_run(args: &[String]) -> Result<RunArgs, String> {
    let mut scenario = None;
    let mut seed = None;
    let mut mode = None;
    let mut steps = 500u64;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--preset" => {
                let name = value("--preset")?;
                scenario = Some(presets::by_name(name).map_err(|e| e.to_string())?);
            }
            "--seed" => {
                let v = value("--seed")?;
                seed = Some(
                    v.parse::<u64>()
                        .map_err(|_| format!("--seed needs a number, not {v:?}"))?,
                );
            }
            "--steps" => {
                let v = value("--steps")?;
                steps = v
                    .parse()
                    .map_err(|_| format!("--steps needs a number, not {v:?}"))?;
            }
            "--mode" => {
                mode = Some(
                    value("--mode")?
                        .parse::<BarrierMode>()
                        .map_err(|e| e.to_string())?,
                )
            }
            file if !file.starts_with("--") && scenario.is_none() => {
                let text = std::fs::read_to_string(file)
                    .map_err(|e| format!("cannot read {file}: {e}"))?;
                scenario = Some(Scenario::from_json(&text).map_err(|e| format!("{file}: {e}"))?);
            }
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    let mut scenario = scenario.ok_or("name a scenario: --preset NAME or FILE.json")?;
    if let Some(seed) = seed {
        scenario.seed = seed;
    }
    if let Some(mode) = mode {
        scenario.config.mode = mode;
    }
    Ok(RunArgs { scenario, steps })
}

pub fn run(args: &[String]) -> ExitCode {
    let RunArgs { scenario, steps } = match parse_run(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("abs-sim run: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut sim = match scenario.simulation() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("abs-sim run: {e}");
            return ExitCode::from(2);
        }
    };
    print!("{}", report::trace(&mut sim, steps));
    ExitCode::SUCCESS
}

pub fn bench(args: &[String]) -> ExitCode {
    let quick = args.iter().any(|a| a == "--quick");
    let events: u64 = if quick { 200_000 } else { 2_000_000 };
    println!("| word count | tasks | events | seconds | events/s | ns/event |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut per_event = Vec::new();
    for p in [2u32, 16, 128] {
        let graph = presets::wordcount_graph(p, p, 16);
        let config = presets::wordcount().config;
        let Ok(mut sim) = Simulation::new(&graph, &config, 7) else {
            eprintln!("abs-sim bench: the word-count graph does not build");
            return ExitCode::FAILURE;
        };
        // Warm up so the channels are in their steady state.
        for _ in 0..events / 10 {
            sim.step();
        }
        let start = Instant::now();
        let mut done = 0u64;
        while done < events && sim.step().is_some() {
            done += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        let ns = secs * 1e9 / done.max(1) as f64;
        per_event.push(ns);
        println!(
            "| p={p} | {} | {done} | {secs:.3} | {:.0} | {ns:.1} |",
            sim.physical().task_count(),
            done as f64 / secs
        );
    }
    if let (Some(first), Some(last)) = (per_event.first(), per_event.last()) {
        println!("\nper-event cost 512 tasks / 8 tasks: {:.2}×", last / first);
    }

    // History: bytes per event and seek time on a long run.
    let total: u64 = if quick { 100_000 } else { 1_000_000 };
    let graph = presets::wordcount_graph(16, 16, 16);
    let config = presets::wordcount().config;
    let Ok(sim) = Simulation::new(&graph, &config, 7) else {
        return ExitCode::FAILURE;
    };
    let mut history = History::new(sim);
    let start = Instant::now();
    for _ in 0..total {
        if history.step().is_none() {
            break;
        }
    }
    let record_secs = start.elapsed().as_secs_f64();
    let bytes = history.approx_bytes();
    println!(
        "\nhistory: {} events recorded in {record_secs:.2} s, {} keyframes, ≈ {:.1} bytes/event",
        history.len(),
        history.keyframe_count(),
        bytes as f64 / history.len().max(1) as f64
    );
    let mut rng = abs_playground::engine::rng::SplitMix64::new(42);
    let mut worst = 0f64;
    let mut sum = 0f64;
    let seeks = 20;
    for _ in 0..seeks {
        let target = rng.below(history.len());
        let start = Instant::now();
        history.seek(target);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        worst = worst.max(ms);
        sum += ms;
    }
    println!(
        "seek to a random step of a {}-event run: mean {:.1} ms, worst {:.1} ms ({seeks} seeks)",
        history.len(),
        sum / seeks as f64,
        worst
    );
    ExitCode::SUCCESS
}
