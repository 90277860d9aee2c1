//! The confirmation before a skill goes to skillscope's trash: what goes, from where, and that
//! `u` brings it back.

use super::screen::{Cmd, Outcome, Overlay};
use crate::core::text::line;
use crate::tui::action::Action;
use crate::tui::keymap::{self, Context};
use crate::tui::state::view::View;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// The skill (by index) whose removal waits for the user's yes, and the agents' settings
/// entries that name it.
#[derive(Debug)]
pub struct Removal {
    pub skill: usize,
    pub refs: Vec<String>,
}

impl Removal {
    /// Yes removes it; any other key but quit closes the question with nothing removed.
    pub fn handle(&self, action: Action) -> Outcome {
        match action {
            Action::Confirm => Outcome::Then(Cmd::RemoveConfirmed),
            Action::Quit => Outcome::Then(Cmd::Quit),
            _ => Outcome::Then(Cmd::CloseOverlay(Some("nothing was removed"))),
        }
    }
}

impl Overlay for Removal {
    fn contexts(&self) -> Vec<Context> {
        vec![Context::Confirm]
    }

    fn handle(&mut self, action: Action, _view: &View<'_>, _area: Rect) -> Outcome {
        Removal::handle(self, action)
    }

    fn draw(&self, view: &View<'_>, frame: &mut Frame, area: Rect) {
        draw(frame, area, view, self);
    }
}

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, removal: &Removal) {
    let Some(s) = view.lib.skills.get(removal.skill) else {
        return;
    };
    let w = area.width.saturating_sub(4).min(90);
    let height = 4 + u16::try_from(removal.refs.len()).unwrap_or(u16::MAX);
    let popup = crate::tui::view::parts::centered(area, w, height);
    let keys: Vec<String> = view
        .keys
        .map
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
            view.theme.dim(),
        )),
    ];
    for r in &removal.refs {
        body.push(Line::from(Span::styled(
            crate::tui::view::truncate(&line(r), width),
            view.theme.warning(),
        )));
    }
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(body).block(
            Block::bordered()
                .title(Span::styled(
                    format!(" Remove {}? ", line(&s.name)),
                    view.theme.title(),
                ))
                .title_bottom(format!(" {} ", keys.join(" · "))),
        ),
        popup,
    );
}
