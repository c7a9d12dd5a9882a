//! `abs-sim gate`: one task's input gate driven by JSON lines, for checks from outside the page.
//!
//! The command reads what arrives on the task's channels, one JSON object per line, runs the very
//! [`BarrierHandler`] the simulation uses, and prints what the task does, one JSON object per
//! line. Held items are replayed completely after every arrival, as Flink's input gate does
//! before it reads new input. It is a pure function over text so that tests need no process.
//!
//! Input lines: `{"ch":0,"record":"r1"}`, `{"ch":1,"barrier":3}`, `{"ch":2,"cancel":2}`,
//! `{"ch":0,"end_of_data":true}`, `{"ch":0,"end_of_partition":true}`. Output lines: `{"record":"r1"}`, `{"triggered":3}`,
//! `{"aborted":2}`, `{"end_of_data":0}`, `{"end_of_partition":0}`,
//! `{"channel_state":{"checkpoint":1,"ch":0,"record":"r4"}}`.

use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::barrier::{BarrierHandler, BarrierMode, ChannelIndex, CheckpointId, Input, Output};

/// The command-line options of `abs-sim gate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GateOptions {
    pub mode: BarrierMode,
    pub channels: u32,
    /// Flink's "checkpoints after tasks finish"; on by default, as in Flink since 1.15.
    pub finished_channels_align: bool,
}

/// Why the input was rejected. `line` is 1-based; 0 means the options themselves are wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateError {
    pub line: u64,
    pub reason: String,
}

impl fmt::Display for GateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for GateError {}

/// Runs the handler over the whole input (JSON lines) and returns what it printed: one compact
/// JSON object per line, each ending in `'\n'`. Nothing is printed if any line is malformed, so
/// a caller never mistakes half a trace for a whole one.
pub fn run_gate(options: &GateOptions, input: &str) -> Result<String, GateError> {
    if options.channels == 0 {
        return Err(GateError {
            line: 0,
            reason: "a task needs at least one input channel (--channels must be 1 or more)"
                .to_owned(),
        });
    }
    let mut handler: BarrierHandler<String> = BarrierHandler::new(
        options.mode,
        options.channels,
        options.finished_channels_align,
    );
    let mut outputs = Vec::new();
    for (index, text) in input.lines().enumerate() {
        if text.trim().is_empty() {
            continue;
        }
        let line = u64::try_from(index).map_or(u64::MAX, |index| index.saturating_add(1));
        let (ch, item) =
            parse_line(text, options.channels).map_err(|reason| GateError { line, reason })?;
        handler.receive(ch, item, &mut outputs);
        while handler.has_replay() {
            handler.replay_one(&mut outputs);
        }
    }
    handler.end_of_input(&mut outputs);

    let mut printed = String::new();
    for output in &outputs {
        // Serialising plain strings and integers cannot fail; skip rather than panic if it did.
        if let Some(Ok(json)) = OutputLine::of(output).map(|line| serde_json::to_string(&line)) {
            printed.push_str(&json);
            printed.push('\n');
        }
    }
    Ok(printed)
}

/// The printed form of an [`Output`]; the declaration order fixes the order of the fields.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum OutputLine<'a> {
    Record(&'a str),
    Triggered(CheckpointId),
    Aborted(CheckpointId),
    EndOfData(ChannelIndex),
    EndOfPartition(ChannelIndex),
    ChannelState {
        checkpoint: CheckpointId,
        ch: ChannelIndex,
        record: &'a str,
    },
}

impl<'a> OutputLine<'a> {
    /// The line an output prints, if it is something the task does (notes are not printed).
    fn of(output: &'a Output<String>) -> Option<Self> {
        Some(match output {
            Output::Record { record, .. } => OutputLine::Record(record),
            Output::Triggered(id) => OutputLine::Triggered(*id),
            Output::Aborted(id) => OutputLine::Aborted(*id),
            Output::EndOfData(ch) => OutputLine::EndOfData(*ch),
            Output::EndOfPartition(ch) => OutputLine::EndOfPartition(*ch),
            Output::ChannelState {
                checkpoint,
                ch,
                record,
            } => OutputLine::ChannelState {
                checkpoint: *checkpoint,
                ch: *ch,
                record,
            },
            Output::Barrier { .. } | Output::Held { .. } | Output::Unblocked { .. } => return None,
        })
    }
}

const KINDS: &str = "\"record\", \"barrier\", \"cancel\", \"end_of_data\" or \"end_of_partition\"";

/// One input line into the channel and the item, or a lower-case reason.
fn parse_line(text: &str, channels: u32) -> Result<(ChannelIndex, Input<String>), String> {
    let value: Value = serde_json::from_str(text).map_err(not_json)?;
    if !value.is_object() {
        return Err(format!(
            "expected a json object such as {{\"ch\":0,\"record\":\"r1\"}}, found {}",
            describe(&value)
        ));
    }
    // A second parse keeps every key: `Value` would silently let a repeated key win.
    let fields = serde_json::from_str::<Fields>(text).map_err(not_json)?.0;

    let mut ch = None;
    let mut item: Option<(&str, Input<String>)> = None;
    let mut seen: Vec<&str> = Vec::new();
    for (key, value) in &fields {
        if seen.contains(&key.as_str()) {
            return Err(format!("field \"{key}\" appears twice"));
        }
        seen.push(key);
        let parsed = match key.as_str() {
            "ch" => {
                ch = Some(parse_channel(value, channels)?);
                continue;
            }
            "record" => match value {
                Value::String(record) => Input::Record(record.clone()),
                other => {
                    return Err(format!(
                        "\"record\" must be a string, found {}",
                        describe(other)
                    ))
                }
            },
            "barrier" => Input::Barrier(parse_id("barrier", value)?),
            "cancel" => Input::Cancel(parse_id("cancel", value)?),
            "end_of_data" => match value {
                Value::Bool(true) => Input::EndOfData,
                other => {
                    return Err(format!(
                        "\"end_of_data\" must be true, found {}",
                        describe(other)
                    ))
                }
            },
            "end_of_partition" => match value {
                Value::Bool(true) => Input::EndOfPartition,
                other => {
                    return Err(format!(
                        "\"end_of_partition\" must be true, found {}",
                        describe(other)
                    ))
                }
            },
            unknown => {
                return Err(format!(
                    "unknown field \"{unknown}\" (expected \"ch\" and one of {KINDS})"
                ))
            }
        };
        if let Some((first, _)) = &item {
            return Err(format!(
                "a line carries one item, found both \"{first}\" and \"{key}\""
            ));
        }
        item = Some((key, parsed));
    }
    let ch = ch.ok_or_else(|| "missing field \"ch\" (the input channel)".to_owned())?;
    let (_, item) = item.ok_or_else(|| format!("missing the item: expected one of {KINDS}"))?;
    Ok((ch, item))
}

/// serde_json counts lines within the text it was given, always 1 here: keep only the column.
fn not_json(error: serde_json::Error) -> String {
    let message = error.to_string();
    let message = message
        .rfind(" at line ")
        .and_then(|at| message.get(..at))
        .unwrap_or(&message);
    let message = message.to_lowercase();
    format!("not valid json: {message} (column {})", error.column())
}

fn parse_channel(value: &Value, channels: u32) -> Result<ChannelIndex, String> {
    let Some(ch) = value.as_u64() else {
        return Err(format!(
            "\"ch\" must be a non-negative integer, found {}",
            describe(value)
        ));
    };
    match ChannelIndex::try_from(ch) {
        Ok(ch) if ch < channels => Ok(ch),
        _ => Err(format!(
            "channel {ch} is out of range (the task has {channels} channel{})",
            if channels == 1 { "" } else { "s" }
        )),
    }
}

fn parse_id(field: &str, value: &Value) -> Result<CheckpointId, String> {
    value.as_u64().ok_or_else(|| {
        format!(
            "\"{field}\" must be a checkpoint id (a non-negative integer), found {}",
            describe(value)
        )
    })
}

/// A short name of a JSON value for messages: the value itself when small, its kind otherwise.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(flag) => flag.to_string(),
        Value::Number(number) => number.to_string(),
        Value::String(text) if text.chars().count() <= 20 => value.to_string(),
        Value::String(_) => "a string".to_owned(),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// An object's entries in text order, repeated keys included.
struct Fields(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldsVisitor;

        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = Fields;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a json object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut fields = Vec::new();
                while let Some(entry) = map.next_entry::<String, Value>()? {
                    fields.push(entry);
                }
                Ok(Fields(fields))
            }
        }

        deserializer.deserialize_map(FieldsVisitor)
    }
}
