#!/usr/bin/env python3
"""The simulation against Flink (issue 23 section 4).

For wordcount, backpressure, backpressure with a slow sink and recovery, in aligned, unaligned
and at-least-once (and, with the slow sink, aligned with buffer debloating), without and with a
planned failure, runs the simulation (`abs-sim run --until-finished` on the scenario the
export wrote, so both run the same bounded log) and the exported job on a local Flink
(`abs-sim flink run`), prints one table, and checks what must hold in both:

- exactly-once modes end with the true counts (the failure-free simulation's), at-least-once
  never below them;
- under backpressure, unaligned checkpoints complete faster than aligned ones (medians, as a
  ratio within one run of the table, never absolute times), in both: checked on the
  backpressure preset with its sink slowed, where the backpressure is a queue in front of the
  barriers. The preset itself is slow only by its channel's latency, which Flink's network
  has not and which no barrier can overtake: its ratio is printed, and checked in the
  simulation only (docs/flink.md says why);
- persisted in-flight data only in unaligned checkpoints.

usage: flink_compare.py ABS_SIM WORK_DIR [SCENARIO...]   (ABS_FLINK_HOME must name Flink's jars;
       the scenarios default to all four)
Exit status 1 when a check fails (the table is printed first).
"""

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

def slow_sink_rebalanced(s):
    """The backpressure preset with a queue in front of its barriers on both sides: the sink
    takes 4 ticks a record while the sources send 2 records per 4 ticks. Every edge is
    rebalance (the preset's already are): over forward, rescale and broadcast edges barriers
    stay aligned even with unaligned checkpoints, in Flink and in the simulation."""
    for op in s["graph"]["operators"]:
        if op["kind"]["type"] == "sink":
            op["processing_time"] = 4
    for edge in s["graph"]["edges"]:
        edge["partitioning"] = "rebalance"


SCENARIOS = {
    # name: (the preset, extra export arguments, the planned failure of the "with a failure"
    # runs, a change made to the preset or None)
    "wordcount": ("wordcount", ["--passes", "6"], "Count#1@200", None),
    "backpressure": ("backpressure", ["--passes", "25"], "Merge#0@300", None),
    "backpressure-slow-sink": ("backpressure", ["--passes", "25"], "Merge#0@300", slow_sink_rebalanced),
    "recovery": ("recovery", [], None, None),  # its own: Count#1 at tick 120
}
MODES = ["aligned", "unaligned", "at-least-once"]
# Where the backpressure is a queue in front of the barriers, aligned with buffer debloating
# too (FLIP-183: the scenario's `buffer_debloat`, exported as Flink's own settings).
DEBLOAT = "aligned-debloat"
DEBLOATED = {"backpressure-slow-sink"}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def scenario_file(abs_sim, name, work, failure):
    """The preset as a file, with or without a planned failure."""
    preset, _, planned, change = SCENARIOS[name]
    s = json.loads(run([abs_sim, "preset", preset], check=True).stdout)
    if change is not None:
        change(s)
    s["failures"] = [] if failure is None else s.get("failures", [])
    if failure is True and not s["failures"]:
        task, at = planned.split("@")
        s["failures"] = [{"task": task, "at": int(at)}]
    path = work / f"{name}-{'fail' if failure else 'nofail'}.json"
    path.write_text(json.dumps(s))
    return path


def simulate(abs_sim, scenario_json):
    """Completed checkpoints' durations and persisted bytes, and the final counts."""
    out = run([abs_sim, "run", str(scenario_json), "--until-finished"], check=True).stdout
    triggered, durations = {}, {}
    lines = out.splitlines()
    for line in lines[:-1]:
        step = json.loads(line)
        for e in step.get("events", []):
            if e["event"] == "checkpoint-triggered":
                triggered[e["checkpoint"]] = step["time"]
            elif e["event"] == "checkpoint-completed" and e["checkpoint"] in triggered:
                durations[e["checkpoint"]] = step["time"] - triggered[e["checkpoint"]]
    summary = json.loads(lines[-1])["summary"]
    done = [c for c in summary["checkpoints"] if c["status"].get("status") == "completed"]
    return {
        "completed": len(done),
        "durations": [durations[c["id"]] for c in done if c["id"] in durations],
        "in_flight": sum(c.get("persisted_in_flight", 0) for c in done),
        "counts": summary["final"]["counts"],
    }


def flink(abs_sim, scenario_json, mode, bundle):
    t = time.time()
    r = run([abs_sim, "flink", "run", str(scenario_json), "--mode", mode, "--passes", "1",
             "--timeout", "240", "--out", str(bundle)])
    if r.returncode != 0:
        sys.exit(f"flink run {scenario_json.name} {mode} failed: {r.stderr.strip().splitlines()[-1]}")
    b = json.loads(bundle.read_text())
    done = [h for h in b["checkpoints"]["history"] if h["status"] == "COMPLETED"]
    return {
        "completed": len(done),
        "durations": [h["end_to_end_duration"] for h in done],
        "in_flight": sum(h.get("persisted_data", 0) for h in done),
        "counts": b["final"]["counts"],
        "wall": time.time() - t,
    }


def median(xs):
    return statistics.median(xs) if xs else None


def verdict(counts, truth, exactly_once):
    if exactly_once:
        return "exact" if counts == truth else "WRONG"
    if any(counts.get(w, 0) < n for w, n in truth.items()):
        return "BELOW"
    return "exact" if counts == truth else "over"


def main():
    abs_sim, work = sys.argv[1], Path(sys.argv[2])
    chosen = sys.argv[3:] or list(SCENARIOS)
    unknown = [n for n in chosen if n not in SCENARIOS]
    if unknown:
        sys.exit(f"no scenario named {unknown[0]}: choose from {', '.join(SCENARIOS)}")
    work.mkdir(parents=True, exist_ok=True)
    rows, problems, started = [], [], time.time()
    for name in chosen:
        extra = SCENARIOS[name][1]
        for with_failure in (False, True):
            base = scenario_file(abs_sim, name, work, True if with_failure else None)
            # Export once per scenario to get the bounded log both sides run.
            job = work / f"{base.stem}-job"
            run([abs_sim, "flink", "export", str(base), *extra, "--out", str(job)], check=True)
            bounded = job / "scenario.json"
            truth_file = work / f"{base.stem}-truth.json"
            t = json.loads(bounded.read_text())
            t["failures"] = []
            truth_file.write_text(json.dumps(t))
            truth = simulate(abs_sim, truth_file)["counts"]
            aligned_median = {}
            for mode in MODES + ([DEBLOAT] if name in DEBLOATED else []):
                moded = work / f"{base.stem}-{mode}.json"
                m = json.loads(bounded.read_text())
                m["config"]["mode"] = "aligned" if mode == DEBLOAT else mode
                if mode == DEBLOAT:
                    m["config"]["buffer_debloat"] = True
                moded.write_text(json.dumps(m))
                sim = simulate(abs_sim, moded)
                flink_mode = "aligned" if mode == DEBLOAT else mode
                fl = flink(abs_sim, moded, flink_mode, work / f"{base.stem}-{mode}-run.json")
                row = {"scenario": name, "failure": with_failure, "mode": mode}
                for side, r in (("sim", sim), ("flink", fl)):
                    med = median(r["durations"])
                    if mode == "aligned":
                        aligned_median[side] = med
                    ref = aligned_median.get(side)
                    row[side] = {
                        "counts": verdict(r["counts"], truth, mode != "at-least-once"),
                        "completed": r["completed"],
                        "median": med,
                        "ratio": (med / ref) if med is not None and ref else None,
                        "in_flight": r["in_flight"],
                    }
                    if row[side]["counts"] in ("WRONG", "BELOW"):
                        problems.append(f"{name} {mode} failure={with_failure}: {side} counts {row[side]['counts']}")
                    if mode != "unaligned" and r["in_flight"] > 0:
                        problems.append(f"{name} {mode}: {side} persisted {r['in_flight']} B in flight")
                row["wall"] = fl["wall"]
                rows.append(row)
    # Under backpressure, unaligned checkpoints complete faster than aligned ones: in both
    # with a slow sink (a queue in front of the barriers); in the simulation alone where the
    # preset is slow only by latency (docs/flink.md says why).
    for name, sides in (("backpressure-slow-sink", ("sim", "flink")), ("backpressure", ("sim",))):
        for r in rows:
            if r["scenario"] != name or r["failure"] or r["mode"] != "unaligned":
                continue
            for side in sides:
                ratio = r[side]["ratio"]
                if ratio is None or ratio >= 1:
                    problems.append(f"{name}: {side}'s unaligned checkpoints are not faster than aligned ({ratio})")

    # Debloating shortens aligned checkpoints where records queue ahead of the barriers: held
    # in the simulation; Flink's ratio is printed (a handful of checkpoints on a shared machine:
    # its median is a figure to read, not to hold; 0.67 and 0.77 when first measured).
    for r in rows:
        if r["mode"] == DEBLOAT and not r["failure"]:
            ratio = r["sim"]["ratio"]
            if ratio is None or ratio >= 1:
                problems.append(f"{r['scenario']}: the simulation's debloated aligned checkpoints are not faster ({ratio})")

    def cell(row, key, fmt):
        return " / ".join(fmt(row[s][key]) for s in ("sim", "flink"))

    num = lambda x: "–" if x is None else f"{x:.2f}"
    print("| scenario | failure | mode | counts (sim / Flink) | checkpoints completed | median ÷ aligned's | in-flight bytes | Flink wall s |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['scenario']} | {'yes' if r['failure'] else 'no'} | {r['mode']} | "
              f"{cell(r, 'counts', str)} | {cell(r, 'completed', str)} | {cell(r, 'ratio', num)} | "
              f"{cell(r, 'in_flight', str)} | {r['wall']:.1f} |")
    print(f"\n{len(rows)} runs in {time.time() - started:.0f} s")
    for p in problems:
        print("FAILED:", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
