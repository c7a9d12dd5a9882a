//! The legend: the visual vocabulary, drawn with the same glyphs as the view.

use std::fmt::Write;

use yew::prelude::*;

use crate::engine::sim::Capabilities;

use super::item::{item_glyph, ItemGlyphProps};
use crate::engine::record::{ItemKind, Payload, Record};
use crate::i18n::Lang;
use crate::ui::palette;

#[derive(Properties, PartialEq, Clone)]
pub struct LegendProps {
    pub lang: Lang,
    /// Only what the run draws is listed: blocked inputs and buffers where tasks align,
    /// channel state rings where snapshots persist records in flight (or log back-edges),
    /// slipping records at-least-once, markers where processes initiate.
    pub caps: Capabilities,
    /// A failure is planned or has happened: replayed records are marked.
    #[prop_or_default]
    pub recovery: bool,
    /// What the job's records carry, which decides their colour.
    #[prop_or_default]
    pub records: RecordLook,
}

/// What a job's records are, as the view colours them: plain lines (one neutral colour),
/// words (a colour per word, their key — and in a loop, their round), the token (gold), or
/// money (green).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecordLook {
    #[default]
    Plain,
    Keyed {
        rounds: bool,
    },
    Token,
    Money,
}

impl RecordLook {
    pub fn of(graph: &crate::engine::JobGraph) -> RecordLook {
        use crate::engine::OperatorKind as K;
        let has = |f: fn(&K) -> bool| graph.operators.iter().any(|o| f(&o.kind));
        if has(|k| matches!(k, K::Token { .. })) {
            RecordLook::Token
        } else if has(|k| matches!(k, K::Account { .. })) {
            RecordLook::Money
        } else if has(|k| matches!(k, K::Split | K::Count | K::Iterate { .. })) {
            RecordLook::Keyed {
                rounds: has(|k| matches!(k, K::Iterate { .. })),
            }
        } else {
            RecordLook::Plain
        }
    }
}

/// Up to three record dots side by side, each in the colour the view gives its payload.
fn dots(payloads: &[Payload]) -> String {
    // Static coordinates: formatting a float would link Rust's float formatting.
    const CX: [[&str; 3]; 3] = [["15", "", ""], ["11", "19", ""], ["7", "15", "23"]];
    let at = &CX[payloads.len().clamp(1, 3) - 1];
    let mut o = String::from("<g>");
    for (&payload, &cx) in payloads.iter().zip(at) {
        let r = Record {
            id: 0,
            parent: 0,
            payload,
            replay: false,
        };
        let _ = write!(
            o,
            r#"<circle cx="{cx}" cy="10" r="3.6" fill="{}"/>"#,
            palette::record(&r, "currentColor")
        );
    }
    o + "</g>"
}

/// The legend, written as one string of markup (it only shows).
pub fn legend(p: &LegendProps) -> Html {
    let s = p.lang.strings();
    let record = ItemKind::Record(Record {
        id: 0,
        parent: 0,
        payload: Payload::Line(0),
        replay: false,
    });
    let replayed = match record {
        ItemKind::Record(r) => ItemKind::Record(Record { replay: true, ..r }),
        other => other,
    };
    let glyph = |kind, x, y, size| ItemGlyphProps::new(kind, x, y, size);
    let mut o = String::from("<ul>");
    let entry = |o: &mut String, body: String, text: &str| {
        let _ = write!(
            o,
            r#"<li><svg class="swatch-svg" width="30" height="20" viewBox="0 0 30 20" aria-hidden="true">{body}</svg><span>{text}</span></li>"#
        );
    };
    // Dots in the colours the view gives these records (the canvas colours them by payload).
    match p.records {
        RecordLook::Plain => entry(
            &mut o,
            item_glyph(&glyph(record, 10.0, 5.0, 10.0)),
            s.legend_record,
        ),
        RecordLook::Keyed { .. } => entry(
            &mut o,
            dots(&[Payload::Word(0), Payload::Word(1), Payload::Word(2)]),
            s.legend_keyed,
        ),
        RecordLook::Token => entry(&mut o, dots(&[Payload::Token]), s.legend_token),
        RecordLook::Money => entry(
            &mut o,
            dots(&[Payload::Transfer { amount: 1 }]),
            s.legend_money,
        ),
    }
    if p.records == (RecordLook::Keyed { rounds: true }) {
        let _ = write!(
            o,
            r#"<li><span class="swatch-text" aria-hidden="true">·r2</span><span>{}</span></li>"#,
            s.legend_round
        );
    }
    let persisted = item_glyph(&glyph(record, 10.0, 5.0, 10.0).persisted(Some(1)));
    if p.recovery {
        entry(
            &mut o,
            item_glyph(&glyph(replayed, 10.0, 5.0, 10.0)),
            s.legend_replay,
        );
    }
    if p.caps.processes_initiate {
        entry(
            &mut o,
            item_glyph(&glyph(ItemKind::Barrier(1), 6.0, 6.0, 9.0).diamond()),
            s.legend_marker,
        );
        entry(&mut o, persisted.clone(), s.legend_recorded);
    } else if p.caps.sends_barriers {
        entry(
            &mut o,
            item_glyph(&glyph(ItemKind::Barrier(1), 6.0, 6.0, 9.0)),
            s.legend_barrier,
        );
        entry(
            &mut o,
            item_glyph(&glyph(ItemKind::Cancel(2), 8.0, 6.0, 9.0)),
            s.legend_cancel,
        );
    }
    if p.caps.blocks_inputs {
        let b = palette::BLOCKED;
        entry(
            &mut o,
            format!(
                r#"<g><path d="M1 10H20" stroke="{b}" stroke-width="2" stroke-dasharray="4 3"/><g transform="translate(20 7)"><path d="M1.8 0V-2.6a2.7 2.7 0 0 1 5.4 0V0" fill="none" stroke="{b}" stroke-width="1.6"/><rect x="0" y="0" width="9" height="7.5" rx="1.2" fill="{b}"/></g></g>"#
            ),
            s.legend_blocked,
        );
        entry(
            &mut o,
            format!(
                r#"<g><rect class="tray" x="1" y="4" width="28" height="12" rx="2"/><rect class="held-box" x="3" y="6" width="8" height="8" rx="1"/>{}<rect class="held-box" x="13" y="6" width="8" height="8" rx="1"/>{}</g>"#,
                item_glyph(&glyph(record, 3.0, 6.0, 8.0)),
                item_glyph(&glyph(record, 13.0, 6.0, 8.0))
            ),
            s.legend_held,
        );
    }
    if p.caps.keeps_aligned {
        // A channel with a bar across it: barriers wait in line.
        entry(
            &mut o,
            r#"<g class="kept-swatch"><path d="M1 10H29" stroke="currentColor" stroke-width="2"/><path d="M13 4V16M17 4V16" stroke="currentColor" stroke-width="2"/></g>"#.to_string(),
            s.legend_kept_aligned,
        );
    }
    #[cfg(feature = "views")]
    if p.caps.chained {
        entry(
            &mut o,
            super::chains::SWATCH.to_string(),
            &super::chains::legend(p.lang),
        );
    }
    let k = palette::checkpoint(1);
    if p.caps.sends_barriers {
        entry(
            &mut o,
            format!(
                r#"<g><circle cx="8" cy="10" r="3.6" fill="{k}"/><circle cx="20" cy="10" r="3.6" fill="none" stroke="{k}" stroke-width="1.2"/></g>"#
            ),
            s.legend_ticks,
        );
    }
    if p.caps.logs_back_edges {
        entry(&mut o, persisted.clone(), s.legend_log);
    }
    if p.caps.persists_in_flight && !p.caps.processes_initiate {
        entry(&mut o, persisted, s.legend_persisted);
    }
    if p.caps.may_slip {
        entry(
            &mut o,
            item_glyph(&glyph(record, 10.0, 5.0, 10.0).persisted(Some(1)).dashed()),
            s.legend_slips,
        );
    }
    if !p.caps.processes_initiate {
        entry(
            &mut o,
            item_glyph(&glyph(ItemKind::EndOfData, 10.0, 5.0, 10.0)),
            s.legend_eod,
        );
        entry(
            &mut o,
            item_glyph(&glyph(ItemKind::EndOfPartition, 10.0, 5.0, 10.0)),
            s.legend_eop,
        );
    }
    html! {
        <section class="legend" aria-label={s.legend}>
            { Html::from_html_unchecked((o + "</ul>").into()) }
        </section>
    }
}
