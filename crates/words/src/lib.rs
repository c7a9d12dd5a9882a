//! Every sentence the page shows, in English and Chinese (Traditional, with the seed's terms:
//! 屏障 barrier, 對齊 alignment, 快照 snapshot, 檢查點 checkpoint, 通道 channel, 緩衝 buffer;
//! and Simplified, the Traditional converted when the crate is built: `build.rs`, `hans.rs`).
//!
//! Each language is a value of [`Strings`]; a string missing from one language is a compile
//! error, because every field must be given. Sentences with parameters are `fn` fields; the
//! narration is one such function per language over the engine's [`Sentence`]s.

#[cfg(feature = "en")]
mod en;
#[cfg(feature = "hans")]
pub mod hans;
mod names;
pub mod theory;
#[cfg(feature = "zh")]
mod zh;
#[cfg(feature = "zh")]
mod zh_errors;
/// The Simplified Chinese strings: `zh.rs` and its sentences converted by `build.rs`.
#[cfg(feature = "hans")]
mod zh_hans {
    include!(concat!(env!("OUT_DIR"), "/zh_hans.rs"));
}

#[cfg(not(any(feature = "en", feature = "zh", feature = "hans")))]
compile_error!("build with at least one language: the feature `en`, `zh`, `hans` or several");

use serde::{Deserialize, Serialize};

use abs_engine::coordinator::CheckpointStatus;
use abs_engine::record::ItemKind;
use abs_engine::view::Sentence;
use abs_engine::{ActionError, BarrierMode, OperatorKind};
use abs_scenario::codec::LinkError;
use abs_scenario::ScenarioError;

pub use names::Names;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Lang {
    #[default]
    En,
    /// Traditional Chinese, the seed's.
    Zh,
    /// Simplified Chinese: the Traditional strings converted (`hans.rs`).
    #[serde(rename = "zh-Hans")]
    ZhHans,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Zh, Lang::ZhHans];

    /// The `?lang=` value.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
            Lang::ZhHans => "zh-Hans",
        }
    }

    /// The language's own name, as the picker lists it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "繁體中文",
            Lang::ZhHans => "简体中文",
        }
    }

    /// The BCP 47 tag for `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-Hant",
            Lang::ZhHans => "zh-Hans",
        }
    }

    /// A `?lang=` value (any case): `en`; `zh`, `zh-TW`, `zh-HK`, `zh-Hant` (Traditional);
    /// `zh-Hans`, `zh-CN`, `zh-SG`, `zh-Hans-CN` (Simplified).
    pub fn from_code(code: &str) -> Option<Lang> {
        const CODES: [(&str, Lang); 9] = [
            ("en", Lang::En),
            ("zh", Lang::Zh),
            ("zh-TW", Lang::Zh),
            ("zh-HK", Lang::Zh),
            ("zh-Hant", Lang::Zh),
            ("zh-Hans", Lang::ZhHans),
            ("zh-CN", Lang::ZhHans),
            ("zh-SG", Lang::ZhHans),
            ("zh-Hans-CN", Lang::ZhHans),
        ];
        CODES
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(code))
            .map(|&(_, l)| l)
    }

    /// The page's language for a browser's `navigator.languages`: the first entry that names
    /// one of ours, else English.
    pub fn from_browser(languages: &[String]) -> Lang {
        languages
            .iter()
            .find_map(|tag| Lang::from_tag(tag))
            .unwrap_or(Lang::En)
    }

    /// A BCP 47 tag (any case, `_` or `-`): `en*` is English; Chinese is Simplified with the
    /// script `Hans` or, without a script, the region `CN`, `SG` or `MY`, and Traditional
    /// otherwise (`Hant`, `TW`, `HK`, `MO`, plain `zh`).
    fn from_tag(tag: &str) -> Option<Lang> {
        let mut parts = tag.split(['-', '_']);
        let language = parts.next()?;
        if language.eq_ignore_ascii_case("en") {
            return Some(Lang::En);
        }
        if !language.eq_ignore_ascii_case("zh") {
            return None;
        }
        let is = |part: &str, names: &[&str]| names.iter().any(|n| part.eq_ignore_ascii_case(n));
        Some(match parts.next() {
            Some(script) if is(script, &["Hans"]) => Lang::ZhHans,
            Some(region) if is(region, &["CN", "SG", "MY"]) => Lang::ZhHans,
            _ => Lang::Zh,
        })
    }

    /// Whether this build carries the language's sentences. The page is built once per
    /// language (index.html loads the build the address asks for); a language this build
    /// lacks is reached by loading the page again in it (`ui::app`).
    pub fn is_built(self) -> bool {
        match self {
            Lang::En => cfg!(feature = "en"),
            Lang::Zh => cfg!(feature = "zh"),
            Lang::ZhHans => cfg!(feature = "hans"),
        }
    }

    /// The language's sentences; in a build without it, the build's own language's.
    pub fn strings(self) -> &'static Strings {
        match self {
            #[cfg(feature = "en")]
            Lang::En => &en::STRINGS,
            #[cfg(feature = "zh")]
            Lang::Zh => &zh::STRINGS,
            #[cfg(feature = "hans")]
            Lang::ZhHans => &zh_hans::STRINGS,
            #[allow(unreachable_patterns)]
            _ => Lang::built().strings(),
        }
    }

    /// A scenario reader's message in words (see [`Syntax`]), for the pages that show the
    /// reader's errors in full: the editor, the Flink view, the lesson page. Not a field of
    /// [`Strings`], which every build links whole: the student's player never words them.
    pub fn syntax_words(self, m: &str) -> String {
        match self {
            #[cfg(feature = "en")]
            Lang::En => en::syntax_words(m),
            #[cfg(feature = "zh")]
            Lang::Zh => zh_errors::syntax_words(m),
            #[cfg(feature = "hans")]
            Lang::ZhHans => zh_hans::zh_errors::syntax_words(m),
            #[allow(unreachable_patterns)]
            _ => Lang::built().syntax_words(m),
        }
    }

    /// This build's first language: the one it falls back to.
    pub fn built() -> Lang {
        if cfg!(feature = "en") {
            Lang::En
        } else if cfg!(feature = "zh") {
            Lang::Zh
        } else {
            Lang::ZhHans
        }
    }
}

/// The page's fixed strings and sentence builders.
pub struct Strings {
    pub app_title: &'static str,
    /// The document's `<title>`.
    pub page_title: &'static str,
    pub tagline: &'static str,
    pub preset_label: &'static str,
    pub mode_label: &'static str,
    pub lang_label: &'static str,
    pub mode_name: fn(BarrierMode) -> &'static str,
    /// Title and lesson of a shipped preset (by name), if this language has them.
    pub preset_text: fn(&str) -> Option<(&'static str, &'static str)>,
    /// The button that shows the theory (why a preset matters, [`theory`]), and its heading.
    pub theory_title: &'static str,
    /// The space-time diagram's toggle and heading, and the line that says how to read it.
    pub spacetime_title: &'static str,
    pub spacetime_hint: &'static str,
    /// The button that starts (and ends) placing a cut by hand.
    pub cut_place: &'static str,
    /// The switch that shows the snapshots' own cuts beside the student's.
    pub cut_own: &'static str,
    /// Opens the search of every run (`?view=explore`), offered for small systems.
    pub explore_open: &'static str,
    /// Opens the modes side by side (`?compare=`), from the share dialog.
    pub compare_open: &'static str,
    /// How to move the student's cut, with a pointer and with the keyboard.
    pub cut_keys: &'static str,
    /// The student's cut is consistent; the number of records in flight across it.
    pub cut_consistent: fn(usize) -> String,
    /// The student's cut is not consistent; the number of orphans.
    pub cut_inconsistent: fn(usize) -> String,
    /// One orphan of the student's cut: the record's id, its sender, its receiver.
    pub cut_orphan: fn(u64, &str, &str) -> String,
    /// While the theory texts are loading, and when they could not be, with a button to retry.
    pub theory_loading: &'static str,
    pub theory_failed: &'static str,
    /// Above the text while the run has not started its first checkpoint (`true`: snapshot,
    /// Chandy-Lamport's) yet.
    pub theory_before: fn(bool) -> String,
    pub theory_retry: &'static str,
    pub seeing: &'static str,

    // Controls
    pub step: &'static str,
    /// The button that goes forward to the next key event (①–④, a checkpoint completed, a
    /// failure; the help's shortcuts say so).
    pub next_key: &'static str,
    pub step_back: &'static str,
    pub play: &'static str,
    pub pause: &'static str,
    pub reset: &'static str,
    pub trigger: &'static str,
    /// The savepoint button (and a savepoint's name before its number), and what a savepoint
    /// is (the button's title, the inspector's note).
    pub savepoint: &'static str,
    pub savepoint_hint: &'static str,
    /// Chandy-Lamport's trigger: from the selected process, or the next initiator.
    pub start_snapshot: &'static str,
    pub start_snapshot_at: fn(&str) -> String,
    pub manual: &'static str,
    pub manual_hint: &'static str,
    pub speed: &'static str,
    pub step_counter: &'static str,
    pub time: &'static str,
    pub timeline: &'static str,
    pub shortcuts: &'static str,
    pub shortcut_list: &'static [(&'static str, &'static str)],
    pub close: &'static str,

    // Dataflow
    pub dataflow: &'static str,
    /// On a phone, under a graph drawn larger than the screen: how to see the rest of it.
    pub pan_hint: &'static str,
    pub status_running: &'static str,
    pub status_aligning: fn(u64) -> String,
    pub status_tracking: fn(u64) -> String,
    pub status_persisting: fn(u64) -> String,
    pub status_snapshotting: fn(u64) -> String,
    pub status_replaying: fn(u32) -> String,
    /// Its data ended; it waits for its final checkpoint.
    pub status_ending: &'static str,
    pub status_finished: &'static str,
    pub status_backpressured: &'static str,
    pub status_stopped: fn(u64) -> String,
    pub status_failed: &'static str,
    pub status_cancelled: &'static str,
    /// The inspector's button that fails the selected subtask.
    pub fail_task: &'static str,
    /// The recovery line: a planned failure (subtask, time) and the button that skips it.
    pub recovery_planned: fn(&str, u64) -> String,
    pub skip_failure: &'static str,
    /// The job is down: the failed subtask (none: too many failed checkpoints), the restart
    /// time, the checkpoint to restore (none: from the beginning).
    /// The failed task, the restart's time, the checkpoint restored, and whether only a
    /// region (not the whole job) is down.
    pub recovery_down: fn(Option<&str>, u64, Option<u64>, bool) -> String,
    /// Restored: the checkpoint (none: from the beginning) and when; then the records the
    /// replay will count twice (at-least-once).
    pub recovery_restored: fn(Option<u64>, u64) -> String,
    pub recovery_rewound: fn(&str, u64, u64) -> String,
    pub recovery_duplicates: fn(u32) -> String,
    /// The job ended after failures: the same counts as without them, or `n` words differ.
    pub final_same: &'static str,
    pub final_differs: fn(usize) -> String,
    /// One word's count with the failures and without.
    pub final_word: fn(&str, u64, u64) -> String,
    pub counted_twice: &'static str,
    /// A transactional sink's committed and pending (open transaction) output.
    pub sink_committed: fn(u64, u64) -> String,
    /// A plain sink: everything it emitted, replays included.
    pub sink_emitted: fn(u64) -> String,
    pub legend_replay: &'static str,
    /// The share dialog: its button and title, the two fields, the copy button, a hint.
    pub share: &'static str,
    pub share_title: &'static str,
    pub share_link: &'static str,
    /// The share dialog's lesson step: this moment as a step of a lesson file.
    pub share_step: &'static str,
    pub share_embed: &'static str,
    pub share_hint: &'static str,
    pub copy: &'static str,
    /// Embedded: the link to the same moment in the full playground.
    pub open_full: &'static str,
    /// A link to a moment that could not be followed (why, from `link_error`).
    pub broken_link: fn(&str) -> String,
    /// Why a link could not be followed, in words.
    pub link_error: fn(&LinkError) -> String,
    /// Why a scenario was refused, in words: in the editor, from a link or the host page.
    pub scenario_error: fn(&ScenarioError) -> String,
    // The scenario editor and export
    /// The lesson line's link to the guided lessons (`?lesson=`, a page of its own).
    pub lessons_open: &'static str,
    pub editor_open: &'static str,
    /// The picker's entry for a scenario edited by hand.
    pub edited_scenario: fn(&str) -> String,
    /// A scenario in a link or from the host page could not be loaded (why).
    pub bad_scenario: fn(&str) -> String,
    /// Before the share dialog's export buttons: the dataflow at this step (SVG, PNG), the
    /// space-time diagram alone (when open), a global state as JSON (the button names it).
    pub export_rows: [&'static str; 3],
    /// The export could not be made; the reason follows (it ends in a colon and a space where
    /// the language puts one).
    pub export_failed: &'static str,
    /// The coordinator's link to the checkpoints it does not list.
    pub more_checkpoints: fn(usize) -> String,
    /// Before the chips of the earlier checkpoints.
    pub earlier: &'static str,
    pub throughput_title: &'static str,
    /// "12 per 50": records at the sinks in the last complete bar of `n` time units.
    /// The latest complete bar, the average (formatted), per how many ms.
    pub throughput_latest: fn(u32, &str, u64) -> String,
    /// The chart's explanation, with the top of its scale.
    pub throughput_hint: fn(u32) -> String,
    pub state_offset: fn(u64) -> String,
    pub state_processed: fn(u64) -> String,
    pub state_keys: fn(usize) -> String,
    pub state_received: fn(u64) -> String,
    /// A token process: `s1` with the token, `s0` without.
    pub state_token: fn(bool) -> String,
    pub state_balance: fn(u64) -> String,
    pub operator_kind: fn(&OperatorKind) -> &'static str,
    pub slow: fn(u64) -> String,
    /// Buffer debloating: a channel's capacity now ("buffer 6").
    pub buffer_size: fn(u32) -> String,
    pub blocked: &'static str,
    pub more: fn(usize) -> String,

    // Legend
    pub legend: &'static str,
    pub legend_record: &'static str,
    pub legend_barrier: &'static str,
    pub legend_marker: &'static str,
    /// The mode menu's "aligned, unaligned after T ms".
    pub mode_aligned_timeout: fn(u64) -> String,
    /// The mode menu's "aligned, buffer debloating".
    pub mode_aligned_debloat: &'static str,
    /// Aligned with a timeout: what the timeout changes, told after the preset's aligned lesson.
    pub timeout_note: fn(u64) -> String,
    pub legend_log: &'static str,
    pub token_states_title: &'static str,
    pub fifo: &'static str,
    /// Chandy-Lamport's words for the coordinator's list and a global state's title.
    pub snapshots_title: &'static str,
    pub snapshot: fn(u64) -> String,
    pub global_state_of_snapshot: fn(u64) -> String,
    /// A channel's label when it is not FIFO.
    pub non_fifo: &'static str,
    /// A channel's label where its barriers stay aligned although the run's would overtake
    /// (Flink's partitioner rule), with the partitioning that keeps them so.
    pub kept_aligned: fn(&str) -> String,
    /// The inspector's row on how barriers cross a channel, and its three answers: kept
    /// aligned (by this partitioning), unaligned from the start, unaligned after a timeout.
    pub barriers: &'static str,
    pub barriers_kept: fn(&str) -> String,
    pub barriers_priority: &'static str,
    pub barriers_timeout: &'static str,
    pub fifo_on: &'static str,
    pub fifo_off: &'static str,
    /// What the snapshot conserves: (tokens or money, at the start, in the snapshot).
    pub conservation: fn(abs_engine::snapshot::Conserved, u64, u64) -> String,
    /// A record that crossed the cut the wrong way: (how, the record, sender, receiver).
    pub crossing: fn(abs_engine::snapshot::CrossingKind, &str, &str, &str) -> String,
    /// A global state of the one-token system: its name and the process states it means.
    pub token_state: fn(abs_engine::view::TokenPlace, &str, &str) -> (String, String),
    pub token_states_caption: fn(Option<u64>) -> String,
    pub legend_recorded: &'static str,
    pub legend_cancel: &'static str,
    pub legend_eod: &'static str,
    pub legend_eop: &'static str,
    pub legend_kept_aligned: &'static str,
    pub legend_blocked: &'static str,
    pub legend_held: &'static str,
    pub legend_persisted: &'static str,
    pub legend_slips: &'static str,
    pub legend_ticks: &'static str,

    // Coordinator
    pub coordinator: &'static str,
    pub no_checkpoints: &'static str,
    /// Chandy-Lamport's: the trigger button is "Start snapshot" there.
    pub no_snapshots: &'static str,
    /// Chandy-Lamport's line for the B key in the shortcuts (the others' is in `shortcut_list`).
    pub shortcut_snapshot: &'static str,
    pub checkpoint: fn(u64) -> String,
    pub checkpoint_status: fn(&CheckpointStatus) -> String,
    pub acked: fn(u32, u32) -> String,

    // Inspector
    pub inspector: &'static str,
    pub tab_details: &'static str,
    pub tab_checkpoints: &'static str,
    pub select_hint: &'static str,
    /// A process of a Chandy-Lamport system (token, bank), where the dataflow says subtask.
    pub process: &'static str,
    pub subtask: &'static str,
    pub operator: &'static str,
    pub status: &'static str,
    pub state: &'static str,
    pub inputs: &'static str,
    pub input_n: fn(u32) -> String,
    pub held: &'static str,
    pub has_barrier: &'static str,
    pub channel: &'static str,
    pub from: &'static str,
    pub to: &'static str,
    pub latency: &'static str,
    pub in_flight: &'static str,
    pub records_sent: &'static str,
    pub records_received: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    pub item: &'static str,
    pub item_kind: fn(&ItemKind) -> String,
    pub payload: &'static str,
    pub derived_from: &'static str,
    pub sent_at: &'static str,
    pub arrives_at: &'static str,
    pub item_gone: &'static str,
    pub recent: &'static str,

    // Checkpoints tab and global state
    pub trigger_time: &'static str,
    pub end_to_end: &'static str,
    pub alignment_duration: &'static str,
    pub records_held: &'static str,
    pub state_size: &'static str,
    pub persisted: &'static str,
    pub ack_time: &'static str,
    pub start_delay: &'static str,
    pub global_state_of: fn(u64) -> String,
    pub task_states: &'static str,
    /// The heading of each subtask's figures as Flink's REST API lists them, and its columns.
    pub subtask_stats: &'static str,
    pub async_duration: &'static str,
    pub persisted_data: &'static str,
    pub processed_data: &'static str,
    pub unaligned_checkpoint: &'static str,
    pub channel_states: &'static str,
    pub no_channel_state: &'static str,
    pub aligned_no_channel_state: &'static str,
    pub not_retained: &'static str,
    pub not_completed: &'static str,
    pub consistent: &'static str,
    pub inconsistent: &'static str,
    pub verdict_counts: fn(u64, u64) -> String,
    pub word_check_ok: fn(u64) -> String,
    pub word_check_bad: fn(usize) -> String,
    /// Persisted in-flight data: bytes, and how many records that is.
    pub persisted_figure: fn(u64, u64) -> String,
    /// The checkpoints table's verdict column, and its two answers.
    pub verdict_column: &'static str,
    pub consistent_short: &'static str,
    pub inconsistent_short: &'static str,
    /// The legend's record entry for keyed records, rounds of a loop, the token, money.
    pub legend_keyed: &'static str,
    pub legend_round: &'static str,
    pub legend_token: &'static str,
    pub legend_money: &'static str,
    /// The inspector's verdict on a consistent cut whose word counts carry the duplicates of
    /// an earlier replay (`Finding::CarriesDuplicates`), and its short form (the coordinator's
    /// list, the checkpoint table): worded as the narration words it.
    pub carries_duplicates: &'static str,
    pub carries_duplicates_short: &'static str,
    pub rows_more: fn(usize) -> String,

    // Narration
    pub narration: &'static str,
    pub narration_empty: &'static str,
    pub narrate: fn(&Sentence, &Names) -> String,

    // Notices
    pub bad_param: fn(&str, &str, &str) -> String,
    /// The page embedding the player asked `abs:load` for something that does not exist.
    pub host_bad_param: fn(&str, &str, &str) -> String,
    /// Its `abs:load` named neither a preset nor a scenario.
    pub host_load_empty: &'static str,
    /// The host page's `abs:step` or `abs:seek` (the message, its field, the value as sent)
    /// with no whole number from 0: nothing changed.
    pub host_bad_number: fn(&str, &str, &str) -> String,
    /// A mode the scenario cannot run: (the mode's name, the scenario's title, the mode shown).
    pub mode_unavailable: fn(&str, &str, &str) -> String,
    /// A link's step past what the run reaches: (the last step shown, whether the run ended
    /// there — or a link goes no further).
    pub step_past_end: fn(u64, bool) -> String,
    /// A link's step that is not a number (as the link spelt it).
    pub ignored_step: fn(&str) -> String,
    /// A link's `open` naming no completed checkpoint (snapshot, if true) at its step.
    pub ignored_open: fn(&str, bool) -> String,
    /// A link's `sel` naming nothing in the graph.
    pub ignored_sel: fn(&str) -> String,
    /// `cut=` does not give one time per line of the diagram.
    pub ignored_cut: fn(&str) -> String,
    /// A link's `panel` naming no tab.
    pub ignored_panel: fn(&str) -> String,
    pub refused: fn(&ActionError) -> String,
    pub ended: &'static str,
    pub dismiss: &'static str,
}

/// A rate kept per 1,000 ticks, per tick with two decimals ("0.33").
pub fn per_tick(per_thousand: u64) -> String {
    format!("{}.{:02}", per_thousand / 1000, per_thousand % 1000 / 10)
}

/// The circled step number of the seed's alignment steps.
pub fn step_marker(n: u8) -> &'static str {
    match n {
        1 => "①",
        2 => "②",
        3 => "③",
        4 => "④",
        _ => "",
    }
}

/// A message of the scenario reader (which speaks serde's words, so that the two agree) taken
/// apart, so each language can say it in words a person reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax<'a> {
    /// The text ends inside a string.
    EndInString,
    /// A line break (or another control character) inside a string.
    ControlInString,
    /// The text ends before the value does.
    EndEarly,
    /// Something else stands where this was expected (`` `,` or `}` ``, `` `:` ``, …).
    Expected(&'a str),
    Trailing,
    Escape,
    LeadingZero,
    TooDeep,
    Missing(&'a str),
    Duplicate(&'a str),
    /// An unknown field, and the fields there are.
    UnknownField(&'a str, &'a str),
    /// An unknown name, and the names there are.
    UnknownVariant(&'a str, &'a str),
    /// What was given, and what was expected.
    InvalidType(&'a str, &'a str),
    /// A number out of its range: as the text spells it, the largest allowed, and what the
    /// number is ("the index of one of the choices"; empty for a plain whole number).
    OutOfRange(&'a str, u64, &'a str),
    /// A setting an operator kind does not have: the setting, the kind, the kind's own
    /// settings (empty if it has none).
    NotASetting(&'a str, &'a str, &'a str),
    Other(&'a str),
}

impl<'a> Syntax<'a> {
    pub fn of(message: &'a str) -> Syntax<'a> {
        // serde's " at line L column C" is said apart.
        let message = rsplit_at(message, " at line ").map_or(message, |(m, _)| m);
        let tick = |m: &'a str, prefix: &str| -> Option<(&'a str, &'a str)> {
            let rest = m.strip_prefix(prefix)?;
            let end = rest.find('`')?;
            let known = &rest[end + 1..];
            Some((
                &rest[..end],
                known.strip_prefix(", expected one of ").unwrap_or(known),
            ))
        };
        if message == "EOF while parsing a string" {
            Syntax::EndInString
        } else if message.starts_with("control character") {
            Syntax::ControlInString
        } else if message.starts_with("EOF while parsing") {
            Syntax::EndEarly
        } else if message == "trailing characters" {
            Syntax::Trailing
        } else if message == "invalid escape" || message == "invalid unicode code point" {
            Syntax::Escape
        } else if message == "invalid number: leading zero" {
            Syntax::LeadingZero
        } else if message == "recursion limit exceeded" {
            Syntax::TooDeep
        } else if let Some((name, _)) = tick(message, "missing field `") {
            Syntax::Missing(name)
        } else if let Some((name, _)) = tick(message, "duplicate field `") {
            Syntax::Duplicate(name)
        } else if let Some((name, known)) = tick(message, "unknown field `") {
            // The reader's own wording for a setting of another operator kind: "…`: a map
            // operator has no settings" or "…: a source operator has `lines`, `interval`".
            match known
                .strip_prefix(": a ")
                .and_then(|k| rsplit_at(k, " operator has "))
            {
                Some((kind, "no settings")) => Syntax::NotASetting(name, kind, ""),
                Some((kind, own)) => Syntax::NotASetting(name, kind, own),
                None => Syntax::UnknownField(name, known),
            }
        } else if let Some((name, known)) = tick(message, "unknown variant `") {
            Syntax::UnknownVariant(name, known)
        } else if let Some((value, wanted)) = message
            .strip_prefix("invalid value: integer `")
            .and_then(|rest| rsplit_at(rest, "`, expected "))
        {
            // "u32", "u64", or what the number is with its range: "… (0 to 3)".
            let named = rsplit_at(wanted, " (0 to ")
                .and_then(|(what, max)| Some((what, max.strip_suffix(')')?.parse::<u64>().ok()?)));
            match named {
                Some((what, max)) => Syntax::OutOfRange(value, max, what),
                None if wanted == "u32" => Syntax::OutOfRange(value, u64::from(u32::MAX), ""),
                None => Syntax::OutOfRange(value, u64::MAX, ""),
            }
        } else if let Some(rest) = message.strip_prefix("invalid type: ") {
            match rsplit_at(rest, ", expected ") {
                Some((given, wanted)) => Syntax::InvalidType(given, wanted),
                None => Syntax::Other(message),
            }
        } else if let Some(what) = message.strip_prefix("expected ") {
            Syntax::Expected(what)
        } else {
            Syntax::Other(message)
        }
    }
}

/// `text` around the last `needle` in it. A byte loop: `str::rfind` with a string pattern
/// links a two-way searcher the page does not otherwise need.
fn rsplit_at<'a>(text: &'a str, needle: &str) -> Option<(&'a str, &'a str)> {
    let (t, n) = (text.as_bytes(), needle.as_bytes());
    let at = t.windows(n.len()).rposition(|w| w == n)?;
    Some((&text[..at], &text[at + n.len()..]))
}

#[cfg(all(test, feature = "en", feature = "zh"))]
mod tests;
