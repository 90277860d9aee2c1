//! The screens: each module holds one screen's state and implements [`Screen`] (the `handle`
//! for the actions of its key context, its `draw`); the app dispatches to the current one
//! through [`Screens::get_mut`], the one place that lists them.
//!
//! A screen changes only its own state. What reaches further (switching a skill, starting the
//! matchers, a status line) it returns as a [`Cmd`] for the app to carry out, so the order of
//! shared effects stays in one place (the app's `run`).

pub mod add;
pub mod budget;
pub(crate) mod checks;
pub(crate) mod confirm;
pub(crate) mod help;
pub mod prompt;
pub(crate) mod remove;
pub(crate) mod screen;
pub(crate) mod skills;
pub mod test;

use crate::core::listing::{Format, Tier};
use crate::core::probe::SandboxPreference;
use crate::tui::action::{Action, Screen as Id};

pub use screen::{Cmd, Ctx, Outcome, Overlay, Screen, move_selection, reveal};

/// Every screen's state, one field each: the registry the app dispatches through.
#[derive(Debug)]
pub struct Screens {
    pub skills: skills::Skills,
    pub prompt: prompt::Prompt,
    pub test: test::TestBox,
    pub checks: checks::Checks,
    pub budget: budget::Budget,
}

impl Screens {
    /// Every screen as the app starts: the listing format, tier and context window the
    /// preview starts with (`window_chosen`: the window was asked for, not a default), and the
    /// sandbox the probes ask for.
    pub fn new(
        format: Format,
        tier: Tier,
        (window, window_chosen): (u64, bool),
        sandbox: SandboxPreference,
    ) -> Screens {
        Screens {
            skills: skills::Skills::default(),
            prompt: prompt::Prompt {
                window_chosen,
                ..prompt::Prompt::new(format, tier, window)
            },
            test: test::TestBox::default(),
            checks: checks::Checks::new(sandbox),
            budget: budget::Budget::default(),
        }
    }

    pub fn get(&self, id: Id) -> &dyn Screen {
        match id {
            Id::Skills => &self.skills,
            Id::Prompt => &self.prompt,
            Id::Test => &self.test,
            Id::Checks => &self.checks,
            Id::Budget => &self.budget,
        }
    }

    pub fn get_mut(&mut self, id: Id) -> &mut dyn Screen {
        match id {
            Id::Skills => &mut self.skills,
            Id::Prompt => &mut self.prompt,
            Id::Test => &mut self.test,
            Id::Checks => &mut self.checks,
            Id::Budget => &mut self.budget,
        }
    }
}

/// The screen that owns an action: where it goes when the current screen does not take it (a
/// key bound in the global context, say).
pub fn owner(action: Action) -> Option<Id> {
    match action {
        Action::RunChecks | Action::RunDeps | Action::CancelChecks => Some(Id::Checks),
        Action::CycleFormat | Action::CycleTier | Action::CycleMode | Action::CycleWindow => {
            Some(Id::Prompt)
        }
        Action::ClearMessage | Action::LeaveMessage | Action::EditMessage => Some(Id::Test),
        Action::Close
        | Action::NextResource
        | Action::PrevResource
        | Action::OpenResource
        | Action::Toggle
        | Action::AgentToggle
        | Action::Filter
        | Action::AcceptFilter
        | Action::ClearFilter
        | Action::CycleSort
        | Action::ReverseSort
        | Action::Open
        | Action::DetailUp
        | Action::DetailDown
        | Action::Backspace => Some(Id::Skills),
        _ => None,
    }
}
