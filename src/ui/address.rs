//! The browser's address: what it asks for (read once, at start, into the first playback),
//! keeping it in sync with what is shown, links to the moment on screen, and the few facts
//! of the browser the page starts from (its language, its width, reduced motion).
//! The link format itself — how a moment is spelt — is `permalink.rs`'s.

use super::permalink::{preset_or_default, resolve_for, LinkParams, Moment};
use super::state::{Leave, Notice, Playback, Tab};
use crate::i18n::Lang;

/// What the address asks for (read once, at start): `preset`, `mode`, `lang`, `seed`, and a
/// moment (`step`, `choices`, `open`, `sel`, `panel`; see `permalink.rs`).
#[derive(Default)]
pub struct Query {
    preset: Option<String>,
    /// A whole scenario, compressed (`scenario::codec`); wins over `preset`.
    scenario: Option<String>,
    mode: Option<String>,
    lang: Option<String>,
    seed: Option<String>,
    link: LinkParams,
    /// `embed`: the compact view for an `<iframe>`; `speed` (1 = real pace), `autoplay`.
    embed: bool,
    speed: Option<String>,
    autoplay: bool,
    /// `theory`: "Why it matters" open (written when the page loads again in another language).
    pub theory: bool,
    /// `panic-at`: the step at which to panic, for the tests (`ui::crash`).
    panic_at: Option<String>,
}

#[cfg(target_arch = "wasm32")]
pub fn query() -> Query {
    let params = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok());
    match params {
        Some(p) => Query {
            preset: p.get("preset"),
            scenario: p.get("scenario"),
            mode: p.get("mode"),
            lang: p.get("lang"),
            seed: p.get("seed"),
            link: LinkParams {
                step: p.get("step"),
                choices: p.get("choices"),
                open: p.get("open"),
                sel: p.get("sel"),
                panel: p.get("panel"),
                cut: p.get("cut"),
            },
            embed: p.has("embed"),
            speed: p.get("speed"),
            autoplay: p.has("autoplay"),
            theory: p.has("theory"),
            panic_at: p.get("panic-at"),
        },
        None => Query::default(),
    }
}

/// Natively there is no browser: the address is the one [`with_address`] gives, if any.
#[cfg(not(target_arch = "wasm32"))]
pub fn query() -> Query {
    ADDRESS.with(|a| {
        let Some((preset, mode, lang)) = a.borrow().clone() else {
            return Query::default();
        };
        Query {
            preset: Some(preset),
            mode,
            lang: Some(lang),
            ..Query::default()
        }
    })
}

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    static ADDRESS: std::cell::RefCell<Option<(String, Option<String>, String)>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` as if the page's address asked for `preset`, `mode` and `lang` (natively: the
/// first pictures drawn for index.html, `ui::shell`).
#[cfg(not(target_arch = "wasm32"))]
pub fn with_address<T>(preset: &str, mode: Option<&str>, lang: &str, f: impl FnOnce() -> T) -> T {
    let asked = (
        preset.to_string(),
        mode.map(str::to_string),
        lang.to_string(),
    );
    let before = ADDRESS.with(|a| a.replace(Some(asked)));
    let out = f();
    ADDRESS.with(|a| *a.borrow_mut() = before);
    out
}

/// The page's own address without its query: where a permalink points.
pub fn page_address() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        if let Some(l) = web_sys::window().map(|w| w.location()) {
            return format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            );
        }
    }
    String::new()
}

/// The permalink of the moment on screen (`permalink.rs`), in `lang`.
pub fn moment_link(playback: &Playback, run: &super::run::Run, mode: &str, lang: Lang) -> String {
    format!(
        "{}?{}",
        page_address(),
        crate::ui::permalink::query(
            run,
            playback.code.as_deref(),
            mode,
            lang.code(),
            crate::ui::permalink::Shown {
                selection: playback.selection,
                tab: playback.tab,
                open: playback.checkpoint,
                cut: playback.cut.as_ref().map(|c| &c.at[..]),
            },
        )
    )
}

/// The fragment of an address that opens a moment in another language's build from the
/// language menu: index.html's loader gives the new page's menu the focus, so that a keyboard
/// user who changed the language with an arrow key is where they were.
pub const LANG_FRAGMENT: &str = "#lang";

/// Opens the lesson page for `lesson` in place of this embedded player (`abs:load` with a
/// `lesson`), embedded, in `lang`, keeping the host's `origin`.
fn open_lesson(lesson: &str, lang: Lang) {
    use super::permalink::encode;
    let url = format!("?embed&lang={}&lesson={}", lang.code(), encode(lesson));
    #[cfg(target_arch = "wasm32")]
    let url = match super::host_link::origin() {
        Some(origin) => format!("{url}&origin={}", encode(&origin)),
        None => url,
    };
    open_here(&url);
}

/// Leaves this page as the reducer asked ([`Leave`]).
pub fn leave(to: &Leave) {
    match to {
        Leave::Lesson { lesson, lang } => open_lesson(lesson, *lang),
        Leave::Big(query) => open_big(query),
    }
}

/// Opens `query` (with `big`) in place of this page: index.html loads the build that draws a
/// job of real size bundled for it.
pub fn open_big(query: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(w) = web_sys::window() {
        let _ = w.location().replace(query);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = query;
}

/// The page's reading of a `scenario=` link: the build that draws bundled refuses a job over
/// its limit before building it; the student's builds send any job of real size there.
fn decode(code: &str) -> Result<crate::scenario::Scenario, crate::scenario::codec::LinkError> {
    #[cfg(feature = "views")]
    return crate::scenario::codec::decode_for_page(code);
    #[cfg(not(feature = "views"))]
    crate::scenario::codec::decode(code)
}

/// Loads `url` in place of this page (a new history entry, so Back returns here).
pub fn open_here(url: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(w) = web_sys::window() {
        let _ = w.location().assign(url);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = url;
}

/// The language the browser prefers, if it is one of ours (used when the address names none).
pub fn browser_lang() -> Option<Lang> {
    #[cfg(target_arch = "wasm32")]
    {
        let languages: Vec<String> = web_sys::window()?
            .navigator()
            .languages()
            .iter()
            .filter_map(|v| v.as_string())
            .collect();
        Some(Lang::from_browser(&languages))
    }
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// The page is 1024 px wide or less: the side panel folds into tabs (see style.css).
pub fn narrow() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
            .and_then(|w| w.match_media("(max-width: 1024px)").ok().flatten())
            .is_some_and(|q| q.matches())
    }
    #[cfg(not(target_arch = "wasm32"))]
    false
}

pub fn prefers_reduced_motion() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
            .and_then(|w| {
                w.match_media("(prefers-reduced-motion: reduce)")
                    .ok()
                    .flatten()
            })
            .is_some_and(|q| q.matches())
    }
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// The parameters a moment's link (`permalink::query`) writes, and those that only carried
/// what a page showed when it was opened (`autoplay`, `theory`): [`sync_address`] replaces
/// them all with the moment.
#[cfg(target_arch = "wasm32")]
const MOMENT_PARAMS: [&str; 13] = [
    "preset", "scenario", "mode", "lang", "seed", "step", "choices", "open", "sel", "panel", "cut",
    "autoplay", "theory",
];

/// Writes into the address what is shown, replacing the history entry (never pushing one):
/// the scenario (`scenario` is `preset=NAME` or `scenario=CODE`), mode and language, keeping
/// any other parameter; or, given `moment` (a permalink's query, `permalink::query`), the whole
/// moment in place of every parameter of a moment, still keeping the others (`speed`,
/// `embed`, `origin`). The language also goes into `<html lang>` and the document's title.
#[cfg(target_arch = "wasm32")]
pub fn sync_address(scenario: &str, mode: &str, lang: Lang, moment: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Some(doc) = window.document() {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", lang.tag());
        }
        doc.set_title(lang.strings().page_title);
    }
    let search = window.location().search().unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return;
    };
    let url = match moment {
        Some(moment) => {
            for key in MOMENT_PARAMS {
                params.delete(key);
            }
            let rest = String::from(params.to_string());
            let and = if rest.is_empty() { "" } else { "&" };
            format!("?{moment}{and}{rest}")
        }
        None => {
            let (key, value) = scenario.split_once('=').unwrap_or(("preset", scenario));
            params.delete(if key == "preset" {
                "scenario"
            } else {
                "preset"
            });
            params.set(key, value);
            params.set("mode", mode);
            params.set("lang", lang.code());
            format!("?{}", String::from(params.to_string()))
        }
    };
    if url == search {
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn sync_address(_scenario: &str, _mode: &str, _lang: Lang, _moment: Option<&str>) {}

/// The first playback: the address read once — scenario, mode, language, seed, the moment,
/// embed, speed and autoplay — with a notice for whatever could not be followed.
pub fn initial_playback() -> Playback {
    let mut q = query();
    super::crash::arm(q.panic_at.as_deref());
    if q.lang.is_none() {
        q.lang = browser_lang().map(|l| l.code().to_string());
    }
    // A whole scenario in the link wins over a preset; one that cannot be read gives a notice
    // and the preset.
    let mut notices = Vec::new();
    let mut broken = None;
    // The code is kept as it came (it read: base64url alone), to be passed on, not written anew.
    let (whole, code): (Option<_>, Option<std::rc::Rc<str>>) = q
        .scenario
        .as_deref()
        .and_then(|code| match decode(code) {
            Ok(whole) => Some((whole, code.into())),
            Err(why) => {
                broken = Some(why);
                None
            }
        })
        .unzip();
    // A job the student's build does not draw (bundled, or chained) opens in the build that
    // does.
    #[cfg(not(feature = "views"))]
    if whole.as_ref().is_some_and(super::layout::for_second_player) {
        if let Some(w) = web_sys::window() {
            let search = w.location().search().unwrap_or_default();
            open_big(&format!("{search}&big"));
        }
    }
    let asked = whole.unwrap_or_else(|| preset_or_default(q.preset.as_deref(), &mut notices));
    let (mut scenario, mode, lang) =
        resolve_for(asked, q.mode.as_deref(), q.lang.as_deref(), &mut notices);
    // index.html loaded the build of the language the address asks for (it reads the
    // address as `resolve` does); were they ever to part, this build's own language.
    let lang = if lang.is_built() { lang } else { Lang::built() };
    if let Some(why) = broken {
        let why = (lang.strings().link_error)(&why);
        notices.insert(0, Notice::BrokenLink(why));
    }
    if let Some(seed) = &q.seed {
        match seed.parse::<u64>() {
            Ok(seed) => scenario.seed = seed,
            Err(_) => notices.push(Notice::BadParam {
                param: "seed",
                value: seed.clone(),
                used: scenario.seed.to_string(),
            }),
        }
    }
    let mut p = Playback::new(scenario, mode, lang, !prefers_reduced_motion());
    p.code = code;
    let own = std::mem::take(&mut p.notices);
    p.notices = notices;
    p.notices.extend(own);
    // Where the side panel folds into tabs, the coordinator's tab comes first.
    if narrow() {
        p.tab = Tab::Coordinator;
    }
    p.follow(Moment::parse(&q.link));
    p.embed = q.embed;
    match q.speed.as_deref().map(crate::ui::permalink::parse_speed) {
        Some(Some(v)) => p.speed_exp = v.log2(),
        Some(None) => p.notices.push(Notice::BadParam {
            param: "speed",
            value: q.speed.clone().unwrap_or_default(),
            used: "1".into(),
        }),
        None => {}
    }
    p.playing = q.autoplay;
    p
}
