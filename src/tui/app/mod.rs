//! The app's state and its one update function: every key, click, tick, worker result and file
//! change goes through [`App::handle`].

pub mod checks;
pub mod detail;
mod input;
pub mod list;
mod results;
mod toggle;

use crate::core::Library;
use crate::core::agents::{self, AgentSwitches, SwitchScope, TogglePlan};
use crate::core::budget;
use crate::core::diagnostic::{Counts, Diagnostic};
use crate::core::listing::{Format, ListingOptions, Tier};
use crate::core::load::LibrarySpec;
use crate::core::matching::{self, Index, Match, Matcher};
use crate::core::model::Model;
use crate::core::modes::{self, AutoOptions, ListingMode, Selections};
use crate::core::probe::SandboxPreference;
use crate::core::rules::Profile;
use crate::core::skill::Level;
use crate::core::skill::{Skill, SkillKind};
use crate::core::source::Agent;
use crate::core::state::{self, EnableState};
use crate::core::tokens::{Progress, SkillTokens};
use crate::core::usage::{self, UseCost};
use crate::core::watch::{self, Change, Watch};
use crate::tui::action::{Action, Screen};
use crate::tui::event::Preview;
use crate::tui::event::{Event, JobEvent};
use crate::tui::jobs;
use crate::tui::keymap::{Context, Keymap};
use crate::tui::theme::Theme;
use detail::{Detail, ResourceView};
use list::SkillList;
use ratatui::crossterm::event::Event as Input;
use ratatui::layout::Rect;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

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
    /// Which skills the listing holds; `auto` takes the Test box's message.
    pub mode: ListingMode,
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
    /// The rules the skills are judged by at first; `None`: the ones fitting the library
    /// (lazy-skills for the demo library, else spec).
    pub profile: Option<Profile>,
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
            profile: None,
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
    /// Which skills to read (again on a rescan).
    pub spec: LibrarySpec,
    pub lib: Arc<Library>,
    /// Bumped on every new library; worker results of an older one are dropped.
    pub generation: u64,
    pub theme: Theme,
    pub screen: Screen,
    pub mode: Mode,
    pub help: Option<u16>,
    pub list: SkillList,
    /// Each skill's token figures per level, as far as counted.
    pub costs: Vec<SkillTokens>,
    /// Each skill's diagnostics: the parse findings at first, every rule's once checked.
    pub diags: Vec<Vec<Diagnostic>>,
    pub diag_counts: Vec<Counts>,
    pub profile: Profile,
    /// The user picked `profile` (else it follows the library: lazy-skills for the demo).
    profile_chosen: bool,
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
    /// The resource selected in the detail pane (an index into its resources).
    pub resource_cursor: Option<usize>,
    /// A resource opened from the detail pane.
    pub viewer: Option<ResourceView>,
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
    /// For each composite skill, the skills its body names; `None` until read.
    pub links: Option<Vec<Vec<usize>>>,
    /// Each skill's cost when used, by its type; empty until the names in composite bodies
    /// are known.
    pub used: Vec<UseCost>,
    /// Which levels are counted for the current library.
    pub levels_done: [bool; 3],
    /// Stops for the counting runs under way: every level of the library, and the L1 recount a
    /// format change started. A new run of either kind stops the one it replaces.
    count_stops: [Arc<AtomicBool>; 2],
    pub counting: Option<Progress>,
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
    pub fn new(spec: LibrarySpec, lib: Library, opts: Options, tx: Sender<Event>) -> App {
        let mut app = App::empty(spec, opts, tx);
        app.set_library(lib);
        app
    }

    /// An app whose library is read on a worker: the first frame comes at once and the list
    /// fills in when the scan is done.
    pub fn scanning(spec: LibrarySpec, opts: Options, tx: Sender<Event>) -> App {
        let mut app = App::empty(spec, opts, tx);
        app.request_rescan();
        app
    }

    fn empty(spec: LibrarySpec, opts: Options, tx: Sender<Event>) -> App {
        let state_path = opts.state_path.clone().or_else(state::default_path);
        let home = opts.home.clone().or_else(dirs::home_dir);
        let mut app = App::blank(spec, &opts, tx);
        app.home = home;
        app.load_state(state_path);
        jobs::load_switches(app.home.clone(), app.tx.clone());
        app
    }

    fn blank(spec: LibrarySpec, opts: &Options, tx: Sender<Event>) -> App {
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
            spec,
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
            profile: opts.profile.unwrap_or_default(),
            profile_chosen: opts.profile.is_some(),
            checked: false,
            enabled: Vec::new(),
            state: None,
            switches: None,
            confirm: None,
            agent_readers: false,
            detail: None,
            detail_scroll: 0,
            resource_cursor: None,
            viewer: None,
            prompt: PromptSettings {
                format: FORMATS.iter().position(|f| *f == opts.format).unwrap_or(0),
                tier: TIERS.iter().position(|t| *t == opts.tier).unwrap_or(0),
                window,
                scroll: 0,
                mode: ListingMode::default(),
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
            links: None,
            used: Vec::new(),
            levels_done: [false; 3],
            count_stops: Default::default(),
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
        if !self.profile_chosen {
            self.profile = Profile::fitting(&lib);
        }
        self.enabled = match &self.state {
            Some(st) => lib.skills.iter().map(|s| st.is_enabled(s)).collect(),
            None => lib.skills.iter().map(|s| state::default_for(s).0).collect(),
        };
        debug_assert_eq!(self.enabled.len(), n);
        self.costs = vec![SkillTokens::default(); n];
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
        self.links = None;
        self.used = Vec::new();
        jobs::links(Arc::clone(&self.lib), self.generation, self.tx.clone());
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

    /// Counts `levels` on a worker, stopping the earlier run of the same kind (every level, or
    /// an L1 recount), whose results would only be thrown away.
    fn start_counting(&mut self, levels: Vec<Level>) {
        let slot = usize::from(levels == [Level::L1]);
        if slot == 0 {
            // A new library: the L1 recount of the old one is as stale.
            self.count_stops[1].store(true, Ordering::Relaxed);
        }
        self.count_stops[slot].store(true, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        self.count_stops[slot] = Arc::clone(&stop);
        jobs::count(
            Arc::clone(&self.lib),
            self.cache.clone(),
            FORMATS[self.prompt.format],
            levels,
            self.generation,
            stop,
            self.tx.clone(),
        );
    }

    /// Where everything goes on a terminal of `size`, as drawn now.
    pub fn areas(&self, size: ratatui::layout::Rect) -> crate::tui::layout::Areas {
        crate::tui::layout::layout(size, self.screen, self.mode == Mode::Detail)
    }

    /// The listing format L1 is counted in.
    pub fn format(&self) -> crate::core::listing::Format {
        FORMATS[self.prompt.format]
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
        let message = self.test.message.trim();
        let relevant = match &self.index {
            Some(index) if !message.is_empty() => {
                let competes = |i: usize| self.competes(i);
                Some(modes::relevant(
                    index,
                    message,
                    &competes,
                    &AutoOptions::default(),
                ))
            }
            _ => None,
        };
        let message = relevant.as_ref().map(|_| message.to_string());
        let req = jobs::PreviewRequest {
            selections: Selections::new(self.enabled.clone(), &|_| true, relevant.as_deref()),
            mode: self.prompt.mode,
            opts: self.listing_options(),
            message,
        };
        jobs::preview(
            Arc::clone(&self.lib),
            self.cache.clone(),
            req,
            self.preview_request,
            self.tx.clone(),
        );
    }

    /// Whether a skill competes for a message: switched on, and one an agent would load on its
    /// own (parsed, not shadowed, not closed to model invocation).
    pub fn competes(&self, i: usize) -> bool {
        self.enabled.get(i).copied().unwrap_or(false)
            && self.lib.skills.get(i).is_some_and(matching::may_trigger)
    }

    /// Works out every skill's cost when used again from the figures known so far.
    pub fn refresh_used(&mut self) {
        let Some(links) = &self.links else {
            return;
        };
        let levels: Vec<usage::Levels> = self
            .costs
            .iter()
            .map(|c| usage::Levels {
                l1: c.l1.map(u64::from),
                l2: c.l2.map(u64::from),
                schema: c.schema.map(u64::from),
            })
            .collect();
        self.used = usage::costs_when_used(&self.lib, &levels, links);
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
        let l1 = self.summary().l1;
        (l1.tokens, l1.pending)
    }

    /// The totals of the skills an agent would list, as far as counted.
    pub fn summary(&self) -> budget::Summary {
        let listed = budget::listed(&self.lib, &self.enabled);
        budget::summarize(&self.costs, &listed, self.levels_done)
    }

    /// A skill's figures (nothing known for an index out of range).
    pub fn costs_of(&self, skill: usize) -> &SkillTokens {
        static UNKNOWN: SkillTokens = SkillTokens::UNKNOWN;
        self.costs.get(skill).unwrap_or(&UNKNOWN)
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
        if self.viewer.is_some() && self.screen == Screen::Skills {
            return vec![Context::Resource, Context::Global];
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
        jobs::rescan(self.spec.clone(), self.cache.index_store(), self.tx.clone());
    }

    /// Runs every matcher on the test box's message; only skills an agent would consider (and
    /// that are switched on) compete.
    pub fn run_matchers(&mut self) {
        let Some(index) = self.index.clone() else {
            return;
        };
        let competes = |i: usize| self.competes(i);
        self.test.results = index.query_all(&self.test.message, &competes, TEST_TOP_K);
        // The auto listing mode lists what this message makes relevant.
        self.request_preview();
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
                if self.viewer.take().is_some() {
                    return;
                }
                if self.mode == Mode::Detail {
                    self.mode = Mode::List;
                }
            }
            Action::NextResource => self.move_resource_cursor(1),
            Action::PrevResource => self.move_resource_cursor(-1),
            Action::OpenResource => self.open_resource(),
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
                self.profile_chosen = true;
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
            Action::CycleMode => {
                self.prompt.mode = self.prompt.mode.next();
                self.prompt.scroll = 0;
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
            Action::RunDeps => self.run_deps(),
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
        let indices: Vec<usize> = self
            .checks
            .rows
            .iter()
            .copied()
            .filter(|&i| {
                self.lib
                    .skills
                    .get(i)
                    .is_some_and(|s| s.kind() == SkillKind::Executable)
            })
            .collect();
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
            deps: false,
        });
    }

    /// Moves the resource selection of the detail pane and scrolls the pane to show it.
    fn move_resource_cursor(&mut self, delta: isize) {
        let n = self.detail.as_ref().map_or(0, |d| d.resources.len());
        if n == 0 {
            self.set_status("this skill has no resource files", false);
            return;
        }
        let next = match self.resource_cursor {
            None if delta < 0 => n - 1,
            None => 0,
            Some(c) => c.saturating_add_signed(delta).min(n - 1),
        };
        self.resource_cursor = Some(next);
        let areas = self.areas(self.size);
        if let (Some(area), Some(skill)) = (areas.detail, self.selected()) {
            let inner = ratatui::widgets::Block::bordered().inner(area);
            let width = usize::from(inner.width);
            let height = usize::from(inner.height).max(1);
            if let Some(line) = crate::tui::view::detail::resource_line(self, skill, width, next) {
                let top = usize::from(self.detail_scroll);
                if line < top {
                    self.detail_scroll = u16::try_from(line).unwrap_or(u16::MAX);
                } else if line >= top + height {
                    self.detail_scroll = u16::try_from(line + 1 - height).unwrap_or(u16::MAX);
                }
            }
        }
    }

    /// Opens the selected resource, or goes back to the list when none is selected.
    fn open_resource(&mut self) {
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
        let tokens = self
            .costs
            .get(skill_idx)
            .and_then(|c| c.resources.iter().find(|r| r.rel == rel))
            .and_then(|r| r.tokens);
        if let Some(skill) = self.lib.skills.get(skill_idx) {
            self.viewer = Some(ResourceView::open(skill, &rel, tokens));
        }
    }

    /// Checks the declared dependencies of every skill that has some against the interpreter
    /// it would run with, in the probe's sandbox: runs an interpreter, so only on this action.
    fn run_deps(&mut self) {
        if self.checks.running() {
            return;
        }
        let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let worker = jobs::deps(
            Arc::clone(&self.lib),
            jobs::ProbeRun {
                cancel: Arc::clone(&cancel),
                sandbox: self.checks.sandbox,
            },
            self.generation,
            self.tx.clone(),
        );
        self.checks.run = Some(checks::Run {
            total: 0,
            done: 0,
            cancel,
            worker,
            deps: true,
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
        self.areas(self.size).list_rows().max(1)
    }

    fn scroll(&mut self, delta: isize) {
        if let Some(v) = &mut self.viewer
            && self.screen == Screen::Skills
        {
            let max = u16::try_from(v.lines.saturating_sub(1)).unwrap_or(u16::MAX);
            v.scroll = v
                .scroll
                .saturating_add_signed(delta.clamp(-9999, 9999) as i16)
                .min(max);
            return;
        }
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
        let areas = self.areas(self.size);
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
            self.resource_cursor = None;
            self.viewer = None;
        }
        if self.resource_cursor.is_some_and(|c| c >= d.resources.len()) {
            self.resource_cursor = None;
        }
        self.detail = Some(d);
    }
}
