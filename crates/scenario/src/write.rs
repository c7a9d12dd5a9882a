//! Writes a scenario file, the counterpart of `read.rs`: the editor's text (pretty, two-space
//! indent) and a link's compact JSON. Written by hand for the same reason the reader is: serde's
//! derived writer costs the page's wasm about 5.5 kB gzip. The output is byte for byte what
//! serde_json writes for the same scenario (the tests compare every preset and every optional
//! field), so files written before read and diff the same.

use super::{Failure, Scenario};
use abs_engine::model::{Config, Edge, JobGraph, Operator, OperatorKind};

/// A JSON value, borrowed from the scenario it describes.
enum Json<'a> {
    Null,
    Bool(bool),
    Number(u64),
    Text(&'a str),
    Array(Vec<Json<'a>>),
    Object(Vec<(&'static str, Json<'a>)>),
}

/// The scenario as JSON: indented by two spaces, or compact.
pub(super) fn scenario(s: &Scenario, pretty: bool) -> String {
    let mut out = String::new();
    write(&mut out, &of_scenario(s), pretty, 0);
    out
}

fn of_scenario(s: &Scenario) -> Json<'_> {
    let mut fields = vec![
        ("name", Json::Text(&s.name)),
        ("title", Json::Text(&s.title)),
        ("lesson", Json::Text(&s.lesson)),
        ("graph", of_graph(&s.graph)),
        ("config", of_config(&s.config)),
        ("seed", Json::Number(s.seed)),
    ];
    if !s.failures.is_empty() {
        fields.push((
            "failures",
            Json::Array(s.failures.iter().map(of_failure).collect()),
        ));
    }
    Json::Object(fields)
}

fn of_failure(f: &Failure) -> Json<'_> {
    Json::Object(vec![
        ("task", Json::Text(&f.task)),
        ("at", Json::Number(f.at)),
    ])
}

fn of_graph(g: &JobGraph) -> Json<'_> {
    Json::Object(vec![
        (
            "operators",
            Json::Array(g.operators.iter().map(of_operator).collect()),
        ),
        ("edges", Json::Array(g.edges.iter().map(of_edge).collect())),
    ])
}

fn of_operator(o: &Operator) -> Json<'_> {
    Json::Object(vec![
        ("name", Json::Text(&o.name)),
        ("kind", of_kind(&o.kind)),
        ("parallelism", Json::Number(u64::from(o.parallelism))),
        ("processing_time", Json::Number(o.processing_time)),
    ])
}

/// An operator kind: an object tagged by `type`, the kind's settings after it.
fn of_kind(k: &OperatorKind) -> Json<'_> {
    let n = Json::Number;
    let (kind, mut settings) = match k {
        OperatorKind::Source {
            lines,
            interval,
            bounded,
        } => (
            "source",
            vec![
                (
                    "lines",
                    Json::Array(lines.iter().map(|l| Json::Text(l)).collect()),
                ),
                ("interval", n(*interval)),
                ("bounded", Json::Bool(*bounded)),
            ],
        ),
        OperatorKind::Split => ("split", vec![]),
        OperatorKind::Map => ("map", vec![]),
        OperatorKind::Filter { min_len } => ("filter", vec![("min_len", n(u64::from(*min_len)))]),
        OperatorKind::Count => ("count", vec![]),
        OperatorKind::Union => ("union", vec![]),
        OperatorKind::Sink { transactional } => {
            ("sink", vec![("transactional", Json::Bool(*transactional))])
        }
        OperatorKind::Token { has_token, hold } => (
            "token",
            vec![("has_token", Json::Bool(*has_token)), ("hold", n(*hold))],
        ),
        OperatorKind::Iterate { rounds } => ("iterate", vec![("rounds", n(u64::from(*rounds)))]),
        OperatorKind::Account {
            balance,
            interval,
            max_transfer,
        } => (
            "account",
            vec![
                ("balance", n(*balance)),
                ("interval", n(*interval)),
                ("max_transfer", n(*max_transfer)),
            ],
        ),
    };
    settings.insert(0, ("type", Json::Text(kind)));
    Json::Object(settings)
}

fn of_edge(e: &Edge) -> Json<'_> {
    let partitioning = e.partitioning.as_str();
    let mut fields = vec![
        ("from", Json::Text(&e.from)),
        ("to", Json::Text(&e.to)),
        ("partitioning", Json::Text(partitioning)),
        ("latency", Json::Number(e.latency)),
        ("capacity", Json::Number(u64::from(e.capacity))),
    ];
    if !e.fifo {
        fields.push(("fifo", Json::Bool(false)));
    }
    Json::Object(fields)
}

fn of_config(c: &Config) -> Json<'_> {
    let optional = |v: Option<u64>| v.map_or(Json::Null, Json::Number);
    let mut fields = vec![
        ("mode", Json::Text(c.mode.as_str())),
        ("checkpoint_interval", optional(c.checkpoint_interval)),
        ("first_trigger", Json::Number(c.first_trigger)),
        (
            "max_concurrent_checkpoints",
            Json::Number(u64::from(c.max_concurrent_checkpoints)),
        ),
        ("min_pause", Json::Number(c.min_pause)),
        ("timeout", Json::Number(c.timeout)),
        (
            "finished_channels_align",
            Json::Bool(c.finished_channels_align),
        ),
        (
            "retained_checkpoints",
            Json::Number(u64::from(c.retained_checkpoints)),
        ),
        (
            "tolerable_failed_checkpoints",
            optional(c.tolerable_failed_checkpoints.map(u64::from)),
        ),
    ];
    if !c.initiators.is_empty() {
        let names = c.initiators.iter().map(|i| Json::Text(i)).collect();
        fields.push(("initiators", Json::Array(names)));
    }
    if let Some(t) = c.aligned_checkpoint_timeout {
        fields.push(("aligned_checkpoint_timeout", Json::Number(t)));
    }
    fields.push(("restart_delay", Json::Number(c.restart_delay)));
    if let Some(b) = c.buffer_debloat {
        let target = vec![("target", Json::Number(b.target))];
        fields.push(("buffer_debloat", Json::Object(target)));
    }
    if c.chaining {
        fields.push(("chaining", Json::Bool(true)));
    }
    Json::Object(fields)
}

fn write(out: &mut String, value: &Json, pretty: bool, depth: usize) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(&n.to_string()),
        Json::Text(t) => text(out, t),
        Json::Array(items) => {
            let items = items.iter().map(|v| (None, v));
            container(out, ('[', ']'), items, pretty, depth);
        }
        Json::Object(fields) => {
            let fields = fields.iter().map(|(k, v)| (Some(*k), v));
            container(out, ('{', '}'), fields, pretty, depth);
        }
    }
}

/// An array or object: `[]`/`{}` when empty; pretty, one entry per line, indented.
fn container<'a, 'b: 'a>(
    out: &mut String,
    (open, close): (char, char),
    entries: impl ExactSizeIterator<Item = (Option<&'static str>, &'a Json<'b>)>,
    pretty: bool,
    depth: usize,
) {
    out.push(open);
    let empty = entries.len() == 0;
    for (i, (key, value)) in entries.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if pretty {
            newline(out, depth + 1);
        }
        if let Some(key) = key {
            text(out, key);
            out.push_str(if pretty { ": " } else { ":" });
        }
        write(out, value, pretty, depth + 1);
    }
    if pretty && !empty {
        newline(out, depth);
    }
    out.push(close);
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// A JSON string, escaped as serde_json escapes: quote, backslash and control characters.
fn text(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                out.push(char::from(HEX[(c as usize) >> 4]));
                out.push(char::from(HEX[(c as usize) & 0xf]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use abs_engine::BarrierMode;

    fn both(s: &Scenario) {
        assert_eq!(
            scenario(s, true),
            serde_json::to_string_pretty(s).unwrap(),
            "{}",
            s.name
        );
        assert_eq!(
            scenario(s, false),
            serde_json::to_string(s).unwrap(),
            "{}",
            s.name
        );
    }

    #[test]
    fn every_preset_is_written_as_serde_writes_it() {
        for name in presets::NAMES {
            both(&presets::by_name(name).unwrap());
        }
    }

    #[test]
    fn every_optional_field_and_every_escape_is_written_as_serde_writes_it() {
        let mut s = presets::wordcount();
        s.title = "quote \" backslash \\ newline \n tab \t cr \r bell \u{7} bs \u{8} ff \u{c} \
                   unit \u{1f} del \u{7f} 屏障 ①"
            .into();
        s.lesson = String::new();
        s.seed = u64::MAX;
        s.config.checkpoint_interval = None;
        s.config.tolerable_failed_checkpoints = Some(3);
        s.config.initiators = vec!["Src#0".into(), "Count#1".into()];
        s.config.aligned_checkpoint_timeout = Some(40);
        s.config.mode = BarrierMode::ChandyLamport;
        s.graph.edges[0].fifo = false;
        s.failures = vec![Failure {
            task: "Count#1".into(),
            at: 90,
        }];
        if let OperatorKind::Source { lines, .. } = &mut s.graph.operators[0].kind {
            lines.push(String::new());
            lines.push("\u{0}".into());
        }
        both(&s);
        s.graph.edges.clear();
        s.failures.clear();
        both(&s);
    }

    #[test]
    fn every_kind_and_partitioning_is_written_as_serde_writes_it() {
        let mut s = presets::wordcount();
        let kinds = [
            OperatorKind::Split,
            OperatorKind::Map,
            OperatorKind::Filter { min_len: 4 },
            OperatorKind::Count,
            OperatorKind::Union,
            OperatorKind::Sink {
                transactional: true,
            },
            OperatorKind::Token {
                has_token: true,
                hold: 7,
            },
            OperatorKind::Iterate { rounds: 2 },
            OperatorKind::Account {
                balance: 100,
                interval: 5,
                max_transfer: 30,
            },
        ];
        for kind in kinds {
            s.graph.operators[1].kind = kind;
            both(&s);
        }
        for p in abs_engine::Partitioning::ALL {
            s.graph.edges[0].partitioning = p;
            both(&s);
        }
    }
}
