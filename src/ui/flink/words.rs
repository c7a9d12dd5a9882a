//! The view's own sentences, English and Chinese, in this build only: the student's page keeps
//! its strings in `i18n`, one language per build, and must not carry these.

use crate::scenario::flink::plan::partitioning_name;
use crate::scenario::flink::{GuessReason, ImportError, PlanNotice, MAX_IMPORT_BYTES};
use crate::text::Quoted;

/// The view's two languages: a Chinese `lang` (either script) reads the Chinese table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewLang {
    En,
    Zh,
}

impl ViewLang {
    /// The language a `?lang=` value asks for; English when absent or unknown.
    pub fn from_param(lang: Option<&str>) -> ViewLang {
        match lang.and_then(crate::i18n::Lang::from_code) {
            Some(crate::i18n::Lang::Zh | crate::i18n::Lang::ZhHans) => ViewLang::Zh,
            _ => ViewLang::En,
        }
    }

    pub fn words(self) -> &'static Words {
        match self {
            ViewLang::En => &EN,
            ViewLang::Zh => &ZH,
        }
    }
}

/// Every label of the view.
pub struct Words {
    pub title: &'static str,
    pub intro: &'static str,
    pub paste: &'static str,
    pub file: &'static str,
    pub apply: &'static str,
    pub back: &'static str,
    pub plan: &'static str,
    pub open_plan: &'static str,
    pub imported: &'static str,
    pub simulated: &'static str,
    pub id: &'static str,
    pub status: &'static str,
    pub trigger: &'static str,
    pub duration: &'static str,
    pub size: &'static str,
    pub persisted: &'static str,
    pub unaligned: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    pub completed: &'static str,
    pub failed: &'static str,
    pub in_progress: &'static str,
    pub savepoint: &'static str,
    pub pick_row: &'static str,
    pub no_subtasks: &'static str,
    pub phases: [&'static str; 4],
    pub empty: &'static str,
    pub error: &'static str,
    /// What follows a label before its text: ": ", or the full-width "：".
    pub colon: &'static str,
    pub sim_error: &'static str,
}

const EN: Words = Words {
    title: "Flink checkpoints, side by side with the simulation",
    intro: "Paste what Flink's REST API returns, or open a file: a job plan (/jobs/<id>/plan), \
            its checkpoints (/jobs/<id>/checkpoints, …/checkpoints/details/<cid>, \
            …/details/<cid>/subtasks/<vertex id>), its checkpoint configuration \
            (…/checkpoints/config), its exceptions (/jobs/<id>/exceptions), a vertex \
            (/jobs/<id>/vertices/<vertex id>), or a bundle of abs-sim flink run. One response \
            after another builds up one job.",
    paste: "Flink JSON",
    file: "Or a file",
    apply: "Import",
    back: "Back to the playground",
    plan: "The plan, as a scenario",
    open_plan: "Open it in the playground",
    imported: "The job's checkpoints",
    simulated: "The simulation's checkpoints",
    id: "ID",
    status: "Status",
    trigger: "Triggered",
    duration: "End to end",
    size: "Checkpointed size",
    persisted: "Persisted in-flight data",
    unaligned: "Unaligned",
    yes: "yes",
    no: "no",
    completed: "completed",
    failed: "failed",
    in_progress: "in progress",
    savepoint: "savepoint",
    pick_row: "Click a checkpoint to see its subtasks on one time axis from the trigger.",
    no_subtasks: "This document has no per-subtask statistics for this checkpoint.",
    phases: ["start delay", "alignment", "sync", "async"],
    empty: "No checkpoints.",
    error: "Not imported",
    colon: ": ",
    sim_error: "The scenario could not run",
};

const ZH: Words = Words {
    title: "Flink 的檢查點，與模擬的並排",
    intro: "貼上 Flink REST API 的回應，或開啟檔案：作業計畫（/jobs/<id>/plan）、檢查點\
            （/jobs/<id>/checkpoints、…/checkpoints/details/<cid>、\
            …/details/<cid>/subtasks/<vertex id>）、檢查點設定（…/checkpoints/config）、異常\
            （/jobs/<id>/exceptions）、頂點（/jobs/<id>/vertices/<vertex id>），或 abs-sim flink run \
            的匯出包。一份接一份貼上，合成同一個作業。",
    paste: "Flink JSON",
    file: "或開啟檔案",
    apply: "匯入",
    back: "回到遊樂場",
    plan: "計畫，作為情境",
    open_plan: "在遊樂場中開啟",
    imported: "作業的檢查點",
    simulated: "模擬的檢查點",
    id: "編號",
    status: "狀態",
    trigger: "觸發時間",
    duration: "端到端耗時",
    size: "檢查點大小",
    persisted: "持久化的在途資料",
    unaligned: "非對齊",
    yes: "是",
    no: "否",
    completed: "已完成",
    failed: "失敗",
    in_progress: "進行中",
    savepoint: "保存點",
    pick_row: "點選一個檢查點，以觸發為起點在同一時間軸上查看其子任務。",
    no_subtasks: "此文件沒有這個檢查點的子任務統計。",
    phases: ["啟動延遲", "對齊", "同步", "非同步"],
    empty: "沒有檢查點。",
    error: "未匯入",
    colon: "：",
    sim_error: "情境無法執行",
};

/// A notice about an imported plan, in the view's language (English is the notice's own
/// `Display`, which the command line prints too).
pub fn notice(lang: ViewLang, n: &PlanNotice) -> String {
    if lang == ViewLang::En {
        return n.to_string();
    }
    match n {
        PlanNotice::Defaults {
            lines,
            interval,
            latency,
            checkpoint_interval,
        } => format!(
            "計畫沒有速率、延遲或鍵：每個來源子任務每 {interval} 毫秒讀取 {lines} 行範例中的一行，\
             每條通道耗時 {latency} 毫秒，記錄以單詞為鍵，檢查點為對齊式，每 \
             {checkpoint_interval} 毫秒一次"
        ),
        PlanNotice::Guessed {
            operator,
            kind,
            reason,
        } => {
            let why = match reason {
                GuessReason::Description(part) => format!("，依據 {} 推測", Quoted(part)),
                GuessReason::KeyedInput => "，依據其雜湊分區（鍵控）輸入推測".to_string(),
                GuessReason::SinkNotSimulated { keyed, sink } => format!(
                    "，依據 {} 推測；其鏈接的 {} 不模擬：計數即作業的結果",
                    Quoted(keyed),
                    Quoted(sink)
                ),
                GuessReason::NoConsumer => "：沒有算子消費其輸出".to_string(),
                GuessReason::SeveralInputs(k) => format!("：它合併其 {k} 個輸入"),
                GuessReason::Nothing => "：其描述沒有更多資訊，因此原樣傳遞記錄".to_string(),
            };
            format!("{} 以 {kind} 執行{why}", Quoted(operator))
        }
        PlanNotice::Chained { operator, parts } => {
            let quoted: Vec<String> = parts.iter().map(|p| Quoted(p).to_string()).collect();
            format!(
                "{} 鏈接了 {} 個算子（{}）：在 Flink 中是一個任務，此處是一個算子",
                Quoted(operator),
                parts.len(),
                quoted.join("、")
            )
        }
        PlanNotice::Approximated {
            from,
            to,
            strategy,
            runs_as,
        } => format!(
            "邊 {} → {}：傳輸策略 {} 以 {} 執行",
            Quoted(from),
            Quoted(to),
            Quoted(strategy),
            partitioning_name(*runs_as)
        ),
        PlanNotice::Parallelism {
            operator,
            flink,
            runs_with,
        } => format!(
            "{} 在 Flink 中的並行度為 {flink}；此處以 {runs_with} 個子任務執行",
            Quoted(operator)
        ),
        PlanNotice::MergedInputs { operator, from } => format!(
            "{} 多次讀取 {}：此處為一條邊",
            Quoted(operator),
            Quoted(from)
        ),
        PlanNotice::Renamed { operator, was } => format!(
            "兩個頂點都名為 {}：後者在此處名為 {}",
            Quoted(was),
            Quoted(operator)
        ),
        PlanNotice::Batch => "這是批次作業的計畫：此處以串流作業執行，並做檢查點".to_string(),
    }
}

/// Why a document was not imported, in the view's language. The Chinese names the same
/// place, figures and names as the English; the reader's syntax messages and a scenario's
/// errors are worded as the playground's Chinese page words them.
pub fn import_error(lang: ViewLang, e: &ImportError) -> String {
    if lang == ViewLang::En {
        return e.to_string();
    }
    let zh = crate::i18n::Lang::Zh.strings();
    match e {
        ImportError::TooLarge { bytes } => {
            format!("文字有 {bytes} 位元組；最多匯入 {MAX_IMPORT_BYTES} 位元組")
        }
        ImportError::Syntax {
            line,
            column,
            message,
        } => format!(
            "這不是 JSON（第 {line} 行第 {column} 欄）：{}",
            crate::i18n::Lang::Zh.syntax_words(message)
        ),
        ImportError::NotAnObject { found } => format!(
            "這份內容是{}，不是物件：應為叢集 `REST API` 的回應（作業計畫、檢查點、頂點、例外或設定）\
             或匯出包",
            zh_kind(found)
        ),
        ImportError::Unrecognised { fields } => {
            let kind = "這份內容不是此檢視讀取的任何一種文件：請貼上作業計畫（`/jobs/<id>/plan`）、\
                        它的檢查點清單（`/jobs/<id>/checkpoints`）、\
                        單一檢查點（`/jobs/<id>/checkpoints/details/<cid>`）、\
                        其中一個頂點的子任務\
                        （`/jobs/<id>/checkpoints/details/<cid>/subtasks/<vertex id>`）、\
                        檢查點設定（`/jobs/<id>/checkpoints/config`）、\
                        作業的例外（`/jobs/<id>/exceptions`）、\
                        一個頂點（`/jobs/<id>/vertices/<vertex id>`）、叢集設定（`/config`），\
                        或 `abs-sim flink run` 寫出的匯出包";
            if fields.is_empty() {
                format!("{kind}；它是空物件")
            } else {
                format!("{kind}；它的欄位是 `{}`", fields.join("`、`"))
            }
        }
        ImportError::PlaygroundScenario => "這份 JSON 是遊樂場的情境（它有 `graph`），不是 Flink \
                                            文件：請在情境編輯器中開啟"
            .into(),
        ImportError::WrongType {
            path,
            expected,
            found,
        } => format!(
            "{path}：應為{}，卻是{}",
            // The configuration's `mode`: `"exactly_once" or "at_least_once"`.
            zh_kind(expected).replace("\" or \"", "\" 或 \""),
            zh_kind(found)
        ),
        ImportError::Missing { path, field } => format!("{path}：缺少欄位 `{field}`"),
        ImportError::UnknownStatus { path, status } => format!(
            "{path}：未知的檢查點狀態 {}；應為 COMPLETED、FAILED 或 IN_PROGRESS",
            Quoted(status)
        ),
        ImportError::OutOfRange {
            path,
            value,
            min,
            max,
        } => format!("{path}：{value} 不在 {min} 到 {max} 之間"),
        ImportError::TooMany {
            path,
            what,
            count,
            max,
        } => {
            let what = match *what {
                "subtask statistics" => "筆子任務統計",
                "subtasks" => "個子任務",
                other => zh_counted(other),
            };
            format!("{path}：{count} {what}；最多匯入 {max}")
        }
        ImportError::NoNodes => "nodes：計畫中沒有節點".into(),
        ImportError::DuplicateNode { path, id } => {
            format!("{path}：第二個 id 為 {} 的節點", Quoted(id))
        }
        ImportError::UnknownInput { path, id } => {
            format!("{path}：計畫中沒有 id 為 {} 的節點", Quoted(id))
        }
        ImportError::Cycle { names } => {
            let quoted: Vec<String> = names.iter().map(|n| Quoted(n).to_string()).collect();
            format!("計畫有環（{}）；不匯入有環的作業", quoted.join(" → "))
        }
        ImportError::Iteration { path, name } => {
            format!("{path}：{} 屬於一個迭代；不匯入迭代", Quoted(name))
        }
        ImportError::Scenario(e) => format!("匯入的計畫無法執行：{}", (zh.scenario_error)(e)),
    }
}

/// Says that Flink keeps barriers aligned on these forward and broadcast `edges` while the
/// simulation beside lets them overtake, so a real job's checkpoints differ there.
pub fn edge_note(lang: ViewLang, edges: &[String]) -> String {
    let list = edges.join(", ");
    match lang {
        ViewLang::En => format!(
            "On forward, rescale and broadcast edges ({list}) barriers stay aligned even with \
             unaligned checkpoints, in Flink as in this simulation: the tasks these edges lead \
             to align all their inputs and persist no in-flight data. Make an edge rebalance \
             or hash for unaligned barriers there."
        ),
        ViewLang::Zh => format!(
            "即使啟用非對齊檢查點，forward、rescale 與 broadcast 邊（{list}）上的屏障仍保持對齊，\
             Flink 與這裡的模擬都是如此：這些邊通往的任務對齊它所有的輸入，不保存傳輸中的資料。\
             把邊改成 rebalance 或 hash，那裡的屏障才會非對齊。"
        ),
    }
}

/// A JSON kind or value as the importer names it ("an array", "the number 3"), in Chinese.
fn zh_kind(what: &str) -> String {
    const KINDS: [(&str, &str); 12] = [
        ("a whole number ≥ 0", "≥ 0 的整數"),
        ("a string or a whole number", "字串或整數"),
        ("an array or an object", "陣列或物件"),
        ("a whole number", "整數"),
        ("a boolean", "布林值"),
        ("a string", "字串"),
        ("an array", "陣列"),
        ("an object", "物件"),
        ("the boolean ", "布林值 "),
        ("the number ", "數字 "),
        ("the string ", "字串 "),
        ("null", "null"),
    ];
    for (en, zh) in KINDS {
        if let Some(rest) = what.strip_prefix(en) {
            return format!("{zh}{rest}");
        }
    }
    what.to_string()
}

/// What `TooMany` counts, in Chinese.
fn zh_counted(what: &str) -> &str {
    match what {
        "checkpoints" => "個檢查點",
        "nodes" => "個節點",
        "subtask statistics, with those before" => "筆子任務統計（連同之前的）",
        other => other,
    }
}

/// Bytes as engineers read them: B, KiB, MiB, GiB.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = n as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// A Flink trigger time (ms since the epoch) as UTC `HH:MM:SS.mmm`; a run's virtual time as
/// `t = N ms`, since a run has no date.
pub fn trigger(ms: u64, simulated: bool) -> String {
    if simulated {
        return format!("t = {ms} ms");
    }
    let day = ms % 86_400_000;
    format!(
        "{:02}:{:02}:{:02}.{:03} UTC",
        day / 3_600_000,
        day / 60_000 % 60,
        day / 1000 % 60,
        day % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lang_param_picks_the_table() {
        assert_eq!(ViewLang::from_param(None), ViewLang::En);
        assert_eq!(ViewLang::from_param(Some("zh-CN")), ViewLang::Zh);
        assert_eq!(ViewLang::from_param(Some("zh")), ViewLang::Zh);
        assert_eq!(ViewLang::from_param(Some("fr")), ViewLang::En);
    }

    #[test]
    fn sizes_and_times_read_as_engineers_write_them() {
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(49_152), "48.0 KiB");
        assert_eq!(trigger(1_760_000_010_000, false), "08:53:30.000 UTC");
        assert_eq!(trigger(120, true), "t = 120 ms");
    }

    #[test]
    fn every_notice_has_a_chinese_wording() {
        let n = PlanNotice::Batch;
        assert_ne!(notice(ViewLang::Zh, &n), notice(ViewLang::En, &n));
        assert!(notice(ViewLang::En, &n).contains("batch"));
    }

    /// Every refusal of the importer, in Chinese: no English word outside the quoted names,
    /// the backticked fields and the JSON path; every figure of the English message.
    #[test]
    fn every_import_error_is_said_in_chinese_with_its_figures() {
        use crate::scenario::flink::{import_flink_json, ImportError};
        let path = "history[3].id";
        let mut errors = vec![
            ImportError::TooLarge { bytes: 9_000_000 },
            ImportError::NotAnObject {
                found: "an array".into(),
            },
            ImportError::Unrecognised { fields: vec![] },
            ImportError::Unrecognised {
                fields: vec!["jobs".into(), "x".into()],
            },
            ImportError::PlaygroundScenario,
            ImportError::WrongType {
                path: path.into(),
                expected: "a whole number ≥ 0",
                found: "the string \"7\"".into(),
            },
            ImportError::Missing {
                path: path.into(),
                field: "status".into(),
            },
            ImportError::UnknownStatus {
                path: path.into(),
                status: "DONE".into(),
            },
            ImportError::OutOfRange {
                path: path.into(),
                value: 0,
                min: 1,
                max: 256,
            },
            ImportError::TooMany {
                path: path.into(),
                what: "checkpoints",
                count: 20001,
                max: 20000,
            },
            ImportError::TooMany {
                path: path.into(),
                what: "subtask statistics, with those before",
                count: 7,
                max: 6,
            },
            ImportError::NoNodes,
            ImportError::DuplicateNode {
                path: path.into(),
                id: "ab12".into(),
            },
            ImportError::UnknownInput {
                path: path.into(),
                id: "ab12".into(),
            },
            ImportError::Cycle {
                names: vec!["Map".into(), "Sink".into(), "Map".into()],
            },
            ImportError::Iteration {
                path: path.into(),
                name: "Loop head".into(),
            },
        ];
        // And what the importer says of real bad documents: not JSON, and a plan that does
        // not run.
        for doc in [
            "{\"history\": [",
            "{\"nodes\": [{\"id\": \"a\", \"parallelism\": 0}]}",
        ] {
            if let Err(e) = import_flink_json(doc) {
                errors.push(e);
            }
        }
        assert!(errors
            .iter()
            .any(|e| matches!(e, ImportError::Syntax { .. })));
        for e in &errors {
            let (en, zh) = (import_error(ViewLang::En, e), import_error(ViewLang::Zh, e));
            assert_eq!(en, e.to_string());
            // Strip what stays as written: paths, `fields`, "quoted" names and the words
            // Flink itself uses.
            // The path the English message starts with ("nodes[0].parallelism: …") leads the
            // Chinese too.
            let mut rest = match en.split_once(": ") {
                Some((at, _)) if zh.starts_with(&format!("{at}：")) => zh[at.len()..].to_string(),
                _ => zh.clone(),
            };
            for (open, close) in [('`', '`'), ('"', '"'), ('“', '”')] {
                while let Some(i) = rest.find(open) {
                    let after = i + open.len_utf8();
                    let Some(j) = rest[after..].find(close) else {
                        break;
                    };
                    rest.replace_range(i..after + j + close.len_utf8(), "");
                }
            }
            for word in [
                "JSON",
                "Flink",
                "COMPLETED",
                "FAILED",
                "IN_PROGRESS",
                "id",
                "nodes",
                "null",
            ] {
                rest = rest.replace(word, "");
            }
            assert!(
                !rest.chars().any(|c| c.is_ascii_alphabetic()),
                "English left in {zh:?} (from {en:?})"
            );
            let figures = |t: &str| -> Vec<String> {
                t.split(|c: char| !c.is_ascii_digit())
                    .filter(|f| !f.is_empty())
                    .map(String::from)
                    .collect()
            };
            for f in figures(&en) {
                assert!(zh.contains(&f), "{zh:?} lacks {f} of {en:?}");
            }
        }
    }
}
