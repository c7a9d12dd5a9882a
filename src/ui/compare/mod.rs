//! The compare view (`?compare=aligned,unaligned,at-least-once`, in the second build): the
//! playground's scenario and seed once per mode, each drawn by the page's own dataflow, moving
//! together in virtual time, with charts on shared scales and a table of what each mode costs
//! (`engine::view::cost`, the figures of `abs-sim compare`).

pub mod chart;
pub mod lanes;
pub mod words;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use yew::prelude::*;

use crate::engine::view::percentile;
use crate::engine::BarrierMode;
use crate::i18n::Strings;
use crate::scenario::modes::in_mode;
use crate::scenario::modes::{bounded_input, input_time, overhead};
use crate::scenario::ALIGNED_TIMEOUT_MODE;
use crate::ui::components::dataflow::Dataflow;
use crate::ui::kit::{add_style, address};
use chart::{chart, chart_by, Line, COLOURS};
use lanes::{advance_all, Lane, BUCKET};
use words::Words;

const STYLE: &str = ".cmp-view{max-width:1400px;margin:0 auto;padding:.75rem 1rem}\
.cmp-view a{color:var(--accent)}\
.cmp-controls{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.5rem 0}\
.cmp-controls input[type=number]{width:7rem}\
.cmp-controls progress{width:12rem}\
.cmp-lanes{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(340px,100%),1fr));gap:.75rem}\
.cmp-lane{border:1px solid var(--line);border-radius:6px;padding:.25rem .5rem;background:var(--panel);min-width:0}\
.cmp-lane h2{font-size:1rem;margin:.2rem 0;display:flex;gap:.4rem;align-items:center}\
.cmp-lane .stage{flex:none;min-height:0;max-height:320px}.cmp-lane .stage svg.graph{position:relative;height:auto}\
.cmp-key{width:1.2rem;height:.4rem}\
.cmp-charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(320px,100%),1fr));gap:.75rem;margin:.75rem 0}\
.cmp-chart{margin:0}.cmp-chart figcaption{font-size:.85rem;font-weight:600}\
.cmp-chart svg{width:100%;height:auto;font:9px sans-serif;fill:currentColor}\
.cmp-chart .grid{stroke:var(--line)}.cmp-chart .axis{stroke:var(--line-strong)}\
.cmp-chart text{fill:var(--fg)}.cmp-chart .unit{fill:var(--muted)}\
.cmp-table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}\
.cmp-table th,.cmp-table td{border-bottom:1px solid var(--line);padding:.25rem .6rem;text-align:right}\
.cmp-table th:first-child,.cmp-table td:first-child{text-align:left}\
.cmp-scroll{overflow-x:auto}.cmp-error{color:var(--bad);font-weight:bold}\
.cmp-overhead .cmp-chart{max-width:520px}.cmp-overhead h2{font-size:1.1rem}";

/// Where some lane's barriers would overtake but Flink's partitioner rule keeps them aligned
/// (forward, rescale and broadcast edges): which modes, and the operators that take every
/// checkpoint aligned there. Empty when no lane has such an edge.
fn kept_aligned_note(
    w: Words,
    lanes: &[Lane],
    s: &Strings,
    scenario: &crate::scenario::Scenario,
) -> String {
    let mut modes = Vec::new();
    let mut operators: Vec<String> = Vec::new();
    for lane in lanes {
        let run = lane.run.0.borrow();
        let sim = run.sim();
        let phys = sim.physical();
        let mut kept = false;
        for (c, ch) in phys.channels.iter().enumerate() {
            if sim.kept_aligned(c as crate::engine::ChannelId).is_some() {
                kept = true;
                let name = phys.operator_of(ch.to).name.clone();
                if !operators.contains(&name) {
                    operators.push(name);
                }
            }
        }
        if kept {
            modes.push(w.quoted(&mode_title(s, scenario, &lane.name)));
        }
    }
    if modes.is_empty() {
        return String::new();
    }
    format!(
        r#"<p class="hint" data-testid="compare-kept-aligned">{}</p>"#,
        crate::ui::fmt::escape(&w.kept_aligned(&modes.join(", "), &operators.join(", ")))
    )
}

/// A lane's mode as the page's mode menu names it.
fn mode_title(s: &Strings, scenario: &crate::scenario::Scenario, name: &str) -> String {
    if name == ALIGNED_TIMEOUT_MODE {
        let t = in_mode(scenario, name)
            .ok()
            .and_then(|s| s.config.aligned_checkpoint_timeout)
            .unwrap_or(0);
        return (s.mode_aligned_timeout)(t);
    }
    if name == crate::scenario::ALIGNED_DEBLOAT_MODE {
        return s.mode_aligned_debloat.to_string();
    }
    name.parse::<BarrierMode>()
        .map_or_else(|_| name.to_string(), |m| (s.mode_name)(m).to_string())
}

/// A mode's colour key: an SVG swatch (a `style` attribute would be refused by the page's
/// content security policy).
fn key(colour: &str) -> String {
    format!(
        r#"<svg class="cmp-key" viewBox="0 0 12 4" aria-hidden="true"><rect width="12" height="4" rx="1" fill="{colour}"/></svg>"#
    )
}

/// Buckets a latency point is computed over (the records that reached a sink in them).
pub const LATENCY_WINDOW: usize = 5;

/// The latency chart's points from the records that reached a sink in each bucket: at each
/// bucket that has any, the mean (or, `p99`, the 99th percentile) of the records of the last
/// [`LATENCY_WINDOW`] buckets. One bucket's few records made a zigzag; the mean, not the
/// median, because with records from a fast and a slow input the median jumps between the two
/// as the window's mix changes.
fn latency_points(buckets: &[Vec<u32>], p99: bool) -> Vec<(f64, f64)> {
    let mid = |i: usize| (i as u64 * BUCKET + BUCKET / 2) as f64;
    (0..buckets.len())
        .filter(|&i| !buckets[i].is_empty())
        .map(|i| {
            let mut v: Vec<u64> = buckets[i.saturating_sub(LATENCY_WINDOW - 1)..=i]
                .iter()
                .flatten()
                .map(|&l| u64::from(l))
                .collect();
            let y = if p99 {
                percentile(&mut v, 99) as f64
            } else {
                v.iter().sum::<u64>() as f64 / v.len() as f64
            };
            (mid(i), y)
        })
        .collect()
}

/// The five charts of the lanes so far, as markup.
fn charts(w: Words, lanes: &[Lane], t: u64) -> String {
    let titles = w.charts();
    let (units, x_unit) = w.units();
    let mid = |i: usize| (i as u64 * BUCKET + BUCKET / 2) as f64;
    let mut figures: [Vec<Line>; 5] = Default::default();
    for (k, lane) in lanes.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let Some(s) = lane.cost.series() else {
            continue;
        };
        // The last bucket is still filling: drawn once complete.
        let full = s.sink.len().saturating_sub(1);
        // Earlier modes drawn wider, so a line the next mode's covers still shows at its
        // edges: identical series read as one line inside another.
        let width = 1.0 + 1.2 * (lanes.len() - 1 - k) as f64;
        let line = |points: Vec<(f64, f64)>, dots: bool, dashed: bool| Line {
            colour,
            width,
            points,
            dots,
            dashed,
        };
        figures[0].push(line(
            (0..full)
                .map(|i| (mid(i), f64::from(s.sink[i]) / BUCKET as f64))
                .collect(),
            false,
            false,
        ));
        for (p99, dashed) in [(false, false), (true, true)] {
            figures[1].push(line(latency_points(&s.latency[..full], p99), false, dashed));
        }
        figures[2].push(line(
            s.checkpoints
                .iter()
                .map(|&(at, d, _)| (at as f64, d as f64))
                .collect(),
            true,
            false,
        ));
        figures[3].push(line(
            (0..full).map(|i| (mid(i), f64::from(s.held[i]))).collect(),
            false,
            false,
        ));
        figures[4].push(line(
            s.checkpoints
                .iter()
                .map(|&(at, _, size)| (at as f64, size as f64))
                .collect(),
            true,
            false,
        ));
    }
    let ids = [
        "cmp-throughput",
        "cmp-latency",
        "cmp-duration",
        "cmp-held",
        "cmp-size",
    ];
    let mut o = String::new();
    for i in 0..5 {
        let c = chart(
            &titles[i],
            &units[i],
            t as f64,
            &x_unit,
            &figures[i],
            ids[i],
        );
        // An empty chart says what it waits for, instead of an axis from 0 to 1 that reads
        // as a measurement.
        o += &if figures[i].iter().all(|l| l.points.is_empty()) {
            chart::with_note(c, &w.waiting(i))
        } else {
            c
        };
    }
    o + &format!(r#"<p class="hint">{}</p>"#, w.coincide())
}

/// The checkpoint intervals the overhead is measured at, and the bounded input's lines per
/// source (`abs-sim overhead`'s defaults).
const INTERVALS: [u64; 6] = [10, 20, 50, 100, 200, 500];
const INPUT_LINES: usize = 400;

/// Per mode, the overhead in % at each of [`INTERVALS`]; or why it could not be measured.
type Overheads = Result<Vec<(String, Vec<f64>)>, String>;

/// The overhead figure as the ABS paper drew it: overhead (y) against the interval (x), a
/// line per mode; with the figures as `data-*` for tests.
fn overhead_view(w: Words, lanes: &[Lane], measured: Option<&Overheads>) -> Html {
    match measured {
        None => html! {},
        Some(Err(e)) => {
            html! { <p class="cmp-error" role="alert" data-testid="compare-overhead-error">{ e.clone() }</p> }
        }
        Some(Ok(rows)) => {
            let xs: Vec<String> = INTERVALS.iter().map(u64::to_string).collect();
            let lines: Vec<Line> = rows
                .iter()
                .map(|(name, cells)| {
                    let k = lanes.iter().position(|l| &l.name == name).unwrap_or(0);
                    Line {
                        colour: COLOURS[k % COLOURS.len()],
                        points: cells
                            .iter()
                            .enumerate()
                            .map(|(i, &o)| (i as f64, o.max(0.0)))
                            .collect(),
                        dots: false,
                        dashed: false,
                        width: 3.0 - 0.5 * k as f64,
                    }
                })
                .collect();
            let data: String = rows
                .iter()
                .map(|(name, cells)| {
                    let cells: Vec<String> = cells.iter().map(|o| format!("{o:.1}")).collect();
                    format!(
                        r#"<li data-mode="{name}" data-overhead="{}">{name}: {}</li>"#,
                        cells.join(" "),
                        cells
                            .iter()
                            .map(|c| format!("{c} %"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .collect();
            let markup =
                chart_by(
                    &w.overhead_title(),
                    "%",
                    &xs,
                    &w.interval_unit(),
                    &lines,
                    "cmp-overhead-chart",
                ) + &format!(r#"<ul class="hint" data-testid="compare-overheads">{data}</ul>"#);
            Html::from_html_unchecked(markup.into())
        }
    }
}

#[function_component(CompareView)]
pub fn compare_view() -> Html {
    use_effect_with((), |_| add_style(STYLE));
    let at = use_memo((), |_| address());
    let lang = crate::ui::kit::lang(at.lang.as_deref());
    let (w, s) = (Words(lang), lang.strings());
    let base = use_memo((), {
        let at = at.clone();
        move |_| at.playground_scenario()
    });
    let made = use_mut_ref(|| {
        let list = at.compare.clone().unwrap_or_default();
        match &*base {
            Ok(b) => lanes::lanes(&list, b).map_err(|e| w.error(&e)),
            Err(e) => Err((s.link_error)(e)),
        }
    });
    let update = use_force_update();
    // Virtual time the lanes are at; the last animation frame's timestamp while playing.
    let now = use_mut_ref(|| 0u64);
    let last_frame = use_mut_ref(|| None::<f64>);
    let playing = use_state(|| false);
    let speed = use_state(|| 16.0f64);
    let target = use_state(|| 2_000u64);
    let bad = use_state(|| false);
    let running = use_state(|| false);
    let stop = use_mut_ref(|| Rc::new(Cell::new(false)));
    let overheads = use_state(|| None::<Rc<Overheads>>);
    let measured = use_state(|| None::<(usize, usize)>);

    let back =
        html! { <p><a href={at.back.clone()} data-testid="compare-back">{ w.back() }</a></p> };
    let (title, scenario) = match &*base {
        Ok(b) => {
            let title = if at.scenario.is_none() {
                (s.preset_text)(&b.name).map_or(b.title.clone(), |(t, _)| t.to_string())
            } else {
                b.title.clone()
            };
            (title, b.clone())
        }
        Err(_) => (String::new(), crate::scenario::presets::alignment()),
    };
    // Which edges keep barriers aligned is settled when the lanes' runs are built: said once,
    // not worked out over every channel on every frame.
    let kept_note = use_memo((), {
        let (made, scenario) = (made.clone(), scenario.clone());
        move |_| match &*made.borrow() {
            Ok(lanes) => kept_aligned_note(w, lanes, s, &scenario),
            Err(_) => String::new(),
        }
    });
    if let Err(e) = &*made.borrow() {
        return html! {
            <main class="cmp-view" data-testid="compare">
                <h1>{ w.short_title() }</h1>
                { back }
                <p class="cmp-error" role="alert" data-testid="compare-error">{ e.clone() }</p>
            </main>
        };
    }

    // Playing: the first lane's dataflow calls this every animation frame; every lane moves on
    // by the same virtual time.
    let on_frame = {
        let (made, now, last_frame, update) = (
            made.clone(),
            now.clone(),
            last_frame.clone(),
            update.clone(),
        );
        let (playing, speed) = (*playing, *speed);
        Callback::from(move |ts: f64| {
            let mut last = last_frame.borrow_mut();
            if !playing {
                *last = None;
                return;
            }
            let dt = last.map_or(0.0, |l| (ts - l).clamp(0.0, 100.0));
            *last = Some(ts);
            let advance = (dt / 1000.0 * speed * crate::ui::run::TIME_PER_SECOND).round() as u64;
            if advance == 0 {
                return;
            }
            let mut t = now.borrow_mut();
            *t += advance;
            if let Ok(lanes) = &mut *made.borrow_mut() {
                advance_all(lanes, *t, 5_000);
            }
            update.force_update();
        })
    };
    let toggle = {
        let playing = playing.clone();
        Callback::from(move |_: MouseEvent| playing.set(!*playing))
    };
    let on_speed = {
        let speed = speed.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|s| s.value().parse::<f64>().ok())
            {
                speed.set(v);
            }
        })
    };
    let on_target = {
        let (target, bad) = (target.clone(), bad.clone());
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            match input.value().trim().parse::<u64>() {
                Ok(n) if (1..=1_000_000).contains(&n) => {
                    target.set(n);
                    bad.set(false);
                }
                _ => bad.set(true),
            }
        })
    };
    // Runs every lane to the target time in slices of about 30 ms, the page answering between.
    let run_to = {
        let (made, now, update, running, playing) = (
            made.clone(),
            now.clone(),
            update.clone(),
            running.clone(),
            playing.clone(),
        );
        let stop = stop.borrow().clone();
        let goal = *target;
        Callback::from(move |_: MouseEvent| {
            playing.set(false);
            running.set(true);
            stop.set(false);
            let (made, now, update, running, stop) = (
                made.clone(),
                now.clone(),
                update.clone(),
                running.clone(),
                stop.clone(),
            );
            yew::platform::spawn_local(async move {
                loop {
                    let slice = js_sys::Date::now();
                    let mut going = true;
                    while going && js_sys::Date::now() - slice < 30.0 {
                        let mut t = now.borrow_mut();
                        if *t >= goal {
                            going = false;
                            break;
                        }
                        *t = (*t + BUCKET).min(goal);
                        if let Ok(lanes) = &mut *made.borrow_mut() {
                            going = advance_all(lanes, *t, 1_000_000);
                        }
                    }
                    update.force_update();
                    if !going || stop.get() || *now.borrow() >= goal {
                        running.set(false);
                        return;
                    }
                    yew::platform::time::sleep(Duration::ZERO).await;
                }
            });
        })
    };
    // The overhead against the interval, mode by mode, one run at a time between slices.
    let measure = {
        let (overheads, measured) = (overheads.clone(), measured.clone());
        let names: Vec<String> = match &*made.borrow() {
            Ok(lanes) => lanes.iter().map(|l| l.name.clone()).collect(),
            Err(_) => Vec::new(),
        };
        let base = scenario.clone();
        Callback::from(move |_: MouseEvent| {
            let (overheads, measured, names, base) = (
                overheads.clone(),
                measured.clone(),
                names.clone(),
                base.clone(),
            );
            yew::platform::spawn_local(async move {
                let total = names.len() * (INTERVALS.len() + 1);
                let mut done = 0;
                measured.set(Some((0, total)));
                let mut rows = Vec::new();
                let input = match bounded_input(&base, INPUT_LINES) {
                    Ok(i) => i,
                    Err(e) => {
                        overheads.set(Some(Rc::new(Err(e))));
                        measured.set(None);
                        return;
                    }
                };
                for name in names {
                    let mut times = Vec::new();
                    for interval in std::iter::once(None).chain(INTERVALS.map(Some)) {
                        match input_time(&input, &name, interval) {
                            Ok(t) => times.push(t),
                            Err(e) => {
                                overheads.set(Some(Rc::new(Err(e))));
                                measured.set(None);
                                return;
                            }
                        }
                        done += 1;
                        measured.set(Some((done, total)));
                        yew::platform::time::sleep(Duration::ZERO).await;
                    }
                    let without = times[0];
                    rows.push((
                        name,
                        times[1..].iter().map(|&t| overhead(t, without)).collect(),
                    ));
                }
                overheads.set(Some(Rc::new(Ok(rows))));
                measured.set(None);
            });
        })
    };
    let on_stop = {
        let stop = stop.borrow().clone();
        Callback::from(move |_: MouseEvent| stop.set(true))
    };

    let t = *now.borrow();
    let made_ref = made.borrow();
    let Ok(lanes) = &*made_ref else {
        return html! {};
    };
    let ended = lanes.iter().all(Lane::ended);
    let noop_sel = Callback::from(|_| ());
    let lane_views = lanes.iter().enumerate().map(|(k, lane)| {
        let colour = COLOURS[k % COLOURS.len()];
        let on_frame = if k == 0 { on_frame.clone() } else { Callback::from(|_| ()) };
        html! {
            <section class="cmp-lane" data-testid={format!("compare-lane-{}", lane.name)} data-time={lane.now().to_string()}>
                <h2>{ Html::from_html_unchecked(key(colour).into()) }{ mode_title(s, &scenario, &lane.name) }</h2>
                <Dataflow run={lane.run.clone()} version={t} selection={None} manual={false} {lang}
                    on_select={noop_sel.clone()} on_deliver={Callback::from(|_| ())} on_poke={Callback::from(|_| ())} {on_frame} />
            </section>
        }
    });
    let heads = w.columns();
    let rows: String = lanes
        .iter()
        .enumerate()
        .map(|(k, lane)| {
            let f = lane.figures();
            // A figure nothing has measured yet reads "–", not 0: no time has passed, no
            // record has reached a sink, no checkpoint has completed, no failure happened.
            let dash = || "–".to_string();
            let started = f.time > 0;
            let arrived = f.sink_records > 0;
            let completed = f.checkpoints_completed > 0;
            let shown = |yes: bool, v: String| if yes { v } else { dash() };
            let failed = !lane.run.0.borrow().sim().recoveries().is_empty();
            format!(
                r#"<tr data-mode="{}" data-throughput="{:.3}" data-latency-p50="{}" data-latency-p99="{}" data-checkpoints="{}" data-duration-p50="{}" data-size-p50="{}" data-duplicates="{}"><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
                lane.name,
                f.throughput,
                f.latency_p50,
                f.latency_p99,
                f.checkpoints_completed,
                f.checkpoint_duration_p50,
                f.checkpoint_size_p50,
                f.duplicates,
                key(COLOURS[k % COLOURS.len()]),
                crate::ui::fmt::escape(&mode_title(s, &scenario, &lane.name)),
                shown(started, format!("{:.3}", f.throughput)),
                shown(arrived, f.latency_p50.to_string()),
                shown(arrived, f.latency_p99.to_string()),
                shown(started, f.checkpoints_completed.to_string()),
                shown(completed, f.checkpoint_duration_p50.to_string()),
                shown(completed, f.checkpoint_size_p50.to_string()),
                if failed { f.duplicates.to_string() } else { w.no_failure() },
            )
        })
        .collect();
    let head: String = heads
        .iter()
        .map(|h| format!("<th scope=\"col\">{h}</th>"))
        .collect();
    let table = format!(
        r#"<div class="cmp-scroll"><table class="cmp-table" data-testid="compare-table"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div><p class="hint">{}</p>{}"#,
        w.not_measured(),
        kept_note,
    );
    let speeds = [1.0, 4.0, 16.0, 64.0].map(|v| {
        html! { <option value={v.to_string()} selected={v == *speed}>{ format!("{v}×") }</option> }
    });
    let progress = (*target).max(1);
    html! {
        <main class="cmp-view" data-testid="compare" data-time={t.to_string()}>
            <h1>{ w.title(&title) }</h1>
            { back }
            <p class="hint">{ w.intro() }</p>
            <div class="cmp-controls">
                <button onclick={toggle} disabled={*running} data-testid="compare-play">{ if *playing { w.pause() } else { w.play() } }</button>
                <label>{ w.speed() }{ " " }<select onchange={on_speed} data-testid="compare-speed">{ for speeds }</select></label>
                <label>{ w.run_to() }{ " " }<input type="number" min="1" max="1000000" value={target.to_string()}
                    onchange={on_target} data-testid="compare-target" /></label>
                <button onclick={run_to} disabled={*running || *bad} data-testid="compare-run">{ w.run() }</button>
                <button onclick={on_stop} disabled={!*running} data-testid="compare-stop">{ w.stop() }</button>
                <progress data-testid="compare-progress" max={progress.to_string()} value={t.min(progress).to_string()} />
                <span role="status" data-testid="compare-time" data-ended={ended.to_string()}>{
                    if ended { w.ended(lanes.iter().map(Lane::now).max().unwrap_or(t)) } else { w.now(t) }
                }</span>
            </div>
            if *bad {
                <p class="cmp-error" role="alert" data-testid="compare-error">{ w.bad_time() }</p>
            }
            <div class="cmp-lanes">{ for lane_views }</div>
            { Html::from_html_unchecked(format!(r#"<div class="cmp-charts">{}</div>{table}"#, charts(w, lanes, t)).into()) }
            <section class="cmp-overhead" data-testid="compare-overhead">
                <h2>{ w.overhead_title() }</h2>
                <p class="hint">{ w.overhead_hint(INPUT_LINES) }</p>
                <p>
                    <button onclick={measure} disabled={measured.is_some()} data-testid="compare-measure">{ w.measure() }</button>
                    if let Some((done, total)) = *measured {
                        { " " }<progress max={total.to_string()} value={done.to_string()} data-testid="compare-measure-progress" />
                    }
                </p>
                { overhead_view(w, lanes, overheads.as_deref()) }
            </section>
        </main>
    }
}

#[cfg(test)]
mod tests;
