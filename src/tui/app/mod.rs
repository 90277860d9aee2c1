//! The app's shared state and its one update function: every key, click, tick, worker result
//! and file change goes through [`App::handle`]. Keys go to the open overlay or the current
//! screen ([`crate::tui::screens::Screen`]), which returns the shared effects for the app to
//! carry out. The state beside the screens is in small owned parts (`state/parts.rs`), and what
//! the app waits for from its workers in `state/work.rs`; the screens start and receive their
//! own jobs, with what they need of the shared state lent for the call (`App::with_test`,
//! `App::parts`).

mod actions;
mod input;
mod library;
mod options;
mod outside;
mod overlay;
mod results;
mod toggle;

use crate::core::Library;
use crate::core::front::load::LibrarySpec;
use crate::core::front::state;
use crate::core::listing::ListingOptions;
use crate::core::matching;
use crate::core::pricing::modes::{self, AutoOptions, Selections};
use crate::core::tokens::SkillTokens;
use crate::tui::action::Screen;
use crate::tui::event::Event;
use crate::tui::jobs;
use crate::tui::keymap::Context;
use crate::tui::screens::{Ctx, Screens};
use crate::tui::state::in_view::{InView, ViewChange};
use crate::tui::state::view::View;
use crate::tui::theme::Theme;
use ratatui::crossterm::event::Event as Input;
use ratatui::layout::Rect;
use std::sync::Arc;

pub use crate::tui::jobs::ENCODING;
pub use crate::tui::screens::prompt::{FORMATS, Prompt, TIERS, WINDOWS};
pub use crate::tui::screens::test::{TEST_TOP_K, TestBox, TestCx};

pub use crate::tui::screens::confirm::Confirm;
pub use crate::tui::screens::help::Help;
pub use crate::tui::screens::remove::Removal;
pub use crate::tui::screens::skills::Mode;
pub use crate::tui::state::matching::Matching;
pub use crate::tui::state::parts::{
    ConfigInfo, Findings, Footer, Keys, Manage, Models, Requests, STATUS_TICKS, Status, Switches,
    Usage,
};
pub use crate::tui::state::work::{
    Counting, Embedding, Job, MatcherIndex, PreviewJob, Rescan, Watching,
};
pub use options::Options;
pub use overlay::Overlay;

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
        let mut app = App::blank(spec, opts, tx);
        app.set_library(lib);
        app
    }

    /// An app whose library is read on a worker: the first frame comes at once and the list
    /// fills in when the scan is done.
    pub fn scanning(spec: LibrarySpec, opts: Options, tx: std::sync::mpsc::Sender<Event>) -> App {
        let mut app = App::blank(spec, opts, tx);
        app.request_rescan();
        app
    }

    /// An app with no library yet, with skillscope's own state file read (a bad one is kept
    /// aside by the state module and reported) and the agents' settings asked for.
    pub(super) fn blank(
        spec: LibrarySpec,
        opts: Options,
        tx: std::sync::mpsc::Sender<Event>,
    ) -> App {
        let state_path = opts.state_path.clone().or_else(state::default_path);
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
        let mut app = App {
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
            manage: Manage::new(
                opts.data_path
                    .unwrap_or_else(crate::core::files::paths::data_root),
            ),
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
        };
        match state_path {
            Some(path) => {
                let (st, diags) = state::EnableState::load(&path);
                if let Some(d) = diags.first() {
                    app.set_status(d.message.clone(), true);
                }
                app.switches.state = Some(st);
            }
            None => app.set_status(
                "no config folder: toggles are not saved (set SKILLSCOPE_CONFIG_DIR)",
                true,
            ),
        }
        jobs::load_switches(app.switches.home.clone(), app.tx.clone());
        app
    }

    /// The screens' context, beside the screens themselves: what a screen's `handle` may read
    /// of the shared state, borrowed while the screen is borrowed mutably.
    pub(super) fn parts(&mut self) -> (&mut Screens, Ctx<'_>) {
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
            test_ready: self.matching.ready(
                crate::tui::state::matching::view_key(
                    self.generation,
                    self.switches.read,
                    &self.in_view,
                )
                .as_ref(),
            ),
            embedding: &self.matching.embedding,
            meaning_pending: self.matching.meaning.pending(),
        }
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
    pub(super) fn cycle_client_model(&mut self) -> bool {
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
                    crate::core::words::text::thousands(cm.context_window as u64)
                ),
                false,
            );
        }
        true
    }

    /// No index is being built, the one the Test box needs (if any) is in, with its vectors,
    /// and the semantic columns answer the message shown.
    pub fn index_settled(&self) -> bool {
        let wanted = self.screen == Screen::Test || !self.screens.test.message.trim().is_empty();
        self.matching.settled(wanted)
    }

    /// Lends the Test box what its jobs need of the shared state for `f`, then asks for the
    /// preview again if the box said the listing follows.
    pub fn with_test<R>(&mut self, f: impl FnOnce(&mut TestBox, &mut TestCx) -> R) -> R {
        let may_build = self.view().loaded() && !self.counting.waiting();
        let mut cx = TestCx {
            lib: &self.lib,
            generation: self.generation,
            switches: &self.switches,
            in_view: &self.in_view,
            matching: &mut self.matching,
            encoding: self.cache.encoding,
            tx: &self.tx,
            shown: self.screen == Screen::Test,
            may_build,
            preview: false,
        };
        let out = f(&mut self.screens.test, &mut cx);
        if cx.preview {
            self.request_preview();
        }
        out
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
    pub(super) fn start_jobs(&mut self) {
        if self.screen == Screen::Prompt && self.preview.job.is_stale() {
            self.start_preview();
        }
        let budget = &self.screens.budget;
        let wanted = budget.job.is_stale() || budget.budgets.is_none();
        if self.screen == Screen::Budget && self.view().loaded() && wanted {
            self.screens.budget.start(
                &self.lib,
                &self.cache,
                jobs::BudgetRequest {
                    switches: self.switches.agents.clone(),
                    enabled: self.switches.enabled.clone(),
                    tier: TIERS[self.screens.prompt.tier],
                    window: usize::try_from(self.screens.prompt.window()).unwrap_or(usize::MAX),
                    chosen: self.in_view.agent_models(),
                },
                &self.tx,
            );
        }
    }

    /// Renders the prompt preview on a worker, or has the run under way run again.
    pub(super) fn start_preview(&mut self) {
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

    /// Runs every matcher on the Test box's message (the auto listing mode follows).
    pub fn run_matchers(&mut self) {
        self.with_test(TestBox::run_matchers);
    }
}
