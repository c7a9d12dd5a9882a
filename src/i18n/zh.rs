use super::Strings;

pub const STRINGS: Strings = Strings {
    app_title: "ABS 遊樂場",
    tagline: "觀看 Flink 非同步屏障快照的每一步",
    dataflow: "資料流",
    subtasks: "子任務",
    channels: "通道",
    step: "下一步",
    step_back: "上一步",
    play: "播放",
    pause: "暫停",
    reset: "重設",
    step_counter: "步",
    time: "時間",
};
