//! The "Why it matters" panel: why the preset on screen matters in the mode on screen. Its
//! texts are fetched the first time the panel opens in a language, or a lesson line needs them
//! (see `i18n::theory`), then kept for the rest of the visit; the app does the fetching.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::engine::BarrierMode;
use crate::i18n::theory::Texts;
use crate::i18n::Lang;

thread_local! {
    /// The languages whose texts have arrived.
    static LOADED: RefCell<Vec<(Lang, Rc<Texts>)>> = const { RefCell::new(Vec::new()) };
}

/// A language's texts, if they have arrived (natively: always, from the files themselves).
pub fn loaded(lang: Lang) -> Option<Rc<Texts>> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(texts) = Texts::parse(crate::i18n::theory::bundled(lang), lang) {
        return Some(Rc::new(texts));
    }
    LOADED.with(|l| {
        l.borrow()
            .iter()
            .find(|(k, _)| *k == lang)
            .map(|(_, t)| t.clone())
    })
}

/// Fetches a language's texts and keeps them for the rest of the visit; `done` gets them
/// (`None`: the fetch failed). The app is the one caller (for the panel and the lesson line).
pub fn load(lang: Lang, done: impl FnOnce(Option<Rc<Texts>>) + 'static) {
    fetch(lang, move |result| {
        done(result.ok().map(|texts| {
            let texts = Rc::new(texts);
            LOADED.with(|l| l.borrow_mut().push((lang, texts.clone())));
            texts
        }))
    });
}

#[derive(Properties, PartialEq, Clone)]
pub struct TheoryProps {
    pub lang: Lang,
    pub preset: AttrValue,
    pub mode: BarrierMode,
    /// Aligned with this timeout: the aligned text, then the file's note on the timeout.
    pub timeout: Option<u64>,
    /// Aligned with buffer debloating to this target: the aligned text, then the file's note.
    pub debloat: Option<u64>,
    /// The last fetch of the texts ended without them: a retry is offered.
    pub failed: bool,
    /// No checkpoint has started yet (`Some(true)`: no snapshot, Chandy-Lamport's): what the
    /// text describes is still ahead.
    pub before: Option<bool>,
    pub on_retry: Callback<MouseEvent>,
}

/// The panel: a plain function of its props, drawn again with the app, which fetches the
/// texts when the panel first opens and draws it again when they arrive.
pub fn theory(p: &TheoryProps) -> Html {
    let s = p.lang.strings();
    let texts = loaded(p.lang);
    let body = match &texts {
        Some(texts) => match texts.get(&p.preset, p.mode) {
            Some(text) => html! { <>
                if let Some(snapshot) = p.before {
                    <p class="hint" data-testid="theory-before">{ (s.theory_before)(snapshot) }</p>
                }
                <p>{ text.to_string() }</p>
                if let Some(note) = p.timeout.and_then(|t| texts.timeout_note(t)) {
                    <p data-testid="theory-timeout">{ note }</p>
                }
                if let Some(note) = p.debloat.and_then(|t| texts.debloat_note(t)) {
                    <p data-testid="theory-debloat">{ note }</p>
                }
            </> },
            None => html! { <p>{ s.theory_failed }</p> },
        },
        None if p.failed => html! {
            <p>{ s.theory_failed }{ " " }
                <button class="link" data-testid="theory-retry" onclick={p.on_retry.clone()}>{ s.theory_retry }</button>
            </p>
        },
        None => html! { <p class="hint">{ s.theory_loading }</p> },
    };
    html! {
        <aside class="theory" id="theory" data-testid="theory" aria-label={s.theory_title} tabindex="0"
            aria-busy={if texts.is_none() && !p.failed { "true" } else { "false" }}>
            { body }
        </aside>
    }
}

/// Fetches a language's file, relative to the page (so a copy under a sub-path finds its own),
/// and reads it.
fn fetch(lang: Lang, done: impl FnOnce(Result<Texts, String>) + 'static) {
    let url = crate::i18n::theory::file(lang);
    fetch_text(url.into(), move |r| {
        done(r.and_then(|text| Texts::parse(&text, lang)))
    });
}

/// Fetches a text file (a language's theory texts, a lesson): its text, or why not (the
/// browser's reason, or the HTTP status). The fetch itself is index.html's `absFetch`: a
/// promise and its text, which in Rust would be a future and its executor in every build
/// (1.2 kB gzip of the student's page).
#[cfg(target_arch = "wasm32")]
pub fn fetch_text(url: String, done: impl FnOnce(Result<String, String>) + 'static) {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// Calls `done(text, true)` once, or `done(why, false)`.
        #[wasm_bindgen(js_name = absFetch)]
        fn abs_fetch(url: &str, done: JsValue);
    }
    let done = Closure::once_into_js(move |text: String, ok: bool| {
        done(if ok { Ok(text) } else { Err(text) })
    });
    abs_fetch(&url, done);
}

#[cfg(not(target_arch = "wasm32"))]
pub fn fetch_text(url: String, done: impl FnOnce(Result<String, String>) + 'static) {
    done(Err(format!("{url} is fetched by the page")));
}
