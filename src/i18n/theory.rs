//! Why each preset matters in each mode it runs in: the texts of the "Why it matters" panel,
//! tied to the seed's argument and pointed at what is on screen.
//!
//! They are not in the wasm. Each language's texts are a file (`static/theory/`, copied next
//! to `index.html`) that the page fetches the first time the panel is opened: the texts are
//! about 9 kB of the page's gzipped weight, and most visits never open them. Simplified Chinese
//! is converted from the Traditional file, as its other strings are.
//!
//! A file holds one section per text: a line `== <preset> <mode>` (the mode as the address
//! spells it), then the text on one line. Lines starting with `#` are comments. The tests read
//! the files themselves: every preset but the benchmarks has a text in every mode it runs in,
//! in every language, and no other.

use super::Lang;
use crate::engine::BarrierMode;

/// One language's texts.
#[derive(Debug, PartialEq, Eq)]
pub struct Texts(Vec<(String, BarrierMode, String)>);

impl Texts {
    /// Reads a file; a malformed one is an error naming its line.
    pub fn parse(file: &str, lang: Lang) -> Result<Texts, String> {
        let mut texts = Vec::new();
        let mut section: Option<(String, BarrierMode, usize)> = None;
        let mut text: Option<String> = None;
        let mut close = |section: &mut Option<(String, BarrierMode, usize)>,
                         text: &mut Option<String>|
         -> Result<(), String> {
            if let Some((preset, mode, line)) = section.take() {
                let text = text
                    .take()
                    .ok_or_else(|| format!("line {line}: {preset} {mode} has no text"))?;
                let text = match lang {
                    #[cfg(feature = "zh")]
                    Lang::ZhHans => super::hans::to_hans(&text),
                    _ => text,
                };
                texts.push((preset, mode, text));
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
                let (preset, mode) = head
                    .split_once(' ')
                    .ok_or_else(|| format!("line {number}: `== <preset> <mode>` expected"))?;
                let mode = BarrierMode::ALL
                    .into_iter()
                    .find(|m| m.as_str() == mode)
                    .ok_or_else(|| {
                        format!("line {number}: no mode named {}", crate::text::Quoted(mode))
                    })?;
                section = Some((preset.to_string(), mode, number));
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
        Ok(Texts(texts))
    }

    /// The text for a preset in a mode, if there is one.
    pub fn get(&self, preset: &str, mode: BarrierMode) -> Option<&str> {
        self.0
            .iter()
            .find(|(p, m, _)| p == preset && *m == mode)
            .map(|(_, _, t)| t.as_str())
    }

    /// Every preset and mode with a text, in the file's order.
    pub fn keys(&self) -> impl Iterator<Item = (&str, BarrierMode)> {
        self.0.iter().map(|(p, m, _)| (p.as_str(), *m))
    }
}

/// Where a language's file is, relative to the page.
pub fn file(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "theory/en.txt",
        Lang::Zh | Lang::ZhHans => "theory/zh-Hant.txt",
    }
}

/// The files, for the tests (the page fetches them).
#[cfg(test)]
pub(crate) fn bundled(lang: Lang) -> &'static str {
    match lang {
        Lang::En => include_str!("../../static/theory/en.txt"),
        Lang::Zh | Lang::ZhHans => include_str!("../../static/theory/zh-Hant.txt"),
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
        ];
        for (file, error) in cases {
            let got = Texts::parse(file, Lang::En).unwrap_err();
            assert!(got.starts_with(error), "{file:?}: {got}");
        }
        let ok = Texts::parse("# c\n== alignment aligned\n  why  \n", Lang::En).unwrap();
        assert_eq!(ok.get("alignment", BarrierMode::Aligned), Some("why"));
        assert_eq!(ok.get("alignment", BarrierMode::Unaligned), None);
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
