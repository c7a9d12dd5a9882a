//! The export build: the code that makes the SVG and PNG of the dataflow and of the space-time
//! diagram, and a global state's JSON (`ui::export`; the engine runs the moment again), a
//! build of its own that the page fetches the first time a file is asked for (index.html's
//! `absExport`). Few visits export, and the student's builds are at their budget.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// Makes `name.svg` or `name.png` (`format`: "svg" or "png"; "spacetime-svg" or
/// "spacetime-png" for the space-time diagram alone) from the page as it is, or the global
/// state of the moment `link` names as JSON ("json"), and hands it to the browser: "" when it
/// did, else why not.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn download(format: &str, name: &str, link: &str) -> String {
    abs_playground::ui::export::draw(format, name, link)
}

fn main() {}
