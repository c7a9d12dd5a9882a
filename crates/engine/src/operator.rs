//! What each operator kind does with a record: a pure function of the physical graph, the
//! task's state and the record. It returns the records to send (the simulation routes and
//! sends them) and whether a process now holds the token (the simulation plans its next act).

use super::model::OperatorKind;
use super::physical::Physical;
use super::record::{Payload, Record, RecordId};
use super::snapshot::{TaskState, SINK_RECENT};

/// Where an emitted record goes: on every output edge, or (an iteration) on its back-edges
/// only (`Some(true)`, once more round the loop) or on the others only (`Some(false)`).
pub(super) type Edges = Option<bool>;

/// Operator `kind`'s work on `record`, with the task's `state`: appends what it emits to
/// `out`, in order, each with a fresh id from `next_record`. Returns true when a token
/// holder has just received the token.
pub(super) fn apply(
    phys: &Physical,
    kind: &OperatorKind,
    state: &mut TaskState,
    record: Record,
    next_record: &mut RecordId,
    out: &mut Vec<(Record, Edges)>,
) -> bool {
    let mut emit = |payload: Payload, edges: Edges, out: &mut Vec<(Record, Edges)>| {
        let r = Record {
            id: *next_record,
            parent: record.id,
            payload,
            replay: record.replay,
        };
        *next_record += 1;
        out.push((r, edges));
    };
    let mut token = false;
    match kind {
        OperatorKind::Split => match record.payload {
            Payload::Line(l) => {
                for &w in phys.lines.get(l as usize).map_or(&[][..], |l| &l.words[..]) {
                    emit(Payload::Word(w), None, out);
                }
            }
            p => emit(p, None, out),
        },
        OperatorKind::Filter { min_len } => {
            let pass = match record.payload {
                Payload::Word(w)
                | Payload::Count { word: w, .. }
                | Payload::Round { word: w, .. } => {
                    let word = phys.words.get(w as usize).map_or("", |s| s.as_str());
                    word.chars().count() as u32 >= *min_len
                }
                Payload::Line(_) | Payload::Token | Payload::Transfer { .. } => true,
            };
            if pass {
                emit(record.payload, None, out);
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
                let count = match state {
                    TaskState::Count { counts } => {
                        let c = counts.get_or_default(w);
                        *c += 1;
                        *c
                    }
                    _ => 0,
                };
                emit(Payload::Count { word: w, count }, None, out);
            }
        }
        OperatorKind::Sink { .. } => {
            if let TaskState::Sink {
                received, recent, ..
            } = state
            {
                *received += 1;
                if recent.len() == SINK_RECENT {
                    recent.pop_front();
                }
                recent.push_back(record.payload);
            }
        }
        OperatorKind::Map | OperatorKind::Union | OperatorKind::Source { .. } => {
            emit(record.payload, None, out)
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
                if round < *rounds {
                    // Once more round the loop.
                    emit(Payload::Round { word, round }, Some(true), out);
                } else {
                    if let TaskState::Count { counts } = state {
                        *counts.get_or_default(word) += 1;
                    }
                    emit(Payload::Word(word), Some(false), out);
                }
            }
        }
        OperatorKind::Token { .. } => {
            if record.payload == Payload::Token {
                if let TaskState::Token { token: held } = state {
                    *held = true;
                }
                token = true;
            }
        }
        OperatorKind::Account { .. } => {
            if let (Payload::Transfer { amount }, TaskState::Account { balance }) =
                (record.payload, &mut *state)
            {
                *balance = balance.saturating_add(amount);
            }
        }
    }
    if let TaskState::Stateless { processed } = state {
        *processed += 1;
    }
    token
}
