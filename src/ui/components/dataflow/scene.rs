//! The dataflow's scene: what one run's graph draws that does not change while it runs (names,
//! test hooks, channel paths; a channel's and a buffer's names are made when drawn), made once per run instead of on every render.

use yew::prelude::*;

use crate::ui::layout::Layout;

/// The names and test hooks of one run's graph, made once rather than on every render.
pub(super) struct Scene {
    pub(super) operators: Vec<(AttrValue, AttrValue)>,
    pub(super) subtasks: Vec<(AttrValue, AttrValue)>,
    /// Each channel's curve and the tail drawn at its input port when blocked, as SVG path data.
    pub(super) paths: Vec<(AttrValue, AttrValue)>,
}

impl Scene {
    pub(super) fn new(phys: &crate::engine::Physical, layout: &Layout) -> Scene {
        Scene {
            operators: phys
                .graph
                .operators
                .iter()
                .map(|op| {
                    (
                        format!("operator-{}", op.name).into(),
                        op.name.clone().into(),
                    )
                })
                .collect(),
            subtasks: phys
                .tasks
                .iter()
                .map(|t| {
                    let op = &phys.graph.operators[t.operator as usize].name;
                    (
                        format!("subtask-{}-{}", op, t.subtask).into(),
                        t.name.clone().into(),
                    )
                })
                .collect(),
            paths: layout
                .channels
                .iter()
                .map(|path| (path.svg_d().into(), path.tail_d().into()))
                .collect(),
        }
    }
}
