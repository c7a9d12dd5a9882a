//! Importing Flink documents (issue 23 §3): what is refused, with the exact message each
//! bad or unknown document gets, and that no cut of a valid one panics. The fixtures in
//! `tests/flink/` are the ones `flink_import.rs` reads.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::scenario::flink::{import_flink_json, plan::MAX_PLAN_NODES, MAX_IMPORT_BYTES};
use abs_playground::scenario::presets;
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/flink/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn fixture_value(name: &str) -> Value {
    serde_json::from_str(&fixture(name)).unwrap()
}

fn error(text: &str) -> String {
    match import_flink_json(text) {
        Err(e) => e.to_string(),
        Ok(other) => panic!("expected an error, got {other:?}"),
    }
}

/// A plan of `n` nodes in a line.
fn line_plan(n: usize) -> Value {
    let nodes: Vec<Value> = (0..n)
        .map(|i| {
            let mut node =
                json!({"id": format!("v{i}"), "parallelism": 1, "description": format!("Op {i}")});
            if i > 0 {
                node["inputs"] =
                    json!([{"num": 0, "id": format!("v{}", i - 1), "ship_strategy": "FORWARD"}]);
            }
            node
        })
        .collect();
    json!({"jid": "j", "name": "line", "nodes": nodes})
}

/// What the view says of a document it does not read: every one it does, with its REST path.
const UNREAD: &str = "this JSON is none of the documents the flink view reads: paste a job's \
    plan (`/jobs/<id>/plan`), its checkpoint list (`/jobs/<id>/checkpoints`), one checkpoint \
    (`/jobs/<id>/checkpoints/details/<cid>`), one vertex's subtasks in it \
    (`/jobs/<id>/checkpoints/details/<cid>/subtasks/<vertex id>`), the checkpoint configuration \
    (`/jobs/<id>/checkpoints/config`), the job's exceptions (`/jobs/<id>/exceptions`), a vertex \
    (`/jobs/<id>/vertices/<vertex id>`), the cluster's configuration (`/config`), or the bundle \
    `abs-sim flink run` writes";
#[test]
fn bad_or_unknown_json_gives_a_precise_error() {
    let plan15 = fixture_value("plan-1.15.json");
    let cps = fixture_value("checkpoints-1.15.json");
    let bundle = fixture_value("bundle-2.x.json");
    let edit = |base: &Value, f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        v.to_string()
    };
    let vid = "20ba6b65f97481d5570070de90e4e791";
    let cases: Vec<(String, String)> =
        vec![
        ("".into(), "this is not JSON (line 1, column 1): EOF while parsing a value".into()),
        (
            "{\"history\": [}".into(),
            "this is not JSON (line 1, column 14): expected value".into(),
        ),
        (
            "[1, 2]".into(),
            "this JSON is an array, not an object: expected a response of flink's REST API (a \
             job plan, checkpoints, a vertex, exceptions or a configuration) or an export bundle"
                .into(),
        ),
        (
            "{\"jobs\": [], \"foo\": 1}".into(),
            format!("{UNREAD}; its fields are `jobs`, `foo`"),
        ),
        (
            presets::by_name("wordcount").unwrap().to_json(),
            "this JSON is a playground scenario (it has `graph`), not a flink document: open \
             it in the scenario editor"
                .into(),
        ),
        (
            "{}".into(),
            format!("{UNREAD}; it is an empty object"),
        ),
        (
            edit(&cps, &|v| v["history"][2]["status"] = json!(3)),
            "history[2].status: expected a string, found the number 3".into(),
        ),
        (
            edit(&cps, &|v| v["history"][0]["status"] = json!("DONE")),
            "history[0].status: unknown checkpoint status \"DONE\"; expected COMPLETED, FAILED \
             or IN_PROGRESS"
                .into(),
        ),
        (
            edit(&cps, &|v| {
                v["history"][1].as_object_mut().unwrap().remove("id");
            }),
            "history[1]: missing field `id`".into(),
        ),
        (
            edit(&cps, &|v| v["history"][0]["trigger_timestamp"] = json!(1.5)),
            "history[0].trigger_timestamp: expected a whole number, found the number 1.5".into(),
        ),
        (
            edit(&cps, &|v| v["history"] = json!({})),
            "history: expected an array, found an object".into(),
        ),
        (
            json!({"nodes": []}).to_string(),
            "nodes: the plan has no nodes".into(),
        ),
        (
            line_plan(MAX_PLAN_NODES + 1).to_string(),
            "nodes: 65 nodes; at most 64 are imported".into(),
        ),
        (
            edit(&plan15, &|v| v["plan"]["nodes"][1]["parallelism"] = json!(0)),
            "plan.nodes[1].parallelism: 0 is not in 1 to 32768".into(),
        ),
        (
            edit(&plan15, &|v| v["plan"]["nodes"][1]["parallelism"] = json!(-1)),
            "plan.nodes[1].parallelism: expected a whole number ≥ 0, found the number -1".into(),
        ),
        (
            edit(&plan15, &|v| v["plan"]["nodes"][1]["parallelism"] = json!("4")),
            "plan.nodes[1].parallelism: expected a whole number, found the string \"4\"".into(),
        ),
        (
            edit(&plan15, &|v| v["plan"]["nodes"][2]["inputs"][0]["id"] = json!("nope")),
            "plan.nodes[2].inputs[0].id: no node of the plan has id \"nope\"".into(),
        ),
        (
            edit(&plan15, &|v| v["plan"]["nodes"][3]["id"] = v["plan"]["nodes"][0]["id"].clone()),
            "plan.nodes[3].id: a second node with id \"cbc357ccb763df2852fee8c4fc7d55f2\"".into(),
        ),
        (
            edit(&plan15, &|v| {
                let keyed = v["plan"]["nodes"][2]["id"].clone();
                v["plan"]["nodes"][1]["inputs"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"num": 1, "id": keyed, "ship_strategy": "HASH"}));
            }),
            "the plan has a cycle (\"Keyed Aggregation\" → \"Filter\" → \"Keyed Aggregation\"); \
             cyclic jobs are not imported"
                .into(),
        ),
        (
            edit(&plan15, &|v| v["plan"]["nodes"][0]["description"] = json!("IterationSource-5")),
            "plan.nodes[0]: \"IterationSource-5\" is part of an iteration; iterations are not \
             imported"
                .into(),
        ),
        (
            json!({"flink_version": "2.1.0"}).to_string(),
            "the document: missing field `checkpoints`".into(),
        ),
        (
            edit(&bundle, &|v| v["final"]["counts"]["the"] = json!("3")),
            "final.counts.the: expected a whole number, found the string \"3\"".into(),
        ),
        (
            edit(&bundle, &|v| v["checkpoints"]["details"] = json!(3)),
            "checkpoints.details: expected an array or an object, found the number 3".into(),
        ),
        (
            edit(&bundle, &|v| {
                v["checkpoints"]["details"]["1"]["tasks"][vid]["subtasks"][0]["alignment"] =
                    json!(4)
            }),
            format!(
                "checkpoints.details.1.tasks.{vid}.subtasks[0].alignment: expected an object, \
                 found the number 4"
            ),
        ),
        (
            edit(&bundle, &|v| v["plan"]["plan"]["nodes"] = json!("none")),
            "plan.plan.nodes: expected an array, found the string \"none\"".into(),
        ),
    ];
    for (text, expected) in &cases {
        assert_eq!(&error(text), expected, "{text}");
    }
    let huge = " ".repeat(MAX_IMPORT_BYTES + 1);
    assert_eq!(
        error(&huge),
        format!(
            "the text is {} bytes; at most {MAX_IMPORT_BYTES} are imported",
            MAX_IMPORT_BYTES + 1
        )
    );
}

#[test]
fn no_prefix_of_a_fixture_panics() {
    for name in [
        "plan-1.15.json",
        "plan-2.x.json",
        "checkpoints-1.15.json",
        "checkpoints-2.x.json",
        "bundle-2.x.json",
    ] {
        let text = fixture(name);
        // Cut before the closing brace: what follows it is white space.
        let whole = text.trim_end().len();
        for cut in (0..whole).filter(|&i| text.is_char_boundary(i)) {
            assert!(
                import_flink_json(&text[..cut]).is_err(),
                "{name} cut at {cut}"
            );
        }
        assert!(import_flink_json(&text).is_ok(), "{name}");
    }
}

/// The JSON pointer of every value in `v`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                pointers(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

#[test]
fn any_value_of_any_type_anywhere_is_read_or_refused_never_a_panic() {
    let others = [
        json!(null),
        json!(true),
        json!(-1),
        json!(1.5),
        json!(18446744073709551615u64),
        json!("x"),
        json!([]),
        json!({}),
    ];
    let mut refused = 0;
    for name in [
        "plan-1.15.json",
        "plan-2.x.json",
        "checkpoints-1.15.json",
        "checkpoints-2.x.json",
        "bundle-2.x.json",
    ] {
        let base = fixture_value(name);
        let mut all = Vec::new();
        pointers(&base, String::new(), &mut all);
        for at in all.iter().filter(|p| !p.is_empty()) {
            for other in &others {
                let mut v = base.clone();
                *v.pointer_mut(at).unwrap() = other.clone();
                if let Err(e) = import_flink_json(&v.to_string()) {
                    refused += 1;
                    let m = e.to_string();
                    assert!(
                        m.chars().next().is_some_and(|c| !c.is_uppercase()),
                        "{name} {at}: {m}"
                    );
                }
            }
        }
    }
    // Lenient where Flink's documents vary, strict where a value is used: both happen.
    assert!(refused > 100, "{refused}");
}
