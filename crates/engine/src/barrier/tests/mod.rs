//! Unit tests of the barrier handler, one module per mode plus a seeded fuzz test.
//!
//! Cases are written in a small shorthand so that a sequence reads like the rules:
//! inputs `"0:a1 1:b3 2:c2 0:eop"` are record `a1` on channel 0, barrier 3 on channel 1,
//! cancellation marker 2 on channel 2 and an end of partition on channel 0 (and, fed to
//! `Task::feed`, `0:SP2` is savepoint 2's barrier on channel 0); outputs are the
//! record name, `T3` (triggered), `A2` (aborted), `E0` (end of partition of channel 0) and
//! `S1/0:a4` (record `a4` of channel 0 persisted as channel state of checkpoint 1).

mod aligned;
mod fuzz;
mod tracking;
mod unaligned;

use super::{BarrierHandler, BarrierMode, ChannelIndex, Input, Output};

/// Parses one shorthand input token such as `1:b3`.
fn input(token: &str) -> (ChannelIndex, Input<String>) {
    let (ch, item) = token
        .split_once(':')
        .unwrap_or_else(|| panic!("bad token {token}"));
    let ch = ch
        .parse()
        .unwrap_or_else(|_| panic!("bad channel in {token}"));
    let number = |rest: &str| rest.parse().ok();
    let item = if item == "eop" {
        Input::EndOfPartition
    } else if item == "eod" {
        Input::EndOfData
    } else if let Some(id) = item.strip_prefix('b').and_then(number) {
        Input::Barrier(id)
    } else if let Some(id) = item.strip_prefix('c').and_then(number) {
        Input::Cancel(id)
    } else {
        Input::Record(item.to_owned())
    };
    (ch, item)
}

fn show(output: &Output<String>) -> Option<String> {
    Some(match output {
        Output::Record { record, .. } => record.clone(),
        Output::Triggered(id) => format!("T{id}"),
        Output::Aborted(id) => format!("A{id}"),
        Output::EndOfData(ch) => format!("D{ch}"),
        Output::EndOfPartition(ch) => format!("E{ch}"),
        Output::ChannelState {
            checkpoint,
            ch,
            record,
        } => format!("S{checkpoint}/{ch}:{record}"),
        // Notes explain decisions; the rule tests read what the task does.
        Output::Barrier { .. } | Output::Held { .. } | Output::Unblocked { .. } => return None,
    })
}

/// A handler plus the shorthand, for tests that look at the state between arrivals.
struct Task {
    handler: BarrierHandler<String>,
}

impl Task {
    fn new(mode: BarrierMode, channels: u32, finished_channels_align: bool) -> Self {
        Task {
            handler: BarrierHandler::new(mode, channels, finished_channels_align),
        }
    }

    /// Feeds the inputs the way the gate does (every replay drained after each arrival) and
    /// returns what the task did.
    fn feed(&mut self, inputs: &str) -> String {
        let mut out = Vec::new();
        for token in inputs.split_whitespace() {
            // `0:SP2`: savepoint 2's barrier on channel 0.
            match token
                .split_once(":SP")
                .map(|(ch, id)| (ch.parse(), id.parse()))
            {
                Some((Ok(ch), Ok(id))) => self.handler.receive_savepoint(ch, id, &mut out),
                _ => {
                    let (ch, item) = input(token);
                    self.handler.receive(ch, item, &mut out);
                }
            }
            // Each replay takes one held item: a stack that never drains is a bug, not a hang.
            let mut replays = 0;
            while self.handler.has_replay() {
                self.handler.replay_one(&mut out);
                replays += 1;
                assert!(
                    replays < 10_000,
                    "the replay stack never drained ({inputs})"
                );
            }
        }
        render(&out)
    }

    /// Feeds the inputs without draining replays, so the held items stay visible.
    fn feed_raw(&mut self, inputs: &str) -> String {
        let mut out = Vec::new();
        for token in inputs.split_whitespace() {
            let (ch, item) = input(token);
            self.handler.receive(ch, item, &mut out);
        }
        render(&out)
    }

    fn replay_one(&mut self) -> String {
        let mut out = Vec::new();
        self.handler.replay_one(&mut out);
        render(&out)
    }

    fn end(&mut self) -> String {
        let mut out = Vec::new();
        self.handler.end_of_input(&mut out);
        render(&out)
    }

    fn held_on(&self, ch: ChannelIndex) -> String {
        let held: Vec<String> = self
            .handler
            .held_on(ch)
            .into_iter()
            .map(|item| match item {
                Input::Record(record) => record.clone(),
                Input::Barrier(id) => format!("b{id}"),
                Input::Cancel(id) => format!("c{id}"),
                Input::EndOfData => "eod".to_owned(),
                Input::EndOfPartition => "eop".to_owned(),
            })
            .collect();
        held.join(" ")
    }
}

fn render(outputs: &[Output<String>]) -> String {
    outputs
        .iter()
        .filter_map(show)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs a whole sequence the way the gate does, end of input included.
fn run(mode: BarrierMode, channels: u32, finished_channels_align: bool, inputs: &str) -> String {
    let mut task = Task::new(mode, channels, finished_channels_align);
    let body = task.feed(inputs);
    let tail = task.end();
    [body, tail]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn modes_parse_from_their_command_line_names() {
    for mode in BarrierMode::ALL {
        assert_eq!(mode.as_str().parse::<BarrierMode>(), Ok(mode));
        assert_eq!(mode.to_string(), mode.as_str());
    }
    let error = "exactly-once".parse::<BarrierMode>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown barrier mode \"exactly-once\" (expected one of: aligned, at-least-once, unaligned, chandy-lamport, synchronous)"
    );
}

#[test]
fn modes_serialise_in_kebab_case() {
    let json = serde_json::to_string(&BarrierMode::AtLeastOnce).unwrap();
    assert_eq!(json, "\"at-least-once\"");
    let back: BarrierMode = serde_json::from_str(&json).unwrap();
    assert_eq!(back, BarrierMode::AtLeastOnce);
}

#[test]
fn no_mode_acts_on_a_channel_the_task_does_not_have() {
    for mode in BarrierMode::ALL {
        assert_eq!(run(mode, 2, true, "2:a1 7:b1 9:c1 2:eop 0:a2"), "a2");
    }
}

#[test]
fn in_every_mode_a_closed_channel_only_lets_stray_records_through() {
    for mode in BarrierMode::ALL {
        let mut task = Task::new(mode, 2, true);
        assert_eq!(task.feed("0:eop 0:a1 0:b1 0:c2 0:eop"), "E0 a1");
        assert!(task.handler.is_closed(0));
        assert!(!task.handler.is_closed(1));
        // The stray barrier opened nothing: channel 1 alone now triggers checkpoint 1.
        assert_eq!(task.feed("1:b1"), "T1");
    }
}
