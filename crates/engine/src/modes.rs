//! Which barrier modes a job graph can run, and what a run's snapshots do: the questions the
//! page and the narration ask instead of comparing modes themselves.

use super::barrier::BarrierMode;
use super::model::{Config, JobGraph};
use super::physical::{GraphError, Physical, TaskId};

/// What a run's snapshots do (`Simulation::capabilities`): the questions the page and the
/// narration ask instead of comparing modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// Tasks block inputs and hold records in an alignment buffer (aligned).
    pub blocks_inputs: bool,
    /// Snapshots may persist records in flight (unaligned, Chandy-Lamport, or aligned with a
    /// timeout).
    pub persists_in_flight: bool,
    /// Aligned on a cyclic graph: back-edge records are logged as channel state.
    pub logs_back_edges: bool,
    /// A snapshot can hold channel state at all.
    pub holds_channel_state: bool,
    /// Records may slip into a snapshot early (at-least-once).
    pub may_slip: bool,
    /// Processes initiate snapshots with markers (Chandy-Lamport), not a coordinator.
    pub processes_initiate: bool,
    /// Barriers (or markers) flow through the channels: every mode but stop-the-world.
    pub sends_barriers: bool,
    /// Some channels keep their barriers aligned although the run's would overtake (Flink's
    /// partitioner rule): their receivers align (so `blocks_inputs` holds too).
    pub keeps_aligned: bool,
    /// Some operators are chained (operator chaining): one task, no channel between them.
    pub chained: bool,
}

/// The barrier modes a job graph runs in (with `config`'s other settings): building the
/// physical graph once and asking each mode what it needs.
pub fn modes_for(graph: &JobGraph, config: &Config) -> Vec<BarrierMode> {
    match Physical::build(graph) {
        Ok(phys) => modes_of(&phys, config),
        Err(_) => Vec::new(),
    }
}

/// The barrier modes a built physical graph runs in (see [`modes_for`]).
pub fn modes_of(phys: &Physical, config: &Config) -> Vec<BarrierMode> {
    BarrierMode::ALL
        .into_iter()
        .filter(|&mode| {
            let config = Config {
                mode,
                ..config.clone()
            };
            check_mode(phys, &config).is_ok()
        })
        .collect()
}

/// What the barrier mode needs of the graph. The ABS modes inject barriers at sources and need
/// an acyclic graph; Chandy-Lamport needs every process reachable from each initiator. Returns
/// the initiators of Chandy-Lamport's periodic snapshots and whether they start them together.
pub(super) fn check_mode(
    phys: &Physical,
    config: &Config,
) -> Result<(Vec<TaskId>, bool), GraphError> {
    let sources: Vec<TaskId> = (0..phys.task_count())
        .filter(|&t| phys.operator_of(t).kind.is_source())
        .collect();
    if !config.mode.processes_initiate() {
        if sources.is_empty() {
            return Err(GraphError::NoSourceForBarriers);
        }
        // Flink's `CheckpointCoordinatorConfiguration` refuses the job outright.
        if let Some(asked) = config.flink_refuses_concurrency() {
            return Err(GraphError::ConcurrentUnaligned { asked });
        }
        // Cycles: aligned runs the ABS paper's Algorithm 2, unaligned needs nothing more (a
        // back-edge's records before its barrier are channel state anyway); barrier tracking
        // would lose the records in flight round the loop.
        let refuses_cycles = !config.mode.runs_cycles();
        if let Some(&e) = phys.back_edges.first().filter(|_| refuses_cycles) {
            let to = phys.operator_edges[e as usize].1;
            return Err(GraphError::Cycle(
                phys.graph.operators[to as usize].name.clone(),
            ));
        }
        return Ok((sources, true));
    }
    let mut named = Vec::with_capacity(config.initiators.len());
    for name in &config.initiators {
        named.push(
            phys.task_by_name(name)
                .ok_or_else(|| GraphError::UnknownInitiator(name.clone()))?,
        );
    }
    let (initiators, together) = if !named.is_empty() {
        (named, false)
    } else if !sources.is_empty() {
        (sources, true)
    } else {
        ((0..phys.task_count()).collect(), false)
    };
    let groups: Vec<Vec<TaskId>> = if together {
        vec![initiators.clone()]
    } else {
        initiators.iter().map(|&t| vec![t]).collect()
    };
    for group in groups {
        let mut reached = vec![false; phys.tasks.len()];
        for &t in &group {
            for (r, yes) in reached.iter_mut().zip(phys.reachable_from(t)) {
                *r |= yes;
            }
        }
        if let Some(missed) = reached.iter().position(|r| !r) {
            return Err(GraphError::Unreachable {
                initiator: phys.tasks[group[0] as usize].name.clone(),
                task: phys.tasks[missed].name.clone(),
            });
        }
    }
    Ok((initiators, together))
}
