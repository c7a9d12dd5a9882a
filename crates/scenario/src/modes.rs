//! The mode menu's table, and a scenario as the comparisons run it: in a mode named as the
//! page and the CLI name modes (`aligned-timeout` included), and over a bounded input for the
//! overhead of checkpoints — shared by `abs-sim compare`, `abs-sim overhead` and the page's
//! compare view.

use abs_engine::text::Quoted;
use abs_engine::view::drain_time;
use abs_engine::{BarrierMode, Config, GraphError, OperatorKind};

use super::{Scenario, ScenarioError, ALIGNED_DEBLOAT_MODE, ALIGNED_TIMEOUT_MODE};

/// A policy the mode menu offers with a protocol that blocks inputs, as an entry of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The protocol as it is.
    Plain,
    /// With the aligned-checkpoint timeout (the scenario's, or `ALIGNED_TIMEOUT`).
    Timeout,
    /// With buffer debloating (the scenario's target, or the default).
    Debloat,
}

/// One entry of the mode menu, of a link's `mode`, of a comparison's lanes: a protocol, and
/// for one that blocks inputs also with the aligned timeout or with buffer debloating. This
/// table is the one place the page learns which entries there are; the page asks it, never
/// which protocol an entry runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunMode {
    pub mode: BarrierMode,
    pub variant: Variant,
}

impl RunMode {
    /// Every entry, in the menu's order: each protocol, and after one that blocks inputs its
    /// two variants.
    pub fn all() -> Vec<RunMode> {
        let mut all = Vec::new();
        for mode in BarrierMode::ALL {
            all.push(RunMode::plain(mode));
            if mode.blocks_inputs() {
                for variant in [Variant::Timeout, Variant::Debloat] {
                    all.push(RunMode { mode, variant });
                }
            }
        }
        all
    }

    pub fn plain(mode: BarrierMode) -> RunMode {
        RunMode {
            mode,
            variant: Variant::Plain,
        }
    }

    /// How the menu, links and the command line spell it.
    pub fn name(self) -> &'static str {
        match self.variant {
            Variant::Plain => self.mode.as_str(),
            Variant::Timeout => ALIGNED_TIMEOUT_MODE,
            Variant::Debloat => ALIGNED_DEBLOAT_MODE,
        }
    }

    /// The entry spelt `name`.
    pub fn named(name: &str) -> Option<RunMode> {
        RunMode::all().into_iter().find(|r| r.name() == name)
    }

    /// The entry a run's settings are (a timeout wins over debloating, as the page applies
    /// only one of them).
    pub fn of(config: &Config) -> RunMode {
        let variant = if !config.mode.blocks_inputs() {
            Variant::Plain
        } else if config.aligned_checkpoint_timeout.is_some() {
            Variant::Timeout
        } else if config.buffer_debloat.is_some() {
            Variant::Debloat
        } else {
            Variant::Plain
        };
        RunMode {
            mode: config.mode,
            variant,
        }
    }

    /// `s` run as this entry: its mode, and the entry's policy on (its own setting, or the
    /// default) and the other off.
    pub fn apply(self, s: &Scenario) -> Scenario {
        let mut out = match self.variant {
            Variant::Plain => s.with_mode(self.mode),
            Variant::Timeout => s.with_aligned_timeout(true),
            Variant::Debloat => s.with_debloat(true),
        };
        out.config.mode = self.mode;
        if self.variant != Variant::Timeout {
            out.config.aligned_checkpoint_timeout = None;
        }
        if self.variant != Variant::Debloat {
            out.config.buffer_debloat = None;
        }
        out
    }
}

impl Scenario {
    /// The menu's entries this scenario runs as: the modes its graph allows, each with the
    /// variants its settings allow (Flink refuses the aligned timeout, as it refuses unaligned
    /// checkpoints, where several checkpoints run at once).
    pub fn run_modes(&self) -> Vec<RunMode> {
        match abs_engine::physical::Physical::build(&self.graph) {
            Ok(phys) => self.run_modes_on(&phys),
            Err(_) => Vec::new(),
        }
    }

    /// Whether this scenario does not run as `entry` only because Flink refuses unaligned
    /// checkpoints with several at once: how many it asks for.
    pub fn refused_by_flink(&self, entry: RunMode) -> Option<u32> {
        let mut applied = entry.apply(self);
        let asked = applied.config.flink_refuses_concurrency()?;
        applied.config.max_concurrent_checkpoints = 1;
        applied.run_modes().contains(&entry).then_some(asked)
    }

    /// [`Scenario::run_modes`] on its physical graph, built already.
    pub fn run_modes_on(&self, phys: &abs_engine::physical::Physical) -> Vec<RunMode> {
        RunMode::all()
            .into_iter()
            .filter(|entry| {
                abs_engine::sim::modes_of(phys, &entry.apply(self).config).contains(&entry.mode)
            })
            .collect()
    }
}

/// The scenario in the mode `name` names, or why it cannot run in it.
pub fn in_mode(s: &Scenario, name: &str) -> Result<Scenario, String> {
    // Each name runs one thing: a variant is on only where it is named.
    let entry = RunMode::named(name).ok_or_else(|| {
        let names: Vec<&str> = RunMode::all().into_iter().map(RunMode::name).collect();
        let (last, rest) = names.split_last().unwrap_or((&"", &[]));
        format!(
            "{}; the modes are {} and {last}",
            abs_engine::barrier::UnknownMode(name.to_owned()),
            rest.join(", ")
        )
    })?;
    let (mode, scenario) = (entry.mode, entry.apply(s));
    let modes = s.modes();
    if !s.run_modes().contains(&entry) {
        // A job Flink refuses: its sentence says why.
        if let Err(e @ ScenarioError::Graph(GraphError::ConcurrentUnaligned { .. })) =
            scenario.simulation()
        {
            return Err(format!(
                "{} cannot run in mode {name}: {e}",
                Quoted(&s.name)
            ));
        }
    }
    if !modes.contains(&mode) {
        return Err(format!(
            "{} cannot run in mode {name} (its modes: {})",
            Quoted(&s.name),
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
            "{} has no source to bound: the overhead is measured on a dataflow's bounded input",
            Quoted(&s.name)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The menu lists each protocol once and the two variants after the protocol that blocks
    /// inputs; each entry's name finds it again, and a run's settings give back the entry
    /// that made them.
    #[test]
    fn the_mode_table_round_trips_through_names_and_settings() {
        let all = RunMode::all();
        let names: Vec<&str> = all.iter().map(|r| r.name()).collect();
        assert_eq!(
            names,
            [
                "aligned",
                ALIGNED_TIMEOUT_MODE,
                ALIGNED_DEBLOAT_MODE,
                "at-least-once",
                "unaligned",
                "chandy-lamport",
                "synchronous"
            ]
        );
        let base = crate::presets::alignment();
        for entry in &all {
            assert_eq!(RunMode::named(entry.name()), Some(*entry));
            let run = entry.apply(&base);
            assert_eq!(RunMode::of(&run.config), *entry, "{}", entry.name());
        }
        assert_eq!(RunMode::named("exactly-once"), None);
        // A variant's own setting is kept; the other variant is switched off.
        let mut own = base.clone();
        own.config.aligned_checkpoint_timeout = Some(7);
        let timeout = RunMode::named(ALIGNED_TIMEOUT_MODE).unwrap().apply(&own);
        assert_eq!(timeout.config.aligned_checkpoint_timeout, Some(7));
        let debloat = RunMode::named(ALIGNED_DEBLOAT_MODE).unwrap().apply(&own);
        assert_eq!(debloat.config.aligned_checkpoint_timeout, None);
        assert!(debloat.config.buffer_debloat.is_some());
        // A protocol that does not block has no variant, whatever its settings say.
        let unaligned = RunMode::plain(BarrierMode::Unaligned).apply(&own);
        assert_eq!(
            RunMode::of(&unaligned.config),
            RunMode::plain(BarrierMode::Unaligned)
        );
    }
}
