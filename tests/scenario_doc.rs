//! `docs/scenario.md`, the scenario format's documented schema, kept true: every ```json block
//! in it is a scenario that parses (and runs to a completed checkpoint), and every field name,
//! operator kind, partitioning and mode the serde types write is named in it as `` `name` ``.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use abs_playground::engine::{BarrierMode, Config, Partitioning};
use abs_playground::scenario::{presets, Scenario};
use serde_json::Value;

const DOC: &str = include_str!("../docs/scenario.md");

/// The ```json fenced blocks of the doc, each with the line its text starts on.
fn json_blocks(doc: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        let fence = line.trim_start();
        match &mut open {
            None if fence.starts_with("```json") => open = Some((i + 2, String::new())),
            Some(_) if fence.starts_with("```") => blocks.extend(open.take()),
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    assert!(open.is_none(), "a ```json block is not closed");
    blocks
}

/// Every object key in `value`, recursively.
fn keys(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.insert(k.clone());
                keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

/// Every string value of a `key` field in `value`, recursively (`type` gives the kinds).
fn values_of(value: &Value, key: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if k == key {
                    if let Value::String(s) = v {
                        out.insert(s.clone());
                    }
                }
                values_of(v, key, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| values_of(v, key, out)),
        _ => {}
    }
}

/// The presets as JSON values, plus what they leave out because it is at its default and
/// skipped when serialised: a non-FIFO edge and an aligned-checkpoint timeout.
fn serialised() -> Vec<Value> {
    let mut scenarios = presets::all();
    assert!(!scenarios.is_empty());
    let mut extra = presets::alignment().with_aligned_timeout(true);
    extra.graph.edges[0].fifo = false;
    scenarios.push(extra);
    let mut values: Vec<Value> = scenarios
        .iter()
        .map(|s| serde_json::from_str(&s.to_json()).unwrap())
        .collect();
    values.push(serde_json::to_value(Config::default()).unwrap());
    values
}

/// The names written `` `name` `` nowhere in the doc.
fn undocumented(names: &BTreeSet<String>) -> Vec<&String> {
    names
        .iter()
        .filter(|n| !DOC.contains(&format!("`{n}`")))
        .collect()
}

#[test]
fn every_json_example_parses_and_completes_a_checkpoint() {
    let blocks = json_blocks(DOC);
    assert!(
        blocks.len() >= 2,
        "expected the two examples, found {}",
        blocks.len()
    );
    for (line, text) in blocks {
        let scenario = Scenario::from_json(&text)
            .unwrap_or_else(|e| panic!("docs/scenario.md, the example at line {line}: {e}"));
        let mut sim = scenario.simulation().unwrap();
        for _ in 0..5_000 {
            if sim.coordinator().completed().next().is_some() {
                break;
            }
            sim.step();
        }
        assert!(
            sim.coordinator().completed().next().is_some(),
            "docs/scenario.md, the example at line {line} ({}): no checkpoint completed",
            scenario.name
        );
    }
}

#[test]
fn every_field_name_is_documented() {
    let mut names = BTreeSet::new();
    for value in serialised() {
        keys(&value, &mut names);
    }
    // Fields skipped at their defaults: the presets or the extra scenario wrote them.
    for must in [
        "failures",
        "fifo",
        "initiators",
        "aligned_checkpoint_timeout",
        "type",
    ] {
        assert!(names.contains(must), "no scenario wrote `{must}`");
    }
    let missing = undocumented(&names);
    assert!(
        missing.is_empty(),
        "docs/scenario.md does not name these fields as `field`: {missing:?}"
    );
}

#[test]
fn every_kind_partitioning_and_mode_is_documented() {
    let mut names = BTreeSet::new();
    for value in serialised() {
        values_of(&value, "type", &mut names);
    }
    assert!(
        names.len() >= 10,
        "operator kinds in the presets: {names:?}"
    );
    // Listed by an exhaustive match: a new partitioning does not compile until it is added.
    let partitionings = [
        Partitioning::Forward,
        Partitioning::Rebalance,
        Partitioning::Hash,
        Partitioning::Broadcast,
        Partitioning::Rescale,
    ];
    for p in partitionings {
        match p {
            Partitioning::Forward
            | Partitioning::Rebalance
            | Partitioning::Hash
            | Partitioning::Broadcast
            | Partitioning::Rescale => {}
        }
        if let Value::String(s) = serde_json::to_value(p).unwrap() {
            names.insert(s);
        }
    }
    for mode in BarrierMode::ALL {
        names.insert(mode.as_str().to_string());
        assert_eq!(
            serde_json::to_value(mode).unwrap(),
            Value::String(mode.as_str().into())
        );
    }
    let missing = undocumented(&names);
    assert!(
        missing.is_empty(),
        "docs/scenario.md does not name these kinds, partitionings or modes: {missing:?}"
    );
}
