//! The editor's words, English and Chinese, in the second build only: the student's page keeps
//! its strings in `i18n`, one language per build, and does not carry these. Simplified Chinese
//! is converted from the Traditional text, as the page's other strings are.

use crate::i18n::Lang;

/// The editor's labels and sentences in one language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words(pub Lang);

impl Words {
    /// The English text or the Chinese one, in the script of the language.
    fn pick(self, en: &str, zh: &str) -> String {
        crate::ui::kit::pick(self.0, en, zh)
    }

    pub fn title(self) -> String {
        self.pick("Scenario editor", "情境編輯器")
    }

    /// The hint before and after the link to the scenario format (`scenario.md`, shipped
    /// with the site), and the link's words.
    pub fn hint(self) -> (String, String, String) {
        (
            self.pick(
                "The scenario as JSON: the job graph, the coordinator's settings, the seed and planned failures (every field is described in ",
                "情境以 JSON 表示：作業圖、協調器的設定、種子與預定的失敗（每個欄位的說明見",
            ),
            self.pick("the scenario format", "情境格式"),
            self.pick(
                "). Apply opens the playground with the edited scenario from step 0; going back without applying returns to the run as it was.",
                "）。按「套用」後，遊樂場從第 0 步開始執行編輯過的情境；不套用就返回，執行保持原樣。",
            ),
        )
    }

    pub fn apply(self) -> String {
        self.pick("Apply", "套用")
    }

    pub fn back(self) -> String {
        self.pick(
            "← Back to the playground, not applied",
            "← 不套用，返回遊樂場",
        )
    }

    pub fn from_preset(self) -> String {
        self.pick("Start from preset", "從預設情境開始")
    }

    /// The preset menu's first entry, before a choice.
    pub fn choose_preset(self) -> String {
        self.pick("choose one…", "請選擇…")
    }

    pub fn download(self) -> String {
        self.pick("Download .json", "下載 .json")
    }

    pub fn open_file(self) -> String {
        self.pick("Open a file", "開啟檔案")
    }

    /// A syntax error: line, column, the field's path (may be empty), the reader's message.
    pub fn syntax(self, line: u64, column: u64, field: &str, message: &str) -> String {
        match (self.0, field.is_empty()) {
            (Lang::En, true) => format!("Line {line}, column {column}: {message}"),
            (Lang::En, false) => format!("Line {line}, column {column}, in {field}: {message}"),
            (_, true) => self.pick("", &format!("第 {line} 行，第 {column} 列：{message}")),
            (_, false) => self.pick(
                "",
                &format!("第 {line} 行，第 {column} 列，欄位 {field}：{message}"),
            ),
        }
    }

    /// A scenario that reads but is refused (why, in words).
    pub fn invalid(self, why: &str) -> String {
        match self.0 {
            Lang::En => format!("Not applied: {why}"),
            _ => self.pick("", &format!("未套用：{why}")),
        }
    }

    /// The address's scenario could not be read (why): the editor starts from the default.
    pub fn unreadable(self, why: &str) -> String {
        match self.0 {
            Lang::En => format!(
                "The scenario in the address could not be read ({why}); the editor starts from the alignment preset."
            ),
            _ => self.pick("", &format!("無法讀取網址中的情境（{why}）；編輯器從對齊預設情境開始。")),
        }
    }
}
