//! The Chinese strings: every text of the page, and the narration (`narrate.rs`).

use super::Strings;
use abs_engine::coordinator::CheckpointStatus;
use abs_engine::record::ItemKind;
use abs_engine::trace::AbortReason;
use abs_engine::{ActionError, BarrierMode, OperatorKind};
use narrate::narrate;

mod narrate;

fn operator_kind(k: &OperatorKind) -> &'static str {
    match k {
        OperatorKind::Source { .. } => "資料來源",
        OperatorKind::Split => "切分",
        OperatorKind::Map => "映射",
        OperatorKind::Filter { .. } => "過濾",
        OperatorKind::Count => "按鍵計數",
        OperatorKind::Union => "合併",
        OperatorKind::Sink { .. } => "輸出",
        OperatorKind::Token { .. } => "行程（令牌）",
        OperatorKind::Iterate { .. } => "迭代",
        OperatorKind::Account { .. } => "銀行帳戶",
    }
}

/// A parameter of the address or of the host page's message, in words.
fn param_name(param: &str) -> &str {
    match param {
        "preset" => "情境",
        "mode" => "模式",
        "lang" => "語言",
        "seed" => "隨機種子",
        "speed" => "速度",
        other => other,
    }
}

fn mode_name(m: BarrierMode) -> &'static str {
    match m {
        BarrierMode::Aligned => "對齊 · 精確一次（exactly-once）",
        BarrierMode::AtLeastOnce => "至少一次（at-least-once）",
        BarrierMode::Unaligned => "非對齊（unaligned）",
        BarrierMode::ChandyLamport => "Chandy-Lamport",
        BarrierMode::Synchronous => "同步 · 全停（stop-the-world）",
    }
}

fn checkpoint_status(s: &CheckpointStatus) -> String {
    match s {
        CheckpointStatus::InProgress => "進行中".into(),
        CheckpointStatus::Completed => "已完成".into(),
        CheckpointStatus::Aborted { reason } => match reason {
            AbortReason::Subsumed => "已中止（被取代）".into(),
            AbortReason::Declined { .. } => "已中止（被放棄）".into(),
            AbortReason::Expired => "已中止（逾時）".into(),
            AbortReason::Failover => "已中止（作業失敗）".into(),
        },
    }
}

fn item_kind(k: &ItemKind) -> String {
    match k {
        ItemKind::Record(r) => format!("記錄 #{}", r.id),
        ItemKind::Barrier(n) => format!("屏障 {n}"),
        ItemKind::Cancel(n) => format!("取消標記 {n}"),
        ItemKind::EndOfData => "資料結束".into(),
        ItemKind::EndOfPartition => "分區結束".into(),
    }
}

fn refused(e: &ActionError) -> String {
    match e {
        ActionError::CannotTrigger => "現在無法觸發檢查點：協調器不允許更多檢查點同時進行。".into(),
        ActionError::TaskReplaying(_) => {
            "這個子任務必須先清空它的對齊緩衝（步驟 ④）：點擊該子任務。".into()
        }
        ActionError::ChannelEmpty(_) => "這條通道沒有可以遞送的項目。".into(),
        other => format!("現在不可行：{}。", super::zh_errors::action_error(other)),
    }
}

pub const STRINGS: Strings = Strings {
    app_title: "ABS 遊樂場",
    page_title: "ABS 遊樂場——一步一步看 Flink 的非同步屏障快照",
    tagline: "一步一步看 Flink 的非同步屏障快照",
    preset_label: "情境",
    mode_label: "模式",
    lang_label: "語言",
    mode_name,
    preset_text: abs_scenario::presets::text_zh::preset_text,
    theory_title: "為什麼重要",
    spacetime_title: "時空圖",
    cut_place: "自己畫一個切面",
    cut_own: "顯示快照的切面",
    explore_open: "探索所有執行 ↗",
    compare_open: "各模式並列 ↗",
    cut_keys: "在線上點擊或拖曳以移動它的點。鍵盤：↑ ↓ 選線，← → 移點。",
    cut_consistent: |n| format!("一致：切面內收到的，沒有一筆在切面外送出。穿過它傳輸的（帶圈，即通道狀態）：{n} 筆。"),
    cut_inconsistent: |n| format!("不一致：{n} 筆孤兒記錄（紅色），在切面內收到、卻在切面外送出。"),
    cut_orphan: |id, from, to| format!("#{id}：{to} 在切面內收到它，{from} 卻在切面外送出。"),
    spacetime_hint: "每個子任務一條線，時間由左到右，顯示最近的步驟。點是快照；穿過同一個檢查點各點的線是它的切面。沿著線的粗段是記錄在該子任務的對齊緩衝區裡等待，直到被處理——切面算的是處理的時刻。帶圈的記錄在切面時正在傳輸（通道狀態），實心的則反向越過切面，紅圈的正在傳輸卻沒被記錄：快照遺失了它。",
    theory_loading: "載入中…",
    theory_failed: "無法載入這段文字。",
    theory_before: |snapshot| {
        format!(
            "下面說的是第一個{}開始之後才會看到的：按播放或下一步前進到那裡。",
            if snapshot { "快照" } else { "檢查點" }
        )
    },
    theory_retry: "再試一次",
    seeing: "你看到的是：",

    step: "下一步",
    next_key: "關鍵事件",
    step_back: "上一步",
    play: "播放",
    pause: "暫停",
    reset: "重設",
    trigger: "觸發檢查點",
    savepoint: "保存點",
    savepoint_hint: "保存點在每種模式下都對齊，不會被之後的檢查點取代，失敗後的重啟不會從它恢復，輸出也不會因它提交",
    start_snapshot: "發起快照",
    start_snapshot_at: |p| format!("從 {p} 發起快照"),
    manual: "手動遞送",
    manual_hint: "手動遞送：點擊通道，遞送它最前面的項目；點擊子任務，清空它的緩衝或讓資料來源讀下一行。",
    speed: "速度",
    step_counter: "步驟",
    time: "模擬時間：1× 速度下，每 1 ms 模擬時間需時四分之一秒",
    timeline: "時間軸",
    shortcuts: "鍵盤快捷鍵",
    shortcut_list: &[
        ("空白鍵", "播放／暫停"),
        ("→", "下一步"),
        ("N", "下一個關鍵事件：①–④、檢查點完成、失敗"),
        ("←", "上一步"),
        ("B", "立即觸發檢查點"),
        ("M", "開關手動遞送"),
        ("X", "讓選取的子任務失敗"),
        ("P", "投影模式：放大文字"),
        ("T", "切換淺色／深色，不依系統設定"),
        ("?", "顯示快捷鍵"),
        ("Esc", "關閉"),
    ],
    close: "關閉",

    dataflow: "資料流",
    pan_hint: "滑動圖形，即可看到全部。",
    status_running: "執行中",
    status_aligning: |n| format!("對齊 {n}"),
    status_tracking: |n| format!("追蹤 {n}"),
    status_persisting: |n| format!("記錄通道 {n}"),
    status_snapshotting: |n| format!("快照 {n}"),
    status_replaying: |k| format!("清空緩衝（{k}）"),
    status_ending: "資料已結束",
    status_finished: "已結束",
    status_backpressured: "受背壓",
    status_stopped: |n| format!("為 {n} 停止"),
    status_failed: "失敗",
    status_cancelled: "已取消",
    fail_task: "讓這個子任務失敗",
    recovery_planned: |t, at| format!("預定：{t} 在 t={at} 失敗。"),
    skip_failure: "不要讓它失敗",
    recovery_down: |t, at, n, partial| format!(
        "{}{}；在 t={at} {}{}。",
        match t {
            Some(t) => format!("{t} 失敗了。"),
            None => "失敗的檢查點太多。".to_string(),
        },
        if partial { "它的區域停止（灰色），其餘部分繼續執行" } else { "作業停止" },
        if partial { "這個區域的所有任務" } else { "所有任務" },
        match n {
            Some(n) => format!("從檢查點 {n} 恢復"),
            None => "從頭開始（還沒有完成的檢查點）".to_string(),
        }
    ),
    recovery_restored: |n, at| match n {
        Some(n) => format!("已在 t={at} 從檢查點 {n} 恢復；重放的記錄標記為 ↻。"),
        None => format!("已在 t={at} 從頭重啟；重放的記錄標記為 ↻。"),
    },
    recovery_rewound: |t, from, to| format!("{t} 倒回 {from} → {to}"),
    recovery_duplicates: |n| format!("還原的狀態中有 {n} 筆記錄會被計算兩次（至少一次）。"),
    final_same: "作業結束時的計數與沒有失敗的執行完全相同 ✓",
    final_differs: |n| format!("{n} 個單詞的計數比沒有失敗的執行高 ✗——被計算了兩次："),
    final_word: |w, here, without| format!("{w} {here}（沒有失敗時 {without}）"),
    counted_twice: "計算兩次",
    sink_committed: |c, p| format!("已提交 {c} · 待提交 {p}"),
    sink_emitted: |n| format!("已輸出 {n}（普通輸出端會再次輸出重放的記錄）"),
    legend_replay: "恢復後重放的記錄",
    share: "分享",
    share_title: "分享這一刻",
    share_link: "指向這一刻的連結（步數、所做的選擇、打開的內容）",
    share_step: "作為課程檔案的一步（再補上說明與提示）",
    share_embed: "嵌入課程頁面",
    share_hint: "連結會把同一次執行重放到同一步：引擎是確定性的。",
    copy: "複製",
    open_full: "在完整的遊樂場中開啟 ↗",
    broken_link: |why| format!("無法開啟這個連結（{why}）；改為從頭顯示這個情境。"),
    link_error: super::zh_errors::link_error,
    // The student's builds word only the refusals they meet (`zh_errors::scenario_error_short`);
    // the second build and `abs-sim` every error.
    #[cfg(any(not(target_arch = "wasm32"), feature = "all-presets"))]
    scenario_error: super::zh_errors::scenario_error,
    #[cfg(all(target_arch = "wasm32", not(feature = "all-presets")))]
    scenario_error: super::zh_errors::scenario_error_short,
    lessons_open: "互動課程",
    editor_open: "編輯",
    edited_scenario: |title| format!("✎ {title}（已編輯）"),
    bad_scenario: |why| format!("無法載入這個情境（{why}）；保留目前的情境。"),
    export_rows: [
        "下載這一步的資料流圖（用於投影片）：",
        "只下載時空圖：",
        "以資料下載（欄位同 abs-sim 的輸出）：",
    ],
    export_failed: "無法製作檔案：",
    more_checkpoints: |n| format!("另有 {n} 個在「檢查點」分頁 →"),
    earlier: "較早的：",
    throughput_title: "輸出端的吞吐量",
    throughput_latest: |v, avg, per| format!("最近每 {per} ms {v} 筆，平均 {avg} 筆"),
    throughput_hint: |top| format!("每 50 ms（模擬時間）到達輸出端的記錄數，刻度 0 到 {top}（輸出端能處理的上限，各模式相同）；虛線：觸發檢查點，實線：檢查點完成。"),
    state_offset: |o| format!("偏移量 {o}"),
    state_processed: |n| format!("已處理 {n}"),
    state_keys: |n| format!("已計數 {n} 個單詞"),
    state_received: |n| format!("已接收 {n}"),
    state_token: |t| if t { "s1 · 持有令牌".into() } else { "s0 · 沒有令牌".into() },
    state_balance: |b| format!("餘額 ${b}"),
    operator_kind,
    slow: |l| format!("慢 · 延遲 {l} ms"),
    buffer_size: |n| format!("緩衝 {n}"),
    blocked: "阻塞",
    more: |n| format!("+{n}"),

    legend: "圖例",
    legend_record: "記錄",
    legend_barrier: "屏障（barrier）n：每個檢查點（checkpoint）一種顏色",
    legend_log: "在屏障繞回之前記入回饋邊日誌的記錄（有環圖的 ABS）",
    mode_aligned_timeout: |t| format!("對齊，{t} ms 後改為非對齊"),
    mode_aligned_debloat: "對齊，緩衝區消脹",
    timeout_note: |t| format!("帶逾時（Flink 的 aligned-checkpoint-timeout，這裡是 {t} ms）：檢查點觸發 {t} ms 後仍未完成，就改為非對齊——對齊中的任務立刻做快照，排在記錄後的屏障超越它們，之後收到屏障的任務不再對齊，未送來屏障的輸入上的記錄成為通道狀態（帶圈）。和 Flink 一樣，一次只進行一個檢查點。"),
    legend_marker: "快照 n 的 Chandy-Lamport 標記（marker，菱形）",
    token_states_title: "四種全域狀態",
    fifo: "FIFO",
    snapshots_title: "快照",
    snapshot: |n| format!("快照 {n}"),
    global_state_of_snapshot: |n| format!("快照 {n} 的全域狀態"),
    non_fifo: "非 FIFO",
    kept_aligned: |p| format!("{p} · 對齊"),
    barriers: "屏障",
    barriers_kept: |p| format!(
        "對齊：接收端有一個 {p} 輸入，Flink 在這種邊上不送非對齊屏障，所以它對齊所有輸入，也不會逾時"
    ),
    barriers_priority: "非對齊：屏障超越排在它前面的記錄，這些記錄成為通道狀態",
    barriers_timeout: "對齊；檢查點的對齊逾時後改為非對齊",
    fifo_on: "開：項目按送出的順序到達",
    fifo_off: "關：後送的項目可能超越先送的",
    conservation: |what, expected, found| {
        use abs_engine::snapshot::Conserved;
        let (unit, name) = match what {
            Conserved::Tokens => ("", "令牌"),
            Conserved::Money => ("$", "金額"),
        };
        if expected == found {
            format!("{name}：快照中有 {unit}{found}，與開始時相同 ✓")
        } else {
            format!("{name}：快照中有 {unit}{found}，但開始時是 {unit}{expected} ✗")
        }
    },
    crossing: |kind, what, from, to| {
        use abs_engine::snapshot::CrossingKind;
        match kind {
            CrossingKind::Orphan => format!("{from}→{to} 上的 {what}：在 {from} 快照之後送出，卻在 {to} 快照之前收到——被算了兩次。"),
            CrossingKind::RecordedAfterCut => format!("{from}→{to} 上的 {what}：在 {from} 快照之後送出，卻被記錄在通道中——被算了兩次。"),
            CrossingKind::Lost => format!("{from}→{to} 上的 {what}：在 {from} 快照之前送出，但既沒有在 {to} 快照之前收到，也沒有被記錄——遺失了。"),
        }
    },
    token_state: |place, p, q| {
        use abs_engine::view::TokenPlace;
        match place {
            TokenPlace::AtP => (format!("令牌在 {p}"), format!("{p}：s1 · {q}：s0")),
            TokenPlace::InPq => (format!("在 {p}→{q} 上"), format!("{p}：s0 · {q}：s0")),
            TokenPlace::AtQ => (format!("令牌在 {q}"), format!("{p}：s0 · {q}：s1")),
            TokenPlace::InQp => (format!("在 {q}→{p} 上"), format!("{p}：s0 · {q}：s0")),
        }
    },
    token_states_caption: |n| match n {
        Some(n) => format!("亮起：令牌現在的位置。圈起：快照 {n} 捕捉到的狀態。"),
        None => "亮起：令牌現在的位置。完成的快照會圈起它捕捉到的狀態。".into(),
    },
    legend_recorded: "記錄為通道狀態的訊息",
    legend_cancel: "取消標記",
    legend_eod: "資料結束（之後只有屏障）",
    legend_eop: "分區結束",
    legend_kept_aligned: "forward、rescale 或 broadcast 邊：屏障保持對齊，它通往的任務對齊所有輸入（與 Flink 相同）",
    legend_blocked: "被阻塞的輸入（①）",
    legend_held: "在對齊緩衝（buffer）中等待（②）",
    legend_persisted: "存為通道狀態的記錄（非對齊）",
    legend_slips: "會在較早的屏障之後混進快照的記錄（至少一次）",
    legend_ticks: "已收到屏障的輸入",

    coordinator: "檢查點協調器",
    no_checkpoints: "還沒有檢查點。協調器會定期觸發；按「觸發檢查點」（B）立即觸發一個。",
    no_snapshots: "還沒有快照。快照會定期發起；按「發起快照」（B）立即發起一個。",
    shortcut_snapshot: "立即發起快照",
    checkpoint: |n| format!("檢查點 {n}"),
    checkpoint_status,
    acked: |a, t| format!("已確認 {a}/{t}"),

    inspector: "檢查器",
    tab_details: "詳細資料",
    tab_checkpoints: "檢查點",
    select_hint: "點擊子任務、通道或移動中的項目，在這裡查看詳細資料。",
    process: "行程",
    subtask: "子任務",
    operator: "算子",
    status: "狀態",
    state: "狀態資料",
    inputs: "輸入",
    input_n: |i| format!("輸入 {}", i + 1),
    held: "緩衝中",
    has_barrier: "已收到屏障",
    channel: "通道",
    from: "來源",
    to: "目的地",
    latency: "延遲",
    in_flight: "通道上的項目",
    records_sent: "已送出記錄",
    records_received: "已接收記錄",
    yes: "是",
    no: "否",
    item: "項目",
    item_kind,
    payload: "內容",
    derived_from: "衍生自記錄",
    sent_at: "送出時間",
    arrives_at: "到達時間",
    item_gone: "這個項目已離開通道。",
    recent: "最近的記錄",

    trigger_time: "觸發時間",
    end_to_end: "端到端耗時",
    alignment_duration: "對齊耗時",
    records_held: "緩衝的記錄",
    state_size: "檢查點資料大小",
    persisted: "保存的傳輸中記錄",
    ack_time: "確認時間",
    start_delay: "開始延遲",
    global_state_of: |n| format!("檢查點 {n} 的全域狀態"),
    task_states: "任務狀態",
    subtask_stats: "子任務統計（與 Flink 回報的相同）",
    async_duration: "非同步",
    persisted_data: "持久化資料",
    processed_data: "處理的資料",
    unaligned_checkpoint: "非對齊",
    channel_states: "通道狀態",
    no_channel_state: "—",
    aligned_no_channel_state: "對齊的檢查點不記錄通道狀態：對齊已把屏障之前傳輸中的一切都處理進任務狀態了。",
    not_retained: "只有最近完成的檢查點會保留全域狀態。",
    not_completed: "所有任務都確認之後，才有全域狀態。",
    consistent: "✓ 一致割集：每個任務算作已接收的記錄，它的發送者都算作已送出。",
    inconsistent: "✕ 不是一致割集：有些記錄只在割集的一側被計入。",
    verdict_counts: |d, l| format!("恢復後有 {d} 筆會被處理兩次，{l} 筆會遺失。"),
    word_check_ok: |n| format!("✓ 單詞計數恰好等於偏移量之前那些行的單詞（共 {n} 個單詞）。"),
    word_check_bad: |n| format!("✕ 有 {n} 個單詞的計數與偏移量之前的行不符。"),
    persisted_figure: |bytes, records| format!("{bytes} B（{records} 筆記錄）"),
    verdict_column: "判定",
    consistent_short: "一致",
    inconsistent_short: "不一致",
    legend_keyed: "記錄，按單詞（它的鍵）著色：同一個單詞到處都是同一種顏色",
    legend_round: "第 2 次繞環的單詞（↻ 是恢復後的重放）",
    legend_token: "令牌",
    legend_money: "一筆轉帳",
    carries_duplicates: "⚠ 一致割集，但計數帶著先前重放的重複：每個任務算作已接收的記錄，它的發送者都算作已送出，只是它捕捉的狀態裡早有先前恢復後被重複計算的單詞（至少一次會重放）。",
    carries_duplicates_short: "一致割集，帶先前的重複",
    rows_more: |n| format!("……還有 {n} 項"),

    narration: "發生了什麼",
    narration_empty: "按「下一步」（→）或「播放」（空白鍵）：每個事件都會在這裡用一句話說明。點擊句子可回到那一步。",
    narrate,

    bad_param: |param, value, used| {
        format!("網址要求的{}「{value}」不存在；改為顯示「{used}」。", param_name(param))
    },
    host_bad_param: |param, value, used| {
        format!("嵌入這個播放器的頁面要求的{}「{value}」不存在；改為顯示「{used}」。", param_name(param))
    },
    host_load_empty: "嵌入這個播放器的頁面送來的載入訊息沒有指定情境；沒有載入任何情境。",
    host_bad_number: |message, field, value| format!("嵌入這個播放器的頁面送來的「{message}」中，「{field}」是「{value}」，不是從 0 起的整數；沒有做任何改變。"),
    mode_unavailable: |mode, scenario, used| {
        format!("「{mode}」模式不適用於這個情境（「{scenario}」）；改以「{used}」顯示。")
    },
    step_past_end: |shown, ended| {
        if ended {
            format!("連結的步驟超過了這次執行的結尾（它在第 {shown} 步結束）：顯示最後一步。")
        } else {
            format!("連結的步驟超過了連結能走到的最遠處（最多 {shown} 步）：顯示第 {shown} 步。")
        }
    },
    ignored_step: |v| format!("連結中的步驟「{v}」不是步數，已略過：顯示第 0 步。"),
    ignored_open: |v, snapshot| {
        let what = if snapshot { "快照" } else { "檢查點" };
        format!("連結要開啟的{what}「{v}」在這一步並未完成，所以沒有開啟任何{what}。")
    },
    ignored_cut: |v| format!("已忽略連結中的切面「{v}」：每條線需要一個時間。"),
    ignored_sel: |v| format!("連結要選取的「{v}」不在這個資料流中，所以沒有選取任何項目。"),
    ignored_panel: |v| format!("連結中的面板「{v}」不是側欄的分頁，已略過。"),
    refused,
    ended: "這次執行已經沒有要發生的事了。",
    dismiss: "關閉",
};
