//! Colours of the visual vocabulary, the same in every view (SVG and canvas).
//!
//! Barriers and everything else about checkpoint n share one colour from a fixed palette;
//! none is the only cue (labels, shapes and patterns carry the meaning too).

use crate::engine::record::{Payload, Record};

/// Checkpoint colours, readable on the light and the dark background.
pub const CHECKPOINT: [&str; 6] = [
    "#7c3aed", "#db2777", "#0d9488", "#2563eb", "#b45309", "#16a34a",
];

/// A blocked input: dashed, with a lock, in this colour.
pub const BLOCKED: &str = "#e8590c";

/// Record colours when the key matters (words): muted, distinct from the checkpoint colours.
const KEYED: [&str; 8] = [
    "#64748b", "#0e7490", "#a16207", "#4d7c0f", "#9f1239", "#6d28d9", "#0f766e", "#9a3412",
];

pub fn checkpoint(n: u64) -> &'static str {
    CHECKPOINT[(n.saturating_sub(1) % CHECKPOINT.len() as u64) as usize]
}

/// The class that gives an element and what it holds checkpoint `n`'s colour: style.css's
/// `.k1`–`.k6` set `--k` to [`CHECKPOINT`]'s colours (a test holds them together), and its
/// rules use it. A class, not an inline style: the page's content security policy refuses
/// inline styles.
pub fn checkpoint_class(n: u64) -> &'static str {
    const CLASSES: [&str; CHECKPOINT.len()] = ["k1", "k2", "k3", "k4", "k5", "k6"];
    CLASSES[(n.saturating_sub(1) % CLASSES.len() as u64) as usize]
}

/// A record's colour: by word where records are keyed, `neutral` otherwise.
pub fn record<'a>(r: &Record, neutral: &'a str) -> &'a str {
    match r.payload {
        Payload::Word(w) | Payload::Count { word: w, .. } | Payload::Round { word: w, .. } => {
            KEYED[(w.wrapping_mul(2_654_435_761) >> 29) as usize % KEYED.len()]
        }
        Payload::Line(_) => neutral,
        // The token is gold, money green: what the conservation checks count.
        Payload::Token => "#b7791f",
        Payload::Transfer { .. } => "#15803d",
    }
}

/// Colours that follow the light or dark scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub record: &'static str,
    pub text: &'static str,
    pub halo: &'static str,
    pub muted: &'static str,
}

pub const LIGHT: Theme = Theme {
    record: "#57606a",
    text: "#1f2328",
    halo: "#ffffff",
    muted: "#8c959f",
};

pub const DARK: Theme = Theme {
    record: "#c9d1d9",
    text: "#e6e8eb",
    halo: "#16181c",
    muted: "#6e7681",
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The style sheet's `.kN` classes give checkpoint `n` the colour `checkpoint(n)` does.
    #[test]
    fn the_style_sheet_colours_each_checkpoint_class_as_the_palette_does() {
        let css = include_str!("../../static/style.css");
        for n in 1..=2 * CHECKPOINT.len() as u64 {
            let rule = format!(".{} {{ --k: {}; }}", checkpoint_class(n), checkpoint(n));
            assert!(css.contains(&rule), "style.css lacks `{rule}`");
        }
    }

    #[test]
    fn checkpoint_colours_cycle_from_one() {
        assert_eq!(checkpoint(1), CHECKPOINT[0]);
        assert_eq!(checkpoint(7), CHECKPOINT[0]);
        assert_eq!(checkpoint(0), CHECKPOINT[0]);
        assert!(!CHECKPOINT.contains(&BLOCKED));
    }
}
