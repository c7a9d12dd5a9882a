//! The "Why it matters" panel: why the preset on screen matters in the mode on screen. Its
//! texts are fetched the first time the panel opens in a language (see `i18n::theory`), then
//! kept for the rest of the visit.

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

/// Fetches a language's texts and keeps them for the rest of the visit; `done` gets them.
/// Not generic: the fetch's future is compiled once for both of its callers.
pub fn load(lang: Lang, done: Box<dyn FnOnce(Option<Rc<Texts>>)>) {
    fetch(lang, move |result| {
        done(result.ok().map(|texts| {
            let texts = Rc::new(texts);
            LOADED.with(|l| l.borrow_mut().push((lang, texts.clone())));
            texts
        }))
    });
}

#[derive(Clone, PartialEq)]
enum Status {
    Loading,
    Failed,
    Ready(Rc<Texts>),
}

#[derive(Properties, PartialEq, Clone)]
pub struct TheoryProps {
    pub lang: Lang,
    pub preset: AttrValue,
    pub mode: BarrierMode,
    /// Aligned with this timeout: the aligned text, then the file's note on the timeout.
    #[prop_or_default]
    pub timeout: Option<u64>,
}

#[function_component(Theory)]
pub fn theory(p: &TheoryProps) -> Html {
    let s = p.lang.strings();
    // What the panel shows, for the language it was loaded for.
    let status = use_state(|| {
        (
            p.lang,
            loaded(p.lang).map_or(Status::Loading, Status::Ready),
        )
    });
    let attempt = use_state(|| 0u32);
    {
        let status = status.clone();
        use_effect_with((p.lang, *attempt), move |&(lang, _)| match loaded(lang) {
            Some(texts) => status.set((lang, Status::Ready(texts))),
            None => {
                status.set((lang, Status::Loading));
                load(
                    lang,
                    Box::new(move |texts| {
                        status.set((lang, texts.map_or(Status::Failed, Status::Ready)));
                    }),
                );
            }
        });
    }
    let retry = {
        let attempt = attempt.clone();
        Callback::from(move |_: MouseEvent| attempt.set(*attempt + 1))
    };
    let shown = if status.0 == p.lang {
        &status.1
    } else {
        &Status::Loading
    };
    let body = match shown {
        Status::Ready(texts) => match texts.get(&p.preset, p.mode) {
            Some(text) => html! { <>
                <p>{ text.to_string() }</p>
                if let Some(note) = p.timeout.and_then(|t| texts.timeout_note(t)) {
                    <p data-testid="theory-timeout">{ note }</p>
                }
            </> },
            None => html! { <p>{ s.theory_failed }</p> },
        },
        Status::Loading => html! { <p class="hint">{ s.theory_loading }</p> },
        Status::Failed => html! {
            <p>{ s.theory_failed }{ " " }
                <button class="link" data-testid="theory-retry" onclick={retry}>{ s.theory_retry }</button>
            </p>
        },
    };
    html! {
        <aside class="theory" id="theory" data-testid="theory" aria-label={s.theory_title} tabindex="0"
            aria-busy={if *shown == Status::Loading { "true" } else { "false" }}>
            { body }
        </aside>
    }
}

/// Fetches a language's file, relative to the page (so a copy under a sub-path finds its own),
/// and reads it.
#[cfg(target_arch = "wasm32")]
fn fetch(lang: Lang, done: impl FnOnce(Result<Texts, String>) + 'static) {
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
            let url = crate::i18n::theory::file(lang);
            let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
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
            let text = text.as_string().ok_or("not text")?;
            Texts::parse(&text, lang)
        }
        .await;
        done(result);
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn fetch(lang: Lang, done: impl FnOnce(Result<Texts, String>) + 'static) {
    let _ = lang;
    done(Err("the texts are fetched by the page".into()));
}
