//! What the page and `abs-sim` refuse because it would need more than they can hold (issue
//! 26): each of the examples is refused with a sentence naming the limit, and before
//! any work — a text over the size limit is refused before it is parsed (a 50 MB paste of
//! nonsense is "too large", not a syntax error). The limits are listed in docs/scenario.md.

use abs_playground::scenario::{presets, Scenario, ScenarioError};
use abs_playground::ui::permalink::{replay, MAX_LINK_STEP};
use abs_playground::ui::run::Run;
use serde_json::Value;

fn alignment() -> Value {
    serde_json::from_str(&presets::by_name("alignment").unwrap().to_json()).unwrap()
}

fn refusal(value: &Value) -> String {
    match Scenario::from_json(&value.to_string()) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_parallelism_of_100_000_is_refused_naming_the_limit_of_subtasks() {
    let mut s = alignment();
    s["graph"]["operators"][0]["parallelism"] = 100_000.into();
    let why = refusal(&s);
    assert!(why.contains("4,096") || why.contains("4096"), "{why}");
}

#[test]
fn too_many_source_lines_are_refused_naming_the_limit() {
    // 200,000 short lines fit in the size limit: the line limit refuses them.
    let mut s = alignment();
    s["graph"]["operators"][0]["kind"]["lines"] = Value::Array(vec!["a".into(); 200_000]);
    let why = refusal(&s);
    assert!(why.contains("10,000") || why.contains("10000"), "{why}");
    // A million do not even fit in the size limit.
    s["graph"]["operators"][0]["kind"]["lines"] = Value::Array(vec!["a".into(); 1_000_000]);
    let why = refusal(&s);
    assert!(
        why.contains("1,048,576") || why.contains("1048576"),
        "{why}"
    );
}

#[test]
fn a_50_mb_paste_is_refused_by_its_size_before_it_is_read() {
    let paste = "{".repeat(50 << 20);
    match Scenario::from_json(&paste) {
        Err(e @ ScenarioError::TooLarge(n)) => {
            assert_eq!(n, 50 << 20);
            let why = e.to_string();
            assert!(
                why.contains("1,048,576") || why.contains("1048576"),
                "{why}"
            );
        }
        other => panic!("not refused by its size: {other:?}"),
    }
}

#[test]
fn a_link_to_step_a_billion_replays_at_most_the_link_limit() {
    // The page's links replay at most MAX_LINK_STEP steps (permalink::replay; the page says
    // so in a notice, share.spec.js); the engine itself goes further for `abs-sim`.
    const { assert!(MAX_LINK_STEP < 1_000_000_000) };
    let mut run = Run::new(presets::by_name("alignment").unwrap()).unwrap();
    replay(&mut run, 1_000_000_000, &[]).unwrap();
    assert_eq!(run.position(), MAX_LINK_STEP);
}
