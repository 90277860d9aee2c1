//! The app's shared state and its one update function: every key, click, tick, worker result
//! and file change goes through [`App::handle`]. Keys go to the current screen
//! ([`crate::tui::screens`]), which returns the shared effects for the app to carry out.

/// The context a screen's `handle` gets: the shared state, borrowed field by field so the
/// screen's own state can be borrowed mutably beside it.
macro_rules! ctx {
    ($app:expr) => {
        crate::tui::screens::Ctx {
            lib: &$app.lib,
            costs: &$app.costs,
            diag_counts: &$app.diag_counts,
            size: $app.size,
            areas: crate::tui::layout::layout(
                $app.size,
                $app.screen,
                $app.skills.mode == crate::tui::screens::skills::Mode::Detail,
            ),
            cache: &$app.cache,
            generation: $app.generation,
            tx: &$app.tx,
        }
    };
}

mod input;
mod manage;
mod outside;
mod results;
pub mod routing;
mod toggle;

use crate::core::Library;
use crate::core::agents::{self, AgentSwitches};
use crate::core::budget;
use crate::core::diagnostic::{Counts, Diagnostic};
use crate::core::listing::{Format, ListingOptions, Tier};
use crate::core::load::LibrarySpec;
use crate::core::matching::{self, Index};
use crate::core::model::Model;
use crate::core::modes::{self, AutoOptions, Selections};
use crate::core::probe::SandboxPreference;
use crate::core::rules::Profile;
use crate::core::skill::Level;
use crate::core::skill::Skill;
use crate::core::state::{self, EnableState};
use crate::core::tokens::{Progress, SkillTokens};
use crate::core::usage::{self, UseCost};
use crate::core::watch::{self, Change, Watch};
use crate::tui::action::{Action, Screen};
use crate::tui::event::Preview;
use crate::tui::event::{Event, JobEvent};
use crate::tui::jobs;
use crate::tui::keymap::{Context, Keymap};
use crate::tui::screens::skills::Skills;
use crate::tui::screens::{self, Cmd, Outcome, checks};
use crate::tui::theme::Theme;
use ratatui::crossterm::event::Event as Input;
use ratatui::layout::Rect;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

pub use crate::tui::jobs::ENCODING;
pub use crate::tui::screens::prompt::{FORMATS, Prompt, TIERS, WINDOWS};
pub use crate::tui::screens::test::{TEST_TOP_K, TestBox};

pub use crate::tui::screens::confirm::Confirm;
pub use crate::tui::screens::help::Help;
pub use crate::tui::screens::skills::Mode;

/// A message in the footer, until it expires: [`STATUS_TICKS`] ticks after it was set (errors
/// twice as long), or at the next screen change.
#[derive(Debug, Clone)]
pub struct Status {
    pub text: String,
    pub error: bool,
    /// The tick count when it was set.
    pub at: u64,
}

/// How many ticks (200 ms each) a footer message stays: about four seconds.
pub const STATUS_TICKS: u64 = 20;

/// How many past messages the help overlay lists.
const MESSAGES_KEPT: usize = 8;

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
    /// skillscope's data folder (the trash of removed skills); `None`: the default place.
    pub data_path: Option<PathBuf>,
    /// Where each key press is logged with the context it came in and the action it chose
    /// (`SKILLSCOPE_KEY_LOG`): what a terminal's bytes became, for tests and bug reports.
    pub key_log: Option<PathBuf>,
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
            data_path: None,
            key_log: None,
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
            data_path: Some(dir.join("data")),
            // Tests choose their sandbox themselves, whatever the environment says.
            sandbox: SandboxPreference::Strongest,
            ..Options::default()
        }
    }
}

/// The Budget screen's per-agent figures and the worker that makes them: one at a time, the
/// newest request waiting, as for the prompt preview.
#[derive(Debug, Default)]
pub struct AgentBudgets {
    pub budgets: Option<Vec<crate::core::agents::budget::AgentBudget>>,
    request: u64,
    running: bool,
    /// Something changed while they were priced: price again when they are in.
    dirty: bool,
    /// Something changed while the Budget screen was not shown: price when it is.
    stale: bool,
}

pub struct App {
    /// Which skills to read (again on a rescan).
    pub spec: LibrarySpec,
    pub lib: Arc<Library>,
    /// Bumped on every new library; worker results of an older one are dropped.
    pub generation: u64,
    pub theme: Theme,
    pub screen: Screen,
    /// The Skills screen: the list, the detail pane and an open resource file.
    pub skills: Skills,
    /// The help overlay, when open.
    pub help: Option<Help>,
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
    /// The Add flow, when open.
    pub adding: Option<screens::add::AddFlow>,
    /// The skill (by index) whose removal waits for the user's yes.
    pub removing: Option<usize>,
    /// The agents' settings entries that name the skill being removed, for the confirmation.
    pub removing_refs: Vec<String>,
    /// The skill removed last, for undo.
    pub last_removed: Option<crate::core::manage::trash::TrashEntry>,
    /// skillscope's data folder: the trash, and temporary folders for sources.
    pub data_dir: PathBuf,
    /// Where removed skills go.
    pub trash: crate::core::manage::trash::Trash,
    /// Where the Add flow installs.
    pub add_agent: crate::core::source::Agent,
    pub add_scope: crate::core::source::Scope,
    /// Some skill is in a folder that an agent with per-skill switches reads.
    pub agent_readers: bool,
    /// The Prompt screen, whose listing settings the L1 figures everywhere follow.
    pub prompt: Prompt,
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
    /// The matchers' index, the composite links, the prompt preview and the file watcher of a new
    /// library wait until its levels are counted: the first screen shows the counts, and the
    /// cores are few.
    after_counts: bool,
    /// Stops for the counting runs under way: every level of the library, and the L1 recount a
    /// format change started. A new run of either kind stops the one it replaces.
    count_stops: [Arc<AtomicBool>; 2],
    pub counting: Option<Progress>,
    /// The prompt preview's listing, for the current toggles and settings. Rendered only for the
    /// Prompt screen: at 50,000 skills a listing is tens of megabytes.
    pub preview: Option<Preview>,
    /// The preview's listing wrapped to the width it is shown at.
    pub preview_wrap: crate::tui::view::wrapped::WrapCache,
    preview_request: u64,
    preview_running: bool,
    /// Something changed while a preview was rendered: render again when it is in.
    preview_dirty: bool,
    /// Something changed while the Prompt screen was not shown: render when it is.
    preview_stale: bool,
    pub cache: jobs::Cache,
    /// Every agent's listing priced, for the Budget screen: made when that screen is shown.
    pub agents: AgentBudgets,
    /// The matchers' index of the current library; `None` until the Test box needs it (its
    /// screen is shown, or it holds a message) and while it is being built.
    pub index: Option<Arc<Index>>,
    /// A worker is building the matchers' index.
    indexing: bool,
    pub test: TestBox,
    /// The Test box over the chosen agent's view.
    routing: routing::Routing,
    pub status: Option<Status>,
    /// The last footer messages, latest first, whole: the help overlay lists them, for a
    /// message cut short in the footer or gone before it was read.
    pub messages: std::collections::VecDeque<Status>,
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
    key_log: Option<PathBuf>,
    /// A file to open in the editor, for the run loop (which owns the terminal).
    edit_request: Option<crate::tui::external::EditRequest>,
    /// Text to put on the clipboard, for the run loop to send (OSC 52).
    clipboard: Option<String>,
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
            skills: Skills::default(),
            help: None,
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
            adding: None,
            removing: None,
            removing_refs: Vec::new(),
            last_removed: None,
            data_dir: opts
                .data_path
                .clone()
                .unwrap_or_else(crate::core::paths::data_root),
            trash: crate::core::manage::trash::Trash::at(
                &opts
                    .data_path
                    .clone()
                    .unwrap_or_else(crate::core::paths::data_root),
            ),
            add_agent: crate::core::source::Agent::ClaudeCode,
            add_scope: crate::core::source::Scope::User,
            agent_readers: false,
            prompt: Prompt::new(opts.format, opts.tier, opts.context_window),
            model: opts.model.clone(),
            models,
            keymap: opts.keymap.clone(),
            config_notes: opts.config_notes.clone(),
            config_path: opts.config_path.clone(),
            config_info: opts.config_info.clone(),
            checks: checks::Checks::new(opts.sandbox),
            index: None,
            indexing: false,
            links: None,
            used: Vec::new(),
            levels_done: [false; 3],
            count_stops: Default::default(),
            counting: None,
            preview: None,
            preview_wrap: Default::default(),
            preview_request: 0,
            preview_running: false,
            preview_dirty: false,
            preview_stale: false,
            cache: jobs::Cache::new(opts.cache_path.clone()).with_encoding(opts.encoding),
            agents: AgentBudgets::default(),
            test: TestBox::default(),
            routing: routing::Routing::default(),
            status: None,
            messages: std::collections::VecDeque::new(),
            size: Rect::new(0, 0, 80, 24),
            ticks: 0,
            quit: false,
            rescanning: false,
            rescan_again: false,
            loaded: false,
            after_counts: false,
            want_watch: opts.watch,
            watch_started: false,
            home: None,
            tx,
            watch: None,
            key_log: opts.key_log.clone(),
            edit_request: None,
            clipboard: None,
        }
    }

    /// Replaces the library (first load or rescan), keeping the selection on the same folder.
    pub fn set_library(&mut self, lib: Library) {
        let keep = self.skills.list.selected_dir(&self.lib);
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
        self.skills.list.invalidate();
        self.skills
            .list
            .refresh(&self.lib, &self.costs, &self.diag_counts);
        self.skills.list.select_dir(&self.lib, keep.as_deref());
        self.checks.refresh(&self.lib);
        self.after_move();
        // The frontmatter rules first, for their findings to show while the counts run; unless
        // the library came whole from its index: its counts are then moments away, and every
        // rule runs once they are in (two workers at once would slow the counts on two cores).
        if !self.lib.from_index() {
            self.run_checks(false);
        }
        self.index = None;
        self.indexing = false;
        self.test.results.clear();
        self.links = None;
        self.used = Vec::new();
        self.levels_done = [false; 3];
        self.start_counting(vec![Level::L1, Level::L2, Level::L3]);
        self.after_counts = true;
        self.loaded = true;
    }

    /// Starts what waited for the counts of a new library (see `after_counts`), once.
    pub(super) fn start_after_counts(&mut self) {
        if !std::mem::take(&mut self.after_counts) {
            return;
        }
        jobs::links(Arc::clone(&self.lib), self.generation, self.tx.clone());
        self.ensure_index();
        self.request_preview();
        // Watching means a watch on every folder: set up once the first screen is complete.
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
        crate::tui::layout::layout(size, self.screen, self.skills.mode == Mode::Detail)
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
        self.prompt.window()
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

    /// Builds the matchers' index on a worker if the Test box needs it (its screen is shown or it
    /// holds a message) and the library's counts are in; once per library.
    fn ensure_index(&mut self) {
        let wanted = self.screen == Screen::Test || !self.test.message.trim().is_empty();
        if !wanted || self.index.is_some() || self.indexing || !self.loaded || self.after_counts {
            return;
        }
        self.indexing = true;
        jobs::index(Arc::clone(&self.lib), self.generation, self.tx.clone());
    }

    /// The matchers' index came for `generation`.
    pub(super) fn on_indexed(&mut self, generation: u64, index: Arc<Index>) {
        if generation == self.generation {
            self.indexing = false;
            self.index = Some(index);
            self.run_matchers();
        }
    }

    /// No index is being built, and the one the Test box needs (if any) is in.
    pub fn index_settled(&self) -> bool {
        !self.indexing
            && (self.index.is_some()
                || (self.screen != Screen::Test && self.test.message.trim().is_empty()))
    }

    /// Renders the prompt preview again on a worker: one at a time, the newest request waiting.
    /// Off the Prompt screen it waits until that screen is shown.
    pub fn request_preview(&mut self) {
        // What the listing depends on, every agent's figures depend on too.
        self.agents.stale = true;
        self.request_agent_budgets();
        if self.screen != Screen::Prompt {
            self.preview_stale = true;
            return;
        }
        self.preview_stale = false;
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
            agent: self.prompt.agent(),
            files: self.prompt.files.clone(),
        };
        jobs::preview(
            Arc::clone(&self.lib),
            self.cache.clone(),
            req,
            self.preview_request,
            self.tx.clone(),
        );
    }

    /// Prices every agent's listing again on a worker, once the Budget screen is shown.
    pub fn request_agent_budgets(&mut self) {
        let wanted = self.agents.stale || self.agents.budgets.is_none();
        if self.screen != Screen::Budget || !self.loaded || !wanted {
            return;
        }
        if self.agents.running {
            self.agents.dirty = true;
            return;
        }
        self.agents.stale = false;
        self.agents.running = true;
        self.agents.request += 1;
        jobs::agent_budgets(
            Arc::clone(&self.lib),
            self.cache.clone(),
            self.enabled.clone(),
            TIERS[self.prompt.tier],
            usize::try_from(self.window()).unwrap_or(usize::MAX),
            self.agents.request,
            self.tx.clone(),
        );
    }

    /// The per-agent figures shown are the ones for the current toggles and settings.
    pub fn agents_settled(&self) -> bool {
        !self.agents.running
            && !self.agents.dirty
            && (self.screen != Screen::Budget
                || (self.agents.budgets.is_some() && !self.agents.stale))
    }

    /// Whether a skill competes for a message: switched on, and one an agent would load on its
    /// own (parsed, not shadowed, not closed to model invocation).
    pub fn competes(&self, i: usize) -> bool {
        matching::competes(&self.lib, &self.enabled, i)
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
        !self.preview_running
            && !self.preview_dirty
            && (self.screen != Screen::Prompt || (self.preview.is_some() && !self.preview_stale))
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

    /// The skill selected in the list.
    pub fn selected(&self) -> Option<&Skill> {
        self.skills.selected(&self.lib)
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
        let status = Status {
            text: text.into(),
            error,
            at: self.ticks,
        };
        if self.messages.front().is_none_or(|m| m.text != status.text) {
            self.messages.push_front(status.clone());
            self.messages.truncate(MESSAGES_KEPT);
        }
        self.status = Some(status);
    }

    /// The keymap contexts in force, most specific first.
    pub fn contexts(&self) -> Vec<Context> {
        if let Some(f) = &self.adding {
            return vec![f.context(), Context::Global];
        }
        if self.confirm.is_some() || self.removing.is_some() {
            return vec![Context::Confirm];
        }
        if self.help.is_some() {
            return vec![Context::Help];
        }
        let first = match self.screen {
            Screen::Skills => self.skills.context(),
            Screen::Prompt if self.prompt.files_box.is_some() => Context::Files,
            Screen::Prompt => Context::Prompt,
            Screen::Test if self.test.typing => Context::Test,
            Screen::Test => Context::Results,
            Screen::Checks => Context::Checks,
            Screen::Budget => Context::Budget,
        };
        vec![first, Context::Global]
    }

    /// What the app keeps across runs, written before it ends: counts a worker made since the
    /// last save (the preview's listing, a count finished just before quitting) and what the
    /// rules learned for the library index. Each waits for a save already under way.
    pub fn on_exit(&self) {
        self.cache.save_opened();
        let _ = self.lib.save_index();
    }

    pub fn handle(&mut self, ev: Event) {
        match ev {
            Event::Input(Input::Key(key)) => self.on_key(key),
            Event::Input(Input::Mouse(m)) => self.on_mouse(m),
            Event::Input(Input::Resize(w, h)) => self.resize(w, h),
            Event::Input(_) => {}
            Event::Tick => {
                self.ticks = self.ticks.wrapping_add(1);
                self.expire_status();
            }
            Event::FsChanged(_) => self.request_rescan(),
            Event::InputGone => self.quit = true,
            Event::Job(job) => self.on_job(job),
        }
    }

    /// Clears the footer message once it has been shown long enough.
    fn expire_status(&mut self) {
        if let Some(s) = &self.status {
            let ttl = if s.error {
                2 * STATUS_TICKS
            } else {
                STATUS_TICKS
            };
            if self.ticks.wrapping_sub(s.at) >= ttl {
                self.status = None;
            }
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
        if self.run_agent_matchers() {
            self.request_preview();
            return;
        }
        let Some(index) = self.index.clone() else {
            return;
        };
        let competes = |i: usize| self.competes(i);
        let results = index.query_all(&self.test.message, &competes, TEST_TOP_K);
        let competing = (0..self.lib.skills.len()).filter(|&i| competes(i)).count();
        self.test.results = results;
        self.test.competing = competing;
        // The auto listing mode lists what this message makes relevant.
        self.request_preview();
    }

    pub fn apply(&mut self, action: Action) {
        if let Some(out) = self.manage_overlay(action) {
            if let Outcome::Then(cmd) = out {
                self.run(cmd);
            }
            return;
        }
        // An overlay takes every key while it is open.
        let confirm_max = self
            .confirm
            .as_ref()
            .map(|c| screens::confirm::max_scroll(self, c, self.size));
        let overlay = if let (Some(c), Some(max)) = (&mut self.confirm, confirm_max) {
            Some(c.handle(action, max))
        } else if self.help.is_some() {
            let (max, page) = screens::help::max_scroll(self, self.size);
            self.help.as_mut().map(|h| h.handle(action, max, page))
        } else {
            None
        };
        if let Some(out) = overlay {
            if let Outcome::Then(cmd) = out {
                self.run(cmd);
            }
            return;
        }
        let mut out = self.dispatch(self.screen, action);
        if out == Outcome::Ignored
            && let Some(owner) = screens::owner(action)
            && owner != self.screen
        {
            out = self.dispatch(owner, action);
        }
        match out {
            Outcome::Ignored => self.apply_global(action),
            Outcome::Done => {}
            Outcome::Then(cmd) => self.run(cmd),
        }
    }

    /// Offers an action to a screen, with what it may read of the shared state.
    fn dispatch(&mut self, screen: Screen, action: Action) -> Outcome {
        let cx = ctx!(self);
        let body = cx.areas.body;
        match screen {
            Screen::Skills => self.skills.handle(action, &cx),
            Screen::Prompt => self.prompt.handle(action, self.preview_lines(), body),
            Screen::Test if action == Action::CycleAgent => self.prompt.cycle_agent(),
            Screen::Test => self.test.handle(action, body),
            Screen::Checks => self.checks.handle(action, &cx),
            Screen::Budget => Outcome::Ignored,
        }
    }

    /// How many screen rows the listing shown on the Prompt screen takes, wrapped to its box.
    fn preview_lines(&self) -> usize {
        let body = self.areas(self.size).body;
        self.preview.as_ref().map_or(0, |p| {
            self.preview_wrap
                .get(&p.listing.text, screens::prompt::text_width(body))
                .rows()
        })
    }

    /// Carries out a screen's shared effect.
    fn run(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Status(text, error) => self.set_status(text, error),
            Cmd::Quit => self.quit = true,
            Cmd::CloseOverlay(status) => {
                self.help = None;
                self.confirm = None;
                self.adding = None;
                self.removing = None;
                if let Some(text) = status {
                    self.set_status(text, false);
                }
            }
            Cmd::PlanAgentToggle(scope, on) => self.plan_agent_toggle(scope, on),
            Cmd::WriteAgentToggle => self.apply_agent_toggle(),
            Cmd::RunMatchers => self.run_matchers(),
            Cmd::ToggleSelected => self.toggle_selected(),
            Cmd::RevealResource => self.reveal_resource(),
            Cmd::ScrollDetail(delta) => self.scroll_detail(delta),
            Cmd::Preview => self.request_preview(),
            Cmd::FetchSource(source) => self.fetch_source(source),
            Cmd::InstallChecked => self.install_checked(),
            Cmd::CycleAddTarget(agent) => self.cycle_add_target(agent),
            Cmd::RecountL1 => self.recount_l1(),
            Cmd::ViewChanged { recount } => {
                if recount {
                    self.recount_l1();
                }
                // The Test box follows the agent and the open files (and the preview with it).
                self.run_matchers();
                if !recount {
                    self.request_preview();
                }
            }
        }
    }

    /// L1 is the listing entry, which the format decides: every L1 is counted again.
    fn recount_l1(&mut self) {
        self.levels_done[0] = false;
        for c in &mut self.costs {
            c.l1 = None;
        }
        self.start_counting(vec![Level::L1]);
        self.request_preview();
    }

    /// The actions no screen took: the app's own (quit, help, screens, rescans, the model).
    fn apply_global(&mut self, action: Action) {
        match action {
            Action::Quit => self.quit = true,
            Action::Help => self.help = Some(Help::default()),
            Action::NextScreen => {
                self.show(Screen::ALL[(self.screen.index() + 1) % Screen::ALL.len()])
            }
            Action::PrevScreen => {
                let n = Screen::ALL.len();
                self.show(Screen::ALL[(self.screen.index() + n - 1) % n]);
            }
            Action::Show(s) => self.show(s),
            Action::CycleProfile => {
                let all = Profile::ALL;
                let i = all.iter().position(|p| *p == self.profile).unwrap_or(0);
                self.profile = all[(i + 1) % all.len()];
                self.profile_chosen = true;
                self.checked = false;
                self.run_checks(true);
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
            Action::Rescan => self.request_rescan(),
            Action::AddSkills => self.adding = Some(screens::add::AddFlow::new()),
            Action::RemoveSkill => self.ask_remove(),
            Action::UndoRemove => self.undo_remove(),
            Action::CheckUpdates => self.check_updates(),
            Action::Edit => self.edit_selected(),
            Action::CopyName | Action::CopyPath | Action::CopyListing => self.copy(action),
            Action::NextDiagnostic => self.move_diagnostic_cursor(1),
            Action::PrevDiagnostic => self.move_diagnostic_cursor(-1),
            // The scroll keys on a screen with nothing to scroll (Budget), the confirmation's
            // keys outside it, and the screens' own actions, which the screens took.
            _ => {}
        }
    }

    /// Scrolls the detail pane, no further than its last line at the bottom of the pane.
    fn scroll_detail(&mut self, delta: isize) {
        let areas = self.areas(self.size);
        let (Some(area), Some(skill)) = (areas.detail, self.selected()) else {
            return;
        };
        let inner = ratatui::widgets::Block::bordered().inner(area);
        let lines = screens::skills::detail::line_count(self, skill, usize::from(inner.width));
        let max = lines.saturating_sub(usize::from(inner.height));
        self.skills.scroll_detail(delta, max);
    }

    /// Scrolls the detail pane to the resource selected in it: its line depends on everything
    /// the pane shows above it.
    fn reveal_resource(&mut self) {
        let areas = self.areas(self.size);
        let (Some(area), Some(skill), Some(k)) =
            (areas.detail, self.selected(), self.skills.resource_cursor)
        else {
            return;
        };
        let inner = ratatui::widgets::Block::bordered().inner(area);
        let width = usize::from(inner.width);
        if let Some(line) = screens::skills::detail::resource_line(self, skill, width, k) {
            self.skills
                .reveal_detail_line(line, usize::from(inner.height));
        }
    }

    /// Scrolls the detail pane to diagnostic `k` of the selected skill.
    pub(super) fn reveal_diagnostic(&mut self, k: usize) {
        let areas = self.areas(self.size);
        let (Some(area), Some(skill)) = (areas.detail, self.selected()) else {
            return;
        };
        let inner = ratatui::widgets::Block::bordered().inner(area);
        let width = usize::from(inner.width);
        if let Some(line) = screens::skills::detail::diagnostic_line(self, skill, width, k) {
            self.skills
                .reveal_detail_line(line, usize::from(inner.height));
        }
    }

    fn show(&mut self, s: Screen) {
        if s != self.screen {
            // A message is about the screen it was said on.
            self.status = None;
        }
        self.screen = s;
        match s {
            Screen::Prompt if self.loaded && (self.preview_stale || self.preview.is_none()) => {
                self.request_preview();
            }
            Screen::Budget => self.request_agent_budgets(),
            Screen::Test => {
                // Arriving on the Test screen puts the keys in its message box.
                self.test.typing = true;
                self.ensure_index();
                self.ensure_agent_view();
            }
            _ => {}
        }
        if s != Screen::Skills && self.skills.mode == Mode::Filter {
            self.skills.mode = Mode::List;
        }
        self.after_move();
    }

    /// The wheel on a screen: the same as the arrow keys, three lines at a time.
    fn scroll(&mut self, delta: isize) {
        let body = self.areas(self.size).body;
        match self.screen {
            Screen::Skills => {
                if let Outcome::Then(cmd) = self.skills.scroll(delta, &self.lib, self.size) {
                    self.run(cmd);
                }
            }
            Screen::Prompt => {
                let lines = self.preview_lines();
                let _ = self.prompt.scroll(delta, lines, body);
            }
            Screen::Checks => self.checks.scroll(delta, body),
            Screen::Test => self.test.scroll_by(delta),
            Screen::Budget => {}
        }
    }

    /// After the selection or the layout changed: keep the list's selection on screen and the
    /// detail pane's data for the selected skill.
    fn after_move(&mut self) {
        self.skills.after_move(&self.lib, self.size);
    }
}
