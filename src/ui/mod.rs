//! The page: Yew components that draw the engine's plain data.

mod address;
mod app;
#[cfg(feature = "views")]
pub mod compare;
pub mod components;
mod crash;
#[cfg(feature = "views")]
pub mod edit;
#[cfg(feature = "views")]
pub mod explore;
pub mod export;
#[cfg(feature = "views")]
pub mod flink;
pub mod fmt;
pub mod host;
pub(crate) mod host_link;
mod keyboard;
#[cfg(feature = "lessons")]
pub mod kit;
pub mod layout;
pub mod lesson;
pub mod marks;
pub mod mount;
pub mod palette;
pub mod permalink;
#[cfg(feature = "views")]
pub mod routes;
pub mod run;
#[cfg(not(target_arch = "wasm32"))]
pub mod shell;
pub mod state;
#[cfg(feature = "views")]
pub mod views;
pub mod vocab;

pub use app::App;
