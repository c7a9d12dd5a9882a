//! The registry of per-task handlers, the one place that lists them: a new per-task handler
//! is a file or folder of its own that implements [`TaskProtocol`], and one line here.

use super::aligned::Aligned;
use super::chandy_lamport::ChandyLamport;
use super::tracking::Tracking;
use super::unaligned::Unaligned;

/// The registry of per-task handlers: one line per core. It makes the [`Core`] a task holds,
/// the [`Handler`] a protocol's description names, and `with_core!`, the only place that
/// tells the cores apart: it runs an expression on whichever core a task has (static
/// dispatch: each core's code is called directly, and a default inlines to nothing).
macro_rules! cores {
    ($d:tt $($(#[$doc:meta])* $core:ident($ty:ty)),* $(,)?) => {
        /// Which per-task handler a protocol's tasks run (its description names it).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Handler {
            $($(#[$doc])* $core,)*
        }

        /// The protocol's half of a task's handler.
        #[derive(Clone, Debug)]
        pub(super) enum Core<R> {
            $($core($ty),)*
        }

        impl<R: Clone> Core<R> {
            /// A fresh core of this kind.
            pub(super) fn of(handler: Handler) -> Core<R> {
                match handler {
                    $(Handler::$core => Core::$core(<$ty>::default()),)*
                }
            }
        }

        /// `with_core!(core, p => expression)`: the expression with `p` bound to the core.
        macro_rules! with_core {
            ($d value:expr, $d p:ident => $d body:expr) => {
                match $d value {
                    $(Core::$core($d p) => $d body,)*
                }
            };
        }
        pub(super) use with_core;
    };
}

cores! {
    $
    /// Exactly-once alignment: blocks, holds, replays (and logs loops, and times out).
    Aligned(Aligned<R>),
    /// At-least-once barrier tracking: nothing blocks, several checkpoints pending.
    Tracking(Tracking),
    /// Unaligned: the first barrier triggers, in-flight records become channel state.
    Unaligned(Unaligned),
    /// Chandy-Lamport's marker rule.
    ChandyLamport(ChandyLamport),
}
