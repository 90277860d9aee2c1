//! The bottom line: the last status message, else the keys that work here (from the keymap).

use crate::tui::app::App;
use crate::tui::keymap;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let contexts = app.contexts();
    let typing = contexts.first().is_some_and(|c| c.takes_text());
    let mut spans: Vec<Span> = Vec::new();
    if let Some(status) = &app.status {
        let style = if status.error { t.error() } else { t.on() };
        spans.push(Span::styled(
            format!(" {} ", crate::core::text::line(&status.text)),
            style,
        ));
        spans.push(Span::raw("│"));
    }
    let mut width: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    for b in app.keymap.footer(&contexts) {
        let keys = keymap::keys_label(b, typing);
        let item = format!(" {keys} {}", b.short);
        let w = item.chars().count();
        if width + w > usize::from(area.width) {
            break;
        }
        width += w;
        spans.push(Span::raw(" "));
        spans.push(Span::styled(keys, t.key()));
        spans.push(Span::raw(format!(" {}", b.short)));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
