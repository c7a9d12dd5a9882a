//! The architecture's invariants (ARCHITECTURE.md), checked on the source tree: the layers'
//! allowed dependencies, no import circle between any two files, which files may name a
//! particular checkpoint mode, and the line cap. Each test says what broke and where.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Rust source of the project (the page's crate and the layers' crates), relative to the
/// root, without tests: files named `tests.rs`, files under a `tests/` folder.
fn sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "tests") {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|e| e == "rs")
                && p.file_name().is_some_and(|n| n != "tests.rs")
            {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("src"), &mut out);
    for layer in LAYERS {
        walk(&root().join(layer.dir).join("src"), &mut out);
    }
    out.into_iter()
        .map(|p| p.strip_prefix(root()).unwrap().to_path_buf())
        .collect()
}

fn read(rel: &Path) -> String {
    fs::read_to_string(root().join(rel)).unwrap()
}

/// A file's code without its comments and without its inline test module (`#[cfg(test)] mod
/// tests { … }`, which the file ends with).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            // A `//` inside a string ("http://…") is rare in the paths we look for; cutting
            // the line there only loses text, never adds a path.
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

// ----- the layers -----

struct Layer {
    dir: &'static str,
    package: &'static str,
    /// The dependencies it may have (the project's crates and others), all of them.
    may_use: &'static [&'static str],
}

/// The layers below the page, lowest first. The page's crate (the root) uses them all.
const LAYERS: [Layer; 3] = [
    Layer {
        dir: "crates/engine",
        package: "abs-engine",
        may_use: &["serde", "serde_json", "proptest"],
    },
    Layer {
        dir: "crates/scenario",
        package: "abs-scenario",
        may_use: &["abs-engine", "serde", "serde_json"],
    },
    Layer {
        dir: "crates/words",
        package: "abs-words",
        may_use: &["abs-engine", "abs-scenario", "serde"],
    },
];

/// The names of a manifest's dependencies (every `[…dependencies]` table).
fn dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line.trim_end_matches(']').ends_with("dependencies");
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once('=') {
                out.push(name.trim().to_string());
            }
        }
    }
    out
}

/// Each layer depends only on the layers below it and on the crates listed for it: the
/// engine on no other layer and nothing of the web (yew, web-sys, wasm-bindgen, gloo), so a
/// wrong-way import does not compile.
#[test]
fn each_layer_depends_only_on_the_layers_below_it() {
    let workspace = read(Path::new("Cargo.toml"));
    for layer in &LAYERS {
        assert!(
            workspace.contains(&format!("\"{}\"", layer.dir)),
            "{} is not a member of the workspace",
            layer.dir
        );
        let manifest = read(&Path::new(layer.dir).join("Cargo.toml"));
        assert!(
            manifest.contains(&format!("name = \"{}\"", layer.package)),
            "{}/Cargo.toml names another package",
            layer.dir
        );
        for dep in dependencies(&manifest) {
            assert!(
                layer.may_use.contains(&dep.as_str()),
                "{} depends on {dep}, which is not below it (allowed: {:?})",
                layer.package,
                layer.may_use
            );
        }
    }
}

/// The layers below the page know nothing of the page's builds: no `views` feature, no
/// name of the page's crate or of its modules.
#[test]
fn no_layer_below_the_page_names_the_page() {
    for file in sources() {
        if file.starts_with("src") {
            continue;
        }
        let text = code(&read(&file));
        for page in [
            "feature = \"views\"",
            "abs_playground",
            "ui::",
            "yew",
            "web_sys",
        ] {
            assert!(
                !text.contains(page),
                "{} names the page ({page})",
                file.display()
            );
        }
    }
}

// ----- no import circle -----

/// A crate's modules: the module path (`barrier::aligned`) of each file, from its root.
fn modules(crate_root: &Path) -> BTreeMap<String, PathBuf> {
    fn declared(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in text.lines() {
            let l = line.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            let l = l
                .strip_prefix("pub(crate) ")
                .or_else(|| l.strip_prefix("pub(super) "))
                .unwrap_or(l);
            if let Some(rest) = l.strip_prefix("mod ") {
                if let Some(name) = rest.strip_suffix(';') {
                    out.push(name.trim().to_string());
                }
            }
        }
        out
    }
    let mut out = BTreeMap::new();
    let mut todo = vec![(String::new(), crate_root.to_path_buf())];
    while let Some((path, file)) = todo.pop() {
        let text = read(&file);
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let dir = match stem {
            "lib" | "main" | "mod" => file.parent().unwrap().to_path_buf(),
            _ if path.is_empty() => file.parent().unwrap().to_path_buf(), // a bin's root
            _ => file.parent().unwrap().join(stem),
        };
        for child in declared(&text) {
            let (a, b) = (
                dir.join(format!("{child}.rs")),
                dir.join(&child).join("mod.rs"),
            );
            let found = [a, b].into_iter().find(|p| root().join(p).exists());
            if let Some(child_file) = found {
                let child_path = if path.is_empty() {
                    child.clone()
                } else {
                    format!("{path}::{child}")
                };
                todo.push((child_path, child_file));
            }
        }
        out.insert(path, file);
    }
    out
}

/// The paths a file's code names through `crate::` or `super::`, resolved against its module
/// path, brace groups of a `use` expanded: `["a::b::C", "a::d"]`.
fn named_paths(text: &str, module: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let starts = |i: usize, w: &str| {
        text[i..].starts_with(w)
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
    };
    let mut i = 0;
    while i < text.len() {
        if !text.is_char_boundary(i) || !(starts(i, "crate::") || starts(i, "super::")) {
            i += 1;
            continue;
        }
        // The path runs while it is words, `::`, braces and commas (a use tree).
        let mut j = i;
        let mut depth = 0i32;
        while j < text.len() {
            let c = bytes[j] as char;
            if c == '{' {
                depth += 1;
            } else if c == '}' {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            } else if !(c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '*')
                && !(depth > 0 && (c == ',' || c.is_whitespace()))
            {
                break;
            }
            j += 1;
        }
        for path in expand(&text[i..j]) {
            let mut segs: Vec<String> = Vec::new();
            let mut base: Vec<String> = if module.is_empty() {
                Vec::new()
            } else {
                module.split("::").map(String::from).collect()
            };
            let mut parts = path.split("::").filter(|s| !s.is_empty()).peekable();
            if parts.peek() == Some(&"crate") {
                parts.next();
                base.clear();
            }
            while parts.peek() == Some(&"super") {
                parts.next();
                base.pop();
            }
            segs.extend(base);
            segs.extend(parts.map(String::from));
            out.push(segs);
        }
        i = j.max(i + 1);
    }
    out
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = tree[open + 1..]
        .strip_suffix('}')
        .unwrap_or(&tree[open + 1..]);
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| match p {
            "self" => vec![prefix.trim_end_matches("::").to_string()],
            _ => expand(&format!("{prefix}{p}")),
        })
        .collect()
}

/// Every crate's files and the files each imports (`use`, or a path in the code) other than
/// its own descendants: a module owns its children, so naming them is no import.
fn import_graph() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut roots: Vec<PathBuf> = vec!["src/lib.rs".into(), "src/main.rs".into()];
    for layer in &LAYERS {
        roots.push(Path::new(layer.dir).join("src/lib.rs"));
    }
    for entry in fs::read_dir(root().join("src/bin")).unwrap().flatten() {
        let p = entry.path();
        let rel = p.strip_prefix(root()).unwrap().to_path_buf();
        if p.is_dir() {
            roots.push(rel.join("main.rs"));
        } else if p.extension().is_some_and(|e| e == "rs") {
            roots.push(rel);
        }
    }
    let mut graph = BTreeMap::new();
    for crate_root in roots {
        let mods = modules(&crate_root);
        for (module, file) in &mods {
            let text = code(&read(file));
            let mut to = BTreeSet::new();
            for path in named_paths(&text, module) {
                // The longest prefix that is a module of this crate.
                let target = (0..=path.len())
                    .rev()
                    .map(|n| path[..n].join("::"))
                    .find(|p| mods.contains_key(p));
                let Some(target) = target else { continue };
                let own = module.is_empty() || target == *module || {
                    target.starts_with(&format!("{module}::"))
                };
                if !own {
                    to.insert(mods[&target].clone());
                }
            }
            graph
                .entry(file.clone())
                .or_insert_with(BTreeSet::new)
                .extend(to);
        }
    }
    graph
}

/// The strongly connected components with more than one file (Tarjan's algorithm).
fn circles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let Some((w, _)) = s.graph.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_two_files_import_each_other_even_through_others() {
    let graph = import_graph();
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    println!("{} files, {edges} imports between them", graph.len());
    // The reading itself is checked: it sees imports that are there.
    let barrier = PathBuf::from("crates/engine/src/barrier/mod.rs");
    assert!(
        graph[&PathBuf::from("crates/engine/src/barrier/aligned.rs")].contains(&barrier),
        "the reading misses `use super::…`"
    );
    assert!(
        edges > 300,
        "only {edges} imports read: the reading is broken"
    );
    let found = circles(&graph);
    let words: Vec<String> = found
        .iter()
        .map(|c| {
            let names: Vec<String> = c.iter().map(|p| p.display().to_string()).collect();
            names.join(" → ")
        })
        .collect();
    assert!(found.is_empty(), "import circles:\n{}", words.join("\n"));
}

#[test]
fn the_circle_finder_finds_a_circle_and_leaves_out_a_parent_naming_its_child() {
    let g: BTreeMap<PathBuf, BTreeSet<PathBuf>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.into(), v.into_iter().map(PathBuf::from).collect()))
    .collect();
    assert_eq!(
        circles(&g),
        vec![vec![PathBuf::from("a"), "b".into(), "c".into()]]
    );
    let paths = named_paths("use super::{x::Y, z};\nlet _ = crate::m::f();", "p::q");
    assert_eq!(paths, [vec!["p", "x", "Y"], vec!["p", "z"], vec!["m", "f"]]);
}

// ----- which files name a mode -----

/// The files that still name a particular checkpoint mode (`BarrierMode::Aligned` …) outside
/// the per-task barrier handlers (`crates/engine/src/barrier/`). The protocol registry is to
/// answer every such question from a protocol's description instead (issue 46): this list may
/// only shrink — a file that starts naming a mode fails here, and one that stops must leave it.
const NAMING_A_MODE: &[&str] = &[
    "crates/scenario/src/lib.rs",
    "crates/scenario/src/presets/build.rs",
    "crates/words/src/en.rs",
    "crates/words/src/zh.rs",
    "src/bin/abs-sim/flink/export.rs",
    "src/bin/abs-sim/overhead.rs",
];

#[test]
fn only_the_listed_files_name_a_particular_mode() {
    let variants = [
        "Aligned",
        "AtLeastOnce",
        "Unaligned",
        "ChandyLamport",
        "Synchronous",
    ];
    let mut naming = Vec::new();
    for file in sources() {
        if file.starts_with("crates/engine/src/barrier") {
            continue;
        }
        let text = code(&read(&file));
        let names = variants.iter().any(|v| {
            text.contains(&format!("BarrierMode::{v}"))
                || (text.contains("BarrierMode::*") && text.contains(v))
        });
        if names {
            naming.push(file.display().to_string());
        }
    }
    println!(
        "{} files outside the barrier handlers name a mode: {naming:?}",
        naming.len()
    );
    let new: Vec<_> = naming
        .iter()
        .filter(|f| !NAMING_A_MODE.contains(&f.as_str()))
        .collect();
    assert!(
        new.is_empty(),
        "these files name a particular mode: ask the protocol's description instead: {new:?}"
    );
    let gone: Vec<_> = NAMING_A_MODE
        .iter()
        .filter(|f| !naming.iter().any(|n| n == *f))
        .collect();
    assert!(
        gone.is_empty(),
        "these files no longer name a mode: take them off NAMING_A_MODE: {gone:?}"
    );
}

// ----- the line cap -----

/// No source file is longer than this (tests included), so each can be read in one sitting.
const LINE_CAP: usize = 650;

#[test]
fn no_source_file_is_over_the_line_cap() {
    let mut over = Vec::new();
    for file in sources() {
        let lines = read(&file).lines().count();
        if lines > LINE_CAP {
            over.push(format!("{} ({lines} lines)", file.display()));
        }
    }
    assert!(over.is_empty(), "over {LINE_CAP} lines: {over:?}");
}

/// A protocol's own folder sees the job through its narrow context, not the simulation:
/// stop-the-world's code names neither `Simulation` nor the parts it is made of.
#[test]
fn stop_the_world_sees_only_its_narrow_context() {
    let folder = "crates/engine/src/synchronous/";
    let files: Vec<PathBuf> = sources()
        .into_iter()
        .filter(|f| f.to_string_lossy().starts_with(folder))
        .collect();
    assert!(!files.is_empty(), "no file under {folder}");
    for file in files {
        let text = code(&read(&file));
        for word in [
            "Simulation",
            "sim::",
            "coordinator",
            "self.net",
            "self.tasks",
            "phys",
        ] {
            assert!(
                !text.contains(word),
                "{} names `{word}`: ask the World context instead",
                file.display()
            );
        }
    }
}

/// The narration's choice of sentence reads the events (which carry the engine's decisions)
/// and the protocol's description, never the mode or the graph: a sentence that needed either
/// would be re-deriving a decision the engine made.
#[test]
fn the_narration_chooses_from_events_not_from_the_mode_or_the_graph() {
    let files = [
        "crates/engine/src/view/narration.rs",
        "crates/engine/src/view/sentence.rs",
        "crates/engine/src/view/sentence/choose.rs",
    ];
    for file in files {
        let text = code(&read(&PathBuf::from(file)));
        for word in [
            "BarrierMode",
            "mode()",
            "Physical",
            "physical",
            "phys.",
            "Simulation",
        ] {
            assert!(
                !text.contains(word),
                "{file} names `{word}`: carry the decision in the event"
            );
        }
    }
}
