//! `abs-sim`: runs a scenario headless and prints its trace (`run`), drives one task's barrier
//! handler (`gate`), benchmarks the engine (`bench`), prints a preset as a scenario file
//! (`preset`), explores every interleaving of a small system (`explore`), or sets the cost of
//! several modes side by side (`compare`) and the overhead of snapshots against their interval
//! (`overhead`), runs a scenario on Flink (`flink`), or checks a lesson and packages it for a
//! course site (`lesson`), or draws the page's first pictures for the built site (`shells`).
//!
//! Exit status: 0 on success (also when the reader of stdout goes away early, as with
//! `| head`), 1 when a run ends without what was asked (`--until-finished`) or output fails,
//! 2 for a usage error or bad input.

use std::io::{self, Write};
use std::process::ExitCode;

mod bench;
mod cli;
mod compare;
mod counting_alloc;
mod explore;
mod flink;
mod lesson;
mod overhead;
mod replay;
mod scorm;
#[cfg(all(not(target_arch = "wasm32"), feature = "views"))]
mod shells;

/// Counts live bytes so `bench` can measure what a history holds.
#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => cli::run(&args[1..]),
        Some("gate") => cli::gate(&args[1..]),
        Some("bench") => cli::bench(&args[1..]),
        Some("preset") => cli::preset(&args[1..]),
        Some("lesson") => lesson::main(&args[1..]),
        Some("explore") => explore::main(&args[1..]),
        Some("compare") => compare::main(&args[1..]),
        Some("overhead") => overhead::main(&args[1..]),
        Some("flink") => flink::main(&args[1..]),
        #[cfg(all(not(target_arch = "wasm32"), feature = "views"))]
        Some("shells") => shells::main(&args[1..]),
        Some("help" | "--help" | "-h") => cli::help(cli::USAGE),
        Some(other) => {
            let _ = writeln!(
                io::stderr(),
                "abs-sim: unknown command {other:?}\n\n{}",
                cli::USAGE
            );
            ExitCode::from(2)
        }
        None => {
            let _ = writeln!(io::stderr(), "{}", cli::USAGE);
            ExitCode::from(2)
        }
    }
}
