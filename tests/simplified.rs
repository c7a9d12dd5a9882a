//! The Chinese words of the lesson page and the views, and the built-in lessons, as the
//! Simplified page shows them: converted whole, with the page's own table (`i18n::hans`, in
//! every student's page) and the few characters only these pages need
//! (`ui::lesson::words::hans`). The Flink view shows Traditional characters on a Simplified
//! page, and is not held to this.

use abs_playground::ui::lesson::words::hans;

/// Characters that are Traditional only (as `crates/words` lists them for its own test).
const TRADITIONAL_ONLY: &str = include_str!("../crates/words/src/traditional_only.txt");

#[test]
fn every_traditional_character_of_the_lessons_and_the_views_is_converted() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files: Vec<String> = [
        "src/ui/lesson/words.rs",
        "src/ui/compare/words.rs",
        "src/ui/edit/words.rs",
        "src/ui/explore/words.rs",
    ]
    .iter()
    .map(|f| format!("{root}/{f}"))
    .collect();
    let lessons = std::fs::read_dir(format!("{root}/static/lessons/zh")).unwrap();
    files.extend(lessons.map(|e| e.unwrap().path().display().to_string()));
    assert!(files.len() >= 10, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut left: Vec<char> = hans(&text)
            .chars()
            .filter(|c| !c.is_ascii() && TRADITIONAL_ONLY.contains(*c))
            .collect();
        left.sort_unstable();
        left.dedup();
        assert!(
            left.is_empty(),
            "{file}: add to the lessons' table (ui/lesson/words.rs, MORE): {}",
            left.iter().collect::<String>()
        );
    }
}
