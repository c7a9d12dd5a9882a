//! The page: reads the address once, owns the one reducer, keeps the address and the
//! document language in sync, listens to the keyboard, and lays the components out.

use yew::prelude::*;

use super::address::{
    initial_playback, leave, moment_link, open_here, query, sync_address, LANG_FRAGMENT,
};
use super::components::controls::{controls, ControlsProps};
use super::components::coordinator::{coordinator, CoordinatorProps};
use super::components::dataflow::Dataflow;
use super::components::dialog::use_dialog_focus_while;
use super::components::global_states::{global_states, GlobalStatesProps};
use super::components::header::{header, HeaderProps};
use super::components::help::{help, HelpProps};
use super::components::inspector::{global_state_title, inspector, InspectorProps};
use super::components::legend::{legend, LegendProps, RecordLook};
use super::components::narration::{narration, Line, NarrationProps};
use super::components::recovery::{recovery_line, RecoveryProps};
use super::components::share::{share_dialog, ShareProps};
use super::components::spacetime::{spacetime, SpaceTimeProps};
use super::components::theory;
use super::components::throughput::{sink_capacity, throughput, ThroughputProps};
use super::components::timeline::{timeline, TimelineProps};
use super::host_link;
use super::keyboard;
use super::state::{PlaybackAction, Selection, Tab};
use crate::engine::{BarrierMode, ChannelId, CheckpointId, TaskId};
use crate::i18n::{Lang, Strings};
use crate::scenario::modes::RunMode;

/// Narration lines shown at most.
const NARRATION_LINES: usize = 40;

/// The title and lesson above the dataflow. An edited scenario speaks for itself; a preset's
/// title and lesson are translated, its lesson the one of the mode on screen. Aligned with a
/// timeout is aligned until an alignment takes longer: the aligned lesson, then what the
/// timeout changes.
///
/// A preset's lesson in another mode than aligned is in the fetched texts (`texts`); `None`
/// for the lesson while they have not arrived.
fn lesson_line(
    s: &Strings,
    scenario: &crate::scenario::Scenario,
    edited: bool,
    mode: BarrierMode,
    timeout: Option<u64>,
    debloat: Option<u64>,
    texts: Option<&crate::i18n::theory::Texts>,
) -> (String, Option<String>) {
    let preset_text = (s.preset_text)(&scenario.name).filter(|_| !edited);
    let (title, lesson) = match preset_text {
        // The page's wasm holds the lesson of the default mode; the others' are fetched.
        Some((t, l)) if mode != BarrierMode::default() => (
            t.to_string(),
            texts.map(|x| x.lesson(&scenario.name, mode).unwrap_or(l).to_string()),
        ),
        Some((t, l)) => (t.to_string(), Some(l.to_string())),
        None => (scenario.title.clone(), Some(scenario.lesson.clone())),
    };
    let Some(lesson) = lesson else {
        return (title, None);
    };
    // The note of a variant of aligned: the timeout's is in the wasm, debloating's is fetched.
    let note = match (timeout, debloat) {
        (Some(t), _) => (s.timeout_note)(t),
        (None, Some(t)) => match texts.and_then(|x| x.debloat_lesson(t)) {
            Some(note) => note,
            None => return (title, None),
        },
        (None, None) => return (title, Some(lesson)),
    };
    // Chinese sentences follow one another without a space.
    let gap = if lesson.ends_with(|c: char| c.is_ascii()) {
        " "
    } else {
        ""
    };
    let lesson = format!("{lesson}{gap}{note}").trim_start().to_string();
    (title, Some(lesson))
}

#[function_component(App)]
pub fn app() -> Html {
    let playback = use_reducer(initial_playback);
    let dispatcher = playback.dispatcher();
    let s = playback.lang.strings();
    let theory_open = use_state(|| query().theory);
    // The fetched texts (the panel's, and a lesson in another mode than aligned): the language
    // whose last fetch ended, and the retries asked for.
    let fetch_ended = use_state(|| None::<Lang>);
    let fetch_attempt = use_state(|| 0u32);
    // Open from the start when a link places a cut on it.
    let spacetime_open = use_state(|| playback.cut.is_some());
    // The help and share dialogs are plain functions: the app moves the focus into them.
    let help_first = use_node_ref();
    use_dialog_focus_while(playback.help, help_first.clone());
    let share_first = use_node_ref();
    use_dialog_focus_while(playback.share, share_first.clone());

    // The mode as the address spells it (the timeout entry is a mode of the menu).
    let mode_param = playback.mode_param();
    {
        // The address names what is shown: the scenario, mode and language always (a new run,
        // by `Rc` identity, is a new scenario); and, once playback is paused or stepped, the
        // moment — the permalink's step, choices, open checkpoint, selection and tab — so that
        // a reload comes back to it. Not while playing
        // (not on every frame), and not embedded: there the page embedding the player owns its
        // address (the iframe's `src`) and drives the moment with `abs:seek` and `abs:load`.
        let run = playback.run.clone();
        let moment = (!playback.playing && !playback.embed).then(|| {
            crate::ui::permalink::query(
                &run.0.borrow(),
                playback.code.as_deref(),
                mode_param,
                playback.lang.code(),
                crate::ui::permalink::Shown {
                    selection: playback.selection,
                    tab: playback.tab,
                    open: playback.checkpoint,
                    cut: playback.cut.as_ref().map(|c| &c.at[..]),
                },
            )
        });
        let key = (
            std::rc::Rc::as_ptr(&run.0) as usize,
            playback.code.clone(),
            mode_param,
            playback.lang,
            moment,
        );
        use_effect_with(key, move |(_, code, mode, lang, moment)| {
            let param = crate::ui::permalink::scenario_param(&run.0.borrow(), code.as_deref());
            sync_address(&param, mode, *lang, moment.as_deref());
        });
    }
    {
        let dispatcher = dispatcher.clone();
        use_effect_with((), move |_| {
            let listener = keyboard::listen(dispatcher.clone());
            let messages = host_link::listen(move |m| dispatcher.dispatch(PlaybackAction::Host(m)));
            host_link::post("{\"type\":\"abs:ready\"}");
            move || {
                let _keep_until_unmount = (listener, messages);
            }
        });
    }
    // The reducer asks to leave for another build; the page goes.
    use_effect_with(playback.leave.clone(), |to| {
        if let Some((_, to)) = to {
            leave(to);
        }
    });
    {
        // An `abs:load` that could not be done as asked is answered with its notice.
        let snapshots = playback.mode.processes_initiate();
        let error = playback.host_error.as_ref().map(|(n, notice)| {
            let text = notice_text(s, notice, snapshots);
            (*n, crate::ui::host::error_message(&text))
        });
        use_effect_with(error, |error| {
            if let Some((_, text)) = error {
                host_link::post(text);
            }
        });
    }
    {
        // The embedding page hears every change, at most about ten a second while playing.
        let run = playback.run.0.borrow();
        let sim = run.sim();
        let text = crate::ui::host::state_message(
            run.position(),
            sim.now(),
            playback.playing,
            &playback.preset,
            mode_param,
            sim.coordinator().checkpoints(),
        );
        let last = use_mut_ref(|| (0.0f64, String::new()));
        let playing = playback.playing;
        use_effect_with(text, move |text| {
            let now = host_link::now_ms();
            let mut last = last.borrow_mut();
            if last.1 != *text && !(playing && now - last.0 < 100.0) {
                host_link::post(text);
                *last = (now, text.clone());
            }
        });
    }

    let send = |action: fn() -> PlaybackAction| {
        let d = dispatcher.clone();
        Callback::from(move |_: ()| d.dispatch(action()))
    };
    let on_select = {
        let d = dispatcher.clone();
        Callback::from(move |sel: Option<Selection>| d.dispatch(PlaybackAction::Select(sel)))
    };
    let on_deliver = {
        let d = dispatcher.clone();
        Callback::from(move |c: ChannelId| d.dispatch(PlaybackAction::Deliver(c)))
    };
    let on_poke = {
        let d = dispatcher.clone();
        Callback::from(move |t: TaskId| d.dispatch(PlaybackAction::Poke(t)))
    };
    let on_frame = {
        let d = dispatcher.clone();
        Callback::from(move |ts: f64| d.dispatch(PlaybackAction::Frame(ts)))
    };
    let on_seek = {
        let d = dispatcher.clone();
        Callback::from(move |step: u64| d.dispatch(PlaybackAction::Seek(step)))
    };
    let on_open = {
        let d = dispatcher.clone();
        Callback::from(move |n: CheckpointId| d.dispatch(PlaybackAction::OpenCheckpoint(n)))
    };
    let on_fifo = {
        let d = dispatcher.clone();
        Callback::from(move |(c, fifo): (ChannelId, bool)| {
            d.dispatch(PlaybackAction::SetFifo(c, fifo))
        })
    };
    let on_fail = {
        let d = dispatcher.clone();
        Callback::from(move |t: TaskId| d.dispatch(PlaybackAction::Fail(t)))
    };
    let on_skip = {
        let d = dispatcher.clone();
        Callback::from(move |t: TaskId| d.dispatch(PlaybackAction::SkipFailure(t)))
    };
    let on_tab = {
        let d = dispatcher.clone();
        Callback::from(move |t: Tab| d.dispatch(PlaybackAction::ShowTab(t)))
    };
    let on_speed = {
        let d = dispatcher.clone();
        Callback::from(move |v: f64| d.dispatch(PlaybackAction::SetSpeed(v)))
    };
    let on_preset = {
        let d = dispatcher.clone();
        Callback::from(move |name: String| d.dispatch(PlaybackAction::SetPreset(name)))
    };
    let on_mode = {
        let d = dispatcher.clone();
        Callback::from(move |m: RunMode| d.dispatch(PlaybackAction::SetMode(m)))
    };
    // A language this build lacks (the page is built once per language) is reached by opening
    // this moment's permalink in it: the page loads again, in that language's build, at the
    // same step with the same choices and views.
    let on_lang = {
        let d = dispatcher.clone();
        let playback = playback.clone();
        let theory_open = theory_open.clone();
        Callback::from(move |l: Lang| {
            if l.is_built() {
                d.dispatch(PlaybackAction::SetLang(l));
                return;
            }
            let mut url = moment_link(&playback, &playback.run.0.borrow(), mode_param, l);
            // What a permalink leaves out and the page shows now (the embedded view has no
            // language menu, so `embed` and `origin` never need carrying).
            if playback.speed_exp != 0.0 {
                let factor = playback.speed_exp.exp2();
                url += &format!("&speed={}", crate::ui::fmt::num(factor, 4));
            }
            if playback.playing {
                url += "&autoplay";
            }
            if *theory_open {
                url += "&theory";
            }
            url += &keyboard::display_params();
            open_here(&(url + LANG_FRAGMENT));
        })
    };

    // The scenario editor is a view of the second build (`ui::edit`): it opens in place of the
    // page at this moment's permalink, which it returns to unless a scenario is applied.
    // So is the search of every run of a small system (`ui::explore`), opened from the
    // space-time diagram.
    let open_view = |view: &'static str| {
        let playback = playback.clone();
        Callback::from(move |()| {
            let url = moment_link(
                &playback,
                &playback.run.0.borrow(),
                mode_param,
                playback.lang,
            );
            open_here(&(url + "&view=" + view));
        })
    };
    let on_edit = open_view("edit");
    let on_explore = open_view("explore");

    let run = playback.run.0.borrow();
    let sim = run.sim();
    let mode = sim.mode();
    let mut lines = Line::recent(&run, playback.lang, crate::ui::run::JOURNAL_WINDOW);
    if lines.len() > NARRATION_LINES {
        lines.drain(..lines.len() - NARRATION_LINES);
    }
    let timeout = sim
        .config()
        .aligned_checkpoint_timeout
        .filter(|_| mode.blocks_inputs());
    let debloat = sim
        .config()
        .buffer_debloat
        .filter(|_| mode.blocks_inputs())
        .map(|b| b.target);
    let texts = theory::loaded(playback.lang);
    let (title, lesson) = lesson_line(
        s,
        &run.scenario,
        playback.code.is_some(),
        mode,
        timeout,
        debloat,
        texts.as_deref(),
    );
    // Still none once a fetch has ended: it failed.
    let fetch_failed = texts.is_none() && *fetch_ended == Some(playback.lang);
    let waiting = lesson.is_none() && !fetch_failed;
    let want_texts = texts.is_none() && lesson.is_none();
    let lesson = lesson.unwrap_or_else(|| {
        if fetch_failed {
            s.theory_failed
        } else {
            s.theory_loading
        }
        .to_string()
    });
    // Why the preset matters (the seed's argument, pointed at what is on screen); an edited
    // scenario has none. Every preset but the benchmarks has one in every mode it runs in (the
    // i18n tests hold the texts to that); the texts themselves are fetched when the panel first
    // opens.
    let named = |list: &[&str]| list.contains(&run.scenario.name.as_str());
    let theory = playback.code.is_none()
        && (named(crate::scenario::presets::NAMES)
            || (cfg!(feature = "views") && named(crate::scenario::presets::SMALL)))
        && !crate::scenario::presets::BENCHMARKS.contains(&run.scenario.name.as_str());
    // The texts are fetched when the panel first opens or a lesson line needs them (once: the
    // panel and the line share them); the panel's retry asks again.
    {
        let ended = fetch_ended.clone();
        let want = want_texts || (theory && *theory_open && texts.is_none());
        use_effect_with(
            (playback.lang, want, *fetch_attempt),
            move |&(lang, want, _)| {
                if want {
                    theory::load(lang, move |_| ended.set(Some(lang)));
                }
            },
        );
    }
    let retry_texts = {
        let (ended, attempt) = (fetch_ended.clone(), fetch_attempt.clone());
        Callback::from(move |_: MouseEvent| {
            ended.set(None);
            attempt.set(*attempt + 1);
        })
    };
    let toggle_spacetime = {
        let open = spacetime_open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let toggle_theory = {
        let open = theory_open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let notices = playback.notices.iter().enumerate().map(|(i, n)| {
        let d = dispatcher.clone();
        html! {
            <div class="notice" role="status" data-testid="notice">
                <span>{ notice_text(s, n, mode.processes_initiate()) }</span>
                <button onclick={move |_| d.dispatch(PlaybackAction::Dismiss(i))}
                    aria-label={s.dismiss}>{ "×" }</button>
            </div>
        }
    });
    let checkpoints = sim.coordinator().checkpoints().to_vec();
    // The throughput chart counts records reaching sinks; Chandy-Lamport's systems have none.
    let has_sink = sim
        .physical()
        .graph
        .operators
        .iter()
        .any(|o| o.kind.is_sink());
    let trigger_label = AttrValue::from(match playback.snapshot_initiator() {
        Some(t) => (s.start_snapshot_at)(&sim.physical().tasks[t as usize].name),
        None if mode.processes_initiate() => s.start_snapshot.to_string(),
        None => s.trigger.to_string(),
    });
    let help_close = send(|| PlaybackAction::CloseOverlays);

    let link = || moment_link(&playback, &run, mode_param, playback.lang);
    let embed_bar = if playback.embed {
        html! {
            <div class="embed-bar">
                <strong>{ title.clone() }</strong>
                <button data-testid="embed-inspector" aria-pressed={if playback.side_open { "true" } else { "false" }}
                    onclick={send(|| PlaybackAction::ToggleSide).reform(|_: MouseEvent| ())}>
                    { if playback.side_open { s.dataflow } else { s.inspector } }
                </button>
                <a href={link()} target="_blank" rel="noopener" data-testid="open-full">{ s.open_full }</a>
            </div>
        }
    } else {
        html! {
            { header(&HeaderProps {
                preset: AttrValue::from(playback.preset.clone()),
                mode: RunMode::of(sim.config()),
                timeout: sim
                    .config()
                    .aligned_checkpoint_timeout
                    .unwrap_or(crate::scenario::ALIGNED_TIMEOUT),
                lang: playback.lang,
                on_preset,
                on_mode,
                on_lang,
                modes: run.modes().to_vec(),
                on_help: send(|| PlaybackAction::ToggleHelp),
                on_share: send(|| PlaybackAction::ToggleShare),
                on_editor: on_edit,
                edited: playback.code.is_some().then(|| AttrValue::from(run.scenario.title.clone())),
            }) }
        }
    };
    html! {
        <div class={classes!("app", playback.manual.then_some("manual"), playback.embed.then_some("embed"),
            (playback.embed && playback.side_open).then_some("side-open"))}>
            { embed_bar }
            <div class="notices">{ for notices }</div>
            <main class="main">
                <section class="view" aria-label={s.dataflow}>
                    <p class="lesson" data-testid="lesson" aria-busy={if waiting { "true" } else { "false" }}>
                        <strong>{ title }</strong>{ " — " }<span class="seeing">{ s.seeing }</span>{ " " }{ lesson }
                        if theory {
                            { " " }
                            <button class="link" data-testid="theory-toggle" aria-expanded={if *theory_open { "true" } else { "false" }}
                                aria-controls="theory" onclick={toggle_theory}>{ s.theory_title }</button>
                        }
                        if !playback.embed {
                            { " " }
                            <a class="link" data-testid="lessons-open" href={format!("?lesson={}&lang={}", super::lesson::for_moment(&playback.preset, playback.mode), playback.lang.code())}>{ s.lessons_open }</a>
                        }
                    </p>
                    if theory && *theory_open {
                        { theory::theory(&theory::TheoryProps {
                            lang: playback.lang,
                            preset: AttrValue::from(run.scenario.name.clone()),
                            mode,
                            timeout,
                            debloat,
                            failed: fetch_failed,
                            before: sim
                                .coordinator()
                                .checkpoints()
                                .is_empty()
                                .then(|| mode.processes_initiate()),
                            on_retry: retry_texts,
                        }) }
                    }
                    if playback.manual {
                        <p class="manual-hint">{ s.manual_hint }</p>
                    }
                    { recovery_line(&RecoveryProps {
                        run: playback.run.clone(),
                        version: playback.version,
                        lang: playback.lang,
                        on_skip,
                    }) }
                    <Dataflow run={playback.run.clone()} version={playback.version}
                        selection={playback.selection} manual={playback.manual} lang={playback.lang}
                        on_select={on_select.clone()} on_deliver={on_deliver} on_poke={on_poke} on_frame={on_frame} />
                    { legend(&LegendProps {
                        lang: playback.lang,
                        caps: sim.capabilities(),
                        recovery: !sim.planned_failures().is_empty() || !sim.recoveries().is_empty(),
                        records: RecordLook::of(&sim.physical().graph),
                    }) }
                    <p class="st-toggle">
                        <button class="link" data-testid="spacetime-toggle" aria-expanded={if *spacetime_open { "true" } else { "false" }}
                            onclick={toggle_spacetime}>{ s.spacetime_title }</button>
                    </p>
                    if *spacetime_open {
                        { spacetime(&SpaceTimeProps {
                            run: playback.run.clone(),
                            version: playback.version,
                            lang: playback.lang,
                            cut: playback.cut.as_deref().cloned(),
                            on_cut: {
                                let d = dispatcher.clone();
                                Callback::from(move |c| d.dispatch(PlaybackAction::SetCut(c)))
                            },
                            selection: playback.selection,
                            on_select: on_select.clone(),
                            on_explore,
                        }) }
                    }
                </section>
                <aside class={match playback.tab {
                    Tab::Coordinator => "side tab-coordinator",
                    Tab::Details => "side tab-details",
                    Tab::Checkpoints => "side tab-checkpoints",
                }}>
                    { global_states(&GlobalStatesProps {
                        run: playback.run.clone(),
                        version: playback.version,
                        checkpoint: playback.checkpoint,
                        lang: playback.lang,
                    }) }
                    { coordinator(&CoordinatorProps {
                        checkpoints,
                        open: playback.checkpoint,
                        snapshots: mode.processes_initiate(),
                        lang: playback.lang,
                        on_open: on_open.clone(),
                        on_more: on_tab.reform(|_| Tab::Checkpoints),
                    }) }
                    if has_sink {
                        { throughput(&ThroughputProps {
                            first: run.throughput().first,
                            bars: run.throughput().buckets.iter().copied().collect(),
                            marks: run.marks().to_vec(),
                            capacity: sink_capacity(sim.physical()),
                            lang: playback.lang,
                        }) }
                    }
                    { inspector(&InspectorProps {
                        run: playback.run.clone(),
                        version: playback.version,
                        selection: playback.selection,
                        tab: playback.tab,
                        checkpoint: playback.checkpoint,
                        lang: playback.lang,
                        on_tab,
                        on_open,
                        on_fifo,
                        on_fail,
                        on_select: on_select.clone(),
                    }) }
                </aside>
            </main>
            <footer class="bottom">
                { controls(&ControlsProps {
                    playing: playback.playing,
                    speed_exp: playback.speed_exp,
                    manual: playback.manual,
                    position: run.position(),
                    time: sim.now(),
                    lang: playback.lang,
                    on_step: send(|| PlaybackAction::Step),
                    on_next_key: send(|| PlaybackAction::NextKey),
                    on_back: send(|| PlaybackAction::StepBack),
                    on_play: send(|| PlaybackAction::TogglePlay),
                    on_speed,
                    on_reset: send(|| PlaybackAction::Reset),
                    on_trigger: send(|| PlaybackAction::Trigger),
                    on_manual: send(|| PlaybackAction::ToggleManual),
                    trigger_label,
                    on_savepoint: (!mode.processes_initiate() && !mode.stops_the_world())
                        .then(|| send(|| PlaybackAction::Savepoint)),
                }) }
                { timeline(&TimelineProps {
                    position: run.position(),
                    len: run.len(),
                    marks: run.marks().to_vec(),
                    lang: playback.lang,
                    on_seek: on_seek.clone(),
                }) }
                { narration(&NarrationProps { lines, position: run.position(), lang: playback.lang, on_seek }) }
            </footer>
            if playback.help {
                { help(&HelpProps { lang: playback.lang, snapshots: mode.processes_initiate(), on_close: help_close, close: help_first }) }
            }
            if playback.share {
                { share_dialog(&ShareProps {
                    lang: playback.lang,
                    url: link(),
                    on_close: send(|| PlaybackAction::ToggleShare),
                    file: AttrValue::from(format!("{}-step-{}", run.scenario.name, run.position())),
                    link: share_first,
                    spacetime: *spacetime_open,
                    global: {
                        let coord = run.sim().coordinator();
                        playback
                            .checkpoint
                            .or_else(|| coord.latest_completed().map(|g| g.checkpoint))
                            .and_then(|n| coord.global_state(n))
                            .map(|g| global_state_title(s, run.sim(), g))
                    },
                }) }
            }
        </div>
    }
}

mod notice;
use notice::notice_text;

#[cfg(all(test, feature = "en", feature = "zh"))]
mod tests;
