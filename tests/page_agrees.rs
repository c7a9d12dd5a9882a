//! The page never contradicts itself: every preset in every mode it runs (aligned with a
//! timeout, the Chandy-Lamport systems with a non-FIFO channel and the failure presets too) is
//! played for thousands of steps, and at moments along the way the panels are rendered as the
//! page renders them and compared with each other and with the engine:
//! - the verdict's summary ("n would be processed twice, m would be lost") against the
//!   crossing lines listed under it, and ✓ only when there are none;
//! - each checkpoint's mark in the coordinator (✓ / ⚠) and its row in the checkpoints table
//!   against the verdict of its global state;
//! - the unaligned lesson's claim that the checkpoint "is bigger" against the checkpointed
//!   sizes the inspector shows in the two modes.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::rc::Rc;

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::snapshot::Finding;
use abs_playground::engine::{Action, BarrierMode};
use abs_playground::i18n::theory::Texts;
use abs_playground::i18n::Lang;
use abs_playground::scenario::{presets, Scenario};
use abs_playground::ui::components::coordinator::{coordinator, CoordinatorProps};
use abs_playground::ui::components::inspector::{inspector, InspectorProps};
use abs_playground::ui::run::Run;
use abs_playground::ui::state::RunRef;
use abs_playground::ui::vocab::Tab;
use yew::{Callback, ServerRenderer};

/// One way of running a preset: its scenario, and whether its first channel is non-FIFO.
struct Variant {
    what: String,
    scenario: Scenario,
    non_fifo: bool,
}

fn variants() -> Vec<Variant> {
    let mut out = Vec::new();
    for name in presets::NAMES
        .iter()
        .filter(|n| !presets::BENCHMARKS.contains(n))
    {
        let preset = presets::by_name(name).unwrap();
        for mode in preset.modes() {
            out.push(Variant {
                what: format!("{name} {mode}"),
                scenario: preset.with_mode(mode),
                non_fifo: false,
            });
            if mode == BarrierMode::ChandyLamport
                && preset.graph.operators.iter().all(|o| o.kind.is_process())
            {
                out.push(Variant {
                    what: format!("{name} {mode} non-FIFO"),
                    scenario: preset.with_mode(mode),
                    non_fifo: true,
                });
            }
        }
        let timeout = abs_playground::scenario::modes::RunMode::named("aligned-timeout").unwrap();
        if preset.run_modes().contains(&timeout) {
            out.push(Variant {
                what: format!("{name} aligned-timeout"),
                scenario: preset.with_aligned_timeout(true),
                non_fifo: false,
            });
        }
    }
    out
}

fn run_to(v: &Variant, steps: u64) -> Run {
    let mut run = Run::new(v.scenario.clone()).unwrap();
    if v.non_fifo {
        run.apply(Action::SetFifo {
            channel: 0,
            fifo: false,
        })
        .unwrap();
    }
    while run.position() < steps && run.forward() {}
    run
}

async fn render_checkpoints_tab(v: &Variant, steps: u64, open: Option<u64>) -> String {
    let (scenario, non_fifo) = (v.scenario.clone(), v.non_fifo);
    let props = move || {
        let v = Variant {
            what: String::new(),
            scenario,
            non_fifo,
        };
        InspectorProps {
            run: RunRef(Rc::new(RefCell::new(run_to(&v, steps)))),
            version: 1,
            selection: None,
            tab: Tab::Checkpoints,
            checkpoint: open,
            lang: Lang::En,
            on_tab: Callback::noop(),
            on_open: Callback::noop(),
            on_fifo: Callback::noop(),
            on_fail: Callback::noop(),
            on_select: Callback::noop(),
        }
    };
    ServerRenderer::<Inspector>::with_props(props)
        .render()
        .await
}

#[yew::function_component(Inspector)]
fn inspector_component(p: &InspectorProps) -> yew::Html {
    inspector(p)
}

#[yew::function_component(Coordinator)]
fn coordinator_component(p: &CoordinatorProps) -> yew::Html {
    coordinator(p)
}

/// The figure before `after` in `text`, as a number ("3 would be lost" → 3).
fn number_before(text: &str, after: &str) -> Option<u64> {
    let at = text.find(after)?;
    text[..at]
        .split(|c: char| !c.is_ascii_digit())
        .rfind(|s| !s.is_empty())?
        .parse()
        .ok()
}

#[tokio::test]
async fn every_place_the_page_says_a_thing_says_the_same() {
    let (mut verdicts, mut inconsistent, mut marks, mut carried) = (0, 0, 0, 0);
    let s = Lang::En.strings();
    // One finding, worded once: the inspector's headline, the table's and the coordinator's
    // short form.
    let words = |f: Finding| match f {
        Finding::Consistent => (s.consistent, s.consistent_short),
        Finding::CarriesDuplicates => (s.carries_duplicates, s.carries_duplicates_short),
        Finding::Inconsistent { .. } => (s.inconsistent, s.inconsistent_short),
    };
    for v in variants() {
        for steps in [400, 1500, 3000] {
            let run = run_to(&v, steps);
            let sim = run.sim();
            let coord = sim.coordinator();

            // The verdict of the newest completed checkpoint, and the lines under it.
            if let Some(gs) = coord.latest_completed() {
                let n = gs.checkpoint;
                let html = render_checkpoints_tab(&v, steps, Some(n)).await;
                let what = format!("{} at step {steps}, checkpoint {n}", v.what);
                let listed = |word: &str| html.matches(word).count();
                // Each line of the verdict carries its own check's mark.
                let v = &gs.verdict;
                let (headline, _) = words(v.finding());
                assert!(html.contains(headline), "{what}: not {headline} in {html}");
                if v.finding() == Finding::CarriesDuplicates {
                    carried += 1;
                }
                if let Some(w) = &v.word_check {
                    assert_eq!(
                        html.contains("✓ The word counts equal"),
                        w.mismatches.is_empty(),
                        "{what}"
                    );
                }
                assert_eq!(html.contains("verdict ok"), v.ok(), "{what}");
                if v.consistent {
                    assert!(!html.contains("data-testid=\"crossings\""), "{what}");
                    assert!(!html.contains(" would be lost"), "{what}");
                } else {
                    inconsistent += 1;
                    let twice = number_before(&html, " would be processed twice")
                        .unwrap_or_else(|| panic!("{what}: no counts in {html}"));
                    let lost = number_before(&html, " would be lost").unwrap();
                    // Each line names one record: doubled ones end "counted twice.", lost ones
                    // "lost." (at most 8 are listed).
                    let (doubled, gone) = (listed("counted twice.</li>"), listed("— lost.</li>"));
                    assert!(
                        twice >= doubled as u64 && lost >= gone as u64,
                        "{what}: {twice}/{lost} vs {doubled}/{gone} lines"
                    );
                    assert!(twice + lost > 0, "{what}: inconsistent, yet 0 and 0");
                }
                // The checkpoints table's verdict column, for every retained checkpoint.
                for c in coord.checkpoints() {
                    let Some(g) = coord.global_state(c.id) else {
                        continue;
                    };
                    let row = html
                        .split(&format!("data-testid=\"checkpoint-row-{}\"", c.id))
                        .nth(1)
                        .and_then(|r| r.split("</tr>").next())
                        .unwrap_or_else(|| panic!("{what}: no row for {}", c.id));
                    let says = format!(
                        "{} {}",
                        if g.verdict.ok() { "✓" } else { "⚠" },
                        words(g.verdict.finding()).1
                    );
                    assert!(
                        row.contains(&says),
                        "{what}: row {} says not {says}: {row}",
                        c.id
                    );
                    verdicts += 1;
                }
            }

            // The coordinator's cards and chips mark each checkpoint as its verdict says.
            let checkpoints = coord.checkpoints().to_vec();
            let expected: Vec<(u64, Finding)> = checkpoints
                .iter()
                .filter(|c| c.status == CheckpointStatus::Completed)
                .filter_map(|c| {
                    coord
                        .global_state(c.id)
                        .map(|g| (c.id, g.verdict.finding()))
                })
                .collect();
            let props = move || CoordinatorProps {
                checkpoints: checkpoints.clone(),
                open: None,
                lang: Lang::En,
                on_open: Callback::noop(),
                snapshots: false,
                on_more: Callback::noop(),
            };
            let html = ServerRenderer::<Coordinator>::with_props(props)
                .render()
                .await;
            for (id, finding) in expected {
                let Some(at) = html.find(&format!("data-testid=\"checkpoint-{id}\"")) else {
                    continue; // further back than the panel lists
                };
                let button = &html[at..html[at..].find("</button>").map_or(html.len(), |e| at + e)];
                let warned = button.contains('⚠');
                assert_eq!(
                    warned,
                    !finding.is_consistent(),
                    "{}: checkpoint {id} marked {button}",
                    v.what
                );
                if !finding.is_consistent() {
                    let short = words(finding).1;
                    assert!(
                        button.contains(short),
                        "{}: {id} not {short}: {button}",
                        v.what
                    );
                }
                marks += 1;
            }
        }
    }
    eprintln!(
        "{verdicts} table verdicts and {marks} coordinator marks checked; {inconsistent} \
         inconsistent global states and {carried} consistent cuts carrying duplicates among \
         the verdicts read"
    );
    assert!(inconsistent > 0 && carried > 0 && marks > 50 && verdicts > 50);
}

/// The unaligned lesson of `backpressure` says the checkpoint "is bigger instead": the
/// checkpointed size the inspector shows for its checkpoints is bigger than aligned's.
#[tokio::test]
async fn the_backpressure_lesson_claim_holds_in_the_figures_it_shows() {
    let texts = Texts::parse(include_str!("../static/theory/en.txt"), Lang::En).unwrap();
    let lesson = texts
        .lesson("backpressure", BarrierMode::Unaligned)
        .unwrap();
    assert!(lesson.contains("bigger"));
    let mut sizes = Vec::new();
    for mode in [BarrierMode::Aligned, BarrierMode::Unaligned] {
        let v = Variant {
            what: format!("backpressure {mode}"),
            scenario: presets::backpressure().with_mode(mode),
            non_fifo: false,
        };
        let html = render_checkpoints_tab(&v, 3000, None).await;
        // The rows' last cell is the checkpointed size ("728 B").
        let mut row_sizes: Vec<u64> = html
            .split("data-testid=\"checkpoint-row-")
            .skip(1)
            .filter_map(|row| {
                let row = row.split("</tr>").next()?;
                number_before(row.rsplit("<td").next()?, " B")
            })
            .collect();
        row_sizes.sort_unstable();
        assert!(row_sizes.len() > 5, "{mode}: {row_sizes:?}");
        sizes.push(row_sizes[row_sizes.len() / 2]);
    }
    assert!(
        sizes[1] > sizes[0],
        "unaligned {} B is not bigger than aligned {} B",
        sizes[1],
        sizes[0]
    );
}
