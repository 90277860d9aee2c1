//! The confirmation before a skill goes to skillscope's trash: what goes, from where, and that
//! `u` brings it back.

use super::screen::{Cmd, Outcome, Overlay};
use crate::core::Library;
use crate::core::manage;
use crate::core::words::text::line;
use crate::tui::action::Action;
use crate::tui::keymap::{self, Context};
use crate::tui::state::parts::{Manage, home_and_project};
use crate::tui::state::view::View;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use std::path::Path;

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

impl Removal {
    /// The question for removing skill `i` (the selected one) of `lib`, with the settings
    /// entries under `home` and the project that name it; why it cannot be removed from here.
    pub fn ask(lib: &Library, i: Option<usize>, home: Option<&Path>) -> Result<Removal, Vec<Cmd>> {
        let Some((i, s)) = i.and_then(|i| Some((i, lib.skills.get(i)?))) else {
            return Err(Vec::new());
        };
        if *s.root == *s.dir {
            return Err(vec![Cmd::Status(
                "a folder given on the command line is not removed from here".to_string(),
                true,
            )]);
        }
        let refs = match home_and_project(home) {
            Some((home, project)) => manage::settings::references(
                &s.name,
                &s.dir,
                &home,
                project.as_deref(),
            )
            .iter()
            .map(|r| {
                format!(
                    "named in {}: {} (left as it is; skillscope remove --clean-settings cleans it)",
                    crate::core::agents::show_path(&r.file, &home),
                    r.entries.join(", ")
                )
            })
            .collect(),
            None => Vec::new(),
        };
        Ok(Removal { skill: i, refs })
    }

    /// The user said yes: the skill goes to the trash, with the way back kept in `manage`.
    pub fn remove(&self, lib: &Library, manage: &mut Manage) -> Vec<Cmd> {
        let Some(s) = lib.skills.get(self.skill) else {
            return Vec::new();
        };
        let name = s.name.clone();
        let places: Vec<std::path::PathBuf> = s.linked.iter().map(|p| p.dir.clone()).collect();
        match manage::remove_skill(&manage.trash, &s.dir, &name, &places) {
            Ok(removed) => {
                manage.last_removed = Some(removed.entry);
                let said = match removed.problems.first() {
                    Some(p) => format!("{name} is in the trash ({p}); u puts it back"),
                    None => format!("{name} is in the trash; u puts it back"),
                };
                vec![Cmd::Status(said, !removed.problems.is_empty()), Cmd::Rescan]
            }
            Err(e) => vec![Cmd::Status(e.to_string(), true)],
        }
    }
}

/// Puts the skill removed last back from the trash.
pub fn undo(manage: &mut Manage) -> Vec<Cmd> {
    let Some(e) = manage.last_removed.take() else {
        return vec![Cmd::Status(
            "nothing removed to put back".to_string(),
            false,
        )];
    };
    match manage::restore_skill(&manage.trash, &e) {
        Ok(back) => {
            let said = match back.problems.first() {
                Some(p) => Cmd::Status(format!("{} is back ({p})", e.name), true),
                None => Cmd::Status(format!("{} is back", e.name), false),
            };
            vec![said, Cmd::Rescan]
        }
        Err(err) => vec![Cmd::Status(err.to_string(), true)],
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
            &crate::core::words::text::path(&s.dir),
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
