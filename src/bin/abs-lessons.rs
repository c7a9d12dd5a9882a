//! The lesson page (`ui::lesson`): guided lessons over the playground's moments, asking the
//! student before it shows (`index.html?lesson=alignment`). A build of its own, both languages,
//! loaded only for a lesson: the student's page does not grow by it.

/// The page's allocator, as in `main.rs`.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

fn main() {
    abs_playground::ui::lesson::view::start();
}
