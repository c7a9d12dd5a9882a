//! The registry of per-task handlers, the one place that lists them: a new per-task handler
//! is a file or folder of its own that implements [`TaskProtocol`], and one line here.

use super::aligned::Aligned;
use super::chandy_lamport::ChandyLamport;
use super::task_protocol::TaskProtocol;
use super::tracking::Tracking;
use super::unaligned::Unaligned;

/// The registry of per-task handlers: one line per core. It makes the [`Core`] a task holds,
/// the [`Handler`] a protocol's description names, and the only two places that tell the
/// cores apart (`protocol`, `protocol_mut`).
macro_rules! cores {
    ($($(#[$doc:meta])* $core:ident($ty:ty)),* $(,)?) => {
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

            pub(super) fn protocol(&self) -> &dyn TaskProtocol<R> {
                match self {
                    $(Core::$core(core) => core,)*
                }
            }

            pub(super) fn protocol_mut(&mut self) -> &mut dyn TaskProtocol<R> {
                match self {
                    $(Core::$core(core) => core,)*
                }
            }
        }
    };
}

cores! {
    /// Exactly-once alignment: blocks, holds, replays (and logs loops, and times out).
    Aligned(Aligned<R>),
    /// At-least-once barrier tracking: nothing blocks, several checkpoints pending.
    Tracking(Tracking),
    /// Unaligned: the first barrier triggers, in-flight records become channel state.
    Unaligned(Unaligned),
    /// Chandy-Lamport's marker rule.
    ChandyLamport(ChandyLamport),
}
