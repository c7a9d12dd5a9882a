//! The runs the compare view sets side by side: one scenario and seed, one lane per mode, each
//! a run the page's dataflow can draw and a [`Cost`] that measures it, advanced together in
//! virtual time. Plain Rust, tested natively.

use std::cell::RefCell;
use std::rc::Rc;

use crate::engine::view::{Cost, CostFigures};
use crate::scenario::modes::in_mode;
use crate::scenario::modes::RunMode;
use crate::scenario::{Scenario, ALIGNED_DEBLOAT_MODE, ALIGNED_TIMEOUT_MODE};
use crate::ui::run::Run;
use crate::ui::state::RunRef;

/// Fewest and most modes compared.
pub const MIN_MODES: usize = 2;
pub const MAX_MODES: usize = 5;

/// Charts' buckets, in time units: the player's throughput bar.
pub const BUCKET: u64 = crate::ui::run::THROUGHPUT_BUCKET;

/// Why a `compare=` list cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LanesError {
    /// Fewer than two modes, or more than five.
    Count(usize),
    /// A name that is no mode.
    Unknown(String),
    /// A mode the scenario cannot run.
    Unavailable(String),
    /// A mode Flink refuses to start the scenario in: unaligned checkpoints with this many at
    /// once.
    Refused(String, u32),
    /// The same mode twice.
    Twice(String),
    /// The scenario itself cannot run.
    Scenario(String),
}

/// One mode's run.
pub struct Lane {
    /// The mode as the list names it (`aligned-timeout` included).
    pub name: String,
    pub run: RunRef,
    pub cost: Cost,
}

impl Lane {
    /// Steps the run up to virtual time `t` (every event due by then), at most `max_steps`
    /// steps, measuring each. False once its run has nothing left to do.
    pub fn advance_to(&mut self, t: u64, max_steps: u32) -> bool {
        let mut run = self.run.0.borrow_mut();
        for _ in 0..max_steps {
            match run.sim().next_time() {
                Some(next) if next <= t => {
                    if !run.forward() {
                        return false;
                    }
                    self.cost.observe(run.sim());
                }
                Some(_) => break,
                None => return false,
            }
        }
        // The items are drawn where they are at `t`.
        run.clock = t as f64;
        true
    }

    pub fn figures(&self) -> CostFigures {
        self.cost.figures(self.run.0.borrow().sim())
    }

    /// Its run has nothing left to do (every source bounded and done, the job finished).
    pub fn ended(&self) -> bool {
        self.run.0.borrow().sim().next_time().is_none()
    }

    pub fn now(&self) -> u64 {
        self.run.0.borrow().sim().now()
    }
}

/// The modes an empty list names, in this order: those the scenario runs, five at most.
const DEFAULT_ORDER: [&str; 6] = [
    "aligned",
    ALIGNED_TIMEOUT_MODE,
    "unaligned",
    "at-least-once",
    "synchronous",
    "chandy-lamport",
];

/// The modes a `compare=` value names, checked against the scenario; an empty value names
/// the modes the scenario runs among aligned, aligned with a timeout (with buffer debloating
/// instead, if the scenario debloats), unaligned, at-least-once, synchronous and
/// Chandy-Lamport (five at most, in that order).
pub fn modes(list: &str, scenario: &Scenario) -> Result<Vec<String>, LanesError> {
    let mut names: Vec<String> = list
        .split(',')
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect();
    if names.is_empty() {
        // The ABS modes and the stop-the-world baseline first; Chandy-Lamport if room is left.
        let runs = scenario.run_modes();
        for m in DEFAULT_ORDER {
            // A scenario that debloats its buffers is compared with them debloated.
            let m = match m {
                ALIGNED_TIMEOUT_MODE if scenario.config.buffer_debloat.is_some() => {
                    ALIGNED_DEBLOAT_MODE
                }
                m => m,
            };
            if RunMode::named(m).is_some_and(|entry| runs.contains(&entry)) {
                names.push(m.to_string());
            }
        }
        names.truncate(MAX_MODES);
    }
    if !(MIN_MODES..=MAX_MODES).contains(&names.len()) {
        return Err(LanesError::Count(names.len()));
    }
    let runs = scenario.run_modes();
    for (i, name) in names.iter().enumerate() {
        let entry = RunMode::named(name).ok_or_else(|| LanesError::Unknown(name.clone()))?;
        if let Some(asked) = scenario.refused_by_flink(entry) {
            return Err(LanesError::Refused(name.clone(), asked));
        }
        if !runs.contains(&entry) {
            return Err(LanesError::Unavailable(name.clone()));
        }
        if names[..i].contains(name) {
            return Err(LanesError::Twice(name.clone()));
        }
    }
    Ok(names)
}

/// A lane per mode of `list`, each at step 0.
pub fn lanes(list: &str, scenario: &Scenario) -> Result<Vec<Lane>, LanesError> {
    modes(list, scenario)?
        .into_iter()
        .map(|name| {
            let s = in_mode(scenario, &name).map_err(LanesError::Scenario)?;
            let run = Run::new(s).map_err(|e| LanesError::Scenario(e.to_string()))?;
            let cost = Cost::with_series(run.sim(), BUCKET);
            Ok(Lane {
                name,
                run: RunRef(Rc::new(RefCell::new(run))),
                cost,
            })
        })
        .collect()
}

/// Advances every lane to virtual time `t` (at most `max_steps` steps each); false once none
/// has anything left to do.
pub fn advance_all(lanes: &mut [Lane], t: u64, max_steps: u32) -> bool {
    let mut any = false;
    for lane in lanes {
        any |= lane.advance_to(t, max_steps);
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    #[test]
    fn a_list_is_checked_against_the_scenario() {
        let s = presets::backpressure();
        assert_eq!(
            modes("aligned, unaligned,at-least-once", &s).unwrap(),
            ["aligned", "unaligned", "at-least-once"]
        );
        assert_eq!(modes("aligned", &s), Err(LanesError::Count(1)));
        // Nothing named: every mode the scenario runs.
        assert_eq!(
            modes("", &s).unwrap(),
            [
                "aligned",
                "aligned-timeout",
                "unaligned",
                "at-least-once",
                "synchronous"
            ]
        );
        assert_eq!(modes("", &presets::token()), Err(LanesError::Count(1)));
        assert_eq!(
            modes(
                "aligned,unaligned,at-least-once,aligned-timeout,chandy-lamport,aligned",
                &s
            ),
            Err(LanesError::Count(6))
        );
        assert_eq!(
            modes("aligned,sideways", &s),
            Err(LanesError::Unknown("sideways".into()))
        );
        assert_eq!(
            modes("aligned,aligned", &s),
            Err(LanesError::Twice("aligned".into()))
        );
        let token = presets::token();
        assert_eq!(
            modes("chandy-lamport,aligned", &token),
            Err(LanesError::Unavailable("aligned".into()))
        );
        // Flink refuses unaligned checkpoints with several at once; the default lanes leave
        // them out.
        let concurrent = presets::concurrent();
        let asked = concurrent.config.max_concurrent_checkpoints;
        for refused in ["unaligned", "aligned-timeout"] {
            assert_eq!(
                modes(&format!("aligned,{refused}"), &concurrent),
                Err(LanesError::Refused(refused.into(), asked))
            );
        }
        let default = modes("", &concurrent).unwrap();
        assert!(
            !default
                .iter()
                .any(|m| m == "unaligned" || m == "aligned-timeout"),
            "{default:?}"
        );
        let said = crate::ui::compare::words::Words(crate::i18n::Lang::En)
            .error(&LanesError::Refused("unaligned".into(), asked));
        assert!(
            said.contains("maxConcurrentCheckpoints can't be > 1"),
            "{said}"
        );
    }

    /// Lanes advanced together are at the same virtual time, and each measures what
    /// `abs-sim compare` measures of the same mode over the same events.
    #[test]
    fn lanes_move_in_lockstep_and_measure_as_the_cli_does() {
        let s = presets::backpressure();
        let mut lanes = lanes("aligned,unaligned", &s).unwrap();
        let mut t = 0;
        while t < 3_000 {
            t += 37;
            assert!(advance_all(&mut lanes, t, 10_000));
            for lane in &lanes {
                // An event planned for `t` may run a little later (its task was busy): the
                // engine's clock can pass `t` by a processing time, never more.
                let now = lane.now();
                assert!(now <= t + 1, "{} at {now} past {t}", lane.name);
                let next = lane.run.0.borrow().sim().next_time().unwrap();
                assert!(next > t, "{} left an event due at {next} ≤ {t}", lane.name);
            }
        }
        let (aligned, unaligned) = (lanes[0].figures(), lanes[1].figures());
        assert!(aligned.throughput < unaligned.throughput);
        assert!(aligned.latency_p50 > unaligned.latency_p50);
        // The series add up to the totals.
        for lane in &lanes {
            let series = lane.cost.series().unwrap();
            let f = lane.figures();
            assert_eq!(
                series.sink.iter().map(|&n| u64::from(n)).sum::<u64>(),
                f.sink_records
            );
            assert_eq!(series.checkpoints.len() as u64, f.checkpoints_completed);
        }
        let aligned_held = lanes[0].cost.series().unwrap().held.iter().max().copied();
        let unaligned_held = lanes[1].cost.series().unwrap().held.iter().max().copied();
        assert!(
            aligned_held > Some(0),
            "aligned holds records while it aligns"
        );
        assert_eq!(unaligned_held, Some(0), "unaligned never holds");
    }
}
