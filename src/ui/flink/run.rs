//! The simulation's own history, for the view's second table: the scenario the address names
//! (`scenario=` or `preset=`, with `mode=` and `seed=`), run for a fixed number of steps, as
//! the playground would run it (the same resolution of the address, the same engine).

use crate::scenario::flink::{CheckpointConfig, CheckpointHistory};
use crate::scenario::Scenario;
use crate::ui::kit::Address;

/// Steps each run takes: enough for several checkpoints in every preset, quick in a browser.
pub const RUN_STEPS: u64 = 3000;

/// What a run gives the view: the scenario as it ran, its history, and the settings of an
/// imported configuration the scenario kept its own values for (each a sentence).
pub type Ran = (Scenario, CheckpointHistory, Vec<String>);

/// The scenario the address names, as the playground runs it — with an imported job's
/// checkpoint configuration, when there is one — and the history of its first [`RUN_STEPS`]
/// steps; or why it could not run.
pub fn run(at: &Address, config: Option<&CheckpointConfig>) -> Result<Ran, String> {
    let mut chosen = at.playground_scenario().map_err(|e| e.to_string())?;
    let kept = config.map_or_else(Vec::new, |c| c.apply(&mut chosen));
    let mut sim = chosen.simulation().map_err(|e| e.to_string())?;
    for _ in 0..RUN_STEPS {
        if sim.step().is_none() {
            break;
        }
    }
    Ok((chosen, CheckpointHistory::from_simulation(&sim), kept))
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
        let (_, unaligned, _) =
            run(&at(Some("backpressure"), None, Some("unaligned")), None).unwrap();
        let done: Vec<_> = unaligned
            .checkpoints
            .iter()
            .filter(|c| c.status == HistoryStatus::Completed && c.unaligned)
            .collect();
        assert!(!done.is_empty());
        assert!(done.iter().any(|c| c.persisted_bytes > 0));
        let (_, aligned, _) = run(&at(Some("backpressure"), None, Some("aligned")), None).unwrap();
        assert!(!aligned.checkpoints.is_empty());
        assert!(aligned
            .checkpoints
            .iter()
            .all(|c| !c.unaligned && c.persisted_bytes == 0));
    }

    #[test]
    fn an_imported_configuration_sets_the_runs_mode_and_interval() {
        let config = crate::scenario::flink::CheckpointConfig {
            exactly_once: true,
            interval_ms: Some(60),
            timeout_ms: 10_000,
            min_pause_ms: 0,
            max_concurrent: 1,
            unaligned: true,
            aligned_timeout_ms: 0,
            tolerable_failed: Some(0),
            after_tasks_finish: Some(true),
        };
        let at = at(Some("backpressure"), None, Some("aligned"));
        let (ran, history, kept) = run(&at, Some(&config)).unwrap();
        assert_eq!(ran.config.mode, crate::engine::BarrierMode::Unaligned);
        assert_eq!(ran.config.checkpoint_interval, Some(60));
        assert!(kept.is_empty(), "{kept:?}");
        assert!(history.checkpoints.iter().any(|c| c.unaligned));
        // An interval Flink never writes keeps the scenario's, and says so.
        let (ran, _, kept) = run(
            &at,
            Some(&crate::scenario::flink::CheckpointConfig {
                interval_ms: Some(0),
                ..config
            }),
        )
        .unwrap();
        assert_ne!(ran.config.checkpoint_interval, Some(0));
        assert_eq!(kept.len(), 1, "{kept:?}");
    }

    /// One size for a checkpoint wherever it is shown: a completed checkpoint whose global
    /// state is no longer retained keeps the size the inspector showed while it was.
    #[test]
    fn every_completed_checkpoint_keeps_its_size() {
        let (_, history, _) = run(&at(Some("wordcount"), None, Some("unaligned")), None).unwrap();
        let done: Vec<_> = history
            .checkpoints
            .iter()
            .filter(|c| c.status == HistoryStatus::Completed)
            .collect();
        assert!(
            done.iter().any(|c| c.subtasks.is_empty()),
            "none dropped its global state"
        );
        assert!(done.iter().all(|c| c.checkpointed_size > 0), "{done:?}");
        for c in done {
            assert_eq!(c.unaligned, c.persisted_bytes > 0, "checkpoint {}", c.id);
        }
    }

    #[test]
    fn a_scenario_in_the_address_wins_over_the_preset() {
        let s = crate::scenario::presets::by_name("wordcount").unwrap();
        let (ran, _, _) = run(
            &at(Some("backpressure"), Some(codec::encode(&s)), None),
            None,
        )
        .unwrap();
        assert_eq!(ran.name, s.name);
        assert!(run(&at(None, Some("!!".into()), None), None).is_err());
    }
}
