//! The playground for a job of real size (issue 25: more than 8,192 channels, up to the page's
//! limit): the same page as the student's, with the bundled drawing — operators as cards with
//! a strip of subtasks, each edge one band with its totals (`ui::components::dataflow`'s
//! `bundles.rs`). index.html loads it for `big` and `preset=huge`, and the student's builds
//! send a job that large here (`ui::address::open_big`): they leave the bundled drawing out, so
//! that a student's first load does not grow by it. Both languages, like the other second
//! builds.

/// The page's allocator, as in `main.rs`.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

fn main() {
    abs_playground::ui::components::dataflow::bundled_style();
    abs_playground::ui::mount::start();
}
