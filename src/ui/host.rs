//! The host-page API: a course page that embeds the player in an `<iframe>` drives it with
//! `postMessage` and hears what it does.
//!
//! Host → player: `{"type": "abs:play"}`, `{"type": "abs:pause"}`, `{"type": "abs:trigger"}`
//! and `{"type": "abs:savepoint"}` (as the page's buttons), `{"type": "abs:step",
//! "count": n}`, `{"type": "abs:seek", "step": n}`, `{"type": "abs:load", "preset": "…",
//! "mode": "…", "seed": n}` or `{"type": "abs:load", "scenario": {…}}` (a whole scenario, as the
//! editor shows it) or `{"type": "abs:load", "lesson": NAME|URL}` (the lesson page opens in
//! the player's place, embedded, with the same `origin`). Anything else is ignored without error; with `?origin=` in the player's
//! address, messages from any other origin are ignored too.
//!
//! An `abs:load` that cannot be done as asked — no preset or scenario, an unknown preset, an
//! invalid scenario (these keep what runs), an unknown mode or one the scenario cannot run
//! (these load the scenario in its own mode) — gives a notice on the player and is answered
//! with `{"type": "abs:error", "message": "…"}`, the notice's text; then `abs:state` says what
//! is shown. So is an `abs:step` or `abs:seek` whose count is there but is no whole number
//! from 0 (a text, a negative number): it does nothing; and an `abs:trigger` or
//! `abs:savepoint` the run refuses (a savepoint in Chandy-Lamport mode, a finished job).
//!
//! Player → host: `{"type": "abs:ready"}` once, then `{"type": "abs:state", "step", "time",
//! "playing", "preset", "mode", "checkpoints": [{"id", "status"}]}` (a savepoint's entry has
//! `"kind": "savepoint"` too) after each change, at most
//! about ten a second while playing. The message text is made here (plain Rust, tested
//! natively); the page parses it into an object for `postMessage`.

use crate::engine::coordinator::CheckpointSummary;
use crate::text::Quoted;

/// What a host asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum HostMessage {
    Play,
    Pause,
    Step(u64),
    Seek(u64),
    /// `abs:trigger` (a checkpoint, or Chandy-Lamport's snapshot) or, `true`, `abs:savepoint`:
    /// as the page's buttons.
    Trigger(bool),
    /// `{"type": "abs:load", "preset": "…"}`; without a preset (nor a scenario) it is
    /// answered with an `abs:error`.
    Load {
        preset: Option<String>,
        mode: Option<String>,
        seed: Option<u64>,
    },
    /// `{"type": "abs:load", "lesson": NAME|URL}`: the lesson page (`ui::lesson`) in place of
    /// the player, embedded as it is.
    LoadLesson(String),
    /// `{"type": "abs:load", "scenario": {…}}`: a whole scenario, as the editor's JSON.
    LoadScenario {
        json: String,
        mode: Option<String>,
        seed: Option<u64>,
    },
    /// `abs:step` or `abs:seek` (`message`) whose `field` is there but is no whole number from
    /// 0 (`value`, as sent): nothing is done, and the host is answered with an `abs:error`.
    BadNumber {
        message: &'static str,
        field: &'static str,
        value: String,
    },
}

/// The most steps one `abs:step` or `abs:seek` runs.
pub const MAX_HOST_STEPS: u64 = 200_000;

impl HostMessage {
    /// Reads a message from its fields: `field(name)` gives a string field, `number(name)` a
    /// number. `None` for anything that is not one of the API's messages.
    pub fn read(
        kind: Option<String>,
        field: impl Fn(&str) -> Option<String>,
        number: impl Fn(&str) -> Option<f64>,
    ) -> Option<HostMessage> {
        let count = |name: &str| {
            number(name)
                .filter(|n| n.is_finite() && *n >= 0.0)
                .map(|n| (n as u64).min(MAX_HOST_STEPS))
        };
        // A count that is there but is not one (a text, a negative number): as sent. Written
        // without the float printer, which would cost the page kilobytes.
        let bad = |name: &str| match (field(name), number(name)) {
            (Some(text), _) => Some(text),
            (_, Some(n)) if n < 0.0 && n.is_finite() => Some(format!("-{}", -n as u64)),
            (_, Some(n)) if n.is_nan() => Some("NaN".into()),
            (_, Some(n)) if n.is_infinite() => Some((if n > 0.0 { "∞" } else { "-∞" }).into()),
            _ => None,
        };
        let kind = kind?;
        let (message, counted) = match kind.as_str() {
            "abs:step" => ("abs:step", "count"),
            "abs:seek" => ("abs:seek", "step"),
            _ => ("", ""),
        };
        if let Some(value) = bad(counted).filter(|_| !counted.is_empty()) {
            return Some(HostMessage::BadNumber {
                message,
                field: counted,
                value,
            });
        }
        Some(match kind.as_str() {
            "abs:play" => HostMessage::Play,
            "abs:pause" => HostMessage::Pause,
            "abs:trigger" => HostMessage::Trigger(false),
            "abs:savepoint" => HostMessage::Trigger(true),
            "abs:step" => HostMessage::Step(count("count").unwrap_or(1)),
            "abs:seek" => HostMessage::Seek(count("step")?),
            "abs:load" => match field("scenario") {
                _ if field("lesson").is_some() => HostMessage::LoadLesson(field("lesson")?),
                Some(json) => HostMessage::LoadScenario {
                    json,
                    mode: field("mode"),
                    seed: count("seed"),
                },
                None => HostMessage::Load {
                    preset: field("preset"),
                    mode: field("mode"),
                    seed: count("seed"),
                },
            },
            _ => return None,
        })
    }
}

/// The `abs:error` message, as JSON text: `{"type": "abs:error", "message": "…"}`, the
/// message being the notice the player shows.
pub fn error_message(message: &str) -> String {
    format!("{{\"type\":\"abs:error\",\"message\":{}}}", Quoted(message))
}

/// The `abs:state` message, as JSON text.
pub fn state_message(
    step: u64,
    time: u64,
    playing: bool,
    preset: &str,
    mode: &str,
    checkpoints: &[CheckpointSummary],
) -> String {
    let list: Vec<String> = checkpoints
        .iter()
        .map(|c| {
            let kind = if c.savepoint {
                ",\"kind\":\"savepoint\""
            } else {
                ""
            };
            format!(
                "{{\"id\":{},\"status\":\"{}\"{kind}}}",
                c.id,
                c.status.name()
            )
        })
        .collect();
    format!(
        "{{\"type\":\"abs:state\",\"step\":{step},\"time\":{time},\"playing\":{playing},\"preset\":{},\"mode\":{},\"checkpoints\":[{}]}}",
        Quoted(preset),
        Quoted(mode),
        list.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    #[test]
    fn the_error_message_is_json_with_exactly_a_type_and_a_message() {
        let text = error_message("No preset “nope” \\ \"here\"\n");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let fields: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(fields, ["message", "type"]);
        assert_eq!(v["type"], "abs:error");
        assert_eq!(v["message"], "No preset “nope” \\ \"here\"\n");
    }

    fn read(kind: &str, fields: &[(&str, &str)], numbers: &[(&str, f64)]) -> Option<HostMessage> {
        HostMessage::read(
            Some(kind.to_string()),
            |n| fields.iter().find(|f| f.0 == n).map(|f| f.1.to_string()),
            |n| numbers.iter().find(|f| f.0 == n).map(|f| f.1),
        )
    }

    #[test]
    fn the_api_messages_are_read_and_anything_else_is_not() {
        assert_eq!(read("abs:play", &[], &[]), Some(HostMessage::Play));
        assert_eq!(read("abs:pause", &[], &[]), Some(HostMessage::Pause));
        assert_eq!(
            read("abs:trigger", &[], &[]),
            Some(HostMessage::Trigger(false))
        );
        assert_eq!(
            read("abs:savepoint", &[], &[]),
            Some(HostMessage::Trigger(true))
        );
        assert_eq!(
            read("abs:step", &[], &[("count", 5.0)]),
            Some(HostMessage::Step(5))
        );
        assert_eq!(read("abs:step", &[], &[]), Some(HostMessage::Step(1)));
        assert_eq!(
            read("abs:seek", &[], &[("step", 40.0)]),
            Some(HostMessage::Seek(40))
        );
        assert_eq!(read("abs:seek", &[], &[]), None, "a seek needs its step");
        let bad = |message, field, value: &str| {
            Some(HostMessage::BadNumber {
                message,
                field,
                value: value.into(),
            })
        };
        assert_eq!(
            read("abs:seek", &[], &[("step", f64::NAN)]),
            bad("abs:seek", "step", "NaN")
        );
        assert_eq!(
            read("abs:seek", &[("step", "abc")], &[]),
            bad("abs:seek", "step", "abc")
        );
        assert_eq!(
            read("abs:step", &[], &[("count", -5.0)]),
            bad("abs:step", "count", "-5")
        );
        assert_eq!(
            read("abs:step", &[], &[("count", f64::NEG_INFINITY)]),
            bad("abs:step", "count", "-∞")
        );
        // A fraction is taken down to the whole steps in it.
        assert_eq!(
            read("abs:step", &[], &[("count", 2.5)]),
            Some(HostMessage::Step(2))
        );
        assert_eq!(
            read("abs:step", &[], &[("count", 1e30)]),
            Some(HostMessage::Step(MAX_HOST_STEPS))
        );
        assert_eq!(
            read(
                "abs:load",
                &[("preset", "recovery"), ("mode", "at-least-once")],
                &[("seed", 3.0)]
            ),
            Some(HostMessage::Load {
                preset: Some("recovery".into()),
                mode: Some("at-least-once".into()),
                seed: Some(3)
            })
        );
        assert_eq!(
            read("abs:load", &[("scenario", "{\"name\":\"x\"}")], &[]),
            Some(HostMessage::LoadScenario {
                json: "{\"name\":\"x\"}".into(),
                mode: None,
                seed: None
            }),
            "a whole scenario wins over a preset's name"
        );
        assert_eq!(
            read("abs:load", &[], &[]),
            Some(HostMessage::Load {
                preset: None,
                mode: None,
                seed: None
            }),
            "an abs:load naming nothing is read, to be answered with an error"
        );
        assert_eq!(
            read("abs:load", &[("lesson", "fifo"), ("preset", "bank")], &[]),
            Some(HostMessage::LoadLesson("fifo".into())),
            "a lesson wins over a preset"
        );
        assert_eq!(read("play", &[], &[]), None);
        assert_eq!(HostMessage::read(None, |_| None, |_| None), None);
    }

    #[test]
    fn the_state_message_is_json_with_the_contracts_fields() {
        let mut sim = presets::alignment().simulation().unwrap();
        while sim.coordinator().checkpoints().len() < 2 {
            sim.step();
        }
        let text = state_message(
            sim.steps(),
            sim.now(),
            true,
            "al\"ign",
            "aligned",
            sim.coordinator().checkpoints(),
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["type"], "abs:state");
        assert_eq!(v["step"], sim.steps());
        assert_eq!(v["time"], sim.now());
        assert_eq!(v["playing"], true);
        assert_eq!(v["preset"], "al\"ign");
        assert_eq!(v["mode"], "aligned");
        assert_eq!(v["checkpoints"][0]["id"], 1);
        assert_eq!(v["checkpoints"][0]["status"], "completed");
        assert_eq!(v["checkpoints"][1]["status"], "in-progress");
    }
}
