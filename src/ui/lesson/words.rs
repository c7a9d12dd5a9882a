//! Everything the lesson page says, in English and in Chinese (Simplified converted from the
//! Traditional, as the page's other strings are). Not in `i18n::Strings`: those are in every
//! student's page; these only in the lesson build.

use super::Unreachable;
use crate::engine::snapshot::Finding;
use crate::i18n::hans::to_hans;
use crate::i18n::Lang;
use crate::lesson::NoAnswer;
use crate::text::Quoted;

/// One thing the lesson page says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Say<'a> {
    /// The lesson menu's label.
    Menu,
    /// A built-in lesson's title, by name.
    Title(&'a str),
    /// Step `n` of `total` (from 1).
    Step(usize, usize),
    Answer,
    Next,
    Retry,
    Restart,
    StepBack,
    StepOn,
    Play,
    Pause,
    OpenFull,
    OpenFile,
    ForTeachers,
    /// How many steps of a teacher's file are broken.
    Problems(usize),
    /// A broken step (from 1), and why.
    StepProblem(usize, &'a str),
    Download,
    Right,
    Wrong,
    AskBlocked,
    AskBuffered,
    /// `true`: a Chandy-Lamport moment, whose checkpoints are snapshots.
    AskConsistent(bool),
    AskGlobalState,
    AskCountedTwice,
    WhyBlocked {
        task: &'a str,
        channel: &'a str,
        checkpoint: u64,
    },
    /// `held` of the records offered wait in `task`'s buffer for `checkpoint`.
    WhyBuffered {
        task: &'a str,
        held: usize,
        checkpoint: u64,
    },
    /// `snapshot`: a Chandy-Lamport moment, whose checkpoints are snapshots.
    WhyConsistent {
        checkpoint: u64,
        finding: Finding,
        snapshot: bool,
    },
    /// Snapshot `checkpoint` caught the token at `place` (as the choice names it).
    WhyToken {
        checkpoint: u64,
        place: &'a str,
    },
    /// The job restored `checkpoint` (none: from the beginning); its counts already held
    /// `words` (`n` of them, listed), which the replay counts again.
    WhyCountedTwice {
        checkpoint: Option<u64>,
        n: usize,
        words: &'a str,
    },
    /// The step's moment cannot be reached.
    Unreachable(&'a super::Unreachable),
    /// The question has no answer from the step's moment.
    NoAnswer(NoAnswer),
    /// The end: right of total.
    /// Right the first time, asked, and could not be asked.
    Done(usize, usize, usize),
    Loading,
    /// The file cannot be read: where, and why.
    Unreadable {
        source: &'a str,
        line: u64,
        column: u64,
        why: &'a str,
    },
    /// No built-in lesson by that name, and not a URL the page may fetch: the built-in ones.
    NotFound {
        source: &'a str,
        list: &'a str,
    },
    /// The fetch failed (the browser's reason).
    Unfetched {
        source: &'a str,
        why: &'a str,
    },
}

pub fn say(lang: Lang, t: Say) -> String {
    match lang {
        Lang::En => en(t),
        Lang::Zh => zh(t),
        Lang::ZhHans => hans(&zh(t)),
    }
}

/// Traditional characters of the lessons and the views (`ui::kit::pick`) that the page's own
/// table (`i18n::hans`, in every student's page) does not need, and their Simplified forms.
const MORE: [(char, char); 28] = [
    ('刪', '删'),
    ('剛', '刚'),
    ('匯', '汇'),
    ('叢', '丛'),
    ('問', '问'),
    ('嗎', '吗'),
    ('嘗', '尝'),
    ('尋', '寻'),
    ('師', '师'),
    ('擔', '担'),
    ('據', '据'),
    ('敘', '叙'),
    ('斷', '断'),
    ('東', '东'),
    ('湊', '凑'),
    ('異', '异'),
    ('節', '节'),
    ('緊', '紧'),
    ('習', '习'),
    ('視', '视'),
    ('貼', '贴'),
    ('車', '车'),
    ('輪', '轮'),
    ('銷', '销'),
    ('陸', '陆'),
    ('雜', '杂'),
    ('頂', '顶'),
    ('題', '题'),
];

/// Simplified Chinese from Traditional: the page's conversion, and the lessons' few more
/// characters.
pub fn hans(text: &str) -> String {
    to_hans(text)
        .chars()
        .map(|c| MORE.iter().find(|m| m.0 == c).map_or(c, |m| m.1))
        .collect()
}

fn en(t: Say) -> String {
    match t {
        Say::Menu => "Lessons".into(),
        Say::Title(name) => match name {
            "alignment" => "Alignment, step by step",
            "at-least-once" => "What at-least-once gives up",
            "unaligned" => "What an unaligned checkpoint stores",
            "chandy-lamport" => "Chandy-Lamport: the token's four global states",
            "recovery" => "Exactly-once after a failure",
            "fifo" => "Why Chandy-Lamport needs FIFO channels",
            other => other,
        }
        .into(),
        Say::Step(n, total) => format!("Step {n} of {total}"),
        Say::Answer => "Answer".into(),
        Say::Next => "Next".into(),
        Say::Retry => "Try again".into(),
        Say::Restart => "Start again".into(),
        Say::StepBack => "← Step back".into(),
        Say::StepOn => "Step →".into(),
        Say::Play => "▶ Play".into(),
        Say::Pause => "❚❚ Pause".into(),
        Say::OpenFull => "Open this moment in the playground ↗".into(),
        Say::OpenFile => "Your own lesson file:".into(),
        Say::ForTeachers => "For teachers".into(),
        Say::Problems(1) => "One step of this lesson file would not work for a student:".into(),
        Say::Problems(n) => format!("{n} steps of this lesson file would not work for a student:"),
        Say::StepProblem(n, why) => format!("Step {n}: {why}"),
        Say::Download => "Download for your LMS (SCORM 1.2 package)".into(),
        Say::Right => "Right.".into(),
        Say::Wrong => "Not quite.".into(),
        Say::AskBlocked => "Which input blocks next? Pick it here, or click its channel.".into(),
        Say::AskBuffered => "Which of these records will wait in the alignment buffer? Tick them here, or click them in the dataflow.".into(),
        Say::AskConsistent(snapshot) => format!("Will the next {} to complete be a consistent global state?", if snapshot { "snapshot" } else { "checkpoint" }),
        Say::AskGlobalState => "Which global state will the next snapshot to complete capture? Pick it here, or click where the token will be.".into(),
        Say::AskCountedTwice => "Which words will be counted twice after this failure? Tick each one — or none.".into(),
        Say::WhyCountedTwice { checkpoint: None, .. } => "No checkpoint had completed: every task starts again from nothing and the sources from offset 0, so no word is counted twice.".into(),
        Say::WhyCountedTwice { checkpoint: Some(n), n: 0, .. } => format!("None: checkpoint {n} is a consistent cut, so the sources rewind to exactly the records its counts have not seen, and the replay counts no word twice."),
        Say::WhyCountedTwice { checkpoint: Some(n), words, .. } => format!("Checkpoint {n}'s counts already hold {words}: records that crossed its cut the wrong way (counted after their input's barrier, before the snapshot). The sources rewind to before them, so the replay counts them again."),
        Say::WhyBlocked { task, channel, checkpoint } => format!("Barrier {checkpoint} reached {task} first on {channel}: that input is blocked (①) until the barrier has come on every other input."),
        Say::WhyBuffered { task, held: 0, checkpoint } => format!("None: they all reached {task} before barrier {checkpoint} blocked their input, so they were processed at once."),
        Say::WhyBuffered { task, held, checkpoint } => format!("{held} of them reached {task} on an input that barrier {checkpoint} had already blocked, so they wait in its buffer (②) until the snapshot (③); the others came before the barrier."),
        Say::WhyConsistent { checkpoint, snapshot, finding: Finding::Consistent } => format!("{} {checkpoint} is a consistent cut: nothing it counts as received is missing from what it counts as sent.", if snapshot { "Snapshot" } else { "Checkpoint" }),
        Say::WhyConsistent { checkpoint, snapshot, finding: Finding::CarriesDuplicates } => format!("{} {checkpoint} is a consistent cut: nothing it counts as received is missing from what it counts as sent. Its counts still carry the duplicates of an earlier replay (at-least-once), which no later cut can take back.", if snapshot { "Snapshot" } else { "Checkpoint" }),
        Say::WhyConsistent { checkpoint, snapshot, finding: Finding::Inconsistent { duplicated: 0, .. } } => format!("{} {checkpoint} is not a consistent cut: a message in flight across it was recorded nowhere — it is lost (its verdict names it).", if snapshot { "Snapshot" } else { "Checkpoint" }),
        Say::WhyConsistent { checkpoint, snapshot, finding: Finding::Inconsistent { lost: 0, .. } } => format!("{} {checkpoint} is not a consistent cut: records cross it the wrong way, received inside it but sent outside it (its verdict names them).", if snapshot { "Snapshot" } else { "Checkpoint" }),
        Say::WhyConsistent { checkpoint, snapshot, .. } => format!("{} {checkpoint} is not a consistent cut: some records cross it the wrong way and others are lost (its verdict names them).", if snapshot { "Snapshot" } else { "Checkpoint" }),
        Say::WhyToken { checkpoint, place } => format!("Snapshot {checkpoint} caught the state “{place}”: each process recorded its own state when the marker reached it, and a channel recorded what arrived after its receiver's snapshot and before that channel's marker — together exactly one token."),
        Say::Unreachable(why) => format!("This step's moment cannot be shown: {}.", match why {
            Unreachable::Link(e) => e.to_string(),
            Unreachable::Scenario(e) => e.to_string(),
            other => other.to_string(),
        }),
        Say::NoAnswer(why) => format!("This question has no answer from this moment ({}).", match why {
            NoAnswer::NothingBlocks => "no input blocks in the next 20,000 steps",
            NoAnswer::NothingToBuffer => "no alignment starts with records on its inputs",
            NoAnswer::NoCheckpoint => "no checkpoint completes in the next 20,000 steps",
            NoAnswer::NoToken => "it is about the one-token system, and the snapshot must hold its token in one place",
            NoAnswer::NoFailure => "no failure is recovered from in the next 20,000 steps",
            NoAnswer::NoWordCount => "the job counts no words",
            NoAnswer::BadChoice => "its answer is not one of its choices",
        }),
        Say::Done(right, total, n) => {
            let s = if total == 1 { "" } else { "s" };
            let end = format!("End of the lesson: {right} of {total} question{s} right the first time.");
            match n {
                0 => end,
                n => format!("{end} {n} more could not be asked: this page cannot show their moments (see the step's message)."),
            }
        }
        Say::Loading => "Loading the lesson…".into(),
        Say::Unreadable { source, line, column, why } => format!("The lesson {} cannot be read (line {line}, column {column}): {why}.", Quoted(source)),
        Say::NotFound { source, list } => format!("There is no lesson {} here: the built-in lessons are {list}, and a lesson file must be on this site (or on the site the page's origin parameter names).", Quoted(source)),
        Say::Unfetched { source, why } => format!("The lesson {} could not be fetched ({why}).", Quoted(source)),
    }
}

fn zh(t: Say) -> String {
    match t {
        Say::Menu => "課程".into(),
        Say::Title(name) => match name {
            "alignment" => "一步一步看對齊",
            "at-least-once" => "至少一次放棄了什麼",
            "unaligned" => "非對齊檢查點存了什麼",
            "chandy-lamport" => "Chandy-Lamport：令牌的四種全域狀態",
            "recovery" => "失敗之後的精確一次",
            "fifo" => "為什麼 Chandy-Lamport 需要 FIFO 通道",
            other => other,
        }
        .into(),
        Say::Step(n, total) => format!("第 {n} 步，共 {total} 步"),
        Say::Answer => "作答".into(),
        Say::Next => "下一步".into(),
        Say::Retry => "再試一次".into(),
        Say::Restart => "從頭開始".into(),
        Say::StepBack => "← 退一步".into(),
        Say::StepOn => "前進一步 →".into(),
        Say::Play => "▶ 播放".into(),
        Say::Pause => "❚❚ 暫停".into(),
        Say::OpenFull => "在遊樂場中打開這一刻 ↗".into(),
        Say::OpenFile => "自己的課程檔案：".into(),
        Say::ForTeachers => "給教師".into(),
        Say::Problems(n) => format!("這個課程檔案有 {n} 步無法讓學生正常使用："),
        Say::StepProblem(n, why) => format!("第 {n} 步：{why}"),
        Say::Download => "下載給學習管理系統（SCORM 1.2 套件）".into(),
        Say::Right => "答對了。".into(),
        Say::Wrong => "不太對。".into(),
        Say::AskBlocked => "接下來哪個輸入會被阻塞？在這裡選，或點擊它的通道。".into(),
        Say::AskBuffered => "這些記錄中，哪些會在對齊緩衝區裡等待？在這裡勾選，或在資料流圖中點擊它們。".into(),
        Say::AskConsistent(snapshot) => format!("下一個完成的{}會不會是一致的全域狀態？", if snapshot { "快照" } else { "檢查點" }),
        Say::AskGlobalState => "下一個完成的快照會捕捉到哪一種全域狀態？在這裡選，或點擊令牌將在的位置。".into(),
        Say::AskCountedTwice => "這次失敗之後，哪些字會被計算兩次？每個都勾選——或者一個也不選。".into(),
        Say::WhyCountedTwice { checkpoint: None, .. } => "之前沒有任何檢查點完成：每個任務從零開始，來源從偏移量 0 讀起，所以沒有字被計算兩次。".into(),
        Say::WhyCountedTwice { checkpoint: Some(n), n: 0, .. } => format!("一個也沒有：檢查點 {n} 是一致割集，來源正好倒回到它的計數還沒見過的記錄，所以重播不會把任何字算兩次。"),
        Say::WhyCountedTwice { checkpoint: Some(n), words, .. } => format!("檢查點 {n} 的計數已經包含了 {words}：這些記錄以錯誤的方向穿過它的割集（在輸入的屏障之後、快照之前被計數）。來源倒回到它們之前，所以重播會再算一次。"),
        Say::WhyBlocked { task, channel, checkpoint } => format!("屏障 {checkpoint} 最先經由 {channel} 到達 {task}：這個輸入被阻塞（①），直到屏障從其他每個輸入都到達。"),
        Say::WhyBuffered { task, held: 0, checkpoint } => format!("一筆都沒有：它們都在屏障 {checkpoint} 阻塞輸入之前到達 {task}，所以立刻被處理。"),
        Say::WhyBuffered { task, held, checkpoint } => format!("其中 {held} 筆到達 {task} 時，屏障 {checkpoint} 已經阻塞了它們的輸入，所以在緩衝區裡等待（②），直到快照（③）；其餘的在屏障之前就到了。"),
        Say::WhyConsistent { checkpoint, snapshot, finding: Finding::Consistent } => format!("{} {checkpoint} 是一致割集：它算作已接收的，沒有一筆不在已送出之中。", if snapshot { "快照" } else { "檢查點" }),
        Say::WhyConsistent { checkpoint, snapshot, finding: Finding::CarriesDuplicates } => format!("{} {checkpoint} 是一致割集：它算作已接收的，沒有一筆不在已送出之中。只是它的計數仍帶著先前重放的重複（至少一次），之後的割集也無法收回。", if snapshot { "快照" } else { "檢查點" }),
        Say::WhyConsistent { checkpoint, snapshot, finding: Finding::Inconsistent { duplicated: 0, .. } } => format!("{} {checkpoint} 不是一致割集：一則穿過它傳輸的訊息沒有被任何地方記錄——它遺失了（它的判定列出了它）。", if snapshot { "快照" } else { "檢查點" }),
        Say::WhyConsistent { checkpoint, snapshot, finding: Finding::Inconsistent { lost: 0, .. } } => format!("{} {checkpoint} 不是一致割集：有記錄以錯誤的方向穿過它，在割集內被接收、卻在割集外送出（它的判定列出了這些記錄）。", if snapshot { "快照" } else { "檢查點" }),
        Say::WhyConsistent { checkpoint, snapshot, .. } => format!("{} {checkpoint} 不是一致割集：有些記錄以錯誤的方向穿過它，有些遺失了（它的判定列出了這些記錄）。", if snapshot { "快照" } else { "檢查點" }),
        Say::WhyToken { checkpoint, place } => format!("快照 {checkpoint} 捕捉到的是「{place}」：每個行程在標記到達時記錄自己的狀態，每條通道記錄接收者快照之後、該通道的標記到達之前收到的東西——合起來恰好一個令牌。"),
        Say::Unreachable(why) => {
            let s = Lang::Zh.strings();
            format!("無法顯示這一步的時刻：{}。", match why {
                Unreachable::Link(e) => (s.link_error)(e),
                Unreachable::Scenario(e) => (s.scenario_error)(e),
                Unreachable::Mode(m) => format!("這個情境不能在模式「{m}」下執行"),
                Unreachable::Seed(seed) => format!("種子「{seed}」不是數字"),
                Unreachable::Ends { step, ends } => format!("要求第 {step} 步，但執行在第 {ends} 步就結束了"),
                Unreachable::Late { choice, step } => format!("choices 中第 {choice} 步的動作不早於這個時刻的第 {step} 步，所以永遠不會發生"),
                Unreachable::Ignored(part) => format!("「{part}」在這裡沒有指到任何東西（請修正或刪除）"),
                Unreachable::SecondPlayer => "它的情境串接了運算子，或有超過 8,192 條通道，課程頁不畫這種情境（遊樂場會在第二個播放器中打開它）".into(),
            })
        }
        Say::NoAnswer(why) => format!("從這一刻起，這個問題沒有答案（{}）。", match why {
            NoAnswer::NothingBlocks => "接下來 20,000 步內沒有輸入被阻塞",
            NoAnswer::NothingToBuffer => "沒有一次對齊在開始時輸入上有記錄",
            NoAnswer::NoCheckpoint => "接下來 20,000 步內沒有檢查點完成",
            NoAnswer::NoToken => "它問的是單一令牌系統，而快照必須把令牌記在一個地方",
            NoAnswer::NoFailure => "接下來 20,000 步內沒有從失敗中恢復",
            NoAnswer::NoWordCount => "這個作業不計算字數",
            NoAnswer::BadChoice => "它的答案不是選項之一",
        }),
        Say::Done(right, total, 0) => format!("課程結束：{total} 題中第一次就答對 {right} 題。"),
        Say::Done(right, total, n) => format!("課程結束：{total} 題中第一次就答對 {right} 題。另有 {n} 題無法提問：這個頁面無法顯示它們的時刻（見該步的訊息）。"),
        Say::Loading => "正在載入課程…".into(),
        Say::Unreadable { source, line, column, why } => format!("無法讀取課程「{source}」（第 {line} 行第 {column} 列）：{why}。"),
        Say::NotFound { source, list } => format!("這裡沒有課程「{source}」：內建課程有 {list}；課程檔案必須在這個網站上（或在頁面的 origin 參數指定的網站上）。"),
        Say::Unfetched { source, why } => format!("無法取得課程「{source}」（{why}）。"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characters that are Traditional only (the i18n tests' list).
    const TRADITIONAL_ONLY: &str = include_str!("../../../crates/words/src/traditional_only.txt");

    fn traditional_in(text: &str) -> Vec<char> {
        text.chars()
            .filter(|c| !c.is_ascii() && TRADITIONAL_ONLY.contains(*c))
            .collect()
    }

    #[test]
    fn every_sentence_is_said_in_each_language_and_simplified_has_no_traditional_character() {
        let all = [
            Say::Menu,
            Say::Title("alignment"),
            Say::Step(2, 7),
            Say::AskBlocked,
            Say::AskBuffered,
            Say::AskConsistent(false),
            Say::AskConsistent(true),
            Say::AskGlobalState,
            Say::AskCountedTwice,
            Say::WhyCountedTwice {
                checkpoint: None,
                n: 0,
                words: "",
            },
            Say::WhyCountedTwice {
                checkpoint: Some(2),
                n: 0,
                words: "",
            },
            Say::WhyCountedTwice {
                checkpoint: Some(2),
                n: 2,
                words: "“a”, “b”",
            },
            Say::NoAnswer(NoAnswer::NoFailure),
            Say::Unreachable(&Unreachable::Mode("x".into())),
            Say::Unreachable(&Unreachable::Seed("x".into())),
            Say::Unreachable(&Unreachable::Ends { step: 9, ends: 3 }),
            Say::Unreachable(&Unreachable::SecondPlayer),
            Say::Unreachable(&Unreachable::Late { choice: 9, step: 5 }),
            Say::Unreachable(&Unreachable::Ignored("sel=t:x".into())),
            Say::NoAnswer(NoAnswer::NoWordCount),
            Say::WhyToken {
                checkpoint: 2,
                place: "p#0",
            },
            Say::WhyBlocked {
                task: "Merge#0",
                channel: "Src A#0→Merge#0",
                checkpoint: 1,
            },
            Say::WhyBuffered {
                task: "Merge#0",
                held: 2,
                checkpoint: 1,
            },
            Say::WhyConsistent {
                checkpoint: 3,
                snapshot: false,
                finding: Finding::Inconsistent {
                    duplicated: 2,
                    lost: 0,
                },
            },
            Say::WhyConsistent {
                checkpoint: 3,
                snapshot: false,
                finding: Finding::Inconsistent {
                    duplicated: 0,
                    lost: 1,
                },
            },
            Say::WhyConsistent {
                checkpoint: 3,
                snapshot: false,
                finding: Finding::Inconsistent {
                    duplicated: 1,
                    lost: 1,
                },
            },
            Say::WhyConsistent {
                checkpoint: 3,
                snapshot: false,
                finding: Finding::CarriesDuplicates,
            },
            Say::NoAnswer(NoAnswer::NothingBlocks),
            Say::Done(3, 4, 0),
            Say::Done(0, 0, 2),
            Say::Problems(2),
            Say::StepProblem(3, "x"),
            Say::Unreadable {
                source: "x.json",
                line: 3,
                column: 4,
                why: "w",
            },
            Say::NotFound {
                source: "x",
                list: "alignment",
            },
        ];
        for t in all {
            let (e, z, h) = (say(Lang::En, t), say(Lang::Zh, t), say(Lang::ZhHans, t));
            assert!(!e.is_empty() && e != z, "{t:?}");
            assert!(traditional_in(&h).is_empty(), "{t:?}: {h}");
        }
        for name in super::super::LESSONS {
            let path = format!(
                "{}/static/lessons/zh/{name}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).unwrap();
            let lesson =
                super::super::in_lang(crate::scenario::read_lesson(&text).unwrap(), Lang::ZhHans);
            let all = format!("{lesson:?}");
            assert!(
                traditional_in(&all).is_empty(),
                "{name}: {:?} stay Traditional in Simplified",
                traditional_in(&all)
            );
            assert_ne!(say(Lang::En, Say::Title(name)), *name, "{name} has a title");
            assert_ne!(
                say(Lang::Zh, Say::Title(name)),
                *name,
                "{name} has a Chinese title"
            );
        }
    }
}
