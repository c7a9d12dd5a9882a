//! What a task does on its own, not because of what it received: a source reads the next
//! line of its log, a process passes the token on or sends a transfer.

use std::rc::Rc;

use super::model::OperatorKind;
use super::physical::{ChannelId, TaskId};
use super::queue::Due;
use super::record::ItemKind;
use super::record::{Payload, Record};
use super::sim::Simulation;
use super::snapshot::TaskState;
use super::trace::Event;

impl Simulation {
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
            self.events.push(Event::SourceEnded {
                task: t,
                finishes_now: !self.waits_for_final_checkpoint(),
            });
            self.end_data(t);
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
