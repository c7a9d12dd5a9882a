use super::*;
use crate::scenario::presets;

#[test]
fn aligned_with_a_timeout_tells_the_presets_aligned_lesson_then_the_timeout() {
    for lang in Lang::ALL {
        let s = lang.strings();
        for name in presets::NAMES {
            let scenario = presets::by_name(name).unwrap();
            if !scenario.modes().contains(&BarrierMode::Aligned) {
                continue;
            }
            let (_, aligned) = lesson_line(s, &scenario, false, BarrierMode::Aligned, None);
            let (_, timed) = lesson_line(s, &scenario, false, BarrierMode::Aligned, Some(40));
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
        );
        assert!(recovery.contains("Count#1"), "{lang:?}: {recovery}");
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
fn a_mode_the_scenario_cannot_run_is_not_available_for_it_not_missing() {
    let n = Notice::ModeUnavailable {
        mode: BarrierMode::Aligned,
        timeout: true,
        scenario: "token".into(),
        title: "x".into(),
        used: BarrierMode::ChandyLamport,
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
