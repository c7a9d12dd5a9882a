//! Writes the Simplified Chinese strings (the module `zh_hans`, feature `hans`): the sources
//! of the Traditional ones (`zh.rs`, `zh/narrate.rs`, `zh_errors.rs` and the presets' texts,
//! `text_zh.rs`) converted by the tables of `hans_table.rs`, which the page uses for what it
//! fetches too. Their tests and inner docs are left out; their paths are rewritten to the
//! converted copies.

use std::fs;
use std::path::Path;

include!("src/hans_table.rs");

/// A source as an included file may be: without inner docs, and without its tests (a
/// `#[cfg(test)]` module is the last thing in each file).
fn body(path: &str) -> String {
    println!("cargo::rerun-if-changed={path}");
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn main() {
    println!("cargo::rerun-if-changed=src/hans_table.rs");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let include = |name: &str| format!("include!(concat!(env!(\"OUT_DIR\"), \"/{name}\"));");
    let strings = body("src/zh.rs")
        .replace(
            "mod narrate;",
            &format!("mod narrate {{\n    {}\n}}", include("zh_hans_narrate.rs")),
        )
        .replace("super::zh_errors::", "zh_errors::")
        .replace("abs_scenario::presets::text_zh::", "text_zh::")
        + &format!(
            "\npub(crate) mod zh_errors {{\n    {}\n}}\n\npub(crate) mod text_zh {{\n    {}\n}}\n",
            include("zh_hans_errors.rs"),
            include("zh_hans_text.rs")
        );
    let files = [
        ("zh_hans.rs", strings),
        ("zh_hans_narrate.rs", body("src/zh/narrate.rs")),
        ("zh_hans_errors.rs", body("src/zh_errors.rs")),
        (
            "zh_hans_text.rs",
            body("../scenario/src/presets/text_zh.rs"),
        ),
    ];
    for (name, text) in files {
        let text = format!(
            "// Written by build.rs from the Traditional source: do not edit.\n{}",
            to_hans(&text)
        );
        fs::write(Path::new(&out).join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
