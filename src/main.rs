//! The playground page, in English (index.html loads this build unless the address or the
//! browser asks for Chinese; the `zh` build is `bin/abs-playground-zh.rs`).

fn main() {
    abs_playground::ui::mount::start();
}
