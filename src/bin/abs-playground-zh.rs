//! The playground page, in Traditional Chinese: the same program as
//! `main.rs`, built with the feature `zh` instead of `en` (index.html loads it when the address
//! or the browser asks for Traditional Chinese). A binary of its own so that the builds, which Trunk
//! runs side by side, do not write the same file.

/// The page's allocator, as in `main.rs`.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

fn main() {
    abs_playground::ui::mount::start();
}
