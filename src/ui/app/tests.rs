use super::*;
use crate::scenario::presets;
use crate::ui::state::{Ignored, Notice};

#[test]
fn aligned_with_a_timeout_tells_the_presets_aligned_lesson_then_the_timeout() {
    for lang in Lang::ALL {
        let s = lang.strings();
        for name in presets::NAMES {
            let scenario = presets::by_name(name).unwrap();
            if !scenario.modes().contains(&BarrierMode::Aligned) {
                continue;
            }
            let line = |t| lesson_line(s, &scenario, false, BarrierMode::Aligned, t, None, None).1;
            let (aligned, timed) = (line(None).unwrap(), line(Some(40)).unwrap());
            let note = (s.timeout_note)(40);
            assert!(
                timed.starts_with(&aligned) && timed.ends_with(&note),
                "{lang:?} {name}: {timed}"
            );
            assert!(
                timed.len() > aligned.len() + note.len() - 1,
                "{lang:?} {name}"
            );
        }
        // The recovery preset's lesson is about its failure, with or without a timeout.
        let (_, recovery) = lesson_line(
            s,
            &presets::recovery(),
            false,
            BarrierMode::Aligned,
            Some(40),
            None,
            None,
        );
        let recovery = recovery.unwrap();
        assert!(recovery.contains("Count#1"), "{lang:?}: {recovery}");
    }
}

/// A preset's lesson in another mode comes from the fetched texts: none before they arrive,
/// the mode's own once they have (never the aligned lesson where it would be wrong), and the
/// preset's own where the file has none for the mode (the token system, the bank).
#[test]
fn a_lesson_in_another_mode_waits_for_the_fetched_texts() {
    for lang in Lang::ALL {
        let s = lang.strings();
        let texts =
            crate::i18n::theory::Texts::parse(crate::i18n::theory::bundled(lang), lang).unwrap();
        let names = presets::NAMES.iter().chain(presets::SMALL);
        for name in names {
            let scenario = presets::by_name(name).unwrap();
            let own = (s.preset_text)(name).map(|(_, l)| l.to_string());
            for mode in scenario.modes() {
                let line = |t| lesson_line(s, &scenario, false, mode, None, None, t).1;
                if mode == BarrierMode::Aligned {
                    assert_eq!(line(None), own, "{lang:?} {name}");
                    continue;
                }
                assert_eq!(line(None), None, "{lang:?} {name} {mode}");
                let lesson = line(Some(&texts)).unwrap();
                match texts.lesson(name, mode) {
                    Some(l) => assert_eq!(lesson, l),
                    None => {
                        // Only systems that run in one mode, and the presets whose lesson
                        // is about the page or the search, keep their own lesson.
                        let neutral = presets::BENCHMARKS.contains(name)
                            || presets::SMALL.contains(name)
                            || scenario.modes().len() == 1;
                        assert!(neutral, "{lang:?} {name} {mode}");
                        assert_eq!(Some(&lesson), own.as_ref());
                    }
                }
                if mode != BarrierMode::Aligned && own.as_deref().is_some_and(|o| o.contains('①'))
                {
                    assert!(!lesson.contains('①'), "{lang:?} {name} {mode}: {lesson}");
                }
            }
        }
        // An edited scenario keeps its own lesson in every mode, at once.
        let edited = lesson_line(
            s,
            &presets::alignment(),
            true,
            BarrierMode::Unaligned,
            None,
            None,
            None,
        );
        assert_eq!(
            edited.1.as_deref(),
            Some(presets::alignment().lesson.as_str())
        );
    }
}

fn texts(n: &Notice) -> [String; 3] {
    Lang::ALL.map(|lang| notice_text(lang.strings(), n, false))
}

/// Chinese text carries no English words: Latin letters only in the names it quotes.
fn assert_no_english(text: &str, names: &[&str]) {
    let mut rest = text.to_string();
    for name in names {
        rest = rest.replace(name, "");
    }
    assert!(
        !rest.chars().any(|c| c.is_ascii_alphabetic()),
        "English in {text:?}"
    );
}

#[test]
fn a_mode_flink_refuses_says_flinks_reason_in_every_language() {
    let n = Notice::ModeUnavailable {
        mode: BarrierMode::Unaligned,
        timeout: false,
        scenario: "concurrent".into(),
        title: "x".into(),
        used: BarrierMode::Aligned,
        refused: Some(3),
    };
    let [en, zh, hans] = texts(&n);
    assert!(en.contains("not available for this scenario"), "{en}");
    assert!(en.contains("Flink refuses to start this job"), "{en}");
    assert!(en.contains("max_concurrent_checkpoints is 3"), "{en}");
    let flink = "maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled";
    for t in [&en, &zh, &hans] {
        assert!(t.contains(flink), "{t}");
    }
    assert!(zh.contains("Flink 拒絕啟動這個作業"), "{zh}");
    assert!(hans.contains("Flink 拒绝启动这个作业"), "{hans}");
    for t in [&zh, &hans] {
        assert_no_english(
            t,
            &[
                "unaligned",
                "exactly-once",
                "Flink",
                "max_concurrent_checkpoints",
                flink,
            ],
        );
    }
}

#[test]
fn a_mode_the_scenario_cannot_run_is_not_available_for_it_not_missing() {
    let n = Notice::ModeUnavailable {
        mode: BarrierMode::Aligned,
        timeout: true,
        scenario: "token".into(),
        title: "x".into(),
        used: BarrierMode::ChandyLamport,
        refused: None,
    };
    let [en, zh, hans] = texts(&n);
    let title = (Lang::En.strings().preset_text)("token").unwrap().0;
    assert!(en.contains("not available for this scenario"), "{en}");
    assert!(en.contains(title), "{en}");
    assert!(en.contains("Aligned, unaligned after 40 ms"), "{en}");
    assert!(!en.contains("does not exist"), "{en}");
    assert!(zh.contains("不適用於這個情境"), "{zh}");
    assert!(
        zh.contains((Lang::Zh.strings().preset_text)("token").unwrap().0),
        "{zh}"
    );
    assert!(hans.contains("不适用于这个场景"), "{hans}");
    for t in [&zh, &hans] {
        assert_no_english(t, &["Chandy-Lamport", "ms"]);
    }
    // A mode that does not exist at all still says so.
    let bad = Notice::BadParam {
        param: "mode",
        value: "sideways".into(),
        used: "aligned".into(),
    };
    assert!(texts(&bad)[0].contains("does not exist"));
}

#[test]
fn what_a_link_left_out_is_said_in_both_languages() {
    let cases = [
        (Notice::Ignored(Ignored::Step("abc".into())), "abc"),
        (Notice::Ignored(Ignored::Open("7".into())), "7"),
        (
            Notice::Ignored(Ignored::Select("t:Nope#0".into())),
            "t:Nope#0",
        ),
        (
            Notice::Ignored(Ignored::Panel("sideways".into())),
            "sideways",
        ),
        (
            Notice::StepPastEnd {
                shown: 143,
                ended: true,
            },
            "143",
        ),
        (
            Notice::StepPastEnd {
                shown: 200_000,
                ended: false,
            },
            "200000",
        ),
        (
            Notice::HostBadParam {
                param: "preset",
                value: "nope".into(),
                used: "alignment".into(),
            },
            "nope",
        ),
        (Notice::HostLoadEmpty, ""),
    ];
    for (n, value) in cases {
        let [en, zh, hans] = texts(&n);
        for t in [&en, &zh, &hans] {
            assert!(t.contains(value), "{n:?}: {t}");
        }
        for t in [&zh, &hans] {
            assert_no_english(t, &[value, "alignment"]);
        }
        assert!(!en.is_empty() && zh != en && hans != en, "{n:?}");
    }
    // A snapshot is a snapshot.
    let open = Notice::Ignored(Ignored::Open("7".into()));
    assert!(notice_text(Lang::En.strings(), &open, false).contains("checkpoint"));
    assert!(notice_text(Lang::En.strings(), &open, true).contains("snapshot"));
    assert!(notice_text(Lang::Zh.strings(), &open, true).contains("快照"));
}

/// Aligned with buffer debloating: the preset's aligned lesson, then the fetched note with
/// the target — none until the texts have arrived, so the line waits for them.
#[test]
fn the_debloating_lesson_is_the_aligned_one_and_the_fetched_note() {
    for lang in crate::i18n::Lang::ALL {
        let s = lang.strings();
        let texts =
            crate::i18n::theory::Texts::parse(crate::i18n::theory::bundled(lang), lang).unwrap();
        let scenario = presets::slow_sink();
        let (_, waiting) = lesson_line(
            s,
            &scenario,
            false,
            BarrierMode::Aligned,
            None,
            Some(20),
            None,
        );
        assert_eq!(waiting, None, "{lang:?}");
        let (_, line) = lesson_line(
            s,
            &scenario,
            false,
            BarrierMode::Aligned,
            None,
            Some(20),
            Some(&texts),
        );
        let line = line.unwrap();
        let note = texts.debloat_lesson(20).unwrap();
        let aligned = (s.preset_text)("slow-sink").unwrap().1;
        assert!(line.starts_with(aligned), "{lang:?}: {line}");
        assert!(
            line.ends_with(&note) && note.contains("20"),
            "{lang:?}: {line}"
        );
    }
}
