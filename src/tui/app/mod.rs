//! The app's state and its one update function: every key, click, tick, worker result and file
//! change goes through [`App::handle`].

pub mod checks;
pub mod detail;
pub mod list;

use crate::cli::LibraryArgs;
use crate::core::Library;
use crate::core::diagnostic::{Counts, Diagnostic};
use crate::core::rules::Profile;
use crate::core::skill::Skill;
use crate::core::watch::{self, Change, Watch};
use crate::tui::action::{Action, Screen};
use crate::tui::event::{Event, JobEvent};
use crate::tui::keymap::{self, Context};
use crate::tui::theme::Theme;
use crate::tui::{jobs, view};
use detail::Detail;
use list::SkillList;
use ratatui::crossterm::event::{
    Event as Input, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};
use ratatui::layout::{Position, Rect};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::Duration;

/// Token costs of one skill per level; `None` until counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Costs {
    pub l1: Option<u64>,
    pub l2: Option<u64>,
    pub l3: Option<u64>,
}

impl Costs {
    pub fn known_total(&self) -> u64 {
        self.l1.unwrap_or(0) + self.l2.unwrap_or(0) + self.l3.unwrap_or(0)
    }
}

/// Where the keys go on the Skills screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    List,
    Filter,
    Detail,
}

/// Listing formats offered by the prompt preview.
pub const FORMATS: [&str; 4] = ["xml", "markdown", "claude-code", "codex"];
pub const TIERS: [&str; 4] = ["auto", "full", "compact", "names"];
pub const WINDOWS: [u64; 4] = [200_000, 1_000_000, 128_000, 32_000];

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PromptSettings {
    pub format: usize,
    pub tier: usize,
    pub window: usize,
    pub scroll: u16,
}

#[derive(Debug, Clone, Default)]
pub struct TestBox {
    pub message: String,
    pub scroll: u16,
}

#[derive(Debug, Clone)]
pub struct Status {
    pub text: String,
    pub error: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub theme: Theme,
    /// Watch the roots for changes (off in tests that want a still library).
    pub watch: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            theme: Theme::from_env(),
            watch: true,
        }
    }
}

pub struct App {
    pub args: LibraryArgs,
    pub lib: Arc<Library>,
    /// Bumped on every new library; worker results of an older one are dropped.
    pub generation: u64,
    pub theme: Theme,
    pub screen: Screen,
    pub mode: Mode,
    pub help: Option<u16>,
    pub list: SkillList,
    pub costs: Vec<Costs>,
    /// Each skill's diagnostics: the parse findings at first, every rule's once checked.
    pub diags: Vec<Vec<Diagnostic>>,
    pub diag_counts: Vec<Counts>,
    pub profile: Profile,
    /// The rules of `profile` have run on the current library.
    pub checked: bool,
    pub enabled: Vec<bool>,
    pub detail: Option<Detail>,
    pub detail_scroll: u16,
    pub prompt: PromptSettings,
    pub checks: checks::Checks,
    pub test: TestBox,
    pub status: Option<Status>,
    pub size: Rect,
    pub ticks: u64,
    pub quit: bool,
    pub rescanning: bool,
    /// A library has arrived (the first scan is done).
    pub loaded: bool,
    want_watch: bool,
    /// A change arrived while a rescan ran: scan again when it ends.
    pub rescan_again: bool,
    tx: Sender<Event>,
    watch: Option<Watch>,
}

impl App {
    /// An app over a library already read.
    pub fn new(args: LibraryArgs, lib: Library, opts: Options, tx: Sender<Event>) -> App {
        let mut app = App::empty(args, opts, tx);
        app.set_library(lib);
        app
    }

    /// An app whose library is read on a worker: the first frame comes at once and the list
    /// fills in when the scan is done.
    pub fn scanning(args: LibraryArgs, opts: Options, tx: Sender<Event>) -> App {
        let mut app = App::empty(args, opts, tx);
        app.request_rescan();
        app
    }

    fn empty(args: LibraryArgs, opts: Options, tx: Sender<Event>) -> App {
        App {
            args,
            lib: Arc::new(Library::default()),
            generation: 0,
            theme: opts.theme,
            screen: Screen::Skills,
            mode: Mode::List,
            help: None,
            list: SkillList::default(),
            costs: Vec::new(),
            diags: Vec::new(),
            diag_counts: Vec::new(),
            profile: Profile::default(),
            checked: false,
            enabled: Vec::new(),
            detail: None,
            detail_scroll: 0,
            prompt: PromptSettings::default(),
            checks: checks::Checks::default(),
            test: TestBox::default(),
            status: None,
            size: Rect::new(0, 0, 80, 24),
            ticks: 0,
            quit: false,
            rescanning: false,
            rescan_again: false,
            loaded: false,
            want_watch: opts.watch,
            tx,
            watch: None,
        }
    }

    /// Replaces the library (first load or rescan), keeping the selection on the same folder.
    pub fn set_library(&mut self, lib: Library) {
        let keep = self.list.selected_dir(&self.lib);
        // Results of a running probe belong to the old library: stop it.
        if self.checks.running() {
            self.checks.cancel();
            self.checks.run = None;
        }
        let n = lib.skills.len();
        self.generation += 1;
        self.diags = lib
            .skills
            .iter()
            .map(|s| s.parse_diagnostics.clone())
            .collect();
        self.diag_counts = self.diags.iter().map(Counts::of).collect();
        self.checked = false;
        self.enabled = vec![true; n];
        self.costs = vec![Costs::default(); n];
        self.lib = Arc::new(lib);
        self.list.invalidate();
        self.list.refresh(&self.lib, &self.costs, &self.diag_counts);
        self.list.select_dir(&self.lib, keep.as_deref());
        self.checks.refresh(&self.lib);
        self.after_move();
        self.run_checks();
        self.loaded = true;
        if self.want_watch && self.watch.is_none() {
            self.start_watch();
        }
    }

    fn run_checks(&mut self) {
        jobs::check(
            Arc::clone(&self.lib),
            self.profile,
            self.generation,
            self.tx.clone(),
        );
    }

    /// The diagnostics shown for a skill (by library index).
    pub fn diagnostics(&self, skill: usize) -> &[Diagnostic] {
        self.diags.get(skill).map_or(&[], Vec::as_slice)
    }

    fn start_watch(&mut self) {
        let tx = self.tx.clone();
        let roots: Vec<PathBuf> = self.lib.roots.iter().map(|r| r.path.clone()).collect();
        let res = watch::watch(&roots, Duration::from_millis(250), move |change| {
            let ev = match change {
                Change::Paths(p) => Event::FsChanged(p),
                Change::Lost(e) => Event::Job(JobEvent::WatchProblem(e)),
            };
            let _ = tx.send(ev);
        });
        match res {
            Ok(w) => {
                if let Some(p) = w.problems.first() {
                    self.set_status(format!("not watching every folder: {p}"), true);
                }
                self.watch = Some(w);
            }
            Err(e) => self.set_status(e.to_string(), true),
        }
    }

    pub fn is_watching(&self) -> bool {
        self.watch.is_some()
    }

    pub fn selected(&self) -> Option<&Skill> {
        self.list
            .selected_skill()
            .and_then(|i| self.lib.skills.get(i))
    }

    pub fn enabled_count(&self) -> usize {
        self.enabled.iter().filter(|e| **e).count()
    }

    /// The L1 total of enabled skills, and how many of them are still uncounted.
    pub fn enabled_l1(&self) -> (u64, usize) {
        let mut total = 0;
        let mut pending = 0;
        for (i, c) in self.costs.iter().enumerate() {
            if !self.enabled.get(i).copied().unwrap_or(false) {
                continue;
            }
            match c.l1 {
                Some(n) => total += n,
                None => pending += 1,
            }
        }
        (total, pending)
    }

    pub fn set_status(&mut self, text: impl Into<String>, error: bool) {
        self.status = Some(Status {
            text: text.into(),
            error,
        });
    }

    /// The keymap contexts in force, most specific first.
    pub fn contexts(&self) -> Vec<Context> {
        if self.help.is_some() {
            return vec![Context::Help];
        }
        let first = match self.screen {
            Screen::Skills => match self.mode {
                Mode::List => Context::List,
                Mode::Filter => Context::Filter,
                Mode::Detail => Context::Detail,
            },
            Screen::Prompt => Context::Prompt,
            Screen::Test => Context::Test,
            Screen::Checks => Context::Checks,
            Screen::Budget => Context::Budget,
        };
        vec![first, Context::Global]
    }

    pub fn handle(&mut self, ev: Event) {
        match ev {
            Event::Input(Input::Key(key)) => self.on_key(key),
            Event::Input(Input::Mouse(m)) => self.on_mouse(m),
            Event::Input(Input::Resize(w, h)) => self.resize(w, h),
            Event::Input(_) => {}
            Event::Tick => self.ticks = self.ticks.wrapping_add(1),
            Event::FsChanged(_) => self.request_rescan(),
            Event::Job(job) => self.on_job(job),
        }
    }

    pub fn resize(&mut self, w: u16, h: u16) {
        self.size = Rect::new(0, 0, w, h);
        self.after_move();
    }

    fn on_job(&mut self, job: JobEvent) {
        match job {
            JobEvent::Rescanned(lib) => {
                self.rescanning = false;
                self.set_library(*lib);
                if std::mem::take(&mut self.rescan_again) {
                    self.request_rescan();
                }
            }
            JobEvent::Checked {
                generation,
                profile,
                diagnostics,
            } => {
                if generation != self.generation || profile != self.profile {
                    return;
                }
                self.diag_counts = diagnostics.iter().map(Counts::of).collect();
                self.diags = diagnostics;
                self.checked = true;
                if self.list.sort == list::Sort::Diagnostics {
                    self.list.refresh(&self.lib, &self.costs, &self.diag_counts);
                    self.after_move();
                }
            }
            JobEvent::Probed { generation, report } => {
                if generation != self.generation {
                    return;
                }
                if let Some(run) = &mut self.checks.run {
                    run.done += 1;
                }
                self.checks.reports.insert(report.dir.clone(), *report);
            }
            JobEvent::ProbesDone { generation } => {
                if generation != self.generation {
                    return;
                }
                let failed = self
                    .checks
                    .rows
                    .iter()
                    .filter_map(|i| self.checks.report_for(&self.lib, *i))
                    .filter(|r| r.probe_failed())
                    .count();
                self.checks.run = None;
                let n = self.checks.rows.len();
                self.set_status(
                    format!("probed {n} executable skills: {failed} failed"),
                    failed > 0,
                );
            }
            JobEvent::WatchProblem(e) => {
                self.set_status(format!("file watcher: {e}"), true);
                self.request_rescan();
            }
        }
    }

    pub fn request_rescan(&mut self) {
        if self.rescanning {
            self.rescan_again = true;
            return;
        }
        self.rescanning = true;
        jobs::rescan(self.args.clone(), self.tx.clone());
    }

    fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let contexts = self.contexts();
        match keymap::lookup(&contexts, &key) {
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

    fn type_char(&mut self, c: char) {
        match (self.screen, self.mode) {
            (Screen::Skills, Mode::Filter) => {
                self.list.filter.push(c);
                self.refilter();
            }
            (Screen::Test, _) => {
                self.test.message.push(c);
                self.test.scroll = 0;
            }
            _ => {}
        }
    }

    fn refilter(&mut self) {
        self.list.refresh(&self.lib, &self.costs, &self.diag_counts);
        if !self.list.filter.is_empty() {
            self.list.select(0);
        }
        self.after_move();
    }

    pub fn apply(&mut self, action: Action) {
        if self.help.is_some() {
            match action {
                Action::Close | Action::Help => self.help = None,
                Action::Down => self.help = self.help.map(|s| s.saturating_add(1)),
                Action::Up => self.help = self.help.map(|s| s.saturating_sub(1)),
                _ => {}
            }
            return;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::Help => self.help = Some(0),
            Action::Close => {
                if self.mode == Mode::Detail {
                    self.mode = Mode::List;
                }
            }
            Action::NextScreen => {
                self.show(Screen::ALL[(self.screen.index() + 1) % Screen::ALL.len()])
            }
            Action::PrevScreen => {
                let n = Screen::ALL.len();
                self.show(Screen::ALL[(self.screen.index() + n - 1) % n]);
            }
            Action::Show(s) => self.show(s),
            Action::Up => self.scroll(-1),
            Action::Down => self.scroll(1),
            Action::PageUp => self.scroll(-(self.page() as isize)),
            Action::PageDown => self.scroll(self.page() as isize),
            Action::Top => self.scroll(isize::MIN / 2),
            Action::Bottom => self.scroll(isize::MAX / 2),
            Action::Toggle => self.toggle_selected(),
            Action::Filter => self.mode = Mode::Filter,
            Action::AcceptFilter => self.mode = Mode::List,
            Action::ClearFilter => {
                self.mode = Mode::List;
                if !self.list.filter.is_empty() {
                    self.list.filter.clear();
                    self.list.refresh(&self.lib, &self.costs, &self.diag_counts);
                    self.after_move();
                }
            }
            Action::CycleProfile => {
                let all = Profile::ALL;
                let i = all.iter().position(|p| *p == self.profile).unwrap_or(0);
                self.profile = all[(i + 1) % all.len()];
                self.checked = false;
                self.run_checks();
            }
            Action::CycleSort => {
                self.list.sort = self.list.sort.next();
                self.list.refresh(&self.lib, &self.costs, &self.diag_counts);
                self.after_move();
            }
            Action::Open => {
                self.mode = Mode::Detail;
                self.after_move();
            }
            Action::DetailUp => self.detail_scroll = self.detail_scroll.saturating_sub(1),
            Action::DetailDown => self.detail_scroll = self.detail_scroll.saturating_add(1),
            Action::CycleFormat => self.prompt.format = (self.prompt.format + 1) % FORMATS.len(),
            Action::CycleTier => self.prompt.tier = (self.prompt.tier + 1) % TIERS.len(),
            Action::CycleWindow => self.prompt.window = (self.prompt.window + 1) % WINDOWS.len(),
            Action::RunChecks => self.run_probes(),
            Action::CancelChecks => {
                if self.checks.running() {
                    self.checks.cancel();
                    self.set_status("stopping the probes…", false);
                }
            }
            Action::AgentToggle => {
                self.set_status(
                    "writing toggles to agents' files is not part of this build yet",
                    true,
                );
            }
            Action::Confirm => {}
            Action::Rescan => self.request_rescan(),
            Action::Backspace => match self.screen {
                Screen::Test => {
                    self.test.message.pop();
                }
                _ => {
                    if self.list.filter.pop().is_some() {
                        self.refilter();
                    }
                }
            },
            Action::ClearMessage => {
                self.test.message.clear();
                self.test.scroll = 0;
            }
        }
    }

    /// Starts the `--help-json` probe of every executable skill: the one thing in the app that
    /// runs the library's code, so only ever on this explicit action.
    fn run_probes(&mut self) {
        if self.checks.running() {
            return;
        }
        let indices = self.checks.rows.clone();
        if indices.is_empty() {
            self.set_status("no executable skills to probe", false);
            return;
        }
        let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
        self.checks.run = Some(checks::Run {
            total: indices.len(),
            done: 0,
            cancel: Arc::clone(&cancel),
        });
        jobs::probe(
            Arc::clone(&self.lib),
            indices,
            cancel,
            self.generation,
            self.tx.clone(),
        );
    }

    fn show(&mut self, s: Screen) {
        self.screen = s;
        if s != Screen::Skills && self.mode == Mode::Filter {
            self.mode = Mode::List;
        }
        self.after_move();
    }

    fn page(&self) -> usize {
        view::layout(self.size, self).list_rows().max(1)
    }

    fn scroll(&mut self, delta: isize) {
        match (self.screen, self.mode) {
            (Screen::Skills, Mode::Detail) => {
                self.detail_scroll = self
                    .detail_scroll
                    .saturating_add_signed(delta.clamp(-9999, 9999) as i16)
            }
            (Screen::Skills, _) => {
                self.list.move_by(delta);
                self.after_move();
            }
            (Screen::Prompt, _) => {
                self.prompt.scroll = self
                    .prompt
                    .scroll
                    .saturating_add_signed(delta.clamp(-9999, 9999) as i16)
            }
            (Screen::Checks, _) => self.checks.move_by(delta),
            (Screen::Test, _) => {
                self.test.scroll = self
                    .test
                    .scroll
                    .saturating_add_signed(delta.clamp(-9999, 9999) as i16)
            }
            _ => {}
        }
    }

    /// After the selection or the layout changed: keep the selection on screen and the detail
    /// pane's data for the selected skill.
    fn after_move(&mut self) {
        let areas = view::layout(self.size, self);
        self.list.scroll_into_view(areas.list_rows());
        if areas.detail.is_some() {
            self.load_detail();
        }
    }

    fn load_detail(&mut self) {
        let Some(skill) = self.selected() else {
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
        }
        self.detail = Some(d);
    }

    fn toggle_selected(&mut self) {
        let Some(i) = self.list.selected_skill() else {
            return;
        };
        if let Some(e) = self.enabled.get_mut(i) {
            *e = !*e;
            let name = &self.lib.skills[i].name;
            let word = if *e { "on" } else { "off" };
            self.status = Some(Status {
                text: format!(
                    "{name} switched {word} (not saved: the state store is not part of this build yet)"
                ),
                error: true,
            });
        }
    }

    fn on_mouse(&mut self, m: MouseEvent) {
        let areas = view::layout(self.size, self);
        let at = Position::new(m.column, m.row);
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
