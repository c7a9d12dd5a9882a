//! A time limit per test. Stable Rust's test harness has none: a test whose loop never ends
//! under a bug hangs the whole suite (one once hung it for 13 minutes). [`within`] runs a
//! test's body on a thread of its own and fails the test, naming it and its limit, once the
//! limit has passed; a panic of the body fails it as usual.
//!
//! The limits are generous, several times what the test takes on a loaded two-core machine.
//! `TEST_TIME_SCALE` multiplies every limit (a slow machine, a debug profile, many more
//! `PROPTEST_CASES`); `TEST_TIME_SCALE=0` lifts them.
// Not every test that includes this uses both functions.
#![allow(dead_code)]

use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// What `TEST_TIME_SCALE` says, 1 when unset; a value that is not a number is an error.
fn scale() -> f64 {
    match std::env::var("TEST_TIME_SCALE") {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("TEST_TIME_SCALE={v:?} is not a number")),
        Err(_) => 1.0,
    }
}

/// Runs `body`, failing the test if it has not returned within `limit` (scaled by
/// `TEST_TIME_SCALE`). The body keeps running on its thread after the failure: the test
/// binary exits when its other tests have finished.
pub fn within(limit: Duration, body: impl FnOnce() + Send + 'static) {
    let name = thread::current().name().unwrap_or("a test").to_string();
    let (done, finished) = mpsc::channel();
    let worker = thread::Builder::new()
        .name(name.clone())
        .spawn(move || {
            body();
            // The receiver has gone only if the limit has already failed the test.
            let _ = done.send(());
        })
        .expect("spawning the test's thread");
    let scale = scale();
    let wait = if scale == 0.0 {
        Duration::MAX
    } else {
        limit.mul_f64(scale)
    };
    match finished.recv_timeout(wait) {
        Ok(()) => worker.join().expect("the body returned"),
        // The body panicked (its sender was dropped unsent): the test fails with its panic.
        Err(RecvTimeoutError::Disconnected) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the body returned without saying so"),
        },
        Err(RecvTimeoutError::Timeout) => panic!(
            "{name} still running after {wait:?}, its time limit (tests/common/time_limit.rs; \
             TEST_TIME_SCALE multiplies the limit): a loop that never ends?"
        ),
    }
}

/// A property test's limit: `per_thousand` for every thousand cases it runs, and never less
/// than a minute (a few cases cost little but compiling-size start-up times vary).
pub fn for_cases(cases: u32, per_thousand: Duration) -> Duration {
    per_thousand
        .mul_f64(f64::from(cases) / 1000.0)
        .max(Duration::from_secs(60))
}
