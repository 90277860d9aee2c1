//! The overlay open over the screens: one of four, each an [`screens::Overlay`].

use crate::tui::screens;
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
    /// The one open, as an overlay.
    pub fn get(&self) -> &dyn screens::Overlay {
        match self {
            Overlay::Help(h) => h,
            Overlay::Confirm(c) => c,
            Overlay::Add(f) => f,
            Overlay::Remove(r) => r,
        }
    }

    /// The one open, as an overlay that may change.
    pub fn get_mut(&mut self) -> &mut dyn screens::Overlay {
        match self {
            Overlay::Help(h) => h,
            Overlay::Confirm(c) => c,
            Overlay::Add(f) => f,
            Overlay::Remove(r) => r,
        }
    }
}
