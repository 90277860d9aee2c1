//! The app's shared state and its one update function: every key, click, tick, worker result
//! and file change goes through [`App::handle`]. Keys go to the open overlay or the current
//! screen ([`crate::tui::screens::Screen`]), which returns the shared effects for the app to
//! carry out. The state beside the screens is in small owned parts (`shared.rs`), and what the
//! app waits for from its workers in `work.rs`.

mod input;
mod manage;
mod matchers;
mod meaning;
mod outside;
mod overlay;
mod results;
mod routing;
mod toggle;

use crate::core::Library;
use crate::core::agents::{self, AgentSwitches};
use crate::core::listing::{Format, ListingOptions, Tier};
use crate::core::load::LibrarySpec;
use crate::core::matching;
use crate::core::model::Model;
use crate::core::modes::{self, AutoOptions, Selections};
use crate::core::probe::SandboxPreference;
use crate::core::request::ViewSettings;
use crate::core::rules::Profile;
use crate::core::skill::Level;
use crate::core::state;
use crate::core::tokens::SkillTokens;
use crate::core::usage;
use crate::core::watch::{self, Change};
use crate::tui::action::{Action, Screen};
use crate::tui::event::{Event, JobEvent};
use crate::tui::jobs;
use crate::tui::keymap::{Context, Keymap};
use crate::tui::screens::{self, Cmd, Ctx, Outcome, Screens};
use crate::tui::state::in_view::{InView, ViewChange};
use crate::tui::state::view::View;
use crate::tui::theme::Theme;
use ratatui::crossterm::event::Event as Input;
use ratatui::layout::Rect;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use crate::tui::jobs::ENCODING;
pub use crate::tui::screens::prompt::{FORMATS, Prompt, TIERS, WINDOWS};
pub use crate::tui::screens::test::{TEST_TOP_K, TestBox};

pub use crate::tui::screens::confirm::Confirm;
pub use crate::tui::screens::help::Help;
pub use crate::tui::screens::remove::Removal;
pub use crate::tui::screens::skills::Mode;
pub use crate::tui::state::parts::{
    ConfigInfo, Findings, Footer, Keys, Manage, Models, Requests, STATUS_TICKS, Status, Switches,
    Usage,
};
pub use crate::tui::state::work::{
    Counting, Embedding, Job, MatcherIndex, PreviewJob, Rescan, Watching,
};
pub use matchers::Matching;
pub use overlay::Overlay;

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
    /// The window was chosen (in the config file): an agent whose budget follows its client's
    /// model is priced on it, not on its model's window.
    pub window_chosen: bool,
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
            window_chosen: false,
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

pub struct App {
    /// Which skills to read, and the rescan that reads them again.
    pub rescan: Rescan,
    pub lib: Arc<Library>,
    /// Bumped on every new library; worker results of an older one are dropped.
    pub generation: u64,
    pub theme: Theme,
    pub screen: Screen,
    /// Whose view every screen shows (changed through [`App::set_view`]).
    pub in_view: InView,
    /// Every screen's own state.
    pub screens: Screens,
    /// The overlay open over the screens, if any.
    pub overlay: Option<Overlay>,
    /// Each skill's token figures per level, as far as counted.
    pub costs: Vec<SkillTokens>,
    pub counting: Counting,
    /// Each skill's cost when used, by its type.
    pub usage: Usage,
    pub findings: Findings,
    pub switches: Switches,
    pub manage: Manage,
    pub models: Models,
    pub keys: Keys,
    pub config: ConfigInfo,
    pub preview: PreviewJob,
    pub cache: jobs::Cache,
    /// The matchers' indexes: the library's and the chosen agent's view's.
    pub matching: Matching,
    pub footer: Footer,
    pub size: Rect,
    pub ticks: u64,
    pub watching: Watching,
    /// What `skillscope verify` found, for the Prompt screen.
    pub verify: crate::tui::state::parts::VerifyInfo,
    tx: std::sync::mpsc::Sender<Event>,
    /// What the run loop is asked to do: quit, open the editor, copy.
    pub requests: Requests,
}

impl App {
    /// An app over a library already read.
    pub fn new(
        spec: LibrarySpec,
        lib: Library,
        opts: Options,
        tx: std::sync::mpsc::Sender<Event>,
    ) -> App {
        let mut app = App::empty(spec, opts, tx);
        app.set_library(lib);
        app
    }

    /// An app whose library is read on a worker: the first frame comes at once and the list
    /// fills in when the scan is done.
    pub fn scanning(spec: LibrarySpec, opts: Options, tx: std::sync::mpsc::Sender<Event>) -> App {
        let mut app = App::empty(spec, opts, tx);
        app.request_rescan();
        app
    }

    fn empty(spec: LibrarySpec, opts: Options, tx: std::sync::mpsc::Sender<Event>) -> App {
        let state_path = opts.state_path.clone().or_else(state::default_path);
        let mut app = App::blank(spec, opts, tx);
        app.load_state(state_path);
        jobs::load_switches(app.switches.home.clone(), app.tx.clone());
        app
    }

    fn blank(spec: LibrarySpec, opts: Options, tx: std::sync::mpsc::Sender<Event>) -> App {
        // The cache's results; the clients on PATH only for the user's own run, not for tests
        // in a folder of their own.
        let verify = crate::tui::state::parts::VerifyInfo::load(
            opts.cache_path
                .as_deref()
                .and_then(std::path::Path::parent)
                .map_or_else(crate::core::verify::store::VerifyStore::open, |d| {
                    crate::core::verify::store::VerifyStore::at(d.join("verify.json"))
                }),
            opts.home.is_none(),
        );
        App {
            rescan: Rescan::new(spec),
            lib: Arc::new(Library::default()),
            generation: 0,
            theme: opts.theme,
            screen: Screen::Skills,
            in_view: InView::starting(opts.format),
            screens: Screens::new(
                opts.format,
                opts.tier,
                (opts.context_window, opts.window_chosen),
                opts.sandbox,
            ),
            overlay: None,
            costs: Vec::new(),
            counting: Counting::default(),
            usage: Usage::default(),
            findings: Findings {
                profile: opts.profile.unwrap_or_default(),
                chosen: opts.profile.is_some(),
                ..Findings::default()
            },
            switches: Switches {
                home: opts.home.or_else(dirs::home_dir),
                ..Switches::default()
            },
            manage: Manage::new(opts.data_path.unwrap_or_else(crate::core::paths::data_root)),
            models: Models::new(opts.model),
            keys: Keys {
                map: opts.keymap,
                log: opts.key_log,
            },
            config: ConfigInfo {
                notes: opts.config_notes,
                path: opts.config_path,
                info: opts.config_info,
            },
            preview: PreviewJob::default(),
            cache: jobs::Cache::new(opts.cache_path).with_encoding(opts.encoding),
            matching: Matching::default(),
            footer: Footer::default(),
            size: Rect::new(0, 0, 80, 24),
            ticks: 0,
            watching: Watching::new(opts.watch),
            verify,
            tx,
            requests: Requests::default(),
        }
    }

    /// The screens' context, beside the screens themselves: what a screen's `handle` may read
    /// of the shared state, borrowed while the screen is borrowed mutably.
    fn parts(&mut self) -> (&mut Screens, Ctx<'_>) {
        let cx = Ctx {
            lib: &self.lib,
            costs: &self.costs,
            diag_counts: &self.findings.counts,
            size: self.size,
            areas: crate::tui::layout::layout(
                self.size,
                self.screen,
                self.screens.skills.mode == Mode::Detail,
            ),
            cache: &self.cache,
            generation: self.generation,
            tx: &self.tx,
            preview: &self.preview,
            in_view: &self.in_view,
        };
        (&mut self.screens, cx)
    }

    /// The shared state as a draw reads it.
    pub fn view(&self) -> View<'_> {
        View {
            theme: &self.theme,
            lib: &self.lib,
            generation: self.generation,
            screen: self.screen,
            costs: &self.costs,
            counting: &self.counting,
            usage: &self.usage,
            findings: &self.findings,
            switches: &self.switches,
            models: &self.models,
            keys: &self.keys,
            config: &self.config,
            preview: &self.preview,
            footer: &self.footer,
            rescan: &self.rescan,
            encoding: self.cache.encoding,
            size: self.size,
            ticks: self.ticks,
            agent: self.in_view.agent(),
            in_view: &self.in_view,
            format: self.screens.prompt.format,
            window: self.screens.prompt.window(),
            client_model: self.in_view.client_model(),
            verify: &self.verify,
            message: &self.screens.test.message,
            test_ready: self.test_ready(),
            embedding: &self.matching.embedding,
            meaning_pending: self.matching.meaning.pending(),
        }
    }

    /// Replaces the library (first load or rescan), keeping the selection on the same folder.
    pub fn set_library(&mut self, lib: Library) {
        let keep = self.screens.skills.list.selected_dir(&self.lib);
        // Results of a running probe belong to the old library: stop it.
        self.screens.checks.stop();
        let n = lib.skills.len();
        if !lib.notes.is_empty() {
            self.set_status(lib.notes.join("; "), true);
        }
        self.generation += 1;
        self.findings.set(
            lib.skills
                .iter()
                .map(|s| s.parse_diagnostics.clone())
                .collect(),
        );
        self.findings.checked = false;
        if !self.findings.chosen {
            self.findings.profile = Profile::fitting(&lib);
        }
        self.findings.per_agent = crate::core::rules::has_agent_skills(&lib);
        self.switches.enabled = match &self.switches.state {
            Some(st) => lib.skills.iter().map(|s| st.is_enabled(s)).collect(),
            None => lib.skills.iter().map(|s| state::default_for(s).0).collect(),
        };
        debug_assert_eq!(self.switches.enabled.len(), n);
        self.costs = vec![SkillTokens::default(); n];
        self.switches.agent_readers = lib.skills.iter().any(|s| !agents::readers(s).is_empty());
        self.lib = Arc::new(lib);
        self.choose_view_agent();
        self.refresh_seen();
        self.screens.skills.list.invalidate();
        self.screens
            .skills
            .list
            .refresh(&self.lib, &self.costs, &self.findings.counts);
        self.screens
            .skills
            .list
            .select_dir(&self.lib, keep.as_deref());
        self.screens.checks.refresh(&self.lib);
        self.after_move();
        // The frontmatter rules first, for their findings to show while the counts run; unless
        // the library came whole from its index: its counts are then moments away, and every
        // rule runs once they are in (two workers at once would slow the counts on two cores).
        if !self.lib.from_index() {
            self.run_checks(false);
        }
        self.matching.index = MatcherIndex::Missing;
        self.matching.embedding = Embedding::Waiting;
        self.screens.test.results.clear();
        self.matching.meaning.forget();
        self.usage = Usage::default();
        self.counting.new_library();
        self.start_counting(&[Level::L1, Level::L2, Level::L3]);
    }

    /// Starts what waited for the counts of a new library (see [`Counting`]), once.
    fn start_after_counts(&mut self) {
        if !self.counting.end_wait() {
            return;
        }
        jobs::links(Arc::clone(&self.lib), self.generation, self.tx.clone());
        self.ensure_index();
        self.request_preview();
        // Watching means a watch on every folder: set up once the first screen is complete.
        if matches!(self.watching, Watching::Wanted) {
            self.start_watch();
        }
    }

    /// Runs the rules on a worker. Without `body` only the frontmatter rules run (fast); the
    /// body rules read every body, so after a new library they wait until the counts are in,
    /// which need the same disk and cores and matter more to the first screen.
    fn run_checks(&mut self, body: bool) {
        jobs::check(
            Arc::clone(&self.lib),
            // Until a profile is picked (`P`), each skill is judged by its agent's, as `check`
            // and `list` judge it.
            (
                self.findings.profile,
                self.findings.per_agent && !self.findings.chosen,
            ),
            (self.switches.enabled.clone(), self.switches.agents.clone()),
            (body, self.cache.clone()),
            self.generation,
            self.tx.clone(),
        );
    }

    /// Counts `levels` on a worker, stopping the earlier run of the same kind (every level, or
    /// an L1 recount), whose results would only be thrown away.
    fn start_counting(&mut self, levels: &[Level]) {
        let stop = self.counting.start(levels);
        jobs::count(
            Arc::clone(&self.lib),
            self.cache.clone(),
            FORMATS[self.screens.prompt.format],
            levels.to_vec(),
            self.generation,
            stop,
            self.tx.clone(),
        );
    }

    /// Where everything goes on a terminal of `size`, as drawn now.
    pub fn areas(&self, size: ratatui::layout::Rect) -> crate::tui::layout::Areas {
        crate::tui::layout::layout(size, self.screen, self.screens.skills.mode == Mode::Detail)
    }

    /// The listing's options: the view request of the agent in view at the Prompt screen's
    /// format, tier and window (what `prompt --agent` prints for the same choices), with the
    /// agents' settings as the settings worker read them.
    pub fn listing_options(&self) -> ListingOptions {
        let p = &self.screens.prompt;
        self.in_view
            .request(
                FORMATS[p.format],
                TIERS[p.tier],
                p.window(),
                p.window_chosen,
            )
            .listing_options(self.in_view.settings())
    }

    /// The next model of the agent in view's client, where its budget depends on the model;
    /// `false` when it does not (the key then cycles the token estimate).
    fn cycle_client_model(&mut self) -> bool {
        let Some(agent) = self.in_view.agent() else {
            return false;
        };
        let m = crate::core::agents::model::model(agent);
        let Some(client) = m.client_in_use().filter(|c| c.models.len() > 1) else {
            return false;
        };
        // From the model in effect (the settings' one until `m` is pressed) to the next.
        let now = self
            .in_view
            .client_model()
            .and_then(|cm| client.models.iter().position(|x| std::ptr::eq(x, cm)));
        let next = now.map_or(0, |i| (i + 1) % client.models.len());
        self.screens.prompt.window_chosen = false;
        self.set_view(ViewChange::Model(next));
        if let Some(cm) = client.models.get(next) {
            let opts = self.listing_options();
            let budget = opts
                .budget()
                .map_or_else(|| "no budget".to_string(), |b| format!("budget {b}"));
            self.set_status(
                format!(
                    "{}: {}-token window, {budget}",
                    cm.id,
                    crate::core::text::thousands(cm.context_window as u64)
                ),
                false,
            );
        }
        true
    }

    /// Builds the matchers' index on a worker if the Test box needs it (its screen is shown or it
    /// holds a message) and the library's counts are in; once per library.
    fn ensure_index(&mut self) {
        let wanted = self.screen == Screen::Test || !self.screens.test.message.trim().is_empty();
        let missing = matches!(self.matching.index, MatcherIndex::Missing);
        if !wanted || !missing || !self.view().loaded() || self.counting.waiting() {
            return;
        }
        self.matching.index = MatcherIndex::Building;
        jobs::index(Arc::clone(&self.lib), self.generation, self.tx.clone());
    }

    /// The matchers' index came for `generation`.
    fn on_indexed(&mut self, generation: u64, index: Arc<matching::Index>) {
        if generation == self.generation {
            // The semantic columns' vectors are made after, in the background: the other
            // matchers answer meanwhile. A build without the model has none to make.
            if matching::sentence::BUILT_IN {
                self.matching.embedding = Embedding::Running { done: 0, total: 0 };
                jobs::embed(
                    Arc::clone(&self.lib),
                    Arc::clone(&index),
                    generation,
                    self.tx.clone(),
                );
            } else {
                let e = matching::sentence::ModelError::NotBuiltIn;
                self.matching.embedding = Embedding::Failed(e.to_string());
            }
            self.matching.index = MatcherIndex::Ready(index);
            self.run_matchers();
        }
    }

    /// How far the semantic matchers' vectors have come.
    pub(super) fn on_embed_progress(&mut self, generation: u64, done: usize, total: usize) {
        if generation == self.generation
            && matches!(self.matching.embedding, Embedding::Running { .. })
        {
            self.matching.embedding = Embedding::Running { done, total };
        }
    }

    /// The semantic matchers' vectors are in the index (or could not be made).
    pub(super) fn on_embedded(&mut self, generation: u64, result: Result<(), String>) {
        if generation == self.generation {
            let made = result.is_ok();
            self.matching.embedding = match result {
                Ok(()) => Embedding::Done,
                Err(e) => Embedding::Failed(e),
            };
            self.run_matchers();
            // The overlap rule compares descriptions by meaning once every one has its vector:
            // a complete check runs again to take them (what is unchanged comes from the index).
            if made && self.findings.checked {
                self.run_checks(true);
            }
        }
    }

    /// No index is being built, the one the Test box needs (if any) is in, with its vectors,
    /// and the semantic columns answer the message shown.
    pub fn index_settled(&self) -> bool {
        !self.matching.index.building()
            && !matches!(self.matching.embedding, Embedding::Running { .. })
            && self.matching.meaning.settled()
            && (self.matching.index.get().is_some()
                || (self.screen != Screen::Test && self.screens.test.message.trim().is_empty()))
    }

    /// Asks for the prompt preview and every agent's prices again: what the listing depends on,
    /// every agent's figures depend on too. Nothing starts here: [`App::start_jobs`] starts
    /// what is asked for once the event that asked is handled, so however many parts of one
    /// key press ask, one preview and one pricing run start.
    pub fn request_preview(&mut self) {
        self.screens.budget.job.mark_stale();
        self.preview.job.mark_stale();
    }

    /// Starts the jobs asked for while an event was handled, each once: the preview on the
    /// Prompt screen, every agent's prices on the Budget screen (one at a time each, the newest
    /// request waiting for the run under way).
    fn start_jobs(&mut self) {
        if self.screen == Screen::Prompt && self.preview.job.is_stale() {
            self.start_preview();
        }
        let budget = &self.screens.budget;
        let wanted = budget.job.is_stale() || budget.budgets.is_none();
        if self.screen == Screen::Budget && self.view().loaded() && wanted {
            self.start_agent_budgets();
        }
    }

    /// Renders the prompt preview on a worker, or has the run under way run again.
    fn start_preview(&mut self) {
        let Some(request) = self.preview.job.start() else {
            return;
        };
        let message = self.screens.test.message.trim();
        let relevant = match self.matching.index.get() {
            Some(index) if !message.is_empty() => {
                let competes = |i: usize| matching::competes(&self.lib, &self.switches.on, i);
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
            selections: Selections::new(
                self.switches.enabled.clone(),
                &|_| true,
                relevant.as_deref(),
            ),
            mode: self.screens.prompt.mode,
            opts: self.listing_options(),
            message,
            agent: self.in_view.agent(),
            files: self.in_view.files().to_vec(),
            switches: self.switches.agents.clone(),
            model: self.in_view.client_model().map(|m| m.id),
        };
        jobs::preview(
            Arc::clone(&self.lib),
            self.cache.clone(),
            req,
            request,
            self.tx.clone(),
        );
    }

    /// Prices every agent's listing on a worker, or has the run under way run again.
    fn start_agent_budgets(&mut self) {
        let Some(request) = self.screens.budget.job.start() else {
            return;
        };
        jobs::agent_budgets(
            Arc::clone(&self.lib),
            self.cache.clone(),
            jobs::BudgetRequest {
                switches: self.switches.agents.clone(),
                enabled: self.switches.enabled.clone(),
                tier: TIERS[self.screens.prompt.tier],
                window: usize::try_from(self.screens.prompt.window()).unwrap_or(usize::MAX),
                chosen: self.in_view.agent_models(),
            },
            request,
            self.tx.clone(),
        );
    }

    /// Works out every skill's cost when used again from the figures known so far.
    pub fn refresh_used(&mut self) {
        let Some(links) = &self.usage.links else {
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
        self.usage.used = usage::costs_when_used(&self.lib, &levels, links);
    }

    /// The agents' switches as just read, with what the views depend on of the same settings:
    /// every view, listing, budget and match that applies them is worked out again, and their
    /// files are watched (again: one may have appeared).
    pub(super) fn on_switches(&mut self, switches: AgentSwitches, settings: ViewSettings) {
        let files = switches.files();
        self.switches.agents = Some(Arc::new(switches));
        self.switches.read += 1;
        let tx = self.tx.clone();
        self.switches.watch = watch::watch_files(&files, Duration::from_millis(250), move |c| {
            if matches!(c, Change::Paths(_)) {
                let _ = tx.send(Event::SettingsChanged);
            }
        })
        .ok();
        self.set_view(ViewChange::Settings(settings));
        if self.screen == Screen::Test {
            self.run_matchers();
        }
    }

    /// Starts the file watcher on a worker: adding a watch for every folder of a big library
    /// takes a while, and the keys must not wait for it.
    fn start_watch(&mut self) {
        self.watching = Watching::Starting;
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

    pub fn set_status(&mut self, text: impl Into<String>, error: bool) {
        self.footer.say(Status {
            text: text.into(),
            error,
            at: self.ticks,
        });
    }

    /// The keymap contexts in force, most specific first.
    pub fn contexts(&self) -> Vec<Context> {
        match &self.overlay {
            Some(o) => o.get().contexts(),
            None => vec![self.screens.get(self.screen).context(), Context::Global],
        }
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
                self.footer.expire(self.ticks);
            }
            Event::FsChanged(_) => self.request_rescan(),
            Event::SettingsChanged => {
                jobs::load_switches(self.switches.home.clone(), self.tx.clone());
            }
            Event::InputGone => self.requests.quit = true,
            Event::Job(job) => self.on_job(job),
        }
        self.start_jobs();
    }

    pub fn resize(&mut self, w: u16, h: u16) {
        self.size = Rect::new(0, 0, w, h);
        self.after_move();
    }

    pub fn request_rescan(&mut self) {
        if !self.rescan.start() {
            return;
        }
        jobs::rescan(
            self.rescan.spec.clone(),
            self.cache.index_store(),
            self.tx.clone(),
        );
    }

    /// Runs every matcher on the test box's message; only skills an agent would consider (and
    /// that are switched on) compete.
    pub fn run_matchers(&mut self) {
        if self.run_agent_matchers() {
            self.request_preview();
            return;
        }
        let Some(index) = self.matching.index.get().cloned() else {
            return;
        };
        let competing = matching::candidates(&self.lib, &self.switches.on);
        let competes = |i: usize| competing.get(i).copied().unwrap_or(false);
        // The lexical columns now; the semantic ones embed the message on a worker.
        let lexical = index.query_many(
            &self.screens.test.message,
            &matching::Matcher::LEXICAL,
            &competes,
            TEST_TOP_K,
        );
        self.screens.test.competing = competing.iter().filter(|c| **c).count();
        let question = crate::tui::answers::Question::new(
            self.generation,
            None,
            &self.screens.test.message,
            competing,
        );
        self.show_columns(lexical, crate::tui::answers::Over::Library(index), question);
        // The auto listing mode lists what this message makes relevant.
        self.request_preview();
    }

    pub fn apply(&mut self, action: Action) {
        let out = if let Some(out) = self.overlay_action(action) {
            out
        } else if action == Action::CycleAgent {
            // One agent is in view for every screen: each screen's agent key cycles that one.
            self.cycle_view_agent();
            Outcome::Done
        } else {
            let mut out = self.dispatch(self.screen, action);
            if out == Outcome::Ignored
                && let Some(owner) = screens::owner(action)
                && owner != self.screen
            {
                out = self.dispatch(owner, action);
            }
            if out == Outcome::Ignored {
                self.apply_global(action);
            }
            out
        };
        if let Outcome::Then(cmd) = out {
            self.run(cmd);
        }
        self.start_jobs();
    }

    /// The open overlay's answer to an action: it takes every key while it is open.
    fn overlay_action(&mut self, action: Action) -> Option<Outcome> {
        // How far an overlay scrolls depends on what it shows, which is drawn from the app: it
        // is taken out while it answers, for the view to borrow the rest.
        let mut open = self.overlay.take()?;
        let out = open.get_mut().handle(action, &self.view(), self.size);
        self.overlay = Some(open);
        Some(out)
    }

    /// Offers an action to a screen, with what it may read of the shared state.
    fn dispatch(&mut self, screen: Screen, action: Action) -> Outcome {
        let (screens, cx) = self.parts();
        screens.get_mut(screen).handle(action, &cx)
    }

    /// Carries out a screen's shared effect.
    fn run(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Status(text, error) => self.set_status(text, error),
            Cmd::Quit => self.requests.quit = true,
            Cmd::CloseOverlay(status) => {
                self.overlay = None;
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
            Cmd::RemoveConfirmed => self.remove_confirmed(),
            Cmd::RecountL1 => self.recount_l1(),
            Cmd::SetFiles(files) => self.set_view(ViewChange::Files(files)),
            Cmd::FreshPreview => {
                if self.view().loaded()
                    && (self.preview.job.is_stale() || self.preview.shown.is_none())
                {
                    self.request_preview();
                }
            }
            Cmd::NeedIndex => {
                self.ensure_index();
                self.ensure_agent_view();
            }
        }
    }

    /// L1 is the listing entry, which the format decides: every L1 is counted again.
    fn recount_l1(&mut self) {
        self.counting.recount_l1();
        for c in &mut self.costs {
            c.l1 = None;
        }
        self.start_counting(&[Level::L1]);
        self.request_preview();
    }

    /// The actions no screen took: the app's own (quit, help, screens, rescans, the model).
    fn apply_global(&mut self, action: Action) {
        match action {
            Action::Quit => self.requests.quit = true,
            Action::Help => self.overlay = Some(Overlay::Help(Help::default())),
            Action::NextScreen => {
                self.show(Screen::ALL[(self.screen.index() + 1) % Screen::ALL.len()]);
            }
            Action::PrevScreen => {
                let n = Screen::ALL.len();
                self.show(Screen::ALL[(self.screen.index() + n - 1) % n]);
            }
            Action::Show(s) => self.show(s),
            Action::CycleProfile => {
                let all = Profile::ALL;
                let i = all
                    .iter()
                    .position(|p| *p == self.findings.profile)
                    .unwrap_or(0);
                self.findings.profile = all[(i + 1) % all.len()];
                self.findings.chosen = true;
                self.findings.checked = false;
                self.run_checks(true);
            }
            Action::CycleModel
                if matches!(self.screen, Screen::Prompt | Screen::Budget)
                    && self.cycle_client_model() => {}
            Action::CycleModel => {
                self.models.cycle();
                let text = match &self.models.chosen {
                    Some(m) if m.is_exact_with(self.cache.encoding) => {
                        format!(
                            "model {m}: {} is its own tokenizer, figures are exact",
                            self.cache.encoding
                        )
                    }
                    Some(m) => format!(
                        "model {m}: ≈ figures are {} × {}, an estimate",
                        self.cache.encoding, m.factor
                    ),
                    None => format!(
                        "no model estimate: figures are {} counts",
                        self.cache.encoding
                    ),
                };
                self.set_status(text, false);
            }
            Action::Redraw => self.requests.redraw = true,
            Action::Rescan => {
                self.request_rescan();
                jobs::load_switches(self.switches.home.clone(), self.tx.clone());
            }
            Action::AddSkills => {
                let target = self.add_target_label();
                self.overlay = Some(Overlay::Add(screens::add::AddFlow::new(target)));
            }
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
        let (Some(area), Some(skill)) = (areas.detail, self.screens.skills.selected(&self.lib))
        else {
            return;
        };
        let inner = ratatui::widgets::Block::bordered().inner(area);
        let lines = screens::skills::pane::line_count(
            &self.view(),
            &self.screens.skills,
            skill,
            usize::from(inner.width),
        );
        let max = lines.saturating_sub(usize::from(inner.height));
        self.screens.skills.scroll_detail(delta, max);
    }

    /// Scrolls the detail pane to the resource selected in it: its line depends on everything
    /// the pane shows above it.
    fn reveal_resource(&mut self) {
        let areas = self.areas(self.size);
        let (Some(area), Some(skill), Some(k)) = (
            areas.detail,
            self.screens.skills.selected(&self.lib),
            self.screens.skills.resource_cursor,
        ) else {
            return;
        };
        let inner = ratatui::widgets::Block::bordered().inner(area);
        let width = usize::from(inner.width);
        if let Some(line) = screens::skills::pane::resource_line(
            &self.view(),
            &self.screens.skills,
            skill,
            width,
            k,
        ) {
            self.screens
                .skills
                .reveal_detail_line(line, usize::from(inner.height));
        }
    }

    /// Scrolls the detail pane to diagnostic `k` of the selected skill.
    pub(super) fn reveal_diagnostic(&mut self, k: usize) {
        let areas = self.areas(self.size);
        let (Some(area), Some(skill)) = (areas.detail, self.screens.skills.selected(&self.lib))
        else {
            return;
        };
        let inner = ratatui::widgets::Block::bordered().inner(area);
        let width = usize::from(inner.width);
        if let Some(line) = screens::skills::pane::diagnostic_line(
            &self.view(),
            &self.screens.skills,
            skill,
            width,
            k,
        ) {
            self.screens
                .skills
                .reveal_detail_line(line, usize::from(inner.height));
        }
    }

    fn show(&mut self, s: Screen) {
        if s != self.screen {
            // A message is about the screen it was said on.
            self.footer.status = None;
        }
        self.screen = s;
        if let Some(cmd) = self.screens.get_mut(s).shown() {
            self.run(cmd);
        }
        for other in Screen::ALL {
            if other != s {
                self.screens.get_mut(other).hidden();
            }
        }
        self.after_move();
    }

    /// After the selection or the layout changed: keep the list's selection on screen and the
    /// detail pane's data for the selected skill.
    fn after_move(&mut self) {
        self.screens.skills.after_move(&self.lib, self.size);
    }
}
