//! What the pages beside the playground share — the views of the second build, the lesson
//! page and the second player: the playground's address as they read it (the scenario, mode,
//! seed and language it names), the link back to it, the language a `?lang=` asks for, a
//! sentence in the page's language, and their style sheets added to the page's one.

use wasm_bindgen::JsCast;

use crate::scenario::codec::LinkError;
use crate::scenario::{codec, Scenario};
use crate::ui::permalink::{encode, preset_or_default, resolve_for};

/// What the address holds for a view: the playground's scenario and language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Address {
    /// Which view (`edit`, `explore`, `flink`).
    pub view: Option<String>,
    /// The modes the compare view sets side by side (`compare=aligned,unaligned`).
    pub compare: Option<String>,
    pub preset: Option<String>,
    pub scenario: Option<String>,
    pub mode: Option<String>,
    pub seed: Option<String>,
    pub lang: Option<String>,
    /// The playground page the view was opened from: this address without `view`.
    pub back: String,
}

impl Address {
    /// The scenario the playground runs at this address (its preset or whole scenario, its
    /// mode and seed, resolved as the playground resolves them; unknown values fall back to
    /// the defaults), or why its `scenario=` cannot be read.
    pub fn playground_scenario(&self) -> Result<Scenario, LinkError> {
        let mut notices = Vec::new();
        let chosen = match &self.scenario {
            Some(code) => codec::decode(code)?,
            None => preset_or_default(self.preset.as_deref(), &mut notices),
        };
        let (mut chosen, _, _) = resolve_for(chosen, self.mode.as_deref(), None, &mut notices);
        if let Some(seed) = self.seed.as_deref().and_then(|s| s.parse::<u64>().ok()) {
            chosen.seed = seed;
        }
        Ok(chosen)
    }
}

#[cfg(target_arch = "wasm32")]
pub fn address() -> Address {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return Address::default();
    };
    let search = location.search().unwrap_or_default();
    let Ok(p) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Address::default();
    };
    let read = Address {
        view: p.get("view"),
        compare: p.get("compare"),
        preset: p.get("preset"),
        scenario: p.get("scenario"),
        mode: p.get("mode"),
        seed: p.get("seed"),
        lang: p.get("lang"),
        back: String::new(),
    };
    p.delete("view");
    p.delete("compare");
    let rest = String::from(p.to_string());
    Address {
        back: if rest.is_empty() {
            "?".into()
        } else {
            format!("?{rest}")
        },
        ..read
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn address() -> Address {
    Address::default()
}

/// A view's words in `lang`: the English text or the Chinese one, Simplified converted from
/// the Traditional as the page's other strings are (with the few characters only these pages
/// use, `lesson::words::hans`).
pub fn pick(lang: crate::i18n::Lang, en: &str, zh: &str) -> String {
    use crate::i18n::Lang;
    match lang {
        Lang::En => en.to_string(),
        Lang::Zh => zh.to_string(),
        Lang::ZhHans => crate::ui::lesson::words::hans(zh),
    }
}

/// The playground's address that runs `scenario` from step 0: the scenario whole, compressed
/// (`scenario::codec`), in its own mode and seed, in the view's language.
pub fn playground_link(scenario: &Scenario, lang: Option<&str>) -> String {
    let mut link = format!("?scenario={}", codec::encode(scenario));
    if let Some(lang) = lang {
        link += &format!("&lang={}", encode(lang));
    }
    // A job of real size plays in the build that draws it bundled (index.html's `big`).
    if scenario.channel_count() > crate::ui::layout::BUNDLED_MIN_CHANNELS as u64 {
        link += "&big";
    }
    link
}

/// Appends a view's style rules to the page's style sheet, through the style object model: a
/// `<style>` element of its own would be refused by the page's content security policy, which
/// allows only index.html's. The rules are not in that sheet, which every student loads.
pub fn add_style(rules: &str) {
    let sheet = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.style_sheets().item(0))
        .and_then(|s| s.dyn_into::<web_sys::CssStyleSheet>().ok());
    let Some(sheet) = sheet else {
        return;
    };
    // One rule at a time: a rule ends at a `}` outside any braces (an `@media` block holds
    // rules of its own).
    let (mut depth, mut start) = (0u32, 0);
    for (i, c) in rules.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let end = sheet.css_rules().map(|r| r.length()).unwrap_or(0);
                    let _ = sheet.insert_rule_with_index(&rules[start..=i], end);
                    start = i + 1;
                }
            }
            _ => {}
        }
    }
}

/// The language a `?lang=` value asks for; English when absent or unknown.
pub fn lang(param: Option<&str>) -> crate::i18n::Lang {
    param
        .and_then(crate::i18n::Lang::from_code)
        .unwrap_or(crate::i18n::Lang::En)
}
