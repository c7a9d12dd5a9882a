//! The page's own words, shared by the reducer, the link format and the views: what can be
//! selected, the side panel's tabs, and the notices shown above the view.
//!
//! A leaf: it imports nothing else of the page, so `state.rs` and `permalink.rs` can both
//! speak of a selection without importing each other.

use crate::engine::record::ItemKind;
use crate::engine::{ActionError, ChannelId, TaskId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    Task(TaskId),
    Channel(ChannelId),
    /// An item on a channel, found again by its kind (records have unique ids).
    Item {
        channel: ChannelId,
        item: ItemKind,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// Where the side panel folds into tabs (≤ 1024 px): the coordinator and the throughput.
    /// Wider, they are always shown and the inspector shows the details.
    Coordinator,
    Details,
    Checkpoints,
}

/// A message shown above the view until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// An address parameter named something that does not exist.
    BadParam {
        param: &'static str,
        value: String,
        used: String,
    },
    Refused(ActionError),
    Ended,
    /// A link to a moment could not be followed (why); the scenario shows from its start.
    BrokenLink(String),
    /// A scenario from a link or the host page could not be loaded (why).
    BadScenario(String),
}
