//! What the narration needs to name things: subtasks, inputs and items, in one simulation.

use abs_engine::record::ItemKind;
use abs_engine::view::Input;
use abs_engine::{Simulation, TaskId};

/// What the narration needs to name things: subtasks, inputs and items, in one simulation.
pub struct Names<'a>(pub &'a Simulation);

impl Names<'_> {
    pub fn task(&self, t: TaskId) -> &str {
        self.0
            .physical()
            .tasks
            .get(t as usize)
            .map_or("?", |i| i.name.as_str())
    }

    /// The number of input `at` of its task, counted from 1.
    pub fn input_number(&self, at: Input) -> u32 {
        self.0
            .physical()
            .channels
            .get(at.channel as usize)
            .map_or(0, |c| c.input_index + 1)
    }

    /// The subtask feeding input `at`.
    pub fn sender(&self, at: Input) -> &str {
        let phys = self.0.physical();
        phys.channels
            .get(at.channel as usize)
            .map_or("?", |c| phys.tasks[c.from as usize].name.as_str())
    }

    pub fn channel(&self, c: u32) -> String {
        self.0.physical().channel_label(c)
    }

    /// The subtask channel `c` leads to.
    pub fn receiver(&self, c: u32) -> &str {
        let phys = self.0.physical();
        phys.channels
            .get(c as usize)
            .map_or("?", |ch| phys.tasks[ch.to as usize].name.as_str())
    }

    /// How many of `t`'s inputs are back-edges.
    pub fn back_edges(&self, t: TaskId) -> u32 {
        let phys = self.0.physical();
        let n = phys
            .tasks
            .get(t as usize)
            .map_or(0, |i| i.inputs.len() as u32);
        (0..n).filter(|&i| phys.input_is_back_edge(t, i)).count() as u32
    }

    pub fn payload(&self, item: &ItemKind) -> Option<String> {
        match item {
            ItemKind::Record(r) => Some(self.0.describe(&r.payload)),
            _ => None,
        }
    }
}
