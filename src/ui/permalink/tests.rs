use super::*;
use crate::engine::ActionError;
use crate::scenario::presets;

#[test]
fn every_action_round_trips_through_the_code() {
    let actions = [
        Action::Deliver { channel: 3 },
        Action::DeliverNth { channel: 2, nth: 4 },
        Action::Replay { task: 2 },
        Action::Emit { task: 0 },
        Action::Trigger,
        Action::Savepoint,
        Action::Expire { checkpoint: 7 },
        Action::TimeOutAlignment { checkpoint: 2 },
        Action::SnapshotAll { checkpoint: 3 },
        Action::Pause {
            channel: 1,
            paused: true,
        },
        Action::SetLatency {
            channel: 1,
            latency: 48,
        },
        Action::Initiate { task: 1 },
        Action::SetFifo {
            channel: 2,
            fifo: false,
        },
        Action::Fail { task: 5 },
        Action::FailJob,
        Action::Restart,
        Action::SkipFailure { task: 5 },
    ];
    // Every other step chosen by hand; the last one after `upto`, so it is left out.
    let chosen: Vec<(u64, Action)> = actions
        .iter()
        .enumerate()
        .map(|(i, &a)| (2 * i as u64 + 1, a))
        .collect();
    let upto = 2 * actions.len() as u64 - 1;
    let text = encode_choices(&chosen, upto);
    let back = decode_choices(&text).unwrap();
    assert_eq!(back, chosen[..chosen.len() - 1], "{text}");
}

/// The parameters of a written link, as the address would hand them back (values
/// percent-decoded).
fn link_params(query: &str) -> LinkParams {
    let decode = |v: &str| {
        let mut out = Vec::new();
        let b = v.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                out.push(u8::from_str_radix(&v[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(b[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    };
    let mut p = LinkParams::default();
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let v = Some(decode(v));
        match k {
            "step" => p.step = v,
            "choices" => p.choices = v,
            "open" => p.open = v,
            "sel" => p.sel = v,
            "panel" => p.panel = v,
            "cut" => p.cut = v,
            _ => {}
        }
    }
    p
}

#[test]
fn a_written_moment_reads_back_as_the_same_moment() {
    let mut run = Run::new(presets::wordcount()).unwrap();
    run.apply(Action::Trigger).unwrap();
    for _ in 0..300 {
        run.forward();
    }
    let open = run.sim().coordinator().checkpoints().first().map(|c| c.id);
    let count = run.sim().physical().task_by_name("Count#1").unwrap();
    for (selection, tab) in [
        (Some(Selection::Task(count)), Tab::Checkpoints),
        (Some(Selection::Channel(0)), Tab::Details),
        (None, Tab::Coordinator),
    ] {
        let q = query(
            &run,
            None,
            "aligned",
            "en",
            Shown {
                selection,
                tab,
                open,
                cut: None,
            },
        );
        let m = Moment::parse(&link_params(&q)).unwrap();
        assert_eq!(m.step, run.position(), "{q}");
        assert_eq!(m.choices, vec![(0, Action::Trigger)], "{q}");
        assert_eq!(m.open, open, "{q}");
        assert_eq!(m.tab, Some(tab), "{q}");
        let phys = run.sim().physical();
        let back = m.select.as_deref().and_then(|n| selection_by_name(phys, n));
        assert_eq!(back, selection, "{q}");
    }
}

#[test]
fn what_a_moment_names_that_cannot_be_read_is_listed_as_ignored() {
    let bad_step = LinkParams {
        step: Some("abc".into()),
        choices: Some("3t".into()),
        ..LinkParams::default()
    };
    let m = Moment::parse(&bad_step).unwrap();
    assert_eq!(m.step, 0);
    assert_eq!(m.choices, [(3, Action::Trigger)]);
    assert_eq!(m.ignored, [Ignored::Step("abc".into())]);
    let ignored = LinkParams {
        open: Some("seven".into()),
        panel: Some("sideways".into()),
        ..LinkParams::default()
    };
    let m = Moment::parse(&ignored).unwrap();
    assert_eq!((m.step, m.open, m.tab), (0, None, None));
    assert_eq!(
        m.ignored,
        [
            Ignored::Open("seven".into()),
            Ignored::Panel("sideways".into())
        ]
    );
    // A step too large for a number is the furthest there is, not an error.
    for (text, step) in [("17", 17), ("18446744073709551616", u64::MAX)] {
        let m = Moment::parse(&LinkParams {
            step: Some(text.into()),
            ..LinkParams::default()
        })
        .unwrap();
        assert_eq!((m.step, m.ignored.len()), (step, 0), "{text}");
    }
    for bad in ["", "-1", "1e3", " 5", "5x"] {
        let m = Moment::parse(&LinkParams {
            step: Some(bad.into()),
            ..LinkParams::default()
        })
        .unwrap();
        assert_eq!(m.ignored, [Ignored::Step(bad.into())], "{bad:?}");
    }
    // Choices that cannot be read still make the link unusable: they are the moment.
    let bad_choices = LinkParams {
        choices: Some("12q9".into()),
        ..LinkParams::default()
    };
    assert!(Moment::parse(&bad_choices).is_err());
    for tab in [Tab::Checkpoints, Tab::Coordinator, Tab::Details] {
        assert_eq!(tab_by_name(tab_name(tab)), Some(tab));
    }
}

#[test]
fn a_malformed_code_is_refused_naming_the_entry() {
    for bad in [
        "12",
        "d3",
        "12q3",
        "12d",
        "12d3-4",
        "12dx",
        "5t.3t",
        "12d99999999999",
    ] {
        let err = decode_choices(bad).unwrap_err();
        assert!(
            matches!(&err, LinkError::Choice(entry) if bad.contains(entry.as_str())),
            "{bad}: {err}"
        );
    }
    assert_eq!(decode_choices("").unwrap(), vec![]);
}

#[test]
fn a_link_replays_the_same_moment_with_its_choices() {
    let mut run = Run::new(presets::recovery()).unwrap();
    for _ in 0..40 {
        run.forward();
    }
    run.apply(Action::SkipFailure { task: 5 }).unwrap();
    for _ in 0..30 {
        run.forward();
    }
    run.apply(Action::Fail { task: 2 }).unwrap();
    for _ in 0..5 {
        run.forward();
    }
    let sel = Some(Selection::Task(5));
    let shown = Shown {
        selection: sel,
        tab: Tab::Checkpoints,
        open: Some(1),
        cut: None,
    };
    let q = query(&run, None, "aligned", "en", shown);
    assert!(q.starts_with("preset=recovery&"), "{q}");
    assert!(q.contains("step=77"), "{q}");
    assert!(q.contains("choices=40n5.71k2"), "{q}");
    assert!(q.contains("sel=t%3ACount%231"), "{q}");
    // The same moment from the link's parts.
    let mut again = Run::new(presets::recovery()).unwrap();
    replay(&mut again, 77, &decode_choices("40n5.71k2").unwrap()).unwrap();
    assert_eq!(again.position(), run.position());
    assert_eq!(again.sim().now(), run.sim().now());
    assert_eq!(again.sim().recoveries(), run.sim().recoveries());
    assert_eq!(
        selection_by_name(again.sim().physical(), "t:Count#1"),
        Some(Selection::Task(5))
    );
    // A choice the engine refuses is an error, not a different moment.
    let mut other = Run::new(presets::recovery()).unwrap();
    let err = replay(&mut other, 10, &[(3, Action::Restart)]).unwrap_err();
    assert_eq!(
        err,
        LinkError::ChoiceRefused {
            step: 3,
            error: ActionError::NotRestarting
        }
    );
    assert!(err.to_string().contains("step 3"), "{err}");
}

#[test]
fn an_edited_scenario_travels_whole_in_the_link() {
    let mut scenario = presets::wordcount();
    scenario.graph.operators[2].parallelism = 3;
    scenario.title = "Three counters & a sink".into();
    let run = Run::new(scenario.clone()).unwrap();
    // The code a link brought (compressed by the editor), and the one the student's build
    // writes for a scenario the host page sent (stored): each is passed on as it is, and each
    // reads back as the scenario.
    let json = scenario.to_json();
    for code in [
        crate::scenario::codec::encode(&scenario),
        crate::scenario::codec::stored(&json),
    ] {
        let shown = Shown {
            selection: None,
            tab: Tab::Details,
            open: None,
            cut: None,
        };
        let q = query(&run, Some(&code), "aligned", "en", shown);
        let carried = q
            .strip_prefix("scenario=")
            .and_then(|rest| rest.split('&').next())
            .unwrap();
        assert_eq!(carried, code);
        assert_eq!(
            crate::scenario::codec::decode(carried),
            Ok(scenario.clone())
        );
        assert!(!q.contains("preset="), "{q}");
    }
}

#[test]
fn a_speed_is_a_positive_decimal() {
    assert_eq!(parse_speed("2"), Some(2.0));
    assert_eq!(parse_speed("0.5"), Some(0.5));
    assert_eq!(parse_speed(".25"), Some(0.25));
    assert_eq!(parse_speed("4."), Some(4.0));
    for bad in ["", ".", "0", "-1", "1e3", "fast", "1.2.3", "9999999", "NaN"] {
        assert_eq!(parse_speed(bad), None, "{bad}");
    }
}

#[test]
fn selections_are_named_as_the_page_names_them() {
    let run = Run::new(presets::alignment()).unwrap();
    let phys = run.sim().physical();
    for c in 0..phys.channel_count() {
        let name = selection_name(phys, Some(Selection::Channel(c))).unwrap();
        assert_eq!(selection_by_name(phys, &name), Some(Selection::Channel(c)));
    }
    assert_eq!(selection_by_name(phys, "t:Nope#0"), None);
    assert_eq!(selection_by_name(phys, "zz"), None);
    // The second player's cards and bands: an operator by name, an edge by index.
    for o in 0..phys.graph.operators.len() as u32 {
        let name = selection_name(phys, Some(Selection::Operator(o))).unwrap();
        assert_eq!(
            selection_by_name(phys, &name),
            Some(Selection::Operator(o)),
            "{name}"
        );
    }
    let edges = phys.operator_edges.len() as u32;
    for e in 0..edges {
        let name = selection_name(phys, Some(Selection::Edge(e))).unwrap();
        assert_eq!(name, format!("e:{e}"));
        assert_eq!(selection_by_name(phys, &name), Some(Selection::Edge(e)));
    }
    assert_eq!(selection_by_name(phys, &format!("e:{edges}")), None);
    assert_eq!(selection_by_name(phys, "o:Nope"), None);
    assert_eq!(selection_by_name(phys, "e:x"), None);
}

#[test]
fn a_placed_cut_travels_in_the_link_and_a_malformed_one_is_named_and_left_out() {
    let run = Run::new(presets::token()).unwrap();
    let shown = Shown {
        selection: None,
        tab: Tab::Details,
        open: None,
        cut: Some(&[12, 40]),
    };
    let q = query(&run, None, "chandy-lamport", "en", shown);
    assert!(q.ends_with("&cut=12.40"), "{q}");
    let m = Moment::parse(&link_params(&q)).unwrap();
    assert_eq!(m.cut, Some(vec![12, 40]));
    assert!(m.ignored.is_empty(), "{:?}", m.ignored);
    let bad = LinkParams {
        cut: Some("12.x".into()),
        ..LinkParams::default()
    };
    let m = Moment::parse(&bad).unwrap();
    assert_eq!(m.cut, None);
    assert_eq!(m.ignored, [Ignored::Cut("12.x".into())]);
}
