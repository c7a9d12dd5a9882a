//! ABS Playground: a deterministic simulation of Flink's asynchronous barrier snapshots,
//! drawn in the browser.
//!
//! The layers are crates (ARCHITECTURE.md): `abs_engine` is pure and is the single source of
//! truth; `abs_scenario` turns files, presets, links and lessons into engine inputs;
//! `abs_words` holds every sentence; this crate's `ui` draws the engine's plain data. The
//! lower layers are re-exported under the names the page and the tests use.

pub use abs_engine as engine;
pub use abs_engine::text;
pub use abs_scenario as scenario;
pub use abs_scenario::lesson;
pub use abs_words as i18n;
pub mod ui;
