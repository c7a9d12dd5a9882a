//! Where the lesson page's lesson comes from and where its progress goes: fetched (a built-in
//! lesson or a file), opened from the disk, read and checked, kept in the browser.

use std::rc::Rc;

use yew::prelude::*;

use super::words::{say, Say};
use super::{Act, LessonRun};
use crate::i18n::Lang;

/// A lesson's broken steps, worded: "Step N: why".
pub(super) fn problems(lesson: &crate::lesson::Lesson, lang: Lang) -> Vec<String> {
    super::check(lesson)
        .into_iter()
        .map(|(i, p)| {
            let why = match &p {
                super::Problem::Unreachable(u) => say(lang, Say::Unreachable(u)),
                super::Problem::NoAnswer(n) => say(lang, Say::NoAnswer(*n)),
            };
            say(lang, Say::StepProblem(i + 1, &why))
        })
        .collect()
}

/// The browser's storage, where progress is kept.
#[cfg(target_arch = "wasm32")]
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn key(source: &str) -> String {
    format!("abs-lesson:{source}")
}

/// Keeps a lesson's progress in the browser (`LessonRun::progress`).
pub(super) fn keep(l: &LessonRun) {
    #[cfg(target_arch = "wasm32")]
    if let Some(s) = storage() {
        let _ = s.set_item(&key(&l.source), &l.progress());
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = key(&l.source);
}

/// Fetches the lesson `source` names (a built-in one, or a file on this origin or the one the
/// address's `origin` allows) and hands it over with the progress kept for it, or says why it
/// cannot be had.
pub(super) fn open(source: String, lang: Lang, dispatch: Callback<Act>) {
    #[cfg(target_arch = "wasm32")]
    let (here, allowed) = (
        web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default(),
        crate::ui::host_link::origin(),
    );
    #[cfg(not(target_arch = "wasm32"))]
    let (here, allowed) = (String::new(), None::<String>);
    let url = match super::lesson_url(&source, lang, &here, allowed.as_deref()) {
        Ok(url) => url,
        Err(list) => {
            let why = say(
                lang,
                Say::NotFound {
                    source: &source,
                    list: &list,
                },
            );
            return dispatch.emit(Act::Failed(why));
        }
    };
    crate::ui::components::theory::fetch_text(url, move |result| {
        dispatch.emit(read(source, result, lang));
    });
}

/// What a lesson's text, fetched or opened from disk, makes: the lesson with the progress
/// kept for it, or why not, worded.
fn read(source: String, text: Result<String, String>, lang: Lang) -> Act {
    let text = match text {
        Ok(text) => text,
        Err(why) => {
            return Act::Failed(say(
                lang,
                Say::Unfetched {
                    source: &source,
                    why: &why,
                },
            ))
        }
    };
    match crate::scenario::read_lesson(&text) {
        Ok(lesson) => {
            #[cfg(target_arch = "wasm32")]
            let kept = storage().and_then(|s| s.get_item(&key(&source)).ok().flatten());
            #[cfg(not(target_arch = "wasm32"))]
            let kept = None;
            Act::Loaded(source, Rc::new(super::in_lang(lesson, lang)), kept)
        }
        Err((line, column, message)) => Act::Failed(say(
            lang,
            Say::Unreadable {
                source: &source,
                line,
                column,
                why: &lang.syntax_words(&message),
            },
        )),
    }
}

/// A lesson file the student or teacher opened from their disk.
pub(super) fn open_file(e: Event, lang: Lang, on: Callback<Act>) {
    #[cfg(target_arch = "wasm32")]
    {
        let Some(file) = e
            .target_dyn_into::<web_sys::HtmlInputElement>()
            .and_then(|i| i.files())
            .and_then(|f| f.get(0))
        else {
            return;
        };
        yew::platform::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string())
                .ok_or_else(|| "not text".to_string());
            on.emit(read(file.name(), text, lang));
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (e, lang, on);
}
