//! The Skills screen as a [`Screen`]: its keys go to the handlers in `mod.rs`, its draw to the
//! list, the detail pane and the file viewer, each drawn from the screen's state and the view.

use super::{Mode, Skills, pane, resource, table};
use crate::tui::action::Action;
use crate::tui::keymap::Context;
use crate::tui::layout::Areas;
use crate::tui::screens::screen::{Ctx, Outcome, Screen};
use crate::tui::state::view::View;
use ratatui::Frame;
use ratatui::crossterm::event::MouseEventKind;
use ratatui::layout::Position;

impl Screen for Skills {
    fn context(&self) -> Context {
        self.keys()
    }

    fn handle(&mut self, action: Action, cx: &Ctx) -> Outcome {
        self.act(action, cx)
    }

    fn type_char(&mut self, c: char, cx: &Ctx) -> Outcome {
        self.type_filter(c, cx)
    }

    fn scroll(&mut self, delta: isize, cx: &Ctx) -> Outcome {
        self.scroll_by(delta, cx.lib, cx.size)
    }

    fn mouse(&mut self, kind: MouseEventKind, at: Position, cx: &Ctx) -> Outcome {
        self.click(kind, at, cx)
    }

    /// The filter box closes when another screen is shown.
    fn hidden(&mut self) {
        if self.mode == Mode::Filter {
            self.mode = Mode::List;
        }
    }

    fn draw(&self, view: &View<'_>, frame: &mut Frame, areas: Areas) {
        draw(frame, areas, view, self);
    }
}

/// The screen: the open file over everything, else the list and the detail pane as the layout
/// places them.
pub fn draw(frame: &mut Frame, areas: Areas, view: &View<'_>, skills: &Skills) {
    if let Some(v) = &skills.viewer {
        resource::draw(frame, areas.body, view, v);
        return;
    }
    if let Some(b) = areas.list_block {
        table::draw(frame, b, view, skills);
    }
    if let Some(d) = areas.detail {
        pane::draw(frame, d, view, skills);
    }
}
