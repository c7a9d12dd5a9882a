//! Guided lessons: the engine's answers to a lesson's questions, checked on many moments of
//! every preset and mode against what the run then does — read from the state the run reaches,
//! not from the events the answer was computed from — and the lesson reader's errors.

use abs_playground::engine::record::{ItemKind, Record};
use abs_playground::engine::view::{held_items, is_blocked};
use abs_playground::engine::{Simulation, TaskId};
use abs_playground::lesson::{reveal, Ask, Choice, NoAnswer, Why};
use abs_playground::scenario::{presets, read_lesson};

/// Every preset the students see, in each of its modes, at moments spread over its first
/// 1,500 steps: `(name, simulation at the moment)`.
fn moments() -> Vec<(String, Simulation)> {
    let mut out = Vec::new();
    for name in presets::NAMES {
        let scenario = presets::by_name(name).unwrap();
        for mode in scenario.modes() {
            let mut sim = scenario.with_mode(mode).simulation().unwrap();
            let mut k = 0u64;
            for at in (0..1_500).step_by(37) {
                while sim.steps() < at {
                    if sim.step().is_none() {
                        break;
                    }
                }
                k += 1;
                // Every third moment also one step later: moments inside a step's aftermath.
                out.push((format!("{name} {mode:?} @{}", sim.steps()), sim.clone()));
                if k.is_multiple_of(3) {
                    let mut one = sim.clone();
                    one.step();
                    out.push((format!("{name} {mode:?} @{}", one.steps()), one));
                }
            }
        }
    }
    out
}

fn at_step(sim: &Simulation, step: u64) -> Simulation {
    let mut s = sim.clone();
    while s.steps() < step {
        s.step().expect("the reveal's step is reachable");
    }
    s
}

fn blocked_set(sim: &Simulation) -> Vec<u32> {
    (0..sim.channels().len() as u32)
        .filter(|&c| is_blocked(sim, c))
        .collect()
}

#[test]
fn the_input_said_to_block_next_is_the_first_one_that_becomes_blocked() {
    let (mut asked, mut answered, mut aligned) = (0, 0, 0);
    for (label, sim) in moments() {
        asked += 1;
        if sim.mode() == abs_playground::engine::BarrierMode::Aligned {
            aligned += 1;
        }
        let r = match reveal(&sim, &Ask::BlockedInput) {
            Ok(r) => r,
            Err(NoAnswer::NothingBlocks) => continue,
            Err(e) => panic!("{label}: {e:?}"),
        };
        answered += 1;
        let Why::Blocked { channel, .. } = r.why else {
            panic!("{label}: {:?}", r.why)
        };
        assert_eq!(r.answer.len(), 1, "{label}");
        assert_eq!(r.choices[r.answer[0]], Choice::Channel(channel), "{label}");
        // Step by step from the moment: no channel newly blocked before the reveal's step, and
        // at it the answer is among those newly blocked.
        let mut s = sim.clone();
        let mut before = blocked_set(&s);
        loop {
            s.step().unwrap();
            let now = blocked_set(&s);
            let new: Vec<u32> = now
                .iter()
                .copied()
                .filter(|c| !before.contains(c))
                .collect();
            if s.steps() == r.step {
                assert!(
                    new.contains(&channel),
                    "{label}: {channel} not newly blocked at {}",
                    r.step
                );
                break;
            }
            assert!(
                new.is_empty(),
                "{label}: {new:?} blocked at {} before the answer's step {}",
                s.steps(),
                r.step
            );
            before = now;
        }
    }
    println!(
        "blocked-input: {answered} of {asked} moments have an answer ({aligned} in aligned mode)"
    );
    assert!(
        answered * 2 >= aligned,
        "too few aligned moments reach a block: {answered} of {aligned}"
    );
}

/// The records a task holds in its alignment buffer (what the page draws there).
fn held_records(sim: &Simulation, task: TaskId) -> Vec<u64> {
    sim.physical().tasks[task as usize]
        .inputs
        .iter()
        .flat_map(|&c| held_items(sim, c))
        .filter_map(|i| match i {
            ItemKind::Record(r) => Some(r.id),
            _ => None,
        })
        .collect()
}

#[test]
fn the_records_said_to_wait_are_those_the_alignment_buffer_holds() {
    let (mut asked, mut answered, mut mixed) = (0, 0, 0);
    for (label, sim) in moments() {
        asked += 1;
        let r = match reveal(&sim, &Ask::Buffered) {
            Ok(r) => r,
            Err(NoAnswer::NothingToBuffer) => continue,
            Err(e) => panic!("{label}: {e:?}"),
        };
        answered += 1;
        let Why::Buffered { task, held, .. } = r.why else {
            panic!("{label}: {:?}", r.why)
        };
        assert!(r.multiple);
        assert_eq!(held, r.answer.len());
        if !r.answer.is_empty() && r.answer.len() < r.choices.len() {
            mixed += 1;
        }
        // Every choice is a record in a channel into the task now.
        for c in &r.choices {
            let Choice::Record(Record { id, .. }, ch) = *c else {
                panic!("{label}: {c:?}")
            };
            assert_eq!(sim.physical().channels[ch as usize].to, task);
            assert!(sim.channels()[ch as usize]
                .items()
                .iter()
                .any(|i| matches!(i.kind, ItemKind::Record(x) if x.id == id)));
        }
        // At the reveal the buffer holds exactly the answer's records (of those offered).
        if r.answer.is_empty() {
            continue;
        }
        let s = at_step(&sim, r.step);
        let held = held_records(&s, task);
        for (i, c) in r.choices.iter().enumerate() {
            let Choice::Record(Record { id, .. }, _) = *c else {
                unreachable!()
            };
            assert_eq!(
                held.contains(&id),
                r.answer.contains(&i),
                "{label}: record {id} held {} at step {}",
                held.contains(&id),
                r.step
            );
        }
    }
    println!("buffered: {answered} of {asked} moments have an answer, {mixed} with records on both sides");
    assert!(
        mixed >= 20,
        "too few moments where some records wait and others do not: {mixed}"
    );
}

#[test]
fn the_consistency_said_is_the_checkers_verdict_on_the_next_completed_checkpoint() {
    let (mut asked, mut answered, mut inconsistent) = (0, 0, 0);
    for (label, sim) in moments() {
        asked += 1;
        let r = match reveal(&sim, &Ask::Consistent) {
            Ok(r) => r,
            Err(NoAnswer::NoCheckpoint) => continue,
            Err(e) => panic!("{label}: {e:?}"),
        };
        answered += 1;
        let Why::Consistent {
            checkpoint,
            consistent,
            ..
        } = r.why
        else {
            panic!()
        };
        assert_eq!(r.choices, [Choice::Yes, Choice::No]);
        assert_eq!(r.answer, [if consistent { 0 } else { 1 }]);
        if !consistent {
            inconsistent += 1;
        }
        let completed = |s: &Simulation| {
            s.coordinator()
                .checkpoints()
                .iter()
                .filter(|c| s.coordinator().global_state(c.id).is_some())
                .count()
        };
        let s = at_step(&sim, r.step);
        let before = at_step(&sim, r.step - 1);
        assert_eq!(
            completed(&before),
            completed(&sim),
            "{label}: one completed earlier"
        );
        let gs = s
            .coordinator()
            .global_state(checkpoint)
            .expect("completed at the reveal");
        assert_eq!(gs.verdict.consistent, consistent, "{label}");
    }
    println!("consistent: {answered} of {asked} moments have an answer, {inconsistent} of them not consistent");
    assert!(
        inconsistent >= 5,
        "too few inconsistent snapshots reached: {inconsistent}"
    );
}

#[test]
fn a_choice_is_the_lessons_own_answer_after_its_steps() {
    let sim = presets::alignment().simulation().unwrap();
    let ask = Ask::Choice {
        prompt: "?".into(),
        choices: vec!["a".into(), "b".into(), "c".into()],
        answer: 2,
        why: "because".into(),
        play: 7,
    };
    let r = reveal(&sim, &ask).unwrap();
    assert_eq!(r.answer, [2]);
    assert_eq!(r.step, 7);
    assert!(r.is_right(&[2]) && !r.is_right(&[1]) && !r.is_right(&[1, 2]));
    assert_eq!(r.why, Why::Given("because".into()));
}

#[test]
fn a_lesson_is_read_and_every_mistake_is_placed() {
    let good = r#"{"title": "T", "steps": [
        {"at": "preset=alignment&step=3", "text": "Look."},
        {"at": "preset=alignment", "text": "Which?", "ask": {"kind": "blocked-input"}},
        {"at": "preset=alignment", "text": "Pick", "ask": {"kind": "choice", "prompt": "P", "choices": ["x", "y"], "answer": 1, "why": "W", "play": 5}}
    ]}"#;
    let l = read_lesson(good).unwrap();
    assert_eq!(l.title, "T");
    assert_eq!(l.steps.len(), 3);
    assert_eq!(l.mastery, None);
    let strict = good.replacen("\"title\": \"T\",", "\"title\": \"T\", \"mastery\": 75,", 1);
    assert_eq!(read_lesson(&strict).unwrap().mastery, Some(75));
    assert_eq!(l.steps[1].ask, Some(Ask::BlockedInput));
    assert!(matches!(
        l.steps[2].ask,
        Some(Ask::Choice {
            answer: 1,
            play: 5,
            ..
        })
    ));
    let bad = [
        ("{\"title\": \"T\"}", 1, "missing field `steps`"),
        ("{\"title\": \"T\", \"steps\": []}", 1, "expected 1 to 200 steps"),
        ("{\"title\": \"T\", \"steps\": [{\"at\": \"\", \"text\": \"\", \"ask\": {\"kind\": \"guess\"}}]}", 1, "unknown variant `guess`"),
        ("{\"title\": \"T\",\n \"steps\": [{\"at\": \"\", \"text\": \"\",\n \"ask\": {\"kind\": \"choice\", \"prompt\": \"p\", \"choices\": [\"a\", \"b\"], \"answer\": 2, \"why\": \"w\"}}]}", 3, "expected the index of one of the choices (0 to 1)"),
        ("{\"title\": \"T\", \"steps\": [{\"at\": \"\", \"text\": \"\", \"ask\": {\"kind\": \"consistent\", \"answer\": 0}}]}", 1, "unknown field `answer`"),
        ("{\"title\": \"T\", \"steps\": [{\"at\": \"\", \"txt\": \"\"}]}", 1, "unknown field `txt`"),
        ("{\"title\": \"T\", \"steps\": [", 1, ""),
        ("{\"title\": \"T\",\n \"mastery\": 101, \"steps\": [{\"at\": \"\", \"text\": \"\"}]}", 2, "expected a percentage (0 to 100)"),
        ("{\"title\": \"T\", steps: []}", 1, "expected a quoted key"),
        ("{\"title\": \"T\",}", 1, "expected a string key"),
    ];
    for (text, line, words) in bad {
        let (l, _, message) = read_lesson(text).unwrap_err();
        assert_eq!(l, line, "{text}: {message}");
        assert!(message.contains(words), "{text}: {message}");
    }
}

/// What a teacher reads for a broken lesson file (the lesson page words the reader's message):
/// the range of the number asked for, not the largest integer there is; a name without quotes
/// named as such, not as a comma; a reader's type named in plain words.
#[test]
fn a_broken_lesson_is_told_with_its_range_and_its_fix() {
    use abs_playground::i18n::Lang;
    let say = |text: &str, lang: Lang| {
        let (_, _, message) = read_lesson(text).unwrap_err();
        lang.syntax_words(&message)
    };
    let choice = r#"{"title": "T", "steps": [{"at": "", "text": "", "ask": {"kind": "choice", "prompt": "p", "choices": ["a", "b"], "answer": 3, "why": "w"}}]}"#;
    assert_eq!(
        say(choice, Lang::En),
        "3 is not the index of one of the choices: a whole number from 0 to 1"
    );
    assert_eq!(say(choice, Lang::Zh), "3 不是選項的索引：0 到 1 之間的整數");
    let mastery = r#"{"title": "T", "mastery": 150, "steps": [{"at": "", "text": ""}]}"#;
    assert_eq!(
        say(mastery, Lang::En),
        "150 is not a percentage: a whole number from 0 to 100"
    );
    let bare = r#"{"title": "T", steps: []}"#;
    assert!(
        say(bare, Lang::En).contains("double quotes") && !say(bare, Lang::En).contains("comma")
    );
    assert!(say(bare, Lang::Zh).contains("雙引號"));
    let play = r#"{"title": "T", "steps": [{"at": "", "text": "", "ask": {"kind": "choice", "prompt": "p", "choices": ["a", "b"], "answer": 0, "why": "w", "play": "5"}}]}"#;
    let said = say(play, Lang::En);
    assert!(
        said.contains("a whole number") && !said.contains("u64"),
        "{said}"
    );
}

/// The built-in lessons: `static/lessons/<lang>/<name>.json`.
fn builtin(lang: &str, name: &str) -> abs_playground::lesson::Lesson {
    let path = format!(
        "{}/static/lessons/{lang}/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_lesson(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// The simulation at a step's moment, as the page reaches it.
fn at_moment(at: &str) -> Simulation {
    use abs_playground::ui::lesson::At;
    use abs_playground::ui::permalink::{decode_choices, replay};
    let at = At::parse(at);
    let mut scenario = presets::by_name(at.preset.as_deref().unwrap_or("alignment"))
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mode) = &at.mode {
        scenario = scenario.with_mode(mode.parse().unwrap_or_else(|_| panic!("mode {mode}")));
    }
    if let Some(seed) = &at.seed {
        scenario.seed = seed.parse().unwrap();
    }
    let mut run = abs_playground::ui::run::Run::new(scenario).unwrap();
    let choices = decode_choices(at.link.choices.as_deref().unwrap_or("")).unwrap();
    let step: u64 = at.link.step.as_deref().unwrap_or("0").parse().unwrap();
    replay(&mut run, step, &choices).unwrap();
    assert_eq!(run.position(), step, "the run reaches step {step}");
    run.sim().clone()
}

#[test]
fn every_built_in_lesson_reads_in_both_languages_and_every_question_has_an_answer() {
    use abs_playground::ui::lesson::LESSONS;
    let mut questions = 0;
    for name in LESSONS {
        let en = builtin("en", name);
        let zh = builtin("zh", name);
        assert_eq!(
            en.steps.len(),
            zh.steps.len(),
            "{name}: the languages' steps differ"
        );
        for (i, (a, b)) in en.steps.iter().zip(&zh.steps).enumerate() {
            assert_eq!(
                a.at,
                b.at,
                "{name} step {}: another moment in Chinese",
                i + 1
            );
            let kind = |s: &abs_playground::lesson::Step| match &s.ask {
                Some(Ask::Choice {
                    choices,
                    answer,
                    play,
                    ..
                }) => format!("choice {} {answer} {play}", choices.len()),
                other => format!("{other:?}"),
            };
            assert_eq!(
                kind(a),
                kind(b),
                "{name} step {}: another question in Chinese",
                i + 1
            );
            if let Some(ask) = &a.ask {
                let sim = at_moment(&a.at);
                let r =
                    reveal(&sim, ask).unwrap_or_else(|e| panic!("{name} step {}: {e:?}", i + 1));
                assert!(!r.choices.is_empty());
                questions += 1;
            }
        }
    }
    println!(
        "{} built-in lessons, {questions} questions, each answered by the engine",
        LESSONS.len()
    );
}

#[test]
fn abs_sim_lesson_prints_the_engines_answers_and_fails_on_a_question_without_one() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("abs-lesson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |text: &str| {
        let file = dir.join("l.json");
        std::fs::write(&file, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_abs-sim"))
            .args(["lesson", file.to_str().unwrap()])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, out, _) = run(r#"{"title": "t", "steps": [
        {"at": "?preset=alignment&mode=aligned&step=8", "text": "x", "ask": {"kind": "blocked-input"}},
        {"at": "preset=alignment&mode=unaligned&step=8", "text": "y", "ask": {"kind": "blocked-input"}},
        {"at": "preset=nope", "text": "z"}]}"#);
    assert_eq!(code, Some(1), "{out}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines[0]["choices"],
        serde_json::json!(["Src A#0→Merge#0", "Src B#0→Merge#0"])
    );
    assert_eq!(lines[0]["answer"], serde_json::json!([0]));
    assert_eq!(lines[0]["reveal"], 14);
    assert_eq!(lines[1]["error"], "NothingBlocks", "unaligned never blocks");
    assert!(
        lines[2]["error"].as_str().unwrap().contains("nope"),
        "{}",
        lines[2]
    );
    let (code, _, err) = run("{\"title\": \"t\", \"steps\": [}");
    assert_eq!(code, Some(2));
    assert!(err.contains("line 1, column"), "{err}");
}

#[test]
fn the_global_state_said_is_where_the_next_snapshot_holds_the_token_and_all_four_occur() {
    use abs_playground::engine::record::Payload;
    use abs_playground::engine::snapshot::TaskState;
    use abs_playground::engine::view::{token_system, TokenPlace};
    let mut seen = Vec::new();
    let (mut asked, mut answered) = (0, 0);
    for (label, sim) in moments() {
        let r = match reveal(&sim, &Ask::GlobalState) {
            Ok(r) => r,
            Err(NoAnswer::NoToken) => {
                assert!(
                    token_system(&sim).is_none(),
                    "{label}: a token system without an answer"
                );
                continue;
            }
            Err(e) => panic!("{label}: {e:?}"),
        };
        asked += 1;
        let Why::Token { checkpoint, place } = r.why else {
            panic!("{label}: {:?}", r.why)
        };
        assert_eq!(r.choices.len(), 4);
        assert_eq!(r.choices[r.answer[0]], Choice::Place(place));
        let sys = token_system(&sim).unwrap();
        // The snapshot completed at the reveal, not before, and holds the token there and only
        // there: read from its tasks' states and its channels' records.
        let before = at_step(&sim, r.step - 1);
        assert!(
            before.coordinator().global_state(checkpoint).is_none(),
            "{label}"
        );
        let s = at_step(&sim, r.step);
        let gs = s
            .coordinator()
            .global_state(checkpoint)
            .expect("completed at the reveal");
        let holds = |t| {
            gs.tasks
                .iter()
                .any(|x| x.task == t && x.state == TaskState::Token { token: true })
        };
        let carries = |c| {
            gs.channel_state
                .get(&c)
                .is_some_and(|v| v.iter().any(|r| r.payload == Payload::Token))
        };
        let found = [holds(sys.p), carries(sys.pq), holds(sys.q), carries(sys.qp)];
        let want = TokenPlace::ALL.map(|p| p == place);
        assert_eq!(found, want, "{label}: snapshot {checkpoint}");
        answered += 1;
        if !seen.contains(&place) {
            seen.push(place);
        }
    }
    println!("global-state: {answered} of {asked} token moments answered; places seen: {seen:?}");
    assert_eq!(
        seen.len(),
        4,
        "every one of the four global states is an answer somewhere: {seen:?}"
    );
}

/// Runs `sim` until the job has finished (at most a million steps).
fn finish(mut sim: Simulation) -> Simulation {
    for _ in 0..1_000_000 {
        if sim.job_finished() || sim.step().is_none() {
            break;
        }
    }
    assert!(sim.job_finished(), "the bounded job finishes");
    sim
}

#[test]
fn the_words_said_to_be_counted_twice_are_those_the_finished_job_counts_more_than_a_run_without_the_failure(
) {
    use abs_playground::engine::record::Payload;
    use abs_playground::engine::view::merged_counts;
    use abs_playground::engine::Event;
    let mut scenario = presets::by_name("recovery").unwrap();
    scenario.failures.clear();
    let (mut asked, mut answered, mut twice, mut none_restored) = (0, 0, 0, 0);
    let mut modes_twice = std::collections::BTreeSet::new();
    for mode in scenario.modes() {
        let clean = scenario.with_mode(mode).simulation().unwrap();
        let n_tasks = clean.physical().tasks.len() as TaskId;
        let base = merged_counts(&finish(clean.clone()));
        for task in 0..n_tasks {
            for at in (10..420).step_by(41) {
                let mut sim = clean.clone();
                sim.plan_failure(task, at);
                // Asked from the start and from a moment just before the failure.
                let mut near = sim.clone();
                while near.step().is_some() && near.now() + 15 < at {}
                for (when, moment) in [("start", sim.clone()), ("near", near)] {
                    let label = format!(
                        "recovery {mode:?}: task {task} fails at {at}, asked at {when} (step {})",
                        moment.steps()
                    );
                    asked += 1;
                    let r = match reveal(&moment, &Ask::CountedTwice) {
                        Ok(r) => r,
                        // The failure came before the moment, or after the job ended.
                        Err(NoAnswer::NoFailure) => continue,
                        Err(e) => panic!("{label}: {e:?}"),
                    };
                    answered += 1;
                    let Why::CountedTwice {
                        checkpoint,
                        ref words,
                    } = r.why
                    else {
                        panic!("{label}: {:?}", r.why)
                    };
                    assert!(r.multiple, "{label}");
                    let said: Vec<u32> = r
                        .answer
                        .iter()
                        .map(|&i| match r.choices[i] {
                            Choice::Word(w) => w,
                            ref c => panic!("{label}: {c:?}"),
                        })
                        .collect();
                    assert_eq!(&said, words, "{label}");
                    assert!(r.choices.len() <= abs_playground::lesson::MAX_WORDS.max(said.len()));
                    // The reveal is the restore, and nothing restored before it.
                    let restored = |s: &Simulation| {
                        s.last_events()
                            .iter()
                            .any(|e| matches!(e, Event::Restored { .. }))
                    };
                    let at_reveal = at_step(&moment, r.step);
                    assert!(restored(&at_reveal), "{label}");
                    if checkpoint.is_none() {
                        none_restored += 1;
                    }
                    // What the finished job then counts, against the run without the failure:
                    // exactly the words said are counted more, and no word less.
                    let end = finish(at_reveal.clone());
                    assert_eq!(end.recoveries().len(), 1, "{label}: one failure only");
                    let got = merged_counts(&end);
                    let mut more: Vec<u32> = got
                        .iter()
                        .filter(|(w, n)| **n > base.get(w).copied().unwrap_or(0))
                        .map(|(w, _)| *w)
                        .collect();
                    more.sort_unstable();
                    let mut want = said.clone();
                    want.sort_unstable();
                    assert_eq!(more, want, "{label}: counts {got:?} against {base:?}");
                    for (w, n) in &base {
                        assert!(got.get(w).copied().unwrap_or(0) >= *n, "{label}: {w} lost");
                    }
                    // Every word said is a word of a line the sources read again.
                    let mut read_again = Vec::new();
                    let mut s = at_reveal;
                    loop {
                        for e in s.last_events() {
                            if let Event::SourceRead { record, .. } = e {
                                if let (true, Payload::Line(l)) = (record.replay, record.payload) {
                                    read_again
                                        .extend_from_slice(&s.physical().lines[l as usize].words);
                                }
                            }
                        }
                        if s.job_finished() || s.step().is_none() {
                            break;
                        }
                    }
                    for w in &said {
                        assert!(read_again.contains(w), "{label}: {w} was not read again");
                    }
                    if !said.is_empty() {
                        twice += 1;
                        modes_twice.insert(format!("{mode:?}"));
                    }
                }
            }
        }
    }
    println!(
        "counted-twice: {answered} of {asked} moments answered; {twice} with words counted twice \
         (modes {modes_twice:?}); {none_restored} restarted from the beginning"
    );
    assert!(
        twice >= 10,
        "too few moments with words counted twice: {twice}"
    );
    assert_eq!(
        modes_twice.into_iter().collect::<Vec<_>>(),
        ["AtLeastOnce"],
        "only at-least-once counts twice on FIFO channels"
    );
    assert!(
        none_restored > 0,
        "some failures come before any checkpoint"
    );
}
