//! `abs-sim run` and `abs-sim bench`.

use std::process::ExitCode;
use std::time::Instant;

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::{BarrierMode, History, Simulation};
use abs_playground::scenario::{presets, Scenario};
use serde_json::json;

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
                seed = Some(v.parse::<u64>().map_err(|_| format!("--seed needs a number, not {v:?}"))?);
            }
            "--steps" => {
                let v = value("--steps")?;
                steps = v.parse().map_err(|_| format!("--steps needs a number, not {v:?}"))?;
            }
            "--mode" => mode = Some(value("--mode")?.parse::<BarrierMode>().map_err(|e| e.to_string())?),
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
    print!("{}", trace(&mut sim, steps));
    ExitCode::SUCCESS
}

/// The trace of `steps` scheduled steps as JSON lines, then one summary line. The golden
/// trace tests compare exactly this text.
pub fn trace(sim: &mut Simulation, steps: u64) -> String {
    let mut out = String::new();
    for _ in 0..steps {
        let Some(action) = sim.step() else { break };
        let line = json!({
            "step": sim.steps(),
            "time": sim.now(),
            "action": action,
            "events": sim.last_events(),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out.push_str(&json!({ "summary": summary(sim) }).to_string());
    out.push('\n');
    out
}

fn summary(sim: &Simulation) -> serde_json::Value {
    let checkpoints: Vec<_> = sim
        .coordinator()
        .checkpoints()
        .iter()
        .map(|c| {
            let verdict = match c.status {
                CheckpointStatus::Completed => match sim.coordinator().global_state(c.id) {
                    Some(g) if g.verdict.ok() => json!("consistent"),
                    Some(g) => json!({
                        "inconsistent": { "duplicated": g.verdict.duplicated, "lost": g.verdict.lost }
                    }),
                    None => json!("not retained"),
                },
                _ => serde_json::Value::Null,
            };
            json!({ "id": c.id, "status": c.status, "acked": c.acked, "total": c.total, "verdict": verdict })
        })
        .collect();
    json!({ "steps": sim.steps(), "time": sim.now(), "checkpoints": checkpoints })
}

pub fn bench(args: &[String]) -> ExitCode {
    let quick = args.iter().any(|a| a == "--quick");
    let events: u64 = if quick { 200_000 } else { 2_000_000 };
    println!("| word count | tasks | events | seconds | events/s | ns/event |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut per_event = Vec::new();
    for p in [2u32, 16, 128] {
        let graph = presets::wordcount_graph(p, 8);
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
    let graph = presets::wordcount_graph(16, 8);
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
    let bytes = history.approx_bytes(approx_sim_bytes);
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

/// A rough size of a simulation copy: queued items, tasks and the coordinator's records.
fn approx_sim_bytes(sim: &Simulation) -> usize {
    let items: usize = sim.channels().iter().map(|c| c.queue.capacity()).sum();
    let channels = sim.channels().len() * std::mem::size_of::<abs_playground::engine::sim::Channel>();
    let tasks = sim.tasks().len() * std::mem::size_of::<abs_playground::engine::sim::Task>();
    let held: usize = sim
        .tasks()
        .iter()
        .map(|t| t.handler.held_count() as usize * 40)
        .sum();
    let counts: usize = sim
        .tasks()
        .iter()
        .map(|t| t.state.size_bytes() as usize * 3)
        .sum();
    items * std::mem::size_of::<abs_playground::engine::record::Item>()
        + channels
        + tasks
        + held
        + counts
        + sim.coordinator().checkpoints().len() * 48
}
