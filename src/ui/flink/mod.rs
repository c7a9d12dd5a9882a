//! The engineers' view (`index.html?view=flink`): a Flink job's plan or checkpoint history,
//! imported from what its REST API returns, next to the history of the scenario the address
//! names as the simulation runs it. In the second build (`ui::views`, `bin/abs-views.rs`), loaded
//! only when the address asks for it, so the student's page does not carry it.

mod bars;
mod job;
mod job_words;
pub mod run;
mod sections;
mod table;
pub mod words;

use std::rc::Rc;

use yew::prelude::*;

use crate::scenario::flink::import_flink_json;
use crate::ui::kit::{add_style, address, playground_link};
use job::Job;
use table::CheckpointTable;
use words::{edge_note, import_error, notice, ViewLang};

pub use table::status_code;

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
.flink-view p,.flink-view li{overflow-wrap:anywhere}.flink-job table{width:auto}\
.flink-columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(480px,100%),1fr));gap:1rem}";

#[function_component(FlinkView)]
pub fn flink_view() -> Html {
    use_effect_with((), |_| add_style(STYLE));
    let at = use_memo((), |_| address());
    let lang = ViewLang::from_param(at.lang.as_deref());
    let w = lang.words();
    let text = use_node_ref();
    let job = use_state(Job::default);
    let error = use_state(|| None::<String>);
    // The ends of the two chosen checkpoints' drawings: both are drawn to the later one.
    let job_end = use_state(|| None::<u64>);
    let sim_end = use_state(|| None::<u64>);
    let axis_end = (*job_end).max(*sim_end);
    // The simulation runs again when an imported configuration changes it.
    let sim = use_memo(job.config.clone(), {
        let at = at.clone();
        move |config| {
            run::run(&at, config.as_deref()).map(|(s, h, kept)| {
                let edges = aligned_edges(&s);
                // A preset is titled in the view's language, as the playground titles it.
                let title = match (lang, at.scenario.is_none()) {
                    (ViewLang::Zh, true) => (crate::i18n::Lang::Zh.strings().preset_text)(&s.name)
                        .map_or(s.title, |(title, _)| title.to_string()),
                    _ => s.title,
                };
                (title, edges, Rc::new(h), kept)
            })
        }
    });
    // Bad input keeps what is shown and says why; good input is added to the job.
    let import = {
        let (job, error) = (job.clone(), error.clone());
        Callback::from(move |doc: String| match import_flink_json(&doc) {
            Ok(import) => {
                job.set(job.with(import));
                error.set(None);
            }
            Err(e) => error.set(Some(import_error(lang, &e))),
        })
    };
    let clear = {
        let (job, error, text) = (job.clone(), error.clone(), text.clone());
        Callback::from(move |_: MouseEvent| {
            job.set(Job::default());
            error.set(None);
            if let Some(area) = text.cast::<web_sys::HtmlTextAreaElement>() {
                area.set_value("");
            }
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
    let plan = job.plan.as_ref().map(|plan| {
        let notices = plan.notices.iter().map(|n| html! { <li>{ notice(lang, n) }</li> });
        html! {
            <section class="flink-plan" data-testid="flink-plan">
                <h2>{ w.plan }{ ": " }{ plan.scenario.title.clone() }</h2>
                <ul data-testid="flink-notices">{ for notices }</ul>
                <p><a href={playground_link(&plan.scenario, at.lang.as_deref())} data-testid="flink-open-plan">{ w.open_plan }</a></p>
            </section>
        }
    });
    let on_job_chosen = {
        let job_end = job_end.clone();
        Callback::from(move |end: Option<u64>| job_end.set(end))
    };
    let on_sim_chosen = {
        let sim_end = sim_end.clone();
        Callback::from(move |end: Option<u64>| sim_end.set(end))
    };
    let imported = job.history.as_ref().map(|h| {
        html! { <CheckpointTable {lang} history={h.clone()} testid="flink-checkpoints" caption={w.imported}
            on_chosen={on_job_chosen} {axis_end} /> }
    });
    let kept: &[String] = match &*sim {
        Ok((_, _, _, kept)) => kept,
        Err(_) => &[],
    };
    let config = job.config.as_ref().map(|c| sections::config(lang, c, kept));
    let exceptions = (!job.exceptions.is_empty()).then(|| sections::exceptions(lang, &job));
    let attempts = (!job.vertices.is_empty()).then(|| sections::attempts(lang, &job));
    let so_far = (!job.is_empty()).then(|| sections::so_far(lang, &job, clear));
    let simulated = match &*sim {
        Ok((title, edges, h, _)) => html! {
            <section>
                <CheckpointTable {lang} history={h.clone()} testid="sim-checkpoints"
                    caption={format!("{} — {}", w.simulated, title)} on_chosen={on_sim_chosen} {axis_end} />
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
            // Each part that comes and goes is inside a box that is always there: the page's
            // children keep their places, and the tables (with their chosen checkpoints) stay.
            <div class="flink-job">
                { for so_far }
                { for plan }
                { for config }
                if job.history.is_some() {
                    <p class="hint">{ lang.job_words().axis_note }</p>
                }
            </div>
            <div class="flink-columns">
                { for imported }
                { simulated }
            </div>
            <div class="flink-job">
                { for attempts }
                { for exceptions }
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
