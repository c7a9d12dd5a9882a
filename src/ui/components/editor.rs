//! The scenario editor: the running scenario as JSON, edited and applied, with line numbers. An
//! error is shown inline with its line, column and the field's path, in words and in the page's
//! language for a syntax error, the caret is taken to it, and the running scenario is kept until
//! a valid one is applied. A preset can be the starting point; the text can be downloaded as a
//! file and a file opened.

use yew::prelude::*;

use super::dialog::{trap_focus, use_dialog_focus};
use crate::i18n::{Lang, Strings};
use crate::scenario::path::field_at;
use crate::scenario::{presets, Scenario, ScenarioError};

#[derive(Properties, PartialEq, Clone)]
pub struct EditorProps {
    pub lang: Lang,
    /// The running scenario, as the editor starts with it.
    pub json: AttrValue,
    pub name: AttrValue,
    pub on_apply: Callback<Scenario>,
    pub on_close: Callback<()>,
}

/// The text an editor shows for an error, with the field named where the parser stopped.
pub fn error_text(s: &Strings, text: &str, e: &ScenarioError) -> String {
    match e {
        ScenarioError::Syntax {
            line,
            column,
            message,
        } => {
            // serde's message ends with its own " at line L column C", said once already;
            // `Syntax::of` leaves it out.
            let words = (s.syntax_words)(message);
            (s.editor_syntax)(*line, *column, &field_at(text, *line, *column), &words)
        }
        other => (s.editor_invalid)(&(s.scenario_error)(other)),
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

/// The gutter's numbers, one per line of `text`.
fn line_numbers(text: &str) -> String {
    let lines = text.split('\n').count();
    (1..=lines)
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[function_component(Editor)]
pub fn editor(p: &EditorProps) -> Html {
    let s = p.lang.strings();
    let text = use_state(|| p.json.to_string());
    let error = use_state(|| None::<String>);
    let area = use_node_ref();
    let gutter = use_node_ref();
    let error_line = use_state(|| None::<u64>);
    use_dialog_focus(area.clone());

    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                text.set(t.value());
            }
        })
    };
    let apply = {
        let (text, error, cb) = (text.clone(), error.clone(), p.on_apply.clone());
        let (area, error_line) = (area.clone(), error_line.clone());
        Callback::from(move |_: MouseEvent| match Scenario::from_json(&text) {
            Ok(scenario) => {
                error.set(None);
                error_line.set(None);
                cb.emit(scenario);
            }
            Err(e) => {
                error.set(Some(error_text(s, &text, &e)));
                // The caret goes where the reader stopped, so the fix starts there.
                if let ScenarioError::Syntax { line, column, .. } = e {
                    error_line.set(Some(line));
                    if let Some(a) = area.cast::<web_sys::HtmlTextAreaElement>() {
                        let at = caret_offset(&text, line, column);
                        let _ = a.focus();
                        let _ = a.set_selection_range(at, at);
                    }
                } else {
                    error_line.set(None);
                }
            }
        })
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
                text.set(preset.to_json());
                error.set(None);
            }
        })
    };
    let open_file = {
        let (text, error) = (text.clone(), error.clone());
        Callback::from(move |e: Event| {
            #[cfg(target_arch = "wasm32")]
            read_file(s, &e, text.clone(), error.clone());
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (&e, &text, &error);
        })
    };
    // The file is made when asked for, not on every keystroke.
    let download = {
        let (text, file) = (text.clone(), format!("{}.json", p.name));
        Callback::from(move |_: MouseEvent| crate::ui::export::download_text(&text, &file))
    };
    let close = p.on_close.reform(|_: MouseEvent| ());
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="editor-title"
            data-testid="editor-dialog" onkeydown={trap_focus()}>
            <div class="dialog editor">
                <h2 id="editor-title">{ s.editor_title }</h2>
                <p class="hint" id="editor-hint">{ s.editor_hint }</p>
                <div class="editor-tools">
                    <label>
                        <span>{ s.editor_from_preset }</span>
                        <select data-testid="editor-preset" onchange={from_preset}>
                            <option value="" selected=true>{ "—" }</option>
                            { for presets::NAMES.iter().filter(|n| !presets::BENCHMARKS.contains(n)).map(|name| {
                                let title = (s.preset_text)(name).map_or(*name, |t| t.0);
                                html! { <option value={*name}>{ title }</option> }
                            }) }
                        </select>
                    </label>
                    <label class="file">
                        <span>{ s.editor_open_file }</span>
                        <input type="file" accept=".json,application/json" onchange={open_file}
                            data-testid="editor-file" />
                    </label>
                    <button class="link" onclick={download} data-testid="editor-download">{ s.editor_download }</button>
                </div>
                <div class="editor-code">
                    <pre ref={gutter} class="gutter" aria-hidden="true" data-testid="editor-lines"
                        data-error-line={error_line.map(|l| l.to_string())}>{ line_numbers(&text) }</pre>
                    <textarea ref={area} data-testid="editor" spellcheck="false" rows="18" wrap="off"
                        aria-label={s.editor_title} aria-describedby="editor-hint editor-error"
                        aria-invalid={if error.is_some() { "true" } else { "false" }}
                        value={(*text).clone()} oninput={on_input} onscroll={on_scroll} />
                </div>
                <p id="editor-error" class="editor-error" role="alert" data-testid="editor-error"
                    hidden={error.is_none()}>{ (*error).clone().unwrap_or_default() }</p>
                <div class="dialog-buttons">
                    <button class="primary" onclick={apply} data-testid="editor-apply">{ s.editor_apply }</button>
                    <button onclick={close} data-testid="editor-close">{ s.close }</button>
                </div>
            </div>
        </div>
    }
}

/// Reads the chosen file into the editor (not applied: the user looks at it first).
#[cfg(target_arch = "wasm32")]
fn read_file(
    s: &'static Strings,
    e: &Event,
    text: UseStateHandle<String>,
    error: UseStateHandle<Option<String>>,
) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
        return;
    };
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    if file.size() > crate::scenario::MAX_SCENARIO_BYTES as f64 {
        let too_large = ScenarioError::TooLarge(file.size() as usize);
        error.set(Some((s.editor_invalid)(&(s.scenario_error)(&too_large))));
        return;
    }
    let Ok(reader) = web_sys::FileReader::new() else {
        return;
    };
    let r = reader.clone();
    let onload = Closure::once_into_js(move || {
        if let Some(t) = r.result().ok().and_then(|v| v.as_string()) {
            text.set(t);
            error.set(None);
        }
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
