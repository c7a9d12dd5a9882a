//! The engineers' view of Flink checkpoints (`index.html?view=flink`, `ui::flink`): a build of
//! its own, so that the student's page, which is loaded far more often, does not grow by it.

/// The page's allocator, as in `main.rs`.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

fn main() {
    abs_playground::ui::flink::start();
}
