use abs_playground::engine::Action;
use abs_playground::lesson::{reveal, Ask};
use abs_playground::scenario::presets;
#[test]
fn scratch() {
    for (name, mode) in [
        ("alignment", "at-least-once"),
        ("alignment", "unaligned"),
        ("token", "chandy-lamport"),
        ("recovery", "aligned"),
        ("recovery", "at-least-once"),
    ] {
        let sc = presets::by_name(name).unwrap();
        let m = mode.parse().unwrap();
        let mut sim = sc.with_mode(m).simulation().unwrap();
        let mut last = String::new();
        for _ in 0..130 {
            let c = reveal(&sim, &Ask::Consistent)
                .map(|r| format!("cons@{} {:?}", r.step, r.why))
                .unwrap_or_else(|e| format!("{e:?}"));
            let ev: Vec<String> = sim
                .last_events()
                .iter()
                .map(|e| format!("{e:?}").chars().take(70).collect())
                .collect();
            println!(
                "{name} {mode} step {}: {c} || {}",
                sim.steps(),
                ev.join(" ; ")
            );
            let _ = &mut last;
            if sim.step().is_none() {
                break;
            }
        }
    }
    // bank with every channel non-FIFO from the start
    let sc = presets::by_name("bank").unwrap();
    let mut sim = sc.simulation().unwrap();
    for c in 0..sim.channels().len() as u32 {
        sim.apply(Action::SetFifo {
            channel: c,
            fifo: false,
        })
        .unwrap();
    }
    println!("bank nonfifo after choices at step {}", sim.steps());
    let mut last = String::new();
    for _ in 0..2000 {
        let c = reveal(&sim, &Ask::Consistent)
            .map(|r| format!("cons@{} {:?}", r.step, r.why))
            .unwrap_or_else(|e| format!("{e:?}"));
        if c != last {
            println!("bank-nf step {}: {c}", sim.steps());
            last = c;
        }
        if sim.step().is_none() {
            break;
        }
    }
}
