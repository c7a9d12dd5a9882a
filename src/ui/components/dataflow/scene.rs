//! The dataflow's scene: what one run's graph draws that does not change while it runs (names,
//! test hooks, channel paths), made once per run instead of on every render.

use yew::prelude::*;

use crate::ui::layout::Layout;

/// The names and test hooks of one run's graph, made once rather than on every render.
pub(super) struct Scene {
    pub(super) operators: Vec<(AttrValue, AttrValue)>,
    pub(super) subtasks: Vec<(AttrValue, AttrValue)>,
    pub(super) channels: Vec<AttrValue>,
    /// Each channel's curve and the tail drawn at its input port when blocked, as SVG path data.
    pub(super) paths: Vec<(AttrValue, AttrValue)>,
    pub(super) buffers: Vec<AttrValue>,
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
            channels: (0..phys.channel_count())
                .map(|c| format!("channel-{}", phys.channel_name(c)).into())
                .collect(),
            paths: layout
                .channels
                .iter()
                .map(|path| (path.svg_d().into(), path.tail_d().into()))
                .collect(),
            buffers: (0..phys.channel_count())
                .map(|c| format!("buffer-{}", phys.channel_name(c)).into())
                .collect(),
        }
    }
}
