//! An input's alignment buffer (step ②): the items its subtask holds for that input while the
//! input is blocked, drawn as a row of small squares beside the port, oldest nearest to it.

use yew::prelude::*;

use super::item::{fmt, item_glyph, ItemGlyphProps};
use crate::engine::record::ItemKind;
use crate::i18n::Lang;
use crate::ui::layout::{held_capacity, held_slot, ChannelPath, Metrics};

#[derive(Properties, PartialEq, Clone)]
pub struct BufferProps {
    pub testid: AttrValue,
    pub path: ChannelPath,
    pub metrics: Metrics,
    /// Held items, oldest first.
    pub held: Vec<ItemKind>,
    pub lang: Lang,
    /// ABS for cycles: these are not held but logged for this checkpoint (a back-edge's log):
    /// drawn ringed in its colour, on a dashed tray.
    #[prop_or_default]
    pub log: Option<u64>,
}

pub fn alignment_buffer(p: &BufferProps) -> Html {
    let m = &p.metrics;
    let cap = held_capacity(&p.path, m);
    let shown = p.held.len().min(cap);
    let overflow = p.held.len() - shown;
    let tray = (shown > 0).then(|| {
        let first = held_slot(&p.path, 0, m);
        let last = held_slot(&p.path, shown - 1, m);
        match (first, last) {
            (Some(f), Some(l)) => html! {
                <rect class={if p.log.is_some() { "tray log-tray" } else { "tray" }} x={fmt(l.x - 2.0)} y={fmt(l.y - 2.0)}
                    width={fmt(f.x + f.w - l.x + 4.0)} height={fmt(f.h + 4.0)} rx="2" />
            },
            _ => html! {},
        }
    });
    html! {
        <g class="buffer-view">
            { for tray }
            <g class={if p.log.is_some() { "buffer log" } else { "buffer" }} data-testid={p.testid.clone()}
                data-held={p.held.len().to_string()} data-log={p.log.map(|n| n.to_string())}>
                { for p.held.iter().take(cap).enumerate().filter_map(|(k, item)| {
                    held_slot(&p.path, k, m).map(|r| html! {
                        <g class="held" key={k}>
                            if m.held >= 6.0 {
                                <rect class="held-box" x={fmt(r.x)} y={fmt(r.y)} width={fmt(r.w)} height={fmt(r.h)} rx="1" />
                            }
                            { Html::from_html_unchecked(item_glyph(&ItemGlyphProps::new(*item, r.x, r.y, r.w).persisted(p.log)).into()) }
                        </g>
                    })
                }) }
            </g>
            if overflow > 0 {
                {{
                    let at = held_slot(&p.path, shown.saturating_sub(1), m);
                    match at {
                        Some(r) => html! {
                            <text class="held-more" x={fmt(r.x - 3.0)} y={fmt(r.y + r.h)} text-anchor="end">
                                { (p.lang.strings().more)(overflow) }
                            </text>
                        },
                        None => html! {},
                    }
                }}
            }
        </g>
    }
}
