//! One component per visual concept.

pub mod buffer;
pub mod channel;
pub mod controls;
pub mod coordinator;
pub mod dataflow;
pub mod dialog;
pub mod editor;
pub mod global_states;
pub mod header;
pub mod help;
pub mod inspector;
pub mod item;
pub mod legend;
pub mod narration;
pub mod operator;
pub mod recovery;
pub mod share;
pub mod subtask;
pub mod theory;
pub mod throughput;
pub mod timeline;
