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
/// browser's reason, or the HTTP status).
#[cfg(target_arch = "wasm32")]
pub fn fetch_text(url: String, done: impl FnOnce(Result<String, String>) + 'static) {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;

    let describe = |e: wasm_bindgen::JsValue| {
        e.as_string()
            .or_else(|| {
                e.dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
            })
            .unwrap_or_else(|| "the request failed".into())
    };
    yew::platform::spawn_local(async move {
        let result = async {
            let window = web_sys::window().ok_or("no window")?;
            let response: web_sys::Response = JsFuture::from(window.fetch_with_str(&url))
                .await
                .map_err(describe)?
                .dyn_into()
                .map_err(describe)?;
            if !response.ok() {
                return Err(format!("{url}: HTTP {}", response.status()));
            }
            let text = JsFuture::from(response.text().map_err(describe)?)
                .await
                .map_err(describe)?;
            text.as_string().ok_or_else(|| "not text".to_string())
        }
        .await;
        done(result);
    });
}

#[cfg(not(target_arch = "wasm32"))]
pub fn fetch_text(url: String, done: impl FnOnce(Result<String, String>) + 'static) {
    done(Err(format!("{url} is fetched by the page")));
}
