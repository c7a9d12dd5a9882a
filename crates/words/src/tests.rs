use super::*;
use abs_engine::view;
use abs_engine::Simulation;
use abs_scenario::presets;

#[test]
fn both_languages_narrate_every_beat_of_a_run() {
    narrate_all(600, |mode, name, sim, b, en| {
        let zh = (zh::STRINGS.narrate)(b, &Names(sim));
        for s in [en, zh.as_str()] {
            assert!(
                !s.is_empty() && !s.contains('?'),
                "{name} {mode}: {b:?}: {s}"
            );
        }
    });
}

/// The aligned-checkpoint timeout is a duration: the mode menu and the lesson give its unit
/// wherever they give the number (Simplified is converted from the Traditional).
#[test]
fn the_timeout_is_given_with_its_unit() {
    for lang in Lang::ALL {
        let s = lang.strings();
        for text in [(s.mode_aligned_timeout)(47), (s.timeout_note)(47)] {
            let figures = text.matches("47").count();
            assert!(figures > 0, "{lang:?}: {text}");
            assert_eq!(text.matches("47 ms").count(), figures, "{lang:?}: {text}");
        }
    }
}

#[test]
fn the_chinese_narration_uses_the_seed_terms() {
    let mut sim = presets::alignment().simulation().unwrap();
    let mut text = String::new();
    for _ in 0..60 {
        sim.step();
        for b in view::last_sentences(&sim) {
            text += &(zh::STRINGS.narrate)(&b, &Names(&sim));
        }
    }
    for term in ["屏障", "對齊", "快照", "檢查點", "緩衝"] {
        assert!(text.contains(term), "missing {term}");
    }
}

#[test]
fn lang_codes_name_the_chinese_scripts_in_any_case() {
    for lang in Lang::ALL {
        assert_eq!(Lang::from_code(lang.code()), Some(lang));
        assert_eq!(Lang::from_code(lang.tag()), Some(lang));
    }
    for code in [
        "zh", "zh-TW", "zh-HK", "zh-Hant", "ZH-tw", "zh-hk", "zh-hant",
    ] {
        assert_eq!(Lang::from_code(code), Some(Lang::Zh), "{code}");
    }
    for code in [
        "zh-Hans",
        "zh-CN",
        "zh-SG",
        "zh-Hans-CN",
        "zh-hans",
        "ZH-CN",
        "zh-sg",
    ] {
        assert_eq!(Lang::from_code(code), Some(Lang::ZhHans), "{code}");
    }
    for code in ["", "fr", "zh-", "zh-Hans-", "english", "zhh"] {
        assert_eq!(Lang::from_code(code), None, "{code}");
    }
    let names: Vec<&str> = Lang::ALL.iter().map(|l| l.name()).collect();
    assert_eq!(names, ["English", "繁體中文", "简体中文"]);
}

#[test]
fn the_browser_language_is_the_first_of_ours_it_lists() {
    let pick =
        |list: &[&str]| Lang::from_browser(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(pick(&[]), Lang::En);
    assert_eq!(pick(&["fr-FR", "de"]), Lang::En);
    assert_eq!(pick(&["en-US", "zh-CN"]), Lang::En);
    assert_eq!(pick(&["fr", "zh-CN", "en"]), Lang::ZhHans);
    for simplified in [
        "zh-CN",
        "zh-SG",
        "zh-Hans",
        "zh-Hans-CN",
        "zh-Hans-HK",
        "zh_CN",
        "zh-cn",
    ] {
        assert_eq!(pick(&[simplified, "en"]), Lang::ZhHans, "{simplified}");
    }
    for traditional in [
        "zh",
        "zh-TW",
        "zh-HK",
        "zh-MO",
        "zh-Hant",
        "zh-Hant-TW",
        "zh-hant-cn",
    ] {
        assert_eq!(pick(&[traditional, "en"]), Lang::Zh, "{traditional}");
    }
    for english in ["en", "en-GB", "EN-us"] {
        assert_eq!(pick(&[english, "zh-CN"]), Lang::En, "{english}");
    }
    // Not a language of ours, though it starts like one.
    assert_eq!(pick(&["eng", "zhx", "zh-CN"]), Lang::ZhHans);
}

#[test]
fn every_language_has_a_page_title() {
    for lang in Lang::ALL {
        let s = lang.strings();
        assert!(s.page_title.starts_with(s.app_title), "{lang:?}");
    }
}

#[test]
fn every_preset_has_a_title_and_lesson_in_both_languages() {
    for name in presets::NAMES {
        for lang in Lang::ALL {
            assert!(
                (lang.strings().preset_text)(name).is_some(),
                "{lang:?} {name}"
            );
        }
    }
}

/// Whether `text` names `operator` as a word of its own (`Merge` in "Merge#0's buffer", not
/// `Src` in "Source").
fn names_operator(text: &str, operator: &str) -> bool {
    text.match_indices(operator).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + operator.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

#[test]
fn every_preset_has_a_theory_in_every_mode_it_runs_in_and_no_other() {
    let han = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    let files: Vec<(Lang, theory::Texts)> = Lang::ALL
        .into_iter()
        .map(|lang| {
            (
                lang,
                theory::Texts::parse(theory::bundled(lang), lang).unwrap(),
            )
        })
        .collect();
    let mut expected = Vec::new();
    let named = presets::NAMES.iter().chain(presets::SMALL);
    for name in named.filter(|n| **n != "large") {
        let scenario = presets::by_name(name).unwrap();
        let modes = scenario.modes();
        assert!(!modes.is_empty(), "{name} runs in no mode");
        for mode in modes {
            expected.push((name.to_string(), mode.as_str()));
            for (lang, texts) in &files {
                let lang = *lang;
                let text = texts
                    .get(name, mode)
                    .unwrap_or_else(|| panic!("{lang:?} {name} {mode}: no theory"));
                assert!(
                    scenario
                        .graph
                        .operators
                        .iter()
                        .any(|o| names_operator(text, &o.name)),
                    "{lang:?} {name} {mode}: names no operator of the preset: {text}"
                );
                assert!(
                    !text.contains('!') && !text.contains('！'),
                    "{lang:?} {name} {mode}: {text}"
                );
                let chars = text.chars().count();
                match lang {
                    Lang::En => assert!(chars < 700, "{name} {mode}: {chars} chars"),
                    // The same content in Chinese: full-width punctuation, and a space
                    // between a Chinese character and a Latin letter or digit.
                    Lang::Zh | Lang::ZhHans => {
                        assert!(chars < 350, "{lang:?} {name} {mode}: {chars} chars");
                        for c in [',', ';', ':', '(', ')', '?'] {
                            assert!(!text.contains(c), "{lang:?} {name} {mode}: {c} in {text}");
                        }
                        let v: Vec<char> = text.chars().collect();
                        for w in v.windows(2) {
                            assert!(
                                !(han(w[0]) && w[1].is_ascii_alphanumeric()
                                    || w[0].is_ascii_alphanumeric() && han(w[1])),
                                "{lang:?} {name} {mode}: no space in {}{}: {text}",
                                w[0],
                                w[1]
                            );
                        }
                    }
                }
            }
        }
    }
    // No text for a benchmark, a name that is no preset, or a mode the preset cannot run;
    // none twice.
    expected.sort();
    for (lang, texts) in &files {
        let mut keys: Vec<(String, &str)> = texts
            .keys()
            .map(|(p, m)| (p.to_string(), m.as_str()))
            .collect();
        keys.sort();
        assert_eq!(keys, expected, "{lang:?}");
    }
}

/// Runs every preset (but `large`) in every mode and hands each step's sentences, with the
/// English sentence, to `check`.
fn narrate_all(steps: u32, mut check: impl FnMut(BarrierMode, &str, &Simulation, &Sentence, &str)) {
    for name in presets::NAMES.iter().filter(|n| **n != "large") {
        for mode in BarrierMode::ALL {
            // Not every mode applies to every preset (the ABS modes need sources).
            let Ok(mut sim) = presets::by_name(name).unwrap().with_mode(mode).simulation() else {
                continue;
            };
            for _ in 0..steps {
                if sim.step().is_none() {
                    break;
                }
                for b in view::last_sentences(&sim) {
                    let text = (en::STRINGS.narrate)(&b, &Names(&sim));
                    check(mode, name, &sim, &b, &text);
                }
            }
        }
    }
}

/// A job that fails for too many failed checkpoints says where it restarts from, as the
/// coordinator has it: the latest completed checkpoint, or the beginning when none has
/// completed (the recovery banner says the same). And a transactional sink's abort says
/// how far its count drops, as its card shows.
#[test]
fn a_failing_job_says_where_it_restarts_from_as_the_coordinator_has_it() {
    let (mut none_yet, mut from_one) = (0, 0);
    // Backpressure with a short timeout fails before any checkpoint completes; alignment
    // with its slow channel paused after checkpoint 1 fails after one has.
    for (name, timeout, tolerable) in [("backpressure", 120, 1), ("alignment", 150, 0)] {
        let mut scenario = presets::by_name(name).unwrap();
        scenario.config.timeout = timeout;
        scenario.config.tolerable_failed_checkpoints = Some(tolerable);
        let mut sim = scenario.simulation().unwrap();
        let merge = sim.physical().task_by_name("Merge#0").unwrap();
        let slow = sim.physical().tasks[merge as usize].inputs[1];
        let mut paused = false;
        for _ in 0..6000 {
            sim.step();
            if name == "alignment" && !paused && sim.coordinator().latest_completed().is_some() {
                paused = true;
                let pause = abs_engine::Action::Pause {
                    channel: slow,
                    paused,
                };
                sim.apply(pause).unwrap();
            }
            let latest = sim.coordinator().latest_completed().map(|g| g.checkpoint);
            for b in view::last_sentences(&sim) {
                for strings in [&en::STRINGS, &zh::STRINGS] {
                    let text = (strings.narrate)(&b, &Names(&sim));
                    if let Sentence::JobFailed { .. } = b {
                        match latest {
                            Some(n) => {
                                from_one += 1;
                                let said = format!("checkpoint {n}, its latest");
                                let zh_said = format!("檢查點 {n} 重啟");
                                assert!(text.contains(&said) || text.contains(&zh_said), "{text}");
                            }
                            None => {
                                none_yet += 1;
                                assert!(
                                    text.contains("no checkpoint has completed")
                                        || text.contains("還沒有任何檢查點完成"),
                                    "{text}"
                                );
                            }
                        }
                    }
                    if let Sentence::TransactionAborted { aborted, .. } = b {
                        assert!(!text.contains("since the last completed"), "{text}");
                        assert!(text.contains(&aborted.to_string()), "{text}");
                    }
                }
            }
        }
    }
    assert!(none_yet > 0 && from_one > 0, "{none_yet} {from_one}");
}

#[test]
fn only_aligned_checkpoints_are_told_as_blocking_or_aligning() {
    narrate_all(1500, |mode, name, _, b, text| {
        if mode != BarrierMode::Aligned {
            for word in ["blocked", "blocks", "alignment is complete", "buffer"] {
                assert!(!text.contains(word), "{name} {mode}: {b:?}: {text}");
            }
        }
    });
}

#[test]
fn acknowledgements_are_told_when_they_happen_with_true_counts() {
    let mut acks = 0;
    narrate_all(1500, |mode, name, sim, b, text| {
        let (task, n, acked) = match *b {
            Sentence::Snapshot {
                task,
                n,
                acked: Some((a, _)),
                ..
            }
            | Sentence::SourceSnapshot {
                task,
                n,
                acked: Some((a, _)),
                ..
            }
            | Sentence::SourcePriorityBarrier {
                task,
                n,
                acked: Some((a, _)),
                ..
            }
            | Sentence::AckSnapshot {
                task,
                n,
                acked: (a, _),
            }
            | Sentence::AckChannelState {
                task,
                n,
                acked: (a, _),
            }
            | Sentence::AckFinished {
                task,
                n,
                acked: (a, _),
            }
            | Sentence::ProcessDone {
                task,
                n,
                acked: (a, _),
            } => (task, n, a),
            Sentence::Snapshot {
                task,
                n: checkpoint,
                acked: None,
                ..
            } => {
                // Told without an acknowledgement: only unaligned and Chandy-Lamport tasks
                // wait for their channel state (and aligned ones for their back-edge log),
                // and then they really have not acknowledged.
                assert!(
                    matches!(mode, BarrierMode::Unaligned | BarrierMode::ChandyLamport)
                        || Names(sim).back_edges(task) > 0,
                    "{name}: {text}"
                );
                assert!(
                    !sim.coordinator().acked_by(checkpoint, task),
                    "{name}: {text}"
                );
                assert!(!text.contains("acknowledges ("), "{name}: {text}");
                return;
            }
            _ => return,
        };
        acks += 1;
        assert!(acked >= 1, "{name} {mode}: {text}");
        let summary = sim.coordinator().summary(n).unwrap();
        assert!(
            summary.acked >= acked,
            "{name} {mode}: {text} vs {summary:?}"
        );
        assert!(
            summary.status != abs_engine::coordinator::CheckpointStatus::InProgress
                || sim.coordinator().acked_by(n, task),
            "{name} {mode}: told acknowledged but the coordinator has no ack: {text}"
        );
    });
    assert!(acks > 100, "only {acks} acknowledgements told");
}

#[test]
fn a_task_is_said_to_have_finished_only_when_it_has() {
    narrate_all(1500, |mode, name, sim, b, text| {
        if let Sentence::JobFinished { .. } = b {
            // "Every task has finished": the iteration preset's bounded job ends.
            assert!(sim.job_finished(), "{name} {mode}: {text}");
            assert!(
                sim.tasks().iter().all(|t| t.finished),
                "{name} {mode}: {text}"
            );
            return;
        }
        if let Sentence::DataEnded { task, looped, .. } = *b {
            // "every input" — or, heading a loop, "every regular input": its back-edge's
            // end of data is its own and has not come round yet.
            let phys = sim.physical();
            let back = (phys.tasks[task as usize].inputs.iter())
                .any(|&c| phys.is_back_edge(phys.channels[c as usize].edge));
            assert_eq!(looped, back, "{name} {mode}: {text}");
        }
        if let Sentence::SourceEnded {
            task,
            finishes_now: false,
        }
        | Sentence::DataEnded {
            task,
            finishes_now: false,
            ..
        } = *b
        {
            // "keeps running until a checkpoint … has completed": it has not finished.
            let t = &sim.tasks()[task as usize];
            assert!(t.data_ended && !t.finished, "{name} {mode}: {text}");
            return;
        }
        if text.contains("has finished") || text.contains("and finishes") {
            let task = match *b {
                Sentence::TaskFinished { task, .. }
                | Sentence::AckFinished { task, .. }
                | Sentence::AckSnapshot { task, .. }
                | Sentence::AckChannelState { task, .. }
                | Sentence::ProcessDone { task, .. } => task,
                _ => panic!("{name} {mode}: unexpected {b:?}: {text}"),
            };
            assert!(sim.tasks()[task as usize].finished, "{name} {mode}: {text}");
        }
    });
}

#[test]
fn a_task_without_outputs_forwards_nothing() {
    let mut sinks = 0;
    narrate_all(1500, |_, name, sim, b, text| {
        if let Sentence::Snapshot { task, .. }
        | Sentence::ProcessRecords { task, .. }
        | Sentence::ProcessRecordsAlone { task, .. } = *b
        {
            if sim.physical().tasks[task as usize]
                .outputs
                .iter()
                .all(|o| o.is_empty())
            {
                sinks += 1;
                assert!(!text.contains("downstream"), "{name}: {text}");
            }
        }
    });
    assert!(sinks > 10);
}

#[test]
fn barrier_sentences_count_the_inputs_the_handler_counted() {
    narrate_all(1500, |mode, name, _, b, text| {
        if let Sentence::AlignmentBlocksToo { have, need, .. }
        | Sentence::UnalignedInputSaved { have, need, .. }
        | Sentence::TrackingFlows { have, need, .. }
        | Sentence::MarkerStopsRecording { have, need, .. } = *b
        {
            assert!(have >= 1 && have <= need, "{name} {mode}: {b:?}");
            assert!(!text.contains("0 of"), "{name} {mode}: {text}");
        }
    });
}

#[test]
fn unaligned_barriers_are_told_overtaking_and_at_least_once_records_slipping_in() {
    let (mut overtaking, mut slipping) = (0, 0);
    narrate_all(1500, |mode, _, _, b, text| match (mode, b) {
        (BarrierMode::Unaligned, Sentence::BarrierOvertook { overtaken, .. }) => {
            assert!(*overtaken > 0, "{text}");
            assert!(text.contains("overtakes"), "{text}");
            overtaking += 1;
        }
        (BarrierMode::AtLeastOnce, Sentence::ProcessedEarly { .. }) => {
            assert!(text.contains("counted twice"), "{text}");
            slipping += 1;
        }
        (_, Sentence::ProcessedEarly { .. }) => panic!("{mode}: {text}"),
        _ => {}
    });
    assert!(overtaking > 0 && slipping > 0, "{overtaking} {slipping}");
}

#[test]
fn the_lesson_line_fits_the_mode() {
    for lang in Lang::ALL {
        let texts = theory::Texts::parse(theory::bundled(lang), lang).unwrap();
        let lesson = |mode| texts.lesson("alignment", mode);
        assert_eq!(
            lesson(BarrierMode::Aligned),
            None,
            "aligned uses the preset's own"
        );
        for mode in [
            BarrierMode::AtLeastOnce,
            BarrierMode::Unaligned,
            BarrierMode::Synchronous,
        ] {
            let text = lesson(mode).unwrap_or_else(|| panic!("{lang:?} {mode}"));
            assert!(
                !text.contains('①') && !text.contains('②'),
                "{lang:?} {mode}"
            );
        }
        // A lesson only for a preset in a mode it runs in, none twice.
        let mut seen = Vec::new();
        for (name, mode) in texts.lesson_keys() {
            let scenario = abs_scenario::presets::by_name(name).unwrap();
            assert!(scenario.modes().contains(&mode), "{lang:?} {name} {mode}");
            assert!(
                !seen.contains(&(name, mode)),
                "{lang:?} {name} {mode} twice"
            );
            seen.push((name, mode));
        }
    }
}

/// Taiwan's terms become the mainland's: networks, algorithms, slides, distributed.
#[test]
fn taiwan_terms_become_the_mainlands() {
    assert_eq!(
        crate::hans::to_hans("網路上的分散式演算法，用於投影片"),
        "网络上的分布式算法，用于幻灯片"
    );
}

/// 著 as Taiwan writes the particle (停著, 帶著, 著色) is 着 on the mainland.
#[test]
fn the_particle_zhe_is_simplified() {
    assert_eq!(
        crate::hans::to_hans("停著不動，帶著重複，接著著色"),
        "停着不动，带着重复，接着着色"
    );
}

/// A record is named in quotes wherever a sentence names it: a word from a log ("the",
/// "next") never opens a sentence bare and capitalised as if it were the sentence's own word
/// ("The arrived on …"). Chandy-Lamport on the dataflow presets records words as messages.
#[test]
fn a_record_opening_a_sentence_is_quoted() {
    let mut recorded = 0;
    narrate_all(400, |mode, name, _, b, text| {
        if let Sentence::MarkerRecorded { .. } = b {
            recorded += 1;
            assert!(text.starts_with('“'), "{name} {mode}: {text}");
        }
    });
    assert!(recorded > 0, "no message was recorded as channel state");
}
