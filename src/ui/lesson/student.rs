//! A lesson the student is in: the step shown, the question's picks, each question's first
//! and last verdicts, the progress as the browser (or a learning management system) keeps it,
//! and the messages the embedding page hears (`abs:answer`, `abs:lesson-step`,
//! `abs:lesson-done`; `static/lms.js` turns them into SCORM 1.2 values).

use std::rc::Rc;

use crate::lesson::{Lesson, NoAnswer, Reveal};
use crate::text::Quoted;

/// A lesson the student is in.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonRun {
    /// As asked for: a built-in name or a URL (the progress is kept under it).
    pub source: String,
    pub lesson: Rc<Lesson>,
    /// The step shown; `steps.len()` once the lesson is over.
    pub index: usize,
    /// The current step's question: its answer, or why it has none from this moment.
    pub reveal: Option<Result<Reveal, NoAnswer>>,
    /// The choices picked, indices into the reveal's choices.
    pub picked: Vec<usize>,
    /// Answered (right or not): the run has played to the reveal.
    pub answered: Option<bool>,
    /// Per step with a question, the last answer's verdict (the dots above the step).
    pub results: Vec<Option<bool>>,
    /// Per step with a question, the first answer's verdict: what the score counts. "Start
    /// again" leaves it, so a question counts once.
    pub first: Vec<Option<bool>>,
    /// Per step, a question that could not be asked: its moment cannot be shown, or it has
    /// no answer from there. It is not counted among the questions asked.
    pub unasked: Vec<bool>,
}

/// An answer given: its verdict, whether it was the question's first, and the step the page
/// plays to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Answered {
    pub right: bool,
    pub first: bool,
    pub reveal: u64,
}

impl LessonRun {
    pub fn new(source: String, lesson: Rc<Lesson>) -> LessonRun {
        let n = lesson.steps.len();
        LessonRun {
            source,
            lesson,
            index: 0,
            reveal: None,
            picked: Vec::new(),
            answered: None,
            results: vec![None; n],
            first: vec![None; n],
            unasked: vec![false; n],
        }
    }

    pub fn done(&self) -> bool {
        self.index >= self.lesson.steps.len()
    }

    /// Questions answered right the first time, and questions asked (those that could not
    /// be are not counted).
    pub fn score(&self) -> (usize, usize) {
        let asked = self.lesson.steps.iter().filter(|s| s.ask.is_some()).count();
        let right = self.first.iter().filter(|r| **r == Some(true)).count();
        (right, asked - self.unasked_count())
    }

    /// Questions that could not be asked.
    pub fn unasked_count(&self) -> usize {
        let with_question = |(i, &u): (usize, &bool)| {
            u && self.lesson.steps.get(i).is_some_and(|s| s.ask.is_some())
        };
        self.unasked
            .iter()
            .enumerate()
            .filter(|&p| with_question(p))
            .count()
    }

    /// Picks choice `i` (a single answer replaces the pick, several toggle it). Nothing once
    /// answered.
    pub fn pick(&mut self, i: usize) {
        let Some(Ok(r)) = &self.reveal else { return };
        if self.answered.is_some() || i >= r.choices.len() {
            return;
        }
        if r.multiple {
            match self.picked.iter().position(|&p| p == i) {
                Some(at) => {
                    self.picked.remove(at);
                }
                None => self.picked.push(i),
            }
        } else {
            self.picked = vec![i];
        }
    }

    /// The student's answer. `None` when there is no question to answer (or no pick for a
    /// single answer).
    pub fn answer(&mut self) -> Option<Answered> {
        let Some(Ok(r)) = &self.reveal else {
            return None;
        };
        if self.answered.is_some() || (!r.multiple && self.picked.is_empty()) {
            return None;
        }
        let right = r.is_right(&self.picked);
        let reveal = r.step;
        self.answered = Some(right);
        if let Some(slot) = self.results.get_mut(self.index) {
            *slot = Some(right);
        }
        let first = self.first.get_mut(self.index).is_some_and(|slot| {
            let first = slot.is_none();
            if first {
                *slot = Some(right);
            }
            first
        });
        Some(Answered {
            right,
            first,
            reveal,
        })
    }

    /// The progress as kept: `index;` then one character per step — `-` not answered, `r`
    /// right, `w` wrong (both the first and the last time), `c` wrong first and right last,
    /// `x` right first and wrong last; `R` and `W` right or wrong the first time and not
    /// answered since "Start again"; `n` a question that could not be asked.
    pub fn progress(&self) -> String {
        let marks: String = self
            .first
            .iter()
            .zip(&self.results)
            .zip(&self.unasked)
            .map(|(v, &unasked)| match v {
                _ if unasked => 'n',
                (Some(true), Some(true)) => 'r',
                (Some(false), Some(true)) => 'c',
                (Some(true), Some(false)) => 'x',
                (Some(false), Some(false)) => 'w',
                (Some(true), None) => 'R',
                (Some(false), None) => 'W',
                _ => '-',
            })
            .collect();
        format!("{};{marks}", self.index)
    }

    /// Takes back kept progress, if it fits this lesson (as many steps).
    pub fn resume(&mut self, kept: &str) -> bool {
        let Some((index, marks)) = kept.split_once(';') else {
            return false;
        };
        let Ok(index) = index.parse::<usize>() else {
            return false;
        };
        if marks.chars().count() != self.results.len() || index > self.results.len() {
            return false;
        }
        let read = |c| match c {
            'r' => (Some(true), Some(true)),
            'w' => (Some(false), Some(false)),
            'c' => (Some(false), Some(true)),
            'x' => (Some(true), Some(false)),
            'R' => (Some(true), None),
            'W' => (Some(false), None),
            _ => (None, None),
        };
        (self.first, self.results) = marks.chars().map(read).unzip();
        self.unasked = marks.chars().map(|c| c == 'n').collect();
        self.index = index;
        true
    }
}

/// `{"type": "abs:answer", "lesson", "step", "correct", "first", "question", "text",
/// "choices", "picked", "right"}`: `step` counts from 1; `question` is the question's id in
/// the lesson (`step-N`), `text` its prompt and `choices` its choices as the page words them;
/// `picked` and `right` index into them (the student's answer and the right one); `first`
/// whether it was the question's first answer (the one the score counts).
pub struct AnswerMessage<'a> {
    pub lesson: &'a str,
    pub step: usize,
    pub answered: Answered,
    pub text: &'a str,
    pub choices: &'a [String],
    pub picked: &'a [usize],
    pub right: &'a [usize],
}

pub fn answer_message(m: &AnswerMessage) -> String {
    let list = |v: &[usize]| {
        let items: Vec<String> = v.iter().map(usize::to_string).collect();
        items.join(",")
    };
    let choices: Vec<String> = m.choices.iter().map(|c| Quoted(c).to_string()).collect();
    format!(
        "{{\"type\":\"abs:answer\",\"lesson\":{},\"step\":{n},\"correct\":{},\"first\":{},\"question\":\"step-{n}\",\"text\":{},\"choices\":[{}],\"picked\":[{}],\"right\":[{}]}}",
        Quoted(m.lesson),
        m.answered.right,
        m.answered.first,
        Quoted(m.text),
        choices.join(","),
        list(m.picked),
        list(m.right),
        n = m.step + 1,
    )
}

/// `{"type": "abs:lesson-step", "lesson", "title", "step", "steps", "progress"}`, whenever a
/// step is shown: `step` counts from 1 (`steps + 1` at the lesson's end); `progress` is
/// [`LessonRun::progress`], which a learning management system keeps as its suspend data.
pub fn step_message(l: &LessonRun) -> String {
    format!(
        "{{\"type\":\"abs:lesson-step\",\"lesson\":{},\"title\":{},\"step\":{},\"steps\":{},\"progress\":\"{}\"}}",
        Quoted(&l.source),
        Quoted(&l.lesson.title),
        l.index + 1,
        l.lesson.steps.len(),
        l.progress()
    )
}

/// `{"type": "abs:lesson-done", "lesson", "correct", "total", "mastery"}`: questions answered
/// right the first time, questions asked, and the lesson's mastery score (percent) or null.
pub fn done_message(l: &LessonRun) -> String {
    let (correct, total) = l.score();
    let mastery = l
        .lesson
        .mastery
        .map_or_else(|| "null".to_string(), |m| m.to_string());
    format!(
        "{{\"type\":\"abs:lesson-done\",\"lesson\":{},\"correct\":{correct},\"total\":{total},\"mastery\":{mastery}}}",
        Quoted(&l.source),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(mastery: &str) -> Rc<Lesson> {
        let text = format!(
            r#"{{"title": "T", {mastery} "steps": [
            {{"at": "", "text": "a"}},
            {{"at": "", "text": "b", "ask": {{"kind": "consistent"}}}},
            {{"at": "", "text": "c", "ask": {{"kind": "buffered"}}}}]}}"#
        );
        Rc::new(crate::scenario::read_lesson(&text).unwrap())
    }

    #[test]
    fn progress_is_kept_and_taken_back_only_when_it_fits() {
        let lesson = lesson("");
        let mut run = LessonRun::new("x".into(), lesson.clone());
        run.index = 2;
        run.results[1] = Some(true);
        run.first[1] = Some(true);
        run.results[2] = Some(false);
        run.first[2] = Some(false);
        assert_eq!(run.progress(), "2;-rw");
        assert_eq!(run.score(), (1, 2));
        let mut again = LessonRun::new("x".into(), lesson.clone());
        assert!(!again.resume("2;-r"), "another lesson's length");
        assert!(!again.resume("9;---"));
        assert!(again.resume("2;-rw"));
        assert_eq!(again, run);
        // Corrected and spoilt answers keep both verdicts.
        run.results = vec![None, Some(true), Some(false)];
        run.first = vec![None, Some(false), Some(true)];
        assert_eq!(run.progress(), "2;-cx");
        assert_eq!(run.score(), (1, 2), "the first answers count");
        let mut back = LessonRun::new("x".into(), lesson.clone());
        assert!(back.resume("2;-cx"));
        assert_eq!(back, run);
        // "Start again" forgets the last answers, not the first.
        run.results = vec![None; 3];
        assert_eq!(run.progress(), "2;-WR");
        let mut restarted = LessonRun::new("x".into(), lesson);
        assert!(restarted.resume("2;-WR"));
        assert_eq!(restarted, run);
        assert_eq!(restarted.score(), (1, 2));
        // A question whose moment could not be shown is not counted, and is kept as such.
        restarted.unasked[2] = true;
        restarted.first[2] = None;
        assert_eq!(restarted.progress(), "2;-Wn");
        assert_eq!(restarted.score(), (0, 1));
        let mut again = LessonRun::new("x".into(), restarted.lesson.clone());
        assert!(again.resume("2;-Wn"));
        assert_eq!(again, restarted);
    }

    #[test]
    fn only_a_questions_first_answer_counts() {
        let mut run = LessonRun::new("x".into(), lesson(""));
        run.index = 1;
        run.reveal = Some(Ok(Reveal {
            choices: vec![crate::lesson::Choice::Yes, crate::lesson::Choice::No],
            answer: vec![0],
            multiple: false,
            step: 7,
            why: crate::lesson::Why::Given(String::new()),
        }));
        run.pick(1);
        let first = run.answer().unwrap();
        assert_eq!((first.right, first.first, first.reveal), (false, true, 7));
        // "Try again": a new pick, right this time, but not the first answer.
        run.answered = None;
        run.pick(0);
        let second = run.answer().unwrap();
        assert_eq!((second.right, second.first), (true, false));
        assert_eq!(run.results[1], Some(true));
        assert_eq!(run.first[1], Some(false));
        assert_eq!(run.score(), (0, 2));
        assert!(run.answer().is_none(), "answered already");
    }

    #[test]
    fn the_messages_are_json_with_the_contracts_fields() {
        let mut run = LessonRun::new("al\"ign".into(), lesson("\"mastery\": 80,"));
        run.index = 2;
        run.first[1] = Some(true);
        run.results[1] = Some(true);
        let choices = ["“is” #4".to_string(), "“a” #5".to_string()];
        let v: serde_json::Value = serde_json::from_str(&answer_message(&AnswerMessage {
            lesson: &run.source,
            step: 2,
            answered: Answered {
                right: false,
                first: true,
                reveal: 9,
            },
            text: "Which \"records\"?",
            choices: &choices,
            picked: &[1],
            right: &[0, 1],
        }))
        .unwrap();
        assert_eq!(v["type"], "abs:answer");
        assert_eq!(v["lesson"], "al\"ign");
        assert_eq!(v["step"], 3);
        assert_eq!(v["correct"], false);
        assert_eq!(v["first"], true);
        assert_eq!(v["question"], "step-3");
        assert_eq!(v["text"], "Which \"records\"?");
        assert_eq!(v["choices"][1], "“a” #5");
        assert_eq!(v["picked"], serde_json::json!([1]));
        assert_eq!(v["right"], serde_json::json!([0, 1]));
        let v: serde_json::Value = serde_json::from_str(&step_message(&run)).unwrap();
        assert_eq!(v["type"], "abs:lesson-step");
        assert_eq!(v["title"], "T");
        assert_eq!(
            (v["step"].as_u64(), v["steps"].as_u64()),
            (Some(3), Some(3))
        );
        assert_eq!(v["progress"], "2;-r-");
        let v: serde_json::Value = serde_json::from_str(&done_message(&run)).unwrap();
        assert_eq!(v["type"], "abs:lesson-done");
        assert_eq!(
            (
                v["correct"].as_u64(),
                v["total"].as_u64(),
                v["mastery"].as_u64()
            ),
            (Some(1), Some(2), Some(80))
        );
        let plain = LessonRun::new("p".into(), lesson(""));
        let v: serde_json::Value = serde_json::from_str(&done_message(&plain)).unwrap();
        assert!(v["mastery"].is_null());
    }
}
