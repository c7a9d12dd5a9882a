//! A global state as a file: the moment a link names, run again headless, and one checkpoint
//! written as `abs-sim run`'s summary lists it (its verdict, Flink's figures per subtask, every
//! task's state and every channel's recorded items). The export build makes it (the page's own
//! builds carry no JSON writer); plain Rust, tested natively against the summary.

use crate::engine::report;
use crate::engine::CheckpointId;
use crate::scenario::modes::RunMode;
use crate::ui::lesson::{reach_any, At};

/// The file for the moment `link` names (a permalink, as the share dialog shows it): the
/// checkpoint the link opens, else the latest completed one, with the moment it was taken
/// from. With its checkpoint's id; or why there is none.
pub fn global_state_file(link: &str) -> Result<(String, CheckpointId), String> {
    let (run, moment) = reach_any(&At::parse(link)).map_err(|why| why.to_string())?;
    let sim = run.sim();
    let coord = sim.coordinator();
    let id = moment
        .open
        .or_else(|| coord.latest_completed().map(|g| g.checkpoint))
        .ok_or("no checkpoint has completed yet")?;
    if coord.global_state(id).is_none() {
        return Err(format!(
            "checkpoint {id} has no global state kept at this step"
        ));
    }
    let checkpoint = report::checkpoint_json(sim, id).ok_or("the checkpoint is not listed")?;
    let file = serde_json::json!({
        "scenario": run.scenario.name,
        "title": run.scenario.title,
        "mode": RunMode::of(&run.scenario.config).name(),
        "seed": run.scenario.seed,
        "step": run.position(),
        "time": sim.now(),
        "link": link,
        "checkpoint": checkpoint,
    });
    let text = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?;
    Ok((text + "\n", id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary's entry for checkpoint `id` after `steps` scheduled steps.
    fn summary_entry(preset: &str, mode: &str, steps: u64, id: u64) -> serde_json::Value {
        let link = format!("?preset={preset}&mode={mode}");
        let (run, _) = reach_any(&At::parse(&link)).unwrap();
        let mut sim = run.scenario.simulation().unwrap();
        let trace = report::trace(&mut sim, steps);
        let summary: serde_json::Value =
            serde_json::from_str(trace.lines().last().unwrap()).unwrap();
        summary["summary"]["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()
            .clone()
    }

    #[test]
    fn the_file_is_the_summary_entry_of_the_checkpoint_the_link_opens() {
        for (preset, mode, open) in [
            ("wordcount", "aligned", "&open=1"),
            ("wordcount", "unaligned", ""),
            ("recovery", "at-least-once", ""),
            ("token", "chandy-lamport", ""),
            ("bank", "chandy-lamport", ""),
        ] {
            let link = format!("?preset={preset}&mode={mode}&step=160{open}");
            let (text, id) = global_state_file(&link).unwrap();
            if !open.is_empty() {
                assert_eq!(id, 1);
            }
            let file: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(
                file["checkpoint"],
                summary_entry(preset, mode, 160, id),
                "{link}"
            );
            assert_eq!(file["checkpoint"]["id"], id);
            assert_eq!(file["step"], 160);
            assert_eq!(file["mode"], mode);
            assert_eq!(file["link"], link.as_str());
            let verdict = &file["checkpoint"]["verdict"];
            assert!(
                verdict.is_string() || verdict.is_object(),
                "{link}: {verdict}"
            );
            assert!(file["checkpoint"]["global_state"]["tasks"].is_object());
        }
    }

    #[test]
    fn without_an_open_checkpoint_the_latest_completed_one_and_none_before_it() {
        let (text, id) = global_state_file("?preset=wordcount&mode=aligned&step=400").unwrap();
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(id > 1, "by step 400 several checkpoints have completed");
        assert_eq!(file["checkpoint"]["id"], id);
        let err = global_state_file("?preset=wordcount&mode=aligned&step=3").unwrap_err();
        assert_eq!(err, "no checkpoint has completed yet");
        let err = global_state_file("?preset=wordcount&mode=aligned&step=160&open=9").unwrap_err();
        assert!(err.starts_with("checkpoint 9 "), "{err}");
        assert!(global_state_file("?preset=nonesuch").is_err());
    }

    #[test]
    fn a_choice_made_by_hand_is_replayed() {
        // Split#1 failed by hand at step 100 (the link's choice): the run restarts, and the
        // file is the replayed run's, not the scheduler's alone.
        let plain = global_state_file("?preset=wordcount&mode=aligned&step=300").unwrap();
        let failed =
            global_state_file("?preset=wordcount&mode=aligned&step=300&choices=100k3").unwrap();
        assert_ne!(plain.0, failed.0);
        let file: serde_json::Value = serde_json::from_str(&failed.0).unwrap();
        assert_eq!(file["step"], 300);
    }
}
