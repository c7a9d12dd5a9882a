// The engine's own account of a run, independent of the page: `abs-sim run` (the release
// binary) prints one JSON line per step with its events, then a summary line. From the events
// alone this module works out what a completed checkpoint's global state must contain — every
// subtask's state and figures and every channel's recorded records — so the inspector's
// numbers can be checked against them.
const { execFileSync } = require('child_process');
const fs = require('fs');
const sites = require('./sites');

/** `abs-sim run --preset P --mode M --steps N`: { steps: [...], summary }. */
function runSim(preset, mode, steps) {
  if (!fs.existsSync(sites.absSim)) {
    throw new Error(`no abs-sim at ${sites.absSim}: build it with cargo build --release --bin abs-sim (or set ABS_SIM)`);
  }
  const out = execFileSync(sites.absSim,
    ['run', '--preset', preset, '--mode', mode, '--steps', String(steps)],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const lines = out.trim().split('\n').map((l) => JSON.parse(l));
  const summary = lines.pop().summary;
  if (!summary) throw new Error('abs-sim printed no summary line');
  return { steps: lines, summary };
}

/** Every event of the trace in order, each with its step, time and position `seq`. */
function events(trace) {
  const out = [];
  for (const line of trace.steps) {
    for (const e of line.events) out.push({ ...e, step: line.step, time: line.time, seq: out.length });
  }
  return out;
}

const recordOf = (item) => (item && item.record) || null;

/**
 * What kind of operator each task runs, from what it does in the trace: sources read lines,
 * counts take words in, sinks emit nothing; the rest are stateless.
 */
function taskKinds(evs, tasks) {
  const kinds = [];
  for (let t = 0; t < tasks; t++) {
    const mine = evs.filter((e) => e.task === t);
    const processed = mine.filter((e) => e.event === 'processed');
    if (mine.some((e) => e.event === 'source-read')) kinds.push('source');
    else if (processed.some((e) => 'word' in e.record.payload)) kinds.push('count');
    else if (processed.length && processed.every((e) => e.emitted === 0)) kinds.push('sink');
    else if (processed.length) kinds.push('stateless');
    else kinds.push('unknown'); // did nothing in the whole trace: its state must read 0
  }
  return kinds;
}

/**
 * The global state checkpoint `k` must have in `mode`, worked out from the events of a trace
 * that runs well past its completion (records overtaken by a priority barrier arrive after it).
 */
function expectedGlobalState(trace, k, mode) {
  const evs = events(trace);
  const find = (pred, what) => {
    const e = evs.find(pred);
    if (!e) throw new Error(`the trace has no ${what}`);
    return e;
  };
  const triggered = find((e) => e.event === 'checkpoint-triggered' && e.checkpoint === k, `trigger of ${k}`);
  const completed = find((e) => e.event === 'checkpoint-completed' && e.checkpoint === k, `completion of ${k}`);
  const tasks = find((e) => e.event === 'acknowledged', 'acknowledgement').total;
  const kinds = taskKinds(evs, tasks);
  const snapshots = new Map();
  const snapshotOf = (t) => {
    if (!snapshots.has(t)) {
      snapshots.set(t, find((e) => e.event === 'snapshot' && e.task === t && e.checkpoint === k,
        `snapshot of task ${t} for ${k}`));
    }
    return snapshots.get(t);
  };
  // Unaligned: the records a receiver saved itself, arriving after its snapshot and before
  // barrier k on their channel; and those a priority barrier k overtook when it arrived.
  const saved = evs.filter((e) => e.event === 'channel-state' && e.checkpoint === k);
  const overtook = evs.filter((e) => e.event === 'barrier-overtook' && e.checkpoint === k);
  const receiver = new Map(); // channel → the task it delivers to
  for (const e of evs) if (e.event === 'arrived') receiver.set(e.channel, e.task);

  const taskStates = [];
  for (let t = 0; t < tasks; t++) {
    const snap = snapshotOf(t);
    const before = evs.filter((e) => e.task === t && e.seq < snap.seq);
    const processed = before.filter((e) => e.event === 'processed');
    let state;
    let size;
    switch (kinds[t]) {
      case 'source': {
        // The next offset to read: one more than the last line read, as the snapshot says.
        const reads = before.filter((e) => e.event === 'source-read');
        state = { offset: reads.length };
        expectEq(snap.offset, reads.length, `offset in the snapshot of task ${t}`);
        size = 8;
        break;
      }
      case 'count': {
        const counts = new Map();
        for (const e of processed) counts.set(e.record.payload.word, (counts.get(e.record.payload.word) || 0) + 1);
        state = { keys: counts.size, counts: [...counts.values()].sort((a, b) => a - b) };
        size = 16 * counts.size;
        break;
      }
      case 'sink':
        state = { received: processed.length };
        size = 16 + 16 * Math.min(processed.length, 6); // the sink's state shows its latest 6
        break;
      default:
        state = { processed: processed.length };
        size = 8;
    }
    // Aligned only: from the barrier handler taking the first barrier k to the snapshot, and
    // the records that waited in the alignment buffer meanwhile.
    let alignment = 0;
    let held = 0;
    const first = before.find((e) => e.event === 'barrier' && e.checkpoint === k && e.take === 'first');
    if (mode === 'aligned' && first) {
      alignment = snap.time - Math.max(first.time, triggered.time);
      held = before.filter((e) => e.event === 'held' && e.seq > first.seq && recordOf(e.item)).length;
    }
    // Unaligned: the records barriers jumped over on its inputs, plus those it saved there;
    // each persisted record is 16 bytes of the checkpointed size.
    const persisted = overtook.filter((e) => receiver.get(e.channel) === t).reduce((a, e) => a + e.overtaken, 0)
      + saved.filter((e) => e.task === t).length;
    size += 16 * persisted;
    // When its first barrier k came after the trigger (0 for a source: the trigger is its
    // barrier), and when it acknowledged k.
    const startDelay = first ? Math.max(first.time - triggered.time, 0) : 0;
    const acked = find((e) => e.event === 'acknowledged' && e.task === t && e.checkpoint === k, `ack of ${k} by task ${t}`);
    taskStates.push({ task: t, kind: kinds[t], state, alignment, held, size, persisted, startDelay, ackTime: acked.time });
  }

  // Channel state, by channel: the records a priority barrier overtook there when it arrived,
  // plus the records the receiver saved. Each overtaken record must be one its sender made
  // before its snapshot (sent before the barrier) and must arrive after the barrier.
  const creator = new Map(); // record id → the event that made it
  for (const e of evs) {
    if (e.event === 'source-read') creator.set(e.record.id, e);
  }
  const processedAt = new Map(); // record id → its processing events (children name it as parent)
  for (const e of evs) {
    if (e.event === 'processed') {
      if (!processedAt.has(e.record.id)) processedAt.set(e.record.id, []);
      processedAt.get(e.record.id).push(e);
    }
  }
  const makerOf = (r) => {
    const made = r.parent === 0 ? [creator.get(r.id)] : processedAt.get(r.parent) || [];
    if (made.length !== 1 || !made[0]) throw new Error(`cannot tell who made record ${r.id}`);
    return made[0];
  };
  const channels = new Map(); // channel → recorded records
  for (const e of evs) {
    if (e.event === 'arrived' && !channels.has(e.channel)) channels.set(e.channel, 0);
  }
  const add = (c, n) => channels.set(c, (channels.get(c) || 0) + n);
  for (const jump of overtook) {
    add(jump.channel, jump.overtaken);
    // The next records to arrive on that channel after the barrier are the ones it jumped.
    const after = evs.filter((e) => e.event === 'arrived' && e.channel === jump.channel
      && e.seq > jump.seq && recordOf(e.item)).slice(0, jump.overtaken);
    if (after.length < jump.overtaken) continue; // the trace ends before they all arrive
    for (const e of after) {
      const made = makerOf(recordOf(e.item));
      if (made.seq > snapshotOf(made.task).seq) {
        throw new Error(`record ${recordOf(e.item).id} was made after its sender's snapshot ${k} but counted as overtaken`);
      }
    }
  }
  for (const e of saved) add(e.channel, 1);

  const sum = (f) => taskStates.reduce((a, s) => a + f(s), 0);
  return {
    checkpoint: k,
    completedAtStep: completed.step,
    consistent: completed.consistent,
    triggerTime: triggered.time,
    endToEnd: completed.time - triggered.time,
    alignment: Math.max(...taskStates.map((s) => s.alignment)),
    held: sum((s) => s.held),
    size: sum((s) => s.size),
    tasks: taskStates,
    channels: [...channels.keys()].sort((a, b) => a - b).map((c) => ({ channel: c, recorded: channels.get(c) })),
    persisted: [...channels.values()].reduce((a, b) => a + b, 0),
    persistedBytes: 16 * [...channels.values()].reduce((a, b) => a + b, 0),
    wordsChecked: wordsBeforeOffsets(evs, kinds, (t) => snapshotOf(t).seq),
  };
}

/**
 * The words of exactly the lines the sources had read at their snapshots: each such line's
 * word count is what the splitting task emitted when it processed it. Null without a split.
 */
function wordsBeforeOffsets(evs, kinds, snapshotSeqOf) {
  if (!kinds.includes('count')) return null;
  let words = 0;
  for (const e of evs) {
    if (e.event !== 'source-read' || e.seq > snapshotSeqOf(e.task)) continue;
    const split = evs.find((p) => p.event === 'processed' && p.record.id === e.record.id);
    if (!split) throw new Error(`trace too short: line record ${e.record.id} was never split`);
    words += split.emitted;
  }
  return words;
}

function expectEq(a, b, what) {
  if (a !== b) throw new Error(`${what}: ${a} ≠ ${b}`);
}

/** The trace's time after `step` steps. */
function timeAt(trace, step) {
  if (step === 0) return 0;
  const line = trace.steps.find((l) => l.step === step);
  if (!line) throw new Error(`the trace has no step ${step}`);
  return line.time;
}

module.exports = { runSim, expectedGlobalState, timeAt };
