//! Server-side rendering of the page's components, natively: each component drawn from plain
//! data, checked for the hooks the end-to-end tests and a student rely on.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::rc::Rc;

use abs_playground::engine::coordinator::{CheckpointStatus, CheckpointSummary};
use abs_playground::engine::record::{ItemKind, Payload, Record};
use abs_playground::engine::snapshot::Finding;
use abs_playground::engine::view::{self, MarkKind};
use abs_playground::i18n::Lang;
use abs_playground::scenario::presets;
use abs_playground::ui::components::buffer::{alignment_buffer, BufferProps};
use abs_playground::ui::components::coordinator::{coordinator, CoordinatorProps};
use abs_playground::ui::components::dataflow::{Dataflow, DataflowProps};
use abs_playground::ui::components::global_states::{global_states, GlobalStatesProps};
use abs_playground::ui::components::help::{help, HelpProps};
use abs_playground::ui::components::inspector::{inspector, InspectorProps};
use abs_playground::ui::components::narration::{narration, Line, NarrationProps};
use abs_playground::ui::components::timeline::{timeline, TimelineProps};
use abs_playground::ui::layout::{ChannelPath, Point, DETAILED};
use abs_playground::ui::run::{Mark, Run};
use abs_playground::ui::state::{RunRef, Selection, Tab};
use abs_playground::ui::App;
use yew::{Callback, ServerRenderer};

fn run(done: fn(&Run) -> bool) -> Run {
    let mut run = Run::new(presets::alignment()).unwrap();
    for _ in 0..1000 {
        if done(&run) {
            break;
        }
        assert!(run.forward());
    }
    run
}

fn run_until(done: fn(&Run) -> bool) -> RunRef {
    RunRef(Rc::new(RefCell::new(run(done))))
}

/// The inspector's properties for `run`, every callback a no-op.
fn inspector_props(
    run: RunRef,
    selection: Option<Selection>,
    tab: Tab,
    checkpoint: Option<u64>,
    lang: Lang,
) -> InspectorProps {
    InspectorProps {
        run,
        version: 1,
        selection,
        tab,
        checkpoint,
        lang,
        on_tab: Callback::noop(),
        on_open: Callback::noop(),
        on_fifo: Callback::noop(),
        on_fail: Callback::noop(),
        on_select: Callback::noop(),
    }
}

#[tokio::test]
async fn the_app_renders_its_controls_and_the_alignment_preset() {
    let html = ServerRenderer::<App>::new().render().await;
    // No inline style anywhere: the page's content security policy would refuse it.
    assert!(!html.contains("style="), "an inline style in the page");
    for hook in [
        "step",
        "step-back",
        "play",
        "speed",
        "timeline",
        "reset",
        "trigger-checkpoint",
        "manual-mode",
        "mode",
        "preset",
        "lang",
        "narration",
        "step-counter",
    ] {
        assert!(
            html.contains(&format!("data-testid=\"{hook}\"")),
            "missing {hook}"
        );
    }
    assert!(html.contains("data-testid=\"operator-Merge\""));
    assert!(html.contains("data-testid=\"subtask-Merge-0\""));
    assert!(html.contains("data-testid=\"channel-Src A#0-Merge#0\""));
    assert!(html.contains("data-blocked=\"false\""));
    assert!(
        html.contains("Barrier 1 reaches Merge"),
        "the lesson is explained"
    );
}

#[tokio::test]
async fn the_dataflow_draws_a_blocked_channel_with_its_lock_and_held_items() {
    let props = || DataflowProps {
        run: run_until(|r| abs_playground::engine::view::held_items(r.sim(), 0).len() >= 2),
        version: 1,
        selection: Some(Selection::Task(2)),
        manual: false,
        lang: Lang::En,
        on_select: Callback::noop(),
        on_deliver: Callback::noop(),
        on_poke: Callback::noop(),
        on_frame: Callback::noop(),
    };
    let html = ServerRenderer::<Dataflow>::with_props(props).render().await;
    let channel = html
        .split("data-testid=\"channel-Src A#0-Merge#0\"")
        .nth(1)
        .unwrap();
    assert!(channel.trim_start().starts_with("data-blocked=\"true\""));
    assert!(html.contains("class=\"lock\""));
    assert!(html.contains(">blocked<"));
    assert!(html.contains("aligning 1"));
    let buffer = html
        .split("data-testid=\"buffer-Src A#0-Merge#0\"")
        .nth(1)
        .unwrap();
    assert!(buffer.contains("data-held=\"2\""));
    // Aligning for checkpoint 1: drawn in its colour (`kc`, `k1`), and selected.
    assert!(html.contains("class=\"subtask aligning kc k1 selected\""));
}

#[tokio::test]
async fn a_buffer_shows_one_child_per_held_item_and_says_how_many_more() {
    let path = ChannelPath::new(Point { x: 0.0, y: 0.0 }, Point { x: 300.0, y: 50.0 }, 84.0);
    let record = ItemKind::Record(Record {
        id: 1,
        parent: 0,
        payload: Payload::Line(0),
        replay: false,
    });
    let props = move || BufferProps {
        testid: "buffer-x".into(),
        path,
        metrics: DETAILED,
        held: vec![record; 12],
        lang: Lang::En,
        log: None,
    };
    let html = ServerRenderer::<AlignmentBuffer>::with_props(props)
        .render()
        .await;
    assert!(html.contains("data-held=\"12\""));
    let shown = html.matches("class=\"held\"").count();
    assert!((5..12).contains(&shown), "{shown}");
    assert!(html.contains(&format!("+{}", 12 - shown)));
}

#[tokio::test]
async fn the_coordinator_lists_each_checkpoint_with_its_status_and_acks() {
    let checkpoints = || {
        run(|r| r.sim().coordinator().checkpoints().len() >= 2)
            .sim()
            .coordinator()
            .checkpoints()
            .to_vec()
    };
    assert_eq!(checkpoints()[0].status, CheckpointStatus::Completed);
    let props = move || CoordinatorProps {
        checkpoints: checkpoints(),
        open: Some(1),
        lang: Lang::Zh,
        on_open: Callback::noop(),
        snapshots: false,
        on_more: Callback::noop(),
    };
    let html = ServerRenderer::<Coordinator>::with_props(props)
        .render()
        .await;
    assert!(html.contains("data-testid=\"checkpoint-1\" data-status=\"completed\""));
    assert!(html.contains("data-testid=\"checkpoint-2\" data-status=\"in-progress\""));
    assert!(html.contains("檢查點 1"));
    assert!(html.contains("已確認 4/4"));
    assert!(!html.contains("more-checkpoints"));
}

/// The coordinator, in English, over checkpoints 1 to `n`, all completed, with the verdicts
/// `consistent` gives (the other figures those of a real run's first checkpoint).
async fn render_completed_checkpoints(
    n: u64,
    consistent: impl Fn(u64) -> Option<bool>,
    snapshots: bool,
) -> String {
    let one = *run(|r| !r.sim().coordinator().checkpoints().is_empty())
        .sim()
        .coordinator()
        .checkpoints()
        .first()
        .unwrap();
    let list: Vec<CheckpointSummary> = (1..=n)
        .map(|id| CheckpointSummary {
            id,
            status: CheckpointStatus::Completed,
            consistent: consistent(id),
            finding: match consistent(id) {
                Some(false) => Finding::Inconsistent {
                    duplicated: 1,
                    lost: 0,
                },
                _ => Finding::Consistent,
            },
            ..one
        })
        .collect();
    let props = move || CoordinatorProps {
        checkpoints: list.clone(),
        open: None,
        lang: Lang::En,
        on_open: Callback::noop(),
        snapshots,
        on_more: Callback::noop(),
    };
    ServerRenderer::<Coordinator>::with_props(props)
        .render()
        .await
}

/// "N more in the Checkpoints tab" counts what that tab lists (its newest rows), not every
/// checkpoint of a long run.
#[tokio::test]
async fn the_coordinator_counts_only_what_the_checkpoints_tab_lists() {
    use abs_playground::ui::components::coordinator::EARLIER_CHIPS;
    use abs_playground::ui::components::MAX_ROWS;
    let html = render_completed_checkpoints(200, |_| None, false).await;
    // One card (the newest completed), the chips, and the rest of the tab's rows.
    let more = MAX_ROWS - 1 - EARLIER_CHIPS;
    assert!(
        html.contains(&format!("{more} more in the Checkpoints tab")),
        "{html}"
    );
}

/// A completed snapshot is not a correct one: the coordinator marks a completed checkpoint
/// whose global state is inconsistent with ⚠ and says so, on its card and on its chip.
#[tokio::test]
async fn the_coordinator_marks_an_inconsistent_completed_checkpoint() {
    let html = render_completed_checkpoints(8, |id| Some(id % 2 == 0), true).await;
    // The newest (8, consistent) is a card; 7 down to 1 are chips.
    assert!(
        html.contains("aria-label=\"Snapshot 7: completed — inconsistent\""),
        "{html}"
    );
    assert!(html.contains("7 ⚠"), "{html}");
    assert!(
        html.contains("aria-label=\"Snapshot 6: completed\""),
        "{html}"
    );
    assert!(html.contains("6 ✓"), "{html}");
}

#[tokio::test]
async fn a_long_run_keeps_the_coordinator_short_and_points_at_the_checkpoints_tab() {
    let checkpoints = || {
        let mut sim = presets::alignment().simulation().unwrap();
        while sim.coordinator().checkpoints().len() < 24 {
            assert!(sim.step().is_some());
            assert!(
                sim.steps() < 100_000,
                "24 checkpoints not triggered in 100,000 steps"
            );
        }
        sim.coordinator().checkpoints().to_vec()
    };
    let all = checkpoints();
    let props = move || CoordinatorProps {
        checkpoints: checkpoints(),
        open: None,
        lang: Lang::En,
        on_open: Callback::noop(),
        snapshots: false,
        on_more: Callback::noop(),
    };
    let html = ServerRenderer::<Coordinator>::with_props(props)
        .render()
        .await;
    // A few cards (the running ones down to the latest completed), then the earlier ones as
    // chips, then a link to the Checkpoints tab for the rest.
    let cards = html.matches("class=\"checkpoint ").count();
    let chips = html.matches("class=\"chip ").count();
    assert!((1..=4).contains(&cards), "{cards}: {html}");
    assert_eq!(chips, 16);
    let newest = all.len();
    assert!(html.contains(&format!("data-testid=\"checkpoint-{newest}\"")));
    assert!(html.contains(&format!(
        "data-testid=\"checkpoint-{}\"",
        newest - cards - 15
    )));
    assert!(!html.contains("data-testid=\"checkpoint-1\""));
    assert!(html.contains(&format!(
        "{} more in the Checkpoints tab",
        newest - cards - chips
    )));
}

#[tokio::test]
async fn the_inspector_shows_a_completed_checkpoint_as_tables_with_a_verdict() {
    let props = || {
        inspector_props(
            run_until(|r| r.sim().coordinator().global_state(1).is_some()),
            None,
            Tab::Checkpoints,
            Some(1),
            Lang::En,
        )
    };
    let html = ServerRenderer::<Inspector>::with_props(props)
        .render()
        .await;
    assert!(html.contains("data-testid=\"global-state\""));
    assert!(html.contains("Global state of checkpoint 1"));
    assert!(html.contains("Consistent cut"));
    for task in ["Src A#0", "Src B#0", "Merge#0", "Sink#0"] {
        assert!(html.contains(task), "{task}");
    }
    assert!(html.contains("Aligned checkpoints record no channel state"));
    assert!(html.contains("Alignment duration"));
}

#[tokio::test]
async fn the_narration_marks_the_alignment_steps_and_the_current_one() {
    let lines = || {
        vec![
            Line {
                step: 14,
                marker: Some(1),
                text: "Barrier 1 arrived first".into(),
                routine: false,
                checkpoint: Some(1),
            },
            Line {
                step: 15,
                marker: None,
                text: "Src A#0 reads line 4".into(),
                routine: true,
                checkpoint: None,
            },
        ]
    };
    let props = move || NarrationProps {
        lines: lines(),
        position: 15,
        lang: Lang::En,
        on_seek: Callback::noop(),
    };
    let html = ServerRenderer::<Narration>::with_props(props)
        .render()
        .await;
    let newest = html.find("Src A#0 reads").unwrap();
    let older = html.find("Barrier 1 arrived").unwrap();
    assert!(newest < older, "newest first");
    assert!(html.contains("①"));
    assert!(html.contains("class=\"sentence routine current\""));
}

#[tokio::test]
async fn the_timeline_marks_checkpoints() {
    let props = || TimelineProps {
        position: 10,
        len: 40,
        marks: vec![
            Mark {
                step: 8,
                time: 40,
                checkpoint: 1,
                kind: MarkKind::Triggered,
            },
            Mark {
                step: 30,
                time: 150,
                checkpoint: 1,
                kind: MarkKind::Completed,
            },
        ],
        lang: Lang::En,
        on_seek: Callback::noop(),
    };
    let html = ServerRenderer::<Timeline>::with_props(props).render().await;
    assert!(html.contains("data-testid=\"timeline\""));
    assert!(html.contains("x=\"20%\""));
    assert!(html.contains("x=\"75%\""));
    // No inline style: the page's content security policy refuses it.
    assert!(!html.contains("style="));
    assert!(html.contains("▲") && html.contains("✓"));
}

/// The chart's scale is what the sinks can take: no bar ever passes it, and it is the same for
/// a preset in every mode, so the bars of two modes can be compared by height.
#[test]
fn the_throughput_scale_holds_every_bar_and_is_the_same_in_every_mode() {
    use abs_playground::engine::BarrierMode;
    use abs_playground::ui::components::throughput::sink_capacity;
    for name in ["alignment", "backpressure", "wordcount", "recovery"] {
        let mut capacities = Vec::new();
        for mode in [
            BarrierMode::Aligned,
            BarrierMode::Unaligned,
            BarrierMode::AtLeastOnce,
        ] {
            let mut run = Run::new(presets::by_name(name).unwrap().with_mode(mode)).unwrap();
            for _ in 0..4000 {
                run.forward();
            }
            let capacity = sink_capacity(run.sim().physical());
            let most = run.throughput().buckets.iter().copied().max().unwrap_or(0);
            assert!(
                most > 0 && most <= capacity,
                "{name} {mode}: {most} > {capacity}"
            );
            capacities.push(capacity);
        }
        assert!(
            capacities.windows(2).all(|w| w[0] == w[1]),
            "{name}: {capacities:?}"
        );
    }
}

#[tokio::test]
async fn the_throughput_chart_draws_a_bar_per_bucket_and_checkpoint_lines() {
    use abs_playground::ui::components::throughput::{throughput, ThroughputProps};
    #[yew::function_component(Throughput)]
    fn throughput_component(p: &ThroughputProps) -> yew::Html {
        throughput(p)
    }
    let props = || ThroughputProps {
        first: 0,
        // 30 buckets: 12 each, then a drop to 3 while a checkpoint blocks, then 12 again.
        bars: (0..30)
            .map(|i| if (10..15).contains(&i) { 3 } else { 12 })
            .collect(),
        marks: vec![
            Mark {
                step: 50,
                time: 480,
                checkpoint: 2,
                kind: MarkKind::Triggered,
            },
            Mark {
                step: 90,
                time: 760,
                checkpoint: 2,
                kind: MarkKind::Completed,
            },
        ],
        // The sinks could take 24 per bar: the axis goes to 24, whatever the bars reach.
        capacity: 24,
        lang: Lang::En,
    };
    let html = ServerRenderer::<Throughput>::with_props(props)
        .render()
        .await;
    assert!(html.contains("data-testid=\"throughput\""));
    // The latest complete bar (the last one still fills), and the average of the 29 complete
    // ones: (24 × 12 + 5 × 3) / 29 = 10.4.
    assert!(html.contains("latest 12, average 10.4 per 50"), "{html}");
    assert!(html.contains("<span>24</span><span>0</span>"), "{html}");
    // One bar per bucket: 30 closed sub-paths; on a scale of 24, 12 is 20 high, 3 is 5.
    let d = html
        .split(" d=\"")
        .nth(1)
        .unwrap_or_else(|| panic!("{html}"));
    let d = &d[..d.find('"').unwrap()];
    assert_eq!(d.matches('z').count(), 30);
    assert!(d.contains("v20") && d.contains("v5"), "{d}");
    // A dashed line where checkpoint 2 was triggered, a solid one where it completed.
    assert_eq!(html.matches("<line").count(), 2);
    assert_eq!(html.matches("stroke-dasharray=\"2 2\"").count(), 1);
}

/// Chandy-Lamport's trigger button reads "Start snapshot" (`app.rs`): every text that names
/// it — the empty Snapshots panel, the shortcuts — names it so, and the panel's tab where the
/// side panel folds into tabs (≤ 1024 px) is "Snapshots" as the panel is; in both languages.
/// The ABS modes' texts name "Trigger checkpoint" and the coordinator.
#[tokio::test]
async fn chandy_lamport_texts_name_the_controls_as_they_are_labelled() {
    for lang in [Lang::En, Lang::Zh] {
        let s = lang.strings();
        for (preset, snapshots) in [("token", true), ("alignment", false)] {
            let (button, other) = if snapshots {
                (s.start_snapshot, s.trigger)
            } else {
                (s.trigger, s.start_snapshot)
            };
            let props = move || CoordinatorProps {
                checkpoints: Vec::new(),
                open: None,
                lang,
                on_open: Callback::noop(),
                snapshots,
                on_more: Callback::noop(),
            };
            let panel = ServerRenderer::<Coordinator>::with_props(props)
                .render()
                .await;
            let props = move || HelpProps {
                lang,
                snapshots,
                on_close: Callback::noop(),
                close: Default::default(),
            };
            let shortcuts = ServerRenderer::<Help>::with_props(props).render().await;
            for (what, html) in [("the empty panel", &panel), ("the shortcuts", &shortcuts)] {
                let text = html.to_lowercase();
                assert!(
                    text.contains(&button.to_lowercase()),
                    "{lang:?} {preset}: {what} does not name {button:?}: {html}"
                );
                assert!(
                    !text.contains(&other.to_lowercase()),
                    "{lang:?} {preset}: {what} names {other:?}: {html}"
                );
            }
            let props = move || {
                let run = Run::new(presets::by_name(preset).unwrap()).unwrap();
                let run = RunRef(Rc::new(RefCell::new(run)));
                inspector_props(run, None, Tab::Coordinator, None, lang)
            };
            let html = ServerRenderer::<Inspector>::with_props(props)
                .render()
                .await;
            let tab = html
                .split("data-testid=\"tab-coordinator\"")
                .nth(1)
                .and_then(|rest| rest.split_once('>'))
                .and_then(|(_, rest)| rest.split('<').next())
                .unwrap_or_else(|| panic!("no coordinator tab: {html}"));
            let name = if snapshots {
                s.snapshots_title
            } else {
                s.coordinator
            };
            assert_eq!(tab, name, "{lang:?} {preset}");
            // A selected process is a process, a selected subtask a subtask.
            let props = move || {
                let run = Run::new(presets::by_name(preset).unwrap()).unwrap();
                let run = RunRef(Rc::new(RefCell::new(run)));
                inspector_props(run, Some(Selection::Task(0)), Tab::Details, None, lang)
            };
            let html = ServerRenderer::<Inspector>::with_props(props)
                .render()
                .await;
            let (who, not) = if snapshots {
                (s.process, s.subtask)
            } else {
                (s.subtask, s.process)
            };
            assert!(
                html.contains(&format!("<h3>{who} ")),
                "{lang:?} {preset}: {html}"
            );
            assert!(
                !html.contains(&format!("<h3>{not} ")),
                "{lang:?} {preset}: {html}"
            );
        }
    }
}

/// The token preset run until its first snapshot completed (deterministic, so two calls give
/// the same run).
fn token_run() -> Run {
    let mut run = Run::new(presets::token()).unwrap();
    while run.sim().coordinator().latest_completed().is_none() {
        assert!(run.forward());
        assert!(
            run.sim().steps() < 10_000,
            "the token preset completed no snapshot in 10,000 steps"
        );
    }
    run
}

/// The token system's figure: one node per global state, the token's place now lit, the state
/// the latest completed snapshot captured marked — both as the engine's global state says.
#[tokio::test]
async fn the_token_diagram_lights_the_current_state_and_marks_the_captured_one() {
    let run = token_run();
    let sim = run.sim();
    let sys = abs_playground::engine::view::token_system(sim).unwrap();
    let now = abs_playground::engine::view::token_place_now(sim, &sys).unwrap();
    let gs = sim.coordinator().latest_completed().unwrap();
    let captured = abs_playground::engine::view::token_place_captured(gs, &sys).unwrap();
    let props = || GlobalStatesProps {
        run: RunRef(Rc::new(RefCell::new(token_run()))),
        version: 1,
        checkpoint: None,
        lang: Lang::En,
    };
    let html = ServerRenderer::<GlobalStates>::with_props(props)
        .render()
        .await;
    assert_eq!(html.matches("data-testid=\"global-state-node\"").count(), 4);
    for place in ["at-p", "in-p-q", "at-q", "in-q-p"] {
        let node = format!(
            "data-state=\"{place}\" data-current=\"{}\" data-captured=\"{}\"",
            now.as_str() == place,
            captured.as_str() == place
        );
        assert!(html.contains(&node), "{node} in {html}");
    }
    assert!(html.contains("token at p"));
    // Not drawn for a graph without the token system.
    let props = || GlobalStatesProps {
        run: run_until(|_| true),
        version: 1,
        checkpoint: None,
        lang: Lang::En,
    };
    let html = ServerRenderer::<GlobalStates>::with_props(props)
        .render()
        .await;
    assert!(!html.contains("global-state-diagram"));
}

// The page calls these views as plain functions (`ui/components/mod.rs`); they are rendered
// here through components.
#[yew::function_component(GlobalStates)]
fn global_states_component(p: &GlobalStatesProps) -> yew::Html {
    global_states(p)
}

#[yew::function_component(AlignmentBuffer)]
fn alignment_buffer_component(p: &BufferProps) -> yew::Html {
    alignment_buffer(p)
}

#[yew::function_component(Coordinator)]
fn coordinator_component(p: &CoordinatorProps) -> yew::Html {
    coordinator(p)
}

#[yew::function_component(Help)]
fn help_component(p: &HelpProps) -> yew::Html {
    help(p)
}

#[yew::function_component(Inspector)]
fn inspector_component(p: &InspectorProps) -> yew::Html {
    inspector(p)
}

#[yew::function_component(Narration)]
fn narration_component(p: &NarrationProps) -> yew::Html {
    narration(p)
}

#[yew::function_component(Timeline)]
fn timeline_component(p: &TimelineProps) -> yew::Html {
    timeline(p)
}

/// The legend names what the records of the job on screen are, in the colours the view gives
/// them: words by their key (and their round in a loop, told apart from a replay's ↻), the
/// token, money, or plain records.
#[tokio::test]
async fn the_legend_says_what_the_records_are_and_what_their_colours_mean() {
    use abs_playground::engine::sim::Capabilities;
    use abs_playground::ui::components::legend::{legend, LegendProps, RecordLook};
    #[yew::function_component(Legend)]
    fn legend_component(p: &LegendProps) -> yew::Html {
        legend(p)
    }
    for (name, says, rounds) in [
        ("alignment", "<span>record</span>", false),
        ("wordcount", "coloured by its word (its key)", false),
        ("iteration", "coloured by its word (its key)", true),
        ("token", "the token", false),
        ("bank", "a transfer of money", false),
    ] {
        let scenario = presets::by_name(name).unwrap();
        let records = RecordLook::of(&scenario.graph);
        let caps: Capabilities = scenario.simulation().unwrap().capabilities();
        let props = move || LegendProps {
            lang: Lang::En,
            caps,
            recovery: false,
            records,
        };
        let html = ServerRenderer::<Legend>::with_props(props).render().await;
        assert!(html.contains(says), "{name}: {html}");
        assert_eq!(html.contains("·r2"), rounds, "{name}: {html}");
    }
    // Stop-the-world sends no barrier: the legend lists none, nor the inputs that delivered
    // one; every other mode does.
    for mode in presets::alignment().modes() {
        let scenario = presets::alignment().with_mode(mode);
        let caps: Capabilities = scenario.simulation().unwrap().capabilities();
        let props = move || LegendProps {
            lang: Lang::En,
            caps,
            recovery: false,
            records: RecordLook::Plain,
        };
        let html = ServerRenderer::<Legend>::with_props(props).render().await;
        let barriers = html.contains("inputs that delivered the")
            && (html.contains("barrier n") || html.contains("marker"));
        assert_eq!(
            barriers,
            mode != abs_playground::engine::BarrierMode::Synchronous,
            "{mode}: {html}"
        );
        assert_eq!(
            html.contains("cancellation marker"),
            mode != abs_playground::engine::BarrierMode::Synchronous
                && mode != abs_playground::engine::BarrierMode::ChandyLamport,
            "{mode}"
        );
    }
    // The view spells a word's round the way the legend does.
    let mut sim = presets::iteration().simulation().unwrap();
    let round = loop {
        assert!(sim.step().is_some(), "the iteration preset ended");
        assert!(sim.steps() < 10_000, "no word came round in 10,000 steps");
        let found = sim.last_events().iter().find_map(|e| match e {
            abs_playground::engine::Event::Processed { record, .. } => match record.payload {
                Payload::Round { round, .. } if round > 0 => Some(sim.describe(&record.payload)),
                _ => None,
            },
            _ => None,
        });
        if let Some(text) = found {
            break text;
        }
    };
    assert!(round.contains("·r") && !round.contains('↻'), "{round}");
}

/// `large` run until its Count subtasks are between a checkpoint's first barrier and their
/// acknowledgement, some of them with items waiting at their inputs.
fn large_mid_checkpoint() -> Run {
    let mut run = Run::new(presets::large()).unwrap();
    let count = 3;
    for _ in 0..20_000 {
        assert!(run.forward());
        let sim = run.sim();
        let mid = sim.coordinator().in_progress().last().is_some_and(|n| {
            let acked = sim.physical().operator_tasks[count]
                .iter()
                .filter(|&&t| sim.coordinator().acked_by(n, t))
                .count();
            (1..30).contains(&acked)
        });
        if mid && !view::busiest_subtasks(sim, count as u32, 1).0.is_empty() {
            return run;
        }
    }
    panic!("large never reached a checkpoint half acknowledged by Count");
}

#[tokio::test]
async fn a_card_opens_its_busiest_and_slowest_subtasks_and_a_band_its_busiest_channels() {
    let run = large_mid_checkpoint();
    let sim = run.sim();
    let n = sim.coordinator().in_progress().last().unwrap();
    let (busy, _) = view::busiest_subtasks(sim, 3, 8);
    let slow = view::slowest_subtasks(sim, 3, 8).unwrap();
    let (channels, _) = view::busiest_channels(sim, 2, 8);
    let name = |t: u32| sim.physical().tasks[t as usize].name.clone();
    let (busy_first, slow_first) = (name(busy[0].0), name(slow.rows[0].0));
    let channel_first = sim.physical().channel_label(channels[0].0);
    let first_lag = match slow.rows[0].1 {
        view::Lag::Waiting { arrived, inputs } => (arrived, inputs),
        other => panic!("the slowest of a running checkpoint has not acknowledged: {other:?}"),
    };
    // The props are made where they are rendered (a run is not Send): the same run again,
    // the engine being deterministic.
    let render = |selection, lang| {
        ServerRenderer::<Inspector>::with_props(move || {
            let run = RunRef(Rc::new(RefCell::new(large_mid_checkpoint())));
            inspector_props(run, Some(selection), Tab::Details, None, lang)
        })
        .render()
    };
    let html = render(Selection::Operator(3), Lang::En).await;
    assert!(html.contains("data-testid=\"operator-details\""), "{html}");
    assert!(html.contains("Operator Count"));
    assert!(html.contains("Busiest subtasks"));
    assert!(html.contains(&format!("Slowest in checkpoint {n} (running)")));
    // The lists in their order: the busiest first, the slowest first.
    let busiest = html
        .split("data-testid=\"busiest-subtasks\"")
        .nth(1)
        .unwrap();
    assert!(
        busiest.split("</li>").next().unwrap().contains(&busy_first),
        "{busiest}"
    );
    let slowest = html
        .split("data-testid=\"slowest-subtasks\"")
        .nth(1)
        .unwrap();
    let first = slowest.split("</li>").next().unwrap();
    assert!(first.contains(&slow_first), "{first}");
    assert!(
        first.contains(&format!(
            "barrier on {} of {} inputs",
            first_lag.0, first_lag.1
        )),
        "{first}"
    );
    assert!(
        slowest.contains(&format!("… and {} more", slow.more)),
        "{slowest}"
    );

    let html = render(Selection::Edge(2), Lang::En).await;
    assert!(html.contains("data-testid=\"edge-details\""));
    assert!(html.contains("Filter → Count"));
    assert!(html.contains("<dd>hash</dd>"));
    assert!(html.contains("<dd>1600</dd>"), "40 × 40 channels");
    let busiest = html
        .split("data-testid=\"busiest-channels\"")
        .nth(1)
        .unwrap();
    assert!(
        busiest
            .split("</li>")
            .next()
            .unwrap()
            .contains(&channel_first),
        "{busiest}"
    );

    // The same in Chinese, Traditional and Simplified.
    let zh = render(Selection::Operator(3), Lang::Zh).await;
    assert!(
        zh.contains(&format!("檢查點 {n}（進行中）最慢的子任務")),
        "{zh}"
    );
    assert!(zh.contains("最忙的子任務"));
    let hans = render(Selection::Edge(2), Lang::ZhHans).await;
    assert!(hans.contains("最忙的通道"), "{hans}");
    assert!(hans.contains("通道数"));
}
