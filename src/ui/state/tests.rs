use super::*;
use crate::ui::host::HostMessage;
use crate::ui::permalink::{resolve, LinkParams, MAX_LINK_STEP};

fn playback() -> Rc<Playback> {
    let (s, m, l, _) = resolve(None, None, None);
    Rc::new(Playback::new(s, m, l, true))
}

#[test]
fn bad_address_values_fall_back_with_a_notice() {
    let (s, m, l, n) = resolve(Some("nope"), Some("sideways"), Some("fr"));
    assert_eq!(s.name, "alignment");
    assert_eq!(m, BarrierMode::Aligned);
    assert_eq!(l, Lang::En);
    assert_eq!(n.len(), 3);
    let (s, m, l, n) = resolve(Some("wordcount"), Some("unaligned"), Some("zh"));
    assert_eq!(
        (s.name.as_str(), m, l, n.len()),
        ("wordcount", BarrierMode::Unaligned, Lang::Zh, 0)
    );
}

#[test]
fn steps_share_the_run_instead_of_copying_it() {
    let p = playback();
    let run = Rc::clone(&p.run.0);
    let p = p.reduce(PlaybackAction::Step).reduce(PlaybackAction::Step);
    assert!(Rc::ptr_eq(&run, &p.run.0));
    assert_eq!(p.run.0.borrow().position(), 2);
    let p = p.reduce(PlaybackAction::StepBack);
    assert_eq!(p.run.0.borrow().position(), 1);
}

#[test]
fn frames_that_change_nothing_do_not_re_render() {
    let p = playback();
    let q = Rc::clone(&p).reduce(PlaybackAction::Frame(16.0));
    assert!(Rc::ptr_eq(&p, &q));
    let q = q.reduce(PlaybackAction::TogglePlay);
    // Play answers at once: the first event has run.
    assert_eq!(q.run.0.borrow().position(), 1);
    let mut q = q.reduce(PlaybackAction::Frame(0.0));
    // Frames of 50 ms until the clock passes the next event: those before it change nothing
    // and render nothing; the one that runs it re-renders.
    let start = q.run.0.borrow().position();
    let mut ts = 0.0;
    loop {
        ts += 50.0;
        assert!(ts < 5_000.0, "no event ran");
        let r = Rc::clone(&q).reduce(PlaybackAction::Frame(ts));
        if r.run.0.borrow().position() > start {
            assert!(!Rc::ptr_eq(&q, &r), "a frame that ran events re-renders");
            break;
        }
        assert!(
            Rc::ptr_eq(&q, &r),
            "a frame that ran nothing does not re-render"
        );
        q = r;
    }
}

#[test]
fn a_mode_switch_reruns_the_same_scenario() {
    let p = playback().reduce(PlaybackAction::Step);
    let p = p.reduce(PlaybackAction::SetMode(
        crate::scenario::modes::RunMode::plain(BarrierMode::Unaligned),
    ));
    let run = p.run.0.borrow();
    assert_eq!(run.position(), 0);
    assert_eq!(run.scenario.name, "alignment");
    assert_eq!(run.sim().mode(), BarrierMode::Unaligned);
}

#[test]
fn manual_mode_delivers_and_refusals_are_notices() {
    let p = playback().reduce(PlaybackAction::ToggleManual);
    let p = p.reduce(PlaybackAction::Deliver(0));
    assert!(matches!(
        p.notices.last(),
        Some(Notice::Refused(ActionError::ChannelEmpty(0)))
    ));
    let mut p = p;
    while p.run.0.borrow().sim().channels()[0].items().is_empty() {
        p = p.reduce(PlaybackAction::Step);
    }
    let before = p.run.0.borrow().position();
    let p = p.reduce(PlaybackAction::Deliver(0));
    assert_eq!(p.run.0.borrow().position(), before + 1);
    assert!(p.notices.is_empty());
}

#[test]
fn without_animation_the_items_jump_to_where_the_engine_is() {
    let p = Rc::new(Playback::new(
        presets::alignment(),
        BarrierMode::Aligned,
        Lang::En,
        false,
    ));
    let mut p = p;
    for _ in 0..12 {
        p = p.reduce(PlaybackAction::Step);
    }
    let p = p
        .reduce(PlaybackAction::Frame(0.0))
        .reduce(PlaybackAction::Frame(16.0));
    let run = p.run.0.borrow();
    assert!(run.sim().now() > 0);
    assert_eq!(run.clock, run.sim().now() as f64);
}

#[test]
fn pausing_brings_the_clock_to_the_engine() {
    let mut p = playback().reduce(PlaybackAction::TogglePlay);
    let mut ts = 0.0;
    while p.run.0.borrow().position() < 30 {
        ts += 16.0;
        p = p.reduce(PlaybackAction::Frame(ts));
    }
    let mut p = p.reduce(PlaybackAction::TogglePlay);
    for _ in 0..300 {
        ts += 16.0;
        p = p.reduce(PlaybackAction::Frame(ts));
    }
    let run = p.run.0.borrow();
    assert!((run.clock - run.sim().now() as f64).abs() < 0.01);
}

/// Unaligned checkpoints (or the aligned timeout) with several at once is a job Flink refuses
/// to start: a link to it shows the preset in its own mode, with a notice that says why.
#[test]
fn a_mode_flink_refuses_for_concurrent_checkpoints_is_shown_with_flinks_reason() {
    let asked_at_once = presets::concurrent().config.max_concurrent_checkpoints;
    for (asked, wanted, timeout) in [
        ("unaligned", BarrierMode::Unaligned, false),
        ("aligned-timeout", BarrierMode::Aligned, true),
    ] {
        let (scenario, mode, lang, notices) = resolve(Some("concurrent"), Some(asked), None);
        assert_eq!(mode, BarrierMode::Aligned, "{asked}");
        assert_eq!(scenario.config.aligned_checkpoint_timeout, None, "{asked}");
        assert_eq!(
            notices,
            [Notice::ModeUnavailable {
                mode: wanted,
                timeout,
                scenario: "concurrent".into(),
                title: presets::concurrent().title,
                used: BarrierMode::Aligned,
                refused: Some(asked_at_once),
            }],
            "{asked}"
        );
        let p = Playback::new(scenario, mode, lang, true);
        assert!(p.notices.is_empty(), "{:?}", p.notices);
        // The menu lists the entry but does not offer it.
        let run = p.run.0.borrow();
        assert!(!run.modes().iter().any(|e| e.name() == asked), "{asked}");
        assert!(run.modes().iter().any(|e| e.name() == "aligned"));
    }
    // A whole scenario asking for it from the start is shown without the timeout, saying why.
    let mut own = presets::concurrent();
    own.config.aligned_checkpoint_timeout = Some(30);
    let p = Playback::new(own, BarrierMode::Aligned, Lang::En, true);
    assert_eq!(
        p.run.0.borrow().scenario.config.aligned_checkpoint_timeout,
        None
    );
    assert!(
        matches!(
            p.notices.as_slice(),
            [Notice::ModeUnavailable {
                timeout: true,
                refused: Some(_),
                ..
            }]
        ),
        "{:?}",
        p.notices
    );
}

#[test]
fn a_mode_the_scenario_cannot_run_shows_the_scenario_asked_for_in_its_own_mode() {
    for (preset, asked) in [
        ("token", "aligned-timeout"),
        ("token", "aligned"),
        ("bank", "aligned-timeout"),
        ("bank", "unaligned"),
        ("bank", "at-least-once"),
        ("iteration", "at-least-once"),
    ] {
        let (scenario, mode, lang, notices) = resolve(Some(preset), Some(asked), None);
        let own = presets::by_name(preset).unwrap().config.mode;
        assert_eq!((scenario.name.as_str(), mode), (preset, own), "{asked}");
        assert_eq!(
            scenario.config.aligned_checkpoint_timeout, None,
            "{preset} {asked}"
        );
        let timeout = asked == "aligned-timeout";
        let wanted = if timeout {
            BarrierMode::Aligned
        } else {
            asked.parse().unwrap()
        };
        assert_eq!(
            notices,
            [Notice::ModeUnavailable {
                mode: wanted,
                timeout,
                scenario: preset.into(),
                title: presets::by_name(preset).unwrap().title,
                used: own,
                refused: None,
            }],
            "{preset} {asked}"
        );
        let p = Playback::new(scenario, mode, lang, true);
        let run = p.run.0.borrow();
        assert_eq!(
            run.scenario.name, preset,
            "{asked}: another scenario is drawn"
        );
        assert_eq!(run.sim().mode(), own);
        assert_eq!((p.preset.as_str(), p.mode), (preset, own));
        assert_eq!(p.mode_param(), own.as_str());
        assert!(p.notices.is_empty(), "{:?}", p.notices);
    }
    // A mode that exists nowhere is still one that does not exist.
    let (scenario, mode, _, notices) = resolve(Some("token"), Some("sideways"), None);
    assert_eq!(
        (scenario.name.as_str(), mode),
        ("token", BarrierMode::ChandyLamport)
    );
    assert!(
        matches!(notices.as_slice(), [Notice::BadParam { param: "mode", .. }]),
        "{notices:?}"
    );
    // And one the scenario runs is taken, the timeout entry too.
    let (scenario, mode, _, notices) = resolve(Some("recovery"), Some("aligned-timeout"), None);
    assert_eq!(mode, BarrierMode::Aligned);
    assert!(scenario.config.aligned_checkpoint_timeout.is_some());
    assert!(notices.is_empty());
}

fn load(p: Rc<Playback>, preset: Option<&str>, mode: Option<&str>) -> Rc<Playback> {
    p.reduce(PlaybackAction::Host(HostMessage::Load {
        preset: preset.map(Into::into),
        mode: mode.map(Into::into),
        seed: None,
    }))
}

#[test]
fn a_host_load_in_a_mode_the_scenario_cannot_run_loads_it_and_reports_what_is_shown() {
    let p = load(playback(), Some("token"), Some("aligned-timeout"));
    assert_eq!(p.run.0.borrow().scenario.name, "token");
    assert_eq!(p.run.0.borrow().sim().mode(), BarrierMode::ChandyLamport);
    // What `abs:state` reports (`app.rs` writes it from these).
    assert_eq!(
        (p.preset.as_str(), p.mode_param()),
        ("token", "chandy-lamport")
    );
    let Some((0, notice)) = &p.host_error else {
        panic!("no error for the host: {:?}", p.host_error)
    };
    assert!(
        matches!(
            notice,
            Notice::ModeUnavailable {
                timeout: true,
                used: BarrierMode::ChandyLamport,
                ..
            }
        ),
        "{notice:?}"
    );
    assert_eq!(p.notices, std::slice::from_ref(notice));
}

#[test]
fn a_bad_host_load_keeps_the_run_and_is_answered_each_time() {
    let p = playback().reduce(PlaybackAction::Step);
    let run = Rc::clone(&p.run.0);
    let p = load(p, None, None);
    assert_eq!(p.host_error, Some((0, Notice::HostLoadEmpty)));
    let p = load(p, Some("nope"), Some("aligned"));
    assert_eq!(
        p.host_error,
        Some((
            1,
            Notice::HostBadParam {
                param: "preset",
                value: "nope".into(),
                used: "alignment".into()
            }
        ))
    );
    let p = p.reduce(PlaybackAction::Host(HostMessage::LoadScenario {
        json: "{".into(),
        mode: None,
        seed: None,
    }));
    assert!(
        matches!(p.host_error, Some((2, Notice::BadScenario(_)))),
        "{:?}",
        p.host_error
    );
    assert!(Rc::ptr_eq(&run, &p.run.0), "what runs is kept");
    assert_eq!(p.run.0.borrow().position(), 1);
    assert_eq!(p.notices.len(), 3);
    // An unknown mode loads the preset in its own mode, as the host's notice says.
    let p = load(p, Some("wordcount"), Some("sideways"));
    assert_eq!(p.run.0.borrow().scenario.name, "wordcount");
    assert!(
        matches!(&p.host_error, Some((3, Notice::HostBadParam { param: "mode", value, .. })) if value == "sideways"),
        "{:?}",
        p.host_error
    );
    // A load done as asked answers nothing new.
    let p = load(p, Some("recovery"), Some("unaligned"));
    assert_eq!(p.run.0.borrow().sim().mode(), BarrierMode::Unaligned);
    assert!(matches!(p.host_error, Some((3, _))));
}

fn follow(preset: &str, link: LinkParams) -> Playback {
    let (s, m, l, _) = resolve(Some(preset), None, None);
    let mut p = Playback::new(s, m, l, true);
    p.follow(Moment::parse(&link));
    p
}

#[test]
fn a_step_past_the_end_shows_the_last_step_there_is_and_says_so() {
    // The recovery job ends: the link goes to its end.
    let p = follow(
        "recovery",
        LinkParams {
            step: Some("999999".into()),
            ..LinkParams::default()
        },
    );
    let end = p.run.0.borrow().position();
    assert!(end > 100 && end < MAX_LINK_STEP, "{end}");
    assert!(!p.run.0.borrow_mut().forward(), "step {end} is not the end");
    assert_eq!(
        p.notices,
        [Notice::StepPastEnd {
            shown: end,
            ended: true
        }]
    );
    // The alignment job never ends: as far as a link goes, even past a u64.
    let p = follow(
        "alignment",
        LinkParams {
            step: Some("99999999999999999999999".into()),
            ..LinkParams::default()
        },
    );
    assert_eq!(p.run.0.borrow().position(), MAX_LINK_STEP);
    assert_eq!(
        p.notices,
        [Notice::StepPastEnd {
            shown: MAX_LINK_STEP,
            ended: false
        }]
    );
}

#[test]
fn what_a_link_names_that_is_not_there_is_ignored_with_a_notice_each() {
    let p = follow(
        "wordcount",
        LinkParams {
            step: Some("abc".into()),
            open: Some("7".into()),
            sel: Some("t:Nope#0".into()),
            panel: Some("sideways".into()),
            ..LinkParams::default()
        },
    );
    assert_eq!(p.run.0.borrow().position(), 0);
    assert_eq!((p.selection, p.checkpoint), (None, None));
    assert_eq!(
        p.notices,
        [
            Notice::Ignored(Ignored::Step("abc".into())),
            Notice::Ignored(Ignored::Panel("sideways".into())),
            Notice::Ignored(Ignored::Open("7".into())),
            Notice::Ignored(Ignored::Select("t:Nope#0".into())),
        ]
    );
    // What is there is followed, and nothing said.
    let p = follow(
        "wordcount",
        LinkParams {
            step: Some("400".into()),
            open: Some("1".into()),
            sel: Some("t:Count#1".into()),
            ..LinkParams::default()
        },
    );
    assert_eq!(p.run.0.borrow().position(), 400);
    assert_eq!(p.checkpoint, Some(1));
    assert!(p.selection.is_some());
    assert!(p.notices.is_empty(), "{:?}", p.notices);
}

/// The reducer does no navigation: an `abs:load` of a lesson asks the app to leave for the
/// lesson page (numbered, so the same lesson asked twice is asked twice) and keeps the run.
#[test]
fn a_host_load_of_a_lesson_asks_to_leave_and_changes_nothing_else() {
    let p = playback().reduce(PlaybackAction::Step);
    let position = p.run.0.borrow().position();
    let lang = p.lang;
    let p = p.reduce(PlaybackAction::Host(HostMessage::LoadLesson(
        "alignment".into(),
    )));
    let asked = Leave::Lesson {
        lesson: "alignment".into(),
        lang,
    };
    assert_eq!(p.leave, Some((0, asked.clone())));
    assert_eq!(p.run.0.borrow().position(), position);
    assert!(p.notices.is_empty(), "{:?}", p.notices);
    let p = p.reduce(PlaybackAction::Step);
    assert_eq!(p.leave, Some((0, asked.clone())), "a step asks nothing new");
    let p = p.reduce(PlaybackAction::Host(HostMessage::LoadLesson(
        "alignment".into(),
    )));
    assert_eq!(p.leave, Some((1, asked)));
}

#[test]
fn next_key_stops_at_each_key_event_and_at_nothing_else() {
    use crate::engine::view::{last_sentences, Sentence};
    // The alignment preset, aligned: from step 0, every press lands on the first step after
    // the last that shows ①–④, a checkpoint completing or a failure; the steps between show none.
    let mut p = playback();
    let aligned = p.run.0.borrow().sim().mode().blocks_inputs();
    let mut seen = [false; 5]; // ① ② ③ ④ completed
    let mut presses = 0;
    while seen != [true; 5] && presses < 300 {
        presses += 1;
        let from = p.run.0.borrow().position();
        p = p.reduce(PlaybackAction::NextKey);
        assert!(!p.playing);
        let run = p.run.0.borrow();
        let to = run.position();
        assert!(to > from, "a press moves on");
        let key = last_sentences(run.sim());
        assert!(
            key.iter().any(|b| b.is_key(aligned)),
            "step {to} is a key event"
        );
        for b in key.iter() {
            if let Some(n) = b.alignment_step(aligned) {
                seen[usize::from(n) - 1] = true;
            }
            if matches!(b, Sentence::Completed { .. }) {
                seen[4] = true;
            }
        }
        drop(run);
        // Nothing key in between: replayed from the recorded history.
        let mut probe = Run::new(p.run.0.borrow().scenario.clone()).unwrap();
        for step in from + 1..to {
            probe.go_to(step);
            assert!(
                !last_sentences(probe.sim())
                    .iter()
                    .any(|b| b.is_key(aligned)),
                "step {step} is a key event the press went past"
            );
        }
    }
    assert_eq!(
        seen, [true; 5],
        "①–④ and a completed checkpoint met within 300 presses"
    );
}

#[test]
fn play_answers_at_once_and_then_keeps_the_clock_s_pace() {
    // From any moment, Play runs the next event now; a second Play (a pause) runs none.
    let p = playback().reduce(PlaybackAction::Step);
    let before = p.run.0.borrow().sim().now();
    let p = p.reduce(PlaybackAction::TogglePlay);
    assert!(p.playing);
    assert_eq!(p.run.0.borrow().position(), 2);
    let (clock, now) = {
        let run = p.run.0.borrow();
        (run.clock, run.sim().now())
    };
    // The clock is brought to the event it ran.
    assert!(now >= before && clock >= now as f64 - 1e-9, "{clock} {now}");
    let p = p.reduce(PlaybackAction::TogglePlay);
    assert!(!p.playing);
    assert_eq!(p.run.0.borrow().position(), 2);
    // The host page's abs:play does the same.
    let q = playback().reduce(PlaybackAction::Host(HostMessage::Play));
    assert!(q.playing);
    assert_eq!(q.run.0.borrow().position(), 1);
}
