use super::*;
use crate::scenario::presets;

fn phys(name: &str) -> Physical {
    presets::by_name(name)
        .unwrap()
        .simulation()
        .unwrap()
        .physical()
        .clone()
}

#[test]
fn layers_follow_the_longest_path() {
    // Sentences → Split → Count → Sink: one layer each, whatever the edge order.
    let p = phys("wordcount");
    assert_eq!(p.layers, vec![0, 1, 2, 3]);
    // Src A and Src B both feed Merge: both in layer 0, Merge 1, Sink 2.
    assert_eq!(phys("alignment").layers, vec![0, 0, 1, 2]);
}

#[test]
fn the_alignment_preset_reads_left_to_right() {
    let p = phys("alignment");
    let l = layout(&p);
    assert!(l.detailed);
    let x = |name: &str| {
        let i = p
            .graph
            .operators
            .iter()
            .position(|o| o.name == name)
            .unwrap();
        l.operators[i].rect
    };
    assert_eq!(x("Src A").x, x("Src B").x);
    assert!(
        x("Src A").y + x("Src A").h < x("Src B").y,
        "sources stacked"
    );
    assert!(x("Src A").x < x("Merge").x && x("Merge").x < x("Sink").x);
    // Every box and channel lies inside the view box.
    for s in &l.subtasks {
        assert!(s.rect.x >= 0.0 && s.rect.x + s.rect.w <= l.width);
        assert!(s.rect.y >= 0.0 && s.rect.y + s.rect.h <= l.height);
    }
    // Channels end on the receiver's input ports, in input order, top to bottom.
    let merge = p.task_by_name("Merge#0").unwrap() as usize;
    let ports = &l.subtasks[merge].inputs;
    assert_eq!(ports.len(), 2);
    assert!(ports[0].y < ports[1].y);
    for (c, info) in p.channels.iter().enumerate() {
        let path = &l.channels[c];
        assert_eq!(
            path.to,
            l.subtasks[info.to as usize].inputs[info.input_index as usize]
        );
        assert_eq!(path.from, l.subtasks[info.from as usize].output);
        assert!(path.tail_len() > 0.0 && path.curve_len > 0.0);
    }
}

#[test]
fn the_large_preset_is_compact_and_fits() {
    let p = phys("large");
    let l = layout(&p);
    assert!(!l.detailed);
    assert_eq!(l.subtasks.len(), 200);
    assert!(
        l.width < 1400.0 && l.height < 1000.0,
        "{}×{}",
        l.width,
        l.height
    );
    // Subtasks of one operator do not overlap.
    for ts in &p.operator_tasks {
        for w in ts.windows(2) {
            let (a, b) = (
                l.subtasks[w[0] as usize].rect,
                l.subtasks[w[1] as usize].rect,
            );
            assert!(a.y + a.h <= b.y);
        }
    }
}

#[test]
fn points_along_a_channel_run_from_port_to_port() {
    let path = ChannelPath::new(Point { x: 0.0, y: 0.0 }, Point { x: 200.0, y: 80.0 }, 50.0);
    assert_eq!(path.point_at(0.0), path.from);
    assert_eq!(path.point_at(path.length()), path.to);
    assert_eq!(path.point_at(1e9), path.to);
    // The middle of the curve is the middle between its ends (a symmetric curve).
    let mid = path.point_at(path.curve_len / 2.0);
    assert!((mid.x - 75.0).abs() < 1e-6 && (mid.y - 40.0).abs() < 1e-6);
    // Monotone in x.
    let xs: Vec<f64> = (0..=20)
        .map(|i| path.point_at(path.length() * i as f64 / 20.0).x)
        .collect();
    assert!(xs.windows(2).all(|w| w[0] <= w[1] + 1e-9));
    assert!(path.svg_d().starts_with("M0 0C"));
}

#[test]
fn items_move_at_constant_speed_and_wait_in_a_row_at_the_port() {
    // Sent at 0, arrives at 10: half-way at 5.
    assert_eq!(item_offsets([(0, 10)], 5.0, 100.0, 10.0), vec![50.0]);
    // Arrived: at the port end, less half a spacing.
    assert_eq!(item_offsets([(0, 10)], 20.0, 100.0, 10.0), vec![95.0]);
    // Three arrived items queue up behind each other.
    assert_eq!(
        item_offsets([(0, 10), (1, 11), (2, 12)], 30.0, 100.0, 10.0),
        vec![95.0, 85.0, 75.0]
    );
    // Not yet sent (a past view) stays at the sender; zero latency is at the port.
    assert_eq!(item_offsets([(10, 20)], 0.0, 100.0, 10.0), vec![0.0]);
    assert_eq!(item_offsets([(5, 5)], 5.0, 100.0, 10.0), vec![95.0]);
    // A very long queue never goes behind the sender.
    let many = item_offsets((0..50).map(|i| (0, i)), 100.0, 100.0, 10.0);
    assert!(many.iter().all(|&d| d >= 0.0));
}

#[test]
fn held_items_fill_a_row_beside_the_port() {
    let path = ChannelPath::new(Point { x: 0.0, y: 0.0 }, Point { x: 300.0, y: 0.0 }, 84.0);
    let m = DETAILED;
    let cap = held_capacity(&path, &m);
    assert!(cap >= 5);
    let first = held_slot(&path, 0, &m).unwrap();
    let second = held_slot(&path, 1, &m).unwrap();
    assert!(second.x < first.x, "the row grows away from the port");
    assert!(first.x + first.w < path.to.x && first.y + first.h < path.to.y);
    assert!(held_slot(&path, cap, &m).is_none());
}

#[test]
fn the_typical_speed_is_the_median() {
    assert_eq!(typical_speed([1.0, 9.0, 2.0].into_iter()), 2.0);
    assert_eq!(typical_speed(std::iter::empty()), 0.0);
}

#[test]
fn fit_centres_and_inverts() {
    let f = fit(200.0, 100.0, 400.0, 400.0);
    assert_eq!(f.scale, 2.0);
    assert_eq!((f.dx, f.dy), (0.0, 100.0));
    assert_eq!(f.to_layout(200.0, 200.0), Point { x: 100.0, y: 50.0 });
    assert_eq!(fit(0.0, 1.0, 1.0, 1.0).scale, 1.0);
}

/// The word "blocked"'s size, in ems of the graph's font (`.blocked-label` in style.css).
const BLOCKED_FONT: f64 = super::SMALL_TEXT;
/// How far what is drawn at an input port reaches over its line (a barrier's number over
/// its bar, the alignment buffer's tray) and under it (a barrier's bar, the lock).
const PORT_ABOVE: f64 = 22.0;
const PORT_BELOW: f64 = 9.0;

/// The box the word "blocked" covers when `path`'s input is blocked (`text` is the word in
/// a language), its text reaching 0.75 em over its baseline and 0.25 em under it.
fn blocked_label_box(path: &ChannelPath, m: &Metrics, text: &str) -> Rect {
    let at = path.blocked_label_at();
    let f = BLOCKED_FONT * m.font;
    let w = text_width(text, f);
    Rect {
        x: at.x - w,
        y: at.y - 0.75 * f,
        w,
        h: f,
    }
}

fn overlap(a: Rect, b: Rect) -> bool {
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

#[test]
fn the_word_blocked_covers_no_other_input() {
    // In a mode that blocks inputs, every input of a subtask with two or more may be
    // blocked. Its word must stay clear of what every other input port draws on its tail
    // (items, a barrier and its number, the buffer), of its own port's buffer, lock and
    // waiting records, and in the view.
    for name in presets::NAMES {
        let blocks = presets::by_name(name)
            .unwrap()
            .modes()
            .iter()
            .any(|m| m.blocks_inputs());
        let p = phys(name);
        let l = layout(&p);
        if !l.detailed || !blocks {
            continue;
        }
        let m = l.metrics;
        for (c, info) in p.channels.iter().enumerate() {
            if p.tasks[info.to as usize].inputs.len() < 2 {
                continue;
            }
            let path = &l.channels[c];
            let to = path.to;
            for text in ["blocked", "阻塞"] {
                let label = blocked_label_box(path, &m, text);
                let what = format!("{name}: {} ({text})", p.channel_name(c as u32));
                assert!(
                    label.x >= 0.0 && label.y >= 0.0 && label.y + label.h <= l.height,
                    "{what}: outside the view {label:?}"
                );
                let own = Rect {
                    x: to.x - m.tail,
                    y: to.y - m.held - 5.0,
                    w: m.tail,
                    h: m.held + 5.0 + m.record_r,
                };
                assert!(
                    !overlap(label, own),
                    "{what}: covers its own port {label:?}"
                );
                for s in &l.subtasks {
                    for q in s.inputs.iter().filter(|&&q| q != to) {
                        let busy = Rect {
                            x: q.x - m.tail,
                            y: q.y - PORT_ABOVE,
                            w: m.tail,
                            h: PORT_ABOVE + PORT_BELOW,
                        };
                        assert!(!overlap(label, busy), "{what}: covers the port at {q:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_word_blocked_goes_under_the_lower_of_two_close_inputs() {
    // Word count's Count#0 (issue 22, step 238): its second input blocked, the word goes
    // under its tail, not over the first input's barrier and records.
    let p = phys("wordcount");
    let l = layout(&p);
    let count0 = p.task_by_name("Count#0").unwrap();
    let ins: Vec<&ChannelPath> = p
        .channels
        .iter()
        .enumerate()
        .filter(|(_, c)| c.to == count0)
        .map(|(i, _)| &l.channels[i])
        .collect();
    assert_eq!(ins.len(), 2);
    let (upper, lower) = if ins[0].to.y < ins[1].to.y {
        (ins[0], ins[1])
    } else {
        (ins[1], ins[0])
    };
    assert!(!upper.label_below && upper.blocked_label_at().y < upper.to.y);
    assert!(lower.label_below && lower.blocked_label_at().y > lower.to.y);
    // A lone input, and the first and middle ones of three, keep the word over the tail.
    assert!(!blocked_label_below(0, 1));
    assert!(!blocked_label_below(0, 3) && !blocked_label_below(1, 3));
    assert!(blocked_label_below(2, 3));
}

#[test]
fn an_operator_kind_that_would_collide_with_the_name_is_shortened() {
    assert_eq!(
        operator_kind_label("Merge", "union", 1, 160.0, 12.0),
        "union ×1"
    );
    assert_eq!(
        operator_kind_label("Sentences", "source", 40, 100.0, 10.0),
        "×40"
    );
    assert_eq!(
        operator_kind_label("Sentences", "source", 40, 70.0, 10.0),
        ""
    );
    // In the large preset every header keeps at least its parallelism.
    let phys = presets::large().simulation().unwrap();
    let l = layout(phys.physical());
    for (o, op) in phys.physical().graph.operators.iter().enumerate() {
        let w = l.operators[o].rect.w;
        let label =
            operator_kind_label(&op.name, "count by key", op.parallelism, w, l.metrics.font);
        assert!(label.ends_with("×40"), "{} ({w}): {label:?}", op.name);
    }
    // Chinese labels are about twice as wide per character.
    assert!(text_width("計數", 10.0) > text_width("ab", 10.0) * 1.5);
}

/// A job of real size is bundled: no channel has a path of its own (131,328 of them would be
/// megabytes), each edge is one band from card to card, and each subtask a cell of its
/// card's strip — inside the card, apart from its neighbours.
#[test]
fn the_huge_preset_is_drawn_as_cards_and_bands() {
    let p = crate::scenario::presets::huge().simulation().unwrap();
    let p = p.physical();
    let l = layout(p);
    assert!(l.bundled && !l.detailed);
    assert!(l.channels.is_empty());
    assert_eq!(l.bundles.len(), p.operator_edges.len());
    for (e, (band, stride)) in l.bundles.iter().enumerate() {
        let (f, t) = p.operator_edges[e];
        let (a, b) = (l.operators[f as usize].rect, l.operators[t as usize].rect);
        assert_eq!((band.from.x, band.to.x), (a.x + a.w, b.x));
        let n = p.channels.iter().filter(|c| c.edge as usize == e).count() as u32;
        // About a thousand of a band's channels have their items drawn, at most.
        assert!(n / stride <= 1_024 && *stride >= 1, "{n} / {stride}");
    }
    for (o, ts) in p.operator_tasks.iter().enumerate() {
        let card = l.operators[o].rect;
        for w in ts.windows(2) {
            let (x, y) = (
                l.subtasks[w[0] as usize].rect,
                l.subtasks[w[1] as usize].rect,
            );
            assert!(x.x + x.w <= y.x || x.y + x.h <= y.y, "{x:?} {y:?}");
        }
        for &t in ts {
            let r = l.subtasks[t as usize].rect;
            assert!(card.contains(Point { x: r.x, y: r.y }));
            assert!(card.contains(Point {
                x: r.x + r.w,
                y: r.y + r.h
            }));
        }
    }
    assert!(
        l.width < 1400.0 && l.height < 600.0,
        "{}×{}",
        l.width,
        l.height
    );
    // `large` (3,280 channels) is still drawn channel by channel.
    assert!(!layout(&phys("large")).bundled);
}

/// Bundled, a band that skips a layer arches over the cards between and a back-edge's band
/// loops under them, as channels do in the other drawings: neither runs through a card, and
/// both stay inside the drawing with room for their totals.
#[test]
fn bundled_bands_that_skip_a_layer_or_close_a_cycle_pass_around_the_cards() {
    let mut scenario = presets::huge();
    let g = &mut scenario.graph;
    let mut skip = g.edges[1].clone(); // Split → Count, hash
    skip.from = "Sentences".into();
    let mut back = g.edges[1].clone();
    (back.from, back.to) = ("Count".into(), "Split".into());
    g.edges.push(skip);
    g.edges.push(back);
    let p = Physical::build(&scenario.graph).unwrap();
    assert_eq!(p.back_edges, vec![4], "Count → Split closes a cycle");
    let l = layout(&p);
    assert!(l.bundled);
    let (mut arches, mut loops) = (0, 0);
    for (e, (band, _)) in l.bundles.iter().enumerate() {
        let (f, t) = p.operator_edges[e];
        let ends = [l.operators[f as usize].rect, l.operators[t as usize].rect];
        let others: Vec<Rect> = (0..l.operators.len())
            .filter(|&o| o != f as usize && o != t as usize)
            .map(|o| l.operators[o].rect)
            .collect();
        let (mut high, mut low) = (f64::MAX, f64::MIN);
        for i in 0..=200 {
            let at = band.point_at(band.length() * i as f64 / 200.0);
            (high, low) = (high.min(at.y), low.max(at.y));
            for r in &others {
                assert!(!r.contains(at), "band {e} runs through {r:?} at {at:?}");
            }
        }
        let (top, bottom) = (
            ends[0].y.min(ends[1].y),
            (ends[0].y + ends[0].h).max(ends[1].y + ends[1].h),
        );
        // Two lines of totals beyond an arch or a loop fit in the drawing.
        if high < top {
            arches += 1;
            assert!(
                high - BAND_LABEL >= 0.0,
                "band {e}'s totals above the drawing"
            );
        }
        if low > bottom {
            loops += 1;
            assert!(
                low + BAND_LABEL <= l.height,
                "band {e}'s totals below the drawing"
            );
        }
    }
    assert_eq!(
        (arches, loops),
        (1, 1),
        "Sentences → Count arches, Count → Split loops"
    );
}
