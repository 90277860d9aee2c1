//! A resource file opened from the detail pane: its text with line numbers, scrollable, its
//! token count in the title.

use super::detail::ResourceView;
use crate::tui::state::view::View;
use crate::tui::view::thousands;
use crate::tui::wrapped as wrap;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, v: &ResourceView) {
    let t = &view.theme;
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
    let wrapped = v.wrap.get(text, v.text_width(width));
    let first = usize::from(v.scroll).min(wrapped.rows().saturating_sub(height));
    let lines: Vec<Line> = wrap::rows_of(text, &wrapped, first, height)
        .into_iter()
        .map(|(line, row)| {
            let number = match line {
                Some(i) => format!("{:>num_w$} │ ", i + 1),
                None => format!("{:>num_w$} │ ", ""),
            };
            Line::from(vec![Span::styled(number, t.line_number()), Span::raw(row)])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}
