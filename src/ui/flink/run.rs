//! The simulation's own history, for the view's second table: the scenario the address names
//! (`scenario=` or `preset=`, with `mode=` and `seed=`), run for a fixed number of steps, as
//! the playground would run it (the same resolution of the address, the same engine).

use crate::scenario::flink::CheckpointHistory;
use crate::scenario::Scenario;
use crate::ui::kit::Address;

/// Steps each run takes: enough for several checkpoints in every preset, quick in a browser.
pub const RUN_STEPS: u64 = 3000;

/// The scenario the address names, as the playground runs it, and the history of its first
/// [`RUN_STEPS`] steps; or why it could not run.
pub fn run(at: &Address) -> Result<(Scenario, CheckpointHistory), String> {
    let chosen = at.playground_scenario().map_err(|e| e.to_string())?;
    let mut sim = chosen.simulation().map_err(|e| e.to_string())?;
    for _ in 0..RUN_STEPS {
        if sim.step().is_none() {
            break;
        }
    }
    Ok((chosen, CheckpointHistory::from_simulation(&sim)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::codec;
    use crate::scenario::flink::HistoryStatus;

    fn at(preset: Option<&str>, scenario: Option<String>, mode: Option<&str>) -> Address {
        Address {
            preset: preset.map(String::from),
            scenario,
            mode: mode.map(String::from),
            ..Address::default()
        }
    }

    #[test]
    fn backpressure_unaligned_persists_in_flight_data_and_aligned_does_not() {
        let (_, unaligned) = run(&at(Some("backpressure"), None, Some("unaligned"))).unwrap();
        let done: Vec<_> = unaligned
            .checkpoints
            .iter()
            .filter(|c| c.status == HistoryStatus::Completed && c.unaligned)
            .collect();
        assert!(!done.is_empty());
        assert!(done.iter().any(|c| c.persisted_bytes > 0));
        let (_, aligned) = run(&at(Some("backpressure"), None, Some("aligned"))).unwrap();
        assert!(!aligned.checkpoints.is_empty());
        assert!(aligned
            .checkpoints
            .iter()
            .all(|c| !c.unaligned && c.persisted_bytes == 0));
    }

    #[test]
    fn a_scenario_in_the_address_wins_over_the_preset() {
        let s = crate::scenario::presets::by_name("wordcount").unwrap();
        let (ran, _) = run(&at(Some("backpressure"), Some(codec::encode(&s)), None)).unwrap();
        assert_eq!(ran.name, s.name);
        assert!(run(&at(None, Some("!!".into()), None)).is_err());
    }
}
