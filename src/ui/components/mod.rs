//! One component per visual concept: a Yew component where it has state of its own (hooks)
//! or is drawn many times (an operator, a subtask, an item), and otherwise a plain function of
//! its props, called by the app. A component's machinery costs about 0.75 KB gzip of wasm each,
//! and those views are drawn again with the app anyway: their props change with every step.

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
