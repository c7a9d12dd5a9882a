//! The Chandy-Lamport tests' generator: random systems of processes, run and tallied.
//!
//! Chandy-Lamport's theorem is about any strongly connected system, any initiator, any
//! moment and any number of snapshots at once; a handful of hand-built scenarios would test
//! the few cuts their author thought of. So the systems are drawn at random (bank accounts or
//! token processes, FIFO or not, switched mid-run), every event of every run goes through the
//! oracle (`snapshot_oracle.rs`), and the figures of what the runs reached are tallied: a property
//! that holds because nothing ever happened — no snapshot completed, none recorded a channel,
//! no channel let a record overtake — shows in them instead of passing unnoticed.
//!
//! It is kept out of `chandy_lamport.rs` so that the test file reads as its tests. Like the
//! oracle it uses (`crate::snapshot_oracle`, which the including file must declare), it is not
//! a submodule of `common`, which every test binary compiles: `chandy_lamport.rs` includes it
//! by `#[path]`, and dead code here is still reported.

use std::collections::BTreeSet;

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::trace::AbortReason;
use abs_playground::engine::{
    Action, BarrierMode, ChannelId, CheckpointId, Config, Edge, Event, JobGraph, Operator,
    OperatorKind, Partitioning, Simulation, TaskId,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::snapshot_oracle::{check_snapshot, ensure, token_place, Trace};

const MAX_PROCESSES: usize = 5;
const MAX_EDGES: usize = MAX_PROCESSES * (MAX_PROCESSES - 1);
const STEPS: u32 = 1500;

/// A random strongly connected system: a ring of 2–5 processes plus random extra edges, every
/// process a bank account (random balance, interval, largest transfer) or a token process
/// (one holder); random latencies, capacities, snapshot interval, concurrency, initiators,
/// seed, and a few snapshots initiated by hand at random moments.
#[derive(Clone, Debug)]
pub struct Spec {
    tokens: bool,
    n: usize,
    extra: Vec<(usize, usize)>,
    balances: Vec<u64>,
    intervals: Vec<u64>,
    max_transfers: Vec<u64>,
    holder: usize,
    latencies: Vec<u64>,
    capacities: Vec<u32>,
    checkpoint_interval: u64,
    first_trigger: u64,
    concurrent: u32,
    initiators: Vec<usize>,
    seed: u64,
    /// (step, process): that process initiates a snapshot by hand before that step.
    manual: Vec<(u32, usize)>,
}

pub fn spec(token_weight: u32) -> impl Strategy<Value = Spec> {
    (
        (
            prop_oneof![token_weight => Just(true), 3 => Just(false)],
            2usize..=MAX_PROCESSES,
            prop::collection::vec((0..MAX_PROCESSES, 0..MAX_PROCESSES), 0..8),
            prop::collection::vec(1u64..=150, MAX_PROCESSES),
            prop::collection::vec(2u64..=30, MAX_PROCESSES),
            prop::collection::vec(1u64..=50, MAX_PROCESSES),
            0..MAX_PROCESSES,
        ),
        (
            prop::collection::vec(1u64..=40, MAX_EDGES),
            prop::collection::vec(prop_oneof![1 => 2u32..=6, 4 => 8u32..=40], MAX_EDGES),
            10u64..=150,
            1u64..=60,
            1u32..=3,
            prop::collection::vec(0..MAX_PROCESSES, 0..=3),
            any::<u64>(),
            prop::collection::vec((0..STEPS, 0..MAX_PROCESSES), 0..=4),
        ),
    )
        .prop_map(
            |(
                (tokens, n, extra, balances, intervals, max_transfers, holder),
                (
                    latencies,
                    capacities,
                    checkpoint_interval,
                    first_trigger,
                    concurrent,
                    initiators,
                    seed,
                    manual,
                ),
            )| Spec {
                tokens,
                n,
                extra,
                balances,
                intervals,
                max_transfers,
                holder,
                latencies,
                capacities,
                checkpoint_interval,
                first_trigger,
                concurrent,
                initiators,
                seed,
                manual,
            },
        )
}

fn process_name(i: usize) -> String {
    ["A", "B", "C", "D", "E"][i].to_string()
}

impl Spec {
    /// The edges as (from, to) process indices: the ring first, then the extra ones.
    fn edges(&self) -> Vec<(usize, usize)> {
        let mut edges: Vec<(usize, usize)> = (0..self.n).map(|i| (i, (i + 1) % self.n)).collect();
        for &(a, b) in &self.extra {
            let (a, b) = (a % self.n, b % self.n);
            if a != b && !edges.contains(&(a, b)) {
                edges.push((a, b));
            }
        }
        edges
    }

    fn graph(&self, non_fifo_edges: &BTreeSet<usize>) -> JobGraph {
        let operators = (0..self.n)
            .map(|i| Operator {
                name: process_name(i),
                kind: if self.tokens {
                    OperatorKind::Token {
                        has_token: i == self.holder % self.n,
                        hold: self.intervals[i] * 2,
                    }
                } else {
                    OperatorKind::Account {
                        balance: self.balances[i],
                        interval: self.intervals[i],
                        max_transfer: self.max_transfers[i],
                    }
                },
                parallelism: 1,
                processing_time: 1,
            })
            .collect();
        let edges = self
            .edges()
            .into_iter()
            .enumerate()
            .map(|(e, (a, b))| Edge {
                from: process_name(a),
                to: process_name(b),
                partitioning: Partitioning::Forward,
                latency: self.latencies[e],
                capacity: self.capacities[e],
                fifo: !non_fifo_edges.contains(&e),
            })
            .collect();
        JobGraph { operators, edges }
    }

    fn config(&self) -> Config {
        Config {
            mode: BarrierMode::ChandyLamport,
            checkpoint_interval: Some(self.checkpoint_interval),
            first_trigger: self.first_trigger,
            max_concurrent_checkpoints: self.concurrent,
            // Never expire: every marker arrives in the end (unless flow control deadlocks a
            // cycle, which the figures count).
            timeout: 1_000_000,
            retained_checkpoints: 4,
            initiators: self
                .initiators
                .iter()
                .map(|&i| process_name(i % self.n))
                .collect(),
            ..Config::default()
        }
    }
}

/// Which channels are not FIFO, and when.
#[derive(Clone, Debug)]
pub enum FifoPlan {
    /// Every edge non-FIFO from the start.
    All,
    /// These edges (indices modulo the edge count) non-FIFO from the start.
    Some(Vec<usize>),
    /// FIFO at first; before step `at` these channels become non-FIFO (`SetFifo`), and
    /// before step `back`, if any, FIFO again.
    MidRun {
        at: u32,
        channels: Vec<usize>,
        back: Option<u32>,
    },
}

pub fn fifo_plan() -> impl Strategy<Value = FifoPlan> {
    prop_oneof![
        2 => Just(FifoPlan::All),
        2 => prop::collection::vec(0..MAX_EDGES, 1..=4).prop_map(FifoPlan::Some),
        2 => (0..STEPS / 2, prop::collection::vec(0..MAX_EDGES, 1..=4), prop::option::of(STEPS / 2..STEPS))
            .prop_map(|(at, channels, back)| FifoPlan::MidRun { at, channels, back }),
    ]
}

/// What one run reached.
#[derive(Clone, Debug, Default)]
struct RunFigures {
    completed: u64,
    /// Completed snapshots that recorded some channel state.
    recorded: u64,
    /// Completed snapshots that ran while another one did.
    overlapped: u64,
    inconsistent: u64,
    not_conserved: u64,
    token_in_channel: u64,
    manual: u64,
    orphans: u64,
    recorded_after_cut: u64,
    lost: u64,
    overtaken: u64,
    initiators: BTreeSet<TaskId>,
    states: BTreeSet<String>,
    /// Snapshots that expired: a cycle of full channels deadlocked the run (see
    /// `processes_in_a_cycle_keep_taking_input_when_their_outputs_are_full`).
    expired: u64,
}

/// Runs one system for [`STEPS`] scheduler steps (plus its hand-initiated snapshots and FIFO
/// switches), checking every event and every completed snapshot on the step it completes.
fn run(spec: &Spec, plan: Option<&FifoPlan>) -> Result<RunFigures, TestCaseError> {
    let edges = spec.edges().len();
    let non_fifo: BTreeSet<usize> = match plan {
        Some(FifoPlan::All) => (0..edges).collect(),
        Some(FifoPlan::Some(v)) => v.iter().map(|e| e % edges).collect(),
        _ => BTreeSet::new(),
    };
    let graph = spec.graph(&non_fifo);
    let mut sim = Simulation::new(&graph, &spec.config(), spec.seed)
        .map_err(|e| TestCaseError::fail(format!("the system does not build: {e}")))?;
    let mut trace = Trace::new(&sim, plan.is_none());
    let mut figures = RunFigures::default();
    // Snapshots seen running together with another one.
    let mut overlapped: BTreeSet<CheckpointId> = BTreeSet::new();
    // The channel of each edge (one per edge: every process has parallelism 1).
    let channel_of = |e: usize| {
        sim.physical()
            .channels
            .iter()
            .position(|c| c.edge as usize == e)
            .unwrap() as ChannelId
    };
    let (switch, switch_back) = match plan {
        Some(FifoPlan::MidRun { at, channels, back }) => {
            let cs: Vec<ChannelId> = channels.iter().map(|&e| channel_of(e % edges)).collect();
            (Some((*at, cs.clone())), back.map(|b| (b, cs)))
        }
        _ => (None, None),
    };
    for step in 0..STEPS {
        let mut applied: Vec<Action> = Vec::new();
        for (when, fifo) in [(&switch, false), (&switch_back, true)] {
            if let Some((at, channels)) = when {
                if *at == step {
                    applied.extend(
                        channels
                            .iter()
                            .map(|&channel| Action::SetFifo { channel, fifo }),
                    );
                }
            }
        }
        for &(at, p) in &spec.manual {
            if at == step {
                applied.push(Action::Initiate {
                    task: (p % spec.n) as TaskId,
                });
            }
        }
        let mut batches: Vec<Vec<Event>> = Vec::new();
        for action in applied {
            if sim.apply(action).is_ok() {
                if matches!(action, Action::Initiate { .. }) {
                    figures.manual += 1;
                }
                batches.push(sim.last_events().to_vec());
            }
        }
        let stepped = sim.step().is_some();
        if stepped {
            batches.push(sim.last_events().to_vec());
        }
        for events in batches {
            for e in &events {
                if let Event::Initiated { task, .. } = e {
                    figures.initiators.insert(*task);
                }
            }
            for n in trace.observe(&events)? {
                let gs = sim.coordinator().global_state(n).ok_or_else(|| {
                    TestCaseError::fail(format!("snapshot {n} completed but is not retained"))
                })?;
                let seen = check_snapshot(&trace, gs)?;
                figures.completed += 1;
                figures.recorded += u64::from(seen.recorded > 0);
                figures.overlapped += u64::from(overlapped.contains(&n));
                figures.inconsistent += u64::from(!seen.ok);
                figures.not_conserved += u64::from(seen.not_conserved);
                figures.token_in_channel += u64::from(seen.token_in_channel);
                figures.orphans += seen.orphans;
                figures.recorded_after_cut += seen.recorded_after_cut;
                figures.lost += seen.lost;
                if spec.tokens {
                    figures.states.insert(token_place(&trace, gs));
                }
            }
        }
        let running: Vec<CheckpointId> = sim.coordinator().in_progress().collect();
        if running.len() > 1 {
            overlapped.extend(running);
        }
        if !stepped {
            break;
        }
    }
    // Snapshots do not subsume one another and nothing declines them: each one triggered
    // has completed (and was checked above), is still running, or expired — which, with a
    // timeout far beyond any marker's journey, only a flow-control deadlock makes happen.
    for summary in sim.coordinator().checkpoints() {
        match summary.status {
            CheckpointStatus::Completed => ensure!(
                trace.completed.contains(&summary.id),
                "snapshot {} completed without a CheckpointCompleted event",
                summary.id
            ),
            CheckpointStatus::InProgress => {}
            CheckpointStatus::Aborted {
                reason: AbortReason::Expired,
            } => figures.expired += 1,
            CheckpointStatus::Aborted { reason } => {
                ensure!(false, "snapshot {} was aborted: {reason:?}", summary.id)
            }
        }
    }
    figures.overtaken = trace.overtaken;
    Ok(figures)
}

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The totals over all runs of a property test.
#[derive(Debug, Default)]
pub struct Tally {
    pub runs: u64,
    pub token_runs: u64,
    pub runs_completing: u64,
    pub completed: u64,
    pub recorded: u64,
    pub overlapped: u64,
    pub inconsistent: u64,
    pub not_conserved: u64,
    pub runs_inconsistent: u64,
    pub token_in_channel: u64,
    pub manual: u64,
    pub orphans: u64,
    pub recorded_after_cut: u64,
    pub lost: u64,
    pub runs_overtaken: u64,
    pub runs_with_several_initiators: u64,
    pub runs_recording: u64,
    /// Runs in which a snapshot expired (a cycle of full channels deadlocked).
    pub runs_deadlocked: u64,
    pub token_places: BTreeSet<String>,
}

impl Tally {
    fn add(&mut self, spec: &Spec, f: &RunFigures) {
        self.runs += 1;
        self.token_runs += u64::from(spec.tokens);
        self.runs_completing += u64::from(f.completed > 0);
        self.completed += f.completed;
        self.recorded += f.recorded;
        self.overlapped += f.overlapped;
        self.inconsistent += f.inconsistent;
        self.not_conserved += f.not_conserved;
        self.runs_inconsistent += u64::from(f.inconsistent > 0);
        self.token_in_channel += f.token_in_channel;
        self.manual += f.manual;
        self.orphans += f.orphans;
        self.recorded_after_cut += f.recorded_after_cut;
        self.lost += f.lost;
        self.runs_overtaken += u64::from(f.overtaken > 0);
        self.runs_with_several_initiators += u64::from(f.initiators.len() > 1);
        self.runs_recording += u64::from(f.recorded > 0);
        self.runs_deadlocked += u64::from(f.expired > 0);
        // Token places by ring position, so systems of different sizes add up.
        self.token_places.extend(
            f.states
                .iter()
                .map(|s| s.split(' ').next().unwrap_or("").to_string()),
        );
    }
}

pub fn run_property(
    name: &str,
    default_cases: u32,
    strategy: impl Strategy<Value = (Spec, Option<FifoPlan>)>,
) -> Tally {
    let config = ProptestConfig {
        cases: cases(default_cases),
        max_shrink_iters: 400,
        source_file: Some(file!()),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let tally = std::cell::RefCell::new(Tally::default());
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let result = runner.run(&strategy, |(spec, plan)| {
        let figures = run(&spec, plan.as_ref())?;
        tally.borrow_mut().add(&spec, &figures);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}\n{runner}");
    }
    tally.into_inner()
}
