//! The bottom line: a message while it lasts, and the keys that work here (from the keymap).
//! A message comes first and is cut only when it is longer than the line less the first key,
//! which stays in sight beside it; the other keys take what room is left. Each action shows its
//! first key; the help overlay lists every key (and the messages, latest first).

use crate::tui::keymap;
use crate::tui::state::view::View;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// `contexts`: the keymap contexts in force, most specific first.
pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, contexts: &[keymap::Context]) {
    let t = &view.theme;
    let typing = contexts.first().is_some_and(|c| c.takes_text());
    let total = usize::from(area.width);
    let items: Vec<(String, &str)> = view
        .keys
        .map
        .footer(contexts)
        .into_iter()
        // The first key of each: the help lists them all, the line has room for more actions.
        .map(|b| (keymap::first_key_label(b, typing), b.short))
        .collect();
    let item_w =
        |(keys, short): &(String, &str)| 1 + keys.chars().count() + 1 + short.chars().count();
    let mut spans: Vec<Span> = Vec::new();
    if let Some(status) = &view.footer.status {
        let style = if status.error { t.error() } else { t.on() };
        // The first key keeps its place; the message may take the rest.
        let first_w = items.first().map_or(0, item_w);
        let room = total.saturating_sub(first_w).saturating_sub(3);
        let text = crate::core::words::text::fit(&status.text, room);
        spans.push(Span::styled(format!(" {text} "), style));
        spans.push(Span::raw("│"));
    }
    let mut width: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    for item in &items {
        let w = item_w(item);
        if width + w > total {
            break;
        }
        width += w;
        spans.push(Span::raw(" "));
        spans.push(Span::styled(item.0.clone(), t.key()));
        spans.push(Span::raw(format!(" {}", item.1)));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
