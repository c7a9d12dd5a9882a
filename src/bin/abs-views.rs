//! The second build (`ui::views`): the views a student's visit never opens — the engineers'
//! view of Flink checkpoints (`index.html?view=flink`) and the scenario editor
//! (`index.html?view=edit`). A build of its own, so that the student's page, which is loaded
//! far more often, does not grow by them.

/// The page's allocator, as in `main.rs`.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

fn main() {
    abs_playground::ui::views::start();
}
