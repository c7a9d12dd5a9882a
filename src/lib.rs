//! ABS Playground: a deterministic simulation of Flink's asynchronous barrier snapshots,
//! drawn in the browser.
//!
//! `engine` is pure and is the single source of truth; `scenario` turns files, presets and
//! URLs into engine inputs; `ui` draws the engine's plain data; `i18n` holds every sentence.

pub mod engine;
pub mod i18n;
pub mod lesson;
pub mod scenario;
pub mod text;
pub mod ui;
