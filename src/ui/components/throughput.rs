//! The sinks' throughput over the run: records that reached a sink per bar of virtual time,
//! with the checkpoints' triggers and completions as thin lines in their colours — so a student
//! sees throughput drop while an aligned checkpoint blocks an input under backpressure.
//!
//! The scale is what the sinks can take (`capacity`), which depends on the job and not on the
//! barrier mode, so the same preset in two modes is drawn on the same axis; the heading gives
//! the average beside the latest bar, so a burst after an alignment is not mistaken for speed.

use std::fmt::Write;

use yew::prelude::*;

use crate::engine::view::MarkKind;
use crate::i18n::Lang;
use crate::ui::fmt::px as fmt;
use crate::ui::palette;
use crate::ui::run::{Mark, THROUGHPUT_BUCKET};

#[derive(Properties, PartialEq, Clone)]
pub struct ThroughputProps {
    /// Index of the first bar's bucket.
    pub first: u64,
    pub bars: Vec<u32>,
    pub marks: Vec<Mark>,
    /// The most records the sinks can take per bar (their processing time allows no more):
    /// the top of the axis.
    pub capacity: u32,
    pub lang: Lang,
}

/// The most records the sinks (tasks without outputs) can take per bar of virtual time.
pub fn sink_capacity(phys: &crate::engine::Physical) -> u32 {
    phys.tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.outputs.iter().all(|o| o.is_empty()))
        .map(|(i, _)| {
            let time = phys.operator_of(i as u32).processing_time.max(1);
            THROUGHPUT_BUCKET.div_ceil(time) as u32
        })
        .fold(0u32, u32::saturating_add)
}

const W: f64 = 240.0;
const H: f64 = 40.0;
/// Bars drawn at most (the latest).
const BARS: usize = 120;

pub fn throughput(p: &ThroughputProps) -> Html {
    let s = p.lang.strings();
    let skip = p.bars.len().saturating_sub(BARS);
    let bars = &p.bars[skip..];
    let first = p.first + skip as u64;
    // Bars fill the width as the run grows, up to BARS of them.
    let bar_w = W / bars.len().clamp(30, BARS) as f64;
    let top = bars
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(p.capacity)
        .max(1);
    let mut d = String::new();
    for (i, &v) in bars.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let h = H * f64::from(v) / f64::from(top);
        d.push_str(&format!(
            "M{} {}h{}v{}h-{}z",
            fmt(i as f64 * bar_w),
            fmt(H - h),
            fmt(bar_w * 0.8),
            fmt(h),
            fmt(bar_w * 0.8)
        ));
    }
    // Display only: written as one string of markup.
    let mut lines = String::new();
    for m in &p.marks {
        let bucket = m.time / THROUGHPUT_BUCKET;
        if bucket < first || matches!(m.kind, MarkKind::Aborted | MarkKind::Failed) {
            continue;
        }
        let x = fmt((bucket - first) as f64 * bar_w + bar_w * 0.4);
        let _ = write!(
            lines,
            r#"<line x1="{x}" x2="{x}" y1="0" y2="{}" stroke="{}" stroke-width="1"{}/>"#,
            fmt(H),
            palette::checkpoint(m.checkpoint),
            if m.kind == MarkKind::Triggered {
                r#" stroke-dasharray="2 2""#
            } else {
                ""
            }
        );
    }
    // The last bar is still filling: report the one before it, and the average of the rest.
    let complete = &p.bars[..p.bars.len().saturating_sub(1)];
    let latest = complete.last().copied().unwrap_or(0);
    let average = if complete.is_empty() {
        0.0
    } else {
        complete.iter().map(|&v| f64::from(v)).sum::<f64>() / complete.len() as f64
    };
    let hint = (s.throughput_hint)(top);
    let markup = format!(
        r#"<h2>{}<span class="figure" data-testid="throughput-latest">{}</span></h2><div class="chart"><div class="y-axis" data-testid="throughput-axis" aria-hidden="true"><span>{top}</span><span>0</span></div><svg viewBox="0 0 {} {}" preserveAspectRatio="none" role="img" aria-label="{hint}"><path class="bars" d="{d}"/>{lines}</svg></div><p class="hint">{hint}</p>"#,
        s.throughput_title,
        (s.throughput_latest)(latest, &crate::ui::fmt::num(average, 1), THROUGHPUT_BUCKET),
        fmt(W),
        fmt(H),
    );
    html! {
        <section class="throughput" data-testid="throughput" aria-label={s.throughput_title}>
            { Html::from_html_unchecked(markup.into()) }
        </section>
    }
}
