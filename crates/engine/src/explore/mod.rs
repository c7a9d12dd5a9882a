//! Exhaustive exploration: every interleaving of a small system, every snapshot checked.
//!
//! The player shows one run; this shows that "every snapshot is consistent" holds for all of
//! them. The search is breadth-first over the states the engine's own actions reach — the
//! actions the page's manual mode offers, each an engine `apply` — with two choices the
//! engine otherwise leaves to time made explicit: on a non-FIFO channel any queued item may
//! arrive first ([`Move::DeliverItem`]), and a priority barrier (unaligned) may overtake the
//! items queued ahead of it ([`Move::Overtake`]) or still be on its way when the channel
//! delivers its head ([`Move::DeliverHead`]).
//!
//! **The model leaves time out.** Every latency and processing time is zero, no checkpoint
//! times out and none waits for a pause: what happens depends only on the order of events,
//! which the search chooses in every possible way. (So an aligned checkpoint timeout, a time
//! rule, is not explored.) Planned failures are left out: recovery is the player's to show.
//! At most `snapshots` checkpoints (or Chandy-Lamport snapshots) are started in a run, and
//! states are told apart by a hash of what can still change the future (`canon.rs`).
//!
//! Every completed snapshot is checked by the engine's own checker (the verdict the page
//! shows); one that is not consistent, or breaks what the scenario conserves, is a
//! *violation*, and the first one found comes with the shortest sequence of moves that leads
//! to it. `abs-sim explore` prints it; `abs-sim run --replay` plays it back.

mod canon;

use std::collections::{HashSet, VecDeque};

use serde_json::{json, Value};

use super::model::{Config, JobGraph};
use super::physical::GraphError;
use super::sim::Simulation;
use super::trace::Event;
use super::vocab::{Action, ActionError, ChannelId};

/// One step of the search: an engine action, or a delivery whose order the model chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// What the page's manual mode does.
    Act(Action),
    /// A non-FIFO channel delivers its `item`-th queued item (0 is the head), which overtakes
    /// those ahead of it.
    DeliverItem { channel: ChannelId, item: u32 },
    /// Unaligned: the channel delivers its head while a priority barrier behind it is still
    /// on its way.
    DeliverHead { channel: ChannelId },
    /// Unaligned: the priority barrier behind the channel's head arrives and overtakes what
    /// is queued ahead of it (that checkpoint's channel state).
    Overtake { channel: ChannelId },
}

impl Move {
    /// As a JSON value: an action as the trace writes it (`{"action": "deliver", "channel":
    /// 2}`), with `"item": N`, `"head": true` or `"overtake": true` for the search's own
    /// choices.
    pub fn to_json(self) -> Value {
        match self {
            Move::Act(a) => serde_json::to_value(a).unwrap_or(Value::Null),
            Move::DeliverItem { channel, item } => {
                json!({"action": "deliver", "channel": channel, "item": item})
            }
            Move::DeliverHead { channel } => {
                json!({"action": "deliver", "channel": channel, "head": true})
            }
            Move::Overtake { channel } => {
                json!({"action": "deliver", "channel": channel, "overtake": true})
            }
        }
    }

    /// Reads what [`Move::to_json`] writes.
    pub fn from_json(v: &Value) -> Result<Move, String> {
        let mut obj = v
            .as_object()
            .ok_or_else(|| format!("a move is a JSON object, not {v}"))?
            .clone();
        let item = obj.remove("item");
        let head = obj.remove("head");
        let overtake = obj.remove("overtake");
        let action: Action = serde_json::from_value(Value::Object(obj))
            .map_err(|e| format!("not an action: {e}"))?;
        let Action::Deliver { channel } = action else {
            return match (item, head, overtake) {
                (None, None, None) => Ok(Move::Act(action)),
                _ => Err("\"item\", \"head\" and \"overtake\" go with a deliver action".into()),
            };
        };
        let yes = |v: Value| v == Value::Bool(true);
        match (item, head, overtake) {
            (None, None, None) => Ok(Move::Act(action)),
            (Some(i), None, None) => {
                let item = i
                    .as_u64()
                    .and_then(|i| u32::try_from(i).ok())
                    .ok_or_else(|| format!("\"item\" needs a number, not {i}"))?;
                Ok(Move::DeliverItem { channel, item })
            }
            (None, Some(h), None) if yes(h.clone()) => Ok(Move::DeliverHead { channel }),
            (None, None, Some(o)) if yes(o.clone()) => Ok(Move::Overtake { channel }),
            _ => Err(
                "a deliver takes one of \"item\": N, \"head\": true or \"overtake\": true".into(),
            ),
        }
    }
}

/// How far the search goes.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Stop (incomplete) once this many distinct states have been reached.
    pub max_states: u64,
    /// Checkpoints or snapshots started at most in one run.
    pub snapshots: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_states: 200_000,
            snapshots: 2,
        }
    }
}

/// What the search found so far (all of it once `complete`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Distinct states reached.
    pub states: u64,
    /// Moves tried from them.
    pub transitions: u64,
    /// Snapshots checked: one for every move that completed one.
    pub snapshots: u64,
    /// Of those, the ones not consistent (or not conserving what the scenario conserves).
    pub violations: u64,
    /// Every reachable state was explored (the search did not stop at `max_states`).
    pub complete: bool,
    /// The shortest sequence of moves to the first violation.
    pub counterexample: Option<Vec<Move>>,
    /// The longest run explored, in moves.
    pub depth: u32,
    /// Transitions by kind of move: engine actions, non-FIFO deliveries out of order
    /// (`item` > 0), heads delivered before a priority barrier, priority barriers
    /// overtaking — how much of what only the search chooses it reached.
    pub kinds: [u64; 4],
}

impl Outcome {
    /// The JSON line `abs-sim explore` prints, its fields in this order.
    pub fn to_json_line(&self) -> String {
        let counterexample: Vec<Value> = self
            .counterexample
            .iter()
            .flatten()
            .map(|m| m.to_json())
            .collect();
        format!(
            "{{\"states\": {}, \"transitions\": {}, \"snapshots\": {}, \"violations\": {}, \"complete\": {}, \"counterexample\": {}}}",
            self.states,
            self.transitions,
            self.snapshots,
            self.violations,
            self.complete,
            Value::Array(counterexample)
        )
    }
}

/// The job as the search runs it: the same graph with every latency and processing time
/// zero, the same coordinator without timeouts or pauses. `abs-sim run --replay` plays a
/// counterexample on exactly this.
pub fn model(graph: &JobGraph, config: &Config, seed: u64) -> Result<Simulation, GraphError> {
    let mut graph = graph.clone();
    for e in &mut graph.edges {
        e.latency = 0;
    }
    for op in &mut graph.operators {
        op.processing_time = 0;
    }
    let config = Config {
        timeout: u64::MAX,
        min_pause: 0,
        aligned_checkpoint_timeout: None,
        tolerable_failed_checkpoints: None,
        ..config.clone()
    };
    Simulation::new(&graph, &config, seed)
}

impl Simulation {
    /// Applies one move of the search. Nothing changes when it is refused.
    ///
    /// Between moves every priority barrier counts as arrived (so a backpressured receiver
    /// may take it, as it may once it has): whether it overtakes is a move's choice. A
    /// non-FIFO channel's items are kept in a fixed order (any may arrive first anyway).
    pub fn apply_move(&mut self, m: Move) -> Result<(), ActionError> {
        let done = match m {
            Move::Act(a) => self.apply(a),
            Move::DeliverItem { channel, item } => {
                self.check(Action::Deliver { channel })?;
                if self.net.is_overtaking(channel, item as usize) {
                    return Err(ActionError::ChannelEmpty(channel));
                }
                if item > 0 && !self.net.bring_forward(channel, item as usize) {
                    return Err(ActionError::ChannelEmpty(channel));
                }
                self.deliver_head(channel)
            }
            Move::DeliverHead { channel } => {
                self.check(Action::Deliver { channel })?;
                self.deliver_head(channel)
            }
            Move::Overtake { channel } => {
                self.check(Action::Deliver { channel })?;
                if !self.net.has_overtaking(channel) {
                    return Err(ActionError::ChannelEmpty(channel));
                }
                self.apply(Action::Deliver { channel })
            }
        };
        let now = self.clock.now;
        self.net.set_priority_arrived(None, true, now);
        self.net.order_unordered();
        done
    }

    /// Delivers channel `c`'s head, its priority barriers held back.
    fn deliver_head(&mut self, c: ChannelId) -> Result<(), ActionError> {
        let now = self.clock.now;
        self.net.set_priority_arrived(Some(c), false, now);
        self.apply(Action::Deliver { channel: c })
    }

    /// Every move the search tries from this state, in a fixed order.
    pub fn moves(&self, options: &Options) -> Vec<Move> {
        let actions = self.enabled_actions();
        let initiates = actions.iter().any(|a| matches!(a, Action::Initiate { .. }));
        let may_start = self.coordinator.next_id <= options.snapshots;
        let mut moves = Vec::new();
        for a in actions {
            match a {
                Action::Deliver { channel } => {
                    let ch = &self.net.channels[channel as usize];
                    let overtakes = self.net.has_overtaking(channel);
                    if overtakes {
                        moves.push(Move::Overtake { channel });
                    }
                    if !ch.fifo {
                        for item in 0..ch.queue.len() as u32 {
                            if !self.net.is_overtaking(channel, item as usize) {
                                moves.push(Move::DeliverItem { channel, item });
                            }
                        }
                    } else if overtakes {
                        moves.push(Move::DeliverHead { channel });
                    } else {
                        moves.push(Move::Act(a));
                    }
                }
                // Who starts a snapshot is chosen by `Initiate` where processes may: the
                // coordinator's turn would only repeat one of those choices.
                Action::Trigger if initiates || !may_start => {}
                Action::Initiate { .. } if !may_start => {}
                // Time is left out: nothing expires, no alignment times out.
                Action::Expire { .. } | Action::TimeOutAlignment { .. } => {}
                _ => moves.push(Move::Act(a)),
            }
        }
        moves
    }
}

/// The search, run in slices (`run`) so that a page can show progress and stop it.
pub struct Explorer {
    options: Options,
    seen: HashSet<u64>,
    /// States to expand, each with its node (for the way back to the root) and depth.
    frontier: VecDeque<(Simulation, u32, u32)>,
    /// Per node: its parent and the move that reached it (the root is node 0).
    nodes: Vec<(u32, Option<Move>)>,
    outcome: Outcome,
}

impl Explorer {
    pub fn new(mut root: Simulation, options: Options) -> Explorer {
        root.clock.clear_planned();
        let now = root.clock.now;
        root.net.set_priority_arrived(None, true, now);
        root.net.order_unordered();
        let mut seen = HashSet::new();
        seen.insert(root.canonical_hash());
        let mut frontier = VecDeque::new();
        frontier.push_back((root, 0, 0));
        Explorer {
            options,
            seen,
            frontier,
            nodes: vec![(0, None)],
            outcome: Outcome {
                states: 1,
                ..Outcome::default()
            },
        }
    }

    /// Expands up to `budget` states. True once the search is over: every state explored,
    /// or `max_states` reached.
    pub fn run(&mut self, budget: u64) -> bool {
        for _ in 0..budget {
            if self.is_over() {
                break;
            }
            let Some((state, node, depth)) = self.frontier.pop_front() else {
                break;
            };
            self.expand(&state, node, depth);
        }
        let over = self.is_over();
        self.outcome.complete = self.frontier.is_empty();
        over
    }

    fn is_over(&self) -> bool {
        self.frontier.is_empty() || self.outcome.states >= self.options.max_states
    }

    fn expand(&mut self, state: &Simulation, node: u32, depth: u32) {
        for m in state.moves(&self.options) {
            let mut next = state.clone();
            if next.apply_move(m).is_err() {
                continue;
            }
            // What the scheduler would do next is no part of a manual run: forgetting it
            // keeps a state as small as it is, however long the run that reached it.
            next.clock.clear_planned();
            self.outcome.transitions += 1;
            let kind = match m {
                Move::Act(_) | Move::DeliverItem { item: 0, .. } => 0,
                Move::DeliverItem { .. } => 1,
                Move::DeliverHead { .. } => 2,
                Move::Overtake { .. } => 3,
            };
            self.outcome.kinds[kind] += 1;
            self.check_completed(&next, node, m);
            if self.outcome.states >= self.options.max_states {
                continue;
            }
            if self.seen.insert(next.canonical_hash()) {
                self.outcome.states += 1;
                self.outcome.depth = self.outcome.depth.max(depth + 1);
                self.nodes.push((node, Some(m)));
                let id = (self.nodes.len() - 1) as u32;
                self.frontier.push_back((next, id, depth + 1));
            }
        }
    }

    /// Checks every snapshot the move just completed.
    fn check_completed(&mut self, next: &Simulation, node: u32, m: Move) {
        for e in next.last_events() {
            let Event::CheckpointCompleted { checkpoint, .. } = e else {
                continue;
            };
            self.outcome.snapshots += 1;
            let ok = next
                .coordinator()
                .global_state(*checkpoint)
                .is_some_and(|g| g.verdict.ok());
            if !ok {
                self.outcome.violations += 1;
                if self.outcome.counterexample.is_none() {
                    let mut path = self.path_to(node);
                    path.reverse();
                    path.push(m);
                    self.outcome.counterexample = Some(path);
                }
            }
        }
    }

    /// The moves from the root to `node`, last first.
    fn path_to(&self, mut node: u32) -> Vec<Move> {
        let mut path = Vec::new();
        while let Some(&(parent, Some(m))) = self.nodes.get(node as usize) {
            path.push(m);
            node = parent;
        }
        path
    }

    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    /// States still waiting to be expanded.
    pub fn frontier(&self) -> usize {
        self.frontier.len()
    }
}

#[cfg(test)]
mod tests;
