//! `docs/barrier-rules.md` end to end through `run_gate`, the function behind `abs-sim gate`.
//!
//! Each case is (mode, channels, finished-channels-align, input, expected output). To keep the
//! table readable the input and output are written in shorthand and turned into the gate's JSON
//! lines here: input `0:a1` is `{"ch":0,"record":"a1"}`, `1:b3` a barrier, `2:c2` a cancellation
//! marker, `0:eop` an end of partition; output `a1` is `{"record":"a1"}`, `T3` triggered, `A2`
//! aborted, `E0` end of partition and `S1/0:a4` channel state. The exact JSON text is pinned by
//! the literal tests further down.

use abs_playground::engine::barrier::BarrierMode::{self, Aligned, AtLeastOnce, Unaligned};
use abs_playground::engine::gate::{run_gate, GateError, GateOptions};

struct Case {
    name: &'static str,
    mode: BarrierMode,
    channels: u32,
    finished_channels_align: bool,
    input: &'static str,
    expected: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "aligned: blocked channels are held until the last barrier, then replayed in order",
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        input: "0:a1 0:b1 0:a2 2:x1 2:b1 2:x2 1:p1 0:a3 1:b1 1:p2",
        expected: "a1 x1 p1 T1 a2 x2 a3 p2",
    },
    Case {
        name: "aligned: a replayed barrier starts the next alignment and holds again",
        mode: Aligned,
        channels: 2,
        finished_channels_align: true,
        input: "0:b1 0:a1 0:b2 0:a2 1:x1 1:b1 1:x2 1:b2",
        expected: "x1 T1 a1 x2 T2 a2",
    },
    Case {
        name: "aligned: the buffer of an alignment ended during replay is replayed first (stack)",
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        input: "0:b1 1:b1 0:b2 0:a1 1:b3 1:p1 0:a2 2:b1 2:b3 0:b3",
        expected: "T1 A2 a1 a2 T3 p1",
    },
    Case {
        name: "aligned: a newer barrier on a free channel subsumes the alignment",
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        input: "0:b1 0:a1 1:b1 1:p1 2:b2 2:x1 0:b2 1:b2",
        expected: "A1 a1 p1 T2 x1",
    },
    Case {
        name: "aligned: older and already handled barriers are ignored and block nothing",
        mode: Aligned,
        channels: 2,
        finished_channels_align: true,
        input: "0:b3 1:b2 1:x1 1:b3 1:b3 0:b1 0:a1",
        expected: "x1 T3 a1",
    },
    Case {
        name: "aligned: cancelling the aligned checkpoint releases, a newer marker reports only itself",
        mode: Aligned,
        channels: 2,
        finished_channels_align: true,
        input: "0:b1 0:a1 1:c1 1:c1 0:b2 0:a2 1:c4 1:b4 0:b4 0:b2 1:c2 0:b5 1:b5",
        expected: "A1 a1 A4 a2 T5",
    },
    Case {
        name: "aligned: a closed channel completes the checkpoint, reported before the eop",
        mode: Aligned,
        channels: 2,
        finished_channels_align: true,
        input: "0:b1 0:a1 1:x1 1:eop",
        expected: "x1 T1 E1 a1",
    },
    Case {
        name: "aligned: with the option off an eop aborts the alignment and is handled at once",
        mode: Aligned,
        channels: 3,
        finished_channels_align: false,
        input: "0:b1 0:a1 1:b1 2:eop 0:b2 1:b2",
        expected: "A1 E2 a1 T2",
    },
    Case {
        name: "aligned: an eop on a blocked channel is held and keeps the channel open",
        mode: Aligned,
        channels: 2,
        finished_channels_align: false,
        input: "0:b1 0:a1 0:eop 1:x1 1:b1",
        expected: "x1 T1 a1 E0",
    },
    Case {
        name: "aligned: with one channel left open the first barrier triggers at once",
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        input: "0:b1 1:b1 0:b2 1:eop 0:a1 2:eop",
        expected: "T1 E2 T2 E1 a1",
    },
    Case {
        name: "aligned: one input channel never holds anything",
        mode: Aligned,
        channels: 1,
        finished_channels_align: true,
        input: "0:a1 0:b1 0:a2 0:b2 0:c3 0:b3 0:b4 0:a3",
        expected: "a1 T1 a2 T2 A3 T4 a3",
    },
    Case {
        name: "aligned: at the end of input held items are released, barriers ignored",
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        input: "0:b1 0:a1 0:b2 1:b1 1:p1 0:a2 0:eop",
        expected: "a1 p1 a2 E0",
    },
    Case {
        name: "at-least-once: nothing is held; the last barrier triggers",
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        input: "0:a1 0:b1 0:a2 1:b1 1:p1 2:x1 2:b1 0:a3",
        expected: "a1 a2 p1 x1 T1 a3",
    },
    Case {
        name: "at-least-once: late barriers still complete pending checkpoints, in order",
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        input: "0:b1 1:b1 0:b2 1:b2 0:b3 2:b1 2:b3 1:b3 2:b2 0:b4 1:b4 2:b4",
        expected: "T1 T3 T4",
    },
    Case {
        name: "at-least-once: a marker aborts older pending checkpoints and its own once",
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        input: "0:b1 0:b2 1:c3 2:c3 0:b3 0:c3 0:c4 1:b4 2:b4 0:b5 1:b5 2:b5",
        expected: "A1 A2 A3 A4 T5",
    },
    Case {
        name: "at-least-once: an eop completes the newest pending checkpoint it can",
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        input: "0:b1 1:b1 0:b2 1:b2 1:b3 2:eop 0:b3",
        expected: "T2 E2 T3",
    },
    Case {
        name: "at-least-once: with the option off an eop aborts every pending checkpoint",
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: false,
        input: "0:b1 0:b2 1:b2 1:eop 0:b3 2:b3",
        expected: "A1 A2 E1 T3",
    },
    Case {
        name: "unaligned: records overtaken by the barrier are persisted, then handed on",
        mode: Unaligned,
        channels: 2,
        finished_channels_align: true,
        input: "0:a1 0:b1 0:a2 1:x1 1:x2 1:b1 1:x3",
        expected: "a1 T1 a2 S1/1:x1 x1 S1/1:x2 x2 x3",
    },
    Case {
        name: "unaligned: a newer barrier aborts the pending checkpoint; a marker aborts after trigger",
        mode: Unaligned,
        channels: 2,
        finished_channels_align: true,
        input: "0:b1 1:a1 1:b2 0:a2 0:c2 0:a3 0:b2",
        expected: "T1 S1/1:a1 a1 A1 T2 S2/0:a2 a2 A2 a3",
    },
    Case {
        name: "unaligned: a checkpoint cancelled before its first barrier never starts",
        mode: Unaligned,
        channels: 2,
        finished_channels_align: true,
        input: "1:c2 0:b2 1:a1 0:b3 1:a2",
        expected: "A2 a1 T3 S3/1:a2 a2",
    },
    Case {
        name: "unaligned: an eop counts as delivered with the option on",
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        input: "0:b1 2:eop 1:a1 1:b1 1:a2",
        expected: "T1 E2 S1/1:a1 a1 a2",
    },
    Case {
        name: "unaligned: an eop aborts the pending checkpoint with the option off",
        mode: Unaligned,
        channels: 3,
        finished_channels_align: false,
        input: "0:b1 1:a1 0:eop 1:a2 2:b1",
        expected: "T1 S1/1:a1 a1 A1 E0 a2",
    },
];

/// Turns the shorthand input into the gate's JSON lines.
fn json_input(shorthand: &str) -> String {
    let mut lines = String::new();
    for token in shorthand.split_whitespace() {
        let (ch, item) = token.split_once(':').expect("token is ch:item");
        let number = |rest: &str| rest.parse::<u64>().ok();
        let line = if item == "eop" {
            format!("{{\"ch\":{ch},\"end_of_partition\":true}}")
        } else if let Some(id) = item.strip_prefix('b').and_then(number) {
            format!("{{\"ch\":{ch},\"barrier\":{id}}}")
        } else if let Some(id) = item.strip_prefix('c').and_then(number) {
            format!("{{\"ch\":{ch},\"cancel\":{id}}}")
        } else {
            format!("{{\"ch\":{ch},\"record\":\"{item}\"}}")
        };
        lines.push_str(&line);
        lines.push('\n');
    }
    lines
}

/// Turns the shorthand output into the exact lines the gate must print.
fn json_output(shorthand: &str) -> String {
    let mut lines = String::new();
    for token in shorthand.split_whitespace() {
        let number = |rest: &str| rest.parse::<u64>().ok();
        let line = if let Some(id) = token.strip_prefix('T').and_then(number) {
            format!("{{\"triggered\":{id}}}")
        } else if let Some(id) = token.strip_prefix('A').and_then(number) {
            format!("{{\"aborted\":{id}}}")
        } else if let Some(ch) = token.strip_prefix('E').and_then(number) {
            format!("{{\"end_of_partition\":{ch}}}")
        } else if let Some(state) = token.strip_prefix('S') {
            let (checkpoint, rest) = state.split_once('/').expect("S<id>/<ch>:<record>");
            let (ch, record) = rest.split_once(':').expect("S<id>/<ch>:<record>");
            format!(
                "{{\"channel_state\":{{\"checkpoint\":{checkpoint},\"ch\":{ch},\"record\":\"{record}\"}}}}"
            )
        } else {
            format!("{{\"record\":\"{token}\"}}")
        };
        lines.push_str(&line);
        lines.push('\n');
    }
    lines
}

fn options(mode: BarrierMode, channels: u32, finished_channels_align: bool) -> GateOptions {
    GateOptions {
        mode,
        channels,
        finished_channels_align,
    }
}

#[test]
fn every_rule_holds_end_to_end() {
    assert!(CASES.len() >= 15);
    for case in CASES {
        let options = options(case.mode, case.channels, case.finished_channels_align);
        let printed = run_gate(&options, &json_input(case.input))
            .unwrap_or_else(|error| panic!("{}: {error}", case.name));
        assert_eq!(printed, json_output(case.expected), "{}", case.name);
    }
}

#[test]
fn output_lines_are_compact_json_in_a_fixed_form() {
    let input = r#"{"ch":0,"record":"r1"}
{"ch":0,"barrier":1}
{"ch":1,"record":"r4"}
{"ch":1,"cancel":1}
{"ch":1,"end_of_partition":true}
"#;
    let printed = run_gate(&options(Unaligned, 2, true), input).unwrap();
    assert_eq!(
        printed,
        concat!(
            "{\"record\":\"r1\"}\n",
            "{\"triggered\":1}\n",
            "{\"channel_state\":{\"checkpoint\":1,\"ch\":1,\"record\":\"r4\"}}\n",
            "{\"record\":\"r4\"}\n",
            "{\"aborted\":1}\n",
            "{\"end_of_partition\":1}\n",
        )
    );
}

#[test]
fn blank_lines_whitespace_and_field_order_do_not_matter() {
    let input = "\n  {\"record\":\"a\",\"ch\":1}  \r\n\n{ \"barrier\" : 2 , \"ch\" : 0 }\n   \n";
    let printed = run_gate(&options(Aligned, 2, true), input).unwrap();
    assert_eq!(printed, "{\"record\":\"a\"}\n");
}

#[test]
fn records_are_printed_as_json_strings() {
    let input = r#"{"ch":0,"record":"say \"hi\"\n\u00e9"}"#;
    let printed = run_gate(&options(Aligned, 1, true), input).unwrap();
    assert_eq!(printed, "{\"record\":\"say \\\"hi\\\"\\né\"}\n");
}

#[test]
fn empty_input_prints_nothing() {
    assert_eq!(
        run_gate(&options(AtLeastOnce, 4, true), ""),
        Ok(String::new())
    );
}

#[test]
fn the_end_of_input_drops_an_unfinished_alignment_silently() {
    let input = json_input("0:b1 0:a1 1:x1");
    let printed = run_gate(&options(Aligned, 2, true), &input).unwrap();
    assert_eq!(printed, json_output("x1 a1"));
}

fn reason(mode: BarrierMode, channels: u32, input: &str) -> GateError {
    run_gate(&options(mode, channels, true), input).expect_err("the input is malformed")
}

#[test]
fn an_out_of_range_channel_names_the_line_and_the_channel_count() {
    let input =
        "{\"ch\":0,\"record\":\"r1\"}\n{\"ch\":1,\"barrier\":1}\n{\"ch\":5,\"record\":\"r2\"}\n";
    let error = reason(Aligned, 2, input);
    assert_eq!(
        error.to_string(),
        "line 3: channel 5 is out of range (the task has 2 channels)"
    );
    assert_eq!(error.line, 3);
    let error = reason(Aligned, 1, "{\"ch\":1,\"record\":\"r\"}");
    assert_eq!(
        error.reason,
        "channel 1 is out of range (the task has 1 channel)"
    );
    let error = reason(Aligned, 1, "{\"ch\":99999999999,\"record\":\"r\"}");
    assert!(error.reason.contains("out of range"), "{error}");
}

#[test]
fn line_numbers_count_blank_lines_and_stop_at_the_first_error() {
    let input = "{\"ch\":0,\"record\":\"r1\"}\n\n   \n{\"ch\":0,\"barrier\":1\n{oops}\n";
    let error = reason(AtLeastOnce, 1, input);
    assert_eq!(error.line, 4);
    assert!(error.reason.starts_with("not valid json"), "{error}");
    assert!(!error.reason.contains("line 1"), "{error}");
}

#[test]
fn malformed_lines_are_rejected_with_a_clear_reason() {
    let cases: &[(&str, &str)] = &[
        ("ch: 0", "not valid json"),
        ("{\"ch\":0,\"record\":\"r\"} trailing", "not valid json"),
        ("[0, \"r1\"]", "expected a json object"),
        ("42", "expected a json object"),
        ("{\"record\":\"r1\"}", "missing field \"ch\""),
        ("{\"ch\":0}", "missing the item"),
        (
            "{\"ch\":-1,\"record\":\"r\"}",
            "\"ch\" must be a non-negative integer",
        ),
        (
            "{\"ch\":0.5,\"record\":\"r\"}",
            "\"ch\" must be a non-negative integer",
        ),
        (
            "{\"ch\":\"0\",\"record\":\"r\"}",
            "\"ch\" must be a non-negative integer",
        ),
        ("{\"ch\":0,\"record\":7}", "\"record\" must be a string"),
        (
            "{\"ch\":0,\"barrier\":-3}",
            "\"barrier\" must be a checkpoint id",
        ),
        (
            "{\"ch\":0,\"barrier\":2.5}",
            "\"barrier\" must be a checkpoint id",
        ),
        (
            "{\"ch\":0,\"barrier\":\"2\"}",
            "\"barrier\" must be a checkpoint id",
        ),
        (
            "{\"ch\":0,\"cancel\":null}",
            "\"cancel\" must be a checkpoint id",
        ),
        (
            "{\"ch\":0,\"end_of_partition\":false}",
            "\"end_of_partition\" must be true",
        ),
        (
            "{\"ch\":0,\"end_of_partition\":1}",
            "\"end_of_partition\" must be true",
        ),
        (
            "{\"ch\":0,\"record\":\"r\",\"barrier\":1}",
            "found both \"record\" and \"barrier\"",
        ),
        (
            "{\"ch\":0,\"cancel\":1,\"end_of_partition\":true}",
            "found both",
        ),
        (
            "{\"ch\":0,\"record\":\"r\",\"colour\":\"red\"}",
            "unknown field \"colour\"",
        ),
        (
            "{\"ch\":0,\"ch\":1,\"record\":\"r\"}",
            "field \"ch\" appears twice",
        ),
        (
            "{\"ch\":0,\"barrier\":1,\"barrier\":2}",
            "field \"barrier\" appears twice",
        ),
    ];
    for (line, expected) in cases {
        let input = format!("{{\"ch\":0,\"record\":\"ok\"}}\n{line}\n");
        let error = reason(Aligned, 2, &input);
        assert_eq!(error.line, 2, "{line}");
        assert!(
            error.reason.contains(expected),
            "{line}: got \"{}\", wanted \"{expected}\"",
            error.reason
        );
        assert_eq!(error.reason, error.reason.to_lowercase(), "{line}");
    }
}

#[test]
fn a_task_without_channels_is_an_options_error_on_line_0() {
    let error = run_gate(&options(Unaligned, 0, true), "").unwrap_err();
    assert_eq!(error.line, 0);
    assert!(error.to_string().starts_with("line 0: "), "{error}");
    assert!(
        error.reason.contains("at least one input channel"),
        "{error}"
    );
}

#[test]
fn gate_errors_are_standard_errors() {
    let error: Box<dyn std::error::Error> = Box::new(reason(Aligned, 1, "nope"));
    assert!(error.to_string().starts_with("line 1: not valid json"));
}

#[test]
fn modes_parse_as_on_the_command_line() {
    assert_eq!("aligned".parse::<BarrierMode>(), Ok(Aligned));
    assert_eq!("at-least-once".parse::<BarrierMode>(), Ok(AtLeastOnce));
    assert_eq!("unaligned".parse::<BarrierMode>(), Ok(Unaligned));
    let error = "Aligned".parse::<BarrierMode>().unwrap_err().to_string();
    assert!(
        error.contains("aligned, at-least-once, unaligned"),
        "{error}"
    );
}
