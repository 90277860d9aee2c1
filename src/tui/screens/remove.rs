//! The confirmation before a skill goes to skillscope's trash: what goes, from where, and that
//! `u` brings it back.

use crate::core::text::line;
use crate::tui::app::App;
use crate::tui::keymap::{self, Context};
use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, skill: usize) {
    let Some(s) = app.lib.skills.get(skill) else {
        return;
    };
    let w = area.width.saturating_sub(4).min(90);
    let height = 4 + u16::try_from(app.removing_refs.len()).unwrap_or(u16::MAX);
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(w)])
        .flex(Flex::Center)
        .areas(row);
    let keys: Vec<String> = app
        .keymap
        .footer(&[Context::Confirm])
        .iter()
        .filter(|b| b.action != crate::tui::action::Action::CycleScope)
        .map(|b| format!("{} {}", keymap::keys_label(b, false), b.short))
        .collect();
    let width = usize::from(w.saturating_sub(2));
    let mut body = vec![
        Line::from(crate::tui::view::truncate(
            &crate::core::text::path(&s.dir),
            width,
        )),
        Line::from(Span::styled(
            "It goes to skillscope's trash, whole; u (or skillscope restore) puts it back.",
            app.theme.dim(),
        )),
    ];
    for r in &app.removing_refs {
        body.push(Line::from(Span::styled(
            crate::tui::view::truncate(&line(r), width),
            app.theme.warning(),
        )));
    }
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(body).block(
            Block::bordered()
                .title(Span::styled(
                    format!(" Remove {}? ", line(&s.name)),
                    app.theme.title(),
                ))
                .title_bottom(format!(" {} ", keys.join(" · "))),
        ),
        popup,
    );
}
