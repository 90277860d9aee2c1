//! Keys and the mouse: keys go through the keymap to actions; printable keys not bound in a
//! text box are text; clicks on the tabs switch screens, the rest goes to the screen.

use super::{App, Overlay};
use crate::tui::screens::Outcome;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Position;

/// Appends a line to the key log; a log that cannot be written is no reason to stop the app.
fn log_key(path: &std::path::Path, line: &str) {
    use std::io::Write;
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
}

impl App {
    pub(super) fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let contexts = self.contexts();
        let action = self.keys.map.lookup(&contexts, &key);
        let text = match key.code {
            KeyCode::Char(c) if (key.modifiers - KeyModifiers::SHIFT).is_empty() => Some(c),
            _ => None,
        };
        if let Some(path) = &self.keys.log {
            let what = match (action, text) {
                (Some(a), _) => a.name(),
                (None, Some(_)) => "text",
                (None, None) => "-",
            };
            let first = contexts.first().map_or("?", |c| c.name());
            log_key(path, &format!("{first} {what}\n"));
        }
        match (action, text) {
            (Some(action), _) => self.apply(action),
            (None, Some(c)) => self.type_char(c),
            (None, None) => {}
        }
    }

    pub(super) fn type_char(&mut self, c: char) {
        if let Some(o) = &mut self.overlay
            && o.get_mut().type_char(c)
        {
            return;
        }
        let screen = self.screen;
        let (screens, cx) = self.parts();
        if let Outcome::Then(cmd) = screens.get_mut(screen).type_char(c, &cx) {
            self.run(cmd);
        }
    }

    pub(super) fn on_mouse(&mut self, m: MouseEvent) {
        // The help overlay covers everything: the wheel scrolls it, clicks do nothing.
        if let Some(Overlay::Help(_)) = self.overlay {
            let delta = match m.kind {
                MouseEventKind::ScrollDown => 3,
                MouseEventKind::ScrollUp => -3,
                _ => return,
            };
            let (max, _) = crate::tui::screens::help::max_scroll(&self.view(), self.size);
            if let Some(Overlay::Help(h)) = &mut self.overlay {
                h.scroll_by(delta, max);
            }
            return;
        }
        let areas = self.areas(self.size);
        let at = Position::new(m.column, m.row);
        if m.kind == MouseEventKind::Down(MouseButton::Left)
            && let Some(s) = crate::tui::layout::tab_at(areas.header, at)
        {
            self.show(s);
            return;
        }
        let screen = self.screen;
        let (screens, cx) = self.parts();
        if let Outcome::Then(cmd) = screens.get_mut(screen).mouse(m.kind, at, &cx) {
            self.run(cmd);
        }
    }
}
