//! Budget: token totals per agent/source and per level as bars, biggest contributors first.

use crate::tui::app::App;
use crate::tui::view::pending;
use ratatui::Frame;
use ratatui::layout::Rect;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    pending(
        frame,
        area,
        app,
        "Budget",
        &["…", "Token counts are not part of this build yet."],
    );
}
