//! The bottom line: a message while it lasts, and the keys that work here (from the keymap).
//! A message never takes the whole line: the first keys stay in sight beside it. Each action
//! shows its first key; the help overlay lists every key.

use crate::tui::keymap;
use crate::tui::state::view::View;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The share of the line kept for the keys while a message is shown, in percent.
const KEYS_SHARE: usize = 45;

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
    let keys_w: usize = items.iter().map(item_w).sum();
    let mut spans: Vec<Span> = Vec::new();
    if let Some(status) = &view.footer.status {
        let style = if status.error { t.error() } else { t.on() };
        let room = total
            .saturating_sub(keys_w.min(total * KEYS_SHARE / 100))
            .saturating_sub(3);
        let text = crate::core::text::fit(&status.text, room);
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
