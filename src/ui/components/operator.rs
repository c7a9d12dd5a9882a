//! A logical operator: the box around its subtasks, with its name, kind and parallelism.

use yew::prelude::*;

use super::item::fmt;
use crate::ui::layout::{operator_kind_label, Rect};

#[derive(Properties, PartialEq, Clone)]
pub struct OperatorProps {
    pub testid: AttrValue,
    pub name: AttrValue,
    pub kind: AttrValue,
    pub parallelism: u32,
    pub rect: Rect,
    /// The graph's font size (layout units), to keep the two header labels apart.
    pub font: f64,
}

pub fn operator(p: &OperatorProps) -> Html {
    let r = p.rect;
    let kind = operator_kind_label(&p.name, &p.kind, p.parallelism, r.w, p.font);
    html! {
        <g class="operator" data-testid={p.testid.clone()}>
            <rect class="op-box" x={fmt(r.x)} y={fmt(r.y)} width={fmt(r.w)} height={fmt(r.h)} rx="8" />
            <text class="op-name" x={fmt(r.x + 8.0)} y={fmt(r.y + 15.0)}>{ p.name.clone() }</text>
            <text class="op-kind" x={fmt(r.x + r.w - 8.0)} y={fmt(r.y + 15.0)} text-anchor="end">
                { kind }
            </text>
        </g>
    }
}
