//! The simulation's own history, for the view's second table: the scenario the address names
//! (`scenario=` or `preset=`, with `mode=`), run for a fixed number of steps, as the
//! playground would run it (the same resolution of the address, the same engine).

use crate::scenario::flink::CheckpointHistory;
use crate::scenario::{codec, Scenario};
use crate::ui::permalink::{preset_or_default, resolve_for};

/// Steps each run takes: enough for several checkpoints in every preset, quick in a browser.
pub const RUN_STEPS: u64 = 3000;

/// The scenario the address names, in the mode it asks for (unknown values fall back to the
/// defaults, as on the playground page), and the history of its first [`RUN_STEPS`] steps;
/// or why it could not run.
pub fn run(
    preset: Option<&str>,
    scenario: Option<&str>,
    mode: Option<&str>,
) -> Result<(Scenario, CheckpointHistory), String> {
    let mut notices = Vec::new();
    let chosen = match scenario {
        Some(code) => codec::decode(code).map_err(|e| e.to_string())?,
        None => preset_or_default(preset, &mut notices),
    };
    let (chosen, _, _) = resolve_for(chosen, mode, None, &mut notices);
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
    use crate::scenario::flink::HistoryStatus;

    #[test]
    fn backpressure_unaligned_persists_in_flight_data_and_aligned_does_not() {
        let (_, unaligned) = run(Some("backpressure"), None, Some("unaligned")).unwrap();
        let done: Vec<_> = unaligned
            .checkpoints
            .iter()
            .filter(|c| c.status == HistoryStatus::Completed && c.unaligned)
            .collect();
        assert!(!done.is_empty());
        assert!(done.iter().any(|c| c.persisted_bytes > 0));
        let (_, aligned) = run(Some("backpressure"), None, Some("aligned")).unwrap();
        assert!(!aligned.checkpoints.is_empty());
        assert!(aligned
            .checkpoints
            .iter()
            .all(|c| !c.unaligned && c.persisted_bytes == 0));
    }

    #[test]
    fn a_scenario_in_the_address_wins_over_the_preset() {
        let s = crate::scenario::presets::by_name("wordcount").unwrap();
        let (ran, _) = run(Some("backpressure"), Some(&codec::encode(&s)), None).unwrap();
        assert_eq!(ran.name, s.name);
        assert!(run(None, Some("!!"), None).is_err());
    }
}
