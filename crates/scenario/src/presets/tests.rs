use super::*;
use abs_engine::Config;

/// The files the page reads are the builders' presets, title and lesson aside
/// (`UPDATE_PRESETS=1` writes them).
#[test]
fn the_stored_presets_are_the_built_ones() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/presets");
    let stored = NAMES
        .iter()
        .chain(SMALL)
        .filter(|n| !BENCHMARKS.contains(n));
    for name in stored {
        let mut s = by_name(name).unwrap();
        s.title.clear();
        s.lesson.clear();
        let json = without_defaults(&s);
        let path = dir.join(format!("{name}.json"));
        if std::env::var("UPDATE_PRESETS").as_deref() == Ok("1") {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &json).unwrap();
        }
        let stored = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{} is missing: UPDATE_PRESETS=1", path.display()));
        assert_eq!(stored, json, "{name}: run with UPDATE_PRESETS=1");
        assert_eq!(crate::Scenario::from_json(&stored).unwrap(), s, "{name}");
    }
    // No file left over from a preset that is gone.
    let files = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "json"))
        })
        .count();
    let stored = NAMES
        .iter()
        .chain(SMALL)
        .filter(|n| !BENCHMARKS.contains(n));
    assert_eq!(files, stored.count());
}

/// The scenario's compact JSON without the fields the reader fills in the same (every
/// byte of the files is page weight).
fn without_defaults(s: &Scenario) -> String {
    use serde_json::Value;
    let mut v: Value = serde_json::from_str(&s.to_compact_json()).unwrap();
    let mut plain = s.clone();
    plain.config = Config::default();
    let plain: Value = serde_json::from_str(&plain.to_compact_json()).unwrap();
    let defaults = &plain["config"];
    let drop = |o: &mut Value, key: &str, default: &Value| {
        if let Some(m) = o.as_object_mut() {
            if m.get(key) == Some(default) {
                m.remove(key);
            }
        }
    };
    if let (Some(config), Some(d)) = (v.get_mut("config"), defaults.as_object()) {
        for (key, default) in d {
            drop(config, key, default);
        }
    }
    drop(&mut v, "lesson", &Value::from(""));
    drop(&mut v, "seed", &Value::from(0));
    for op in v["graph"]["operators"].as_array_mut().unwrap() {
        drop(op, "processing_time", &Value::from(1));
    }
    for edge in v["graph"]["edges"].as_array_mut().unwrap() {
        drop(
            edge,
            "capacity",
            &Value::from(abs_engine::model::DEFAULT_CAPACITY),
        );
        drop(edge, "fifo", &Value::from(true));
    }
    v.to_string()
}

#[test]
fn every_preset_has_the_pages_title_and_lesson() {
    for s in all() {
        let (title, lesson) = words(&s.name);
        assert!(!title.is_empty() && !lesson.is_empty(), "{}", s.name);
        assert_eq!((s.title.as_str(), s.lesson.as_str()), (title, lesson));
    }
    assert_eq!(all().len(), NAMES.len());
}
