//! What an exported picture says around the dataflow, read from the page as it is: above it
//! the scenario and mode, the step and the time, and the narration of this step; under it the
//! legend. On a slide the picture is read without the page.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Document, Element};

const NS: &str = "http://www.w3.org/2000/svg";
/// Margin and line heights, in the picture's units (the graph's).
const PAD: f64 = 12.0;
const TITLE: (f64, &str) = (16.0, "600 16px system-ui, sans-serif");
const TEXT: (f64, &str) = (12.0, "12px system-ui, sans-serif");
const LEGEND: (f64, &str) = (11.0, "11px system-ui, sans-serif");
/// The page's legend swatches are 30 × 20.
const SWATCH: (f64, f64) = (30.0, 20.0);

/// The rules the caption's text is drawn with (in the picture's own style sheet).
pub const RULES: &str = ".export-title{font:600 16px system-ui,sans-serif;fill:var(--fg)}\
.export-text{font:12px system-ui,sans-serif;fill:var(--fg)}\
.export-muted{font:12px system-ui,sans-serif;fill:var(--muted)}\
.export-legend{font:11px system-ui,sans-serif;fill:var(--muted)}";

/// Widths of text as the picture draws it (a canvas of the page's fonts).
pub struct Measure(CanvasRenderingContext2d);

impl Measure {
    pub fn new(doc: &Document) -> Option<Measure> {
        let canvas = doc
            .create_element("canvas")
            .ok()?
            .dyn_into::<web_sys::HtmlCanvasElement>()
            .ok()?;
        let ctx = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(Measure(ctx))
    }

    fn width(&self, font: &str, text: &str) -> f64 {
        self.0.set_font(font);
        self.0.measure_text(text).map_or(0.0, |m| m.width())
    }

    /// `text` in lines no wider than `max`: broken at spaces, and between any two Chinese
    /// characters (which have none).
    fn wrap(&self, font: &str, text: &str, max: f64) -> Vec<String> {
        let mut lines = Vec::new();
        let mut line = String::new();
        for token in tokens(text) {
            let tried = if line.is_empty() {
                token.trim_start().to_string()
            } else {
                line.clone() + token
            };
            if !line.is_empty() && self.width(font, &tried) > max {
                lines.push(std::mem::take(&mut line));
                line = token.trim_start().to_string();
            } else {
                line = tried;
            }
        }
        if !line.trim().is_empty() {
            lines.push(line);
        }
        lines
    }
}

/// Pieces a line may break before: a word with the spaces before it, or one wide character.
fn tokens(text: &str) -> Vec<&str> {
    let wide = |c: char| c > '\u{2e7f}';
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_word = false;
    for (i, c) in text.char_indices() {
        let breaks = wide(c) || (c == ' ' && in_word);
        if breaks && i > start {
            out.push(&text[start..i]);
            start = i;
        }
        in_word = !wide(c) && c != ' ';
        if wide(c) {
            out.push(&text[i..i + c.len_utf8()]);
            start = i + c.len_utf8();
            in_word = false;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

fn text_of(doc: &Document, selector: &str) -> String {
    doc.query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// The text of a menu's chosen entry.
fn chosen(doc: &Document, testid: &str) -> String {
    text_of(doc, &format!("[data-testid={testid}] option:checked"))
}

/// Adds a line of text at (`x`, `y`) to `parent`.
fn text(parent: &Element, class: &str, x: f64, y: f64, content: &str) -> Option<()> {
    let t = parent
        .owner_document()?
        .create_element_ns(Some(NS), "text")
        .ok()?;
    let _ = t.set_attribute("class", class);
    let _ = t.set_attribute("x", &format!("{x:.0}"));
    let _ = t.set_attribute("y", &format!("{y:.0}"));
    t.set_text_content(Some(content));
    parent.append_child(&t).ok().map(|_| ())
}

/// The heading: scenario and mode, step and time, this step's narration; laid out in `width`.
/// Its group (drawn from y = 0 down) and height.
pub fn heading(doc: &Document, m: &Measure, width: f64) -> Option<(Element, f64)> {
    let g = doc.create_element_ns(Some(NS), "g").ok()?;
    let _ = g.set_attribute("data-testid", "export-heading");
    let mut title = text_of(doc, "[data-testid=lesson] strong");
    if title.is_empty() {
        title = chosen(doc, "preset");
    }
    let mode = chosen(doc, "mode");
    if !mode.is_empty() {
        title = format!("{title} — {mode}");
    }
    let moment = format!(
        "{}  ·  {}",
        text_of(doc, "[data-testid=step-counter]"),
        text_of(doc, ".controls .clock")
    );
    let said = text_of(doc, "[data-testid=narration-live]");
    let max = width - 2.0 * PAD;
    let mut y = PAD;
    for line in m.wrap(TITLE.1, &title, max) {
        y += TITLE.0 * 1.25;
        text(&g, "export-title", PAD, y, &line)?;
    }
    y += TEXT.0 * 1.5;
    text(&g, "export-muted", PAD, y, &moment)?;
    for line in m.wrap(TEXT.1, &said, max) {
        y += TEXT.0 * 1.4;
        text(&g, "export-text", PAD, y, &line)?;
    }
    Some((g, y + PAD))
}

/// The page's legend: each swatch with its words, in rows no wider than `width`. Its group
/// (drawn from y = 0 down) and height; none when the page shows no legend.
pub fn legend(doc: &Document, m: &Measure, width: f64) -> Option<(Element, f64)> {
    let items = doc.query_selector_all(".legend li").ok()?;
    if items.length() == 0 {
        return None;
    }
    let g = doc.create_element_ns(Some(NS), "g").ok()?;
    let _ = g.set_attribute("data-testid", "export-legend");
    let (mut x, mut y) = (PAD, PAD);
    let row = SWATCH.1 + 6.0;
    for i in 0..items.length() {
        let Some(li) = items.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        // The words only: a swatch may have a label of its own (a barrier's number).
        let words = li
            .query_selector("span")
            .ok()
            .flatten()
            .unwrap_or_else(|| li.clone())
            .text_content()
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default();
        let wide = SWATCH.0 + 6.0 + m.width(LEGEND.1, &words) + 18.0;
        if x > PAD && x + wide > width - PAD {
            (x, y) = (PAD, y + row);
        }
        if let Some(swatch) = li.query_selector("svg").ok().flatten() {
            let copy = swatch
                .clone_node_with_deep(true)
                .ok()?
                .dyn_into::<Element>()
                .ok()?;
            let _ = copy.set_attribute("x", &format!("{x:.0}"));
            let _ = copy.set_attribute("y", &format!("{y:.0}"));
            g.append_child(&copy).ok()?;
        }
        let baseline = y + SWATCH.1 / 2.0 + LEGEND.0 * 0.35;
        text(&g, "export-legend", x + SWATCH.0 + 6.0, baseline, &words)?;
        x += wide;
    }
    Some((g, y + row + PAD))
}

#[cfg(test)]
mod tests {
    use super::tokens;

    #[test]
    fn lines_break_at_spaces_and_between_chinese_characters() {
        assert_eq!(
            tokens("Barrier 1 reaches Merge"),
            ["Barrier", " 1", " reaches", " Merge"]
        );
        assert_eq!(
            tokens("屏障到達Merge。"),
            ["屏", "障", "到", "達", "Merge", "。"]
        );
    }
}
