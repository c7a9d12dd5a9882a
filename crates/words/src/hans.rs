//! Simplified Chinese (`?lang=zh-Hans`, the feature `hans`). Its strings are those of
//! `zh.rs`, `zh/narrate.rs`, `zh_errors.rs` and the presets' Chinese texts, converted when
//! the crate is built (`build.rs`: the module `zh_hans`), so the Simplified page carries one
//! copy of the text, already converted, and the Traditional page no conversion at all. What
//! the page fetches (the theory texts, lessons) is converted here when it arrives, by the same
//! tables: character by character, after a few words that differ (資料→数据, 執行→运行,
//! 行程→进程…).

include!("hans_table.rs");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zh::STRINGS as ZH;
    use crate::{Lang, Names};
    use abs_engine::view;
    use abs_engine::BarrierMode;
    use abs_scenario::presets;

    /// Characters that are Traditional only (OpenCC's Traditional → Simplified characters,
    /// without those whose Simplified form may be the same character).
    const TRADITIONAL_ONLY: &str = include_str!("traditional_only.txt");

    fn traditional_in(text: &str) -> String {
        let mut found: Vec<char> = text
            .chars()
            .filter(|c| !c.is_ascii() && TRADITIONAL_ONLY.contains(*c))
            .collect();
        found.sort_unstable();
        found.dedup();
        found.into_iter().collect()
    }

    fn table() -> Vec<(char, char)> {
        let chars: Vec<char> = CHARS.chars().collect();
        chars.chunks(2).map(|p| (p[0], p[1])).collect()
    }

    /// The Simplified theory texts are the Traditional ones converted: the page fetches
    /// them as they are. `UPDATE_THEORY=1` writes the file.
    #[test]
    fn the_simplified_theory_file_is_the_traditional_one_converted() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/theory/");
        let hant = std::fs::read_to_string(format!("{dir}zh-Hant.txt")).unwrap();
        let want = to_hans(&hant).replace(
            "# The \"Why it matters\" panel's texts (zh-Hant)",
            "# The \"Why it matters\" panel's texts (zh-Hans: written from zh-Hant.txt by UPDATE_THEORY=1 cargo test -p abs-words)",
        );
        let path = format!("{dir}zh-Hans.txt");
        if std::env::var_os("UPDATE_THEORY").is_some() {
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "static/theory/zh-Hans.txt is not zh-Hant.txt converted: UPDATE_THEORY=1 cargo test -p abs-words"
        );
    }

    #[test]
    fn the_table_is_pairs_of_three_byte_characters_sorted_once() {
        assert_eq!(CHARS.chars().count() % 2, 0);
        assert!(CHARS.chars().all(|c| c.len_utf8() == 3));
        let table = table();
        for w in table.windows(2) {
            assert!(w[0].0 < w[1].0, "{:?} before {:?}", w[0], w[1]);
        }
        for &(t, s) in &table {
            assert_ne!(t, s);
            assert_eq!(simplified(t), Some(s.to_string().as_str()), "{t}");
            assert!(
                !table.iter().any(|&(t2, _)| t2 == s),
                "{t}→{s}, and {s} is converted again"
            );
        }
        for (i, (t, s)) in WORDS.iter().enumerate() {
            assert!(traditional_in(s).is_empty(), "{t}→{s} is not Simplified");
            for (earlier, _) in &WORDS[..i] {
                assert!(!t.starts_with(earlier), "{earlier} hides {t}");
            }
        }
    }

    #[test]
    fn every_traditional_character_of_zh_is_converted() {
        // The strings, and the theory texts the page fetches (the views' and the lesson
        // page's words: `tests/words.rs`).
        let source = [
            include_str!("zh.rs"),
            include_str!("zh_errors.rs"),
            super::super::theory::bundled(super::super::Lang::Zh),
        ]
        .concat();
        let hans = to_hans(&source);
        let left = traditional_in(&hans);
        assert!(left.is_empty(), "add to hans.rs's CHARS: {left}");
        // Nor any Traditional character of the table (some, like 於, are not in the list).
        for (t, _) in table() {
            assert!(!hans.contains(t), "{t} is left");
        }
        assert!(!hans.contains('「') && !hans.contains('」'));
    }

    #[test]
    fn words_convert_as_the_mainland_says_them() {
        for (t, s) in [
            ("檢查點", "检查点"),
            ("屏障", "屏障"),
            ("對齊", "对齐"),
            ("資料來源", "数据源"),
            ("資料流", "数据流"),
            ("通道", "通道"),
            ("緩衝", "缓冲"),
            ("記錄", "记录"),
            ("一致割集", "一致割集"),
            ("全域狀態", "全局状态"),
            ("非同步屏障快照", "异步屏障快照"),
            ("兩個行程", "两个进程"),
            ("執行中", "运行中"),
            ("訊息", "消息"),
            ("已排隊的 3 筆記錄", "已排队的 3 条记录"),
            ("記錄「apple」", "记录“apple”"),
            (
                "Merge#0 的輸入 1（來自 Src A#0）",
                "Merge#0 的输入 1（来自 Src A#0）",
            ),
            ("t=120 時，p→q", "t=120 时，p→q"),
            ("用來量測頁面效能", "用来测量页面性能"),
            ("它記錄的 3 則傳輸中訊息", "它记录的 3 条传输中消息"),
            ("在「檢查點」分頁", "在“检查点”标签页"),
            ("否則", "否则"),
        ] {
            assert_eq!(to_hans(t), s);
        }
    }

    #[test]
    fn the_simplified_strings_are_the_traditional_ones_converted() {
        let s = Lang::ZhHans.strings();
        assert_eq!(s.app_title, "ABS 游乐场");
        assert_eq!(s.page_title, to_hans(ZH.page_title));
        assert_eq!(s.consistent, to_hans(ZH.consistent));
        assert_eq!((s.checkpoint)(2), "检查点 2");
        assert_eq!((s.acked)(3, 4), "已确认 3/4");
        assert_eq!(s.shortcut_list[0], ("空格键", "播放／暂停"));
        for mode in BarrierMode::ALL {
            assert_eq!((s.mode_name)(mode), to_hans((ZH.mode_name)(mode)));
        }
        assert_eq!(
            (s.preset_text)("alignment").map(|(t, _)| t.to_string()),
            (ZH.preset_text)("alignment").map(|(t, _)| to_hans(t))
        );
        for name in presets::NAMES {
            let (title, lesson) = (s.preset_text)(name).unwrap();
            assert!(traditional_in(&(title.to_string() + lesson)).is_empty());
        }
    }

    #[test]
    fn the_simplified_narration_has_no_traditional_character() {
        let mut told = 0;
        for name in ["alignment", "recovery", "token"] {
            for mode in BarrierMode::ALL {
                let Ok(mut sim) = presets::by_name(name).unwrap().with_mode(mode).simulation()
                else {
                    continue;
                };
                for _ in 0..400 {
                    if sim.step().is_none() {
                        break;
                    }
                    for b in view::last_sentences(&sim) {
                        let text = (Lang::ZhHans.strings().narrate)(&b, &Names(&sim));
                        let zh = (ZH.narrate)(&b, &Names(&sim));
                        assert_eq!(text, to_hans(&zh));
                        assert!(traditional_in(&text).is_empty(), "{text}");
                        told += 1;
                    }
                }
            }
        }
        assert!(told > 500, "{told}");
    }
}
