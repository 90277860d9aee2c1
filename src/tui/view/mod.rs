//! Drawing: pure functions from `&App` to a frame, one file per screen or pane.

pub mod budget;
pub mod checks;
pub mod confirm;
pub mod detail;
pub mod footer;
pub mod header;
pub mod help;
pub mod prompt;
pub mod skills;
pub mod test;

pub use crate::text::{fit as truncate, thousands};
use crate::tui::action::Screen;
use crate::tui::app::{App, Mode};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

/// Terminals at least this wide show the list and the detail side by side.
pub const WIDE: u16 = 120;

/// Where everything goes for a terminal size; drawing and mouse hits use the same answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Areas {
    pub header: Rect,
    pub body: Rect,
    pub footer: Rect,
    /// The block around the list (Skills screen).
    pub list_block: Option<Rect>,
    /// The list's rows, below its column header.
    pub list: Option<Rect>,
    pub detail: Option<Rect>,
}

impl Areas {
    pub fn list_rows(&self) -> usize {
        self.list.map_or(0, |r| usize::from(r.height))
    }
}

pub fn layout(area: Rect, app: &App) -> Areas {
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let mut a = Areas {
        header,
        body,
        footer,
        ..Areas::default()
    };
    if app.screen != Screen::Skills {
        return a;
    }
    let (list_block, detail) = if area.width >= WIDE {
        let [l, d] = Layout::horizontal([Constraint::Percentage(58), Constraint::Percentage(42)])
            .areas(body);
        (Some(l), Some(d))
    } else if app.mode == Mode::Detail {
        (None, Some(body))
    } else {
        (Some(body), None)
    };
    a.list_block = list_block;
    a.detail = detail;
    a.list = list_block.map(|b| {
        let inner = Block::bordered().inner(b);
        // The first inner row holds the column titles.
        Rect {
            y: inner.y.saturating_add(1),
            height: inner.height.saturating_sub(1),
            ..inner
        }
    });
    a
}

pub fn draw(frame: &mut Frame, app: &App) {
    let areas = layout(frame.area(), app);
    header::draw(frame, areas.header, app);
    match app.screen {
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
        if cell.symbol().chars().any(crate::text::is_hazard) {
            cell.set_symbol("?");
        }
    }
}

/// A token figure with thousands separators, or `…` while it is being counted.
pub fn tokens(n: Option<u64>) -> String {
    n.map_or_else(|| "…".to_string(), thousands)
}

/// A token figure of a level: `…` while the level is being counted, `-` when it was counted
/// and there is nothing (an L1 of a skill that is not listed, an unreadable file).
pub fn cost(n: Option<u64>, counted: bool) -> String {
    cost_in(n, counted, usize::MAX)
}

/// [`cost`] for a column `width` characters wide: a figure that does not fit whole is shown in
/// `k`/`M` units (`400k`), never cut (the detail pane has the exact figure).
pub fn cost_in(n: Option<u64>, counted: bool, width: usize) -> String {
    match (n, counted) {
        (Some(n), _) => crate::text::compact(n, width),
        (None, true) => "-".to_string(),
        (None, false) => "…".to_string(),
    }
}

/// A pane that says what it is waiting for, for the parts whose core module is not yet there.
pub fn pending(frame: &mut Frame, area: Rect, app: &App, title: &str, what: &[&str]) {
    let mut lines = vec![Line::from("")];
    lines.extend(
        what.iter()
            .map(|w| Line::from(Span::styled(format!("  {w}"), app.theme.dim()))),
    );
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(Span::styled(format!(" {title} "), app.theme.title()))),
        area,
    );
}
