//! A resource file opened from the detail pane: its text with line numbers, scrollable, its
//! token count in the title.

use crate::tui::app::App;
use crate::tui::app::detail::ResourceView;
use crate::tui::view::{thousands, truncate};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, v: &ResourceView) {
    let t = &app.theme;
    let tokens = v.tokens.map_or_else(
        || "tokens not counted yet".to_string(),
        |n| format!("{} tok", thousands(u64::from(n))),
    );
    let block = Block::bordered()
        .border_style(t.title())
        .title(Span::styled(format!(" {} ", v.title), t.title()))
        .title_bottom(Line::from(format!(
            " {tokens} · {} lines · Esc closes ",
            thousands(v.lines as u64)
        )));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let text = match &v.text {
        Ok(text) => text,
        Err(e) => {
            frame.render_widget(
                Paragraph::new(Line::from(Span::styled(format!(" {e}"), t.error()))),
                inner,
            );
            return;
        }
    };
    let height = usize::from(inner.height);
    let width = usize::from(inner.width);
    let num_w = v.lines.max(1).to_string().len();
    let first = usize::from(v.scroll).min(v.lines.saturating_sub(height.min(v.lines)));
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .skip(first)
        .take(height)
        .map(|(i, l)| {
            Line::from(vec![
                Span::styled(format!("{:>num_w$} │ ", i + 1), t.line_number()),
                Span::raw(truncate(
                    &l.replace('\t', "    "),
                    width.saturating_sub(num_w + 3),
                )),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}
