//! The Chinese narration: the words of each sentence.

use crate::Names;
use abs_engine::physical::TaskId;
use abs_engine::record::{ItemKind, Record};
use abs_engine::snapshot::Finding;
use abs_engine::view::{Forward, Input, Sentence};

pub(super) fn item(names: &Names, item: &ItemKind) -> String {
    match item {
        ItemKind::Record(_) => format!("記錄「{}」", names.payload(item).unwrap_or_default()),
        ItemKind::Barrier(n) => format!("屏障 {n}"),
        ItemKind::Cancel(n) => format!("檢查點 {n} 的取消標記"),
        ItemKind::EndOfData => "資料結束標記".into(),
        ItemKind::EndOfPartition => "分區結束標記".into(),
    }
}

/// 「Merge#0 的輸入 2（來自 Src B#0）」。
fn input(names: &Names, at: Input) -> String {
    format!(
        "{} 的輸入 {}（來自 {}）",
        names.task(at.task),
        names.input_number(at),
        names.sender(at)
    )
}

/// Chandy-Lamport 對輸入通道的稱呼：「P→Q」。
fn link(names: &Names, at: Input) -> String {
    format!("{}→{}", names.sender(at), names.task(at.task))
}

fn payload(names: &Names, record: &Record) -> String {
    names
        .payload(&ItemKind::Record(*record))
        .unwrap_or_default()
}

/// The words of a sentence (`Sentence::of` made the choice of it from the event).
pub(super) fn narrate(b: &Sentence, names: &Names) -> String {
    let task = |t: TaskId| names.task(t).to_string();
    match b.clone() {
        Sentence::Triggered { n } => {
            format!("協調器觸發檢查點 {n}：每個資料來源記錄自己的偏移量，並注入屏障 {n}。")
        }
        Sentence::SnapshotBegins { n } => format!("快照 {n} 開始。"),
        Sentence::WorldStops { n } => {
            format!("協調器觸發檢查點 {n}：所有資料來源停止讀取，等每條通道清空。")
        }
        Sentence::Drained { n, tasks } => format!(
            "通道都已清空：{tasks} 個任務同時為檢查點 {n} 做快照，沒有屏障也沒有通道狀態；之後資料來源繼續讀取。"
        ),
        Sentence::TriggerDeferred { savepoint: false } => "手動觸發了一個檢查點，但同時進行的檢查點已達上限：協調器會在其中一個結束後立刻開始它。".into(),
        Sentence::TriggerDeferred { savepoint: true } => "要求了一個保存點，但有檢查點正在進行；開啟非對齊檢查點時，和 Flink 一樣不強制插隊：協調器會在它結束後立刻開始保存點，排在其他觸發之前。".into(),
        Sentence::SavepointTriggered { n, exactly_once: false, .. } => format!(
            "協調器觸發保存點 {n}：每個資料來源記錄自己的偏移量，並注入屏障 {n}。至少一次模式下，保存點和一般檢查點一樣：沒有輸入會等它的屏障。"
        ),
        Sentence::SavepointTriggered { n, overtaking, .. } => format!(
            "協調器觸發保存點 {n}：每個資料來源記錄自己的偏移量，並注入屏障 {n}。保存點一律對齊{}：每個任務等所有輸入都送來屏障 {n} 才做快照，不儲存任何傳輸中的記錄。",
            if overtaking { "（在非對齊模式下也一樣）" } else { "" }
        ),
        Sentence::TokenPassed { task: t, channel } => format!(
            "{} 把令牌傳給 {}：它現在是 s0，令牌正在 {}→{} 上傳輸。",
            task(t),
            names.receiver(channel),
            task(t),
            names.receiver(channel)
        ),
        Sentence::Sent { task: t, channel, record } => format!(
            "{} 向 {} 送出「{}」。",
            task(t),
            names.receiver(channel),
            payload(names, &record)
        ),
        Sentence::Initiated { task: t, n } => format!("{} 發起快照 {n}。", task(t)),
        Sentence::ProcessInitiates { task: t, n } => format!(
            "{} 發起快照 {n}：記錄自己的狀態，在每個輸出上送出標記，並從現在起記錄每個輸入，直到該輸入的標記到達。",
            task(t)
        ),
        Sentence::SourceRead { task: t, offset, record } => format!(
            "{} 讀取日誌第 {} 行：「{}」{}。",
            task(t),
            offset,
            payload(names, &record),
            if record.replay { "——恢復後再讀一次（重放）" } else { "" }
        ),
        Sentence::SourceEnded { task: t, finishes_now: false } => format!(
            "{} 讀完了日誌：它向下游送出資料結束標記，但繼續執行、接收屏障，直到它此後的某個檢查點完成（它的最後檢查點）。",
            task(t)
        ),
        Sentence::SourceEnded { task: t, finishes_now: true } => format!(
            "{} 讀完了日誌：它送出資料結束標記並立即結束——任務結束後的檢查點沒有開啟，沒有最後檢查點可等。",
            task(t)
        ),
        Sentence::EndOfData { at } => format!(
            "{}送來了資料結束標記：那裡不會再有記錄，但屏障仍會來。",
            input(names, at)
        ),
        Sentence::DataEnded { task: t, finishes_now, looped } => format!(
            "{} 的每個{}輸入都已送來資料結束標記{}：它的運算子結束，並把標記往下傳{}；{}",
            task(t),
            if looped { "一般" } else { "" },
            if looped { "，環上也沒有記錄在繞" } else { "" },
            if looped { "，也沿回饋邊傳回自己" } else { "" },
            if finishes_now {
                "輸入一關閉它就結束（任務結束後的檢查點沒有開啟）。"
            } else {
                "它繼續執行，直到它此後的某個檢查點完成。"
            }
        ),
        Sentence::SourceSnapshot { task: t, n, offset, acked } => format!(
            "{} 把偏移量 {offset} 記入檢查點 {n}，並向輸出通道注入屏障 {n}{}。",
            task(t),
            acked_note(acked)
        ),
        Sentence::SourcePriorityBarrier { task: t, n, offset, acked } => format!(
            "{} 把偏移量 {offset} 記入檢查點 {n}，並以優先事件送出屏障 {n}：它穿過通道，到達時超越仍在排隊的記錄{}。",
            task(t),
            acked_note(acked)
        ),
        Sentence::SourceMarkers { task: t, n, offset } => format!(
            "{} 為快照 {n} 記錄偏移量 {offset}，並在每個輸出上送出標記。",
            task(t)
        ),
        Sentence::BarrierIgnored { n, at } => format!(
            "屏障 {n} 到達 {}，被忽略：它的檢查點已經完成或中止，或已被超越。",
            input(names, at)
        ),
        Sentence::BarrierOnOnlyInput { n, task: t } => {
            format!("屏障 {n} 從唯一的輸入到達 {}：沒有要等的。", task(t))
        }
        Sentence::LoopBarrierReturned { n, at } => format!(
            "屏障 {n} 繞環回到 {}（回饋邊）：{} 為檢查點 {n} 記錄繞環記錄的日誌已完整。",
            input(names, at),
            task(at.task)
        ),
        Sentence::LastRegularInput { n, at } => format!(
            "屏障 {n} 到達 {}，這是最後一個一般輸入：{} 不在回饋邊上等屏障（那要繞過它自己才會到）——它現在就做快照並轉發屏障 {n}，並把繞環回來的記錄記入日誌，直到屏障 {n} 繞回來（有環圖的 ABS）。",
            input(names, at),
            task(at.task)
        ),
        Sentence::AlignmentStarts { n, at, .. } => format!(
            "屏障 {n} 最先到達 {}；這個輸入現在被阻塞，直到屏障 {n} 也到達其餘的輸入（開始對齊）。",
            input(names, at)
        ),
        Sentence::KeptAlignedFirst { n, at, by, .. } => format!(
            "屏障 {n} 最先到達 {}。{} 以對齊方式處理它：它有一個輸入是「{}」邊，這種邊上只有與記錄同序的屏障（從不非對齊、也不逾時），有這種輸入的任務對齊它所有的輸入。這個輸入現在被阻塞，直到屏障 {n} 也到達其餘的輸入。",
            input(names, at),
            task(at.task),
            by.as_str()
        ),
        Sentence::ChainedBarrier { n, at, snapshot } => format!(
            "{} 與 {} 串接成鏈：同一個任務、同一條執行緒，所以它在同一次呼叫裡做{} {n}。它們之間沒有通道，沒有屏障要傳，也沒有東西要等。",
            task(at.task),
            names.sender(at),
            if snapshot { "快照" } else { "檢查點" }
        ),
        Sentence::KeptAlignedOnlyInput { n, task: t, by } => format!(
            "屏障 {n} 從唯一的輸入依序到達 {}，排在它之前送出的每筆記錄之後：「{}」邊上沒有非對齊屏障，所以這裡沒有任何記錄成為通道狀態。",
            task(t),
            by.as_str()
        ),
        Sentence::AlignmentBlocksToo { n, at, have, need } => format!(
            "屏障 {n} 到達 {}；這個輸入也被阻塞（{need} 個輸入中已有 {have} 個收到）。",
            input(names, at)
        ),
        Sentence::AlignmentComplete { n, at } => {
            format!("屏障 {n} 到達 {}，這是最後一個在等的輸入：對齊完成。", input(names, at))
        }
        Sentence::UnalignedFirst { n, at, .. } => format!(
            "屏障 {n} 最先到達 {}。非對齊模式不等待其餘的輸入：任務立刻做快照，在那裡、比屏障 {n} 先到達的記錄都存為通道狀態。",
            input(names, at)
        ),
        Sentence::UnalignedInputSaved { n, at, have, need } => format!(
            "屏障 {n} 到達 {}：這個輸入在屏障之前的記錄都已存好（{need} 個輸入中已有 {have} 個收到）。",
            input(names, at)
        ),
        Sentence::UnalignedComplete { n, at } => format!(
            "屏障 {n} 到達 {}，這是最後一個輸入：檢查點 {n} 的通道狀態已完整。",
            input(names, at)
        ),
        Sentence::TrackingFlows { n, at, have, need } => format!(
            "屏障 {n} 到達 {}。至少一次模式不阻塞：這個輸入在屏障之後的記錄照常流動，並會在快照之前進入狀態（{need} 個輸入中已有 {have} 個收到）。",
            input(names, at)
        ),
        Sentence::TrackingComplete { n, at } => format!(
            "屏障 {n} 到達 {}，這是最後一個輸入：任務現在做快照，之前沒有攔下任何記錄。",
            input(names, at)
        ),
        Sentence::MarkerIgnored { n, at } => {
            format!("快照 {n} 的一個多餘標記到達 {}，被忽略。", link(names, at))
        }
        Sentence::MarkerFirst { n, at, waiting } => {
            let c = link(names, at);
            format!(
                "快照 {n} 的第一個標記經 {c} 到達 {}：它現在記錄自己的狀態，把 {c} 記為空，並開始記錄其餘 {waiting} 個輸入，直到它們的標記到達。",
                task(at.task)
            )
        }
        Sentence::MarkerOnOnlyInput { n, at } => format!(
            "快照 {n} 的標記經唯一的輸入 {} 到達 {}：它記錄自己的狀態；這個通道記為空。",
            link(names, at),
            task(at.task)
        ),
        Sentence::MarkerStopsRecording { n, at, have, need } => format!(
            "快照 {n} 的標記到達 {}：{} 停止記錄這個通道（{need} 個輸入中已完成 {have} 個）。",
            link(names, at),
            task(at.task)
        ),
        Sentence::MarkerLast { n, at } => format!(
            "快照 {n} 的標記到達 {}，這是 {} 最後一個在記錄的輸入：它在這個快照中的部分已完成。",
            link(names, at),
            task(at.task)
        ),
        Sentence::Held { at, item: it, held } => format!(
            "{} 被阻塞的輸入 {} 收到{}：它在對齊緩衝中等待（緩衝中有 {} 個）。",
            task(at.task),
            names.input_number(at),
            item(names, &it),
            held
        ),
        Sentence::Snapshot { task: t, n, forward, acked } => {
            let forward = match forward {
                Forward::Nothing => String::new(),
                Forward::Priority => format!("，以優先事件向下游送出屏障 {n}（到達時超越仍在排隊的記錄）"),
                Forward::Queued => format!("，向下游轉發屏障 {n}"),
            };
            let ack = match acked {
                Some(_) => format!("，並向協調器確認{}", acked_note(acked)),
                None => "——等所有輸入都送來屏障、通道狀態完整之後才確認".into(),
            };
            format!("{} 為檢查點 {n} 做狀態快照{forward}{ack}。", task(t))
        }
        Sentence::ProcessRecordsAlone { task: t, n } => {
            format!("{} 為快照 {n} 記錄自己的狀態（它沒有輸出，不必送出標記）。", task(t))
        }
        Sentence::ProcessRecords { task: t, n, outputs: 1 } => format!(
            "{} 為快照 {n} 記錄自己的狀態，並在它的輸出上送出標記（標記規則）。",
            task(t)
        ),
        Sentence::ProcessRecords { task: t, n, outputs } => format!(
            "{} 為快照 {n} 記錄自己的狀態，並在 {outputs} 個輸出上各送出一個標記（標記規則）。",
            task(t)
        ),
        Sentence::Unblocked { task: t, to_replay } => format!(
            "{} 解除所有輸入的阻塞；在讀新的輸入之前，先處理緩衝中的 {} 個項目。",
            task(t),
            to_replay
        ),
        Sentence::UnblockedEmpty { task: t } => format!("{} 解除所有輸入的阻塞；緩衝是空的。", task(t)),
        Sentence::Replayed { at, item: it, left } => format!(
            "{} 從緩衝取出{}（輸入 {}）並處理（還剩 {} 個）。",
            task(at.task),
            item(names, &it),
            names.input_number(at),
            left
        ),
        Sentence::TokenReceived { at } => format!(
            "{} 從 {} 收到令牌：它現在是 s1。",
            task(at.task),
            names.sender(at)
        ),
        Sentence::Received { at, record } => format!(
            "{} 從 {} 收到「{}」。",
            task(at.task),
            names.sender(at),
            payload(names, &record)
        ),
        Sentence::Processed { at, record, emitted } => format!("{}。", processed(names, at, &record, emitted)),
        Sentence::ProcessedEarly { at, record, emitted, n } => format!(
            "{}——它在該輸入的屏障 {n} 之後到達，卻在檢查點 {n} 的快照之前進入狀態：恢復後它會被重放，被計算兩次。",
            processed(names, at, &record, emitted)
        ),
        Sentence::LoopLogged { at, n, record } => format!(
            "「{}」比屏障 {n} 先繞環回到 {}：照常處理，同時記入日誌——回饋邊的日誌是檢查點 {n} 的一部分。",
            payload(names, &record),
            task(at.task)
        ),
        Sentence::ChannelStateSaved { at, n, record } => format!(
            "「{}」在屏障 {n} 之前就在 {} 上傳輸：它被存為檢查點 {n} 的通道狀態。",
            payload(names, &record),
            input(names, at)
        ),
        Sentence::MarkerRecorded { at, n, record } => format!(
            "「{}」在 {} 正被記錄時到達：它屬於快照 {n} 的通道狀態（取下割集的那一刻它正在傳輸中）。",
            payload(names, &record),
            link(names, at)
        ),
        Sentence::CancelArrived { n, at } => format!("檢查點 {n} 的取消標記到達 {}。", input(names, at)),
        Sentence::TaskAborted { task: t, n } => {
            format!("{} 放棄檢查點 {n}，並向下游送出取消標記。", task(t))
        }
        Sentence::AckFinished { task: t, n, acked: (a, total) } => format!(
            "{} 已結束，以最終狀態確認檢查點 {n}（已確認 {a}/{total}）。",
            task(t)
        ),
        Sentence::AckChannelState { task: t, n, acked: (a, total) } => format!(
            "{} 的所有輸入都已送來屏障 {n}：通道狀態已完整，它確認檢查點 {n}（已確認 {a}/{total}）。",
            task(t)
        ),
        Sentence::AckSnapshot { task: t, n, acked: (a, total) } => {
            format!("{} 確認檢查點 {n}（已確認 {a}/{total}）。", task(t))
        }
        Sentence::ProcessDone { task: t, n, acked: (a, total) } => format!(
            "{} 的每個輸入都已送來快照 {n} 的標記：它的狀態與通道狀態都已記錄（{a}/{total} 個行程完成）。",
            task(t)
        ),
        Sentence::Completed { n, finding } => format!(
            "檢查點 {n} 完成：所有任務都已確認。它的全域狀態{}——在檢查器中打開它。",
            match finding {
                Finding::Consistent => "是一致割集",
                Finding::CarriesDuplicates => "是一致割集，但計數帶著先前重放的重複（至少一次）",
                Finding::Inconsistent { .. } => "不是一致割集",
            }
        ),
        Sentence::SavepointCompleted { n, finding } => format!(
            "保存點 {n} 完成：所有任務都已確認。它的全域狀態{}——在檢查器中打開它。它和檢查點分開保存：失敗後的重啟不會從它恢復（要從它啟動新作業得手動指定），輸出不會因它提交，之後的檢查點也不會取代它。",
            match finding {
                Finding::Consistent => "是一致割集",
                Finding::CarriesDuplicates => "是一致割集，但計數帶著先前重放的重複（至少一次）",
                Finding::Inconsistent { .. } => "不是一致割集",
            }
        ),
        Sentence::SnapshotCompleted { n, finding } => format!(
            "快照 {n} 完成：每個行程都記錄了狀態，每個通道都記錄了訊息。它{}；在檢查器中打開它。",
            match finding {
                Finding::Consistent => "是一致的全域狀態",
                Finding::CarriesDuplicates => "是一致割集，但計數帶著先前重放的重複",
                Finding::Inconsistent { duplicated: 0, .. } => "不是一致的全域狀態——割集之前送出的訊息在它後面的標記之後才到（通道不是 FIFO），沒有人記錄它：它遺失了",
                Finding::Inconsistent { lost: 0, .. } => "不是一致的全域狀態——割集之後送出的訊息在它前面的標記之前就到了（通道不是 FIFO）：它在割集內被接收，卻在割集外送出",
                Finding::Inconsistent { .. } => "不是一致的全域狀態——訊息超越了標記（通道不是 FIFO）：有的遺失，有的在割集內被接收卻在割集外送出",
            }
        ),
        Sentence::AbortedSubsumed { n } => format!("檢查點 {n} 中止：更新的檢查點先完成了。"),
        Sentence::AbortedDeclined { n, task: t } => format!("檢查點 {n} 中止：{} 放棄了它。", task(t)),
        Sentence::AbortedExpired { n } => format!("檢查點 {n} 中止：超過了逾時時間。"),
        Sentence::AbortedFailover { n } => format!("檢查點 {n} 作廢：它進行中時作業失敗了。"),
        Sentence::SnapshotAbandoned { n } => format!("快照 {n} 作廢：它進行中時作業失敗了。"),
        Sentence::Committed { task: t, n, committed } => format!(
            "檢查點 {n} 已完成，所以 {} 提交它的輸出：{committed} 筆記錄從此確定。",
            task(t)
        ),
        Sentence::PartitionEnded { at } => {
            format!("{} 的輸入 {} 已結束（分區結束）。", task(at.task), names.input_number(at))
        }
        Sentence::JobFinished { n: Some(n) } => format!(
            "最後一個任務也已結束：作業結束。它的最後檢查點是檢查點 {n}，也就是任務等待的最後一個。"
        ),
        Sentence::JobFinished { n: None } => "最後一個任務也已結束：作業結束，沒有最後檢查點（任務結束後的檢查點沒有開啟）。".into(),
        Sentence::NeverCommitted { task: t, records } => format!(
            "{} 結束時還有 {records} 筆上次提交後收到的記錄：沒有最後檢查點，它們永遠不會提交——精確一次的輸出失去了它們。",
            task(t)
        ),
        Sentence::Backpressured { task: t, channel } => format!(
            "{} 受到背壓：它的輸出通道 {} 已滿（沒有額度了），在接收端消費之前不再讀取輸入——壓力向上游傳遞。",
            task(t),
            names.channel(channel)
        ),
        Sentence::Relieved { task: t } => format!("{} 的輸出又有空間了：它繼續工作。", task(t)),
        Sentence::JobFailed { failed, restore } => format!(
            "連續 {failed} 個檢查點失敗，超過作業能容忍的數量：作業失敗，{}。",
            match restore {
                Some(n) => format!("將從最近完成的檢查點 {n} 重啟"),
                None => "還沒有任何檢查點完成，將從頭開始".into(),
            }
        ),
        Sentence::Failed { task: t, dropped, restart_at, buffers, region } => format!(
            "{}{}，{}的 {dropped} 個項目遺失，進行中的檢查點作廢。{}將在 t={restart_at} 重啟。",
            match t {
                Some(t) => format!("{} 失敗了！", task(t)),
                None => "作業失敗。".into(),
            },
            match (&region, t) {
                (Some(r), _) => format!(
                    "和 Flink 一樣，只有它的區域停止——{}，也就是經由通道與它相連的子任務——作業的其餘部分繼續執行：這些任務被取消",
                    r.iter().map(|&u| task(u)).collect::<Vec<_>>().join("、")
                ),
                (None, Some(_)) => "和 Flink 一樣，它的區域停止——這裡就是整個作業，因為通道把所有子任務連成一體：所有任務被取消".into(),
                (None, None) => "和 Flink 一樣，整個作業停止：所有任務被取消".into(),
            },
            if buffers { "通道上和對齊緩衝區裡" } else { "通道上" },
            if region.is_some() { "這個區域" } else { "作業" }
        ),
        Sentence::TransactionAborted { task: t, aborted } => format!(
            "{} 中止它未提交的交易：已收到但未提交的 {aborted} 筆記錄被丟棄（收到的數量減少 {aborted}），永遠不會提交——重放會再帶來它們。",
            task(t)
        ),
        Sentence::RestartedFresh { partial } => format!(
            "還沒有任何檢查點完成，所以{}從頭開始，資料來源從偏移量 0 重新讀取。",
            if partial { "這個區域的所有任務" } else { "所有任務" }
        ),
        Sentence::Restored { n, reinjected, duplicates, partial } => {
            let mut s = format!(
                "恢復：{}從檢查點 {n} 還原狀態——鍵控計數、資料來源偏移量和輸出端交易都回到快照記錄的樣子{}。這就是非同步屏障快照論文所建的容錯：分散式快照，加上可以重放部分輸入的資料來源。",
                if partial { "這個區域的所有任務" } else { "所有任務" },
                if reinjected > 0 {
                    format!("；它的 {reinjected} 筆通道狀態記錄重新放回各自的通道，排在新輸入之前")
                } else {
                    String::new()
                }
            );
            if !duplicates.is_empty() {
                let words: Vec<String> = duplicates
                    .iter()
                    .take(4)
                    .map(|d| format!("{} 的「{}」", names.receiver(d.channel), payload(names, &d.record)))
                    .collect();
                s += &format!(
                    "但檢查點 {n} 是至少一次的：還原的狀態裡已有 {} 筆記錄是在提早到達的屏障之後、快照之前進入狀態的（{}{}）——它們的上游倒回到它們之前，所以它們會被計算兩次。",
                    duplicates.len(),
                    words.join("、"),
                    if duplicates.len() > 4 { "……" } else { "" }
                );
            }
            s
        }
        Sentence::ProcessesRestored { n, reinjected } => format!(
            "恢復：每個行程從快照 {n} 還原狀態，它記錄的 {reinjected} 則傳輸中訊息重新放回各自的通道，排在新訊息之前。這就是分散式快照的容錯：各行程的狀態，加上穿過割集的傳輸中訊息，就足以繼續。"
        ),
        Sentence::Rewound { task: t, from, to } => format!(
            "{} 的偏移量從 {from} 倒回 {to}：它重新讀取第 {} 行（重放，標記為 ↻）。",
            task(t),
            if from.saturating_sub(1) == to { to.to_string() } else { format!("{to}–{}", from.saturating_sub(1)) }
        ),
        Sentence::TaskFinished { task: t, n: Some(n) } => format!(
            "{0} 的最後檢查點 {n} 已完成，也不會再有任何東西送到 {0}：它送出分區結束標記並結束。",
            task(t)
        ),
        Sentence::SnapshotSkipped { task: t, n } => format!(
            "檢查點 {n} 在 {0} 做快照前已中止，協調器通知了每個任務：{0} 不做快照，改送取消標記代替屏障 {n}。",
            task(t)
        ),
        Sentence::TaskFinished { task: t, n: None } => {
            format!("{} 送出分區結束標記並結束。", task(t))
        }
        Sentence::ChannelPaused { channel } => format!("通道 {} 暫停。", names.channel(channel)),
        Sentence::ChannelResumed { channel } => format!("通道 {} 恢復流動。", names.channel(channel)),
        Sentence::AlignmentTimedOut { task: t, n } => format!(
            "檢查點 {n} 觸發至今已超過對齊逾時，{} 因此對這個檢查點改為非對齊——它現在就做快照，其餘輸入在屏障 {n} 之前送來的記錄存為通道狀態。被阻塞的輸入重新開放，緩衝中的項目在快照之後處理。",
            task(t)
        ),
        Sentence::BarrierOvertook { channel, n, overtaken } => format!(
            "屏障 {n} 到達通道 {}，超越了排在它前面、比它先送出的 {overtaken} 筆記錄：這些記錄存為檢查點 {n} 的通道狀態。",
            names.channel(channel)
        ),
        Sentence::FifoOn { channel } => {
            format!("通道 {} 恢復 FIFO：項目按送出的順序到達。", names.channel(channel))
        }
        Sentence::FifoOff { channel } => format!(
            "通道 {} 不再是 FIFO：後送的項目可能超越先送的——Chandy-Lamport 快照假設通道是 FIFO 的。",
            names.channel(channel)
        ),
        Sentence::LatencyChanged { channel, latency } => {
            format!("通道 {} 現在需要 {latency} ms。", names.channel(channel))
        }
        Sentence::BufferResized {
            channel,
            capacity,
            rate,
            target,
        } => format!(
            "緩衝區消脹：{} 每 ms 消耗 {} 筆記錄，所以通道 {} 現在最多放 {capacity} 筆——線上正在傳的，加上它分到的 {target} ms 輸入。",
            names.receiver(channel),
            crate::per_tick(rate),
            names.channel(channel)
        ),
    }
}

/// 「Count#0 處理來自輸入 1 的「b」，送出 2 筆記錄（重放）」, without the end.
fn processed(names: &Names, at: Input, record: &Record, emitted: u32) -> String {
    let p = payload(names, record);
    let what = if emitted == 0 {
        format!(
            "{} 處理來自輸入 {} 的「{p}」",
            names.task(at.task),
            names.input_number(at)
        )
    } else {
        format!(
            "{} 處理來自輸入 {} 的「{p}」，送出 {} 筆記錄",
            names.task(at.task),
            names.input_number(at),
            emitted
        )
    };
    if record.replay {
        format!("{what}（重放）")
    } else {
        what
    }
}

/// 「（已確認 3/5）」, when the acknowledgement went with the snapshot.
pub(super) fn acked_note(acked: Option<(u32, u32)>) -> String {
    match acked {
        Some((a, t)) => format!("（已確認 {a}/{t}）"),
        None => String::new(),
    }
}
