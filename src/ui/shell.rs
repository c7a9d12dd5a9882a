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
    Some(with_graph_box(&without_folded_channels(&picture_only(
        &html,
    ))))
}

/// The compact drawing's folded channels left out (thousands of curves in three paths): the
/// picture draws the operators and their subtasks, and the app the channels once it starts.
/// `large`'s were 147 KB of its 211 KB, and on a slow phone their download and drawing, which
/// share the link and the processor with the WebAssembly, held Play back a second
/// (tests/e2e/load.bench.js; the figures are in the README).
fn without_folded_channels(html: &str) -> String {
    const FOLDED: &str = "<g class=\"channel folded\">";
    let Some(start) = html.find(FOLDED) else {
        return html.to_string();
    };
    // Its three paths hold no group: the first `</g>` after it closes it.
    match html[start..].find("</g>") {
        Some(len) => format!("{}{}", &html[..start], &html[start + len + 4..]),
        None => html.to_string(),
    }
}

/// The graph's SVG with what the app gives it once running, as attributes index.html applies:
/// its least box (`data-least="W H"`, `dataflow::least_size_of` from its view box and font) and,
/// drawn bundled, the bundled drawing's style rules (`data-rules`), which the second player
/// adds to the page when it starts.
fn with_graph_box(html: &str) -> String {
    // The graph's opening tag: the `<svg` before its class.
    let Some(at) = html
        .find(" class=\"graph\"")
        .and_then(|class| html[..class].rfind("<svg "))
    else {
        return html.to_string();
    };
    let Some(tag_end) = html[at..].find('>').map(|end| at + end) else {
        return html.to_string();
    };
    let tag = &html[at..tag_end];
    let attribute = |name: &str| {
        let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(&tag[start..start + tag[start..].find('"')?])
    };
    let number =
        |text: Option<&str>| text.and_then(|t| t.trim_end_matches("px").parse::<f64>().ok());
    let view_box: Vec<f64> = attribute("viewBox")
        .map(|v| v.split(' ').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    let (Some(font), &[_, _, width, height]) = (number(attribute("font-size")), &view_box[..])
    else {
        return html.to_string();
    };
    // The stage the graph is drawn on says whether it is bundled.
    let bundled = html[..at]
        .rfind(" class=\"stage")
        .and_then(|d| html[d + 8..].split('"').next())
        .is_some_and(|class| class.split(' ').any(|c| c == "bundled"));
    let (w, h) = crate::ui::components::dataflow::least_size_of(width, height, font, bundled);
    let mut added = format!(" data-least=\"{w} {h}\"");
    #[cfg(feature = "views")]
    if bundled {
        let rules = crate::ui::components::dataflow::BUNDLED_STYLE
            .replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;");
        added += &format!(" data-rules=\"{rules}\"");
    }
    format!("{}{added}{}", &html[..tag_end], &html[tag_end..])
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
    fn the_graph_carries_the_least_box_the_app_gives_it() {
        let value = |html: &str, name: &str| {
            let after = html.split(&format!("{name}=\"")).nth(1)?;
            after.split('"').next().map(str::to_string)
        };
        let html = first_picture("wordcount", None, Lang::En).unwrap();
        let least = value(&html, "data-least").unwrap();
        // wordcount's drawing is 1028 × 242 units, its font 12: its smallest text (0.88 em) at 9 px wants 0.85 px a unit.
        assert_eq!(least, "877 207");
        assert!(!html.contains("data-rules"));
        // A bundled drawing also carries its style rules, escaped for an attribute.
        let huge = first_picture("huge", None, Lang::En).unwrap();
        let rules = value(&huge, "data-rules").unwrap();
        assert!(rules.contains(".cells{"), "{rules}");
        assert!(huge.contains("data-least=\""));
    }

    #[test]
    fn a_compact_drawing_is_pictured_without_its_folded_channels() {
        let large = first_picture("large", None, Lang::En).unwrap();
        assert!(!large.contains("channel folded"));
        assert!(large.len() < 80_000, "{} bytes", large.len());
        // Its operators and every subtask are drawn, and the graph's box is the app's.
        assert_eq!(large.matches("class=\"subtask ").count(), 200);
        assert!(large.contains("data-least=\""));
        // A detailed drawing draws each channel on its own: all kept.
        let wordcount = first_picture("wordcount", None, Lang::En).unwrap();
        assert_eq!(without_folded_channels(&wordcount), wordcount);
        assert!(wordcount.contains("class=\"channel"));
    }

    #[test]
    fn only_whole_attributes_are_dropped() {
        assert_eq!(
            picture_only(r##"<a data-testid="x" href="#y" id="z">id="no"</a><label for="q">"##),
            r##"<a href="#y">id="no"</a><label>"##
        );
    }
}
