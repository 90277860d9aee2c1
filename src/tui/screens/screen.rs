//! The shape every screen and overlay shares: the [`Screen`] trait, what a handler may read
//! ([`Ctx`]), what it answers ([`Outcome`], [`Cmd`]), which screen owns an action, and the
//! table moves the screens share. Below every screen; the registry of them is `mod.rs`.

use crate::core::Library;
use crate::core::agents::SwitchScope;
use crate::core::findings::diagnostic::Counts;
use crate::core::tokens::SkillTokens;
use crate::tui::action::Action;
use crate::tui::event::Event;
use crate::tui::jobs;
use crate::tui::keymap::Context;
use crate::tui::layout::Areas;
use crate::tui::state::view::View;
use crate::tui::state::work::PreviewJob;
use ratatui::Frame;
use ratatui::crossterm::event::MouseEventKind;
use ratatui::layout::{Position, Rect};
use ratatui::widgets::TableState;
use std::sync::Arc;
use std::sync::mpsc::Sender;

/// One screen: its state, what it makes of the actions of its key context, and its draw.
pub trait Screen {
    /// The keymap context its keys are looked up in now.
    fn context(&self) -> Context;

    /// An action of its context, or one it owns (see [`super::owner`]) bound elsewhere.
    fn handle(&mut self, action: Action, cx: &Ctx) -> Outcome;

    /// A printable key no binding took.
    fn type_char(&mut self, _c: char, _cx: &Ctx) -> Outcome {
        Outcome::Ignored
    }

    /// The wheel: `delta` lines, as the arrow keys move.
    fn scroll(&mut self, _delta: isize, _cx: &Ctx) -> Outcome {
        Outcome::Ignored
    }

    /// A click or a wheel turn at `at`, outside the tabs; the wheel scrolls unless the screen
    /// says otherwise.
    fn mouse(&mut self, kind: MouseEventKind, _at: Position, cx: &Ctx) -> Outcome {
        match kind {
            MouseEventKind::ScrollDown => self.scroll(3, cx),
            MouseEventKind::ScrollUp => self.scroll(-3, cx),
            _ => Outcome::Ignored,
        }
    }

    /// The screen is shown: what it needs of the app then.
    fn shown(&mut self) -> Option<Cmd> {
        None
    }

    /// Another screen is shown instead.
    fn hidden(&mut self) {}

    /// Draws the screen in `areas` (the frame, the tabs and the footer are the app's): a pure
    /// function of the screen's own state and `view`, the shared state as the app lends it.
    fn draw(&self, view: &View<'_>, frame: &mut Frame, areas: Areas);
}

/// What a screen made of an action.
#[must_use]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Not an action of this screen: the app offers it to the screen that owns it.
    Ignored,
    Done,
    /// Done, and the app carries out this shared effect.
    Then(Cmd),
}

/// The effects a screen asks of the app: they touch state other screens show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    /// Show a line in the footer; `true`: an error.
    Status(String, bool),
    Quit,
    /// Close the help or the confirmation, with a word in the footer if any.
    CloseOverlay(Option<&'static str>),
    /// Plan the write-through of the selected skill to the agents' settings of a scope (on or
    /// off; `None`: the opposite of what the agents do now) and ask for a confirmation.
    PlanAgentToggle(SwitchScope, Option<bool>),
    /// Write the confirmed change into the agents' settings.
    WriteAgentToggle,
    /// Switch the selected skill on or off in skillscope's state.
    ToggleSelected,
    /// Scroll the detail pane to the selected resource.
    RevealResource,
    /// Scroll the detail pane by this many lines (how long it is depends on shared state).
    ScrollDetail(isize),
    /// Run the matchers again on the Test box's message (which the auto listing follows).
    RunMatchers,
    /// Render the prompt preview again for new listing settings.
    Preview,
    /// The listing format changed: count every L1 again in it, then render the preview.
    RecountL1,
    /// Take these files as open: the view's conditional skills, the preview and the Test box
    /// follow.
    SetFiles(Vec<std::path::PathBuf>),
    /// The Prompt screen is shown: render the preview if the one rendered is out of date.
    FreshPreview,
    /// The Test screen is shown: build the matchers' index if there is none.
    NeedIndex,
    /// Remove the skill whose removal the user said yes to.
    RemoveConfirmed,
    /// Fetch and price this source for the Add flow (on a worker).
    FetchSource(String),
    /// Install the skills checked in the Add flow.
    InstallChecked,
    /// The Add flow's target: the next agent (`true`) or the other scope.
    CycleAddTarget(bool),
    /// Read the library again (a skill was added, removed or put back).
    Rescan,
}

impl Outcome {
    /// Done, with a line for the footer.
    pub fn status(text: impl Into<String>) -> Outcome {
        Outcome::Then(Cmd::Status(text.into(), false))
    }
}

/// What a screen's `handle` may read of the shared state, and the way to start a worker.
pub struct Ctx<'a> {
    pub lib: &'a Arc<Library>,
    pub costs: &'a [SkillTokens],
    pub diag_counts: &'a [Counts],
    /// The terminal's size.
    pub size: Rect,
    /// Where everything is drawn for the current terminal size, so keys and clicks agree with
    /// what is on screen.
    pub areas: Areas,
    pub cache: &'a jobs::Cache,
    /// The library's generation: worker results carry it so stale ones are dropped.
    pub generation: u64,
    pub tx: &'a Sender<Event>,
    /// The prompt preview's listing, as far as rendered.
    pub preview: &'a PreviewJob,
    /// Whose view every screen shows.
    pub in_view: &'a crate::tui::state::in_view::InView,
}

/// Moves the selection of a table `len` rows long by `delta` (clamped to the rows).
pub fn move_selection(state: &mut TableState, len: usize, delta: isize) {
    let last = len.saturating_sub(1);
    let at = state.selected().unwrap_or(0);
    state.select(Some(at.saturating_add_signed(delta).min(last)));
}

/// Scrolls a table `len` rows long, `height` rows on screen, so that its selection is on screen
/// with up to `margin` rows of context above and below where there are rows; the offset never
/// leaves blank rows at the end. Kept here, not in a draw, so a click lands on the row drawn.
pub fn reveal(state: &mut TableState, len: usize, height: usize, margin: usize) {
    if height == 0 {
        return;
    }
    // A margin the window has no room for would push the selection off it.
    let margin = margin.min((height - 1) / 2);
    let selected = state.selected().unwrap_or(0);
    let mut offset = state.offset();
    if selected < offset + margin {
        offset = selected.saturating_sub(margin);
    } else if selected + margin >= offset + height {
        offset = (selected + margin + 1).saturating_sub(height);
    }
    *state.offset_mut() = offset.min(len.saturating_sub(height));
}

/// An overlay open over the screens (the help, a write-through's confirmation, the Add flow, a
/// removal's question): it takes every key while it is open and draws over the whole frame.
pub trait Overlay {
    /// The keymap contexts in force while it is open, most specific first.
    fn contexts(&self) -> Vec<Context>;

    /// Its answer to an action; `view` and `area` (the frame) say how far what it shows
    /// scrolls.
    fn handle(&mut self, action: Action, view: &View<'_>, area: Rect) -> Outcome;

    /// A character typed that no key binds: `true` when it took it (a text box of its own).
    fn type_char(&mut self, _c: char) -> bool {
        false
    }

    /// Draws it over `area`, the whole frame.
    fn draw(&self, view: &View<'_>, frame: &mut Frame, area: Rect);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Whatever the moves, the selection stays on a row and on screen, and the window never
        /// runs past the last row.
        #[test]
        fn the_selection_stays_on_screen(
            len in 0usize..200,
            height in 1usize..40,
            margin in 0usize..2,
            moves in proptest::collection::vec(-300isize..300, 1..20),
        ) {
            let mut state = TableState::new().with_selected(0);
            for delta in moves {
                move_selection(&mut state, len, delta);
                reveal(&mut state, len, height, margin);
                let (sel, off) = (state.selected().unwrap_or(0), state.offset());
                prop_assert!(sel < len.max(1));
                prop_assert!(off <= sel && sel < off + height, "{off} {sel} {height}");
                prop_assert!(off <= len.saturating_sub(height));
                // The margin is kept wherever there are rows to show in it.
                if height > 2 * margin {
                    prop_assert!(sel >= off + margin || off == 0);
                    prop_assert!(sel + margin < off + height || off + height >= len);
                }
            }
        }
    }
}
