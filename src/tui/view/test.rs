//! The test box: a message, and the skills each matcher would trigger for it, side by side.

use crate::tui::app::App;
use crate::tui::view::pending;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let [input, results] =
        Layout::vertical([Constraint::Length(3), Constraint::Min(1)]).areas(area);
    let text = Line::from(vec![
        Span::raw(app.test.message.clone()),
        Span::styled("▏", t.key()),
    ]);
    frame.render_widget(
        Paragraph::new(text).block(Block::bordered().title(Span::styled(" Message ", t.title()))),
        input,
    );
    pending(
        frame,
        results,
        app,
        "Would trigger",
        &["…", "The matchers are not part of this build yet."],
    );
}
