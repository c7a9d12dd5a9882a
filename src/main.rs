//! The playground page, in English (index.html loads this build unless the address or the
//! browser asks for Chinese; the `zh` build is `bin/abs-playground-zh.rs`).

/// The page's allocator: talc is 2 KB gzip smaller in wasm than the standard library's dlmalloc,
/// and as quick. It assumes one thread, which the page has. (A binary's choice, not the
/// library's: `abs-sim` counts its allocations with its own.)
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

fn main() {
    abs_playground::ui::mount::start();
}
