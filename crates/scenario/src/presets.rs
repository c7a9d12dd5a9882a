//! The scenarios the playground ships (see `docs/presets.md` for what each must teach).

#[cfg(feature = "en")]
pub mod text_en;
#[cfg(feature = "zh")]
pub mod text_zh;

mod build;
pub use build::*;

use super::{Scenario, ScenarioError};

/// Preset names in picker order.
pub const NAMES: &[&str] = &[
    "alignment",
    "wordcount",
    "concurrent",
    "backpressure",
    "slow-sink",
    "recovery",
    "iteration",
    "token",
    "bank",
    "large",
];

/// Presets that measure the page rather than teach: left out of the students' list (a link
/// still opens them).
pub const BENCHMARKS: &[&str] = &["large", HUGE];

/// A job of real size (131,328 channels), the page's benchmark at scale: reachable by a link
/// and in `abs-sim`, but not among [`NAMES`], whose every preset the tests run in every mode.
pub const HUGE: &str = "huge";

/// Systems small enough for `abs-sim explore` to try every interleaving of: not in the
/// students' list either (a link opens them, in the second player: index.html), and not among
/// [`NAMES`].
pub const SMALL: &[&str] = &["alignment-tiny", "bank-tiny"];

// The presets the page reads from JSON files (`presets/NAME.json`, made from the builders
// below by `UPDATE_PRESETS=1 cargo test --lib presets`): every one but the benchmarks. In the
// wasm, a file and the JSON reader the page has anyway weigh less than the code that builds
// them. The native build — the CLI and the tests — runs the builders, and a test holds the
// files to them.
#[cfg(target_arch = "wasm32")]
mod stored {
    use super::{lesson, title, Scenario};

    /// A preset from its file, with the page's title and lesson.
    fn read(name: &str, json: &str) -> Scenario {
        let Ok(mut s) = Scenario::from_json(json) else {
            unreachable!("the preset files are read by the tests: {name}")
        };
        s.title = title(name);
        s.lesson = lesson(name);
        s
    }

    macro_rules! stored {
        ($($f:ident $name:literal)*) => {
            $( pub fn $f() -> Scenario { read($name, include_str!(concat!("presets/", $name, ".json"))) } )*
        };
    }

    stored! {
        alignment "alignment"
        wordcount "wordcount"
        concurrent "concurrent"
        backpressure "backpressure"
        slow_sink "slow-sink"
        recovery "recovery"
        iteration "iteration"
        token "token"
        bank "bank"
        alignment_tiny "alignment-tiny"
        bank_tiny "bank-tiny"
    }
}
#[cfg(target_arch = "wasm32")]
pub use stored::*;

pub fn by_name(name: &str) -> Result<Scenario, ScenarioError> {
    match name {
        "alignment" => Ok(alignment()),
        "wordcount" => Ok(wordcount()),
        "concurrent" => Ok(concurrent()),
        "backpressure" => Ok(backpressure()),
        "slow-sink" => Ok(slow_sink()),
        "recovery" => Ok(recovery()),
        "iteration" => Ok(iteration()),
        "token" => Ok(token()),
        "bank" => Ok(bank()),
        "large" => Ok(large()),
        // The student's builds leave out `huge` and the small systems of the search (the
        // explore view's): index.html loads the second player (`bin/abs-big.rs`) for them.
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        "huge" => Ok(huge()),
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        "alignment-tiny" => Ok(alignment_tiny()),
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        "bank-tiny" => Ok(bank_tiny()),
        _ => Err(ScenarioError::UnknownPreset(name.to_string())),
    }
}

/// A preset's title: the page's, in the language it is built in (English when built with
/// both, as the CLI and the tests are). One text per preset, so a preset file and the page
/// say the same.
// Not inlined: every preset calls it, and each inlined copy is page weight.
#[inline(never)]
fn title(name: &str) -> String {
    words(name).0.to_string()
}

/// A preset's lesson, as [`title`] (its mode's own lesson is the page's to choose).
// Not inlined: every preset calls it, and each inlined copy is page weight.
#[inline(never)]
fn lesson(name: &str) -> String {
    words(name).1.to_string()
}

fn words(name: &str) -> (&'static str, &'static str) {
    #[cfg(feature = "en")]
    let text = text_en::preset_text(name);
    #[cfg(all(feature = "zh", not(feature = "en")))]
    let text = text_zh::preset_text(name);
    #[cfg(not(any(feature = "en", feature = "zh")))]
    let text = None::<(&'static str, &'static str)>;
    text.unwrap_or(("", ""))
}

pub fn all() -> Vec<Scenario> {
    NAMES.iter().filter_map(|n| by_name(n).ok()).collect()
}

#[cfg(test)]
mod tests;
