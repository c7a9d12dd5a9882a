//! The lesson panel: the step's text, its question as form controls (radio buttons or check
//! boxes with labels), and after an answer the verdict, announced, with the reason in one
//! sentence. One listener: a click inside emits what its `data-act` or `data-i` names.

use yew::prelude::*;

use super::words::{say, Say as T};
use super::{Act, LessonRun};
use crate::i18n::Lang;
use crate::lesson::{Ask, Choice, Why};
use crate::ui::state::RunRef;

pub struct LessonProps<'a> {
    pub lesson: &'a LessonRun,
    pub run: &'a RunRef,
    pub lang: Lang,
    pub on: Callback<Act>,
}

pub fn lesson_panel(p: &LessonProps) -> Html {
    let lang = p.lang;
    let w = |t: T| say(lang, t);
    let l = p.lesson;
    let steps = &l.lesson.steps;
    let index = l.index;
    let on = p.on.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        let Some(el) = e
            .target_dyn_into::<web_sys::Element>()
            .and_then(|t| t.closest("[data-act],[data-i]").ok().flatten())
        else {
            return;
        };
        if let Some(i) = el.get_attribute("data-i").and_then(|i| i.parse().ok()) {
            return on.emit(Act::Pick(i));
        }
        on.emit(match el.get_attribute("data-act").as_deref() {
            Some("answer") => Act::Answer,
            Some("next") => Act::Go(index + 1),
            Some("retry") => Act::Go(index),
            Some("restart") => Act::Restart,
            _ => return,
        })
    });
    let dots = l.results.iter().enumerate().map(|(i, r)| {
        let class = match r {
            _ if i == index => "now",
            Some(true) => "right",
            Some(false) => "wrong",
            None => "",
        };
        html! { <li class={class}></li> }
    });
    let head = html! {
        <div class="lp-head">
            <ol class="lp-dots" aria-hidden="true">{ for dots }</ol>
            <span class="lp-count">{ w(T::Step((index + 1).min(steps.len()), steps.len())) }</span>
            <button class="link" data-act="restart" data-testid="lesson-restart">{ w(T::Restart) }</button>
        </div>
    };
    let Some(step) = steps.get(index) else {
        let (right, total) = l.score();
        return html! {
            <section class="lesson-panel" data-testid="lesson-panel" {onclick}>
                { head }
                <p data-testid="lesson-done" role="status">{ w(T::Done(right, total, l.unasked_count())) }</p>
            </section>
        };
    };
    let run = p.run.0.borrow();
    let sim = run.sim();
    let phys = sim.physical();
    // Chandy-Lamport's checkpoints are snapshots, as the page names them.
    let snapshots = sim.mode().processes_initiate();
    let label = |c: &Choice| choice_label(lang, sim, step, c);
    let task = |t: u32| phys.tasks.get(t as usize).map_or("", |t| t.name.as_str());
    let (question, feedback) = match (&step.ask, &l.reveal) {
        (Some(ask), Some(Ok(r))) => {
            let prompt = prompt(lang, ask, snapshots);
            let kind = if r.multiple { "checkbox" } else { "radio" };
            let answered = l.answered.is_some();
            let choices = r.choices.iter().enumerate().map(|(i, c)| {
                let checked = l.picked.contains(&i);
                let mark = match (answered, r.answer.contains(&i)) {
                    (true, true) => "answer",
                    _ => "",
                };
                html! {
                    <label class={mark}>
                        <input type={kind} name="lesson-q" data-testid="lesson-answer" data-i={i.to_string()}
                            checked={checked} disabled={answered} />
                        { label(c) }
                    </label>
                }
            });
            let question = html! {
                <fieldset data-testid="lesson-question" class={matches!(ask, Ask::CountedTwice).then_some("words")}>
                    <legend>{ prompt }</legend>
                    { for choices }
                </fieldset>
            };
            let feedback = l.answered.map(|right| {
                let why = match &r.why {
                    Why::Blocked {
                        task: t,
                        channel,
                        checkpoint,
                    } => w(T::WhyBlocked {
                        task: task(*t),
                        channel: &phys.channel_label(*channel),
                        checkpoint: *checkpoint,
                    }),
                    Why::Buffered {
                        task: t,
                        held,
                        checkpoint,
                    } => w(T::WhyBuffered {
                        task: task(*t),
                        held: *held,
                        checkpoint: *checkpoint,
                    }),
                    Why::Consistent {
                        checkpoint,
                        finding,
                        ..
                    } => w(T::WhyConsistent {
                        checkpoint: *checkpoint,
                        finding: *finding,
                        snapshot: snapshots,
                    }),
                    Why::Token { checkpoint, place } => w(T::WhyToken {
                        checkpoint: *checkpoint,
                        place: &label(&Choice::Place(*place)),
                    }),
                    Why::CountedTwice { checkpoint, words } => {
                        let list: Vec<String> =
                            words.iter().map(|&x| label(&Choice::Word(x))).collect();
                        let comma = if lang == Lang::En { ", " } else { "、" };
                        w(T::WhyCountedTwice {
                            checkpoint: *checkpoint,
                            n: words.len(),
                            words: &list.join(comma),
                        })
                    }
                    Why::Given(why) => why.clone(),
                };
                let verdict = w(if right { T::Right } else { T::Wrong });
                // Chinese sentences follow one another without a space.
                let gap = if verdict.ends_with('.') { " " } else { "" };
                (Some(right), format!("{verdict}{gap}{why}"))
            });
            (Some(question), feedback)
        }
        (Some(_), Some(Err(why))) => (None, Some((None, w(T::NoAnswer(*why))))),
        _ => (None, None),
    };
    let asking = question.is_some() && l.answered.is_none();
    let can_answer = l
        .reveal
        .as_ref()
        .is_some_and(|r| r.as_ref().is_ok_and(|r| r.multiple || !l.picked.is_empty()));
    html! {
        <section class="lesson-panel" data-testid="lesson-panel" {onclick}>
            { head }
            <div data-testid="lesson-step" data-index={index.to_string()}>
                <p class="lp-text">{ step.text.clone() }</p>
                { for question }
            </div>
            <p class="lp-feedback" data-testid="lesson-feedback" role="status" aria-live="polite"
                data-correct={feedback.as_ref().and_then(|f| f.0).map(|r| if r { "true" } else { "false" })}>
                { feedback.map(|f| f.1).unwrap_or_default() }
            </p>
            <div class="lp-actions">
                if asking {
                    <button data-act="answer" data-testid="lesson-check" disabled={!can_answer}>{ w(T::Answer) }</button>
                } else {
                    if l.answered.is_some() {
                        <button data-act="retry" data-testid="lesson-retry">{ w(T::Retry) }</button>
                    }
                    <button data-act="next" data-testid="lesson-next">{ w(T::Next) }</button>
                }
            </div>
        </section>
    }
}

/// A question's prompt as the page words it.
pub(super) fn prompt(lang: Lang, ask: &Ask, snapshots: bool) -> String {
    let w = |t: T| say(lang, t);
    match ask {
        Ask::BlockedInput => w(T::AskBlocked),
        Ask::Buffered => w(T::AskBuffered),
        Ask::Consistent => w(T::AskConsistent(snapshots)),
        Ask::GlobalState => w(T::AskGlobalState),
        Ask::CountedTwice => w(T::AskCountedTwice),
        Ask::Choice { prompt, .. } => prompt.clone(),
    }
}

/// A choice as the page words it: a channel's label, a record with its channel, a place of
/// the token, a word, yes or no, or the lesson's own text.
pub(super) fn choice_label(
    lang: Lang,
    sim: &crate::engine::Simulation,
    step: &crate::lesson::Step,
    c: &Choice,
) -> String {
    let s = lang.strings();
    let phys = sim.physical();
    let word = |w: u32| phys.words.get(w as usize).map_or("", |w| w.as_str());
    match *c {
        Choice::Channel(c) => phys.channel_label(c),
        Choice::Record(r, c) => format!(
            "“{}” #{} · {}",
            sim.describe(&r.payload),
            r.id,
            phys.channel_label(c)
        ),
        Choice::Place(place) => {
            let sys = crate::engine::view::token_system(sim);
            let name = |t: Option<u32>| {
                t.and_then(|t| phys.tasks.get(t as usize))
                    .map_or("", |t| t.name.as_str())
            };
            let (label, states) = (s.token_state)(
                place,
                name(sys.as_ref().map(|s| s.p)),
                name(sys.as_ref().map(|s| s.q)),
            );
            format!("{label} ({states})")
        }
        Choice::Word(w) => format!("“{}”", word(w)),
        Choice::Yes => s.yes.into(),
        Choice::No => s.no.into(),
        Choice::Text(i) => match &step.ask {
            Some(Ask::Choice { choices, .. }) => choices.get(i).cloned().unwrap_or_default(),
            _ => String::new(),
        },
    }
}

/// `abs:answer` for the answer just given, its question and choices worded as the panel
/// words them.
pub(super) fn answer_text(l: &LessonRun, run: &RunRef, lang: Lang, a: super::Answered) -> String {
    let run = run.0.borrow();
    let sim = run.sim();
    let (Some(step), Some(Ok(r))) = (l.lesson.steps.get(l.index), &l.reveal) else {
        return String::new();
    };
    let snapshots = sim.mode().processes_initiate();
    let text = step
        .ask
        .as_ref()
        .map(|ask| prompt(lang, ask, snapshots))
        .unwrap_or_default();
    let choices: Vec<String> = r
        .choices
        .iter()
        .map(|c| choice_label(lang, sim, step, c))
        .collect();
    super::answer_message(&super::AnswerMessage {
        lesson: &l.source,
        step: l.index,
        answered: a,
        text: &text,
        choices: &choices,
        picked: &l.picked,
        right: &r.answer,
    })
}
