//! The engineers' view (`index.html?view=flink`): a Flink job's plan or checkpoint history,
//! imported from what its REST API returns, next to the history of the scenario the address
//! names as the simulation runs it. In the second build (`ui::views`, `bin/abs-views.rs`), loaded
//! only when the address asks for it, so the student's page does not carry it.

mod bars;
pub mod run;
mod table;
pub mod words;

use std::rc::Rc;

use yew::prelude::*;

use crate::scenario::flink::{import_flink_json, CheckpointHistory, FlinkImport, PlanImport};
use crate::ui::kit::{add_style, address, playground_link};
use table::CheckpointTable;
use words::{edge_note, import_error, notice, ViewLang};

pub use table::status_code;

/// What the last good import showed: a plan, a history, or both (a bundle).
#[derive(Clone, Default, PartialEq)]
struct Shown {
    plan: Option<Rc<PlanImport>>,
    history: Option<Rc<CheckpointHistory>>,
}

impl From<FlinkImport> for Shown {
    fn from(import: FlinkImport) -> Shown {
        match import {
            FlinkImport::Plan(plan) => Shown {
                plan: Some(Rc::new(plan)),
                history: None,
            },
            FlinkImport::History(history) => Shown {
                plan: None,
                history: Some(Rc::new(history)),
            },
            FlinkImport::Bundle(b) => Shown {
                plan: b.plan.map(Rc::new),
                history: Some(Rc::new(b.history)),
            },
        }
    }
}

/// The view's own style: it is not in the page's style sheet, which every student loads.
/// Added to that sheet rule by rule ([`add_style`](crate::ui::kit::add_style)): a `<style>` element of its own would be
/// refused by the page's content security policy, which allows only index.html's.
const STYLE: &str = ".flink-view{max-width:1100px;margin:0 auto;padding:1rem}\
.flink-view textarea{width:100%;font-family:monospace}\
.flink-view table{border-collapse:collapse;width:100%;margin:.5rem 0}\
.flink-view th,.flink-view td{border-bottom:1px solid #8884;padding:.2rem .5rem;text-align:left}\
.flink-view td{white-space:nowrap}.flink-view td.num{text-align:right;font-variant-numeric:tabular-nums}\
.flink-row{cursor:pointer}.flink-row:hover,.flink-row.selected{background:#8882}\
.flink-error{color:#c0392b;font-weight:bold}\
.flink-bars{margin:.5rem 0}.flink-bars svg{font:11px sans-serif;fill:currentColor;max-width:100%;height:auto}\
.flink-bars .axis line{stroke:currentColor;stroke-opacity:.4}\
.phase.start-delay{fill:#95a5a6}.phase.alignment{fill:#e67e22}\
.phase.sync{fill:#2980b9}.phase.async{fill:#27ae60}\
.flink-scroll{overflow-x:auto}.flink-history{min-width:0}\
.flink-columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(480px,100%),1fr));gap:1rem}";

#[function_component(FlinkView)]
pub fn flink_view() -> Html {
    use_effect_with((), |_| add_style(STYLE));
    let at = use_memo((), |_| address());
    let lang = ViewLang::from_param(at.lang.as_deref());
    let w = lang.words();
    let text = use_node_ref();
    let shown = use_state(Shown::default);
    let error = use_state(|| None::<String>);
    let sim = use_memo((), {
        let at = at.clone();
        move |_| {
            run::run(&at).map(|(s, h)| {
                let edges = aligned_edges(&s);
                // A preset is titled in the view's language, as the playground titles it.
                let title = match (lang, at.scenario.is_none()) {
                    (ViewLang::Zh, true) => (crate::i18n::Lang::Zh.strings().preset_text)(&s.name)
                        .map_or(s.title, |(title, _)| title.to_string()),
                    _ => s.title,
                };
                (title, edges, Rc::new(h))
            })
        }
    });
    // Bad input keeps what is shown and says why; good input replaces it.
    let import = {
        let (shown, error) = (shown.clone(), error.clone());
        Callback::from(move |doc: String| match import_flink_json(&doc) {
            Ok(import) => {
                shown.set(import.into());
                error.set(None);
            }
            Err(e) => error.set(Some(import_error(lang, &e))),
        })
    };
    let apply = {
        let (text, import) = (text.clone(), import.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(area) = text.cast::<web_sys::HtmlTextAreaElement>() {
                import.emit(area.value());
            }
        })
    };
    let open_file = {
        let (text, import) = (text.clone(), import.clone());
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            let (text, import) = (text.clone(), import.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let read = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                if let Some(doc) = read.ok().and_then(|v| v.as_string()) {
                    if let Some(area) = text.cast::<web_sys::HtmlTextAreaElement>() {
                        area.set_value(&doc);
                    }
                    import.emit(doc);
                }
            });
        })
    };
    let plan = shown.plan.as_ref().map(|plan| {
        let notices = plan.notices.iter().map(|n| html! { <li>{ notice(lang, n) }</li> });
        html! {
            <section class="flink-plan" data-testid="flink-plan">
                <h2>{ w.plan }{ ": " }{ plan.scenario.title.clone() }</h2>
                <ul data-testid="flink-notices">{ for notices }</ul>
                <p><a href={playground_link(&plan.scenario, at.lang.as_deref())} data-testid="flink-open-plan">{ w.open_plan }</a></p>
            </section>
        }
    });
    let imported = shown.history.as_ref().map(|h| {
        html! { <CheckpointTable {lang} history={h.clone()} testid="flink-checkpoints" caption={w.imported} /> }
    });
    let simulated = match &*sim {
        Ok((title, edges, h)) => html! {
            <section>
                <CheckpointTable {lang} history={h.clone()} testid="sim-checkpoints"
                    caption={format!("{} — {}", w.simulated, title)} />
                if !edges.is_empty() {
                    <p class="hint" data-testid="flink-edge-note">{ edge_note(lang, edges) }</p>
                }
            </section>
        },
        Err(e) => {
            html! { <p class="flink-error" data-testid="sim-error">{ format!("{}{}{e}", w.sim_error, w.colon) }</p> }
        }
    };
    html! {
        <main class="flink-view" data-testid="flink-view">
            <h1>{ w.title }</h1>
            <p><a href={at.back.clone()} data-testid="flink-back">{ w.back }</a></p>
            <p>{ w.intro }</p>
            <label for="flink-text">{ w.paste }</label>
            <textarea id="flink-text" ref={text} rows="8" data-testid="flink-import-text" spellcheck="false" />
            <p>
                <label>{ w.file }{ " " }<input type="file" accept=".json,application/json" onchange={open_file} data-testid="flink-import-file" /></label>
                { " " }
                <button onclick={apply} data-testid="flink-import-apply">{ w.apply }</button>
            </p>
            if let Some(e) = &*error {
                <p class="flink-error" role="alert" data-testid="flink-import-error">{ format!("{}{}{e}", w.error, w.colon) }</p>
            }
            { for plan }
            <div class="flink-columns">
                { for imported }
                { simulated }
            </div>
        </main>
    }
}

/// The edges whose barriers stay aligned although the run's checkpoints may go unaligned
/// (unaligned, or aligned with a timeout): forward, rescale and broadcast edges, as
/// "from → to" — in Flink and in the simulation alike, so the note explains the aligned
/// subtasks of an unaligned run.
fn aligned_edges(s: &crate::scenario::Scenario) -> Vec<String> {
    if !s.config.may_go_unaligned() {
        return Vec::new();
    }
    s.graph
        .edges
        .iter()
        .filter(|e| e.partitioning.keeps_barriers_aligned())
        .map(|e| format!("{} → {}", e.from, e.to))
        .collect()
}
