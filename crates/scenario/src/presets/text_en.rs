//! The presets' titles and lessons in English: the words of a preset are part of it, so a
//! preset file, `abs-sim` and the page say the same.

/// A preset's title and lesson, or `None` for a name that is no preset.
pub fn preset_text(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "alignment" => (
            "Alignment: two inputs, one slow channel",
            "Barrier 1 reaches Merge from Src A first: input A blocks (①) and its records wait in \
             the buffer (②) until barrier 1 arrives from the slow Src B; then Merge snapshots and \
             forwards the barrier (③) and drains the buffer before new input (④).",
        ),
        "wordcount" => (
            "Word count with parallelism 2",
            "A checkpoint's global state is the source offsets plus the per-word counts; the \
             counts equal the words of exactly the lines before the offsets. Open a completed \
             checkpoint to check it.",
        ),
        "concurrent" => (
            "Concurrent checkpoints",
            "The pipeline takes three checkpoint intervals end to end: barriers 1, 2 and 3 travel \
             at the same time, in order, on the same channels, and each checkpoint completes on \
             its own.",
        ),
        "backpressure" => (
            "Backpressure: aligned vs unaligned",
            "With a very slow input, aligned checkpoints block the fast input for a long time and \
             the buffer grows. Switch the mode: at-least-once never blocks but may count twice; \
             unaligned never blocks and puts the in-flight records into the snapshot.",
        ),
        "slow-sink" => (
            "Slow sink: buffer debloating",
            "The sink is slower than the sources: every channel fills, and an aligned barrier waits \
             behind full buffers at Merge and again at the sink. Unaligned overtakes them and \
             stores them in the snapshot; aligned with buffer debloating shrinks each buffer to \
             about 20 ms of input, so the barrier passes almost as soon and nothing in flight is \
             stored.",
        ),
        "recovery" => (
            "Failure and recovery",
            "Count#1 fails after checkpoint 2 has completed. The whole job stops; after the restart \
             delay every task restores checkpoint 2, the sources rewind to the offsets it recorded and \
             read those lines again (↻), and the sink commits only what a completed checkpoint \
             covers. The job ends with exactly the counts of a run without the failure — try \
             at-least-once to see some words counted twice, or fail another task yourself.",
        ),
        "iteration" => (
            "Iteration: ABS for a cyclic graph",
            "Each word goes round Step's feedback loop three times before it leaves. Step cannot \
             wait for the barrier on its feedback edge — it would wait for itself: it snapshots and \
             forwards the barrier once the source delivered it, then logs the records coming round \
             the loop (ringed) until the barrier comes back. The snapshot is the states plus that log. \
             This is the ABS paper's algorithm for cycles, not Flink's: Flink never logged its \
             back-edges (its old iterations could lose records in a loop on failure) and Flink 2.0 \
             removed iterations.",
        ),
        "token" => (
            "Chandy-Lamport: one token, two processes",
            "p and q pass one token back and forth; each is s1 while it holds it, s0 otherwise. \
             A snapshot records each process's state and the messages in flight on each channel. \
             Start snapshots from p and from q at different moments: each of the four global \
             states can be captured — always with exactly one token.",
        ),
        "bank" => (
            "Chandy-Lamport: a bank",
            "Three accounts send each other random transfers. Every snapshot's balances plus the \
             transfers it recorded in flight add up to $300. Make a channel non-FIFO: some \
             snapshots then lose or double money — Chandy-Lamport assumes FIFO channels.",
        ),
        "large" => (
            "Large: 200 subtasks",
            "Nothing to learn here: 200 subtasks and thousands of items, to measure the page.",
        ),
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        "huge" => (
            "Huge: 1,024 subtasks, 131,328 channels",
            "Nothing to learn here: a real job's size, drawn as operator cards and bundles, to measure the page.",
        ),
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        "alignment-tiny" => (
            "Alignment, tiny: two sources of two records",
            "Small enough to try every order of events: `abs-sim explore` finds no inconsistent \
             snapshot in any of them (but at-least-once).",
        ),
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        "bank-tiny" => (
            "Chandy-Lamport, tiny: two accounts of $1",
            "Small enough to try every order of events: with FIFO channels no snapshot loses or \
             doubles money; make them non-FIFO and `abs-sim explore` finds one that does.",
        ),
        _ => return None,
    })
}
