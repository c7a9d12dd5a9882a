//! The first picture of a page: the app as it draws a preset at step 0, in a mode and a
//! language, rendered natively when the site is built (`abs-sim shells`, run by the build) and
//! shown by index.html while the page's WebAssembly is still on its way. It is a picture, not
//! the app: nothing in it answers, and it names nothing the tests or a host page look for (no
//! `data-testid`, no `id`), so that only the app, once in, is found.

use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use crate::i18n::Lang;

/// The app at step 0 for the address `?preset=PRESET[&mode=MODE]&lang=LANG`, as HTML without
/// the hooks the live page is found by; `None` if the rendering did not finish.
pub fn first_picture(preset: &str, mode: Option<&str>, lang: Lang) -> Option<String> {
    let html = super::address::with_address(preset, mode, lang.code(), || {
        block_on(
            yew::LocalServerRenderer::<super::App>::new()
                .hydratable(false)
                .render(),
        )
    })?;
    Some(picture_only(&html))
}

/// `html` without the attributes that would make a second of something the page has once:
/// test hooks, ids and what points at ids.
fn picture_only(html: &str) -> String {
    const DROPPED: [&str; 6] = [
        " data-testid=\"",
        " id=\"",
        " for=\"",
        " aria-controls=\"",
        " aria-labelledby=\"",
        " aria-describedby=\"",
    ];
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some((at, name)) = DROPPED
        .iter()
        .filter_map(|name| rest.find(name).map(|at| (at, name)))
        .min()
    {
        out.push_str(&rest[..at]);
        let value = &rest[at + name.len()..];
        // Yew escapes a quote inside an attribute's value, so the next quote ends it.
        rest = match value.find('"') {
            Some(end) => &value[end + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// Runs a future that needs no outside event to finish (a rendering without suspense) on this
/// thread; `None` if it is still waiting after many polls.
fn block_on<F: Future>(future: F) -> Option<F::Output> {
    struct Awake;
    impl Wake for Awake {
        fn wake(self: Arc<Self>) {}
    }
    let waker = Waker::from(Arc::new(Awake));
    let mut context = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    for _ in 0..10_000 {
        if let Poll::Ready(out) = future.as_mut().poll(&mut context) {
            return Some(out);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_names_nothing_the_app_is_found_by() {
        let html = first_picture("wordcount", Some("unaligned"), Lang::En).unwrap();
        for hook in [
            "data-testid",
            " id=",
            " for=",
            "aria-controls",
            "aria-labelledby",
        ] {
            assert!(!html.contains(hook), "{hook} in the picture");
        }
        // It is the app as the address asks for it: the preset, its mode, its graph.
        assert!(html.contains("<option value=\"wordcount\" selected"));
        assert!(html.contains("<option value=\"unaligned\" selected"));
        assert!(html.contains("class=\"graph"), "no graph drawn");
        assert!(
            !html.contains("style="),
            "an inline style the page's policy refuses"
        );
    }

    #[test]
    fn each_language_is_its_own_picture() {
        let en = first_picture("alignment", None, Lang::En).unwrap();
        let hant = first_picture("alignment", None, Lang::Zh).unwrap();
        let hans = first_picture("alignment", None, Lang::ZhHans).unwrap();
        assert!(en.contains("Alignment: two inputs, one slow channel"));
        assert!(hant.contains("對齊") && !hant.contains("Alignment: two inputs"));
        assert!(hans.contains("对齐") && !hans.contains("對齊"));
    }

    #[test]
    fn only_whole_attributes_are_dropped() {
        assert_eq!(
            picture_only(r##"<a data-testid="x" href="#y" id="z">id="no"</a><label for="q">"##),
            r##"<a href="#y">id="no"</a><label>"##
        );
    }
}
