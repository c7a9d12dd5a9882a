//! The share dialog: a permalink to this exact moment (scenario, mode, seed, step, the choices
//! made by hand, what is open) and the `<iframe>` snippet that embeds the same moment in a
//! course page, each with a copy button.

use yew::prelude::*;

use super::dialog::trap_focus;
use crate::i18n::Lang;
use crate::ui::export::Format;

#[derive(Properties, PartialEq, Clone)]
pub struct ShareProps {
    pub lang: Lang,
    /// The permalink.
    pub url: String,
    pub on_close: Callback<()>,
    /// The exported files' name, without extension (`wordcount-step-120`).
    pub file: AttrValue,
    /// The permalink's field: the app gives it the focus while the dialog is open
    /// (`dialog::use_dialog_focus_while`).
    pub link: NodeRef,
    /// Whether the space-time diagram is open (it downloads alone too).
    pub spacetime: bool,
    /// What the global state that downloads as JSON is called (`inspector::global_state_title`):
    /// the open checkpoint's, else the latest completed one's (as the inspector's checkpoints
    /// tab shows it); `None` before one has completed.
    pub global: Option<String>,
}

/// The `<iframe>` that embeds `url` in a course page.
pub fn embed_code(url: &str, title: &str) -> String {
    let src = url.replace('&', "&amp;").replace('"', "&quot;");
    let title = title.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        "<iframe src=\"{src}&amp;embed\" title=\"{title}\" width=\"100%\" height=\"560\" \
         style=\"border:1px solid #d0d7de;border-radius:6px\" loading=\"lazy\"></iframe>"
    )
}

/// Copies the text of the field with this test id to the clipboard (selecting it first, so a
/// browser that refuses the clipboard leaves it selected for Ctrl+C).
fn copy(_id: &'static str) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        #[cfg(target_arch = "wasm32")]
        {
            use wasm_bindgen::JsCast;
            let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
                return;
            };
            let Ok(Some(el)) = doc.query_selector(&format!("[data-testid=\"{_id}\"]")) else {
                return;
            };
            let text = if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
                input.select();
                input.value()
            } else if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                area.select();
                area.value()
            } else {
                return;
            };
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&text);
            }
        }
    })
}

/// Downloads the file (its code is fetched the first time: `ui::export`), saying why not
/// after `failed` when it cannot.
fn export(format: Format, p: &ShareProps, failed: &'static str) -> Callback<MouseEvent> {
    let (file, link) = (p.file.clone(), p.url.clone());
    Callback::from(move |_: MouseEvent| crate::ui::export::download(format, &file, &link, failed))
}

/// The dialog takes the focus (on the link, selected for copying), keeps it while open and
/// gives it back when it closes.
pub fn share_dialog(p: &ShareProps) -> Html {
    let s = p.lang.strings();
    let close = p.on_close.reform(|_: MouseEvent| ());
    let code = embed_code(&p.url, s.app_title);
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="share-title" data-testid="share-dialog"
            onkeydown={trap_focus()}>
            <div class="dialog share">
                <h2 id="share-title">{ s.share_title }</h2>
                <label for="permalink">{ s.share_link }</label>
                <div class="copy-row">
                    <input ref={p.link.clone()} id="permalink" type="text" readonly=true value={p.url.clone()} data-testid="permalink" />
                    <button onclick={copy("permalink")} data-testid="copy-permalink">{ s.copy }</button>
                </div>
                // A teacher writing a lesson: this moment as a step (`docs/lessons.md`).
                <label for="lesson-step">{ s.share_step }</label>
                <div class="copy-row">
                    <input id="lesson-step" type="text" readonly=true data-testid="lesson-step-code"
                        value={format!("{{\"at\": \"{}\", \"text\": \"\"}}", p.url)} />
                    <button onclick={copy("lesson-step-code")} data-testid="copy-lesson-step">{ s.copy }</button>
                </div>
                <label for="embed-code">{ s.share_embed }</label>
                <div class="copy-row">
                    <textarea id="embed-code" readonly=true rows="4" value={code} data-testid="embed-code" />
                    <button onclick={copy("embed-code")} data-testid="copy-embed">{ s.copy }</button>
                </div>
                <p class="hint">{ s.share_hint }</p>
                // The engineers' view (a build of its own, loaded only when opened): a Flink
                // job's checkpoint history beside a run's, for this moment's scenario, mode and
                // language. "Flink" is its name in every language, so the link costs the page
                // few bytes (the page is at its budget).
                // So is the modes side by side (`ui::compare`), every mode the scenario runs.
                <p><a href={p.url.clone() + "&view=flink"} data-testid="flink-import">{ "Flink ↗" }</a>{ " · " }
                    <a href={p.url.clone() + "&compare="} data-testid="compare-open">{ s.compare_open }</a></p>
                <div class="export-row">
                    <span>{ s.export_rows[0] }</span>
                    <button data-testid="export-svg" onclick={export(Format::Svg, p, s.export_failed)}>{ "SVG" }</button>
                    <button data-testid="export-png" onclick={export(Format::Png, p, s.export_failed)}>{ "PNG" }</button>
                </div>
                if p.spacetime {
                    <div class="export-row">
                        <span>{ s.export_rows[1] }</span>
                        <button data-testid="export-spacetime-svg" onclick={export(Format::SpaceTimeSvg, p, s.export_failed)}>{ "SVG" }</button>
                        <button data-testid="export-spacetime-png" onclick={export(Format::SpaceTimePng, p, s.export_failed)}>{ "PNG" }</button>
                    </div>
                }
                if let Some(title) = &p.global {
                    <div class="export-row">
                        <span>{ s.export_rows[2] }</span>
                        <button data-testid="export-json" onclick={export(Format::Json, p, s.export_failed)}>{ title.clone() + " · JSON" }</button>
                    </div>
                }
                // Written by `ui::export` when an export fails.
                <p role="alert" class="export-failed" data-testid="export-failed"></p>
                <button onclick={close}>{ s.close }</button>
            </div>
        </div>
    }
}
