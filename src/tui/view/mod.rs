//! Drawing: pure functions from `&App` to a frame, one file per screen or pane.

pub mod budget;
pub mod checks;
pub mod confirm;
pub mod detail;
pub mod footer;
pub mod header;
pub mod help;
pub mod prompt;
pub mod resource;
pub mod skills;
pub mod test;

pub use crate::core::text::{fit as truncate, thousands};
use crate::tui::action::Screen;
use crate::tui::app::App;
use ratatui::Frame;

pub use crate::tui::layout::{Areas, WIDE, layout};

pub fn draw(frame: &mut Frame, app: &App) {
    let areas = app.areas(frame.area());
    header::draw(frame, areas.header, app);
    match app.screen {
        Screen::Skills if app.viewer.is_some() => {
            if let Some(v) = &app.viewer {
                resource::draw(frame, areas.body, app, v);
            }
        }
        Screen::Skills => {
            if let Some(b) = areas.list_block {
                skills::draw(frame, b, app);
            }
            if let Some(d) = areas.detail {
                detail::draw(frame, d, app);
            }
        }
        Screen::Prompt => prompt::draw(frame, areas.body, app),
        Screen::Test => test::draw(frame, areas.body, app),
        Screen::Checks => checks::draw(frame, areas.body, app),
        Screen::Budget => budget::draw(frame, areas.body, app),
    }
    footer::draw(frame, areas.footer, app);
    if let Some(scroll) = app.help {
        help::draw(frame, frame.area(), app, scroll);
    }
    if let Some(c) = &app.confirm {
        confirm::draw(frame, frame.area(), app, c);
    }
    scrub(frame);
}

/// The last guard: every text drawn above is escaped where it is built (`\u{202e}`), and
/// ratatui drops control characters; should a hazard still reach a cell by a path not escaped,
/// it is drawn as `?` rather than sent to the terminal.
fn scrub(frame: &mut Frame) {
    for cell in frame.buffer_mut().content.iter_mut() {
        if cell.symbol().chars().any(crate::core::text::is_hazard) {
            cell.set_symbol("?");
        }
    }
}

/// A token figure of a level: `…` while the level is being counted, `-` when it was counted
/// and there is nothing (an L1 of a skill that is not listed, an unreadable file).
pub fn cost(n: Option<u32>, counted: bool) -> String {
    cost_in(n, counted, usize::MAX)
}

/// [`cost`] for a column `width` characters wide: a figure that does not fit whole is shown in
/// `k`/`M` units (`400k`), never cut (the detail pane has the exact figure).
pub fn cost_in(n: Option<u32>, counted: bool, width: usize) -> String {
    match (n, counted) {
        (Some(n), _) => crate::core::text::compact(u64::from(n), width),
        (None, true) => "-".to_string(),
        (None, false) => "…".to_string(),
    }
}
