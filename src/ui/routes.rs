//! Which build serves an address: the one table of the page's routes. index.html's loader,
//! which must pick the build before any wasm arrives, is written from it ([`loader`]; a test,
//! `tests/routes.rs`, holds index.html to it and `UPDATE_ROUTES=1` writes it), and the second
//! build's router reads the same views ([`View::of`]).

use crate::scenario::presets;

/// A view of the second build (`abs-views`), by the address that opens it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// `?compare=aligned,unaligned,…`: modes side by side.
    Compare,
    /// `?view=explore`: every run of a small system.
    Explore,
    /// `?view=edit`: the scenario editor.
    Edit,
    /// `?view=flink`: the engineers' view of Flink checkpoints (also the second build's
    /// default).
    Flink,
}

impl View {
    /// The views a `view=` parameter names, with their names.
    pub const NAMED: [(&'static str, View); 3] = [
        ("flink", View::Flink),
        ("edit", View::Edit),
        ("explore", View::Explore),
    ];

    /// The view an address asks for (`compare` first, then `view=`); the Flink view when it
    /// names none of them.
    pub fn of(view: Option<&str>, compare: bool) -> View {
        if compare {
            return View::Compare;
        }
        View::NAMED
            .iter()
            .find(|(name, _)| Some(*name) == view)
            .map_or(View::Flink, |&(_, v)| v)
    }
}

/// One build of the page, as index.html names its files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Build(pub &'static str);

/// The second build: the views a student's visit never opens.
pub const VIEWS: Build = Build("abs-views");
/// The lesson page (`?lesson=NAME|URL`).
pub const LESSONS: Build = Build("abs-lessons");
/// The second player: a job of real size (`?big`, or a preset only it has).
pub const BIG: Build = Build("abs-big");
/// The student's page in Simplified and Traditional Chinese and in English (the address's
/// `lang`, else the browser's).
pub const STUDENT_HANS: Build = Build("abs-playground-hans");
pub const STUDENT_ZH: Build = Build("abs-playground-zh");
pub const STUDENT_EN: Build = Build("abs-playground");

/// The presets only the second player has (its `huge`, and the explore view's small systems).
pub fn big_presets() -> Vec<&'static str> {
    std::iter::once(presets::HUGE)
        .chain(presets::SMALL.iter().copied())
        .collect()
}

/// The presets a link opens in a player with a first picture (`abs-sim shells` draws them).
pub fn pictured_presets() -> Vec<&'static str> {
    presets::NAMES
        .iter()
        .copied()
        .chain([presets::HUGE])
        .collect()
}

/// The modes a link can name (each preset's picture is drawn in every one of them: a mode it
/// does not run shows the notice the page shows).
pub fn mode_names() -> Vec<&'static str> {
    crate::scenario::modes::RunMode::all()
        .into_iter()
        .map(|m| m.name())
        .collect()
}

/// The loader's routing, as the lines of index.html's script between its `routes:` markers:
/// the first build whose condition the address meets, in this order — the views, the lesson
/// page, the second player, then the student's page in its language.
pub fn loader() -> String {
    let names: Vec<String> = View::NAMED
        .iter()
        .map(|(name, _)| format!("view === \"{name}\""))
        .collect();
    // `size`: the wasm's bytes, written by the build (tools/post_build.py) for the loading
    // bar (a server that compresses it sends fewer).
    let files = |b: Build| {
        format!(
            "{{ js: \"./{0}.js\", wasm: \"./{0}_bg.wasm\", size: 0 }}",
            b.0
        )
    };
    let indent = "        ";
    [
        "var view = q.get(\"view\");".to_string(),
        format!("var views = {} || q.has(\"compare\");", names.join(" || ")),
        "var build = window.absBuild = views".to_string(),
        format!("  ? {}", files(VIEWS)),
        "  : q.has(\"lesson\")".to_string(),
        format!("  ? {}", files(LESSONS)),
        format!(
            "  : q.has(\"big\") || /^({})$/.test(q.get(\"preset\"))",
            big_presets().join("|")
        ),
        format!("  ? {}", files(BIG)),
        "  : hans".to_string(),
        format!("  ? {}", files(STUDENT_HANS)),
        "  : zh".to_string(),
        format!("  ? {}", files(STUDENT_ZH)),
        format!("  : {};", files(STUDENT_EN)),
        // The first picture (`abs-sim shells`): a preset in a mode, as the student's page
        // draws it at step 0, for the addresses that show one.
        "var preset = q.get(\"preset\") || \"alignment\", mode = q.get(\"mode\");".into(),
        "var picture = !views && !q.has(\"lesson\") && !q.has(\"big\") && !q.has(\"embed\") && !q.has(\"scenario\") &&".into(),
        format!("  /^({})$/.test(preset) && /^({})$/.test(mode || \"aligned\")", pictured_presets().join("|"), mode_names().join("|")),
        "  ? \"./boot/\" + preset + (mode ? \".\" + mode : \"\") + \".\" + (hans ? \"zh-Hans\" : zh ? \"zh\" : \"en\") + \".html\" : \"\";".into(),
    ]
    .iter()
    .map(|line| format!("{indent}{line}\n"))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_names_its_view_and_compare_comes_first() {
        assert_eq!(View::of(Some("edit"), false), View::Edit);
        assert_eq!(View::of(Some("explore"), false), View::Explore);
        assert_eq!(View::of(Some("flink"), false), View::Flink);
        assert_eq!(View::of(None, false), View::Flink);
        assert_eq!(View::of(Some("nonsense"), false), View::Flink);
        assert_eq!(View::of(Some("edit"), true), View::Compare);
    }
}
