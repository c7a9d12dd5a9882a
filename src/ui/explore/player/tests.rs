use super::*;
use crate::engine::explore::{Explorer, Options};
use crate::engine::view::Across;
use crate::engine::BarrierMode;
use crate::i18n::Lang;
use crate::scenario::{codec, presets};
use crate::ui::explore::words::Words;
use crate::ui::permalink::{self, LinkParams, Moment};
use crate::ui::run::Run;

fn counterexample(s: &Scenario) -> Vec<Move> {
    let root = explore::model(&s.graph, &s.config, s.seed).unwrap();
    let mut e = Explorer::new(
        root,
        Options {
            max_states: 20_000,
            snapshots: 2,
        },
    );
    while !e.run(500) {}
    e.outcome().counterexample.clone().expect("a violation")
}

fn param(link: &str, name: &str) -> Option<String> {
    link.trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix(&format!("{name}=")).map(str::to_string))
}

/// Opens `link` as the page does: the scenario from its code, the moment from its
/// parameters, replayed by the permalink's own `replay`.
fn open(link: &str) -> (Run, Moment) {
    let scenario = codec::decode(&param(link, "scenario").unwrap()).unwrap();
    let moment = Moment::parse(&LinkParams {
        step: param(link, "step"),
        choices: param(link, "choices"),
        open: param(link, "open"),
        sel: None,
        panel: param(link, "panel"),
        cut: param(link, "cut"),
    })
    .unwrap();
    assert!(moment.ignored.is_empty(), "{link}: {:?}", moment.ignored);
    let mut run = Run::new(scenario).unwrap();
    permalink::replay(&mut run, moment.step, &moment.choices).unwrap();
    (run, moment)
}

/// At-least-once on every small preset that has two inputs: the search's shortest violation,
/// opened by its link, is the same inconsistent snapshot in the player, at the last step, with
/// its cut placed where the diagram finds the same orphans the checker names.
#[test]
fn an_at_least_once_counterexample_opens_in_the_player_as_the_same_violation() {
    let mut opened = 0;
    for name in ["alignment-tiny", "alignment"] {
        let s = presets::by_name(name)
            .unwrap()
            .with_mode(BarrierMode::AtLeastOnce);
        let moves = counterexample(&s);
        let replayed = replay(&s, &moves).unwrap();
        let n = replayed
            .violation
            .expect("the replay ends in the violation");
        let p = player_scenario(&s, "t".into());
        let choices = player_choices(&s, &p, &moves).expect("FIFO: every move is an action");
        let cut = player_cut(&p, &choices, n).expect("every task snapshots");
        let link = player_link(&p, &choices, Some(n), Some(&cut), Some("en"));
        let (run, moment) = open(&link);
        assert_eq!(run.position(), moves.len() as u64, "{name}");
        assert_eq!(moment.open, Some(n));
        let gs = run.sim().coordinator().global_state(n).unwrap();
        assert!(
            !gs.verdict.ok(),
            "{name}: the player's snapshot {n} is consistent"
        );
        // The checker's orphans are the diagram's, at the cut the link places.
        let mut sim = p.simulation().unwrap();
        let mut st = SpaceTime::starting_at(&sim);
        for &(_, a) in &choices {
            sim.apply(a).unwrap();
            st.record(&sim);
        }
        let orphans: Vec<u64> = st
            .across(&sim, moment.cut.as_deref().unwrap())
            .into_iter()
            .filter(|(_, _, how)| *how == Across::Orphan)
            .map(|(_, r, _)| r.id)
            .collect();
        let named: Vec<u64> = gs.verdict.crossings.iter().map(|c| c.record.id).collect();
        assert!(!orphans.is_empty(), "{name}: the cut shows no orphan");
        assert_eq!(orphans, named, "{name}: the diagram and the checker differ");
        opened += 1;
    }
    assert_eq!(opened, 2);
}

/// Non-FIFO Chandy-Lamport: the shortest violation delivers a marker ahead of a transfer;
/// the player is told so by `DeliverNth` (the item found in its own queue), and its run ends
/// in the same lost money, at its last step.
#[test]
fn a_non_fifo_counterexample_opens_in_the_player_with_the_marker_delivered_first() {
    for name in ["bank-tiny", "token"] {
        let mut s = presets::by_name(name).unwrap();
        for e in &mut s.graph.edges {
            e.fifo = false;
        }
        let root = explore::model(&s.graph, &s.config, s.seed).unwrap();
        let mut e = Explorer::new(
            root,
            Options {
                max_states: 5_000,
                snapshots: 2,
            },
        );
        while !e.run(500) {}
        let moves = e.outcome().counterexample.clone().unwrap();
        let replayed = replay(&s, &moves).unwrap();
        let n = replayed.violation.unwrap();
        let p = player_scenario(&s, "t".into());
        let choices = player_choices(&s, &p, &moves).expect("every move has a player's action");
        assert!(
            choices
                .iter()
                .any(|(_, a)| matches!(a, Action::DeliverNth { .. })),
            "{name}: {choices:?}"
        );
        let link = player_link(&p, &choices, Some(n), None, Some("en"));
        assert!(param(&link, "choices").unwrap().contains('v'), "{link}");
        let (run, _) = open(&link);
        assert_eq!(run.position(), moves.len() as u64);
        let gs = run.sim().coordinator().global_state(n).unwrap();
        assert!(
            !gs.verdict.ok(),
            "{name}: the player's snapshot {n} is consistent"
        );
        if name == "bank-tiny" {
            let w = Words(Lang::En);
            let text: Vec<String> = replayed.steps.iter().map(|m| w.step(m)).collect();
            assert_eq!(
                text,
                [
                    "A sends a transfer.",
                    "A starts snapshot 1: it records its state and sends markers.",
                    "A → B delivers marker 1 first, ahead of 1 sent before it (non-FIFO).",
                    "B → A delivers marker 1.",
                ]
            );
        }
    }
}

/// On a FIFO channel, or past its queue, a delivery out of order is refused with a reason.
#[test]
fn a_fifo_channel_refuses_to_deliver_out_of_order() {
    let mut sim = presets::bank_tiny().simulation().unwrap();
    sim.apply(Action::Emit { task: 0 }).unwrap();
    let refused = sim.apply(Action::DeliverNth { channel: 0, nth: 0 });
    assert_eq!(
        refused,
        Err(crate::engine::ActionError::NotOutOfOrder(0, 0))
    );
}

#[test]
fn moves_are_told_in_sentences_with_the_items_they_deliver() {
    let s = presets::by_name("alignment-tiny")
        .unwrap()
        .with_mode(BarrierMode::AtLeastOnce);
    let moves = counterexample(&s);
    let replayed = replay(&s, &moves).unwrap();
    let text: Vec<String> = replayed
        .steps
        .iter()
        .map(|m| Words(Lang::En).step(m))
        .collect();
    assert_eq!(text.len(), moves.len());
    assert_eq!(text[0], "The coordinator triggers checkpoint 1.");
    assert_eq!(text[1], "Src A#0 → Sink#0 delivers barrier 1.");
    assert!(
        text.iter().any(|t| t.contains("delivers record #")),
        "{text:#?}"
    );
    let zh: Vec<String> = replayed
        .steps
        .iter()
        .map(|m| Words(Lang::Zh).step(m))
        .collect();
    assert_eq!(zh[0], "協調器觸發檢查點 1。");
    assert_eq!(
        Words(Lang::ZhHans).step(&replayed.steps[0]),
        "协调器触发检查点 1。"
    );
}

/// A move the search never makes is refused by the replay with its number, not a panic.
#[test]
fn a_refused_move_is_named() {
    let s = presets::by_name("alignment-tiny").unwrap();
    let moves = [Move::Act(Action::Deliver { channel: 0 })];
    let error = replay(&s, &moves).err().unwrap();
    assert!(error.starts_with("move 1 was refused"), "{error}");
}
