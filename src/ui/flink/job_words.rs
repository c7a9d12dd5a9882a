//! The sentences of the job the view builds up (`job.rs`, `sections.rs`): what each pasted
//! document added, and the labels of the configuration, the exceptions and the attempts, in
//! English and Chinese.

use super::job::Added;
use super::words::ViewLang;

/// Labels of the job's sections.
pub struct JobWords {
    pub so_far: &'static str,
    pub clear: &'static str,
    pub config: &'static str,
    pub config_note: &'static str,
    pub config_kept: &'static str,
    pub exceptions: &'static str,
    pub time: &'static str,
    pub task: &'static str,
    pub exception: &'static str,
    pub attempts: &'static str,
    pub attempts_note: &'static str,
    pub attempt: &'static str,
    pub axis_note: &'static str,
    pub off: &'static str,
}

const EN: JobWords = JobWords {
    so_far: "This job so far",
    clear: "Start over",
    config: "Checkpoint configuration",
    config_note: "The simulation beside runs with this mode and these settings.",
    config_kept: "Kept for the simulation",
    exceptions: "Exceptions, newest first",
    time: "Time",
    task: "Subtask",
    exception: "Exception",
    attempts: "Attempts",
    attempts_note: "A subtask's attempt number counts how often a failover restarted it: \
                    Flink restarts only the failed subtask's pipelined region.",
    attempt: "attempt",
    axis_note: "The job's and the simulation's subtasks are drawn on one time axis: open a \
                checkpoint in each table to compare them.",
    off: "off",
};

const ZH: JobWords = JobWords {
    so_far: "目前匯入的作業",
    clear: "重新開始",
    config: "檢查點設定",
    config_note: "旁邊的模擬以此模式與這些設定執行。",
    config_kept: "模擬保留原值",
    exceptions: "異常，最新的在前",
    time: "時間",
    task: "子任務",
    exception: "異常",
    attempts: "嘗試次數",
    attempts_note: "子任務的嘗試編號是故障轉移重啟它的次數：Flink 只重啟失敗子任務所在的管線區域。",
    attempt: "嘗試",
    axis_note: "作業與模擬的子任務畫在同一時間軸上：在兩個表中各點選一個檢查點即可比較。",
    off: "關閉",
};

impl ViewLang {
    pub fn job_words(self) -> &'static JobWords {
        match self {
            ViewLang::En => &EN,
            ViewLang::Zh => &ZH,
        }
    }
}

/// What one document added, as an item of the list "This job so far".
pub fn added(lang: ViewLang, a: &Added) -> String {
    match (lang, a) {
        (ViewLang::En, Added::Plan) => "its plan".into(),
        (ViewLang::En, Added::Checkpoints(n)) => format!("checkpoint statistics ({n})"),
        (ViewLang::En, Added::Bundle(n)) => format!("a bundle ({n} checkpoints)"),
        (ViewLang::En, Added::Subtasks { checkpoint, vertex }) => {
            format!("checkpoint {checkpoint}'s subtasks of {vertex}")
        }
        (ViewLang::En, Added::Config) => "its checkpoint configuration".into(),
        (ViewLang::En, Added::Exceptions(n)) => format!("its exceptions ({n})"),
        (ViewLang::En, Added::Vertex(name)) => format!("the attempts of {name}"),
        (ViewLang::En, Added::Cluster(v)) => format!("the cluster's configuration (Flink {v})"),
        (ViewLang::Zh, Added::Plan) => "作業計畫".into(),
        (ViewLang::Zh, Added::Checkpoints(n)) => format!("檢查點統計（{n} 個）"),
        (ViewLang::Zh, Added::Bundle(n)) => format!("匯出包（{n} 個檢查點）"),
        (ViewLang::Zh, Added::Subtasks { checkpoint, vertex }) => {
            format!("檢查點 {checkpoint} 中 {vertex} 的子任務")
        }
        (ViewLang::Zh, Added::Config) => "檢查點設定".into(),
        (ViewLang::Zh, Added::Exceptions(n)) => format!("異常（{n} 個）"),
        (ViewLang::Zh, Added::Vertex(name)) => format!("{name} 的嘗試次數"),
        (ViewLang::Zh, Added::Cluster(v)) => format!("叢集設定（Flink {v}）"),
    }
}
