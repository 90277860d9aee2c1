//! The overlay open over the screens.

use crate::tui::keymap::Context;
use crate::tui::screens::add::AddFlow;
use crate::tui::screens::confirm::Confirm;
use crate::tui::screens::help::Help;
use crate::tui::screens::remove::Removal;

/// The overlay open over the screens: it takes every key while it is open.
pub enum Overlay {
    Help(Help),
    /// A write-through to agents' settings waiting for the user's yes.
    Confirm(Confirm),
    Add(AddFlow),
    /// A removal waiting for the user's yes.
    Remove(Removal),
}

impl Overlay {
    /// The keymap contexts in force while it is open, most specific first.
    pub fn contexts(&self) -> Vec<Context> {
        match self {
            Overlay::Add(f) => vec![f.context(), Context::Global],
            Overlay::Confirm(_) | Overlay::Remove(_) => vec![Context::Confirm],
            Overlay::Help(_) => vec![Context::Help],
        }
    }
}
