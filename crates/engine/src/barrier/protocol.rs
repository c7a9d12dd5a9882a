//! The checkpoint protocols as data. Each is described once, in [`REGISTRY`]: what it
//! persists, whether it blocks inputs, who initiates, whether its barriers may overtake, which
//! per-task handler its tasks run. The coordinator, the network, the narration and the page ask
//! a run's [`Description`] (through [`BarrierMode::description`] and the questions below); none
//! of them asks which protocol it is.
//!
//! A new protocol is a name in [`BarrierMode`], a line in [`REGISTRY`], and — if its tasks
//! handle barriers in a way none of today's does — a per-task handler of its own (a
//! `TaskProtocol` (`task_protocol.rs`) in its own file, one line in `cores.rs`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::Handler;

/// Which protocol a run uses; the same scenario can be replayed under each. The names are
/// what scenarios, links and the command line say; what each does is its [`Description`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BarrierMode {
    #[default]
    Aligned,
    AtLeastOnce,
    Unaligned,
    ChandyLamport,
    Synchronous,
}

/// Who starts a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Initiation {
    /// The coordinator injects barriers at the sources (Flink's modes).
    Sources,
    /// Any process may start a snapshot with its markers; several run at once.
    AnyProcess,
    /// The coordinator stops every source, waits until every channel is empty, and then every
    /// task snapshots at once: no barrier flows (the ABS paper's baseline).
    StopsTheWorld,
}

/// What a protocol does, as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    pub mode: BarrierMode,
    /// The spelling on the command line, in links and in scenarios.
    pub name: &'static str,
    /// Tasks block the inputs that delivered the barrier and hold what arrives on them in
    /// an alignment buffer (exactly-once alignment).
    pub blocks_inputs: bool,
    /// Snapshots persist records in flight as channel state. (An aligned run does so only
    /// after a timeout or on a back-edge: ask the run, `Simulation::persists_in_flight`.)
    pub persists_in_flight: bool,
    /// Records may slip into a snapshot they should not be part of (tracking neither blocks
    /// nor records), so a recovery can count them twice.
    pub may_slip: bool,
    pub initiation: Initiation,
    /// Barriers and cancellation markers are priority events: they overtake queued records
    /// and are taken even by a task without output credit (Flink's unaligned checkpoints).
    pub priority_barriers: bool,
    /// A completed snapshot subsumes every older one still running.
    pub completion_subsumes: bool,
    /// It runs a graph with cycles (barrier tracking would lose the records going round).
    pub runs_cycles: bool,
    /// The per-task handler its tasks run.
    pub handler: Handler,
}

/// Every protocol, in the order a menu lists them (and [`BarrierMode`] declares them).
pub const REGISTRY: [Description; 5] = [
    Description {
        mode: BarrierMode::Aligned,
        name: "aligned",
        blocks_inputs: true,
        persists_in_flight: false,
        may_slip: false,
        initiation: Initiation::Sources,
        priority_barriers: false,
        completion_subsumes: true,
        runs_cycles: true,
        handler: Handler::Aligned,
    },
    Description {
        mode: BarrierMode::AtLeastOnce,
        name: "at-least-once",
        blocks_inputs: false,
        persists_in_flight: false,
        may_slip: true,
        initiation: Initiation::Sources,
        priority_barriers: false,
        completion_subsumes: true,
        runs_cycles: false,
        handler: Handler::Tracking,
    },
    Description {
        mode: BarrierMode::Unaligned,
        name: "unaligned",
        blocks_inputs: false,
        persists_in_flight: true,
        may_slip: false,
        initiation: Initiation::Sources,
        priority_barriers: true,
        completion_subsumes: true,
        runs_cycles: true,
        handler: Handler::Unaligned,
    },
    Description {
        mode: BarrierMode::ChandyLamport,
        name: "chandy-lamport",
        blocks_inputs: false,
        persists_in_flight: true,
        may_slip: false,
        initiation: Initiation::AnyProcess,
        priority_barriers: false,
        // Any process may initiate, and each snapshot is its own.
        completion_subsumes: false,
        runs_cycles: true,
        handler: Handler::ChandyLamport,
    },
    Description {
        mode: BarrierMode::Synchronous,
        name: "synchronous",
        blocks_inputs: false,
        persists_in_flight: false,
        may_slip: false,
        initiation: Initiation::StopsTheWorld,
        priority_barriers: false,
        completion_subsumes: true,
        runs_cycles: true,
        // No barrier ever reaches a task when the world stops: any handler would do.
        handler: Handler::Tracking,
    },
];

impl BarrierMode {
    /// Every mode, in the order a menu lists them.
    pub const ALL: [BarrierMode; 5] = [
        REGISTRY[0].mode,
        REGISTRY[1].mode,
        REGISTRY[2].mode,
        REGISTRY[3].mode,
        REGISTRY[4].mode,
    ];

    /// What this protocol does.
    pub fn description(self) -> &'static Description {
        // REGISTRY lists the modes in their declared order (a test holds it).
        &REGISTRY[self as usize]
    }

    // ----- what a mode does: the page and the narration ask these, never compare modes -----

    pub fn blocks_inputs(self) -> bool {
        self.description().blocks_inputs
    }

    pub fn persists_in_flight(self) -> bool {
        self.description().persists_in_flight
    }

    pub fn may_slip(self) -> bool {
        self.description().may_slip
    }

    pub fn processes_initiate(self) -> bool {
        self.description().initiation == Initiation::AnyProcess
    }

    pub fn stops_the_world(self) -> bool {
        self.description().initiation == Initiation::StopsTheWorld
    }

    pub fn has_priority_barriers(self) -> bool {
        self.description().priority_barriers
    }

    pub fn completion_subsumes(self) -> bool {
        self.description().completion_subsumes
    }

    pub fn runs_cycles(self) -> bool {
        self.description().runs_cycles
    }

    /// The spelling used on the command line, in permalinks and in serialised scenarios.
    pub fn as_str(self) -> &'static str {
        self.description().name
    }
}

impl fmt::Display for BarrierMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A mode name that is none of [`BarrierMode::ALL`]; it keeps what was typed for the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownMode(pub String);

impl fmt::Display for UnknownMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown barrier mode \"{}\" (expected one of: ", self.0)?;
        for (i, d) in REGISTRY.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{}", d.name)?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownMode {}

impl FromStr for BarrierMode {
    type Err = UnknownMode;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        REGISTRY
            .iter()
            .find(|d| d.name == s)
            .map(|d| d.mode)
            .ok_or_else(|| UnknownMode(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry lists the modes in their declared order, each once, so a mode's
    /// description is found by its position; names round-trip through serde and `FromStr`.
    #[test]
    fn the_registry_describes_each_mode_once_in_order() {
        for (i, d) in REGISTRY.iter().enumerate() {
            assert_eq!(d.mode as usize, i, "{}", d.name);
            assert_eq!(d.mode.description(), d);
            assert_eq!(d.name.parse::<BarrierMode>(), Ok(d.mode));
            let json = serde_json::to_string(&d.mode).unwrap();
            assert_eq!(json, format!("\"{}\"", d.name));
        }
        assert_eq!(
            UnknownMode("x".into()).to_string(),
            "unknown barrier mode \"x\" (expected one of: aligned, at-least-once, unaligned, \
             chandy-lamport, synchronous)"
        );
    }
}
