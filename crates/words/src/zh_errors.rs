//! Why a scenario, a link or an action was refused, in Chinese. The English texts are the
//! errors' own `Display` (the CLI prints them too); the Chinese build calls only these, so
//! its page carries no English sentence and its wasm no English error text.

use abs_engine::model::SettingError;
use abs_engine::physical::{FLINK_CONCURRENT_UNALIGNED, MAX_CHANNELS, MAX_LINES, MAX_TASKS};
use abs_engine::vocab::MAX_LATENCY;
use abs_engine::{ActionError, GraphError};
use abs_scenario::codec::LinkError;
use abs_scenario::{ScenarioError, MAX_SCENARIO_BYTES};

/// Every scenario error, worded whole (the second build, `abs-sim`).
#[cfg_attr(
    all(target_arch = "wasm32", not(feature = "all-presets")),
    allow(dead_code)
)]
pub fn scenario_error(e: &ScenarioError) -> String {
    match e {
        ScenarioError::TooLarge(n) => {
            format!("情境有 {n} 位元組，最多接受 {MAX_SCENARIO_BYTES} 位元組")
        }
        #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
        ScenarioError::TooLargeForPage(n) => format!(
            "這個作業有 {n} 條通道；遊樂場最多執行 {} 條（`abs-sim` 可執行到 {MAX_CHANNELS} 條）",
            abs_scenario::PAGE_MAX_CHANNELS
        ),
        // The editor words a syntax error itself (line, column, field); a link or the host
        // page gets it whole.
        ScenarioError::Syntax {
            line,
            column,
            message,
        } => format!("第 {line} 行第 {column} 列：{}", syntax_words(message)),
        ScenarioError::Graph(g @ GraphError::ConcurrentUnaligned { .. }) => graph_error(g),
        ScenarioError::Graph(g) => format!("作業圖無效：{}", graph_error(g)),
        ScenarioError::Setting(s) => setting_error(s),
        ScenarioError::UnknownPreset(n) => format!("沒有名為「{n}」的預設情境"),
        ScenarioError::UnknownFailedTask { task, known } => format!(
            "failures 中沒有名為「{task}」的子任務（子任務有：{}）",
            known.join("、")
        ),
    }
}

/// A scenario error as the student's builds word it: they meet only a link's or the host
/// page's scenario that does not read (said with where, and where to see why: the editor,
/// in the second build; a notice shows 40 characters of it) and Flink's refusal of concurrent unaligned checkpoints, in full.
#[cfg(all(target_arch = "wasm32", not(feature = "all-presets")))]
pub fn scenario_error_short(e: &ScenarioError) -> String {
    match e {
        ScenarioError::Graph(GraphError::ConcurrentUnaligned { asked }) => {
            concurrent_unaligned(*asked)
        }
        ScenarioError::UnknownPreset(n) => format!("沒有名為「{n}」的預設情境"),
        // Short: a notice shows 40 characters of it.
        ScenarioError::Syntax { line, column, .. } => {
            format!("第 {line} 行第 {column} 列有誤（情境編輯器會說明原因）")
        }
        _ => "情境無效（情境編輯器會說明原因）".into(),
    }
}

#[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
use self::scenario_error as scenario_words;
#[cfg(all(target_arch = "wasm32", not(feature = "all-presets")))]
use self::scenario_error_short as scenario_words;

fn concurrent_unaligned(asked: u32) -> String {
    format!(
        "Flink 拒絕啟動這個作業：max_concurrent_checkpoints 是 {asked}，但啟用非對齊檢查點時（非對齊模式，或帶逾時的對齊模式）同時最多只能進行 1 個（「{FLINK_CONCURRENT_UNALIGNED}」）；請設為 1"
    )
}

fn graph_error(e: &GraphError) -> String {
    match e {
        GraphError::NoOperators => "沒有任何運算子".into(),
        GraphError::NoSource => "沒有資料來源".into(),
        GraphError::EmptyName => "有運算子的名稱是空的".into(),
        GraphError::DuplicateOperator(n) => format!("有兩個運算子都叫「{n}」"),
        GraphError::ZeroParallelism(n) => format!("運算子「{n}」的平行度是 0（至少要 1）"),
        GraphError::UnknownOperator { edge, name } => {
            format!("第 {edge} 條邊提到的運算子「{name}」不存在")
        }
        GraphError::DuplicateEdge { from, to } => format!("從「{from}」到「{to}」有兩條邊"),
        GraphError::ForwardParallelism {
            from,
            to,
            from_p,
            to_p,
        } => format!(
            "forward 邊「{from}」→「{to}」連接平行度 {from_p} 與 {to_p}；forward 需要相同的平行度（請改用 rebalance 或 hash）"
        ),
        GraphError::SourceHasInputs(n) => format!("資料來源「{n}」不能有輸入"),
        GraphError::NoInputs(n) => format!("運算子「{n}」沒有輸入"),
        GraphError::UnionNeedsTwoInputs(n) => format!("union「{n}」至少需要兩條輸入邊"),
        GraphError::SourceWithoutLines(n) => format!("資料來源「{n}」沒有可讀的行"),
        GraphError::ZeroInterval(n) => format!("資料來源「{n}」的 interval 是 0"),
        GraphError::Cycle(n) => format!(
            "圖中有經過「{n}」的環，至少一次模式只能用於無環圖：請改用對齊、非對齊或 Chandy-Lamport"
        ),
        GraphError::ProcessParallelism(n) => format!("行程「{n}」的平行度必須是 1"),
        GraphError::TwoTokens(a, b) => {
            format!("行程「{a}」和「{b}」一開始都持有令牌；最多只能有一個")
        }
        GraphError::ConcurrentUnaligned { asked } => concurrent_unaligned(*asked),
        GraphError::NoSourceForBarriers => {
            "圖中沒有可注入屏障的資料來源；請用 Chandy-Lamport 執行，由行程發起快照".into()
        }
        GraphError::UnknownInitiator(n) => format!("發起者「{n}」不是圖中的子任務"),
        GraphError::Unreachable { initiator, task } => format!(
            "從「{initiator}」出發的標記到不了「{task}」，快照永遠無法完成"
        ),
        GraphError::IterateWithoutLoop(n) => format!(
            "iterate「{n}」需要一條指向自己的邊（回饋邊）"
        ),
        GraphError::TooManyTasks(n) => format!("圖中有 {n} 個子任務；最多 {MAX_TASKS} 個"),
        GraphError::TooManyChannels(n) => {
            format!("圖中有 {n} 條通道；最多 {MAX_CHANNELS} 條")
        }
        GraphError::TooManyLines(n) => format!("資料來源共有 {n} 行；最多 {MAX_LINES} 行"),
    }
}

fn setting_error(e: &SettingError) -> String {
    match e {
        SettingError::Zero(field) => format!("{field} 是 0；至少要 1"),
        SettingError::ZeroCheckpointInterval => {
            "checkpoint_interval 是 0；至少要 1（或設為 null，只手動觸發檢查點）".into()
        }
        SettingError::Latency {
            edge,
            from,
            to,
            latency,
        } => format!(
            "第 {edge} 條邊（「{from}」→「{to}」）的延遲是 {latency}；必須在 1 到 {MAX_LATENCY} 之間"
        ),
        SettingError::Capacity { edge, from, to } => format!(
            "第 {edge} 條邊（「{from}」→「{to}」）的容量是 0；通道至少要能容納 1 個項目"
        ),
    }
}

pub fn link_error(e: &LinkError) -> String {
    match e {
        LinkError::NotBase64 => "不是 URL 安全的 base64".into(),
        LinkError::NotUtf8 => "不是 UTF-8 文字".into(),
        LinkError::CutShort => "連結中的情境不完整".into(),
        LinkError::UnknownVersion(v) => format!("未知的情境編碼版本 {v}"),
        LinkError::MalformedCount => "有一個計數格式錯誤".into(),
        LinkError::TrailingBytes => "情境結束後還有多餘的位元組".into(),
        LinkError::BadReference => "有一個參照指向情境之外".into(),
        LinkError::Scenario(e) => scenario_words(e),
        LinkError::Choice(entry) => format!("選擇「{entry}」無法讀取"),
        LinkError::ChoiceRefused { step, error } => {
            format!("第 {step} 步的選擇：{}", action_error(error))
        }
        LinkError::ChoicePassed(step) => format!("第 {step} 步的選擇來得太晚"),
    }
}

pub fn action_error(e: &ActionError) -> String {
    match e {
        ActionError::NoSuchChannel(c) => format!("沒有通道 {c}"),
        ActionError::NoSuchTask(t) => format!("沒有子任務 {t}"),
        ActionError::ChannelEmpty(c) => format!("通道 {c} 沒有可以遞送的項目"),
        ActionError::ChannelPaused(c) => format!("通道 {c} 已暫停"),
        ActionError::NotOutOfOrder(c, n) => {
            format!("通道 {c} 不能先遞送第 {n} 項：它是先進先出的通道，或沒有這一項")
        }
        ActionError::TaskReplaying(t) => {
            format!("子任務 {t} 必須先清空對齊緩衝，才能讀取新的輸入")
        }
        ActionError::NothingToReplay(t) => format!("子任務 {t} 沒有要重放的項目"),
        ActionError::NotASource(t) => format!("子任務 {t} 不是資料來源"),
        ActionError::SourceFinished(t) => format!("資料來源 {t} 已經讀完日誌"),
        ActionError::CannotTrigger => "現在無法開始快照（同時進行的已達上限）".into(),
        ActionError::NotExpired(n) => format!("檢查點 {n} 還沒有逾時"),
        ActionError::JobFinished => "作業已經結束：不再觸發檢查點".into(),
        ActionError::TasksFinished => {
            "已有子任務結束，而任務結束後的檢查點沒有開啟：不再觸發檢查點".into()
        }
        ActionError::Restarting => "作業在失敗後停止中：重啟之前什麼都不會執行".into(),
        ActionError::NotRestarting => "作業正在執行：沒有要重啟的".into(),
        ActionError::NoPlannedFailure(t) => format!("沒有為子任務 {t} 預定失敗"),
        ActionError::Backpressured(t) => {
            format!("子任務 {t} 受到背壓：輸出通道已滿，所以它不接收輸入")
        }
        ActionError::BadLatency(l) => format!("延遲 {l} 超出範圍（1 到 {MAX_LATENCY}）"),
        ActionError::NotAligning(n) => {
            format!("檢查點 {n} 現在不能改為非對齊（它沒有在超過對齊逾時後仍在對齊）")
        }
        ActionError::Chained(c) => {
            format!("通道 {c} 是串接成鏈的運算子之間的一次呼叫：沒有可以暫停、放慢或打亂順序的東西")
        }
        ActionError::NoSavepoints => {
            "保存點是 Flink 的：只有它的模式（對齊、非對齊、至少一次）會做保存點".into()
        }
        ActionError::NotChandyLamport => {
            "只有 Chandy-Lamport 讓行程發起快照（ABS 模式在資料來源觸發）".into()
        }
        ActionError::CannotReachAll(t) => {
            format!("子任務 {t} 無法發起：它的標記到不了每個行程")
        }
        ActionError::SourceStopped(t) => {
            format!("資料來源子任務 {t} 已停止，直到同步檢查點完成")
        }
        ActionError::NotDrained(n) => {
            format!("檢查點 {n} 還不能讓所有任務做快照：通道尚未清空")
        }
    }
}

/// A syntax error of a scenario or lesson file in words (the editor adds the line and column).
pub(crate) fn syntax_words(m: &str) -> String {
    match crate::Syntax::of(m) {
        crate::Syntax::EndInString => "文字在字串中途結束：缺少右引號 \"".into(),
        crate::Syntax::ControlInString => "字串中有換行（可能缺少右引號 \"）".into(),
        crate::Syntax::EndEarly => "文字提前結束：缺少一個值，或右括號 } 或 ]".into(),
        crate::Syntax::Expected("`,` or `}`") => {
            "這裡缺少逗號或右括號 }（或者前面少了一個引號）".into()
        }
        crate::Syntax::Expected("`,` or `]`") => "這裡缺少逗號或右括號 ]".into(),
        crate::Syntax::Expected("`:`") => "欄位名稱後面缺少冒號 :".into(),
        crate::Syntax::Expected("a quoted key") => {
            "這裡的欄位名稱沒有加雙引號（JSON 的欄位名稱都要放在雙引號裡）".into()
        }
        crate::Syntax::Expected("a string key") => {
            "這裡應該是加了雙引號的欄位名稱（} 前不能有逗號）".into()
        }
        crate::Syntax::Expected("value") => "這裡應該是一個值".into(),
        crate::Syntax::Expected(what) => format!("這裡應該是 {what}"),
        crate::Syntax::Trailing => "情境的右括號 } 後面還有文字".into(),
        crate::Syntax::Escape => "反斜線開始了一個 JSON 不認得的跳脫序列".into(),
        crate::Syntax::LeadingZero => "數字不能以 0 開頭（寫 17，不要寫 017）".into(),
        crate::Syntax::TooDeep => "文字巢狀太深".into(),
        crate::Syntax::Missing(name) => format!("這裡必須有欄位「{name}」"),
        crate::Syntax::Duplicate(name) => format!("欄位「{name}」出現了兩次"),
        crate::Syntax::UnknownField(name, known) => {
            format!("這裡沒有欄位「{name}」；可用的欄位是 {known}")
        }
        crate::Syntax::UnknownVariant(name, known) => format!("「{name}」不是 {known} 之一"),
        crate::Syntax::InvalidType(given, wanted) => format!(
            "這裡給的是{}，應該是{}",
            json_kind(given),
            json_kind(wanted)
        ),
        crate::Syntax::OutOfRange(v, max, what) => format!(
            "{v} 不是{}0 到 {max} 之間的整數",
            match what {
                "" => "",
                "a percentage" => "百分比：",
                _ => "選項的索引：",
            }
        ),
        crate::Syntax::NotASetting(name, kind, "") => {
            format!("「{kind}」運算子沒有任何設定，不能有欄位「{name}」")
        }
        crate::Syntax::NotASetting(name, kind, own) => {
            format!("「{kind}」運算子沒有欄位「{name}」；它的欄位是 {own}")
        }
        crate::Syntax::Other(m) => m.to_string(),
    }
}

/// A JSON value's kind as the reader names it ("integer `5`", "a string", "struct Edge"),
/// in Chinese; a value it quotes is kept.
fn json_kind(what: &str) -> String {
    let what = what.strip_prefix("a ").unwrap_or(what);
    // "an operator kind", "struct Edge": an object; "u32", "u64": a whole number.
    if what.starts_with("an ") || what.starts_with("struct ") {
        return "物件".into();
    }
    if what.starts_with('u') {
        return "非負整數".into();
    }
    // A table, not a `match` of strings: the same words in a fifth of the code. A value given
    // ("integer `5`") is kept after its kind.
    const KINDS: [(&str, &str); 6] = [
        ("floating point", "小數"),
        ("integer", "整數"),
        ("string", "字串"),
        ("boolean", "布林值"),
        ("sequence", "陣列"),
        ("map", "物件"),
    ];
    for (en, zh) in KINDS {
        if let Some(rest) = what.strip_prefix(en) {
            return format!("{zh}{rest}");
        }
    }
    format!(" {what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// English words a Chinese sentence may carry: field names and values as the file spells
    /// them, and names of things.
    const KEPT: &[&str] = &[
        "failures",
        "forward",
        "rebalance",
        "hash",
        "union",
        "interval",
        "iterate",
        "null",
        "checkpoint_interval",
        "max_concurrent_checkpoints",
        "base64",
        "URL",
        "UTF",
        "JSON",
        "Chandy",
        "Lamport",
        "ABS",
        "Count",
        "Src",
        "Sink",
        "Nope",
        "Flink",
    ];

    /// English words outside quotes: field names and values in `…` or 「…」 are the file's.
    fn english_words(text: &str) -> Vec<String> {
        let (mut outside, mut quoted) = (String::new(), None);
        for c in text.chars() {
            match (quoted, c) {
                (None, '`') => quoted = Some('`'),
                (None, '「') => quoted = Some('」'),
                (Some(end), c) if c == end => quoted = None,
                (None, c) => outside.push(c),
                _ => {}
            }
        }
        outside
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.chars().filter(char::is_ascii_alphabetic).count() >= 2)
            .filter(|w| !KEPT.contains(w))
            .map(str::to_string)
            .collect()
    }

    fn name(s: &str) -> String {
        s.to_string()
    }

    /// One of every error, each arm of a `match` so that a new variant must be added here.
    fn every_error() -> Vec<ScenarioError> {
        let graph = [
            GraphError::NoOperators,
            GraphError::NoSource,
            GraphError::EmptyName,
            GraphError::DuplicateOperator(name("Count")),
            GraphError::ZeroParallelism(name("Count")),
            GraphError::UnknownOperator {
                edge: 2,
                name: name("Nope"),
            },
            GraphError::DuplicateEdge {
                from: name("Src"),
                to: name("Sink"),
            },
            GraphError::ForwardParallelism {
                from: name("Src"),
                to: name("Sink"),
                from_p: 2,
                to_p: 1,
            },
            GraphError::SourceHasInputs(name("Src")),
            GraphError::NoInputs(name("Sink")),
            GraphError::UnionNeedsTwoInputs(name("Count")),
            GraphError::SourceWithoutLines(name("Src")),
            GraphError::ZeroInterval(name("Src")),
            GraphError::Cycle(name("Count")),
            GraphError::ProcessParallelism(name("Count")),
            GraphError::TwoTokens(name("Src"), name("Sink")),
            GraphError::NoSourceForBarriers,
            GraphError::UnknownInitiator(name("Nope")),
            GraphError::Unreachable {
                initiator: name("Src"),
                task: name("Sink"),
            },
            GraphError::IterateWithoutLoop(name("Count")),
            GraphError::TooManyTasks(5000),
            GraphError::TooManyChannels(2_000_000),
            GraphError::TooManyLines(20_000),
            GraphError::ConcurrentUnaligned { asked: 2 },
        ];
        let mut seen = [false; 24];
        for g in &graph {
            seen[match g {
                GraphError::NoOperators => 0,
                GraphError::NoSource => 1,
                GraphError::EmptyName => 2,
                GraphError::DuplicateOperator(_) => 3,
                GraphError::ZeroParallelism(_) => 4,
                GraphError::UnknownOperator { .. } => 5,
                GraphError::DuplicateEdge { .. } => 6,
                GraphError::ForwardParallelism { .. } => 7,
                GraphError::SourceHasInputs(_) => 8,
                GraphError::NoInputs(_) => 9,
                GraphError::UnionNeedsTwoInputs(_) => 10,
                GraphError::SourceWithoutLines(_) => 11,
                GraphError::ZeroInterval(_) => 12,
                GraphError::Cycle(_) => 13,
                GraphError::ProcessParallelism(_) => 14,
                GraphError::TwoTokens(..) => 15,
                GraphError::NoSourceForBarriers => 16,
                GraphError::UnknownInitiator(_) => 17,
                GraphError::Unreachable { .. } => 18,
                GraphError::IterateWithoutLoop(_) => 19,
                GraphError::TooManyTasks(_) => 20,
                GraphError::TooManyChannels(_) => 21,
                GraphError::TooManyLines(_) => 22,
                GraphError::ConcurrentUnaligned { .. } => 23,
            }] = true;
        }
        assert!(
            seen.iter().all(|&s| s),
            "a graph error is missing: {seen:?}"
        );
        let settings = [
            SettingError::ZeroCheckpointInterval,
            SettingError::Latency {
                edge: 1,
                from: name("Src"),
                to: name("Sink"),
                latency: 0,
            },
            SettingError::Capacity {
                edge: 1,
                from: name("Src"),
                to: name("Sink"),
            },
            SettingError::Zero("max_concurrent_checkpoints"),
        ];
        let mut out: Vec<ScenarioError> = graph.into_iter().map(ScenarioError::Graph).collect();
        out.extend(settings.into_iter().map(ScenarioError::Setting));
        out.extend([
            ScenarioError::TooLarge(2 << 20),
            ScenarioError::TooLargeForPage(1 << 20),
            ScenarioError::Syntax {
                line: 3,
                column: 9,
                message: "expected `,` or `}` at line 3 column 9".into(),
            },
            ScenarioError::UnknownPreset(name("Nope")),
            ScenarioError::UnknownFailedTask {
                task: name("Nope"),
                known: vec![name("Src"), name("Sink")],
            },
        ]);
        out
    }

    fn every_action_error() -> Vec<ActionError> {
        vec![
            ActionError::NoSuchChannel(3),
            ActionError::NoSuchTask(3),
            ActionError::ChannelEmpty(3),
            ActionError::ChannelPaused(3),
            ActionError::NotOutOfOrder(3, 2),
            ActionError::TaskReplaying(3),
            ActionError::NothingToReplay(3),
            ActionError::NotASource(3),
            ActionError::SourceFinished(3),
            ActionError::CannotTrigger,
            ActionError::NotExpired(2),
            ActionError::JobFinished,
            ActionError::TasksFinished,
            ActionError::Restarting,
            ActionError::NotRestarting,
            ActionError::NoPlannedFailure(3),
            ActionError::Backpressured(3),
            ActionError::BadLatency(0),
            ActionError::NotAligning(2),
            ActionError::NotChandyLamport,
            ActionError::NoSavepoints,
            ActionError::Chained(0),
            ActionError::CannotReachAll(3),
            ActionError::SourceStopped(0),
            ActionError::NotDrained(2),
        ]
    }

    #[test]
    fn every_refusal_is_said_in_chinese_with_its_figures() {
        let mut links: Vec<LinkError> = vec![
            LinkError::NotBase64,
            LinkError::NotUtf8,
            LinkError::CutShort,
            LinkError::UnknownVersion(7),
            LinkError::MalformedCount,
            LinkError::TrailingBytes,
            LinkError::BadReference,
            LinkError::Choice(name("5q")),
            LinkError::ChoicePassed(5),
        ];
        links.extend(every_error().into_iter().map(LinkError::Scenario));
        links.extend(
            every_action_error()
                .into_iter()
                .map(|error| LinkError::ChoiceRefused { step: 5, error }),
        );
        let mut said = std::collections::BTreeSet::new();
        for e in &links {
            let zh = link_error(e);
            let en = e.to_string();
            assert!(english_words(&zh).is_empty(), "{zh:?} (for {en:?})");
            // The figures and names of the English text are all there.
            for figure in en
                .split(|c: char| !c.is_ascii_digit())
                .filter(|d| !d.is_empty())
            {
                assert!(zh.contains(figure), "{zh:?} lacks {figure} of {en:?}");
            }
            for quoted in en.split('"').skip(1).step_by(2) {
                assert!(
                    zh.contains(&format!("「{quoted}」")),
                    "{zh:?} lacks {quoted:?}"
                );
            }
            assert!(said.insert(zh.clone()), "said twice: {zh}");
        }
        assert_eq!(said.len(), 9 + 38 + 20);
    }

    /// Presets' files broken in many ways, read as the editor reads them: every refusal is
    /// worded in Chinese, none left in the reader's English.
    #[test]
    fn a_broken_file_is_refused_in_chinese() {
        use abs_scenario::{presets, Scenario};
        let (mut refused, mut worded) = (0, std::collections::BTreeMap::new());
        for preset in presets::all() {
            let json = preset.to_json();
            let mut broken: Vec<String> = Vec::new();
            for at in (1..json.len()).step_by(23) {
                if json.is_char_boundary(at) && json.is_char_boundary(at + 1) {
                    broken.push(format!("{}{}", &json[..at], &json[at + 1..]));
                }
            }
            for (from, to) in [
                ("\"parallelism\": 2", "\"parallelism\": 99999999999"),
                ("\"parallelism\": 1", "\"parallelism\": -1"),
                ("\"latency\": ", "\"latency\": 1.5, \"x\": "),
                ("\"seed\": ", "\"seed\": \"one\", \"s\": "),
                ("\"type\": \"split\"", "\"type\": \"split\", \"min_len\": 2"),
                ("\"type\": \"sink\"", "\"type\": \"sink\", \"rounds\": 2"),
                ("\"type\": \"count\"", "\"type\": \"counter\""),
                ("\"edges\": [", "\"edges\": {"),
                ("\"bounded\": false", "\"bounded\": 0"),
                ("\"lines\": [", "\"lines\": [7, "),
                ("\"config\": {", "\"config\": {\"interval\": 5, "),
                ("\"name\": ", "\"name\": null, \"n\": "),
            ] {
                if json.contains(from) {
                    broken.push(json.replacen(from, to, 1));
                }
            }
            for text in broken {
                let Err(e) = Scenario::from_json(&text) else {
                    continue;
                };
                refused += 1;
                let zh = scenario_error(&e);
                assert!(english_words(&zh).is_empty(), "{zh:?} for {e}");
                // What kind of sentence: its words after the line and column, before the
                // first name or figure.
                let said = zh.rsplit_once("列：").map_or(zh.as_str(), |(_, rest)| rest);
                let kind: String = said
                    .chars()
                    .take_while(|c| !c.is_ascii_digit() && !"「：；，（".contains(*c))
                    .collect();
                *worded.entry(kind).or_insert(0) += 1;
            }
        }
        println!("{refused} refused, by what is said first: {worded:?}");
        assert!(refused > 250 && worded.len() > 12, "{refused}: {worded:?}");
    }
}
