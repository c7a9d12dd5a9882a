//! The page: Yew components that draw the engine's plain data.

mod address;
mod app;
pub mod components;
mod crash;
pub mod export;
#[cfg(feature = "flink")]
pub mod flink;
pub mod fmt;
pub mod host;
mod host_link;
mod keyboard;
pub mod layout;
pub mod mount;
pub mod palette;
pub mod permalink;
pub mod run;
pub mod state;
pub mod vocab;

pub use app::App;
