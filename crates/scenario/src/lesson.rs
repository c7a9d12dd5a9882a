//! Guided lessons: a lesson file's steps, and the answers to their questions — computed by
//! running the engine forward from the step's moment, never written into the lesson.
//!
//! A lesson (`docs/lessons.md`) is a title and steps; a step is a moment of the playground (a
//! permalink's query, `preset=alignment&step=14`), a text, and maybe a question. The page shows
//! the moment and the question; when the student answers, it plays forward to the step this
//! module names ([`Reveal::step`]) and says right or wrong with [`Reveal::why`]. Reading the
//! file is `scenario::read::lesson`.

use abs_engine::barrier::BarrierTake;
use abs_engine::record::{ItemKind, Record};
use abs_engine::snapshot::Finding;
use abs_engine::view::TokenPlace;
use abs_engine::{view, ChannelId, CheckpointId, Event, Simulation, TaskId};

/// How far past a step's moment an answer is looked for.
pub const LOOK_AHEAD: u64 = 20_000;

/// At most this many words are offered for "counted twice?" (the answer's first).
pub const MAX_WORDS: usize = 16;

#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    pub title: String,
    pub steps: Vec<Step>,
    /// The share of questions (percent, 0–100) answered right the first time that passes the
    /// lesson, if the lesson sets one: a learning management system then records "passed" or
    /// "failed" at its end (without one, "completed").
    pub mastery: Option<u8>,
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
    /// Which words will be counted twice after the next failure? The restored checkpoint's
    /// counts that exceed what its source offsets cover (at-least-once: records counted after
    /// an early barrier, before the snapshot), among the words of the lines read again.
    CountedTwice,
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
    /// A word (an index into the scenario's interned words).
    Word(u32),
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
        /// What the verdict found, worded as the page words it elsewhere.
        finding: Finding,
    },
    /// Snapshot `checkpoint` caught the token at `place`.
    Token {
        checkpoint: CheckpointId,
        place: TokenPlace,
    },
    /// The job restored `checkpoint` (none: started afresh), whose counts already held
    /// `words` that the replay counts again.
    CountedTwice {
        checkpoint: Option<CheckpointId>,
        words: Vec<u32>,
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
    /// No failure is recovered from within [`LOOK_AHEAD`] steps.
    NoFailure,
    /// The job counts no words (no source, split and count).
    NoWordCount,
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
    if !sim.mode().blocks_inputs() {
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
            let verdict = after
                .coordinator()
                .global_state(checkpoint)
                .map(|g| &g.verdict);
            let consistent = verdict.is_none_or(|v| v.consistent);
            let finding = verdict.map_or(Finding::Consistent, |v| v.finding());
            Ok(Reveal {
                choices: vec![Choice::Yes, Choice::No],
                answer: vec![usize::from(!consistent)],
                multiple: false,
                step: after.steps(),
                why: Why::Consistent {
                    checkpoint,
                    consistent,
                    finding,
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
        Ask::CountedTwice => counted_twice(sim),
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

/// "Which words will be counted twice after this failure?": run to the next restore, and read
/// the restored checkpoint's word check — a word whose counts (with recorded channel state)
/// exceed the words of the lines its source offsets cover was counted after an early barrier,
/// and the replay of those lines counts it again. The choices are the words of the lines the
/// sources read again.
fn counted_twice(sim: &Simulation) -> Result<Reveal, NoAnswer> {
    let phys = sim.physical();
    let (after, checkpoint) = first(sim, |e| match *e {
        Event::Restored { checkpoint, .. } => Some(checkpoint),
        _ => None,
    })
    .ok_or(NoAnswer::NoFailure)?;
    let twice: Vec<u32> = match checkpoint {
        Some(n) => {
            let g = after
                .coordinator()
                .global_state(n)
                .ok_or(NoAnswer::NoCheckpoint)?;
            let check = g.verdict.word_check.as_ref().ok_or(NoAnswer::NoWordCount)?;
            check
                .mismatches
                .iter()
                .filter(|(_, &(expected, found))| found > expected)
                .filter_map(|(w, _)| phys.words.iter().position(|x| x == w))
                .map(|w| w as u32)
                .collect()
        }
        // From the beginning every count starts at zero: nothing is counted twice.
        None if phys.source_lines.is_empty() => return Err(NoAnswer::NoWordCount),
        None => Vec::new(),
    };
    // The lines read again, in the order the sources are listed, and their words in the order
    // they first appear; at most MAX_WORDS of them, the answer's kept.
    let mut replayed: Vec<u32> = Vec::new();
    for e in after.last_events() {
        let Event::Rewound { task, from, to } = *e else {
            continue;
        };
        let info = &phys.tasks[task as usize];
        let Some(lines) = phys
            .source_lines
            .get(&info.operator)
            .filter(|l| !l.is_empty())
        else {
            continue;
        };
        let p = u64::from(phys.graph.operators[info.operator as usize].parallelism);
        let len = lines.len() as u64;
        // Past one pass over the log the same lines come again: no new words.
        for k in to..from.min(to.saturating_add(len)) {
            let line = lines[((u64::from(info.subtask) + k * p) % len) as usize];
            for &w in phys
                .lines
                .get(line as usize)
                .map_or(&[][..], |l| &l.words[..])
            {
                if !replayed.contains(&w) {
                    replayed.push(w);
                }
            }
        }
    }
    let mut room = MAX_WORDS.saturating_sub(twice.len());
    let mut words: Vec<u32> = Vec::new();
    for &w in &replayed {
        if twice.contains(&w) {
            words.push(w);
        } else if room > 0 {
            room -= 1;
            words.push(w);
        }
    }
    // A word counted twice is a word read again; should one not be, it is offered all the same.
    words.extend(twice.iter().filter(|w| !replayed.contains(w)));
    let answer: Vec<usize> = (0..words.len())
        .filter(|&i| twice.contains(&words[i]))
        .collect();
    Ok(Reveal {
        why: Why::CountedTwice {
            checkpoint,
            // In the order offered.
            words: answer.iter().map(|&i| words[i]).collect(),
        },
        answer,
        choices: words.into_iter().map(Choice::Word).collect(),
        multiple: true,
        step: after.steps(),
    })
}
