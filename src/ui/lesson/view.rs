//! The lesson page: the lesson's panel beside the playground's own dataflow and narration at
//! the step's moment, with step and play controls and a link that opens the moment in the
//! whole playground. One reducer (`Page`), as the playground has.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use yew::prelude::*;

use super::lms;
use super::load::{keep, open, open_file, problems};
use super::panel::{lesson_panel, LessonProps};
use super::words::{say, Say};
use super::{Act, At, LessonRun};
use crate::engine::record::ItemKind;
use crate::engine::view::TokenPlace;
use crate::i18n::Lang;
use crate::lesson::Choice;
use crate::ui::components::dataflow::Dataflow;
use crate::ui::components::narration::{narration, Line, NarrationProps};
use crate::ui::kit::add_style;
use crate::ui::permalink;
use crate::ui::run::Run;
use crate::ui::state::{RunRef, Selection};

/// The lesson page's state.
pub struct Page {
    run: RunRef,
    version: u64,
    lang: Lang,
    /// The lesson asked for: a built-in name or a URL, numbered (each is fetched once).
    wanted: (u32, String),
    lesson: Option<LessonRun>,
    error: Option<String>,
    /// A teacher's own file: every step a student would find broken, worded (`super::check`).
    problems: Rc<Vec<String>>,
    selection: Option<Selection>,
    /// The step's scenario came whole (`scenario=`), not as a preset's name.
    edited: bool,
    /// The checkpoint and the inspector's tab the step names (`open=`, `panel=`), for the link
    /// to the whole playground.
    open: Option<crate::engine::CheckpointId>,
    tab: Option<crate::ui::state::Tab>,
    playing: bool,
    last_frame: Cell<Option<f64>>,
    settling: Cell<bool>,
}

impl Page {
    fn new(lang: Lang, source: String) -> Page {
        let run = Run::new(crate::scenario::presets::alignment()).ok();
        Page {
            run: RunRef(Rc::new(RefCell::new(run.unwrap_or_else(|| unreachable!())))),
            version: 0,
            lang,
            wanted: (0, source),
            lesson: None,
            error: None,
            problems: Rc::default(),
            selection: None,
            edited: false,
            open: None,
            tab: None,
            playing: false,
            last_frame: Cell::new(None),
            settling: Cell::new(false),
        }
    }

    fn next(&self) -> Page {
        Page {
            run: self.run.clone(),
            version: self.version + 1,
            lang: self.lang,
            wanted: self.wanted.clone(),
            lesson: self.lesson.clone(),
            error: self.error.clone(),
            problems: self.problems.clone(),
            selection: self.selection,
            edited: self.edited,
            open: self.open,
            tab: self.tab,
            playing: self.playing,
            last_frame: Cell::new(self.last_frame.get()),
            settling: Cell::new(self.settling.get()),
        }
    }

    /// Shows the moment a step names (`ui::lesson::reach`, as `abs-sim lesson` checks it) and
    /// its selection; what cannot be reached is said, and the question is not asked. False
    /// then.
    fn show(&mut self, at: &At) -> bool {
        self.edited = at.scenario.is_some();
        self.selection = None;
        self.playing = false;
        self.settling.set(false);
        let (mut run, m) = match super::reach(at) {
            Ok(reached) => reached,
            Err(why) => {
                self.error = Some(say(self.lang, Say::Unreachable(&why)));
                return false;
            }
        };
        if let Some(sel) = m.select {
            self.selection = permalink::selection_by_name(run.sim().physical(), &sel);
        }
        self.open = m.open;
        self.tab = m.tab;
        run.clock = run.sim().now() as f64;
        self.run = RunRef(Rc::new(RefCell::new(run)));
        true
    }

    fn go(&mut self, i: usize) {
        let Some(mut l) = self.lesson.take() else {
            return;
        };
        l.index = i.min(l.lesson.steps.len());
        l.picked.clear();
        l.answered = None;
        l.reveal = None;
        self.error = None;
        let lesson = l.lesson.clone();
        match lesson.steps.get(l.index) {
            Some(step) => {
                if self.show(&At::parse(&step.at)) {
                    l.reveal = step
                        .ask
                        .as_ref()
                        .map(|a| crate::lesson::reveal(self.run.0.borrow().sim(), a));
                }
                // A question that cannot be asked here is left out of the score.
                let asked = matches!(l.reveal, Some(Ok(_)));
                if let Some(u) = l.unasked.get_mut(l.index) {
                    *u = step.ask.is_some() && !asked;
                }
            }
            None => post(&super::done_message(&l)),
        }
        keep(&l);
        post(&super::step_message(&l));
        self.lesson = Some(l);
    }

    /// Plays to `step`: through what was recorded, then forward.
    fn play_to(&mut self, step: u64) {
        self.playing = false;
        self.run.0.borrow_mut().go_to(step);
        self.settling.set(true);
    }

    fn frame(self: Rc<Self>, ts: f64) -> Rc<Self> {
        let dt = match self.last_frame.replace(Some(ts)) {
            Some(prev) => (ts - prev).clamp(0.0, 100.0),
            None => 0.0,
        };
        if self.playing {
            let tick = self.run.0.borrow_mut().tick(dt, 1.0, 4_000);
            if tick.ended || tick.steps > 0 {
                let mut next = self.next();
                next.playing = !tick.ended;
                return Rc::new(next);
            }
            return self;
        }
        if self.settling.get() {
            let moving = self.run.0.borrow_mut().settle(dt, true);
            self.settling.set(moving);
        }
        self
    }
}

impl Reducible for Page {
    type Action = Act;

    fn reduce(self: Rc<Self>, act: Act) -> Rc<Self> {
        if let Act::Frame(ts) = act {
            return self.frame(ts);
        }
        let mut next = self.next();
        match act {
            Act::Frame(_) => {}
            Act::Open(source) => next.wanted = (next.wanted.0 + 1, source),
            Act::Loaded(source, lesson, kept) => {
                // A teacher's own file is checked whole when it opens (the built-in ones are
                // checked by the tests).
                next.problems = Rc::new(if super::LESSONS.contains(&source.as_str()) {
                    Vec::new()
                } else {
                    problems(&lesson, next.lang)
                });
                let mut l = LessonRun::new(source, lesson);
                let at = match kept {
                    Some(k) if l.resume(&k) => l.index,
                    _ => 0,
                };
                next.lesson = Some(l);
                next.go(at);
            }
            Act::Failed(why) => {
                next.lesson = None;
                next.error = Some(why);
            }
            Act::Go(i) => next.go(i),
            Act::Restart => {
                if let Some(l) = &mut next.lesson {
                    l.results.iter_mut().for_each(|r| *r = None);
                }
                next.go(0);
            }
            Act::Pick(i) => {
                if let Some(l) = &mut next.lesson {
                    l.pick(i);
                }
            }
            Act::Answer => {
                let answered = next.lesson.as_mut().and_then(LessonRun::answer);
                if let Some(a) = answered {
                    // Worded at the question's moment, before the run plays on.
                    if let Some(l) = &next.lesson {
                        post(&super::panel::answer_text(l, &next.run, next.lang, a));
                    }
                    next.play_to(a.reveal);
                    if let Some(l) = &next.lesson {
                        post(&super::step_message(l));
                        keep(l);
                    }
                }
            }
            Act::Step => {
                next.playing = false;
                next.run.0.borrow_mut().forward();
                next.settling.set(true);
            }
            Act::Back => {
                next.playing = false;
                next.run.0.borrow_mut().back();
                next.settling.set(false);
            }
            Act::TogglePlay => {
                next.playing = !next.playing;
                next.last_frame.set(None);
            }
            Act::Select(sel) => {
                // A question about a channel: clicking one picks it.
                // A question about the token: clicking a process or a channel picks that place.
                let sys = crate::engine::view::token_system(next.run.0.borrow().sim());
                let picked = match (sel, sys) {
                    (Some(Selection::Channel(c)), Some(sys)) if c == sys.pq => {
                        Some(Choice::Place(TokenPlace::InPq))
                    }
                    (Some(Selection::Channel(c)), Some(sys)) if c == sys.qp => {
                        Some(Choice::Place(TokenPlace::InQp))
                    }
                    (Some(Selection::Task(t)), Some(sys)) if t == sys.p => {
                        Some(Choice::Place(TokenPlace::AtP))
                    }
                    (Some(Selection::Task(t)), Some(sys)) if t == sys.q => {
                        Some(Choice::Place(TokenPlace::AtQ))
                    }
                    _ => None,
                };
                let channel = match sel {
                    Some(Selection::Channel(c)) => Some(Choice::Channel(c)),
                    _ => None,
                };
                // A question about records: clicking one (found by its id) picks or unpicks it.
                let record = match sel {
                    Some(Selection::Item {
                        item: ItemKind::Record(r),
                        ..
                    }) => Some(r.id),
                    _ => None,
                };
                if let Some(l) = &mut next.lesson {
                    let at = match &l.reveal {
                        Some(Ok(r)) => r.choices.iter().position(|x| match *x {
                            Choice::Record(r, _) => Some(r.id) == record,
                            x => Some(x) == picked || Some(x) == channel,
                        }),
                        _ => None,
                    };
                    if let Some(i) = at {
                        l.pick(i);
                    }
                }
                next.selection = sel;
            }
        }
        Rc::new(next)
    }
}

/// The mode as the address spells it (the mode menu's variants of aligned by their names).
fn mode_param(sim: &crate::engine::Simulation) -> &'static str {
    crate::scenario::modes::RunMode::of(sim.config()).name()
}

/// Posts a message to the page embedding this one (`ui::host`'s link), and hands it to the
/// learning management system's link when there is one (`lms`).
fn post(text: &str) {
    crate::ui::host_link::post(text);
    lms::hand(text);
}

/// What the address asks for: the lesson, the language, and whether the page is embedded or
/// in a package for a learning management system (`package`: `abs-sim lesson --scorm`), where
/// the lesson menu, the teacher's tools and the playground link are left out (the package
/// holds the lesson page only).
fn address() -> (String, Lang, bool, bool) {
    let at = crate::ui::kit::address();
    let lang = crate::ui::kit::lang(at.lang.as_deref());
    #[cfg(target_arch = "wasm32")]
    let (lesson, embed, package) = {
        let p = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok());
        (
            p.as_ref().and_then(|p| p.get("lesson")).unwrap_or_default(),
            p.as_ref().is_some_and(|p| p.has("embed")),
            p.is_some_and(|p| p.has("package")),
        )
    };
    #[cfg(not(target_arch = "wasm32"))]
    let (lesson, embed, package) = (String::new(), false, false);
    (lesson, lang, embed, package)
}

#[function_component(LessonView)]
pub fn lesson_view() -> Html {
    let (source, lang, embed, package) = use_memo((), |_| address()).as_ref().clone();
    let page = use_reducer(|| Page::new(lang, source.clone()));
    let d = page.dispatcher();
    let on = Callback::from(move |a: Act| d.dispatch(a));
    use_effect_with((), |_| add_style(super::style::STYLE));
    {
        // The lesson asked for is fetched (the address's, then the menu's or the host's).
        let on = on.clone();
        use_effect_with(page.wanted.clone(), move |(_, source)| {
            if !source.is_empty() {
                open(source.clone(), lang, on);
            }
        });
    }
    {
        // The embedding page may load another lesson: `{"type": "abs:load", "lesson": …}`.
        let on = on.clone();
        use_effect_with((), move |_| {
            let listener = listen(on);
            move || {
                let _keep_until_unmount = listener;
            }
        });
    }
    let s = lang.strings();
    let w = |t: Say| say(lang, t);
    let run = page.run.0.borrow();
    let sim = run.sim();
    let mode = sim.mode();
    let lines = Line::recent(&run, lang, 4);
    let title = page
        .lesson
        .as_ref()
        .map_or_else(|| w(Say::Title(&page.wanted.1)), |l| l.lesson.title.clone());
    let preset = (s.preset_text)(&run.scenario.name).map_or(run.scenario.title.as_str(), |t| t.0);
    // The whole playground at this moment (the permalink of the step shown); a step's own
    // scenario travels whole, compressed (the lesson page carries the compressor).
    let code = page
        .edited
        .then(|| crate::scenario::codec::encode(&run.scenario));
    let full = format!(
        "./?{}",
        permalink::query(
            &run,
            code.as_deref(),
            mode_param(sim),
            lang.code(),
            permalink::Shown {
                selection: page.selection,
                tab: page.tab.unwrap_or(crate::ui::state::Tab::Details),
                open: page.open,
                cut: None,
            },
        )
    );
    let menu = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value())
                .filter(|v| !v.is_empty())
            {
                on.emit(Act::Open(v));
            }
        })
    };
    let send = |a: Act| {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| on.emit(a.clone()))
    };
    let panel = match (&page.lesson, &page.error) {
        (Some(l), _) => lesson_panel(&LessonProps {
            lesson: l,
            run: &page.run,
            lang,
            on: on.clone(),
        }),
        (None, Some(_)) => html! {},
        (None, None) => html! { <p class="lesson-panel" aria-busy="true">{ w(Say::Loading) }</p> },
    };
    let source = page
        .lesson
        .as_ref()
        .map_or(page.wanted.1.as_str(), |l| l.source.as_str());
    html! {
        <div class={classes!("lesson-page", embed.then_some("embed"))} data-testid="lesson-page">
            <div class="lesson-top">
                <h1>{ title }</h1>
                <span class="spacer"></span>
                if !embed && !package {
                    <select data-testid="lesson-menu" aria-label={w(Say::Menu)} onchange={menu}>
                        <option value="" selected={!super::LESSONS.contains(&source)}>{ w(Say::Menu) }</option>
                        { for super::LESSONS.iter().map(|name| html! {
                            <option value={*name} selected={source == *name}>{ w(Say::Title(name)) }</option>
                        }) }
                    </select>
                    <select data-testid="lang" aria-label={s.lang_label} onchange={Callback::from(relang)}>
                        { for Lang::ALL.iter().map(|l| html! {
                            <option value={l.code()} selected={lang == *l}>{ l.name() }</option>
                        }) }
                    </select>
                    // What a teacher needs, folded away from the student's eye.
                    <details class="lesson-teacher" data-testid="lesson-teacher">
                        <summary>{ w(Say::ForTeachers) }</summary>
                        <div>
                            if super::LESSONS.contains(&source) {
                                <a data-testid="lesson-scorm" download=""
                                    href={format!("lessons/scorm/{source}-{}.zip", lang.tag())}>{ w(Say::Download) }</a>
                            }
                            <label class="lesson-file">{ w(Say::OpenFile) }
                                <input type="file" accept=".json,application/json" data-testid="lesson-file"
                                    onchange={let on = on.clone(); move |e: Event| open_file(e, lang, on.clone())} />
                            </label>
                        </div>
                    </details>
                }
            </div>
            if let Some(e) = &page.error {
                <p class="lesson-error" role="alert" data-testid="lesson-error">{ e.clone() }</p>
            }
            if !page.problems.is_empty() {
                <details class="lesson-problems" data-testid="lesson-problems" open=true>
                    <summary>{ w(Say::Problems(page.problems.len())) }</summary>
                    <ul>{ for page.problems.iter().map(|p| html! { <li>{ p.clone() }</li> }) }</ul>
                </details>
            }
            <div class="lesson-main">
                { panel }
                <section class="lesson-stage" aria-label={s.dataflow}>
                    <p class="preset">{ preset }{ " · " }{ (s.mode_name)(mode) }</p>
                    <Dataflow run={page.run.clone()} version={page.version} selection={page.selection}
                        manual={false} {lang} on_select={on.reform(Act::Select)}
                        on_deliver={Callback::from(|_| ())} on_poke={Callback::from(|_| ())}
                        on_frame={on.reform(Act::Frame)} />
                    <div class="lesson-controls">
                        <button data-testid="lesson-back" onclick={send(Act::Back)}>{ w(Say::StepBack) }</button>
                        <button data-testid="lesson-play" aria-pressed={if page.playing { "true" } else { "false" }}
                            onclick={send(Act::TogglePlay)}>{ w(if page.playing { Say::Pause } else { Say::Play }) }</button>
                        <button data-testid="lesson-step-on" onclick={send(Act::Step)}>{ w(Say::StepOn) }</button>
                        <span data-testid="step-count">{ run.position() }</span>
                        if !package {
                            <a href={full} target="_blank" rel="noopener" data-testid="open-full">{ w(Say::OpenFull) }</a>
                        }
                    </div>
                    { narration(&NarrationProps { lines, position: run.position(), lang, on_seek: Callback::from(|_| ()) }) }
                </section>
            </div>
        </div>
    }
}

/// The language menu: the same address in the language chosen (the lesson's progress is kept
/// under its name, so the student goes on where they were).
fn relang(e: Event) {
    #[cfg(target_arch = "wasm32")]
    {
        let Some(code) = e
            .target_dyn_into::<web_sys::HtmlSelectElement>()
            .map(|s| s.value())
        else {
            return;
        };
        let Some(w) = web_sys::window() else { return };
        let search = w.location().search().unwrap_or_default();
        if let Ok(p) = web_sys::UrlSearchParams::new_with_str(&search) {
            p.set("lang", &code);
            let _ = w.location().set_search(&String::from(p.to_string()));
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = e;
}

/// Listens for `abs:load` with a `lesson` from the embedding page (only from the address's
/// `origin`, if it names one).
/// The embedding page's `abs:load {"lesson": …}` (`ui::host`'s messages; the others are the
/// player's).
fn listen(on: Callback<Act>) -> Option<impl Sized> {
    crate::ui::host_link::listen(move |m| {
        if let crate::ui::host::HostMessage::LoadLesson(lesson) = m {
            on.emit(Act::Open(lesson));
        }
    })
}

/// Mounts the lesson page in the address's language.
pub fn start() {
    let (_, lang, _, _) = address();
    lms::start();
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", lang.tag());
        }
        doc.set_title(&say(lang, Say::Menu));
        if let Ok(boot) = doc.query_selector_all("body > .boot") {
            for i in 0..boot.length() {
                if let Some(el) = boot
                    .item(i)
                    .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
                {
                    el.remove();
                }
            }
        }
        match doc.get_element_by_id("app") {
            Some(root) => yew::Renderer::<LessonView>::with_root(root).render(),
            None => yew::Renderer::<LessonView>::new().render(),
        };
    }
}
