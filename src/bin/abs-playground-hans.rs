//! The playground page, in Simplified Chinese: the same program as `main.rs`, built with the
//! feature `hans` (the Traditional texts converted when the crate is built). index.html loads
//! it when the address or the browser asks for Simplified Chinese; the Traditional page then
//! carries no conversion, and this one no Traditional text.

/// The page's allocator, as in `main.rs`.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

fn main() {
    abs_playground::ui::mount::start();
}
