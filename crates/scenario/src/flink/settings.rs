//! A job's checkpoint configuration (`GET /jobs/<id>/checkpoints/config`) set on a scenario,
//! so that the simulation beside a real job runs with its settings, one millisecond a tick.

use abs_engine::barrier::Initiation;
use abs_engine::{BarrierMode, Config};

use super::documents::CheckpointConfig;
use crate::{Scenario, ScenarioError};

/// One setting of the configuration: what it is called, how it is set, and its value as the
/// scenario had it and as Flink has it, for the sentence saying which was kept.
struct Setting {
    what: &'static str,
    set: Box<dyn Fn(&mut Config)>,
    ours: String,
    flinks: String,
}

impl CheckpointConfig {
    /// Sets these settings on `scenario`: the mode (at-least-once; exactly-once unaligned, or
    /// aligned with the aligned-checkpoint timeout when Flink's is above 0; else aligned), the
    /// interval (off when Flink's is), timeout, minimum pause, checkpoints at once, tolerable
    /// failed checkpoints and checkpoints after tasks finish (these two when the response
    /// says them). The scenario stays valid ([`Scenario::validate`]): a setting it would not
    /// run with keeps the scenario's value, and the answer has one sentence for each such
    /// setting, saying what was kept and why. (Flink itself refuses some of these — unaligned
    /// checkpoints with several at once — so a real job's configuration rarely has any.)
    pub fn apply(&self, scenario: &mut Scenario) -> Vec<String> {
        let all = self.settings(&scenario.config);
        // Most often all of them hold together.
        let mut together = scenario.clone();
        for s in &all {
            (s.set)(&mut together.config);
        }
        if together.validate().is_ok() {
            *scenario = together;
            return Vec::new();
        }
        // One at a time, again while one more holds: a setting that does not hold with the
        // scenario's others may with Flink's (the mode with the checkpoints at once).
        let mut left: Vec<(Setting, Option<ScenarioError>)> =
            all.into_iter().map(|s| (s, None)).collect();
        loop {
            let before = left.len();
            let mut still = Vec::new();
            for (s, _) in left {
                let mut tried = scenario.clone();
                (s.set)(&mut tried.config);
                match tried.validate() {
                    Ok(()) => *scenario = tried,
                    Err(e) => still.push((s, Some(e))),
                }
            }
            left = still;
            if left.is_empty() || left.len() == before {
                break;
            }
        }
        left.into_iter()
            .map(|(s, e)| {
                let why = match e {
                    Some(ScenarioError::Setting(e)) => e.to_string(),
                    Some(e) => e.to_string(),
                    None => String::new(),
                };
                format!(
                    "Kept the scenario's {} ({}), not Flink's ({}): {}.",
                    s.what,
                    s.ours,
                    s.flinks,
                    why.trim_end_matches('.')
                )
            })
            .collect()
    }

    /// Each setting this configuration says, with `config`'s value beside Flink's.
    fn settings(&self, config: &Config) -> Vec<Setting> {
        let (mode, aligned_timeout) = self.mode();
        let mut all = Vec::new();
        // The mode first: where it and another setting do not hold together (unaligned and
        // several checkpoints at once), the mode is the one kept.
        if let Some(mode) = mode {
            all.push(Setting {
                what: "checkpointing mode",
                set: Box::new(move |c| {
                    c.mode = mode;
                    c.aligned_checkpoint_timeout = aligned_timeout;
                }),
                ours: mode_text(config.mode, config.aligned_checkpoint_timeout),
                flinks: mode_text(mode, aligned_timeout),
            });
        }
        all.extend([
            Setting {
                what: "checkpoint interval",
                set: Box::new({
                    let v = self.interval_ms;
                    move |c| c.checkpoint_interval = v
                }),
                ours: interval(config.checkpoint_interval),
                flinks: interval(self.interval_ms),
            },
            Setting {
                what: "checkpoint timeout",
                set: Box::new({
                    let v = self.timeout_ms;
                    move |c| c.timeout = v
                }),
                ours: format!("{} ms", config.timeout),
                flinks: format!("{} ms", self.timeout_ms),
            },
            Setting {
                what: "minimum pause between checkpoints",
                set: Box::new({
                    let v = self.min_pause_ms;
                    move |c| c.min_pause = v
                }),
                ours: format!("{} ms", config.min_pause),
                flinks: format!("{} ms", self.min_pause_ms),
            },
            Setting {
                what: "number of concurrent checkpoints",
                set: Box::new({
                    let v = self.max_concurrent;
                    move |c| c.max_concurrent_checkpoints = v
                }),
                ours: config.max_concurrent_checkpoints.to_string(),
                flinks: self.max_concurrent.to_string(),
            },
        ]);
        if let Some(v) = self.tolerable_failed {
            all.push(Setting {
                what: "number of tolerable failed checkpoints",
                set: Box::new(move |c| c.tolerable_failed_checkpoints = Some(v)),
                ours: config
                    .tolerable_failed_checkpoints
                    .map_or("any number".into(), |n| n.to_string()),
                flinks: v.to_string(),
            });
        }
        if let Some(v) = self.after_tasks_finish {
            all.push(Setting {
                what: "checkpoints after tasks finish",
                set: Box::new(move |c| c.finished_channels_align = v),
                ours: on_off(config.finished_channels_align),
                flinks: on_off(v),
            });
        }
        all
    }

    /// The mode Flink's settings run as, and its aligned-checkpoint timeout: the mode is
    /// found by what it does among the modes whose barriers start at the sources (Flink's),
    /// never named. `None` if no mode does that (then the scenario's stays).
    fn mode(&self) -> (Option<BarrierMode>, Option<u64>) {
        let flinks = |wanted: fn(BarrierMode) -> bool| {
            BarrierMode::ALL
                .into_iter()
                .find(|m| m.description().initiation == Initiation::Sources && wanted(*m))
        };
        let blocks = flinks(BarrierMode::blocks_inputs);
        if !self.exactly_once {
            return (flinks(BarrierMode::may_slip), None);
        }
        if !self.unaligned {
            return (blocks, None);
        }
        if self.aligned_timeout_ms > 0 {
            return (blocks, Some(self.aligned_timeout_ms));
        }
        (flinks(BarrierMode::has_priority_barriers), None)
    }
}

fn interval(ms: Option<u64>) -> String {
    ms.map_or("off".into(), |ms| format!("{ms} ms"))
}

fn on_off(on: bool) -> String {
    if on { "on" } else { "off" }.into()
}

fn mode_text(mode: BarrierMode, aligned_timeout: Option<u64>) -> String {
    match aligned_timeout {
        Some(t) if mode.blocks_inputs() => format!("{mode}, unaligned after {t} ms"),
        _ => mode.to_string(),
    }
}
