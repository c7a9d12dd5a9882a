//! A scenario as the comparisons run it: in a mode named as the page and the CLI name modes
//! (`aligned-timeout` included), and over a bounded input for the overhead of checkpoints —
//! shared by `abs-sim compare`, `abs-sim overhead` and the page's compare view.

use abs_engine::view::drain_time;
use abs_engine::{BarrierMode, OperatorKind};

use super::{Scenario, ALIGNED_DEBLOAT_MODE, ALIGNED_TIMEOUT_MODE};

/// The scenario in the mode `name` names, or why it cannot run in it.
pub fn in_mode(s: &Scenario, name: &str) -> Result<Scenario, String> {
    // Each name runs one thing: a variant of aligned is on only where it is named.
    let (mode, mut scenario) = if name == ALIGNED_TIMEOUT_MODE {
        (BarrierMode::Aligned, s.with_aligned_timeout(true))
    } else if name == ALIGNED_DEBLOAT_MODE {
        (BarrierMode::Aligned, s.with_debloat(true))
    } else {
        let mode = name.parse::<BarrierMode>().map_err(|e| {
            format!("{e}; the modes are aligned, aligned-timeout, aligned-debloat, unaligned, at-least-once, synchronous and chandy-lamport")
        })?;
        let mut scenario = s.with_mode(mode);
        scenario.config.aligned_checkpoint_timeout = None;
        (mode, scenario)
    };
    if name != ALIGNED_DEBLOAT_MODE {
        scenario.config.buffer_debloat = None;
    }
    let modes = s.modes();
    if !modes.contains(&mode) {
        return Err(format!(
            "{:?} cannot run in mode {name} (its modes: {})",
            s.name,
            modes
                .iter()
                .map(|m| m.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(scenario)
}

/// The scenario with every source reading `lines` lines (its log repeated) and then ending,
/// without planned failures: the same bounded input for every run of an overhead measurement.
pub fn bounded_input(s: &Scenario, lines: usize) -> Result<Scenario, String> {
    let mut s = s.clone();
    s.failures.clear();
    let mut sources = 0;
    for op in &mut s.graph.operators {
        if let OperatorKind::Source {
            lines: log,
            bounded,
            ..
        } = &mut op.kind
        {
            if log.is_empty() {
                continue;
            }
            *log = log.iter().cycle().take(lines).cloned().collect();
            *bounded = true;
            sources += 1;
        }
    }
    if sources == 0 {
        return Err(format!(
            "{:?} has no source to bound: the overhead is measured on a dataflow's bounded input",
            s.name
        ));
    }
    Ok(s)
}

/// The most steps one run of an overhead measurement takes.
pub const OVERHEAD_STEPS: u64 = 5_000_000;

/// The time `input` (a [`bounded_input`]) takes in mode `name` with a checkpoint every
/// `interval` time units, or without checkpoints (`None`): when its sinks processed the last
/// record.
pub fn input_time(input: &Scenario, name: &str, interval: Option<u64>) -> Result<u64, String> {
    let mut s = in_mode(input, name)?;
    s.config.checkpoint_interval = interval;
    if let Some(i) = interval {
        s.config.first_trigger = i;
    }
    let sim = s.simulation().map_err(|e| e.to_string())?;
    drain_time(sim, OVERHEAD_STEPS).ok_or_else(|| {
        format!("the input did not end within {OVERHEAD_STEPS} steps in mode {name} (fewer lines?)")
    })
}

/// The runtime overhead of a time against the time without checkpoints, in %.
pub fn overhead(time: u64, without: u64) -> f64 {
    100.0 * (time as f64 - without as f64) / without.max(1) as f64
}
