//! Simplified Chinese (`?lang=zh-Hans`): the Traditional strings of `zh.rs`, converted when
//! they are produced — character by character, after a few words that differ (資料→数据,
//! 執行→运行, 行程→进程…). The page carries one copy of the Chinese text and these tables
//! (1.5 kB, 1.1 kB gzipped), not a second copy of all the text (5 kB more gzipped, even next
//! to the first) and of the code that formats it.
//!
//! `strings` is a [`Strings`] like the other languages': its fixed strings are converted once,
//! its sentence builders convert what the Traditional ones return. Every field is named below,
//! so a field added to [`Strings`] is a compile error here too until it is added.

use std::sync::{Mutex, OnceLock, PoisonError};

use super::zh::STRINGS as ZH;
use super::Strings;

/// Traditional → Simplified, one pair of characters after another (each of them 3 bytes in
/// UTF-8), sorted by the Traditional one. Every Traditional character in `zh.rs` that has
/// another Simplified form is here (the test `every_traditional_character_of_zh_is_converted`
/// says which are missing); `「」` become the mainland's quotation marks.
const CHARS: &str = "\
    「“」”丟丢並并佇伫併并來来個个們们側侧傳传價价優优儲储兒儿內内兩两別别則则動动務务區区協协卻却參参啟启單单圍围圖图執执報报場场塊块壓压學学實实寫写將将對对屬属帳帐帶带幫帮幾几廢废後后從从復复態态應应\
    戶户捨舍換换擇择擊击擬拟攔拦敗败數数於于時时暫暂會会東东條条棄弃業业樂乐標标樣样機机檔档檢检欄栏決决沒没減减測测滿满濾滤為为無无狀状現现環环畫画發发盡尽盤盘確确碼码種种稱称積积筆笔範范籤签約约紅红納纳\
    細细終终組组結结絕绝給给統统經经網网線线編编緩缓縮缩總总繞绕繼继續续脫脱脹胀與与舊旧著着蓋盖處处虛虚號号衝冲補补裡里製制複复見见規规觀观觸触訂订計计訊讯記记設设許许詞词試试話话該该詳详誌志認认語语誤误\
    說说課课調调請请論论證证讀读變变讓让負负費费資资蹤踪軸轴較较載载輯辑輸输轉转這这連连進进遊游運运過过達达遞递遠远適适遲迟選选遺遗還还邊边銀银錄录錢钱錯错鍵键鎖锁鐘钟長长閉闭開开間间關关陣阵隊队際际隨随\
    雖虽雙双離离響响頁页項项順顺須须預预頭头額额顏颜類类顯显餘余饋馈驗验驟骤體体麼么點点齊齐";

/// Words the mainland says differently (Taiwan's term → the mainland's), tried before the
/// characters; a longer word comes before any word it starts with.
const WORDS: [(&str, &str); 45] = [
    ("資料來源", "数据源"),
    ("詳細資料", "详细信息"),
    ("資料", "数据"),
    ("網路", "网络"),
    ("分散式", "分布式"),
    ("演算法", "算法"),
    ("投影片", "幻灯片"),
    ("行程", "进程"),
    ("執行", "运行"),
    ("訊息", "消息"),
    ("非同步", "异步"),
    ("全域", "全局"),
    ("情境", "场景"),
    ("項目", "元素"),
    ("交易", "事务"),
    ("逾時", "超时"),
    ("平行度", "并行度"),
    ("並行", "并发"),
    ("回饋", "反馈"),
    ("連結", "链接"),
    ("開啟", "打开"),
    ("檔案", "文件"),
    ("欄位", "字段"),
    ("佇列", "队列"),
    ("載入", "加载"),
    ("效能", "性能"),
    ("量測", "测量"),
    ("分頁", "标签页"),
    ("設定", "设置"),
    ("重設", "重置"),
    ("套用", "应用"),
    ("選取", "选中"),
    ("遺失", "丢失"),
    ("空白鍵", "空格键"),
    ("帳戶", "账户"),
    ("轉帳", "转账"),
    ("位元組", "字节"),
    ("陣列", "数组"),
    ("布林值", "布尔值"),
    ("字串", "字符串"),
    ("物件", "对象"),
    ("運算子", "算子"),
    ("參照", "引用"),
    // 筆 and 則 after a number are measure words (records, messages): "3 条记录", not
    // "3 笔记录".
    (" 筆", " 条"),
    (" 則", " 条"),
];

/// `text` in Simplified characters.
pub fn to_hans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'text: while let Some(c) = rest.chars().next() {
        for (word, hans) in WORDS {
            if let Some(after) = rest.strip_prefix(word) {
                out.push_str(hans);
                rest = after;
                continue 'text;
            }
        }
        match simplified(c) {
            Some(s) => out.push_str(s),
            None => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The Simplified form of `c`, if it has another one.
fn simplified(c: char) -> Option<&'static str> {
    let mut buf = [0; 4];
    let key = c.encode_utf8(&mut buf).as_bytes();
    if key.len() != 3 {
        return None;
    }
    let (mut lo, mut hi) = (0, CHARS.len() / 6);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let at = mid * 6;
        match CHARS.as_bytes()[at..at + 3].cmp(key) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return CHARS.get(at + 3..at + 6),
        }
    }
    None
}

/// A converted copy of a fixed string, kept for the page's life.
fn leak(s: &'static str) -> &'static str {
    Box::leak(to_hans(s).into_boxed_str())
}

/// [`leak`] for the strings sentence builders return: each is converted once.
fn cached(s: &'static str) -> &'static str {
    static CONVERTED: Mutex<Vec<((usize, usize), &'static str)>> = Mutex::new(Vec::new());
    let mut converted = CONVERTED.lock().unwrap_or_else(PoisonError::into_inner);
    let key = (s.as_ptr() as usize, s.len());
    if let Some(&(_, hans)) = converted.iter().find(|(k, _)| *k == key) {
        return hans;
    }
    let hans = leak(s);
    converted.push((key, hans));
    hans
}

/// The Simplified Chinese strings.
pub(super) fn strings() -> &'static Strings {
    static STRINGS: OnceLock<Strings> = OnceLock::new();
    STRINGS.get_or_init(build)
}

/// `Strings` from `ZH`: the `fixed` strings are converted now, the `builders` (with their
/// arguments) convert what they return, the rest are given.
macro_rules! converted {
    (
        fixed: [$($s:ident),* $(,)?],
        builders: [$($f:ident($($a:ident),*)),* $(,)?],
        $($field:ident: $value:expr),* $(,)?
    ) => {{
        // Every field is named: one added to `Strings` does not compile until it is here too.
        let Strings { $($s: _,)* $($f: _,)* $($field: _,)* } = ZH;
        let mut strings = ZH;
        for text in [$(&mut strings.$s),*] {
            *text = leak(*text);
        }
        $(strings.$f = |$($a),*| converted((ZH.$f)($($a),*));)*
        $(strings.$field = $value;)*
        strings
    }};
}

/// What a sentence builder returned, converted (one call in each builder, not inlined there).
#[inline(never)]
fn converted(text: String) -> String {
    to_hans(&text)
}

fn build() -> Strings {
    converted! {
        fixed: [
            verdict_column, consistent_short, inconsistent_short, carries_duplicates, carries_duplicates_short, legend_keyed, legend_round,
            legend_token, legend_money,
            app_title, page_title, tagline, preset_label, mode_label, lang_label, seeing, step,
            step_back, play, pause, reset, trigger, savepoint, savepoint_hint, start_snapshot, manual, manual_hint, speed,
            step_counter, time, timeline, shortcuts, close, dataflow, pan_hint,
            status_running, status_ending, status_finished, status_backpressured, status_failed,
            status_cancelled, fail_task, skip_failure, final_same, counted_twice, legend_replay,
            share, share_title, share_link, share_embed, share_hint, copy, open_full,
            editor_open, lessons_open, export_svg, export_png, earlier, export_title, export_failed, theory_title,
            spacetime_title, spacetime_hint, cut_place, cut_own, cut_keys, explore_open, compare_open,
            theory_loading, theory_failed, theory_retry,
            throughput_title, blocked, legend, legend_record, legend_barrier,
            legend_marker, legend_log, token_states_title, fifo, snapshots_title, non_fifo,
            fifo_on, fifo_off, legend_recorded, legend_cancel, legend_eod, legend_eop, legend_blocked,
            legend_kept_aligned, barriers, barriers_priority, barriers_timeout,
            legend_held, legend_persisted, legend_slips, legend_ticks, coordinator,
            no_checkpoints, no_snapshots, shortcut_snapshot, host_load_empty, inspector,
            tab_details, tab_checkpoints, select_hint, subtask,
            operator, status, state, inputs, held, has_barrier, channel, from, to, latency,
            in_flight, records_sent, records_received, yes, no, item, payload, derived_from,
            sent_at, arrives_at, item_gone, recent, trigger_time, end_to_end,
            alignment_duration, records_held, state_size, persisted, ack_time, start_delay,
            task_states, subtask_stats, async_duration, persisted_data,
            processed_data, unaligned_checkpoint, channel_states, no_channel_state,
            aligned_no_channel_state, not_retained, not_completed, consistent, inconsistent,
            narration, narration_empty, ended, dismiss, mode_aligned_debloat,
        ],
        builders: [
            start_snapshot_at(a), status_aligning(a), status_tracking(a), status_persisting(a),
            status_snapshotting(a), status_replaying(a), status_stopped(a), recovery_planned(a, b),
            recovery_down(a, b, c, d), recovery_restored(a, b), recovery_rewound(a, b, c),
            recovery_duplicates(a), final_differs(a), final_word(a, b, c), sink_committed(a, b),
            sink_emitted(a), broken_link(a),
            edited_scenario(a), bad_scenario(a), throughput_latest(a, b, c), throughput_hint(a), state_offset(a),
            state_processed(a), state_keys(a), state_received(a), state_token(a),
            state_balance(a), slow(a), kept_aligned(a), barriers_kept(a), buffer_size(a), more(a), mode_aligned_timeout(a), timeout_note(a),
            more_checkpoints(a), snapshot(a), global_state_of_snapshot(a), conservation(a, b, c),
            crossing(a, b, c, d), token_states_caption(a), checkpoint(a), checkpoint_status(a),
            acked(a, b), input_n(a), item_kind(a), global_state_of(a), verdict_counts(a, b),
            word_check_ok(a), word_check_bad(a), rows_more(a), narrate(a, b),
            bad_param(a, b, c), refused(a), persisted_figure(a, b),
            syntax_words(a),
            host_bad_param(a, b, c), host_bad_number(a, b, c), mode_unavailable(a, b, c),
            step_past_end(a, b), ignored_step(a), ignored_open(a, b), ignored_sel(a),
            ignored_panel(a), link_error(a), scenario_error(a), ignored_cut(a),
            cut_consistent(a), cut_inconsistent(a), cut_orphan(a, b, c),
        ],
        mode_name: |m| cached((ZH.mode_name)(m)),
        operator_kind: |k| cached((ZH.operator_kind)(k)),
        preset_text: |name| (ZH.preset_text)(name).map(|(t, l)| (cached(t), cached(l))),
        token_state: |place, p, q| {
            let (name, states) = (ZH.token_state)(place, p, q);
            (converted(name), converted(states))
        },
        shortcut_list: ZH
            .shortcut_list
            .iter()
            .map(|&(key, what)| (leak(key), leak(what)))
            .collect::<Vec<_>>()
            .leak(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        // The strings, and the theory texts the page fetches.
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
        assert!(std::ptr::eq(s, Lang::ZhHans.strings()), "built once");
        for mode in BarrierMode::ALL {
            let name = (s.mode_name)(mode);
            assert_eq!(name, to_hans((ZH.mode_name)(mode)));
            assert!(std::ptr::eq(name, (s.mode_name)(mode)), "converted once");
        }
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
