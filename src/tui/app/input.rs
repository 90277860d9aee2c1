//! Keys and the mouse: keys go through the keymap to actions; printable keys not bound in a
//! text box are text.

use super::{App, Mode};
use crate::tui::action::Screen;
use crate::tui::view;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Position;

impl App {
    pub(super) fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let contexts = self.contexts();
        match self.keymap.lookup(&contexts, &key) {
            Some(action) => self.apply(action),
            None => {
                if let KeyCode::Char(c) = key.code
                    && (key.modifiers - KeyModifiers::SHIFT).is_empty()
                {
                    self.type_char(c);
                }
            }
        }
    }

    pub(super) fn type_char(&mut self, c: char) {
        match (self.screen, self.mode) {
            (Screen::Skills, Mode::Filter) => {
                self.list.filter.push(c);
                self.refilter();
            }
            (Screen::Test, _) => {
                self.test.message.push(c);
                self.test.scroll = 0;
                self.run_matchers();
            }
            _ => {}
        }
    }

    pub(super) fn on_mouse(&mut self, m: MouseEvent) {
        let areas = self.areas(self.size);
        let at = Position::new(m.column, m.row);
        // The file viewer covers the list: the wheel scrolls it, clicks go to the tabs only.
        if self.viewer.is_some() && self.screen == Screen::Skills {
            match m.kind {
                MouseEventKind::ScrollDown => self.scroll(3),
                MouseEventKind::ScrollUp => self.scroll(-3),
                MouseEventKind::Down(MouseButton::Left) => {
                    if let Some(s) = view::header::tab_at(areas.header, at) {
                        self.show(s);
                    }
                }
                _ => {}
            }
            return;
        }
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if let Some(s) = view::header::tab_at(areas.header, at) {
                    self.show(s);
                    return;
                }
                if self.screen == Screen::Skills
                    && let Some(list) = areas.list
                    && list.contains(at)
                {
                    let row = self.list.offset + usize::from(at.y - list.y);
                    if row < self.list.rows.len() {
                        self.list.select(row);
                        if self.mode == Mode::Detail && areas.detail.is_some() {
                            self.mode = Mode::List;
                        }
                        self.after_move();
                    }
                } else if let Some(d) = areas.detail
                    && d.contains(at)
                    && self.screen == Screen::Skills
                {
                    self.mode = Mode::Detail;
                }
            }
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let delta: isize = if m.kind == MouseEventKind::ScrollDown {
                    3
                } else {
                    -3
                };
                let over_detail = areas.detail.is_some_and(|d| d.contains(at));
                if self.screen == Screen::Skills && !over_detail && self.mode != Mode::Detail {
                    self.list.scroll_by(delta, areas.list_rows());
                    self.after_move();
                } else if self.screen == Screen::Skills && over_detail {
                    self.detail_scroll = self.detail_scroll.saturating_add_signed(delta as i16);
                } else {
                    self.scroll(delta);
                }
            }
            _ => {}
        }
    }
}
