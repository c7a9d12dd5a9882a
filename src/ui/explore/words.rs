//! The explore view's words, English and Chinese, in the second build only (the student's
//! builds carry one language's `i18n` table and none of these). Simplified Chinese is converted
//! from the Traditional text, as the page's other strings are.

use crate::i18n::Lang;

/// The view's labels and sentences in one language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words(pub Lang);

impl Words {
    fn pick(self, en: &str, zh: &str) -> String {
        crate::ui::kit::pick(self.0, en, zh)
    }

    pub fn title(self, scenario: &str) -> String {
        match self.0 {
            Lang::En => format!("Every run of “{scenario}”"),
            _ => self.pick("", &format!("「{scenario}」的每一種執行")),
        }
    }

    pub fn back(self) -> String {
        self.pick("← Back to the playground", "← 返回遊樂場")
    }

    pub fn intro(self) -> String {
        self.pick(
            "The player shows one run. This search tries every order in which the channels may deliver, the tasks replay and read and the snapshots start, and checks every snapshot that completes in any of them with the checker the global state panel uses. Two runs that reach the same state are explored once. Time is left out: every latency and processing time is zero and nothing times out; planned failures are left out too.",
            "播放器只顯示一種執行。這個搜尋嘗試每一種可能的次序——通道遞送、任務重放與讀取、快照開始——並用全域狀態面板的同一個檢查器，檢查任何一種執行中完成的每一個快照。到達同一狀態的兩種執行只探索一次。時間不在模型內：每個延遲與處理時間都是零，沒有逾時；預定的失敗也不在其中。",
        )
    }

    pub fn mode(self) -> String {
        self.pick("Mode", "模式")
    }

    pub fn non_fifo(self) -> String {
        self.pick(
            "Non-FIFO channels: any queued item may arrive first",
            "非 FIFO 通道：佇列中任何一項都可能先到",
        )
    }

    pub fn snapshots(self) -> String {
        self.pick(
            "Snapshots started per run, at most",
            "每種執行最多開始的快照數",
        )
    }

    pub fn max_states(self) -> String {
        self.pick("Stop after this many states", "到達這麼多狀態就停止")
    }

    pub fn start(self) -> String {
        self.pick("Explore all runs", "探索所有執行")
    }

    pub fn stop(self) -> String {
        self.pick("Stop", "停止")
    }

    pub fn progress(self) -> String {
        self.pick("States explored", "已探索的狀態")
    }

    pub fn running(self, states: u64, frontier: u64) -> String {
        match self.0 {
            Lang::En => format!("Exploring: {states} states, {frontier} still to expand…"),
            _ => self.pick(
                "",
                &format!("探索中：{states} 個狀態，還有 {frontier} 個待展開……"),
            ),
        }
    }

    pub fn stopped(self) -> String {
        self.pick(
            "Stopped by hand: the figures cover the runs explored so far.",
            "已手動停止：數字只涵蓋目前探索過的執行。",
        )
    }

    /// The search is over: every state, or the limit.
    pub fn over(self, complete: bool, violations: u64, snapshots: u64) -> String {
        match (self.0, complete, violations) {
            (Lang::En, true, 0) => format!(
                "Every run explored: all {snapshots} snapshots that complete in any of them are consistent."
            ),
            (Lang::En, false, 0) => format!(
                "Stopped at the limit of states: the {snapshots} snapshots checked so far are consistent, but not every run was explored."
            ),
            (Lang::En, _, v) => format!(
                "{v} of {snapshots} snapshots checked are not consistent{}. The shortest run to one is below.",
                if complete { "" } else { " (not every run explored)" }
            ),
            (_, true, 0) => self.pick("", &format!("所有執行都已探索：任何一種執行中完成的 {snapshots} 個快照都一致。")),
            (_, false, 0) => self.pick("", &format!("到達狀態上限而停止：目前檢查過的 {snapshots} 個快照都一致，但並非每一種執行都已探索。")),
            (_, _, v) => self.pick(
                "",
                &format!(
                    "檢查過的 {snapshots} 個快照中有 {v} 個不一致{}。下面是通往其中之一的最短執行。",
                    if complete { "" } else { "（並非每一種執行都已探索）" }
                ),
            ),
        }
    }

    /// The figures' labels: states, transitions, snapshots, violations, complete, depth, time.
    pub fn figures(self) -> [String; 7] {
        [
            self.pick("States", "狀態"),
            self.pick("Transitions", "轉移"),
            self.pick("Snapshots checked", "檢查過的快照"),
            self.pick("Not consistent", "不一致"),
            self.pick("Every run explored", "探索了每一種執行"),
            self.pick("Longest run, in moves", "最長的執行（步數）"),
            self.pick("Search took (wall-clock time)", "搜索耗時（實際時間）"),
        ]
    }

    pub fn yes_no(self, yes: bool) -> String {
        match yes {
            true => self.pick("yes", "是"),
            false => self.pick("no", "否"),
        }
    }

    /// Why the player's run of a counterexample shows times the search left out.
    pub fn player_time(self) -> String {
        self.pick(
            "The player needs time to move: there every channel's latency is 1 ms (the least a scenario allows) and nothing else takes time, so its clock — a checkpoint's duration of a few ms — counts the moves, not a real duration.",
            "播放器需要時間才能前進：在那裡每條通道的延遲是 1 ms（情境允許的最小值），其他一切都不花時間，所以它的時鐘——檢查點幾 ms 的耗時——數的是步數，不是真實的耗時。",
        )
    }

    pub fn counterexample(self, moves: usize) -> String {
        match self.0 {
            Lang::En => format!("The shortest run to an inconsistent snapshot: {moves} moves"),
            _ => self.pick("", &format!("通往不一致快照的最短執行：{moves} 步")),
        }
    }

    pub fn open_player(self, diagram: bool) -> String {
        match diagram {
            true => self.pick(
                "Open this run in the player, with the space-time diagram",
                "在播放器中開啟這個執行，並顯示時空圖",
            ),
            false => self.pick("Open this run in the player", "在播放器中開啟這個執行"),
        }
    }

    /// Why a run with out-of-order deliveries cannot be opened in the player.
    pub fn not_in_player(self) -> String {
        self.pick(
            "This run holds a priority barrier back, or lets it overtake, by choice; the player leaves that to time, so the run is shown here only. `abs-sim run --replay` plays it from the list below.",
            "這個執行自行選擇讓優先 barrier 延後或超越；播放器把這交給時間決定，所以這個執行只在這裡顯示。`abs-sim run --replay` 可以依下面的清單重播它。",
        )
    }

    pub fn player_title(self, title: &str) -> String {
        match self.0 {
            Lang::En => format!("{title}: a run found by the search"),
            _ => self.pick("", &format!("{title}：搜尋找到的執行")),
        }
    }

    pub fn replay_file(self) -> String {
        self.pick(
            "The run as moves, for abs-sim run --replay",
            "以步驟表示的執行，供 abs-sim run --replay 使用",
        )
    }

    pub fn bad_number(self, what: &str) -> String {
        match self.0 {
            Lang::En => format!("{what}: enter a whole number of at least 1."),
            _ => self.pick("", &format!("{what}：請輸入至少為 1 的整數。")),
        }
    }

    pub fn cannot_run(self, error: &str) -> String {
        match self.0 {
            Lang::En => format!("This scenario cannot be explored: {error}"),
            _ => self.pick("", &format!("這個情境無法探索：{error}")),
        }
    }

    pub fn big(self, tasks: u32) -> String {
        match self.0 {
            Lang::En => format!(
                "This scenario has {tasks} tasks: the number of orders grows very fast with them, so the search will likely stop at the limit before it has seen every run. The small presets (token, alignment-tiny, bank-tiny) finish."
            ),
            _ => self.pick(
                "",
                &format!("這個情境有 {tasks} 個任務：次序的數量隨任務數急速增長，搜尋多半會在看完每一種執行前到達上限而停止。小型預設情境（token、alignment-tiny、bank-tiny）可以完成。"),
            ),
        }
    }

    /// One move of the counterexample, in a sentence.
    pub fn step(self, m: &MoveText) -> String {
        let en = self.0 == Lang::En;
        let item = match &m.item {
            Some(i) => self.item(i),
            None if en => "the next held item".into(),
            None => "下一個暫存的項目".into(),
        };
        let s = match (&m.what, en) {
            (What::Deliver { channel }, true) => format!("{channel} delivers {item}."),
            (What::Deliver { channel }, false) => format!("{channel} 遞送{item}。"),
            (What::DeliverAhead { channel, ahead }, true) => format!(
                "{channel} delivers {item} first, ahead of {ahead} sent before it (non-FIFO)."
            ),
            (What::DeliverAhead { channel, ahead }, false) => {
                format!("{channel} 先遞送{item}，超前於之前送出的 {ahead} 項（非 FIFO）。")
            }
            (What::DeliverBefore { channel }, true) => format!(
                "{channel} delivers {item} while the priority barrier behind it is still on its way."
            ),
            (What::DeliverBefore { channel }, false) => {
                format!("{channel} 遞送{item}，其後的優先 barrier 仍在途中。")
            }
            (What::Overtake { channel }, true) => format!(
                "{item} overtakes what is queued ahead of it on {channel} (unaligned: that becomes channel state)."
            ),
            (What::Overtake { channel }, false) => {
                format!("{item}超越 {channel} 上排在它前面的項目（非對齊：它們成為通道狀態）。")
            }
            (What::Replay { task }, true) => {
                format!("{task} takes {item} from its alignment buffer.")
            }
            (What::Replay { task }, false) => format!("{task} 從對齊緩衝區取出{item}。"),
            (What::Read { task }, true) => format!("{task} reads its next record and sends it."),
            (What::Read { task }, false) => format!("{task} 讀取下一筆記錄並送出。"),
            (What::Act { task, token: true }, true) => format!("{task} passes the token on."),
            (What::Act { task, token: true }, false) => format!("{task} 把 token 傳出去。"),
            (What::Act { task, .. }, true) => format!("{task} sends a transfer."),
            (What::Act { task, .. }, false) => format!("{task} 轉出一筆款項。"),
            (What::Trigger { checkpoint }, true) => {
                format!("The coordinator triggers checkpoint {checkpoint}.")
            }
            (What::Trigger { checkpoint }, false) => format!("協調器觸發檢查點 {checkpoint}。"),
            (What::Initiate { task, checkpoint }, true) => format!(
                "{task} starts snapshot {checkpoint}: it records its state and sends markers."
            ),
            (What::Initiate { task, checkpoint }, false) => {
                format!("{task} 開始快照 {checkpoint}：記錄自己的狀態並送出 marker。")
            }
            (What::Other(a), _) => a.clone(),
        };
        match self.0 {
            Lang::ZhHans => crate::ui::lesson::words::hans(&s),
            _ => s,
        }
    }

    fn item(self, i: &ItemText) -> String {
        match (i, self.0 == Lang::En) {
            (ItemText::Record { id, what }, true) => format!("record #{id} ({what})"),
            (ItemText::Record { id, what }, false) => format!("記錄 #{id}（{what}）"),
            (ItemText::Barrier(n), true) => format!("barrier {n}"),
            (ItemText::Barrier(n), false) => format!(" barrier {n}"),
            (ItemText::Marker(n), true) => format!("marker {n}"),
            (ItemText::Marker(n), false) => format!(" marker {n}"),
            (ItemText::Cancel(n), true) => format!("cancellation marker {n}"),
            (ItemText::Cancel(n), false) => format!("取消標記 {n}"),
            (ItemText::EndOfData, true) => "the end of its data".into(),
            (ItemText::EndOfData, false) => "資料結束標記".into(),
            (ItemText::End, true) => "the end of its partition".into(),
            (ItemText::End, false) => "分區結束標記".into(),
        }
    }
}

/// What a move does, with the names it needs (`super::player::describe`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    Deliver {
        channel: String,
    },
    DeliverAhead {
        channel: String,
        ahead: u32,
    },
    DeliverBefore {
        channel: String,
    },
    Overtake {
        channel: String,
    },
    Replay {
        task: String,
    },
    Read {
        task: String,
    },
    /// A process acts on its own: passes the token on (`token`) or sends money.
    Act {
        task: String,
        token: bool,
    },
    Trigger {
        checkpoint: u64,
    },
    Initiate {
        task: String,
        checkpoint: u64,
    },
    /// A move the search does not make; its JSON.
    Other(String),
}

/// The item a move delivers or replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemText {
    Record { id: u64, what: String },
    Barrier(u64),
    Marker(u64),
    Cancel(u64),
    EndOfData,
    End,
}

/// One move, described.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub what: What,
    pub item: Option<ItemText>,
}
