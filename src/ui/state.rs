//! The page's one reducer: the playback state over the engine's history.

use std::rc::Rc;

use yew::Reducible;

use crate::engine::History;
use crate::scenario::{presets, Scenario};

pub struct Playback {
    pub scenario: Scenario,
    pub history: History,
}

pub enum PlaybackAction {
    Step,
    StepBack,
    Reset,
}

impl Playback {
    pub fn new(scenario: Scenario) -> Playback {
        let sim = match scenario.simulation() {
            Ok(sim) => sim,
            // Presets are tested to build; fall back to the alignment preset regardless.
            Err(_) => presets::alignment()
                .simulation()
                .expect("the alignment preset builds"),
        };
        Playback {
            scenario,
            history: History::new(sim),
        }
    }
}

impl Reducible for Playback {
    type Action = PlaybackAction;

    fn reduce(self: Rc<Self>, action: PlaybackAction) -> Rc<Self> {
        let mut next = Playback {
            scenario: self.scenario.clone(),
            history: self.history.clone(),
        };
        match action {
            PlaybackAction::Step => {
                next.history.step();
            }
            PlaybackAction::StepBack => next.history.step_back(),
            PlaybackAction::Reset => next = Playback::new(self.scenario.clone()),
        }
        Rc::new(next)
    }
}
