//! The page's own words, shared by the reducer, the link format and the views: what can be
//! selected, the side panel's tabs, and the notices shown above the view.
//!
//! A leaf: it imports nothing else of the page, so `state.rs` and `permalink.rs` can both
//! speak of a selection without importing each other.

use crate::engine::record::ItemKind;
use crate::engine::{ActionError, BarrierMode, ChannelId, TaskId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    Task(TaskId),
    Channel(ChannelId),
    /// An item on a channel, found again by its kind (records have unique ids).
    Item {
        channel: ChannelId,
        item: ItemKind,
    },
    /// A logical operator, by index: drawn as a card when the job is bundled, where the
    /// inspector lists its busiest and slowest subtasks (the second player only).
    #[cfg(feature = "views")]
    Operator(u32),
    /// An edge of the job graph, by index: one band when bundled, whose busiest channels the
    /// inspector lists.
    #[cfg(feature = "views")]
    Edge(u32),
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
    /// A link to a moment could not be followed (why, worded in the page's language when
    /// it happened: the errors themselves need not be kept); the scenario shows from its
    /// start.
    BrokenLink(String),
    /// A scenario from the host page could not be loaded (why, worded as for `BrokenLink`).
    BadScenario(String),
    /// The host page's `abs:load` named something that does not exist (`used` is shown).
    HostBadParam {
        param: &'static str,
        value: String,
        used: String,
    },
    /// The host page's `abs:load` named neither a preset nor a scenario: nothing changed.
    HostLoadEmpty,
    /// The host page's `abs:step` or `abs:seek` (`message`) had a `field` that is no whole
    /// number from 0: nothing changed.
    HostBadNumber {
        message: &'static str,
        field: &'static str,
        value: String,
    },
    /// A mode that exists but the scenario cannot run (an ABS mode on a process system): the
    /// scenario is shown in `used`, its own mode. `timeout`: the mode asked for was aligned
    /// with a timeout. `scenario` is the scenario's name (a preset's title is translated),
    /// `title` its own title. `refused`: Flink would refuse to start it so, with unaligned
    /// checkpoints and this many at once.
    ModeUnavailable {
        mode: BarrierMode,
        timeout: bool,
        scenario: String,
        title: String,
        used: BarrierMode,
        refused: Option<u32>,
    },
    /// A link asked for a step past what the run reaches: `shown` is its last step there,
    /// where the run ended (`ended`) or the most steps a link replays.
    StepPastEnd {
        shown: u64,
        ended: bool,
    },
    /// A part of a link that names nothing, ignored (the value as the link spelt it).
    Ignored(Ignored),
}

/// A part of a link to a moment that could not be followed and was left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ignored {
    /// `step=` is not a number: the run is shown from step 0.
    Step(String),
    /// `open=` names no checkpoint that has completed at the linked step.
    Open(String),
    /// `sel=` names no subtask or channel of the graph.
    Select(String),
    /// `panel=` names no tab of the side panel.
    Panel(String),
    /// `cut=` does not give one time per line of the space-time diagram.
    Cut(String),
}

/// A cut the student places on the space-time diagram: a virtual time per line (per subtask
/// or process), the line the keyboard moves, and whether the snapshots' own cuts are shown
/// beside it. A link keeps the times (`cut=`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserCut {
    pub at: Vec<u64>,
    pub line: u32,
    pub own: bool,
}
