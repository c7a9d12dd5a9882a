use super::Strings;

pub const STRINGS: Strings = Strings {
    app_title: "ABS Playground",
    tagline: "Watch Flink's asynchronous barrier snapshots happen",
    dataflow: "Dataflow",
    subtasks: "subtasks",
    channels: "channels",
    step: "Step",
    step_back: "Step back",
    play: "Play",
    pause: "Pause",
    reset: "Reset",
    step_counter: "step",
    time: "time",
};
