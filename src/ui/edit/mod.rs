//! The scenario editor (`index.html?view=edit`, in the second build: `ui::views`): the
//! playground's scenario as JSON, edited and applied, with line numbers. An error is shown
//! inline with its line, column and the field's path, in words and in the page's language for
//! a syntax error, and the caret is taken to it. Apply opens the playground with the edited
//! scenario whole in its address (`scenario=…`, from step 0); going back without applying
//! returns to the moment the editor was opened from, which its address keeps. A preset can be
//! the starting point; the text can be downloaded as a file and a file opened.
//!
//! It is a page of its own, not a dialog of the playground, because it weighs 7 KB of gzip
//! that a student's visit would otherwise load without opening it.

mod place;
pub mod words;

use yew::prelude::*;

use crate::i18n::Lang;
use crate::scenario::path::field_at;
use crate::scenario::{presets, Scenario, ScenarioError};
use crate::ui::kit::{add_style, address, playground_link};
use words::Words;

use crate::ui::kit::lang;

/// The text the editor shows for an error, with the field named where the reader stopped.
pub fn error_text(lang: Lang, text: &str, e: &ScenarioError) -> String {
    let (w, s) = (Words(lang), lang.strings());
    match e {
        ScenarioError::Syntax {
            line,
            column,
            message,
        } => {
            // serde's message ends with its own " at line L column C", said once already;
            // `Syntax::of` leaves it out.
            let words = lang.syntax_words(message);
            w.syntax(*line, *column, &field_at(text, *line, *column), &words)
        }
        // A refusal of the graph or the settings: where what it names is, if it names any.
        other => match place::of(text, other) {
            Some((line, column)) => w.syntax(line, column, "", &(s.scenario_error)(other)),
            None => w.invalid(&(s.scenario_error)(other)),
        },
    }
}

/// Where the caret goes for a refusal: where the reader stopped, or what the refusal names.
fn error_place(text: &str, e: &ScenarioError) -> Option<(u64, u64)> {
    match *e {
        ScenarioError::Syntax { line, column, .. } => Some((line, column)),
        ref other => place::of(text, other),
    }
}

/// Where line `line`, column `column` (both from 1, columns in characters) is in `text`, in
/// the UTF-16 units a text area's selection counts.
pub fn caret_offset(text: &str, line: u64, column: u64) -> u32 {
    let mut offset = 0usize;
    for (i, l) in text.split('\n').enumerate() {
        if i as u64 + 1 == line {
            let before: usize = l
                .chars()
                .take(column.saturating_sub(1) as usize)
                .map(char::len_utf16)
                .sum();
            return (offset + before) as u32;
        }
        offset += l.encode_utf16().count() + 1;
    }
    offset.saturating_sub(1) as u32
}

/// A preset with its title and lesson in the page's language (its file has them in English):
/// edited and applied on a Chinese page, it stays Chinese.
fn in_language(mut preset: Scenario, s: &crate::i18n::Strings) -> Scenario {
    if let Some((title, lesson)) = (s.preset_text)(&preset.name) {
        preset.title = title.to_string();
        preset.lesson = lesson.to_string();
    }
    preset
}

/// The gutter's numbers, one per line of `text`.
fn line_numbers(text: &str) -> String {
    let lines = text.split('\n').count();
    (1..=lines)
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The editor's style, added to the page's sheet when it opens (`views::add_style`); the
/// colours are the page's own variables.
const STYLE: &str = ".edit-view{box-sizing:border-box;max-width:60rem;height:100vh;height:100dvh;margin:0 auto;padding:.75rem 1rem;display:flex;flex-direction:column;gap:.45rem}\
.edit-view h1{font-size:1.25rem;margin:0}.edit-view h1 .hint{font-size:1rem;font-weight:normal}\
.edit-view .hint{font-size:.85rem;color:var(--muted);margin:0}.edit-view .hint a{color:var(--accent)}\
.edit-view a{color:var(--accent)}\
.editor-tools{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;font-size:.85rem}\
.editor-tools label{display:flex;gap:.35rem;align-items:center}\
.editor-tools input[type=file]{max-width:14rem;font-size:.8rem}\
.editor-code{flex:1 1 auto;display:flex;min-height:12rem;border:1px solid var(--line-strong);border-radius:4px;background:var(--bg);overflow:hidden}\
.editor-code .gutter{margin:0;padding:.4rem .35rem;min-width:2.5ch;text-align:right;font:.8rem/1.35 ui-monospace,monospace;color:var(--muted);border-right:1px solid var(--line);overflow:hidden;user-select:none}\
.editor-code textarea{flex:1 1 auto;min-height:12rem;width:100%;font:.8rem/1.35 ui-monospace,monospace;padding:.4rem;border:0;background:transparent;color:inherit;resize:none;tab-size:2;white-space:pre;overflow:auto}\
.editor-code:has(textarea[aria-invalid=true]){border-color:var(--bad)}\
.editor-error{color:var(--bad);font-size:.85rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:0}\
.editor-buttons{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}";

#[function_component(EditorView)]
pub fn editor_view() -> Html {
    use_effect_with((), |_| add_style(STYLE));
    let at = use_memo((), |_| address());
    let lang = lang(at.lang.as_deref());
    let (w, s) = (Words(lang), lang.strings());
    // The scenario the playground ran; an address naming none (a damaged `scenario=`) starts
    // from the default preset and says why.
    let start = use_memo((), {
        let at = at.clone();
        move |_| match at.playground_scenario() {
            Ok(scenario) if at.scenario.is_none() => (in_language(scenario, s), None),
            Ok(scenario) => (scenario, None),
            Err(e) => (
                presets::alignment(),
                Some(w.unreadable(&(s.link_error)(&e))),
            ),
        }
    });
    let name = start.0.name.clone();
    // A preset is titled in the page's language, as the playground titles it.
    let title = (s.preset_text)(&name)
        .filter(|_| at.scenario.is_none())
        .map_or(start.0.title.clone(), |(t, _)| t.to_string());
    let text = use_state(|| start.0.to_json());
    let error = use_state(|| start.1.clone());
    let area = use_node_ref();
    let gutter = use_node_ref();
    let error_line = use_state(|| None::<u64>);
    {
        // The text takes the focus, with the caret at its start.
        let (area, text) = (area.clone(), text.clone());
        use_effect_with((), move |_| caret_to(&area, &text, 1, 1));
    }

    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                text.set(t.value());
            }
        })
    };
    let apply = {
        let (text, error, at) = (text.clone(), error.clone(), at.clone());
        let (area, error_line) = (area.clone(), error_line.clone());
        Callback::from(
            move |_: MouseEvent| match Scenario::from_json_for_page(&text) {
                Ok(scenario) => {
                    error.set(None);
                    error_line.set(None);
                    let link = playground_link(&scenario, at.lang.as_deref());
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().set_href(&link);
                    }
                }
                Err(e) => {
                    error.set(Some(error_text(lang, &text, &e)));
                    // The caret goes where the reader stopped (or to what the refusal names),
                    // so the fix starts there.
                    if let Some((line, column)) = error_place(&text, &e) {
                        error_line.set(Some(line));
                        caret_to(&area, &text, line, column);
                    } else {
                        error_line.set(None);
                    }
                }
            },
        )
    };
    // The gutter scrolls with the text.
    let on_scroll = {
        let (area, gutter) = (area.clone(), gutter.clone());
        Callback::from(move |_: Event| {
            if let (Some(a), Some(g)) = (
                area.cast::<web_sys::HtmlTextAreaElement>(),
                gutter.cast::<web_sys::HtmlElement>(),
            ) {
                g.set_scroll_top(a.scroll_top());
            }
        })
    };
    let from_preset = {
        let (text, error) = (text.clone(), error.clone());
        Callback::from(move |e: Event| {
            let Some(v) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value())
            else {
                return;
            };
            if let Ok(preset) = presets::by_name(&v) {
                text.set(in_language(preset, s).to_json());
                error.set(None);
            }
        })
    };
    let open_file = {
        let (text, error) = (text.clone(), error.clone());
        Callback::from(move |e: Event| read_file(lang, &e, text.clone(), error.clone()))
    };
    // The file is made when asked for, not on every keystroke.
    let download = {
        let (text, file) = (text.clone(), format!("{name}.json"));
        Callback::from(move |_: MouseEvent| crate::ui::export::download_text(&text, &file))
    };
    let hint = w.hint();
    html! {
        <main class="edit-view" data-testid="editor-view">
            <h1 id="editor-title">{ w.title() }<span class="hint">{ " — " }{ title }</span></h1>
            <p class="hint" id="editor-hint">{ hint.0 }<a href="scenario.md" target="_blank" rel="noopener" data-testid="editor-format">{ hint.1 }</a>{ hint.2 }</p>
            <div class="editor-tools">
                <label>
                    <span>{ w.from_preset() }</span>
                    <select data-testid="editor-preset" onchange={from_preset}>
                        <option value="" selected=true>{ w.choose_preset() }</option>
                        { for presets::NAMES.iter().filter(|n| !presets::BENCHMARKS.contains(n)).map(|name| {
                            let title = (s.preset_text)(name).map_or(*name, |t| t.0);
                            html! { <option value={*name}>{ title }</option> }
                        }) }
                    </select>
                </label>
                <label class="file">
                    <span>{ w.open_file() }</span>
                    <input type="file" accept=".json,application/json" onchange={open_file}
                        data-testid="editor-file" />
                </label>
                <button class="link" onclick={download} data-testid="editor-download">{ w.download() }</button>
            </div>
            <div class="editor-code">
                <pre ref={gutter} class="gutter" aria-hidden="true" data-testid="editor-lines"
                    data-error-line={error_line.map(|l| l.to_string())}>{ line_numbers(&text) }</pre>
                <textarea ref={area} data-testid="editor" spellcheck="false" wrap="off"
                    aria-labelledby="editor-title" aria-describedby="editor-hint editor-error"
                    aria-invalid={if error.is_some() { "true" } else { "false" }}
                    value={(*text).clone()} oninput={on_input} onscroll={on_scroll} />
            </div>
            <p id="editor-error" class="editor-error" role="alert" data-testid="editor-error"
                hidden={error.is_none()}>{ (*error).clone().unwrap_or_default() }</p>
            <div class="editor-buttons">
                <button class="primary" onclick={apply} data-testid="editor-apply">{ w.apply() }</button>
                <a href={at.back.clone()} data-testid="editor-close">{ w.back() }</a>
            </div>
        </main>
    }
}

/// Focuses the text with the caret at `line`, `column`, scrolled so that the line shows a few
/// lines from the top (a text area scrolls to its caret only as far as the caret's edge).
fn caret_to(area: &NodeRef, text: &str, line: u64, column: u64) {
    let Some(a) = area.cast::<web_sys::HtmlTextAreaElement>() else {
        return;
    };
    let at = caret_offset(text, line, column);
    let _ = a.focus();
    let _ = a.set_selection_range(at, at);
    let lines = text.split('\n').count().max(1) as i32;
    let per_line = a.scroll_height() / lines;
    a.set_scroll_top(per_line * (line as i32 - 4).max(0));
}

/// Reads the chosen file into the editor (not applied: the user looks at it first).
fn read_file(
    lang: Lang,
    e: &Event,
    text: UseStateHandle<String>,
    error: UseStateHandle<Option<String>>,
) {
    let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
        return;
    };
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    if file.size() > crate::scenario::MAX_SCENARIO_BYTES as f64 {
        let too_large = ScenarioError::TooLarge(file.size() as usize);
        error.set(Some(error_text(lang, "", &too_large)));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let read = wasm_bindgen_futures::JsFuture::from(file.text()).await;
        if let Some(t) = read.ok().and_then(|v| v.as_string()) {
            text.set(t);
            error.set(None);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::codec;
    use crate::ui::kit::Address;

    #[test]
    fn the_caret_goes_to_the_line_and_column_in_utf16_units() {
        let text = "{\n  \"name\": \"é𝄞x\",\n  \"seed\": 01\n}";
        assert_eq!(caret_offset(text, 1, 1), 0);
        assert_eq!(caret_offset(text, 2, 3), 4);
        // "é" is one unit, "𝄞" two: column 14 of line 2 (at "x") is 14 units into it, and
        // line 2 is 17 units and a newline long.
        assert_eq!(caret_offset(text, 2, 14), 2 + 14);
        assert_eq!(caret_offset(text, 3, 11), 2 + 18 + 10);
        // Past the end: the end.
        assert_eq!(caret_offset(text, 9, 1), text.encode_utf16().count() as u32);
        assert_eq!(line_numbers(text), "1\n2\n3\n4");
    }

    fn at(preset: Option<&str>, scenario: Option<String>, mode: Option<&str>) -> Address {
        Address {
            preset: preset.map(String::from),
            scenario,
            mode: mode.map(String::from),
            ..Address::default()
        }
    }

    #[test]
    fn the_editor_opens_with_the_scenario_the_playground_ran() {
        // A preset in the mode and with the seed the address asks for.
        let mut a = at(Some("wordcount"), None, Some("unaligned"));
        a.seed = Some("7".into());
        let s = a.playground_scenario().unwrap();
        assert_eq!(s.name, "wordcount");
        assert_eq!(s.config.mode, crate::engine::BarrierMode::Unaligned);
        assert_eq!(s.seed, 7);
        // A whole scenario wins over a preset; an unusable seed keeps the scenario's own.
        let mut edited = presets::token();
        edited.title = "Edited".into();
        let mut a = at(Some("wordcount"), Some(codec::encode(&edited)), None);
        a.seed = Some("x".into());
        let s = a.playground_scenario().unwrap();
        assert_eq!((s.title.as_str(), s.seed), ("Edited", edited.seed));
        // No address at all: the playground's default.
        assert_eq!(
            Address::default().playground_scenario().unwrap().name,
            "alignment"
        );
        // A damaged scenario is an error, worded by the page.
        assert!(at(None, Some("!!".into()), None)
            .playground_scenario()
            .is_err());
    }

    #[test]
    fn applying_links_to_the_whole_scenario_from_step_0() {
        let mut s = presets::wordcount();
        s.title = "Three counters".into();
        let link = playground_link(&s, Some("zh-Hans"));
        let code = link
            .strip_prefix("?scenario=")
            .and_then(|l| l.strip_suffix("&lang=zh-Hans"))
            .unwrap();
        assert_eq!(codec::decode(code).unwrap(), s);
        assert!(!link.contains("step=") && !link.contains("preset="));
    }

    #[test]
    fn errors_are_worded_in_the_editor_language() {
        let text = "{\n  \"name\" 1\n}";
        let e = Scenario::from_json(text).unwrap_err();
        assert!(error_text(Lang::En, text, &e).starts_with("Line 2, column "));
        let zh = error_text(Lang::Zh, text, &e);
        assert!(zh.starts_with("第 2 行，第 "), "{zh}");
        let refused = ScenarioError::TooLarge(1 << 30);
        let hans = error_text(Lang::ZhHans, "", &refused);
        assert!(error_text(Lang::Zh, "", &refused).starts_with("未套用："));
        assert_eq!(
            hans,
            crate::i18n::hans::to_hans(&error_text(Lang::Zh, "", &refused))
        );
        assert_ne!(
            hans,
            error_text(Lang::Zh, "", &refused),
            "Simplified, not Traditional"
        );
    }
}
