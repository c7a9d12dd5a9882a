//! Guided lessons: a lesson file's steps, and the answers to their questions — computed by
//! running the engine forward from the step's moment, never written into the lesson.
//!
//! A lesson (`docs/lessons.md`) is a title and steps; a step is a moment of the playground (a
//! permalink's query, `preset=alignment&step=14`), a text, and maybe a question. The page shows
//! the moment and the question; when the student answers, it plays forward to the step this
//! module names ([`Reveal::step`]) and says right or wrong with [`Reveal::why`]. Reading the
//! file is `scenario::read::lesson`.

use crate::engine::barrier::BarrierTake;
use crate::engine::record::{ItemKind, Record};
use crate::engine::view::TokenPlace;
use crate::engine::{view, BarrierMode, ChannelId, CheckpointId, Event, Simulation, TaskId};

/// How far past a step's moment an answer is looked for.
pub const LOOK_AHEAD: u64 = 20_000;

#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    pub title: String,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The moment, as a permalink's query spells it (`preset=…&mode=…&step=…&sel=…`).
    pub at: String,
    pub text: String,
    pub ask: Option<Ask>,
}

/// A question. The first three are answered by the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// Which input blocks next? (aligned): the channel whose barrier first blocks it.
    BlockedInput,
    /// Which of the records now in the channels go into the next alignment buffer?
    Buffered,
    /// Will the next checkpoint to complete be a consistent global state?
    Consistent,
    /// The one-token system: which of its four global states will the next snapshot to
    /// complete capture (the token at p, in p→q, at q, in q→p)?
    GlobalState,
    /// A plain multiple choice: the lesson says the answer and why; answering plays `play`
    /// steps first.
    Choice {
        prompt: String,
        choices: Vec<String>,
        answer: usize,
        why: String,
        play: u64,
    },
}

/// One of a question's choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    Channel(ChannelId),
    /// A record now on `channel`.
    Record(Record, ChannelId),
    Yes,
    No,
    /// One of the token system's four global states.
    Place(TokenPlace),
    /// The lesson's own choice at this index.
    Text(usize),
}

/// Why the answer is what it is, for the sentence the page words.
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// `task` got the first barrier of `checkpoint` on `channel` and blocked it.
    Blocked {
        task: TaskId,
        channel: ChannelId,
        checkpoint: CheckpointId,
    },
    /// `task` aligned `checkpoint` and held `held` of the records offered.
    Buffered {
        task: TaskId,
        checkpoint: CheckpointId,
        held: usize,
    },
    Consistent {
        checkpoint: CheckpointId,
        consistent: bool,
    },
    /// Snapshot `checkpoint` caught the token at `place`.
    Token {
        checkpoint: CheckpointId,
        place: TokenPlace,
    },
    /// The lesson's sentence.
    Given(String),
}

/// A question's choices, its answer, and where it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Reveal {
    pub choices: Vec<Choice>,
    /// Indices into `choices`: exactly one, or (`multiple`) any number.
    pub answer: Vec<usize>,
    pub multiple: bool,
    /// The step the page plays to before saying right or wrong.
    pub step: u64,
    pub why: Why,
}

impl Reveal {
    /// Whether the chosen indices (each once) are the answer, in any order.
    pub fn is_right(&self, chosen: &[usize]) -> bool {
        chosen.len() == self.answer.len() && self.answer.iter().all(|a| chosen.contains(a))
    }
}

/// Why a question has no answer from its moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoAnswer {
    /// No input blocks within [`LOOK_AHEAD`] steps (only aligned checkpoints block).
    NothingBlocks,
    /// No alignment starts, or no record is in the channels into the task that aligns.
    NothingToBuffer,
    /// No checkpoint completes within [`LOOK_AHEAD`] steps.
    NoCheckpoint,
    /// Not the one-token system, or its snapshot holds the token in no one place.
    NoToken,
    /// A choice's answer is not one of its choices.
    BadChoice,
}

/// The first step after `sim`'s moment (at most [`LOOK_AHEAD`] of them) whose events `hit`
/// returns something for: the simulation after that step and the value.
fn first<T>(sim: &Simulation, mut hit: impl FnMut(&Event) -> Option<T>) -> Option<(Simulation, T)> {
    let mut s = sim.clone();
    for _ in 0..LOOK_AHEAD {
        s.step()?;
        let found = s.last_events().iter().find_map(&mut hit);
        if let Some(v) = found {
            return Some((s, v));
        }
    }
    None
}

/// The first barrier from now that blocks its channel: a task's first or a further barrier
/// of an alignment that still awaits others.
fn next_block(sim: &Simulation) -> Option<(Simulation, (TaskId, ChannelId, CheckpointId))> {
    if !matches!(sim.mode(), BarrierMode::Aligned) {
        return None;
    }
    first(sim, |e| match *e {
        Event::Barrier {
            task,
            channel,
            checkpoint,
            take,
            have,
            need,
            ..
        } if take != BarrierTake::Ignored && have < need => Some((task, channel, checkpoint)),
        _ => None,
    })
}

/// The next checkpoint to complete, and the simulation just after.
fn next_completed(sim: &Simulation) -> Result<(Simulation, CheckpointId), NoAnswer> {
    first(sim, |e| match *e {
        Event::CheckpointCompleted { checkpoint, .. } => Some(checkpoint),
        _ => None,
    })
    .ok_or(NoAnswer::NoCheckpoint)
}

/// The answer to `ask` at `sim`'s moment.
pub fn reveal(sim: &Simulation, ask: &Ask) -> Result<Reveal, NoAnswer> {
    let phys = sim.physical();
    match ask {
        Ask::BlockedInput => {
            let (after, (task, channel, checkpoint)) =
                next_block(sim).ok_or(NoAnswer::NothingBlocks)?;
            // Every input of a task that aligns (more than one input) may be the answer.
            let choices: Vec<Choice> = phys
                .tasks
                .iter()
                .filter(|t| t.inputs.len() > 1)
                .flat_map(|t| t.inputs.iter().map(|&c| Choice::Channel(c)))
                .collect();
            let at = choices.iter().position(|c| *c == Choice::Channel(channel));
            Ok(Reveal {
                answer: at.into_iter().collect(),
                choices,
                multiple: false,
                step: after.steps(),
                why: Why::Blocked {
                    task,
                    channel,
                    checkpoint,
                },
            })
        }
        Ask::Buffered => {
            // The alignment under way (a blocked input), or else the next one.
            let aligning = (0..phys.channels.len() as ChannelId)
                .find(|&c| view::is_blocked(sim, c))
                .and_then(|c| {
                    let task = phys.channels[c as usize].to;
                    let view::TaskStatus::Aligning { checkpoint: n, .. } =
                        view::task_status(sim, task)
                    else {
                        return None;
                    };
                    let mut s = sim.clone();
                    s.step()?;
                    Some((s, (task, c, n)))
                });
            let (mut s, (task, _, checkpoint)) = aligning
                .or_else(|| next_block(sim))
                .ok_or(NoAnswer::NothingToBuffer)?;
            let inputs = &phys.tasks[task as usize].inputs;
            let choices: Vec<Choice> = inputs
                .iter()
                .flat_map(|&c| {
                    sim.channels()[c as usize]
                        .items()
                        .iter()
                        .filter_map(move |i| match i.kind {
                            ItemKind::Record(r) => Some(Choice::Record(r, c)),
                            _ => None,
                        })
                })
                .collect();
            if choices.is_empty() {
                return Err(NoAnswer::NothingToBuffer);
            }
            // Until the alignment ends: every record held meanwhile.
            let mut held = Vec::new();
            let mut step = s.steps();
            for _ in 0..LOOK_AHEAD {
                let mut ended = false;
                for e in s.last_events() {
                    match *e {
                        Event::Held {
                            task: t,
                            item: ItemKind::Record(r),
                            ..
                        } if t == task => {
                            held.push(r.id);
                            step = s.steps();
                        }
                        Event::Unblocked { task: t, .. } | Event::Snapshot { task: t, .. }
                            if t == task =>
                        {
                            ended = true
                        }
                        Event::Failed { .. } => ended = true,
                        _ => {}
                    }
                }
                if ended {
                    // Nothing held: the reveal is the alignment's end.
                    if held.is_empty() {
                        step = s.steps();
                    }
                    break;
                }
                if s.step().is_none() {
                    break;
                }
            }
            let answer: Vec<usize> = choices
                .iter()
                .enumerate()
                .filter(|(_, c)| matches!(c, Choice::Record(r, _) if held.contains(&r.id)))
                .map(|(i, _)| i)
                .collect();
            Ok(Reveal {
                why: Why::Buffered {
                    task,
                    checkpoint,
                    held: answer.len(),
                },
                choices,
                answer,
                multiple: true,
                step,
            })
        }
        Ask::Consistent => {
            let (after, checkpoint) = next_completed(sim)?;
            // A consistent cut (the event's verdict also asks the word counts to match, which
            // a cut can be without after an at-least-once recovery).
            let consistent = after
                .coordinator()
                .global_state(checkpoint)
                .is_none_or(|g| g.verdict.consistent);
            Ok(Reveal {
                choices: vec![Choice::Yes, Choice::No],
                answer: vec![usize::from(!consistent)],
                multiple: false,
                step: after.steps(),
                why: Why::Consistent {
                    checkpoint,
                    consistent,
                },
            })
        }
        Ask::GlobalState => {
            let sys = view::token_system(sim).ok_or(NoAnswer::NoToken)?;
            let (after, checkpoint) = next_completed(sim)?;
            let place = after
                .coordinator()
                .global_state(checkpoint)
                .and_then(|g| view::token_place_captured(g, &sys))
                .ok_or(NoAnswer::NoToken)?;
            Ok(Reveal {
                choices: TokenPlace::ALL.iter().map(|&p| Choice::Place(p)).collect(),
                answer: TokenPlace::ALL
                    .iter()
                    .position(|&p| p == place)
                    .into_iter()
                    .collect(),
                multiple: false,
                step: after.steps(),
                why: Why::Token { checkpoint, place },
            })
        }
        Ask::Choice {
            choices,
            answer,
            why,
            play,
            ..
        } => {
            if *answer >= choices.len() {
                return Err(NoAnswer::BadChoice);
            }
            Ok(Reveal {
                choices: (0..choices.len()).map(Choice::Text).collect(),
                answer: vec![*answer],
                multiple: false,
                step: sim.steps() + play,
                why: Why::Given(why.clone()),
            })
        }
    }
}
