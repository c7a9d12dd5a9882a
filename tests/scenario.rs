//! The scenario file format: unknown fields and settings out of range are refused with typed
//! errors, every file that was valid stays valid, and no input panics.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::model::SettingError;
use abs_playground::engine::sim::MAX_LATENCY;
use abs_playground::engine::OperatorKind;
use abs_playground::scenario::{presets, Scenario, ScenarioError};
use serde_json::{json, Value};

/// A preset as a JSON value, to edit.
fn preset_value(name: &str) -> Value {
    serde_json::from_str(&presets::by_name(name).unwrap().to_json()).unwrap()
}

/// Parses the pretty text of `value`.
fn parse(value: &Value) -> (String, Result<Scenario, ScenarioError>) {
    let text = serde_json::to_string_pretty(value).unwrap();
    let parsed = Scenario::from_json(&text);
    (text, parsed)
}

/// Asserts that `value` is refused for the unknown field `field`, with the field's name in
/// the message and a position in the file.
fn assert_unknown_field(value: &Value, field: &str) -> (u64, u64, String) {
    let (text, parsed) = parse(value);
    match parsed {
        Err(ScenarioError::Syntax {
            line,
            column,
            message,
        }) => {
            assert!(
                message.contains(&format!("unknown field `{field}`")),
                "{field}: {message}"
            );
            assert!(
                line >= 1 && line <= text.lines().count() as u64 && column >= 1,
                "{field}: line {line} column {column}"
            );
            (line, column, text)
        }
        other => panic!("{field}: expected an unknown-field error, got {other:?}"),
    }
}

/// The 1-based line of `text` that holds `needle`.
fn line_of(text: &str, needle: &str) -> u64 {
    text.lines().position(|l| l.contains(needle)).unwrap() as u64 + 1
}

#[test]
fn a_number_with_a_leading_zero_is_refused_where_it_is_as_json_and_serde_do() {
    let text = preset_value("alignment").to_string();
    let at = text.find("\"seed\":").unwrap() + "\"seed\":".len();
    let end = at + text[at..].find(|c: char| !c.is_ascii_digit()).unwrap();
    for bad in ["017", "00", "-01"] {
        let zeroed = format!("{}{bad}{}", &text[..at], &text[end..]);
        assert!(
            serde_json::from_str::<Value>(&zeroed).is_err(),
            "{bad}: JSON takes it"
        );
        match Scenario::from_json(&zeroed) {
            Err(ScenarioError::Syntax {
                line,
                column,
                message,
            }) => {
                assert!(message.contains("leading zero"), "{bad}: {message}");
                // Columns count characters (the lesson before it has ① and — in it).
                let column_at = text[..at].chars().count() as u64 + 1;
                assert_eq!((line, column), (1, column_at), "{bad}: {message}");
            }
            other => panic!("{bad}: expected a syntax error, got {other:?}"),
        }
    }
    // A plain zero is still a number.
    let zero = format!("{}0{}", &text[..at], &text[end..]);
    assert_eq!(Scenario::from_json(&zero).map(|s| s.seed), Ok(0));
}

#[test]
fn a_misspelt_top_level_field_is_refused_where_it_is() {
    let mut v = preset_value("alignment");
    v["sede"] = json!(3);
    let (line, _, text) = assert_unknown_field(&v, "sede");
    assert_eq!(line, line_of(&text, "\"sede\""));
}

#[test]
fn a_misspelt_config_field_is_refused() {
    let mut v = preset_value("alignment");
    v["config"]["checkpoint_intervall"] = json!(50);
    let (line, _, text) = assert_unknown_field(&v, "checkpoint_intervall");
    assert_eq!(line, line_of(&text, "\"checkpoint_intervall\""));
}

#[test]
fn a_misspelt_graph_field_is_refused() {
    let mut v = preset_value("alignment");
    v["graph"]["edge"] = json!([]);
    assert_unknown_field(&v, "edge");
}

#[test]
fn a_misspelt_operator_field_is_refused() {
    let mut v = preset_value("alignment");
    v["graph"]["operators"][1]["paralelism"] = json!(2);
    let (line, _, text) = assert_unknown_field(&v, "paralelism");
    assert_eq!(line, line_of(&text, "\"paralelism\""));
}

#[test]
fn a_misspelt_edge_field_is_refused() {
    let mut v = preset_value("alignment");
    v["graph"]["edges"][0]["latncy"] = json!(5);
    assert_unknown_field(&v, "latncy");
}

#[test]
fn a_misspelt_field_inside_an_operator_kind_is_refused() {
    // A kind with settings of its own…
    let mut v = preset_value("alignment");
    let kind = &mut v["graph"]["operators"][0]["kind"];
    assert_eq!(kind["type"], "source");
    kind["bounde"] = json!(true);
    assert_unknown_field(&v, "bounde");

    let mut v = preset_value("large");
    let filter = v["graph"]["operators"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|o| o["kind"]["type"] == "filter")
        .unwrap();
    filter["kind"]["minlen"] = json!(3);
    assert_unknown_field(&v, "minlen");
}

#[test]
fn a_field_next_to_a_kind_without_settings_is_refused() {
    // Serde lets such fields through for internally tagged unit variants; the file format
    // must not.
    for kind in ["split", "map", "count", "union", "sink"] {
        let mut v = preset_value("large");
        v["graph"]["operators"][1]["kind"] = json!({ "type": kind, "min_len": 3 });
        assert_unknown_field(&v, "min_len");
    }
}

#[test]
fn operator_kinds_without_settings_still_parse() {
    let mut v = preset_value("alignment");
    // Merge (a union): `{"type": …}` alone. The preset's sink is transactional; a sink
    // written without the setting is a plain one.
    assert_eq!(
        v["graph"]["operators"][2]["kind"],
        json!({ "type": "union" })
    );
    assert_eq!(
        v["graph"]["operators"][3]["kind"],
        json!({ "type": "sink", "transactional": true })
    );
    v["graph"]["operators"][2]["kind"] = json!({ "type": "union" });
    assert_eq!(parse(&v).1.unwrap(), presets::alignment());
    v["graph"]["operators"][3]["kind"] = json!({ "type": "sink" });
    let mut plain = presets::alignment();
    plain.graph.operators[3].kind = OperatorKind::Sink {
        transactional: false,
    };
    assert_eq!(parse(&v).1.unwrap(), plain);
    // An unknown kind names the valid ones.
    v["graph"]["operators"][3]["kind"] = json!({ "type": "sinc" });
    match parse(&v).1 {
        Err(ScenarioError::Syntax { message, .. }) => {
            assert!(
                message.contains("sinc") && message.contains("sink"),
                "{message}"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_zero_checkpoint_interval_is_refused() {
    let mut v = preset_value("wordcount");
    v["config"]["checkpoint_interval"] = json!(0);
    let err = parse(&v).1.unwrap_err();
    assert_eq!(
        err,
        ScenarioError::Setting(SettingError::ZeroCheckpointInterval)
    );
    assert!(err.to_string().contains("checkpoint_interval"), "{err}");

    // A scenario built in code can be checked the same way.
    let mut s = presets::wordcount();
    s.config.checkpoint_interval = Some(0);
    assert_eq!(
        s.validate(),
        Err(ScenarioError::Setting(SettingError::ZeroCheckpointInterval))
    );

    // 1 and null (checkpoints by hand only) are fine.
    for ok in [json!(1), Value::Null] {
        v["config"]["checkpoint_interval"] = ok;
        parse(&v).1.unwrap();
    }
}

#[test]
fn a_latency_out_of_range_is_refused_naming_the_edge() {
    let base = preset_value("wordcount");
    let from = base["graph"]["edges"][1]["from"]
        .as_str()
        .unwrap()
        .to_owned();
    let to = base["graph"]["edges"][1]["to"].as_str().unwrap().to_owned();
    for bad in [u64::MAX, MAX_LATENCY + 1, 0] {
        let mut v = base.clone();
        v["graph"]["edges"][1]["latency"] = json!(bad);
        let err = parse(&v).1.unwrap_err();
        assert_eq!(
            err,
            ScenarioError::Setting(SettingError::Latency {
                edge: 1,
                from: from.clone(),
                to: to.clone(),
                latency: bad,
            })
        );
        let message = err.to_string();
        assert!(
            message.contains(&format!("{from:?} → {to:?}"))
                && message.contains(&bad.to_string())
                && message.contains(&MAX_LATENCY.to_string()),
            "{message}"
        );
    }
    for ok in [1, MAX_LATENCY] {
        let mut v = base.clone();
        v["graph"]["edges"][1]["latency"] = json!(ok);
        parse(&v).1.unwrap();
    }
    // Past u64, the number itself is refused by the parser.
    let text = serde_json::to_string_pretty(&base).unwrap().replacen(
        "\"latency\": 8",
        "\"latency\": 18446744073709551616",
        1,
    );
    assert!(matches!(
        Scenario::from_json(&text),
        Err(ScenarioError::Syntax { .. })
    ));
}

#[test]
fn every_preset_serialises_and_parses_back_equal() {
    for preset in presets::all() {
        let pretty = preset.to_json();
        assert_eq!(
            Scenario::from_json(&pretty).unwrap(),
            preset,
            "{}",
            preset.name
        );
        let compact = serde_json::to_string(&preset).unwrap();
        assert_eq!(
            Scenario::from_json(&compact).unwrap(),
            preset,
            "{}",
            preset.name
        );
    }
}

#[test]
fn scenario_files_that_were_valid_stay_valid() {
    // The smallest file: defaults for the lesson, the config, the seed, processing times,
    // latencies and `bounded`.
    let minimal = r#"{
        "name": "mine",
        "title": "Mine",
        "graph": {
            "operators": [
                {"name": "Src", "kind": {"type": "source", "lines": ["a b", "c"], "interval": 5}, "parallelism": 1},
                {"name": "Split", "kind": {"type": "split"}, "parallelism": 2},
                {"name": "Long", "kind": {"type": "filter", "min_len": 1}, "parallelism": 2},
                {"name": "Count", "kind": {"type": "count"}, "parallelism": 2},
                {"name": "Sink", "kind": {"type": "sink"}, "parallelism": 1}
            ],
            "edges": [
                {"from": "Src", "to": "Split", "partitioning": "rebalance"},
                {"from": "Split", "to": "Long", "partitioning": "forward"},
                {"from": "Long", "to": "Count", "partitioning": "hash"},
                {"from": "Count", "to": "Sink", "partitioning": "broadcast"}
            ]
        }
    }"#;
    let s = Scenario::from_json(minimal).unwrap();
    assert_eq!(s.config, Default::default());
    assert_eq!(s.graph.edges[0].latency, 10);
    assert_eq!(s.graph.operators[1].processing_time, 1);

    // Every config field, as the presets write them.
    let full = r#"{"name":"x","title":"X","lesson":"","seed":4,
        "graph":{"operators":[
            {"name":"A","kind":{"type":"source","lines":["x"],"interval":3,"bounded":true},"parallelism":2,"processing_time":2},
            {"name":"B","kind":{"type":"source","lines":["y"],"interval":3},"parallelism":2},
            {"name":"U","kind":{"type":"union"},"parallelism":2},
            {"name":"M","kind":{"type":"map"},"parallelism":2},
            {"name":"S","kind":{"type":"sink"},"parallelism":1}],
          "edges":[
            {"from":"A","to":"U","partitioning":"forward","latency":1},
            {"from":"B","to":"U","partitioning":"forward","latency":1000000},
            {"from":"U","to":"M","partitioning":"forward"},
            {"from":"M","to":"S","partitioning":"rebalance"}]},
        "config":{"mode":"unaligned","checkpoint_interval":null,"first_trigger":0,
          "max_concurrent_checkpoints":2,"min_pause":5,"timeout":100,
          "finished_channels_align":false,"retained_checkpoints":1}}"#;
    // Unaligned with two checkpoints at once was run one at a time; Flink refuses to start
    // such a job, and so does the reader now, saying why.
    let refused = Scenario::from_json(full).unwrap_err().to_string();
    assert!(
        refused.contains("maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled")
            && refused.contains("set it to 1"),
        "{refused}"
    );
    let full = full.replace(
        r#""max_concurrent_checkpoints":2"#,
        r#""max_concurrent_checkpoints":1"#,
    );
    let s = Scenario::from_json(&full).unwrap();
    assert_eq!(s.config.checkpoint_interval, None);
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
}

/// The 1-based line and column (in characters) of byte `at` of `text`, as the reader counts.
fn line_column(text: &str, at: usize) -> (u64, u64) {
    let before = &text[..at];
    let line = before.matches('\n').count() as u64 + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() as u64 + 1)
}

/// The spans of `text`'s runs of ASCII digits, each with whether it lies inside a JSON
/// string (then it is text, not a number).
fn digit_runs(text: &str) -> Vec<(usize, usize, bool)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i, in_string));
            escaped = false;
            continue;
        }
        if in_string {
            match (escaped, b) {
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => escaped = false,
            }
        } else if b == b'"' {
            in_string = true;
        }
        i += 1;
    }
    spans
}

/// What became of the bad inputs: the figures `bad_input_is_refused_where_it_is_or_runs`
/// prints and checks.
#[derive(Debug, Default)]
struct Outcomes {
    /// Accepted, written back byte for byte, and run.
    ran: u64,
    /// Accepted and written back, but too many subtasks to run here.
    too_large: u64,
    /// Refused by the reader at the changed number, naming the value.
    syntax: u64,
    /// Refused for a setting out of range, naming the value.
    setting: u64,
    /// Refused because the job graph does not build.
    graph: u64,
}

/// Every number of a preset's file in turn replaced by something extreme, and the file cut at
/// every position. Each cut is refused where the text ends. Each replaced number is either
/// refused — by the reader at exactly that number's line and column with the value in the
/// message, for a setting out of range with the value in the message, or because the graph
/// does not build — or accepted, written back byte for byte as it was read, and run (up to 300
/// steps) with virtual time never going back. The figures are printed (`-- --nocapture`);
/// accepted and refused texts must each be at least a fifth of the whole.
#[test]
fn bad_input_is_refused_where_it_is_or_runs() {
    let text = presets::alignment().to_json();
    let mut cuts = 0;
    for cut in 0..text.len() {
        if !text.is_char_boundary(cut) {
            continue;
        }
        cuts += 1;
        let prefix = &text[..cut];
        match Scenario::from_json(prefix) {
            Err(ScenarioError::Syntax {
                line,
                column,
                message,
            }) => {
                // Where the text runs out: its last line (a literal cut short, `tru`, is
                // refused where it starts).
                let last = prefix.split('\n').count() as u64;
                assert_eq!(line, last, "cut at {cut}: {message}");
                assert!(column >= 1, "cut at {cut}: {message}");
                let at = format!(" at line {line} column {column}");
                assert!(
                    message.len() > at.len() && message.ends_with(&at),
                    "cut at {cut}: the message {message:?} does not say what and where ({at})"
                );
            }
            other => panic!("the file cut at {cut} was not refused as a syntax error: {other:?}"),
        }
    }
    let numbers = digit_runs(&text);
    assert!(numbers.iter().filter(|n| !n.2).count() > 10);
    let extremes = [
        "0".to_string(),
        "-1".to_string(),
        u32::MAX.to_string(),
        u64::MAX.to_string(),
        "18446744073709551616".to_string(),
        "1e400".to_string(),
        "null".to_string(),
    ];
    let mut o = Outcomes::default();
    for &(start, end, in_string) in &numbers {
        let (line, column) = line_column(&text, start);
        for extreme in &extremes {
            let mutated = format!("{}{extreme}{}", &text[..start], &text[end..]);
            let what = format!(
                "{:?} → {extreme} at line {line} column {column}",
                &text[start..end]
            );
            let s = match Scenario::from_json(&mutated) {
                Ok(s) => s,
                Err(e) => {
                    let shown = e.to_string();
                    match &e {
                        ScenarioError::Syntax {
                            line: l,
                            column: c,
                            message,
                        } => {
                            o.syntax += 1;
                            assert!(!in_string, "{what}: inside a string, refused: {shown}");
                            assert_eq!((*l, *c), (line, column), "{what}: {message}");
                            assert!(message.contains(extreme.as_str()), "{what}: {message}");
                        }
                        ScenarioError::Setting(_) => {
                            o.setting += 1;
                            assert!(shown.contains(extreme.as_str()), "{what}: {shown}");
                        }
                        ScenarioError::Graph(_) => {
                            o.graph += 1;
                            assert!(!shown.is_empty(), "{what}");
                        }
                        other => panic!("{what}: refused as {other:?}"),
                    }
                    continue;
                }
            };
            // Accepted: the value is kept as written, and the file written back is the same.
            let written = s.to_json();
            if written != mutated {
                let (a, b) = written
                    .lines()
                    .zip(mutated.lines())
                    .find(|(a, b)| a != b)
                    .unwrap_or_default();
                panic!("{what}: written back differently: {a:?} where the file has {b:?}");
            }
            let tasks: u64 = s.graph.operators.iter().map(|o| o.parallelism as u64).sum();
            if tasks > 64 {
                o.too_large += 1;
                continue;
            }
            let mut sim = s.simulation().unwrap();
            let mut now = sim.now();
            for _ in 0..300 {
                if sim.step().is_none() {
                    break;
                }
                assert!(
                    sim.now() >= now,
                    "{what}: time went back from {now} to {}",
                    sim.now()
                );
                now = sim.now();
            }
            o.ran += 1;
        }
    }
    let texts = (numbers.len() * extremes.len()) as u64;
    let accepted = o.ran + o.too_large;
    let refused = o.syntax + o.setting + o.graph;
    assert_eq!(accepted + refused, texts);
    let pct = |n: u64| 100.0 * n as f64 / texts as f64;
    eprintln!(
        "{cuts} cuts of the file: all refused where the text ends\n\
         {texts} files with a number replaced ({} numbers × {} values):\n  \
         accepted: {accepted} ({:.1}%): {} ran (up to 300 steps), {} too large to run\n  \
         refused: {refused} ({:.1}%): {} by the reader at the number, {} setting out of range, \
         {} job graph",
        numbers.len(),
        extremes.len(),
        pct(accepted),
        o.ran,
        o.too_large,
        pct(refused),
        o.syntax,
        o.setting,
        o.graph,
    );
    assert!(
        pct(o.ran) >= 20.0,
        "only {:.1}% accepted and ran",
        pct(o.ran)
    );
    assert!(pct(refused) >= 20.0, "only {:.1}% refused", pct(refused));
    assert!(o.setting > 0 && o.graph > 0, "{o:?}");
}

#[test]
fn planned_failures_name_a_subtask_and_nothing_else() {
    let mut v = preset_value("recovery");
    assert_eq!(v["failures"], json!([{ "task": "Count#1", "at": 120 }]));
    assert_eq!(parse(&v).1.unwrap(), presets::recovery());
    // An unknown subtask is refused with the names there are.
    v["failures"] = json!([{ "task": "Count#7", "at": 5 }]);
    let err = parse(&v).1.unwrap_err();
    assert!(
        matches!(&err, ScenarioError::UnknownFailedTask { task, known }
            if task == "Count#7" && known.iter().any(|k| k == "Count#1")),
        "{err:?}"
    );
    // The name asked for first, then the names there are (they were once the other way round).
    let said = err.to_string();
    assert!(
        said.starts_with("failures: there is no subtask named \"Count#7\" (subtasks: ")
            && said.contains("Count#1"),
        "{said}"
    );
    // A misspelt field is refused like any other.
    v["failures"] = json!([{ "task": "Count#1", "when": 5 }]);
    assert_unknown_field(&v, "when");
}

#[test]
fn an_operator_kind_is_checked_against_its_type() {
    let refused = |kind: Value| {
        let mut v = preset_value("alignment");
        v["graph"]["operators"][0]["kind"] = kind;
        match parse(&v).1 {
            Err(ScenarioError::Syntax { message, .. }) => message,
            other => panic!("expected a refusal, got {other:?}"),
        }
    };
    let m = refused(json!({ "type": "sauce", "lines": ["a"], "interval": 3 }));
    assert!(
        m.contains("unknown variant `sauce`") && m.contains("`source`"),
        "{m}"
    );
    let m = refused(json!({ "type": "source", "lines": ["a"] }));
    assert!(m.contains("missing field `interval`"), "{m}");
    let m = refused(json!({ "type": "source", "interval": 3 }));
    assert!(m.contains("missing field `lines`"), "{m}");
    let m = refused(json!({ "type": "token", "lines": ["a"], "hold": 2 }));
    assert!(
        m.contains("unknown field `lines`") && m.contains("`has_token`"),
        "{m}"
    );
    let m = refused(json!({ "lines": ["a"], "interval": 3 }));
    assert!(m.contains("missing field `type`"), "{m}");
}

#[test]
fn coordinator_settings_that_must_be_at_least_one_are_refused_at_zero() {
    for field in [
        "max_concurrent_checkpoints",
        "timeout",
        "retained_checkpoints",
    ] {
        let mut v = preset_value("alignment");
        v["config"][field] = json!(0);
        match parse(&v).1 {
            Err(ScenarioError::Setting(SettingError::Zero(f))) => assert_eq!(f, field),
            other => panic!("{field}: expected a refusal, got {other:?}"),
        }
    }
}

/// The editor says a syntax error in words a person reads, in the page's language: every
/// message the scenario reader gives for these broken texts is understood (none falls through
/// as serde's own words), and the Chinese has no English in it but the names quoted from the
/// text.
#[test]
fn syntax_errors_are_told_in_words_in_each_language() {
    use abs_playground::i18n::{Lang, Syntax};
    let good = presets::alignment().to_json();
    let broken = [
        good.replacen("\"name\": \"", "\"name\": ", 1), // a quote missing
        good.replacen("\"seed\"", "\"seed\" ", 1)
            .replacen(": 1,", " 1,", 1), // a colon missing
        good.replacen('}', ",}", 1),                    // a comma before }
        format!("{good} x"),                            // text after the end
        good[..good.len() / 2].to_string(),             // cut short
        good.replacen("\"seed\": 1", "\"seed\": 01", 1), // a leading zero
        good.replacen("\"seed\"", "\"sead\"", 1),       // an unknown field
        good.replacen("\"forward\"", "\"sideways\"", 1), // an unknown name
        good.replacen("\"seed\": 1", "\"seed\": \"one\"", 1), // the wrong type
        good.replacen("\"name\": \"alignment\",", "\"name\": \"a\\q\",", 1), // a bad escape
        good.replacen("[", "[ 1,", 1)
            .replacen("\"seed\": 1,", "", 1), // wrong element type
    ];
    let mut told = 0;
    for text in &broken {
        let Err(ScenarioError::Syntax { message, .. }) = Scenario::from_json(text) else {
            continue;
        };
        assert!(
            !matches!(Syntax::of(&message), Syntax::Other(_)),
            "not understood: {message}"
        );
        let en = Lang::En.syntax_words(&message);
        let zh = Lang::Zh.syntax_words(&message);
        assert_ne!(en, message);
        // Chinese: no run of English letters outside the quoted names and the field lists.
        let outside: String = zh
            .split(['「', '」', '`'])
            .step_by(2)
            .collect::<Vec<_>>()
            .concat();
        let english = outside
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() > 2)
            .filter(|w| !["JSON"].contains(w))
            .collect::<Vec<_>>();
        assert!(
            english.is_empty()
                || matches!(
                    Syntax::of(&message),
                    Syntax::InvalidType(..) | Syntax::UnknownField(..) | Syntax::UnknownVariant(..)
                ),
            "{zh}: {english:?}"
        );
        told += 1;
    }
    assert!(
        told >= 9,
        "only {told} broken texts were refused as syntax errors"
    );
}

/// The page runs jobs up to 262,144 channels and says so above that, before building
/// anything; `abs-sim` (which reads with `from_json`) runs them up to the engine's limit.
#[test]
fn the_page_refuses_a_job_over_its_limit_with_the_limit_named_and_abs_sim_runs_it() {
    use abs_playground::scenario::{codec, PAGE_MAX_CHANNELS};
    let mut big = presets::huge();
    for op in &mut big.graph.operators {
        op.parallelism = 512;
    }
    // Two hash edges at 512: 524,288 channels, and a forward one.
    let json = big.to_json();
    let refused = Scenario::from_json_for_page(&json).unwrap_err();
    assert_eq!(refused, ScenarioError::TooLargeForPage(2 * 512 * 512 + 512));
    let said = refused.to_string();
    assert!(
        said.contains(&PAGE_MAX_CHANNELS.to_string()) && said.contains("abs-sim"),
        "{said}"
    );
    assert!(Scenario::from_json(&json).is_ok());
    // A link says the same.
    let link = codec::encode(&big);
    assert!(codec::decode(&link).is_ok());
    assert!(codec::decode_for_page(&link).is_err());
    // `huge` itself (131,328 channels) is within the page's limit.
    assert!(presets::huge().fits_page().is_ok());
}
