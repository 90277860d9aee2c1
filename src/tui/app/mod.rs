//! The app's state and its one update function: every key, click, tick, worker result and file
//! change goes through [`App::handle`].

pub mod checks;
pub mod detail;
mod input;
pub mod list;
mod results;
mod toggle;

use crate::cli::LibraryArgs;
use crate::core::Library;
use crate::core::agents::{self, AgentSwitches, SwitchScope, TogglePlan};
use crate::core::diagnostic::{Counts, Diagnostic};
use crate::core::listing::{Format, ListingOptions, Tier};
use crate::core::matching::{self, Index, Match, Matcher};
use crate::core::model::Model;
use crate::core::probe::SandboxPreference;
use crate::core::rules::Profile;
use crate::core::skill::Level;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use crate::core::state::{self, EnableState};
use crate::core::tokens::ResourceTokens;
use crate::core::watch::{self, Change, Watch};
use crate::tui::action::{Action, Screen};
use crate::tui::event::Preview;
use crate::tui::event::{Event, JobEvent};
use crate::tui::keymap::{Context, Keymap};
use crate::tui::theme::Theme;
use crate::tui::{jobs, view};
use detail::Detail;
use list::SkillList;
use ratatui::crossterm::event::Event as Input;
use ratatui::layout::Rect;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::Duration;

/// Token costs of one skill per level; `None` until counted (and for L1, when the skill is
/// not listed at all).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Costs {
    pub l1: Option<u64>,
    pub l2: Option<u64>,
    /// The text resources together.
    pub l3: Option<u64>,
    /// The tool schema an executable answered `--help-json` with, once probed.
    pub schema: Option<u64>,
}

impl Costs {
    /// L3 with the tool schema when it is known.
    pub fn l3_all(&self) -> Option<u64> {
        match (self.l3, self.schema) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        }
    }

    pub fn known_total(&self) -> u64 {
        self.l1.unwrap_or(0) + self.l2.unwrap_or(0) + self.l3_all().unwrap_or(0)
    }
}

/// Token counting in progress: the level being counted and how far it has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counting {
    pub level: Level,
    pub done: usize,
    pub total: usize,
}

/// Where the keys go on the Skills screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    List,
    Filter,
    Detail,
}

/// Listing formats offered by the prompt preview, tiers and context windows.
pub const FORMATS: [Format; 4] = Format::ALL;
pub const TIERS: [Tier; 4] = Tier::ALL;
pub const WINDOWS: [u64; 4] = [200_000, 1_000_000, 128_000, 32_000];
pub use crate::tui::jobs::ENCODING;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PromptSettings {
    pub format: usize,
    pub tier: usize,
    pub window: usize,
    pub scroll: u16,
}

/// How many skills each matcher shows.
pub const TEST_TOP_K: usize = 8;

#[derive(Debug, Clone, Default)]
pub struct TestBox {
    pub message: String,
    pub scroll: u16,
    /// Each matcher's answer for the message, in [`Matcher::ALL`] order.
    pub results: Vec<(Matcher, Vec<Match>)>,
}

/// A write-through waiting for confirmation: the exact change to each agent's file.
#[derive(Debug, Clone)]
pub struct Confirm {
    pub skill: usize,
    pub on: bool,
    pub scope: SwitchScope,
    pub plans: Vec<(Agent, Result<TogglePlan, String>)>,
    pub scroll: u16,
}

#[derive(Debug, Clone)]
pub struct Status {
    pub text: String,
    pub error: bool,
}

#[derive(Debug, Clone)]
pub struct Options {
    pub theme: Theme,
    /// Watch the roots for changes (off in tests that want a still library).
    pub watch: bool,
    /// skillscope's state file; `None`: the default place (`$SKILLSCOPE_CONFIG_DIR/state.json`).
    pub state_path: Option<PathBuf>,
    /// The home folder whose agent settings are read; `None`: the user's.
    pub home: Option<PathBuf>,
    /// The token cache file; `None`: the default place (`$SKILLSCOPE_CACHE_DIR/tokens.bin`).
    pub cache_path: Option<PathBuf>,
    /// The listing format L1 and the prompt preview start with.
    pub format: Format,
    /// Which sandbox probes ask for (`SKILLSCOPE_SANDBOX` by default).
    pub sandbox: SandboxPreference,
    /// The rules the skills are judged by at first.
    pub profile: Profile,
    pub tier: Tier,
    /// The context window the preview starts with; it joins the window key's cycle.
    pub context_window: u64,
    /// The encoding of every figure the app shows.
    pub encoding: crate::core::tokens::Encoding,
    /// The model whose estimate is shown beside the figures at first; `None`: no estimate.
    pub model: Option<Model>,
    pub keymap: Keymap,
    /// Problems with the config file, shown when the app starts and in the help overlay.
    pub config_notes: Vec<String>,
    /// The config file read, for the help overlay.
    pub config_path: Option<PathBuf>,
    /// What the config's key bindings moved, for the help overlay.
    pub config_info: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            theme: Theme::from_env(),
            watch: true,
            state_path: None,
            home: None,
            cache_path: None,
            format: Format::default(),
            sandbox: SandboxPreference::from_env(),
            profile: Profile::default(),
            tier: Tier::default(),
            context_window: WINDOWS[0],
            encoding: ENCODING,
            model: None,
            keymap: Keymap::default(),
            config_notes: Vec::new(),
            config_path: None,
            config_info: Vec::new(),
        }
    }
}

impl Options {
    /// Plain styles, no watcher, and state and agent settings under `dir`: for tests and
    /// benchmarks that must not touch the user's files.
    pub fn isolated(dir: &std::path::Path) -> Options {
        Options {
            theme: Theme::plain(),
            watch: false,
            state_path: Some(dir.join("config/state.json")),
            home: Some(dir.join("home")),
            cache_path: Some(dir.join("cache/tokens.bin")),
            // Tests choose their sandbox themselves, whatever the environment says.
            sandbox: SandboxPreference::Strongest,
            ..Options::default()
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
    /// skillscope's own on/off store; `None` when the system has no config folder.
    pub state: Option<EnableState>,
    /// The agents' own switches (settings files), read on a worker.
    pub switches: Option<Arc<AgentSwitches>>,
    /// A write-through to agents' settings waiting for the user's yes.
    pub confirm: Option<Confirm>,
    /// Some skill is in a folder that an agent with per-skill switches reads.
    pub agent_readers: bool,
    pub detail: Option<Detail>,
    pub detail_scroll: u16,
    pub prompt: PromptSettings,
    /// The context windows the window key cycles through.
    pub windows: Vec<u64>,
    /// The model whose estimate is shown beside the figures, if any.
    pub model: Option<Model>,
    /// The models the model key cycles through (after "none").
    pub models: Vec<Model>,
    pub keymap: Keymap,
    /// Problems with the config file.
    pub config_notes: Vec<String>,
    pub config_path: Option<PathBuf>,
    pub config_info: Vec<String>,
    pub checks: checks::Checks,
    /// Each skill's resources with their token counts (empty until L3 is counted).
    pub resource_tokens: Vec<Vec<ResourceTokens>>,
    /// Which levels are counted for the current library.
    pub levels_done: [bool; 3],
    pub counting: Option<Counting>,
    /// The prompt preview's listing, for the current toggles and settings.
    pub preview: Option<Preview>,
    preview_request: u64,
    preview_running: bool,
    /// Something changed while a preview was rendered: render again when it is in.
    preview_dirty: bool,
    pub cache: jobs::Cache,
    /// The matchers' index of the current library; `None` while it is being built.
    pub index: Option<Arc<Index>>,
    pub test: TestBox,
    pub status: Option<Status>,
    pub size: Rect,
    pub ticks: u64,
    pub quit: bool,
    pub rescanning: bool,
    /// A library has arrived (the first scan is done).
    pub loaded: bool,
    want_watch: bool,
    watch_started: bool,
    home: Option<PathBuf>,
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
        let state_path = opts.state_path.clone().or_else(state::default_path);
        let home = opts.home.clone().or_else(dirs::home_dir);
        let mut app = App::blank(args, &opts, tx);
        app.home = home;
        app.load_state(state_path);
        jobs::load_switches(app.home.clone(), app.tx.clone());
        app
    }

    fn blank(args: LibraryArgs, opts: &Options, tx: Sender<Event>) -> App {
        let mut windows = WINDOWS.to_vec();
        if !windows.contains(&opts.context_window) && opts.context_window > 0 {
            windows.insert(0, opts.context_window);
        }
        let window = windows
            .iter()
            .position(|w| *w == opts.context_window)
            .unwrap_or(0);
        let mut models = Model::presets();
        if let Some(m) = &opts.model
            && !models.contains(m)
        {
            models.push(m.clone());
        }
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
            profile: opts.profile,
            checked: false,
            enabled: Vec::new(),
            state: None,
            switches: None,
            confirm: None,
            agent_readers: false,
            detail: None,
            detail_scroll: 0,
            prompt: PromptSettings {
                format: FORMATS.iter().position(|f| *f == opts.format).unwrap_or(0),
                tier: TIERS.iter().position(|t| *t == opts.tier).unwrap_or(0),
                window,
                scroll: 0,
            },
            windows,
            model: opts.model.clone(),
            models,
            keymap: opts.keymap.clone(),
            config_notes: opts.config_notes.clone(),
            config_path: opts.config_path.clone(),
            config_info: opts.config_info.clone(),
            checks: checks::Checks::new(opts.sandbox),
            index: None,
            resource_tokens: Vec::new(),
            levels_done: [false; 3],
            counting: None,
            preview: None,
            preview_request: 0,
            preview_running: false,
            preview_dirty: false,
            cache: jobs::Cache::new(opts.cache_path.clone()).with_encoding(opts.encoding),
            test: TestBox::default(),
            status: None,
            size: Rect::new(0, 0, 80, 24),
            ticks: 0,
            quit: false,
            rescanning: false,
            rescan_again: false,
            loaded: false,
            want_watch: opts.watch,
            watch_started: false,
            home: None,
            tx,
            watch: None,
        }
    }

    /// Replaces the library (first load or rescan), keeping the selection on the same folder.
    pub fn set_library(&mut self, lib: Library) {
        let keep = self.list.selected_dir(&self.lib);
        // Results of a running probe belong to the old library: stop it.
        self.checks.stop();
        let n = lib.skills.len();
        if !lib.notes.is_empty() {
            self.set_status(lib.notes.join("; "), true);
        }
        self.generation += 1;
        self.diags = lib
            .skills
            .iter()
            .map(|s| s.parse_diagnostics.clone())
            .collect();
        self.diag_counts = self.diags.iter().map(Counts::of).collect();
        self.checked = false;
        self.enabled = match &self.state {
            Some(st) => lib.skills.iter().map(|s| st.is_enabled(s)).collect(),
            None => lib.skills.iter().map(|s| state::default_for(s).0).collect(),
        };
        debug_assert_eq!(self.enabled.len(), n);
        self.costs = vec![Costs::default(); n];
        self.agent_readers = lib.skills.iter().any(|s| !agents::readers(s).is_empty());
        self.lib = Arc::new(lib);
        self.list.invalidate();
        self.list.refresh(&self.lib, &self.costs, &self.diag_counts);
        self.list.select_dir(&self.lib, keep.as_deref());
        self.checks.refresh(&self.lib);
        self.after_move();
        self.run_checks(false);
        self.index = None;
        self.test.results.clear();
        jobs::index(Arc::clone(&self.lib), self.generation, self.tx.clone());
        self.resource_tokens = vec![Vec::new(); n];
        self.levels_done = [false; 3];
        self.start_counting(vec![Level::L1, Level::L2, Level::L3]);
        self.request_preview();
        self.loaded = true;
        if self.want_watch && !self.watch_started {
            self.start_watch();
        }
    }

    /// Runs the rules on a worker. Without `body` only the frontmatter rules run (fast); the
    /// body rules read every body, so after a new library they wait until the counts are in,
    /// which need the same disk and cores and matter more to the first screen.
    fn run_checks(&mut self, body: bool) {
        jobs::check(
            Arc::clone(&self.lib),
            self.profile,
            self.enabled.clone(),
            body,
            self.generation,
            self.tx.clone(),
        );
    }

    fn start_counting(&mut self, levels: Vec<Level>) {
        let format = FORMATS[self.prompt.format];
        jobs::count(
            Arc::clone(&self.lib),
            self.cache.clone(),
            format,
            levels,
            self.generation,
            self.tx.clone(),
        );
    }

    pub fn listing_options(&self) -> ListingOptions {
        ListingOptions {
            format: FORMATS[self.prompt.format],
            tier: TIERS[self.prompt.tier],
            context_window: usize::try_from(self.window()).unwrap_or(usize::MAX),
        }
    }

    /// The context window of the preview, in tokens.
    pub fn window(&self) -> u64 {
        self.windows
            .get(self.prompt.window)
            .copied()
            .unwrap_or(WINDOWS[0])
    }

    /// The encoding of every figure shown.
    pub fn encoding(&self) -> crate::core::tokens::Encoding {
        self.cache.encoding
    }

    /// `" ≈ 1,419 (claude)"` after a figure, when a model is chosen.
    pub fn beside(&self, tokens: u64) -> String {
        self.model.as_ref().map_or_else(String::new, |m| {
            format!(" {}", m.label(tokens, self.encoding()))
        })
    }

    /// Renders the prompt preview again on a worker: one at a time, the newest request waiting.
    pub fn request_preview(&mut self) {
        if self.preview_running {
            self.preview_dirty = true;
            return;
        }
        self.preview_running = true;
        self.preview_request += 1;
        jobs::preview(
            Arc::clone(&self.lib),
            self.cache.clone(),
            self.enabled.clone(),
            self.listing_options(),
            self.preview_request,
            self.tx.clone(),
        );
    }

    /// The preview shown is the one for the current toggles and settings.
    pub fn preview_settled(&self) -> bool {
        self.preview.is_some() && !self.preview_running && !self.preview_dirty
    }

    /// The diagnostics shown for a skill (by library index).
    pub fn diagnostics(&self, skill: usize) -> &[Diagnostic] {
        self.diags.get(skill).map_or(&[], Vec::as_slice)
    }

    /// Starts the file watcher on a worker: adding a watch for every folder of a big library
    /// takes a while, and the keys must not wait for it.
    fn start_watch(&mut self) {
        self.watch_started = true;
        let tx = self.tx.clone();
        let roots: Vec<PathBuf> = self.lib.roots.iter().map(|r| r.path.clone()).collect();
        std::thread::spawn(move || {
            let events = tx.clone();
            let res = watch::watch(&roots, Duration::from_millis(250), move |change| {
                let ev = match change {
                    Change::Paths(p) => Event::FsChanged(p),
                    Change::Lost(e) => Event::Job(JobEvent::WatchProblem(e)),
                };
                let _ = events.send(ev);
            });
            let _ = tx.send(Event::Job(JobEvent::Watching(
                res.map(Box::new).map_err(|e| e.to_string()),
            )));
        });
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

    /// The L1 total of the skills an agent would list — switched on and not shadowed — and how
    /// many of them are still uncounted.
    pub fn enabled_l1(&self) -> (u64, usize) {
        let mut total = 0;
        let mut pending = 0;
        for (i, c) in self.costs.iter().enumerate() {
            let shadowed = self
                .lib
                .skills
                .get(i)
                .is_none_or(|s| s.shadowed_by.is_some());
            if !self.enabled.get(i).copied().unwrap_or(false) || shadowed {
                continue;
            }
            match c.l1 {
                Some(n) => total += n,
                None if !self.levels_done[0] => pending += 1,
                None => {}
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
        if self.confirm.is_some() {
            return vec![Context::Confirm];
        }
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

    pub fn request_rescan(&mut self) {
        if self.rescanning {
            self.rescan_again = true;
            return;
        }
        self.rescanning = true;
        jobs::rescan(self.args.clone(), self.cache.index_store(), self.tx.clone());
    }

    /// Runs every matcher on the test box's message; only skills an agent would consider (and
    /// that are switched on) compete.
    pub fn run_matchers(&mut self) {
        let Some(index) = &self.index else {
            return;
        };
        let lib = &self.lib;
        let enabled = &self.enabled;
        let competes = |i: usize| {
            enabled.get(i).copied().unwrap_or(false)
                && lib.skills.get(i).is_some_and(matching::may_trigger)
        };
        self.test.results = index.query_all(&self.test.message, &competes, TEST_TOP_K);
    }

    fn refilter(&mut self) {
        self.list.refresh(&self.lib, &self.costs, &self.diag_counts);
        if !self.list.filter.is_empty() {
            self.list.select(0);
        }
        self.after_move();
    }

    pub fn apply(&mut self, action: Action) {
        if let Some(c) = &mut self.confirm {
            match action {
                Action::Confirm => self.apply_agent_toggle(),
                Action::CycleScope => {
                    let next = match c.scope {
                        SwitchScope::User => SwitchScope::Project,
                        SwitchScope::Project => SwitchScope::Local,
                        SwitchScope::Local => SwitchScope::User,
                    };
                    let on = c.on;
                    self.plan_agent_toggle(next, Some(on));
                }
                Action::Down => c.scroll = c.scroll.saturating_add(1),
                Action::Up => c.scroll = c.scroll.saturating_sub(1),
                Action::Quit => self.quit = true,
                _ => {
                    self.confirm = None;
                    self.set_status("nothing was written", false);
                }
            }
            return;
        }
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
                self.run_checks(true);
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
            Action::CycleFormat => {
                self.prompt.format = (self.prompt.format + 1) % FORMATS.len();
                // L1 is the listing entry, which the format decides.
                self.levels_done[0] = false;
                for c in &mut self.costs {
                    c.l1 = None;
                }
                self.start_counting(vec![Level::L1]);
                self.request_preview();
            }
            Action::CycleTier => {
                self.prompt.tier = (self.prompt.tier + 1) % TIERS.len();
                self.request_preview();
            }
            Action::CycleWindow => {
                self.prompt.window = (self.prompt.window + 1) % self.windows.len().max(1);
                self.request_preview();
            }
            Action::CycleModel => {
                // none → each model in turn → none.
                let next = match &self.model {
                    None => 0,
                    Some(m) => self.models.iter().position(|x| x == m).map_or(0, |i| i + 1),
                };
                self.model = self.models.get(next).cloned();
                let text = match &self.model {
                    Some(m) if m.is_exact_with(self.encoding()) => {
                        format!(
                            "model {m}: {} is its own tokenizer, figures are exact",
                            self.encoding()
                        )
                    }
                    Some(m) => format!(
                        "model {m}: ≈ figures are {} × {}, an estimate",
                        self.encoding(),
                        m.factor
                    ),
                    None => format!("no model estimate: figures are {} counts", self.encoding()),
                };
                self.set_status(text, false);
            }
            Action::RunChecks => self.run_probes(),
            Action::CancelChecks => {
                if self.checks.running() {
                    self.checks.cancel();
                    self.set_status("stopping the probes…", false);
                }
            }
            Action::AgentToggle => self.plan_agent_toggle(SwitchScope::User, None),
            Action::Confirm => self.apply_agent_toggle(),
            // Only meaningful in the confirmation, handled above.
            Action::CycleScope => {}
            Action::Rescan => self.request_rescan(),
            Action::Backspace => match self.screen {
                Screen::Test => {
                    self.test.message.pop();
                    self.run_matchers();
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
                self.run_matchers();
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
        let total = indices.len();
        let worker = jobs::probe(
            Arc::clone(&self.lib),
            self.cache.clone(),
            indices,
            jobs::ProbeRun {
                cancel: Arc::clone(&cancel),
                sandbox: self.checks.sandbox,
            },
            self.generation,
            self.tx.clone(),
        );
        self.checks.run = Some(checks::Run {
            total,
            done: 0,
            cancel,
            worker,
        });
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
}
