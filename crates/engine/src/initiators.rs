//! Who starts a snapshot where processes initiate (Chandy-Lamport): the configured
//! initiators one after another, any process chosen by hand, or — on a dataflow, where no
//! marker can reach a source — every source together. The ABS modes have no initiators: the
//! coordinator injects barriers at the sources.

use super::vocab::TaskId;

#[derive(Clone, Debug)]
pub struct Initiators {
    tasks: Vec<TaskId>,
    /// All of them start each snapshot (the sources of a dataflow), not one in turn.
    together: bool,
    /// Whose turn is next, counted from the first.
    next: u32,
}

/// How a snapshot starts.
pub(super) enum Start {
    /// One process initiates alone (none: there is nobody to initiate).
    Alone(Option<TaskId>),
    /// Every initiator starts it at once.
    Together,
}

impl Initiators {
    pub(super) fn new(tasks: Vec<TaskId>, together: bool) -> Initiators {
        Initiators {
            tasks,
            together,
            next: 0,
        }
    }

    /// How the next snapshot starts: by the process chosen by hand, else — unless they start
    /// together — by the next initiator in turn.
    pub(super) fn start(&mut self, by_hand: Option<TaskId>) -> Start {
        if by_hand.is_none() && self.together {
            return Start::Together;
        }
        Start::Alone(by_hand.or_else(|| {
            let k = self.next as usize % self.tasks.len().max(1);
            self.next = self.next.wrapping_add(1);
            self.tasks.get(k).copied()
        }))
    }
}
