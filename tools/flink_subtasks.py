"""The simulation against Flink, subtask by subtask (issue 48 section 1).

Each run, on each side, becomes a set of facts: per subtask, over the completed checkpoints
(savepoints apart), whether it ever reported `unaligned_checkpoint` (never, sometimes,
always), persisted in-flight data, or aligned for a while (`alignment_duration` above zero);
its attempt number at the end (how many failovers restarted it); per savepoint whether any
subtask reported it unaligned; per run which kinds of checkpoint completed, whether a
checkpoint completed after a task had finished, and whether the job was refused before it
started. Timing decides some of these in one checkpoint (did a record overtake?), so they
are read over all of a run's checkpoints.

`compare` lists every fact on which the two sides differ; `allowed` reads the differences
docs/flink.md lists (its table "Differences subtask by subtask": case, subtask, fact, the
simulation's value, Flink's, why), and a difference not listed there, or listed with other
values, fails `make test`.
"""

import fnmatch
import json
import re
from pathlib import Path


# A checkpoint triggered after the first task had finished completed (Flink's
# `checkpoints-after-tasks-finish`).
FINISHING = "completed, triggered after a task finished"


def _ever(values):
    values = list(values)
    if not values:
        return "–"
    if all(values):
        return "always"
    return "sometimes" if any(values) else "never"


def _yes(values):
    return "yes" if any(values) else "no"


def _subtask_facts(per_checkpoint, attempts):
    """per_checkpoint: [{subtask: (unaligned, persisted, alignment)}]; attempts: {subtask: n}."""
    names = sorted(set(attempts) | {n for c in per_checkpoint for n in c})
    facts = {}
    for n in names:
        rows = [c[n] for c in per_checkpoint if n in c]
        facts[n] = {
            "unaligned": _ever(r[0] for r in rows),
            "persisted": _yes(r[1] > 0 for r in rows) if rows else "–",
            "aligns": _yes(r[2] > 0 for r in rows) if rows else "–",
            "attempt": str(attempts.get(n, 0)),
        }
    return facts


def sim_facts(scenario, lines):
    """Facts of `abs-sim run`'s output (its JSON lines, the summary last) on `scenario`."""
    names = [f"{o['name']}#{i}" for o in scenario["graph"]["operators"]
             for i in range(o["parallelism"])]
    attempts = {n: 0 for n in names}
    finished_at, triggered_at = None, {}
    for line in lines[:-1]:
        step = json.loads(line)
        for e in step.get("events", []):
            if e["event"] == "failed":
                region = e.get("region")
                for t in (region if region is not None else range(len(names))):
                    attempts[names[t]] += 1
            elif e["event"] == "task-finished" and finished_at is None:
                finished_at = step["time"]
            elif e["event"] == "checkpoint-triggered":
                triggered_at[e["checkpoint"]] = step["time"]
    summary = json.loads(lines[-1])["summary"]
    done = [c for c in summary["checkpoints"] if c["status"].get("status") == "completed"]
    per_checkpoint = [
        {n: (s["unaligned_checkpoint"], s["persisted_data"], s["alignment_duration"])
         for n, s in c.get("subtasks", {}).items()}
        for c in done if c.get("kind", "checkpoint") == "checkpoint"
    ]
    savepoints = [c for c in done if c.get("kind") == "savepoint"]
    facts = _subtask_facts(per_checkpoint, attempts)
    facts["job"] = {
        "completed kinds": " + ".join(sorted({c.get("kind", "checkpoint") for c in done})) or "none",
        "savepoint unaligned": _yes(s["unaligned_checkpoint"] for c in savepoints
                                    for s in c.get("subtasks", {}).values()) if savepoints else "–",
        FINISHING: _yes(
            finished_at is not None and triggered_at.get(c["id"], -1) > finished_at
            for c in done if c.get("kind", "checkpoint") == "checkpoint"),
        "refused": "no",
    }
    return facts


def flink_facts(bundle):
    """Facts of `abs-sim flink run`'s bundle (its vertices named as the page names them)."""
    vertex_name = {}
    attempts, finished = {}, []
    for v in bundle.get("vertices", []):
        name = re.sub(r"^Source: ", "", v["name"])
        vertex_name[v["id"]] = name
        for s in v["subtasks"]:
            attempts[f"{name}#{s['subtask']}"] = s["attempt"]
            if s["status"] == "FINISHED" and s.get("end-time", -1) > 0:
                finished.append(s["end-time"])
    history = bundle["checkpoints"]["history"]
    details = bundle["checkpoints"].get("details", {})
    per_checkpoint, savepoint_unaligned, kinds = [], [], set()
    for h in history:
        if h["status"] != "COMPLETED":
            continue
        kinds.add("savepoint" if h["is_savepoint"] else "checkpoint")
        d = details.get(str(h["id"]), {})
        row = {}
        for vid, v in d.get("subtasks", {}).items():
            for s in v.get("subtasks", []):
                if s.get("status") != "completed":
                    continue
                name = f"{vertex_name.get(vid, vid)}#{s['index']}"
                a = s.get("alignment", {})
                row[name] = (s.get("unaligned_checkpoint", False), a.get("persisted", 0),
                             a.get("duration", 0))
        if h["is_savepoint"]:
            savepoint_unaligned.extend(u for u, _, _ in row.values())
        else:
            per_checkpoint.append(row)
    facts = _subtask_facts(per_checkpoint, attempts)
    first_finish = min(finished) if finished else None
    facts["job"] = {
        "completed kinds": " + ".join(sorted(kinds)) or "none",
        "savepoint unaligned": _yes(savepoint_unaligned)
        if "savepoint" in kinds else "–",
        FINISHING: _yes(
            first_finish is not None and h["trigger_timestamp"] > first_finish
            for h in history if h["status"] == "COMPLETED" and not h["is_savepoint"]),
        "refused": "no",
    }
    return facts


def without_finishing(facts):
    """The facts without the one about finishing: compared only where a source ends while
    the others run on (where every source ends at once, timing alone decides it)."""
    facts["job"] = {k: v for k, v in facts.get("job", {}).items() if k != FINISHING}
    return facts


def refused_facts():
    return {"job": {"refused": "yes"}}


def compare(case, sim, flink):
    """[(case, subtask, fact, sim's, Flink's)] for every fact on which the two differ."""
    out = []
    for subtask in sorted(set(sim) | set(flink)):
        a, b = sim.get(subtask, {}), flink.get(subtask, {})
        for fact in sorted(set(a) | set(b)):
            x, y = a.get(fact, "–"), b.get(fact, "–")
            if x != y:
                out.append((case, subtask, fact, x, y))
    return out


def allowed(doc: Path):
    """The differences docs/flink.md lists: {(case, subtask, fact): (sim's, Flink's)}."""
    rows, inside = {}, False
    for line in doc.read_text().splitlines():
        if line.startswith("### Differences subtask by subtask"):
            inside = True
            continue
        if inside and line.startswith("#"):
            break
        if not inside or not line.startswith("| ") or line.startswith("| case") or "---" in line:
            continue
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5:
            rows[(cells[0], cells[1], cells[2])] = (cells[3], cells[4])
    return rows


def matches(listed, difference):
    """Whether a difference is listed: a row whose case and subtask patterns (`*` for any
    text: `*-unaligned`, `Src *`) match, with the same fact and the same two values (`*`:
    either value, for a fact the docs say timing decides)."""
    case, subtask, fact, x, y = difference
    return any(fnmatch.fnmatchcase(case, c) and fnmatch.fnmatchcase(subtask, t) and f == fact
               and want[0] in ("*", x) and want[1] in ("*", y)
               for (c, t, f), want in listed.items())


def table(case_facts):
    """Markdown: one row per case and subtask, each fact as `sim / Flink`."""
    facts = ["unaligned", "persisted", "aligns", "attempt"]
    job = ["completed kinds", "savepoint unaligned", FINISHING, "refused"]
    lines = ["| case | subtask | " + " | ".join(facts) + " |",
             "|---|---|" + "---|" * len(facts)]
    for case, sim, fl in case_facts:
        for subtask in sorted(set(sim) | set(fl)):
            if subtask == "job":
                continue
            cells = []
            for f in facts:
                x, y = sim.get(subtask, {}).get(f, "–"), fl.get(subtask, {}).get(f, "–")
                cells.append(x if x == y else f"**{x} / {y}**")
            lines.append(f"| {case} | {subtask} | " + " | ".join(cells) + " |")
    lines += ["", "| case | " + " | ".join(job) + " |", "|---|" + "---|" * len(job)]
    for case, sim, fl in case_facts:
        cells = []
        for f in job:
            x, y = sim.get("job", {}).get(f, "–"), fl.get("job", {}).get(f, "–")
            cells.append(x if x == y else f"**{x} / {y}**")
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
