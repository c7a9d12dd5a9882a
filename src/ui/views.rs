//! The second build (`bin/abs-views.rs`): the views a student's visit never opens, each a page
//! of its own that index.html loads for `?view=…` — the engineers' view of Flink checkpoints
//! (`view=flink`, `ui::flink`), the scenario editor (`view=edit`, `ui::edit`) and the search of
//! every run of a small system (`view=explore`, `ui::explore`), and the modes side by side
//! (`compare=aligned,unaligned,…`, `ui::compare`). They read the
//! playground's own address (the scenario, mode, seed and language it names) and link back to
//! it; what they share is here.

use wasm_bindgen::JsCast;
use yew::BaseComponent;

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
/// the Traditional as the page's other strings are.
pub fn pick(lang: crate::i18n::Lang, en: &str, zh: &str) -> String {
    use crate::i18n::Lang;
    match lang {
        Lang::En => en.to_string(),
        Lang::Zh => zh.to_string(),
        Lang::ZhHans => crate::i18n::hans::to_hans(zh),
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

/// Mounts the view the address asks for (`view=edit`: the editor; `view=explore`: every run of
/// a small system; otherwise the Flink view) in
/// the address's language.
pub fn start() {
    let document = web_sys::window().and_then(|w| w.document());
    let at = address();
    let edit = at.view.as_deref() == Some("edit");
    let explore = at.view.as_deref() == Some("explore");
    let compare = at.compare.is_some();
    let (code, title): (&str, String) = if compare {
        let lang = super::edit::lang(at.lang.as_deref());
        (lang.tag(), super::compare::words::Words(lang).short_title())
    } else if explore {
        let lang = super::edit::lang(at.lang.as_deref());
        (lang.tag(), super::explore::words::Words(lang).start())
    } else if edit {
        let lang = super::edit::lang(at.lang.as_deref());
        (lang.tag(), super::edit::words::Words(lang).title())
    } else {
        let lang = super::flink::words::ViewLang::from_param(at.lang.as_deref());
        let code = if lang == super::flink::words::ViewLang::Zh {
            "zh"
        } else {
            "en"
        };
        (code, lang.words().title.to_string())
    };
    if let Some(doc) = &document {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", code);
        }
        doc.set_title(&title);
    }
    // Mounted into the page's `#app`, as the playground is; the static shell goes at once (the
    // playground keeps it two frames for its largest paint, which these views do not chase).
    let root = document.as_ref().and_then(|d| d.get_element_by_id("app"));
    if compare {
        render::<super::compare::CompareView>(root);
    } else if explore {
        render::<super::explore::ExploreView>(root);
    } else if edit {
        render::<super::edit::EditorView>(root);
    } else {
        render::<super::flink::FlinkView>(root);
    }
    if let Some(boot) = document.and_then(|d| d.query_selector_all("body > .boot").ok()) {
        for i in 0..boot.length() {
            if let Some(element) = boot
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                element.remove();
            }
        }
    }
}

fn render<C: BaseComponent<Properties = ()>>(root: Option<web_sys::Element>) {
    match root {
        Some(root) => yew::Renderer::<C>::with_root(root).render(),
        None => yew::Renderer::<C>::new().render(),
    };
}
