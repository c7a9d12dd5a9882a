//! Why each preset matters in each mode it runs in: the texts of the "Why it matters" panel,
//! tied to the seed's argument and pointed at what is on screen.
//!
//! They are not in the wasm. Each language's texts are a file (`static/theory/`, copied next
//! to `index.html`) that the page fetches the first time the panel is opened: the texts are
//! about 9 kB of the page's gzipped weight, and most visits never open them. The Simplified
//! Chinese file is the Traditional one converted, as its other strings are (`hans.rs`: a test
//! holds it to the Traditional one, and `UPDATE_THEORY=1` writes it).
//!
//! A file holds one section per text: a line `== <preset> <mode>` (the mode as the address
//! spells it), then the text on one line. Lines starting with `#` are comments. The tests read
//! the files themselves: every preset but the benchmarks has a text in every mode it runs in,
//! in every language, and no other. Two more sections are notes shown after a preset's
//! aligned text (and its lesson) when a variant of aligned in the mode menu runs it: `==
//! aligned-timeout` for "aligned, unaligned after T ms" (`{t}` is T) and `== aligned-debloat`
//! for "aligned, buffer debloating" (`{t}` is the target), whose lesson line adds `== lesson
//! aligned-debloat`; every file has all three. Sections `== lesson <preset> <mode>` are the lesson line
//! of a preset in a mode whose lesson differs from the preset's own (which is in the wasm):
//! the page fetches the file when it first shows such a mode.

use super::Lang;
use abs_engine::BarrierMode;
use abs_scenario::{ALIGNED_DEBLOAT_MODE, ALIGNED_TIMEOUT_MODE};

/// The section of the lesson line's note on buffer debloating.
const DEBLOAT_LESSON: &str = "lesson aligned-debloat";

/// One language's texts.
#[derive(Debug, PartialEq, Eq)]
pub struct Texts {
    texts: Vec<(String, BarrierMode, String)>,
    /// The `== lesson` sections.
    lessons: Vec<(String, BarrierMode, String)>,
    /// The notes of the variants of aligned (`== aligned-timeout`, `== aligned-debloat`),
    /// with `{t}` for the timeout or the target.
    notes: Vec<(&'static str, String)>,
}

impl Texts {
    /// Reads a file; a malformed one is an error naming its line.
    pub fn parse(file: &str, _lang: Lang) -> Result<Texts, String> {
        let mut texts = Vec::new();
        let mut notes = Vec::new();
        // The open section: a preset and mode (or the name of a note), and its line.
        type Section = (Result<(bool, String, BarrierMode), &'static str>, usize);
        let mut lessons = Vec::new();
        let mut section: Option<Section> = None;
        let mut text: Option<String> = None;
        let mut close =
            |section: &mut Option<Section>, text: &mut Option<String>| -> Result<(), String> {
                if let Some((key, line)) = section.take() {
                    let text = text.take().ok_or_else(|| match &key {
                        Ok((_, preset, mode)) => {
                            format!("line {line}: {preset} {mode} has no text")
                        }
                        Err(note) => format!("line {line}: {note} has no text"),
                    })?;
                    match key {
                        Ok((false, preset, mode)) => texts.push((preset, mode, text)),
                        Ok((true, preset, mode)) => lessons.push((preset, mode, text)),
                        Err(note) => notes.push((note, text)),
                    }
                }
                Ok(())
            };
        for (i, line) in file.lines().enumerate() {
            let number = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(head) = line.strip_prefix("== ") {
                close(&mut section, &mut text)?;
                if let Some(&note) = [ALIGNED_TIMEOUT_MODE, ALIGNED_DEBLOAT_MODE, DEBLOAT_LESSON]
                    .iter()
                    .find(|&&n| n == head)
                {
                    section = Some((Err(note), number));
                    continue;
                }
                let (lesson, head) = match head.strip_prefix("lesson ") {
                    Some(rest) => (true, rest),
                    None => (false, head),
                };
                let (preset, mode) = head
                    .split_once(' ')
                    .ok_or_else(|| format!("line {number}: `== <preset> <mode>` expected"))?;
                let mode = BarrierMode::ALL
                    .into_iter()
                    .find(|m| m.as_str() == mode)
                    .ok_or_else(|| {
                        format!(
                            "line {number}: no mode named {}",
                            abs_engine::text::Quoted(mode)
                        )
                    })?;
                section = Some((Ok((lesson, preset.to_string(), mode)), number));
            } else if section.is_none() {
                return Err(format!(
                    "line {number}: text before any `== <preset> <mode>`"
                ));
            } else if text.is_some() {
                return Err(format!("line {number}: a text is one line"));
            } else {
                text = Some(line.to_string());
            }
        }
        close(&mut section, &mut text)?;
        Ok(Texts {
            texts,
            lessons,
            notes,
        })
    }

    /// The note on aligned checkpoints with a timeout of `t` ms, if the file has one.
    pub fn timeout_note(&self, t: u64) -> Option<String> {
        self.note(ALIGNED_TIMEOUT_MODE, t)
    }

    /// The note on aligned checkpoints with buffer debloating to a target of `t` ms.
    pub fn debloat_note(&self, t: u64) -> Option<String> {
        self.note(ALIGNED_DEBLOAT_MODE, t)
    }

    /// The lesson line's note on buffer debloating to a target of `t` ms, after the preset's
    /// aligned lesson.
    pub fn debloat_lesson(&self, t: u64) -> Option<String> {
        self.note(DEBLOAT_LESSON, t)
    }

    /// A note of a variant of aligned, with `t` for `{t}`.
    fn note(&self, name: &str, t: u64) -> Option<String> {
        // By hand: `str::replace` brings a substring searcher (~0.5 KB gzip) into the page.
        let mut rest = self
            .notes
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| text.as_str())?;
        let mut note = String::new();
        while let Some(at) = rest.find('{') {
            note += &rest[..at];
            rest = &rest[at..];
            if let Some(after) = rest.strip_prefix("{t}") {
                note += &t.to_string();
                rest = after;
            } else {
                note.push('{');
                rest = &rest[1..];
            }
        }
        Some(note + rest)
    }

    /// The text for a preset in a mode, if there is one.
    pub fn get(&self, preset: &str, mode: BarrierMode) -> Option<&str> {
        self.texts
            .iter()
            .find(|(p, m, _)| p == preset && *m == mode)
            .map(|(_, _, t)| t.as_str())
    }

    /// The lesson line of a preset in a mode, if it differs from the preset's own.
    pub fn lesson(&self, preset: &str, mode: BarrierMode) -> Option<&str> {
        self.lessons
            .iter()
            .find(|(p, m, _)| p == preset && *m == mode)
            .map(|(_, _, t)| t.as_str())
    }

    /// Every preset and mode with a lesson line of its own, in the file's order.
    pub fn lesson_keys(&self) -> impl Iterator<Item = (&str, BarrierMode)> {
        self.lessons.iter().map(|(p, m, _)| (p.as_str(), *m))
    }

    /// Every preset and mode with a text, in the file's order.
    pub fn keys(&self) -> impl Iterator<Item = (&str, BarrierMode)> {
        self.texts.iter().map(|(p, m, _)| (p.as_str(), *m))
    }
}

/// Where a language's file is, relative to the page.
pub fn file(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "theory/en.txt",
        Lang::Zh => "theory/zh-Hant.txt",
        Lang::ZhHans => "theory/zh-Hans.txt",
    }
}

/// The files, for the tests (the page fetches them; the native build has them).
#[cfg(not(target_arch = "wasm32"))]
pub fn bundled(lang: Lang) -> &'static str {
    match lang {
        Lang::En => include_str!("../../../static/theory/en.txt"),
        Lang::Zh => include_str!("../../../static/theory/zh-Hant.txt"),
        Lang::ZhHans => include_str!("../../../static/theory/zh-Hans.txt"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_file_is_an_error_naming_its_line() {
        let cases = [
            ("text\n", "line 1: text before any"),
            (
                "== alignment\ntext\n",
                "line 1: `== <preset> <mode>` expected",
            ),
            (
                "== alignment sideways\ntext\n",
                "line 1: no mode named \"sideways\"",
            ),
            (
                "\n== alignment aligned\n",
                "line 2: alignment aligned has no text",
            ),
            (
                "== alignment aligned\none\ntwo\n",
                "line 3: a text is one line",
            ),
            (
                "== aligned-timeout\n",
                "line 1: aligned-timeout has no text",
            ),
        ];
        for (file, error) in cases {
            let got = Texts::parse(file, Lang::En).unwrap_err();
            assert!(got.starts_with(error), "{file:?}: {got}");
        }
        let ok = Texts::parse("# c\n== alignment aligned\n  why  \n", Lang::En).unwrap();
        assert_eq!(ok.get("alignment", BarrierMode::Aligned), Some("why"));
        assert_eq!(ok.get("alignment", BarrierMode::Unaligned), None);
        assert_eq!(ok.timeout_note(40), None);
        let note = Texts::parse("== aligned-timeout\n{t} ms, {x} {t}{\n", Lang::En).unwrap();
        assert_eq!(note.timeout_note(40).as_deref(), Some("40 ms, {x} 40{"));
    }

    #[test]
    fn every_file_has_the_timeout_note_with_its_duration() {
        for lang in Lang::ALL {
            let texts = Texts::parse(bundled(lang), lang).unwrap();
            let note = texts
                .timeout_note(47)
                .unwrap_or_else(|| panic!("{lang:?}: no aligned-timeout note"));
            assert!(note.contains("47 ms"), "{lang:?}: {note}");
            assert!(!note.contains("{t}"), "{lang:?}: {note}");
            if lang != Lang::En {
                // As the other Chinese texts: full-width punctuation, and a space between a
                // Chinese character and a Latin letter or digit.
                let han = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
                for c in [',', ';', ':', '(', ')', '?'] {
                    assert!(!note.contains(c), "{lang:?}: {c} in {note}");
                }
                let v: Vec<char> = note.chars().collect();
                for w in v.windows(2) {
                    assert!(
                        !(han(w[0]) && w[1].is_ascii_alphanumeric()
                            || w[0].is_ascii_alphanumeric() && han(w[1])),
                        "{lang:?}: no space in {}{}: {note}",
                        w[0],
                        w[1]
                    );
                }
            }
        }
    }

    #[test]
    fn simplified_chinese_is_converted_from_the_traditional_file() {
        let hant = Texts::parse(bundled(Lang::Zh), Lang::Zh).unwrap();
        let hans = Texts::parse(bundled(Lang::ZhHans), Lang::ZhHans).unwrap();
        let (preset, mode) = hant.keys().next().unwrap();
        let (t, s) = (
            hant.get(preset, mode).unwrap(),
            hans.get(preset, mode).unwrap(),
        );
        assert_ne!(t, s);
        assert_eq!(super::super::hans::to_hans(t), s);
    }
}
