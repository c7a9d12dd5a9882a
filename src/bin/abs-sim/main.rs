//! `abs-sim`: runs a scenario headless and prints its trace, drives one task's barrier
//! handler (`gate`), or benchmarks the engine (`bench`).

use std::io::{Read, Write};
use std::process::ExitCode;

use abs_playground::engine::gate::{run_gate, GateOptions};
use abs_playground::engine::BarrierMode;

mod cli;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => cli::run(&args[1..]),
        Some("gate") => gate(&args[1..]),
        Some("bench") => cli::bench(&args[1..]),
        _ => {
            eprintln!("{}", cli::USAGE);
            ExitCode::from(2)
        }
    }
}

fn gate(args: &[String]) -> ExitCode {
    let parsed = (|| -> Result<GateOptions, String> {
        let mut mode = None;
        let mut channels = None;
        let mut finished_channels_align = true;
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--mode" => mode = Some(value.parse::<BarrierMode>().map_err(|e| e.to_string())?),
                "--channels" => {
                    channels = Some(value.parse::<u32>().map_err(|_| {
                        format!("--channels needs a positive number, not {value:?}")
                    })?)
                }
                "--finished-channels-align" => {
                    finished_channels_align = match value.as_str() {
                        "true" => true,
                        "false" => false,
                        _ => {
                            return Err(format!(
                                "--finished-channels-align takes true or false, not {value:?}"
                            ))
                        }
                    }
                }
                _ => return Err(format!("unknown option {flag}")),
            }
        }
        Ok(GateOptions {
            mode: mode.ok_or("--mode is required")?,
            channels: channels.ok_or("--channels is required")?,
            finished_channels_align,
        })
    })();
    let options = match parsed {
        Ok(o) => o,
        Err(e) => {
            eprintln!("abs-sim gate: {e}\n{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("abs-sim gate: cannot read stdin: {e}");
        return ExitCode::from(2);
    }
    match run_gate(&options, &input) {
        Ok(out) => {
            let _ = std::io::stdout().write_all(out.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("abs-sim gate: {e}");
            ExitCode::from(2)
        }
    }
}
