//! What travels on channels: records and the control items between them.

use serde::{Deserialize, Serialize};

use super::barrier::Input;
pub use super::vocab::{CheckpointId, RecordId};

/// A record's content, interned so records are small `Copy` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Payload {
    /// A line of a source's log (index into [`super::physical::Physical::lines`]).
    Line(u32),
    /// A word (index into [`super::physical::Physical::words`]).
    Word(u32),
    /// A keyed-count update: `word` has now been seen `count` times.
    Count { word: u32, count: u64 },
    /// The token of the seed's one-token system.
    Token,
    /// Money moving between two bank accounts.
    Transfer { amount: u64 },
    /// A word on its way round an iteration: it has been through the loop `round` times.
    Round { word: u32, round: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub id: RecordId,
    /// The record this one was derived from (0 for a source record).
    pub parent: RecordId,
    pub payload: Payload,
    /// Made again after a recovery: a source read an offset it had read before the failure,
    /// the record was restored from a checkpoint's channel state, or it was derived from
    /// such a record.
    #[serde(default, skip_serializing_if = "is_false")]
    pub replay: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ItemKind {
    Record(Record),
    Barrier(CheckpointId),
    Cancel(CheckpointId),
    /// FLIP-147: the sender has no more data; its barriers still follow.
    EndOfData,
    EndOfPartition,
}

impl ItemKind {
    pub fn to_input(self) -> Input<Record> {
        match self {
            ItemKind::Record(r) => Input::Record(r),
            ItemKind::Barrier(n) => Input::Barrier(n),
            ItemKind::Cancel(n) => Input::Cancel(n),
            ItemKind::EndOfData => Input::EndOfData,
            ItemKind::EndOfPartition => Input::EndOfPartition,
        }
    }

    pub fn from_input(input: &Input<Record>) -> ItemKind {
        match input {
            Input::Record(r) => ItemKind::Record(*r),
            Input::Barrier(n) => ItemKind::Barrier(*n),
            Input::Cancel(n) => ItemKind::Cancel(*n),
            Input::EndOfData => ItemKind::EndOfData,
            Input::EndOfPartition => ItemKind::EndOfPartition,
        }
    }
}

/// An item on a channel, with the times the page needs to animate it without asking the
/// engine anything else: it left the sender at `sent_at` and reaches the receiver's input
/// port at `arrives_at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub kind: ItemKind,
    pub sent_at: u64,
    pub arrives_at: u64,
}
