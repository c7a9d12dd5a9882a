//! The export build: the code that makes the SVG and PNG of the dataflow (`ui::export`), a
//! build of its own that the page fetches the first time a picture is asked for (index.html's
//! `absExport`). Few visits export, and the student's builds are at their budget.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// Makes `name.svg` or `name.png` (`format`: "svg" or "png") from the page as it is, and hands
/// it to the browser; false when the page has no graph.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn download(format: &str, name: &str) -> bool {
    abs_playground::ui::export::draw(format, name)
}

fn main() {}
