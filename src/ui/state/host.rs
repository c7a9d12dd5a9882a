//! What the embedding page asks of the player (`ui::host`'s messages): play, pause, step,
//! seek, load a preset, a scenario or a lesson — each done here, or refused with a notice
//! that the page also sends back to the host.

use super::{resolve_for, Leave, Notice, Playback, Scenario};
use crate::engine::Action;
use crate::scenario::presets;
use crate::ui::host::HostMessage;

impl Playback {
    /// Does what the embedding page asked for (`host.rs`); what cannot be done is ignored.
    pub(super) fn host(&mut self, m: HostMessage) {
        match m {
            HostMessage::Play => {
                if !self.playing {
                    self.playing = true;
                    self.last_frame.set(None);
                    self.run.0.borrow_mut().play_now();
                }
            }
            HostMessage::Pause => self.playing = false,
            HostMessage::Trigger(savepoint) => {
                let action = match self.snapshot_initiator() {
                    _ if savepoint => Action::Savepoint,
                    Some(task) => Action::Initiate { task },
                    None => Action::Trigger,
                };
                let result = self.run.0.borrow_mut().apply(action);
                match result {
                    Ok(()) => self.settling.set(true),
                    Err(e) => self.host_refuse(Notice::Refused(e)),
                }
            }
            HostMessage::BadNumber {
                message,
                field,
                value,
            } => self.host_refuse(Notice::HostBadNumber {
                message,
                field,
                value,
            }),
            HostMessage::Step(n) => {
                self.playing = false;
                let mut run = self.run.0.borrow_mut();
                for _ in 0..n {
                    if !run.forward() {
                        break;
                    }
                }
                run.clock = run.sim().now() as f64;
            }
            HostMessage::Seek(step) => {
                self.playing = false;
                let mut run = self.run.0.borrow_mut();
                run.go_to(step);
                run.clock = run.sim().now() as f64;
            }
            HostMessage::LoadLesson(lesson) => self.leave(Leave::Lesson {
                lesson,
                lang: self.lang,
            }),
            HostMessage::Load { preset, mode, seed } => {
                let Some(preset) = preset else {
                    return self.host_refuse(Notice::HostLoadEmpty);
                };
                let Ok(scenario) = presets::by_name(&preset) else {
                    let used = self.preset.clone();
                    return self.host_refuse(Notice::HostBadParam {
                        param: "preset",
                        value: preset,
                        used,
                    });
                };
                let mut notices = Vec::new();
                let (mut scenario, mode, _) =
                    resolve_for(scenario, mode.as_deref(), None, &mut notices);
                if let Some(seed) = seed {
                    scenario.seed = seed;
                }
                self.mode = mode;
                self.code = None;
                self.restart(&scenario);
                self.host_notices(notices);
            }
            HostMessage::LoadScenario { json, mode, seed } => {
                #[cfg(feature = "views")]
                let read = Scenario::from_json_for_page(&json);
                #[cfg(not(feature = "views"))]
                let read = Scenario::from_json(&json);
                let scenario = match read {
                    // The student's builds send a job of real size to the build that draws it.
                    Ok(s)
                        if !crate::ui::layout::BUNDLES
                            && crate::ui::layout::for_second_player(&s) =>
                    {
                        return self.leave(Leave::Big(format!(
                            "?big&embed&lang={}&scenario={}",
                            self.lang.code(),
                            crate::scenario::codec::stored(&json)
                        )));
                    }
                    Ok(s) => s,
                    Err(e) => {
                        let why = (self.lang.strings().scenario_error)(&e);
                        return self.host_refuse(Notice::BadScenario(why));
                    }
                };
                let mut notices = Vec::new();
                let (mut scenario, _, _) =
                    resolve_for(scenario, mode.as_deref(), None, &mut notices);
                if let Some(seed) = seed {
                    scenario.seed = seed;
                }
                // `resolve_for` gave the scenario the mode it runs in, which `load` takes.
                self.load(scenario, crate::scenario::codec::stored(&json).into());
                self.host_notices(notices);
            }
        }
    }

    /// Asks the app to leave this page for `to` (the reducer does no navigation itself).
    fn leave(&mut self, to: Leave) {
        let n = self.leave.as_ref().map_or(0, |(n, _)| n + 1);
        self.leave = Some((n, to));
    }

    /// An `abs:load` that could not be done as asked: the notice is shown, and the host page
    /// is answered with it (`abs:error`, see `app.rs`).
    fn host_refuse(&mut self, notice: Notice) {
        let n = self.host_error.as_ref().map_or(0, |(n, _)| n + 1);
        self.host_error = Some((n, notice.clone()));
        self.notices.push(notice);
    }

    /// The notices of an `abs:load` that was done, but not quite as asked (a mode the scenario
    /// cannot run): told as the host's, not the address's.
    fn host_notices(&mut self, notices: Vec<Notice>) {
        for n in notices {
            self.host_refuse(match n {
                Notice::BadParam { param, value, used } => {
                    Notice::HostBadParam { param, value, used }
                }
                n => n,
            });
        }
    }
}
