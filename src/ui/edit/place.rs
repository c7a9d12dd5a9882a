//! Where in the editor's text a refusal of the graph or the settings is: the field or the name
//! it is about, so the editor can say the line and put the caret there, as it does for a
//! syntax error. Found by looking for what the refusal names in the text (the reader keeps no
//! positions once a scenario reads); `None` when it names nothing to look for.

use crate::engine::model::SettingError;
use crate::engine::GraphError;
use crate::scenario::ScenarioError;

/// The line and column (both from 1, columns in characters) of what `e` is about.
pub fn of(text: &str, e: &ScenarioError) -> Option<(u64, u64)> {
    let at = match e {
        ScenarioError::Setting(s) => setting(text, s),
        ScenarioError::Graph(g) => graph(text, g),
        ScenarioError::UnknownFailedTask { task, .. } => after(text, "failures", &quoted(task)),
        _ => None,
    }?;
    let before = &text[..at];
    let line = before.matches('\n').count() as u64 + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u64 + 1;
    Some((line, column))
}

fn setting(text: &str, s: &SettingError) -> Option<usize> {
    match s {
        SettingError::ZeroCheckpointInterval => key(text, "checkpoint_interval"),
        SettingError::Zero(field) => key(text, field),
        SettingError::Latency { edge, .. } => in_edge(text, *edge, "latency"),
        SettingError::Capacity { edge, .. } => in_edge(text, *edge, "capacity"),
    }
}

fn graph(text: &str, g: &GraphError) -> Option<usize> {
    let operators = || key(text, "operators");
    match g {
        GraphError::NoOperators
        | GraphError::NoSource
        | GraphError::NoSourceForBarriers
        | GraphError::TooManyTasks(_)
        | GraphError::TooManyChannels(_)
        | GraphError::TooManyLines(_) => operators(),
        GraphError::EmptyName => after(text, "operators", "\"\""),
        // The second operator of that name.
        GraphError::DuplicateOperator(n) => {
            let first = after(text, "operators", &quoted(n))?;
            let second = first + 1;
            text.get(second..)?.find(&quoted(n)).map(|i| second + i)
        }
        GraphError::UnknownOperator { edge, name } => {
            let start = in_edge(text, *edge, "from")?;
            text.get(start..)?.find(&quoted(name)).map(|i| start + i)
        }
        GraphError::DuplicateEdge { from, .. } | GraphError::ForwardParallelism { from, .. } => {
            after(text, "edges", &quoted(from))
        }
        GraphError::ZeroParallelism(n)
        | GraphError::SourceHasInputs(n)
        | GraphError::NoInputs(n)
        | GraphError::UnionNeedsTwoInputs(n)
        | GraphError::SourceWithoutLines(n)
        | GraphError::ZeroInterval(n)
        | GraphError::Cycle(n)
        | GraphError::ProcessParallelism(n)
        | GraphError::IterateWithoutLoop(n)
        | GraphError::TwoTokens(_, n) => after(text, "operators", &quoted(n)),
        GraphError::UnknownInitiator(n) => after(text, "initiators", &quoted(n)),
        GraphError::Unreachable { initiator, .. } => after(text, "initiators", &quoted(initiator)),
        GraphError::ConcurrentUnaligned { .. } => key(text, "max_concurrent_checkpoints"),
    }
}

/// A name as the text spells it: a JSON string.
fn quoted(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_default()
}

/// The first `"name"` used as a key.
fn key(text: &str, name: &str) -> Option<usize> {
    let k = format!("\"{name}\"");
    let mut from = 0;
    while let Some(i) = text.get(from..)?.find(&k) {
        let at = from + i;
        if text[at + k.len()..].trim_start().starts_with(':') {
            return Some(at);
        }
        from = at + k.len();
    }
    None
}

/// The first `needle` after the key `anchor`, or anywhere if there is none.
fn after(text: &str, anchor: &str, needle: &str) -> Option<usize> {
    let start = key(text, anchor).unwrap_or(0);
    text.get(start..)?.find(needle).map(|i| start + i)
}

/// Edge number `edge` (from 0) of `"edges"`: its key `field`, or the edge's start if it has
/// none. The edges are objects without objects inside.
fn in_edge(text: &str, edge: u32, field: &str) -> Option<usize> {
    let list = key(text, "edges")?;
    let mut at = list;
    for _ in 0..=edge {
        at += text.get(at..)?.find('{')? + 1;
    }
    let start = at - 1;
    let end = start + text.get(start..)?.find('}')?;
    let k = format!("\"{field}\"");
    Some(text[start..end].find(&k).map_or(start, |i| start + i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{presets, Scenario};

    /// The preset's text with `from` → `to` (the first), the refusal's place, and the text
    /// from there on its line.
    fn placed(from: &str, to: &str) -> (String, Option<(u64, u64)>, String) {
        let good = presets::alignment().to_json();
        assert!(good.contains(from), "{from}");
        let text = good.replacen(from, to, 1);
        let e = Scenario::from_json(&text).expect_err(to);
        assert!(!matches!(e, ScenarioError::Syntax { .. }), "{e}");
        let at = of(&text, &e);
        let shown = at.map_or(String::new(), |(line, column)| {
            let l = text.lines().nth(line as usize - 1).unwrap_or("");
            l.chars().skip(column as usize - 1).collect()
        });
        (text, at, shown)
    }

    #[test]
    fn a_refusal_of_the_graph_or_the_settings_points_at_what_it_names() {
        let (_, _, shown) = placed("\"checkpoint_interval\": 120", "\"checkpoint_interval\": 0");
        assert!(shown.starts_with("\"checkpoint_interval\": 0"), "{shown}");
        let (_, _, shown) = placed("\"timeout\": 10000", "\"timeout\": 0");
        assert!(shown.starts_with("\"timeout\": 0"), "{shown}");
        // An edge that names an operator the graph lacks: the name, in that edge.
        let (_, _, shown) = placed("\"to\": \"Sink\"", "\"to\": \"Snk\"");
        assert!(shown.starts_with("\"Snk\""), "{shown}");
        // The second edge's latency of 0: that edge's latency, not the first's.
        let (_, at, shown) = placed("\"latency\": 48", "\"latency\": 0");
        assert!(shown.starts_with("\"latency\": 0"), "{shown}");
        assert_eq!(
            at.map(|a| a.0),
            Some(72),
            "line of the second edge's latency"
        );
        let (_, _, shown) = placed(
            "\"capacity\": 24\n      },\n      {\n        \"from\": \"Merge\"",
            "\"capacity\": 0\n      },\n      {\n        \"from\": \"Merge\"",
        );
        assert!(shown.starts_with("\"capacity\": 0"), "{shown}");
        // Two operators of one name: the second.
        let (text, at, shown) = placed("\"name\": \"Merge\"", "\"name\": \"Src A\"");
        let (line, _) = at.unwrap();
        let first = text.lines().position(|l| l.contains("\"Src A\"")).unwrap() as u64 + 1;
        assert!(
            line > first && shown.starts_with("\"Src A\""),
            "{line} {first} {shown}"
        );
    }
}
