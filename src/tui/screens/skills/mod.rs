//! The Skills screen: the list of skills (filter, sort, selection), the detail pane of the
//! selected one and the resource files opened from it.

pub(crate) mod detail;
pub(crate) mod list;
pub(crate) mod pane;
pub(crate) mod resource;
mod screen;
pub(crate) mod table;

use crate::core::Library;
use crate::core::agents::SwitchScope;
use crate::core::skill::Skill;
use crate::tui::action::{Action, Screen as Id};
use crate::tui::keymap::Context;
use crate::tui::layout::Areas;
use crate::tui::screens::screen::{Cmd, Ctx, Outcome};
use detail::{Detail, ResourceView};
use list::SkillList;
use ratatui::crossterm::event::{MouseButton, MouseEventKind};
use ratatui::layout::{Position, Rect};

/// Where the keys go on the Skills screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    List,
    Filter,
    Detail,
}

#[derive(Debug, Default)]
pub struct Skills {
    pub list: SkillList,
    pub mode: Mode,
    /// The body and resources of the selected skill, read when the detail pane shows it.
    pub detail: Option<Detail>,
    pub detail_scroll: u16,
    /// The resource selected in the detail pane (an index into its resources).
    pub resource_cursor: Option<usize>,
    /// The diagnostic selected in the detail pane (an index into the skill's diagnostics): the
    /// one whose line the editor opens at.
    pub diag_cursor: Option<usize>,
    /// A resource opened from the detail pane; it covers the list and the detail.
    pub viewer: Option<ResourceView>,
}

impl Skills {
    /// The key context: the open file's, else the list's, the filter box's or the detail's.
    fn keys(&self) -> Context {
        if self.viewer.is_some() {
            return Context::Resource;
        }
        match self.mode {
            Mode::List => Context::List,
            Mode::Filter => Context::Filter,
            Mode::Detail => Context::Detail,
        }
    }

    fn act(&mut self, action: Action, cx: &Ctx) -> Outcome {
        let size = cx.size;
        let page = self.areas(size).list_rows().max(1) as isize;
        match action {
            Action::Close => {
                if self.viewer.take().is_none() && self.mode == Mode::Detail {
                    self.mode = Mode::List;
                }
            }
            Action::NextResource => return self.move_resource_cursor(1),
            Action::PrevResource => return self.move_resource_cursor(-1),
            Action::OpenResource => self.open_resource(cx),
            Action::Up => return self.scroll_by(-1, cx.lib, size),
            Action::Down => return self.scroll_by(1, cx.lib, size),
            Action::PageUp => return self.scroll_by(-page, cx.lib, size),
            Action::PageDown => return self.scroll_by(page, cx.lib, size),
            Action::Top => return self.scroll_by(isize::MIN / 2, cx.lib, size),
            Action::Bottom => return self.scroll_by(isize::MAX / 2, cx.lib, size),
            Action::Toggle => return Outcome::Then(Cmd::ToggleSelected),
            Action::AgentToggle => {
                return Outcome::Then(Cmd::PlanAgentToggle(SwitchScope::User, None));
            }
            Action::Filter => self.mode = Mode::Filter,
            Action::AcceptFilter => self.mode = Mode::List,
            Action::ClearFilter => {
                self.mode = Mode::List;
                if !self.list.filter.is_empty() {
                    self.list.filter.clear();
                    self.refresh(cx);
                }
            }
            Action::CycleSort => {
                self.list.sort = self.list.sort.next();
                self.refresh(cx);
            }
            Action::ReverseSort => {
                self.list.reversed = !self.list.reversed;
                self.refresh(cx);
            }
            Action::Open => {
                self.mode = Mode::Detail;
                self.after_move(cx.lib, size);
            }
            Action::DetailUp => return Outcome::Then(Cmd::ScrollDetail(-1)),
            Action::DetailDown => return Outcome::Then(Cmd::ScrollDetail(1)),
            Action::Backspace => {
                if self.list.filter.pop().is_some() {
                    self.refilter(cx);
                }
            }
            _ => return Outcome::Ignored,
        }
        Outcome::Done
    }

    /// A character typed into the filter box.
    fn type_filter(&mut self, c: char, cx: &Ctx) -> Outcome {
        if self.mode != Mode::Filter {
            return Outcome::Ignored;
        }
        self.list.filter.push(c);
        self.refilter(cx);
        Outcome::Done
    }

    /// A click or a wheel turn at `at` (outside the tabs).
    fn click(&mut self, kind: MouseEventKind, at: Position, cx: &Ctx) -> Outcome {
        let size = cx.size;
        let areas = self.areas(size);
        let wheel: isize = match kind {
            MouseEventKind::ScrollDown => 3,
            MouseEventKind::ScrollUp => -3,
            _ => 0,
        };
        // The file viewer covers the list: the wheel scrolls it, clicks do nothing.
        if self.viewer.is_some() {
            if wheel != 0 {
                return self.scroll_by(wheel, cx.lib, size);
            }
            return Outcome::Done;
        }
        if kind == MouseEventKind::Down(MouseButton::Left) {
            if let Some(list) = areas.list
                && list.contains(at)
            {
                // The row drawn there: the table state's offset is the one the draw used.
                let row = self.list.offset() + usize::from(at.y - list.y);
                if row < self.list.rows.len() {
                    self.list.select(row);
                    if self.mode == Mode::Detail && areas.detail.is_some() {
                        self.mode = Mode::List;
                    }
                    self.after_move(cx.lib, size);
                }
            } else if areas.detail.is_some_and(|d| d.contains(at)) {
                self.mode = Mode::Detail;
            }
        } else if wheel != 0 {
            let over_detail = areas.detail.is_some_and(|d| d.contains(at));
            if over_detail {
                return Outcome::Then(Cmd::ScrollDetail(wheel));
            } else if self.mode != Mode::Detail {
                self.list.scroll_by(wheel, areas.list_rows());
                self.after_move(cx.lib, size);
            } else {
                return self.scroll_by(wheel, cx.lib, size);
            }
        }
        Outcome::Done
    }

    /// Up and down: the open file, else the detail pane when it has the keys, else the list.
    pub fn scroll_by(&mut self, delta: isize, lib: &Library, size: Rect) -> Outcome {
        // The file's last row stops at the bottom of the view, inside its frame.
        let body = self.areas(size).body;
        let rows = usize::from(body.height.saturating_sub(2));
        if let Some(v) = &mut self.viewer {
            let all = v.rows(usize::from(body.width.saturating_sub(2)));
            v.scroll = scrolled(v.scroll, delta, all.saturating_sub(rows));
        } else if self.mode == Mode::Detail {
            return Outcome::Then(Cmd::ScrollDetail(delta));
        } else {
            self.list.move_by(delta);
            self.after_move(lib, size);
        }
        Outcome::Done
    }

    /// Scrolls the detail pane by `delta` lines, no further than `max` (its last line at the
    /// bottom of the pane).
    pub fn scroll_detail(&mut self, delta: isize, max: usize) {
        self.detail_scroll = scrolled(self.detail_scroll, delta, max);
    }

    /// The filter changed: the best match is selected.
    fn refilter(&mut self, cx: &Ctx) {
        self.list.refresh(cx.lib, cx.costs, cx.diag_counts);
        if !self.list.filter.is_empty() {
            self.list.select(0);
        }
        self.after_move(cx.lib, cx.size);
    }

    /// The rows changed (sort, filter, costs, diagnostics): recompute them, keeping the
    /// selection on the same skill.
    pub fn refresh(&mut self, cx: &Ctx) {
        self.list.refresh(cx.lib, cx.costs, cx.diag_counts);
        self.after_move(cx.lib, cx.size);
    }

    /// Where the list and the detail pane are on a terminal of `size`.
    pub fn areas(&self, size: Rect) -> Areas {
        crate::tui::layout::layout(size, Id::Skills, self.mode == Mode::Detail)
    }

    /// After the selection or the layout changed: keep the selection on screen and the detail
    /// pane's data for the selected skill.
    pub fn after_move(&mut self, lib: &Library, size: Rect) {
        let areas = self.areas(size);
        self.list.scroll_into_view(areas.list_rows());
        if areas.detail.is_some() {
            self.load_detail(lib);
        }
    }

    pub fn selected<'a>(&self, lib: &'a Library) -> Option<&'a Skill> {
        self.list.selected_skill().and_then(|i| lib.skills.get(i))
    }

    fn load_detail(&mut self, lib: &Library) {
        let Some(skill) = self.selected(lib) else {
            self.detail = None;
            return;
        };
        if self.detail.as_ref().is_some_and(|d| d.is_for(skill)) {
            return;
        }
        let same_dir = self.detail.as_ref().is_some_and(|d| d.dir == skill.dir);
        let d = Detail::load(skill);
        if !same_dir {
            self.detail_scroll = 0;
            self.resource_cursor = None;
            self.diag_cursor = None;
            self.viewer = None;
        }
        if self.resource_cursor.is_some_and(|c| c >= d.resources.len()) {
            self.resource_cursor = None;
        }
        self.detail = Some(d);
    }

    /// Moves the resource selection of the detail pane; the app then scrolls the pane to show
    /// it (where its line is depends on everything above it in the pane).
    fn move_resource_cursor(&mut self, delta: isize) -> Outcome {
        let n = self.detail.as_ref().map_or(0, |d| d.resources.len());
        if n == 0 {
            return Outcome::status("this skill has no resource files");
        }
        let next = match self.resource_cursor {
            None if delta < 0 => n - 1,
            None => 0,
            Some(c) => c.saturating_add_signed(delta).min(n - 1),
        };
        self.resource_cursor = Some(next);
        Outcome::Then(Cmd::RevealResource)
    }

    /// Scrolls the detail pane, `height` lines high, so that its line `line` is on screen.
    pub fn reveal_detail_line(&mut self, line: usize, height: usize) {
        let top = usize::from(self.detail_scroll);
        let height = height.max(1);
        if line < top {
            self.detail_scroll = u16::try_from(line).unwrap_or(u16::MAX);
        } else if line >= top + height {
            self.detail_scroll = u16::try_from(line + 1 - height).unwrap_or(u16::MAX);
        }
    }

    /// Opens the selected resource, or goes back to the list when none is selected.
    fn open_resource(&mut self, cx: &Ctx) {
        let (Some(c), Some(skill_idx)) = (self.resource_cursor, self.list.selected_skill()) else {
            self.mode = Mode::List;
            return;
        };
        let Some(rel) = self
            .detail
            .as_ref()
            .and_then(|d| d.resources.get(c))
            .map(|r| r.rel.clone())
        else {
            return;
        };
        let tokens = cx
            .costs
            .get(skill_idx)
            .and_then(|c| c.resources.iter().find(|r| r.rel == rel))
            .and_then(|r| r.tokens);
        if let Some(skill) = cx.lib.skills.get(skill_idx) {
            self.viewer = Some(ResourceView::open(skill, &rel, tokens));
        }
    }
}

/// `at` moved by `delta`, within `0..=max`.
fn scrolled(at: u16, delta: isize, max: usize) -> u16 {
    let to = usize::from(at).saturating_add_signed(delta).min(max);
    u16::try_from(to).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use crate::core::front::load::LibrarySpec;
    use crate::tui::action::Action;
    use crate::tui::app::{App, Options};
    use crate::tui::event::Event;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{
        Event as Input, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
    };

    /// The text of screen line `y` as drawn now.
    fn line_at(app: &App, y: u16) -> String {
        let mut term = Terminal::new(TestBackend::new(app.size.width, app.size.height)).unwrap();
        term.draw(|f| crate::tui::frame::draw(f, app)).unwrap();
        let buf = term.backend().buffer();
        (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect()
    }

    fn click(app: &mut App, kind: MouseEventKind, column: u16, row: u16) {
        app.handle(Event::Input(Input::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })));
    }

    #[test]
    fn a_click_selects_the_row_drawn_where_it_lands() {
        let t = tempfile::tempdir().unwrap();
        for i in 0..80 {
            let d = t.path().join(format!("lib/s{i:03}"));
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(
                d.join("SKILL.md"),
                format!("---\nname: s{i:03}\ndescription: Skill {i}.\n---\n"),
            )
            .unwrap();
        }
        let spec = LibrarySpec::of_paths([t.path().join("lib")]);
        let lib = spec.load();
        let (tx, _rx) = std::sync::mpsc::channel();
        let mut app = App::new(spec, lib, Options::isolated(t.path()), tx);
        // Narrow and wide; after keys, pages, the wheel and a jump to the end.
        for (w, h) in [(80, 24), (140, 40)] {
            app.resize(w, h);
            let moves: [&dyn Fn(&mut App); 5] = [
                &|a| a.apply(Action::PageDown),
                &|a| a.apply(Action::Down),
                &|a| click(a, MouseEventKind::ScrollDown, 2, 8),
                &|a| a.apply(Action::Bottom),
                &|a| a.apply(Action::PageUp),
            ];
            for step in moves {
                step(&mut app);
                let list = app.areas(app.size).list.unwrap();
                for dy in [0, 3, list.height - 1] {
                    let y = list.y + dy;
                    let drawn = line_at(&app, y);
                    click(&mut app, MouseEventKind::Down(MouseButton::Left), 4, y);
                    let name = app.screens.skills.selected(&app.lib).unwrap().name.clone();
                    assert!(
                        drawn.contains(&format!(" {name} ")),
                        "{w}x{h}: clicked line {y} `{drawn}`, selected {name}"
                    );
                }
            }
        }
    }

    fn screen(app: &App) -> String {
        (0..app.size.height)
            .map(|y| line_at(app, y))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_detail_and_the_file_view_stop_at_their_last_line() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("lib/long");
        std::fs::create_dir_all(d.join("references")).unwrap();
        let body: String = (1..=200).map(|i| format!("body line {i}\n")).collect();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: long\ndescription: A long one.\n---\n{body}"),
        )
        .unwrap();
        std::fs::write(d.join("references/notes.md"), &body).unwrap();
        let spec = LibrarySpec::of_paths([t.path().join("lib")]);
        let lib = spec.load();
        let (tx, _rx) = std::sync::mpsc::channel();
        let mut app = App::new(spec, lib, Options::isolated(t.path()), tx);
        app.resize(140, 40);
        app.apply(Action::Open);
        for _ in 0..3 {
            app.apply(Action::Bottom);
        }
        let bottom = screen(&app);
        assert!(bottom.contains("body line 200"), "{bottom}");
        // Pressing on past the end kept nothing: one key up shows one line more at the top.
        app.apply(Action::DetailUp);
        let up = screen(&app);
        assert!(
            !up.contains("body line 200") && up.contains("body line 199"),
            "{up}"
        );
        // The same for a file opened from the pane.
        app.apply(Action::NextResource);
        app.apply(Action::OpenResource);
        assert!(app.screens.skills.viewer.is_some());
        for _ in 0..3 {
            app.apply(Action::Bottom);
        }
        assert!(screen(&app).contains("200 │ body line 200"));
        app.apply(Action::Up);
        let up = screen(&app);
        assert!(
            !up.contains("body line 200") && up.contains("199 │ body line 199"),
            "{up}"
        );
    }

    #[test]
    fn an_action_of_another_screen_reaches_the_screen_that_owns_it() {
        // As when the config binds keys in the global context.
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("lib/one");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("SKILL.md"), "---\nname: one\ndescription: d\n---\n").unwrap();
        let spec = LibrarySpec::of_paths([t.path().join("lib")]);
        let lib = spec.load();
        let (tx, _rx) = std::sync::mpsc::channel();
        let mut app = App::new(spec, lib, Options::isolated(t.path()), tx);
        app.resize(80, 24);
        app.apply(Action::Show(crate::tui::action::Screen::Budget));
        let on = app.switches.enabled[0];
        app.apply(Action::Toggle);
        assert_eq!(
            app.switches.enabled[0], !on,
            "the Skills screen switched its selection"
        );
        let format = app.screens.prompt.format;
        app.apply(Action::CycleFormat);
        assert_ne!(
            app.screens.prompt.format, format,
            "the Prompt screen took the format key"
        );
        app.screens.test.message = "pdf".to_string();
        app.apply(Action::ClearMessage);
        assert!(
            app.screens.test.message.is_empty(),
            "the Test screen cleared its message"
        );
        // The Test screen takes Backspace itself; elsewhere it erases the list's filter.
        app.screens.skills.list.filter = "on".to_string();
        app.screens.test.message = "ab".to_string();
        app.apply(Action::Backspace);
        assert_eq!(
            (
                app.screens.skills.list.filter.as_str(),
                app.screens.test.message.as_str()
            ),
            ("o", "ab")
        );
        app.apply(Action::Show(crate::tui::action::Screen::Test));
        app.apply(Action::Backspace);
        assert_eq!(
            (
                app.screens.skills.list.filter.as_str(),
                app.screens.test.message.as_str()
            ),
            ("o", "a")
        );
        assert_eq!(app.screen, crate::tui::action::Screen::Test);
    }
}
