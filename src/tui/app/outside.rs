//! The editor and the clipboard: what `e` opens and what `y` copies, by screen, and what the
//! app does when the editor is done.

use super::App;
use crate::core::words::text::{line, thousands};
use crate::tui::action::{Action, Screen};
use crate::tui::external::{EditRequest, MAX_COPY};
use crate::tui::state::view::View;
use std::path::PathBuf;

/// The file `e` opens for skill `skill`: the file of diagnostic `cursor` at its line, else of
/// the first diagnostic with a line (the core gives each its file), else its `SKILL.md`.
fn skill_edit_target(view: &View<'_>, skill: usize, cursor: Option<usize>) -> Option<EditRequest> {
    let s = view.lib.skills.get(skill)?;
    let diags = view.diagnostics(skill);
    let chosen = match cursor {
        Some(k) => diags.get(k),
        None => diags.iter().find(|d| d.line.is_some()),
    };
    Some(match chosen.and_then(|d| Some((d.path.clone()?, d.line))) {
        Some((file, line)) => EditRequest { file, line },
        None => EditRequest {
            file: s.skill_md.clone(),
            line: None,
        },
    })
}

impl App {
    /// The file `e` opens where the app is now, if any: the open resource at its first line
    /// shown; else the selected skill's file at the selected diagnostic's line (the first one
    /// with a line when none is selected).
    pub fn edit_target(&self) -> Option<EditRequest> {
        match self.screen {
            Screen::Skills => {
                if let Some(v) = &self.screens.skills.viewer {
                    let width = self.areas(self.size).body.width.saturating_sub(2);
                    return Some(EditRequest {
                        file: v.path.clone(),
                        line: Some(v.first_line(usize::from(width))),
                    });
                }
                let i = self.screens.skills.list.selected_skill()?;
                skill_edit_target(&self.view(), i, self.screens.skills.diag_cursor)
            }
            Screen::Checks => self
                .screens
                .checks
                .selected_skill()
                .and_then(|i| skill_edit_target(&self.view(), i, None)),
            _ => None,
        }
    }

    /// The editor `editor` is done with `req`: say how it went and read the library again, so
    /// the edit shows (the watcher may be off, or slower).
    pub fn edited(
        &mut self,
        editor: &str,
        req: &EditRequest,
        result: std::io::Result<std::process::ExitStatus>,
    ) {
        let at = req.line.map_or_else(String::new, |l| format!(":{l}"));
        let file = crate::core::words::text::path(&req.file);
        match result {
            Ok(st) if st.success() => {
                self.set_status(format!("edited {file}{at}; reading it again"), false);
            }
            Ok(st) => self.set_status(
                format!("{} ended with {st} on {file}{at}", line(editor)),
                true,
            ),
            Err(e) => self.set_status(
                format!(
                    "cannot run the editor `{}` ($VISUAL, $EDITOR): {e}",
                    line(editor)
                ),
                true,
            ),
        }
        self.request_rescan();
    }

    /// `y` and `Y`: puts the name, the path or the listing on the clipboard, with a word in the
    /// footer saying what was copied.
    pub(super) fn copy(&mut self, action: Action) {
        let Some((what, text)) = self.copy_target(action) else {
            self.set_status("nothing to copy here", true);
            return;
        };
        if text.len() > MAX_COPY {
            self.set_status(
                format!(
                    "{what} is {} bytes: too long for the terminal's clipboard (at most {})",
                    thousands(text.len() as u64),
                    thousands(MAX_COPY as u64)
                ),
                true,
            );
            return;
        }
        self.set_status(format!("copied {what}"), false);
        self.requests.clipboard = Some(text);
    }

    /// What a copy action takes where the app is now: a description for the footer and the
    /// text.
    fn copy_target(&self, action: Action) -> Option<(String, String)> {
        let skill = match self.screen {
            Screen::Skills => self.screens.skills.list.selected_skill(),
            Screen::Checks => self.screens.checks.selected_skill(),
            _ => None,
        }
        .and_then(|i| self.lib.skills.get(i));
        match action {
            Action::CopyName => {
                let s = skill?;
                Some((format!("the name {}", line(&s.name)), s.name.clone()))
            }
            Action::CopyPath => {
                let path: PathBuf = match (&self.screens.skills.viewer, self.screen) {
                    (Some(v), Screen::Skills) => v.path.clone(),
                    _ => skill?.skill_md.clone(),
                };
                let shown = crate::core::words::text::path(&path);
                Some((
                    format!("the path {shown}"),
                    path.to_string_lossy().into_owned(),
                ))
            }
            Action::CopyListing => {
                if self.screen != Screen::Prompt {
                    return None;
                }
                let p = self.preview.shown.as_ref()?;
                let text = p.listing.text.clone();
                Some((
                    format!(
                        "the listing: {} lines, {} chars",
                        thousands(text.lines().count() as u64),
                        thousands(text.chars().count() as u64)
                    ),
                    text,
                ))
            }
            _ => None,
        }
    }

    /// Moves the diagnostic selection of the detail pane and scrolls the pane to it.
    pub(super) fn move_diagnostic_cursor(&mut self, delta: isize) {
        let Some(i) = self.screens.skills.list.selected_skill() else {
            return;
        };
        let n = self.view().diagnostics(i).len();
        if n == 0 {
            self.set_status("this skill has no diagnostics", false);
            return;
        }
        let next = match self.screens.skills.diag_cursor {
            None if delta < 0 => n - 1,
            None => 0,
            Some(c) => c.saturating_add_signed(delta).min(n - 1),
        };
        self.screens.skills.diag_cursor = Some(next);
        self.detail(super::actions::Detail::Diagnostic(next));
    }
}
