//! Operator chaining on the page: a dashed frame round each chain's subtasks (one task in
//! Flink), two links across each chained link (a method call, nothing on it), the legend's
//! entry and the inspector's note on what chaining removes. In the second build only: no
//! preset chains, and the student's builds send a scenario with chaining there
//! (`layout::for_second_player`), so that their first load does not carry this.

use std::fmt::Write;

use yew::prelude::*;

use super::item::fmt;
use crate::engine::{ChannelId, Simulation, TaskId};
use crate::i18n::Lang;
use crate::ui::kit::pick;
use crate::ui::layout::Layout;

/// The legend's swatch: a solid line with two links across it, in a dashed frame.
pub const SWATCH: &str = r#"<g class="chain-swatch"><rect class="chain-frame" x="1" y="3" width="28" height="14" rx="4"/><path d="M3 10H27" stroke="currentColor" stroke-width="2"/><rect x="7" y="7" width="9" height="6" rx="3" fill="none" stroke="currentColor" stroke-width="1.4"/><rect x="14" y="7" width="9" height="6" rx="3" fill="none" stroke="currentColor" stroke-width="1.4"/></g>"#;

pub fn legend(lang: Lang) -> String {
    pick(
        lang,
        "chained operators: one task, one thread — no channel, no barrier between them",
        "串接成鏈的運算子：同一個任務、同一條執行緒，它們之間沒有通道，也沒有屏障",
    )
}

fn note(lang: Lang) -> String {
    pick(
        lang,
        "Chained (Flink's operator chaining): both operators run in one task, in one thread. \
         There is no channel here — a record is handed over by a method call, with no buffer, \
         no latency and no credit — and no barrier: the task snapshots both operators in the \
         same call.",
        "串接成鏈（Flink 的運算子鏈）：兩個運算子在同一個任務、同一條執行緒裡執行。這裡沒有通道：\
         記錄由一次方法呼叫交出，沒有緩衝區、沒有延遲、也沒有信用額度；也沒有屏障：任務在同一次\
         呼叫裡為兩個運算子做快照。",
    )
}

/// The frames round the chains and the links across the chained links, as SVG markup.
pub fn frames(sim: &Simulation, layout: &Layout, lang: Lang) -> Html {
    let (phys, chains) = (sim.physical(), sim.chains());
    if layout.bundled || !chains.any() {
        return Html::default();
    }
    let detailed = layout.detailed;
    let one_task = pick(lang, "one task", "同一任務");
    let mut svg = String::new();
    for t in 0..phys.task_count() as TaskId {
        let members: Vec<TaskId> = chains.members(t).collect();
        if chains.head_of(t) != t || members.len() < 2 {
            continue;
        }
        // Within the gap between two subtasks of an operator, so that frames never touch.
        let pad = if detailed { 3.0 } else { 1.5 };
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for &u in &members {
            let r = layout.subtasks[u as usize].rect;
            (x0, y0) = (x0.min(r.x), y0.min(r.y));
            (x1, y1) = (x1.max(r.x + r.w), y1.max(r.y + r.h));
        }
        let names: Vec<&str> = members
            .iter()
            .map(|&u| phys.tasks[u as usize].name.as_str())
            .collect();
        let _ = write!(
            svg,
            r#"<g class="chain" data-testid="chain-{}" data-members="{}"><rect class="chain-frame" x="{}" y="{}" width="{}" height="{}" rx="7"/>"#,
            names[0],
            names.join(" "),
            fmt(x0 - pad),
            fmt(y0 - pad),
            fmt(x1 - x0 + 2.0 * pad),
            fmt(y1 - y0 + 2.0 * pad)
        );
        if detailed {
            // Inside the frame, over the link between its first two subtasks.
            let (a, b) = (
                layout.subtasks[members[0] as usize].rect,
                layout.subtasks[members[1] as usize].rect,
            );
            let _ = write!(
                svg,
                r#"<text class="chain-label" x="{}" y="{}" text-anchor="middle">{one_task}</text>"#,
                fmt((a.x + a.w + b.x) / 2.0),
                fmt(y0 + 10.0)
            );
        }
        svg.push_str("</g>");
    }
    // Two links across the middle of each chained link.
    for c in 0..phys.channel_count() as ChannelId {
        if !chains.is_chained(c) {
            continue;
        }
        let path = &layout.channels[c as usize];
        let at = path.point_at(path.length() * 0.5);
        let _ = write!(
            svg,
            r#"<g class="chain-links" transform="translate({} {})"><rect x="-9" y="-3.5" width="10" height="7" rx="3.5"/><rect x="-1" y="-3.5" width="10" height="7" rx="3.5"/></g>"#,
            fmt(at.x),
            fmt(at.y)
        );
    }
    // Names and numbers only: nothing to escape.
    Html::from_html_unchecked(svg.into())
}

/// The inspector's details of a chained link: its ends and what chaining removes.
pub fn details(sim: &Simulation, c: ChannelId, lang: Lang) -> Html {
    let phys = sim.physical();
    let s = lang.strings();
    let Some(info) = phys.channels.get(c as usize) else {
        return Html::default();
    };
    html! {
        <div class="details">
            <h3>{ format!("{} {}", s.channel, phys.channel_label(c)) }</h3>
            <dl>
                <dt>{ s.from }</dt><dd>{ phys.tasks[info.from as usize].name.clone() }</dd>
                <dt>{ s.to }</dt><dd>{ phys.tasks[info.to as usize].name.clone() }</dd>
            </dl>
            <p class="chained-note" data-testid="chained-note">{ note(lang) }</p>
        </div>
    }
}
