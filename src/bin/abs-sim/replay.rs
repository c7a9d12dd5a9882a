//! `abs-sim run --replay FILE`: the moves of a file (`abs-sim explore`'s counterexample)
//! played on the search's model, one trace line each.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use abs_playground::engine::explore::{self, Move};
use abs_playground::engine::report;
use abs_playground::scenario::Scenario;
use serde_json::Value;

/// Reads a replay file: a JSON list of moves, or `abs-sim explore`'s whole line (its
/// `counterexample`).
pub fn read_moves(file: &str) -> Result<Vec<Move>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
    let list = match &v {
        Value::Array(list) => list,
        Value::Object(o) => match o.get("counterexample") {
            Some(Value::Array(list)) => list,
            _ => return Err(format!("{file}: expected a list of moves")),
        },
        _ => return Err(format!("{file}: expected a list of moves")),
    };
    list.iter()
        .enumerate()
        .map(|(i, m)| Move::from_json(m).map_err(|e| format!("{file}: move {}: {e}", i + 1)))
        .collect()
}

/// Plays `moves` on the search's model of `scenario`, one trace line per move, then the
/// summary with every completed snapshot's verdict.
pub fn replay(scenario: &Scenario, moves: &[Move]) -> ExitCode {
    let mut sim = match explore::model(&scenario.graph, &scenario.config, scenario.seed) {
        Ok(sim) => sim,
        Err(e) => {
            let _ = writeln!(io::stderr(), "abs-sim run: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut r = report::Report::default();
    for (i, &m) in moves.iter().enumerate() {
        if let Err(e) = sim.apply_move(m) {
            let _ = out.flush();
            let _ = writeln!(
                io::stderr(),
                "abs-sim run: move {} ({}) was refused: {e}",
                i + 1,
                m.to_json()
            );
            return ExitCode::from(2);
        }
        if let Err(e) = r.write_applied(&sim, &m.to_json(), &mut out) {
            return write_failed(e);
        }
    }
    match r.write_summary(&sim, &mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed(e),
    }
}

fn write_failed(e: io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    let _ = writeln!(io::stderr(), "abs-sim run: {e}");
    ExitCode::FAILURE
}
