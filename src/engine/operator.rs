//! What each operator kind does with a record, and how a source reads its log.

use std::rc::Rc;

use super::barrier::CheckpointId;
use super::model::OperatorKind;
use super::physical::{ChannelId, TaskId};
use super::queue::Due;
use super::record::ItemKind;
use super::record::{Payload, Record};
use super::sim::Simulation;
use super::snapshot::{TaskState, SINK_RECENT};
use super::trace::Event;

impl Simulation {
    /// The operator's work on one record.
    pub(super) fn process(
        &mut self,
        t: TaskId,
        channel: ChannelId,
        record: Record,
        early: Option<CheckpointId>,
    ) {
        let phys = Rc::clone(&self.phys);
        let op = phys.operator_of(t);
        let mut emitted: u32 = 0;
        let mut emit = |sim: &mut Simulation, payload: Payload| {
            let r = Record {
                id: sim.next_record,
                parent: record.id,
                payload,
                replay: record.replay,
            };
            sim.next_record += 1;
            emitted += 1;
            sim.send_record(t, r);
        };
        match &op.kind {
            OperatorKind::Split => match record.payload {
                Payload::Line(l) => {
                    for &w in phys.lines.get(l as usize).map_or(&[][..], |l| &l.words[..]) {
                        emit(self, Payload::Word(w));
                    }
                }
                p => emit(self, p),
            },
            OperatorKind::Filter { min_len } => {
                let pass = match record.payload {
                    Payload::Word(w)
                    | Payload::Count { word: w, .. }
                    | Payload::Round { word: w, .. } => {
                        self.word(w).chars().count() as u32 >= *min_len
                    }
                    Payload::Line(_) | Payload::Token | Payload::Transfer { .. } => true,
                };
                if pass {
                    emit(self, record.payload);
                }
            }
            OperatorKind::Count => {
                // A word (the usual case) is counted without allocating.
                let single;
                let words: &[u32] = match record.payload {
                    Payload::Word(w)
                    | Payload::Count { word: w, .. }
                    | Payload::Round { word: w, .. } => {
                        single = [w];
                        &single
                    }
                    Payload::Line(l) => phys.lines.get(l as usize).map_or(&[][..], |l| &l.words),
                    Payload::Token | Payload::Transfer { .. } => &[],
                };
                for &w in words {
                    let count = match &mut self.tasks[t as usize].state {
                        TaskState::Count { counts } => {
                            let c = counts.get_or_default(w);
                            *c += 1;
                            *c
                        }
                        _ => 0,
                    };
                    emit(self, Payload::Count { word: w, count });
                }
            }
            OperatorKind::Sink { .. } => {
                if let TaskState::Sink {
                    received, recent, ..
                } = &mut self.tasks[t as usize].state
                {
                    *received += 1;
                    if recent.len() == SINK_RECENT {
                        recent.pop_front();
                    }
                    recent.push_back(record.payload);
                }
            }
            OperatorKind::Map | OperatorKind::Union | OperatorKind::Source { .. } => {
                emit(self, record.payload)
            }
            OperatorKind::Iterate { rounds } => {
                let words: Vec<(u32, u32)> = match record.payload {
                    Payload::Round { word, round } => vec![(word, round + 1)],
                    Payload::Word(w) | Payload::Count { word: w, .. } => vec![(w, 1)],
                    Payload::Line(l) => phys
                        .lines
                        .get(l as usize)
                        .map_or_else(Vec::new, |l| l.words.iter().map(|&w| (w, 1)).collect()),
                    Payload::Token | Payload::Transfer { .. } => Vec::new(),
                };
                for (word, round) in words {
                    let r = Record {
                        id: self.next_record,
                        parent: record.id,
                        payload: if round < *rounds {
                            Payload::Round { word, round }
                        } else {
                            Payload::Word(word)
                        },
                        replay: record.replay,
                    };
                    self.next_record += 1;
                    emitted += 1;
                    if round < *rounds {
                        // Once more round the loop.
                        self.send_record_on(t, r, Some(true));
                    } else {
                        if let TaskState::Count { counts } = &mut self.tasks[t as usize].state {
                            *counts.get_or_default(word) += 1;
                        }
                        self.send_record_on(t, r, Some(false));
                    }
                }
            }
            OperatorKind::Token { hold, .. } => {
                if record.payload == Payload::Token {
                    if let TaskState::Token { token } = &mut self.tasks[t as usize].state {
                        *token = true;
                    }
                    // Kept for a while: `hold` on average, from half to one and a half of it.
                    let at = self
                        .clock
                        .now
                        .saturating_add(hold / 2)
                        .saturating_add(self.clock.rng.below(hold + 1));
                    self.tasks[t as usize].act_at = at;
                    self.schedule(at, Due::Emit(t));
                }
            }
            OperatorKind::Account { .. } => {
                if let (Payload::Transfer { amount }, TaskState::Account { balance }) =
                    (record.payload, &mut self.tasks[t as usize].state)
                {
                    *balance = balance.saturating_add(amount);
                }
            }
        }
        if let TaskState::Stateless { processed } = &mut self.tasks[t as usize].state {
            *processed += 1;
        }
        let task = &mut self.tasks[t as usize];
        task.busy_until = task
            .busy_until
            .max(self.clock.now)
            .saturating_add(op.processing_time);
        self.events.push(Event::Processed {
            task: t,
            channel,
            record,
            emitted,
            early,
        });
    }

    pub(super) fn emit(&mut self, t: TaskId) {
        let phys = Rc::clone(&self.phys);
        let info = &phys.tasks[t as usize];
        let op = &phys.graph.operators[info.operator as usize];
        if op.kind.is_process() {
            self.act(t);
            return;
        }
        let OperatorKind::Source { bounded, .. } = op.kind else {
            return;
        };
        let Some(lines) = phys.source_lines.get(&info.operator) else {
            return;
        };
        let TaskState::Source { offset } = self.tasks[t as usize].state else {
            return;
        };
        let p = op.parallelism as u64;
        let sub = info.subtask as u64;
        // Subtask s reads lines s, s+p, s+2p …; a bounded log ends after one pass.
        let mine = (lines.len() as u64 + p - 1 - sub) / p;
        if bounded && offset >= mine {
            self.finish(t);
            self.events.push(Event::SourceEnded { task: t });
            return;
        }
        let line = lines[((sub + offset * p) % lines.len() as u64) as usize];
        let record = Record {
            id: self.next_record,
            parent: 0,
            payload: Payload::Line(line),
            replay: offset < self.tasks[t as usize].read_before,
        };
        self.next_record += 1;
        self.tasks[t as usize].state = TaskState::Source { offset: offset + 1 };
        self.events.push(Event::SourceRead {
            task: t,
            offset,
            record,
        });
        self.send_record(t, record);
        let task = &mut self.tasks[t as usize];
        task.busy_until = task
            .busy_until
            .max(self.clock.now)
            .saturating_add(op.processing_time);
    }
}

impl Simulation {
    /// A process acts on its own: a token holder passes the token on (to its outputs in
    /// turn), an account sends a random transfer to a random neighbour and plans its next one.
    fn act(&mut self, t: TaskId) {
        let phys = Rc::clone(&self.phys);
        let info = &phys.tasks[t as usize];
        let op = &phys.graph.operators[info.operator as usize];
        let outputs: Vec<ChannelId> = info.outputs.iter().flatten().copied().collect();
        match op.kind {
            OperatorKind::Token { .. } => {
                let holds = matches!(
                    self.tasks[t as usize].state,
                    TaskState::Token { token: true }
                );
                if !holds || outputs.is_empty() {
                    return;
                }
                let turn = &mut self.tasks[t as usize].round_robin;
                let i = turn.first().copied().unwrap_or(0) as usize % outputs.len();
                if let Some(r) = turn.first_mut() {
                    *r = r.wrapping_add(1);
                }
                self.tasks[t as usize].state = TaskState::Token { token: false };
                self.send_process_record(t, outputs[i], Payload::Token);
            }
            OperatorKind::Account {
                interval,
                max_transfer,
                ..
            } => {
                let next = self
                    .clock
                    .now
                    .saturating_add(interval / 2)
                    .saturating_add(self.clock.rng.below(interval.max(1)))
                    .max(self.clock.now + 1);
                self.schedule(next, Due::Emit(t));
                let TaskState::Account { balance } = self.tasks[t as usize].state else {
                    return;
                };
                let most = balance.min(max_transfer);
                if most == 0 || outputs.is_empty() {
                    return;
                }
                let amount = 1 + self.clock.rng.below(most);
                let to = outputs[self.clock.rng.below(outputs.len() as u64) as usize];
                self.tasks[t as usize].state = TaskState::Account {
                    balance: balance - amount,
                };
                self.send_process_record(t, to, Payload::Transfer { amount });
            }
            _ => {}
        }
    }

    fn send_process_record(&mut self, t: TaskId, c: ChannelId, payload: Payload) {
        let record = Record {
            id: self.next_record,
            parent: 0,
            payload,
            replay: false,
        };
        self.next_record += 1;
        self.events.push(Event::Sent {
            task: t,
            channel: c,
            record,
        });
        self.send(c, ItemKind::Record(record));
    }
}
