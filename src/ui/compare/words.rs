//! The compare view's words, English and Chinese, in the second build only. Simplified Chinese
//! is converted from the Traditional text, as the page's other strings are.

use crate::i18n::Lang;

use super::lanes::{LanesError, MAX_MODES, MIN_MODES};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words(pub Lang);

impl Words {
    fn pick(self, en: &str, zh: &str) -> String {
        crate::ui::kit::pick(self.0, en, zh)
    }

    pub fn title(self, scenario: &str) -> String {
        match self.0 {
            Lang::En => format!("“{scenario}”, mode by mode"),
            _ => self.pick("", &format!("「{scenario}」：各模式並列")),
        }
    }

    pub fn short_title(self) -> String {
        self.pick("Modes side by side", "各模式並列")
    }

    pub fn back(self) -> String {
        self.pick("← Back to the playground", "← 返回遊樂場")
    }

    pub fn intro(self) -> String {
        self.pick(
            "The same scenario with the same seed, once per mode, all moving together in virtual time. The charts share their scales, so the cost of each mode reads off one axis: what blocking costs in throughput and latency, what an unaligned checkpoint costs in size, what at-least-once costs after a failure, and what stopping the world for every checkpoint (synchronous, the scheme before ABS) costs in throughput.",
            "同一個情境、同一個種子，每個模式各跑一次，在虛擬時間中一起前進。圖表共用刻度，每個模式的代價都在同一條軸上讀出：阻塞在吞吐量與延遲上的代價、非對齊檢查點在大小上的代價、至少一次在失敗後的代價，以及每個檢查點都停止世界（synchronous，ABS 之前的做法）在吞吐量上的代價。",
        )
    }

    pub fn play(self) -> String {
        self.pick("Play", "播放")
    }

    pub fn pause(self) -> String {
        self.pick("Pause", "暫停")
    }

    pub fn speed(self) -> String {
        self.pick("Speed", "速度")
    }

    pub fn run_to(self) -> String {
        self.pick("Run until t =", "執行到 t =")
    }

    pub fn run(self) -> String {
        self.pick("Run", "執行")
    }

    pub fn stop(self) -> String {
        self.pick("Stop", "停止")
    }

    pub fn now(self, t: u64) -> String {
        match self.0 {
            Lang::En => format!("Virtual time: {t} ms"),
            _ => self.pick("", &format!("虛擬時間：{t} ms")),
        }
    }

    /// Every run has ended, the last at `t`.
    pub fn ended(self, t: u64) -> String {
        match self.0 {
            Lang::En => {
                format!("Every run has ended (the last at {t} ms): nothing is left to happen.")
            }
            _ => self.pick(
                "",
                &format!("每個執行都已結束（最後一個在 {t} ms）：不會再發生什麼。"),
            ),
        }
    }

    pub fn bad_time(self) -> String {
        self.pick(
            "Enter a virtual time, a whole number of milliseconds from 1 to 1,000,000.",
            "請輸入虛擬時間：1 到 1,000,000 之間的整數毫秒。",
        )
    }

    /// The charts' titles, in order: throughput, latency, checkpoint duration, held records,
    /// checkpoint size.
    pub fn charts(self) -> [String; 5] {
        [
            self.pick(
                "Records reaching the sinks, per ms",
                "每毫秒到達 sink 的記錄",
            ),
            {
                let ms = super::LATENCY_WINDOW as u64 * super::BUCKET;
                match self.0 {
                    Lang::En => format!("Latency from source to sink, of the records reaching a sink in the last {ms} ms (solid: mean, dashed: p99)"),
                    _ => self.pick("", &format!("從來源到 sink 的延遲：最近 {ms} ms 內抵達 sink 的記錄（實線：平均，虛線：p99）")),
                }
            },
            self.pick(
                "Checkpoint duration, one dot per checkpoint",
                "檢查點耗時，每個檢查點一點",
            ),
            self.pick(
                "Records held in alignment buffers",
                "對齊緩衝區中暫存的記錄",
            ),
            self.pick(
                "Checkpoint size, task state and in-flight data",
                "檢查點大小：任務狀態與傳輸中資料",
            ),
        ]
    }

    /// The charts' y units, in the same order, and the x axis's.
    pub fn units(self) -> ([String; 5], String) {
        (
            [
                self.pick("records/ms", "記錄/ms"),
                "ms".into(),
                "ms".into(),
                self.pick("records", "記錄"),
                self.pick("bytes", "位元組"),
            ],
            self.pick("virtual time (ms)", "虛擬時間（ms）"),
        )
    }

    /// The table's column heads.
    pub fn columns(self) -> [String; 8] {
        [
            self.pick("Mode", "模式"),
            self.pick("Throughput (records/ms)", "吞吐量（記錄/ms）"),
            self.pick("Latency p50 (ms)", "延遲 p50（ms）"),
            self.pick("Latency p99 (ms)", "延遲 p99（ms）"),
            self.pick("Checkpoints completed", "完成的檢查點"),
            self.pick("Duration p50 (ms)", "耗時 p50（ms）"),
            self.pick("Size p50 (bytes)", "大小 p50（位元組）"),
            self.pick("Counted twice after a failure", "失敗後重複計算"),
        ]
    }

    /// What chart `i` (in `charts`' order) waits for while it has nothing to draw.
    pub fn waiting(self, i: usize) -> String {
        match i {
            2 | 4 => self.pick("No checkpoint has completed yet.", "還沒有檢查點完成。"),
            1 => self.pick("No record has reached a sink yet.", "還沒有記錄抵達 sink。"),
            _ => self.pick(
                "Nothing measured yet: press Play or Run.",
                "尚未量測：按「播放」或「執行」。",
            ),
        }
    }

    pub fn coincide(self) -> String {
        self.pick(
            "Lines that coincide are drawn one inside the other, the first mode's widest: a single line in two colours is two modes alike.",
            "重合的線一條畫在另一條裡面，第一個模式的線最粗：一條雙色的線是兩個一樣的模式。",
        )
    }

    /// A failure's duplicates where the lane has had no failure.
    pub fn no_failure(self) -> String {
        self.pick("no failure", "未失敗")
    }

    pub fn not_measured(self) -> String {
        self.pick(
            "“–”: not measured yet — no time has passed, no record has reached a sink, or no checkpoint has completed.",
            "「–」：尚未量測——時間還沒前進、還沒有記錄抵達 sink，或還沒有檢查點完成。",
        )
    }

    /// A name in quotation marks.
    pub fn quoted(self, name: &str) -> String {
        match self.0 {
            Lang::En => format!("“{name}”"),
            _ => format!("「{name}」"),
        }
    }

    /// Flink's partitioner rule in the lanes whose barriers would overtake.
    pub fn kept_aligned(self, modes: &str, operators: &str) -> String {
        match self.0 {
            Lang::En => format!(
                "In {modes}, barriers do not overtake on forward, rescale and broadcast edges, as in Flink 2.3: in those modes too, every checkpoint is taken aligned at {operators}."
            ),
            _ => self.pick(
                "",
                &format!("在{modes}中，屏障不會在 forward、rescale 與 broadcast 邊上超車，與 Flink 2.3 相同：{operators} 在這些模式下仍以對齊方式做每個檢查點。"),
            ),
        }
    }

    pub fn overhead_title(self) -> String {
        self.pick(
            "Runtime overhead against the checkpoint interval",
            "執行期額外開銷與檢查點間隔",
        )
    }

    pub fn overhead_hint(self, lines: usize) -> String {
        match self.0 {
            Lang::En => format!(
                "The ABS paper's figure: every source reads the same {lines} lines and ends; each mode runs them without checkpoints and with a checkpoint every 10 to 500 ms, and the overhead is the extra time until the sinks have the last record, in % (abs-sim overhead prints the same). 0 % means no record reached a sink later for the checkpoints: nothing waited for them."
            ),
            _ => self.pick(
                "",
                &format!("ABS 論文的圖：每個來源讀同樣的 {lines} 行後結束；每個模式各跑一次不做檢查點、再以每 10 到 500 ms 一個檢查點各跑一次，額外開銷是 sink 收到最後一筆記錄所多花的時間（%）（abs-sim overhead 印出同樣的數字）。0 % 表示沒有任何記錄因檢查點而較晚抵達 sink：沒有任何東西等過它們。"),
            ),
        }
    }

    pub fn measure(self) -> String {
        self.pick("Measure the overhead", "量測額外開銷")
    }

    pub fn interval_unit(self) -> String {
        self.pick("checkpoint interval (ms)", "檢查點間隔（ms）")
    }

    pub fn error(self, e: &LanesError) -> String {
        match (e, self.0 == Lang::En) {
            (LanesError::Count(n), true) => format!(
                "Name {MIN_MODES} to {MAX_MODES} modes to compare, separated by commas (compare=aligned,unaligned); this address names {n}."
            ),
            (LanesError::Count(n), false) => self.pick(
                "",
                &format!("請列出 {MIN_MODES} 到 {MAX_MODES} 個要比較的模式，以逗號分隔（compare=aligned,unaligned）；這個網址列出 {n} 個。"),
            ),
            (LanesError::Unknown(m), true) => format!(
                "“{m}” is no mode: the modes are aligned, aligned-timeout, aligned-debloat, unaligned, at-least-once, synchronous and chandy-lamport."
            ),
            (LanesError::Unknown(m), false) => self.pick(
                "",
                &format!("「{m}」不是模式：模式有 aligned、aligned-timeout、aligned-debloat、unaligned、at-least-once、synchronous 與 chandy-lamport。"),
            ),
            (LanesError::Unavailable(m), true) => format!("This scenario cannot run in mode “{m}”."),
            (LanesError::Unavailable(m), false) => {
                self.pick("", &format!("這個情境無法以「{m}」模式執行。"))
            }
            (LanesError::Refused(m, asked), lang) => {
                let why = crate::scenario::ScenarioError::Graph(
                    crate::engine::GraphError::ConcurrentUnaligned { asked: *asked },
                );
                let why = (self.0.strings().scenario_error)(&why);
                if lang {
                    format!("This scenario cannot run in mode “{m}”: {why}.")
                } else {
                    self.pick("", &format!("這個情境無法以「{m}」模式執行：{why}。"))
                }
            }
            (LanesError::Twice(m), true) => format!("“{m}” is named twice."),
            (LanesError::Twice(m), false) => self.pick("", &format!("「{m}」列了兩次。")),
            (LanesError::Scenario(e), true) => format!("This scenario cannot run: {e}"),
            (LanesError::Scenario(e), false) => self.pick("", &format!("這個情境無法執行：{e}")),
        }
    }
}
