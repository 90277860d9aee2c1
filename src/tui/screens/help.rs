//! The `?` overlay: every binding of every context, straight from the keymap.

use super::screen::{Cmd, Outcome, Overlay};
use crate::tui::action::Action;
use crate::tui::keymap::{self, HELP_ORDER};
use crate::tui::state::view::View;
use crate::tui::view::parts::wrap;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// The overlay is open; its state is how far it is scrolled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Help {
    pub scroll: u16,
}

impl Help {
    /// `max_scroll`: how far the text scrolls before its end is at the bottom of the box;
    /// `page`: how many lines the box shows.
    pub fn handle(&mut self, action: Action, max_scroll: u16, page: u16) -> Outcome {
        let page = i32::from(page.max(1));
        match action {
            Action::Close | Action::Help => return Outcome::Then(Cmd::CloseOverlay(None)),
            Action::Down => self.scroll_by(1, max_scroll),
            Action::Up => self.scroll_by(-1, max_scroll),
            Action::PageDown => self.scroll_by(page, max_scroll),
            Action::PageUp => self.scroll_by(-page, max_scroll),
            Action::Top => self.scroll = 0,
            Action::Bottom => self.scroll = max_scroll,
            _ => {}
        }
        // Every other key is swallowed while the overlay is open.
        Outcome::Done
    }

    /// Scrolls by `delta` lines (the wheel, the keys), within `0..=max_scroll`.
    pub fn scroll_by(&mut self, delta: i32, max_scroll: u16) {
        let to = (i32::from(self.scroll) + delta).clamp(0, i32::from(max_scroll));
        self.scroll = u16::try_from(to).unwrap_or(max_scroll);
    }
}

/// The keys column of the overlay.
const KEYS_W: usize = 20;

/// Every line of the overlay for a box `width` columns wide inside: descriptions wrap under
/// themselves, never cut.
pub fn lines(view: &View<'_>, width: usize) -> Vec<Line<'static>> {
    let t = &view.theme;
    let width = width.max(KEYS_W + 12);
    let mut out = Vec::new();
    for ctx in HELP_ORDER {
        let bindings: Vec<_> = view
            .keys
            .map
            .bindings()
            .iter()
            .filter(|b| b.context == *ctx)
            .collect();
        if bindings.is_empty() {
            continue;
        }
        if out.last().is_some_and(|l: &Line| l.width() > 0) {
            out.push(Line::from(""));
        }
        out.push(Line::from(Span::styled(ctx.title().to_string(), t.title())));
        for b in bindings {
            let keys = keymap::keys_label(b, false);
            let lead = format!("  {keys:<w$}", w = KEYS_W - 2);
            let lead_w = lead.chars().count().max(KEYS_W);
            let text = wrap(b.help, width.saturating_sub(lead_w));
            for (i, l) in text.into_iter().enumerate() {
                let first = if i == 0 {
                    Span::styled(format!("{lead:<lead_w$}"), t.key())
                } else {
                    Span::raw(" ".repeat(lead_w))
                };
                out.push(Line::from(vec![first, Span::raw(l)]));
            }
        }
    }
    out.push(Line::from(""));
    let agents = format!(
        "Costs: … still counting, - nothing to count. agt: {} list it; - one of them reads the \
         folder but its settings keep the skill out.",
        crate::core::agents::legend(crate::core::agents::REGISTRY)
    );
    for legend in [
        "Mouse: click a row to select it, a tab to switch; the wheel scrolls (this help too).",
        "List: ● on, ○ off; a dimmed row `name < where` is a shadowed copy: the one in `where` loads.",
        &agents,
        "e opens $VISUAL, else $EDITOR, else vi: at the line with +LINE (vi, vim, nvim, nano, \
         emacs, micro, kak), FILE:LINE (hx, subl, zed) or -g FILE:LINE (code); y copies by OSC 52.",
    ] {
        for l in wrap(legend, width) {
            out.push(Line::from(Span::styled(l, t.dim())));
        }
    }
    if !view.footer.messages.is_empty() {
        out.push(Line::from(""));
        out.push(Line::from(Span::styled(
            "Messages, latest first",
            t.title(),
        )));
        for m in &view.footer.messages {
            let style = if m.error { t.error() } else { t.dim() };
            for (i, l) in wrap(&m.text, width.saturating_sub(4))
                .into_iter()
                .enumerate()
            {
                let lead = if i == 0 { "  " } else { "    " };
                out.push(Line::from(Span::styled(format!("{lead}{l}"), style)));
            }
        }
    }
    if view.config.path.is_some() || !view.config.notes.is_empty() || !view.config.info.is_empty() {
        let shown = view.config.path.as_ref().map_or_else(
            || "(given to the view)".to_string(),
            |p| p.display().to_string(),
        );
        out.push(Line::from(""));
        out.push(Line::from(Span::styled(
            format!("Config file: {shown}"),
            t.dim(),
        )));
        let notes = view.config.notes.iter().map(|n| (n, t.error()));
        let info = view.config.info.iter().map(|n| (n, t.dim()));
        for (note, style) in notes.chain(info) {
            for (i, l) in wrap(note, width.saturating_sub(4)).into_iter().enumerate() {
                let lead = if i == 0 { "  " } else { "    " };
                out.push(Line::from(Span::styled(format!("{lead}{l}"), style)));
            }
        }
    }
    out
}

/// The overlay's own keys, from the keymap.
fn bottom_keys(view: &View<'_>) -> String {
    let items: Vec<String> = view
        .keys
        .map
        .bindings()
        .iter()
        .filter(|b| b.context == keymap::Context::Help && b.footer)
        .map(|b| format!("{} {}", keymap::keys_label(b, false), b.short))
        .collect();
    format!(" {} ", items.join(" · "))
}

/// The widest the text wants to be: every description on one line beside its keys.
fn natural_width(view: &View<'_>) -> usize {
    view.keys
        .map
        .bindings()
        .iter()
        .map(|b| {
            let keys = keymap::keys_label(b, false).chars().count() + 2;
            keys.max(KEYS_W) + b.help.chars().count()
        })
        .max()
        .unwrap_or(80)
}

/// Where the overlay is drawn on a terminal of `area`: as wide as its text wants, within the
/// terminal less a margin; as tall as the terminal less a line above and below.
fn popup(view: &View<'_>, area: Rect) -> Rect {
    let want = u16::try_from(natural_width(view) + 2).unwrap_or(u16::MAX);
    let w = area.width.saturating_sub(4).min(want);
    let h = area.height.saturating_sub(2);
    crate::tui::view::parts::centered(area, w, h)
}

/// The text inside the overlay's border on a terminal of `area`: its width and its height.
fn inner(view: &View<'_>, area: Rect) -> (usize, u16) {
    let p = popup(view, area);
    (
        usize::from(p.width.saturating_sub(2)),
        p.height.saturating_sub(2),
    )
}

/// How far the text scrolls on a terminal of `area`, until its last line is at the bottom; and
/// how many lines the box shows (a page).
pub fn max_scroll(view: &View<'_>, area: Rect) -> (u16, u16) {
    let (width, rows) = inner(view, area);
    let max = u16::try_from(lines(view, width).len())
        .unwrap_or(u16::MAX)
        .saturating_sub(rows);
    (max, rows)
}

impl Overlay for Help {
    fn contexts(&self) -> Vec<keymap::Context> {
        vec![keymap::Context::Help]
    }

    fn handle(&mut self, action: Action, view: &View<'_>, area: Rect) -> Outcome {
        let (max, page) = max_scroll(view, area);
        Help::handle(self, action, max, page)
    }

    fn draw(&self, view: &View<'_>, frame: &mut Frame, area: Rect) {
        draw(frame, area, view, *self);
    }
}

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, help: Help) {
    let popup = popup(view, area);
    let (width, _) = inner(view, area);
    let body = lines(view, width);
    // The terminal may have shrunk since the last key.
    let scroll = help.scroll.min(max_scroll(view, area).0);
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(body).scroll((scroll, 0)).block(
            Block::bordered()
                .title(Span::styled(" Keys ", view.theme.title()))
                .title_bottom(bottom_keys(view)),
        ),
        popup,
    );
}
