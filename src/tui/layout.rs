//! Where everything goes on the screen for a terminal size: drawing and mouse hits use the same
//! answer, so a click lands on what was drawn there.

use crate::tui::action::Screen;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::widgets::Block;

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

/// The areas for a terminal of size `area` showing `screen`; `detail_open`: the Skills screen's
/// detail pane replaces the list on a narrow terminal.
pub fn layout(area: Rect, screen: Screen, detail_open: bool) -> Areas {
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
    if screen != Screen::Skills {
        return a;
    }
    let (list_block, detail) = if area.width >= WIDE {
        let [l, d] = Layout::horizontal([Constraint::Percentage(58), Constraint::Percentage(42)])
            .areas(body);
        (Some(l), Some(d))
    } else if detail_open {
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

/// The app's name, first on the tab line.
pub const BRAND: &str = " skillscope ";

/// Below this many columns the tab line leaves out the app's name and the tabs' padding, so the
/// agent in view and its notes (installed version, model) keep their room at 80 columns.
pub const NARROW_TABS: u16 = 100;

/// The app's name as the tab line of a terminal `width` columns wide shows it.
pub fn brand(width: u16) -> &'static str {
    if width < NARROW_TABS { "" } else { BRAND }
}

/// A tab's text on the tab line of a terminal `width` columns wide.
pub fn tab_label(s: Screen, width: u16) -> String {
    if width < NARROW_TABS {
        format!("{} {}", s.index() + 1, s.title())
    } else {
        format!(" {} {} ", s.index() + 1, s.title())
    }
}

/// The column span of every tab, so clicks land where the tabs are drawn.
fn tab_spans(area: Rect) -> Vec<(Screen, u16, u16)> {
    let mut x = area.x + brand(area.width).len() as u16;
    Screen::ALL
        .iter()
        .map(|s| {
            let w = tab_label(*s, area.width).chars().count() as u16;
            let span = (*s, x, x + w);
            x += w + 1;
            span
        })
        .collect()
}

/// The tab drawn at a point of the tab line, for clicks.
pub fn tab_at(area: Rect, at: Position) -> Option<Screen> {
    if !area.contains(at) {
        return None;
    }
    tab_spans(area)
        .into_iter()
        .find(|(_, a, b)| at.x >= *a && at.x < *b)
        .map(|(s, _, _)| s)
}
