//! The frame (tabs, the current screen, the footer, the overlays): the one draw that reads the
//! app, to build the view (`tui::state::view::View`) every other draw reads. Above the app and
//! the screens; the draws it calls are theirs and `tui::view`'s.

use crate::tui::app::App;
use crate::tui::view::{footer, header};
use ratatui::Frame;

/// Draws a frame: the one draw that reads the app, to build the view every other draw reads.
pub fn draw(frame: &mut Frame, app: &App) {
    let view = app.view();
    let areas = app.areas(frame.area());
    header::draw(frame, areas.header, &view);
    app.screens.get(app.screen).draw(&view, frame, areas);
    footer::draw(frame, areas.footer, &view, &app.contexts());
    let area = frame.area();
    if let Some(overlay) = &app.overlay {
        overlay.get().draw(&view, frame, area);
    }
    scrub(frame);
}

/// The last guard: every text drawn above is escaped where it is built (`\u{202e}`), and
/// ratatui drops control characters; should a hazard still reach a cell by a path not escaped,
/// it is drawn as `?` rather than sent to the terminal.
fn scrub(frame: &mut Frame) {
    for cell in &mut frame.buffer_mut().content {
        if cell
            .symbol()
            .chars()
            .any(crate::core::words::text::is_hazard)
        {
            cell.set_symbol("?");
        }
    }
}
