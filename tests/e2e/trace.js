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
const isBarrier = (item, k) => item && item.barrier === k;

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
 * The global state checkpoint `k` must have, worked out from the events of a trace that runs
 * well past its completion (records overtaken by an unaligned barrier arrive after it).
 */
function expectedGlobalState(trace, k) {
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
  const snapshotOf = (t) => find((e) => e.event === 'snapshot' && e.task === t && e.checkpoint === k,
    `snapshot of task ${t} for ${k}`);

  const taskStates = [];
  for (let t = 0; t < tasks; t++) {
    const snap = snapshotOf(t);
    const before = evs.filter((e) => e.task === t && e.seq < snap.seq);
    const processed = before.filter((e) => e.event === 'processed');
    let state;
    let size;
    switch (kinds[t]) {
      case 'source': {
        // The next offset to read: one more than the last line read.
        const reads = before.filter((e) => e.event === 'source-read');
        state = { offset: reads.length };
        if (reads.length) expectEq(reads[reads.length - 1].offset + 1, reads.length, `offsets of task ${t}`);
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
    // Alignment: from the first barrier k reaching the task to its snapshot; the records that
    // waited in the alignment buffer meanwhile.
    const first = before.find((e) => e.event === 'arrived' && isBarrier(e.item, k));
    const alignment = first ? snap.time - Math.max(first.time, triggered.time) : 0;
    const held = first
      ? before.filter((e) => e.event === 'held' && e.seq > first.seq && recordOf(e.item)).length
      : 0;
    taskStates.push({ task: t, kind: kinds[t], state, alignment, held, size });
  }

  // Channel state. Records the barrier overtook at the sender (unaligned): created before the
  // sender's snapshot, arriving after barrier k on that channel. Plus records the receiver
  // saved itself (`channel-state` events).
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
  const madeBefore = (r, snapshotSeqOf) => {
    const made = r.parent === 0 ? [creator.get(r.id)] : processedAt.get(r.parent) || [];
    if (made.length !== 1 || !made[0]) throw new Error(`cannot tell who made record ${r.id}`);
    return made[0].seq < snapshotSeqOf(made[0].task);
  };
  const snapSeq = new Map();
  const snapshotSeqOf = (t) => {
    if (!snapSeq.has(t)) snapSeq.set(t, snapshotOf(t).seq);
    return snapSeq.get(t);
  };
  const channels = new Map(); // channel → recorded records
  const add = (c) => channels.set(c, (channels.get(c) || 0) + 1);
  const barrierIn = new Map(); // channel → seq of barrier k's arrival
  for (const e of evs) {
    if (e.event !== 'arrived') continue;
    if (!channels.has(e.channel)) channels.set(e.channel, 0);
    if (isBarrier(e.item, k) && !barrierIn.has(e.channel)) barrierIn.set(e.channel, e.seq);
  }
  const lastArrival = new Map(); // channel → the newest record that arrived, made after the snapshot?
  for (const e of evs) {
    if (e.event === 'arrived' && recordOf(e.item) && barrierIn.has(e.channel) && e.seq > barrierIn.get(e.channel)) {
      const r = recordOf(e.item);
      if (madeBefore(r, snapshotSeqOf)) add(e.channel);
      else lastArrival.set(e.channel, true);
    }
    if (e.event === 'channel-state' && e.checkpoint === k) add(e.channel);
  }
  for (const c of barrierIn.keys()) {
    // FIFO behind the barrier: once a record made after the snapshot arrived, every overtaken
    // one has arrived too. Without one, the trace is too short to know.
    if (!lastArrival.get(c)) throw new Error(`trace too short: channel ${c} has not delivered past checkpoint ${k}`);
  }

  const sum = (f) => taskStates.reduce((a, s) => a + f(s), 0);
  return {
    checkpoint: k,
    completedAtStep: completed.step,
    triggerTime: triggered.time,
    endToEnd: completed.time - triggered.time,
    alignment: Math.max(...taskStates.map((s) => s.alignment)),
    held: sum((s) => s.held),
    size: sum((s) => s.size),
    tasks: taskStates,
    channels: [...channels.keys()].sort((a, b) => a - b).map((c) => ({ channel: c, recorded: channels.get(c) })),
    persisted: [...channels.values()].reduce((a, b) => a + b, 0),
    wordsChecked: wordsBeforeOffsets(evs, kinds, snapshotSeqOf),
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
