//! The page: Yew components that draw the engine's plain data.

mod app;
pub mod state;

pub use app::App;
