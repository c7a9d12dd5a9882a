//! Reading a lesson file (`docs/lessons.md`) with the scenario reader's parser: every error
//! has its line and column, worded as the scenario reader words its own.

use super::{string_of, u64_of, At, Fields, Json, Node, Parser};
use crate::lesson::{Ask, Lesson, Step};

/// The most steps a lesson has.
pub const MAX_LESSON_STEPS: usize = 200;

/// Reads a lesson, or says where and why it cannot: `(line, column, message)`.
pub fn lesson(text: &str) -> Result<Lesson, (u64, u64, String)> {
    if text.len() > crate::MAX_SCENARIO_BYTES {
        return Err((
            1,
            1,
            format!(
                "the file is {} bytes; at most {} are accepted",
                text.len(),
                crate::MAX_SCENARIO_BYTES
            ),
        ));
    }
    Parser { text, pos: 0 }
        .document()
        .and_then(|n| read_lesson(&n))
        .map_err(|At(at, message)| {
            let (line, column) = super::line_column(text, at);
            (line, column, message)
        })
}

fn read_lesson(n: &Node) -> Result<Lesson, At> {
    let f = Fields::of(n, "struct Lesson", &["title", "steps", "mastery"])?;
    let steps_node = f.need("steps")?;
    let mut steps = Vec::new();
    if let Json::Arr(items) = &steps_node.value {
        for item in items {
            steps.push(read_step(item)?);
        }
    } else {
        return Err(super::invalid(steps_node, "a sequence"));
    }
    if steps.is_empty() || steps.len() > MAX_LESSON_STEPS {
        return Err(At(
            steps_node.at,
            format!(
                "invalid length {}, expected 1 to {MAX_LESSON_STEPS} steps",
                steps.len()
            ),
        ));
    }
    Ok(Lesson {
        title: string_of(f.need("title")?)?,
        steps,
        mastery: f.or("mastery", None, |n| {
            super::uint(n, 100, "a percentage (0 to 100)").map(|v| Some(v as u8))
        })?,
    })
}

fn read_step(n: &Node) -> Result<Step, At> {
    let f = Fields::of(n, "struct Step", &["at", "text", "ask"])?;
    Ok(Step {
        at: string_of(f.need("at")?)?,
        text: string_of(f.need("text")?)?,
        ask: f.or("ask", None, |n| read_ask(n).map(Some))?,
    })
}

fn read_ask(n: &Node) -> Result<Ask, At> {
    let Json::Obj { fields, end } = &n.value else {
        return Err(super::invalid(n, "struct Ask"));
    };
    let Some((_, _, kind)) = fields.iter().find(|(_, k, _)| k == "kind") else {
        return Err(At(*end, "missing field `kind`".into()));
    };
    let kind = string_of(kind)?;
    let plain = |ask: Ask| Fields::of(n, "struct Ask", &["kind"]).map(|_| ask);
    match kind.as_str() {
        "blocked-input" => plain(Ask::BlockedInput),
        "buffered" => plain(Ask::Buffered),
        "consistent" => plain(Ask::Consistent),
        "global-state" => plain(Ask::GlobalState),
        "counted-twice" => plain(Ask::CountedTwice),
        "choice" => {
            let f = Fields::of(
                n,
                "struct Ask",
                &["kind", "prompt", "choices", "answer", "why", "play"],
            )?;
            let list = f.need("choices")?;
            let Json::Arr(items) = &list.value else {
                return Err(super::invalid(list, "a sequence"));
            };
            let mut choices = Vec::new();
            for item in items {
                choices.push(string_of(item)?);
            }
            let answer = f.need("answer")?;
            let last = choices.len().saturating_sub(1);
            let index = super::uint(
                answer,
                last as u64,
                &format!("the index of one of the choices (0 to {last})"),
            )?;
            if choices.len() < 2 {
                return Err(At(answer.at, "a choice needs at least two choices".into()));
            }
            Ok(Ask::Choice {
                prompt: string_of(f.need("prompt")?)?,
                choices,
                answer: index as usize,
                why: string_of(f.need("why")?)?,
                play: f.or("play", 0, u64_of)?.min(crate::lesson::LOOK_AHEAD),
            })
        }
        _ => {
            let at = fields
                .iter()
                .find(|(_, k, _)| k == "kind")
                .map_or(n.at, |(_, _, v)| v.at);
            Err(At(
                at,
                format!("unknown variant `{kind}`, expected one of `blocked-input`, `buffered`, `consistent`, `global-state`, `counted-twice`, `choice`"),
            ))
        }
    }
}
