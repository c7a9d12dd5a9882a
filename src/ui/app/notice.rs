//! A notice's text: what the page says when an address, the host page or an action asked for
//! something it could not do as asked.

use crate::i18n::Strings;
use crate::ui::state::{Ignored, Notice};

/// At most 40 characters of what an address said, so a huge value cannot swamp the page.
fn shorten(v: &str) -> String {
    match v.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &v[..at]),
        None => v.to_string(),
    }
}

/// A notice's text. `snapshots`: the run's checkpoints are Chandy-Lamport snapshots.
pub(super) fn notice_text(s: &Strings, n: &Notice, snapshots: bool) -> String {
    match n {
        Notice::BadParam { param, value, used } => (s.bad_param)(param, &shorten(value), used),
        Notice::HostBadParam { param, value, used } => {
            (s.host_bad_param)(param, &shorten(value), used)
        }
        Notice::HostLoadEmpty => s.host_load_empty.to_string(),
        Notice::HostBadNumber {
            message,
            field,
            value,
        } => (s.host_bad_number)(message, field, &shorten(value)),
        Notice::ModeUnavailable {
            mode,
            timeout,
            scenario,
            title,
            used,
            refused,
        } => {
            let asked = if *timeout {
                (s.mode_aligned_timeout)(crate::scenario::ALIGNED_TIMEOUT)
            } else {
                (s.mode_name)(*mode).to_string()
            };
            let title = (s.preset_text)(scenario).map_or(title.as_str(), |(t, _)| t);
            let unavailable = (s.mode_unavailable)(&asked, &shorten(title), (s.mode_name)(*used));
            match refused {
                // Why: the words of the refusal, in the page's language.
                Some(asked) => {
                    let why = crate::scenario::ScenarioError::Graph(
                        crate::engine::GraphError::ConcurrentUnaligned { asked: *asked },
                    );
                    let gap = if unavailable.ends_with(|c: char| c.is_ascii()) {
                        " "
                    } else {
                        ""
                    };
                    format!("{unavailable}{gap}{}", (s.scenario_error)(&why))
                }
                None => unavailable,
            }
        }
        Notice::StepPastEnd { shown, ended } => (s.step_past_end)(*shown, *ended),
        Notice::Ignored(what) => match what {
            Ignored::Step(v) => (s.ignored_step)(&shorten(v)),
            Ignored::Open(v) => (s.ignored_open)(&shorten(v), snapshots),
            Ignored::Select(v) => (s.ignored_sel)(&shorten(v)),
            Ignored::Panel(v) => (s.ignored_panel)(&shorten(v)),
            Ignored::Cut(v) => (s.ignored_cut)(&shorten(v)),
        },
        Notice::Refused(e) => (s.refused)(e),
        Notice::Ended => s.ended.to_string(),
        Notice::BrokenLink(why) => (s.broken_link)(&shorten(why)),
        Notice::BadScenario(why) => (s.bad_scenario)(&shorten(why)),
    }
}
