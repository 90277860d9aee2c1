//! Work that must not block the UI — rescans, token counts, probes — run on worker threads and
//! report back on the event channel.

use crate::core::Library;
use crate::core::agents::{self, AgentSwitches};
use crate::core::front::load::{self, LibrarySpec};
use crate::core::index::IndexStore;
use crate::core::listing::{self, Format, ListingOptions};
use crate::core::matching::Index;
use crate::core::matching::semantic::SkillVectors;
use crate::core::pricing::modes::{self, ListingMode, Selections};
use crate::core::probe::dependencies;
use crate::core::probe::{self, ProbeOptions, ProbeStore, SandboxPreference};
use crate::core::rules::{self, CheckOptions, Profile};
use crate::core::skill::Level;
use crate::core::tokens::{self, Encoding, TokenCache};
use crate::tui::event::{Event, JobEvent, Preview};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

/// Reads the library again (through the library index beside the token cache) and sends it
/// back whole.
pub fn rescan(spec: LibrarySpec, store: IndexStore, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let lib = spec.load_with(&store);
        let _ = tx.send(Event::Job(JobEvent::Rescanned(Box::new(lib))));
    });
}

/// Runs the rules of `profile`, with `body` the body rules too (they read every body, so never
/// on the UI thread). `enabled` says which skills are switched on: only those compete in the overlap rule.
/// The body's token limit is counted in `cache`'s encoding, as `check` counts it in its own.
pub fn check(
    lib: Arc<Library>,
    (profile, per_agent): (Profile, bool),
    (enabled, switches): (Vec<bool>, Option<Arc<crate::core::agents::AgentSwitches>>),
    (body, cache): (bool, Cache),
    generation: u64,
    tx: Sender<Event>,
) {
    std::thread::spawn(move || {
        let on = |i: usize| enabled.get(i).copied().unwrap_or(false);
        // A shadowed copy as the agents that read it resolve its name, as `check` says it.
        let shadowed = lib
            .agent
            .is_none()
            .then(|| crate::core::agents::view::shadowed_findings(&lib, switches.as_deref()));
        // The config file's `[rules]` weigh findings here as in `check`.
        let selection = crate::config::active().map(|c| rules::select::Selection {
            config: c.rules.clone(),
            ..Default::default()
        });
        let opts = CheckOptions {
            per_agent,
            profile,
            body,
            tokens: body.then(|| (cache.encoding, cache.get_reporting(&tx))),
            enabled: Some(&on),
            selection: selection.as_ref(),
            // The vectors the library index remembers: the app embeds only for the Test box.
            vectors: None,
            shadowed: shadowed.as_deref(),
        };
        let diagnostics = rules::check_library(&lib, &opts);
        // What the body rules read is kept for the next start.
        let _ = lib.save_index();
        let _ = tx.send(Event::Job(JobEvent::Checked {
            generation,
            profile,
            body,
            diagnostics,
        }));
    });
}

/// How a probe run is controlled.
pub struct ProbeRun {
    /// Set to kill the running probes; the waiting ones never start.
    pub cancel: Arc<AtomicBool>,
    pub sandbox: SandboxPreference,
}

/// Runs `--help-json` on the given skills (several at once, each sandboxed by the probe module)
/// and reports each as it finishes. The worker ends once every probe is reaped; `None` when it
/// could not be started (then nothing runs, and no report comes).
pub fn probe(
    lib: Arc<Library>,
    cache: Cache,
    indices: Vec<usize>,
    run: ProbeRun,
    generation: u64,
    tx: Sender<Event>,
) -> Option<JoinHandle<()>> {
    let done_tx = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("probes".into())
        .spawn(move || {
            let opts = ProbeOptions {
                cancel: Some(run.cancel),
                sandbox: run.sandbox,
                ..ProbeOptions::default()
            };
            let report_tx = tx.clone();
            let cache = &cache;
            let reports = probe::probe_all(&lib, &indices, &opts, &move |_, report| {
                let schema_tokens = report
                    .l3_schema_text()
                    .map(|s| tokens::count_text(s, cache.encoding, cache.get()));
                let _ = report_tx.send(Event::Job(JobEvent::Probed {
                    generation,
                    report: Box::new(report.clone()),
                    schema_tokens,
                }));
            });
            // Remembered so that the schemas count in L3 next time, here and in the CLI.
            let mut store = cache.probe_store_reporting(&tx);
            for r in &reports {
                store.record(r);
            }
            let _ = store.save();
            let _ = tx.send(Event::Job(JobEvent::ProbesDone { generation }));
        });
    if let Ok(worker) = spawned {
        Some(worker)
    } else {
        let _ = done_tx.send(Event::Job(JobEvent::ProbesDone { generation }));
        None
    }
}

/// Checks the declared dependencies of every skill that has some, reporting each as it
/// finishes. Setting `cancel` kills the running checks.
pub fn deps(
    lib: Arc<Library>,
    run: ProbeRun,
    generation: u64,
    tx: Sender<Event>,
) -> Option<JoinHandle<()>> {
    let done_tx = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("deps".into())
        .spawn(move || {
            // The same options, and so the same sandbox, as the `--help-json` probes.
            let opts = ProbeOptions {
                cancel: Some(run.cancel),
                sandbox: run.sandbox,
                ..ProbeOptions::default()
            };
            let all: Vec<usize> = (0..lib.skills.len()).collect();
            let report_tx = tx.clone();
            let reports = dependencies::check_all(&lib, &all, &opts, &move |skill, report| {
                let _ = report_tx.send(Event::Job(JobEvent::DepsChecked {
                    generation,
                    skill,
                    report: Box::new(report.clone()),
                }));
            });
            let _ = tx.send(Event::Job(JobEvent::DepsDone {
                generation,
                checked: reports.len(),
            }));
        });
    if let Ok(worker) = spawned {
        Some(worker)
    } else {
        let _ = done_tx.send(Event::Job(JobEvent::DepsDone {
            generation,
            checked: 0,
        }));
        None
    }
}

/// Reads every agent's settings files (home and project) for the per-agent badges and toggles.
pub fn load_switches(home: Option<std::path::PathBuf>, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let cwd = std::env::current_dir()
            .ok()
            .or_else(|| home.clone())
            .unwrap_or_default();
        let project = agents::project_root(&cwd, home.as_deref());
        // What a view depends on (each client's model and budget overrides) is read here with
        // the switches, from the same files, so no key waits on a settings file.
        let env = |k: &str| std::env::var(k).ok();
        let settings = crate::core::front::request::ViewSettings::read(
            crate::core::Agent::ALL,
            home.as_deref(),
            project.as_deref(),
            &env,
        );
        let result = match home {
            Some(home) => {
                let (switches, diags) = AgentSwitches::load(&home, project.as_deref());
                Ok((Box::new(switches), diags))
            }
            None => {
                Err("cannot tell where the home folder is: agents' switches not read".to_string())
            }
        };
        let _ = tx.send(Event::Job(JobEvent::Switches {
            settings: Box::new(settings),
            result,
        }));
    });
}

/// Builds the matchers' index (keyword, triggers, BM25, fuzzy) over the library; the semantic
/// matchers' vectors come after ([`embed`]).
pub fn index(lib: Arc<Library>, generation: u64, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let index = Arc::new(Index::build(&lib));
        let _ = tx.send(Event::Job(JobEvent::Indexed { generation, index }));
    });
}

/// Makes the skills' sentence vectors for the semantic and hybrid matchers (those the library
/// index remembers are taken from it; the rest are embedded, with progress), gives them to
/// `index`, and saves the library index so the next start embeds nothing.
pub fn embed(lib: Arc<Library>, index: Arc<Index>, generation: u64, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let progress = |done: usize, total: usize| {
            let _ = tx.send(Event::Job(JobEvent::EmbedProgress {
                generation,
                done,
                total,
            }));
        };
        let result = SkillVectors::build(&lib, &progress).map(|v| {
            let embedded = v.embedded;
            index.set_vectors(Arc::new(v));
            if embedded > 0 {
                let _ = lib.save_index();
            }
        });
        let _ = tx.send(Event::Job(JobEvent::Embedded {
            generation,
            result: result.map_err(|e| e.to_string()),
        }));
    });
}

/// Reads the bodies of composite skills for the skills they name (their cost when used).
pub fn links(lib: Arc<Library>, generation: u64, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let links = crate::core::pricing::usage::composite_links(&lib);
        let _ = tx.send(Event::Job(JobEvent::Linked { generation, links }));
    });
}

/// The encoding of every figure the app shows, unless the config file names another.
pub const ENCODING: Encoding = Encoding::O200kBase;

/// The token cache, opened by the first worker that needs it (it reads a file) and shared after.
#[derive(Debug, Clone)]
pub struct Cache {
    cell: Arc<OnceLock<TokenCache>>,
    path: Option<PathBuf>,
    /// The encoding the workers count with.
    pub encoding: Encoding,
    /// The cache file's problem (a FIFO there, …) was reported: say it once, not per job.
    reported: Arc<AtomicBool>,
}

impl Cache {
    /// `path`: where the cache lives; `None`: the default place (`$SKILLSCOPE_CACHE_DIR`).
    pub fn new(path: Option<PathBuf>) -> Cache {
        Cache {
            cell: Arc::new(OnceLock::new()),
            path,
            encoding: ENCODING,
            reported: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The library index beside the token cache.
    pub fn index_store(&self) -> IndexStore {
        match self.path.as_ref().and_then(|p| p.parent()) {
            Some(dir) => IndexStore::in_dir(dir),
            None => IndexStore::open(),
        }
    }

    pub fn with_encoding(mut self, encoding: Encoding) -> Cache {
        self.encoding = encoding;
        self
    }

    /// The token cache, after saying on the channel (once) why its file could not be used.
    fn get_reporting(&self, tx: &Sender<Event>) -> &TokenCache {
        let cache = self.get();
        self.report(tx);
        cache
    }

    /// Says on the channel (once) why the cache file could not be used, if it was read.
    fn report(&self, tx: &Sender<Event>) {
        let Some(cache) = self.cell.get() else {
            return;
        };
        if let Some(p) = cache.problem_if_read()
            && !self.reported.swap(true, Ordering::Relaxed)
        {
            let _ = tx.send(Event::Job(JobEvent::Problem(format!(
                "token counts are not cached: {p}"
            ))));
        }
    }

    /// The probe store, after saying on the channel why its file could not be read.
    fn probe_store_reporting(&self, tx: &Sender<Event>) -> ProbeStore {
        let store = self.probe_store();
        if let Some(p) = store.problem() {
            let _ = tx.send(Event::Job(JobEvent::Problem(format!(
                "past probe results are not used: {p}"
            ))));
        }
        store
    }

    /// The store of past probe results beside the token cache.
    pub fn probe_store(&self) -> ProbeStore {
        match &self.path {
            Some(p) => ProbeStore::at(p.with_file_name("probes.json")),
            None => ProbeStore::open(),
        }
    }

    /// Writes the token cache back if a worker opened it and counted something not saved yet;
    /// waits for a save already under way. For the app's way out.
    pub fn save_opened(&self) {
        if let Some(cache) = self.cell.get() {
            let _ = cache.save();
        }
    }

    pub fn get(&self) -> &TokenCache {
        // Read on first use: a start whose counts all come from the library index never reads it.
        self.cell.get_or_init(|| match &self.path {
            Some(p) => TokenCache::at_lazily(p),
            None => TokenCache::open_lazily(),
        })
    }
}

/// No counting progress is reported before this many milliseconds of counting.
const PROGRESS_AFTER_MS: u64 = 50;
/// At most one progress report this many milliseconds (a frame).
const PROGRESS_EVERY_MS: u64 = 16;

/// Counts the given levels of every skill, L1 (the listing entry in `format`) first, reporting
/// progress and each level as it is done, then saves the cache. Setting `stop` abandons the run:
/// nothing more of it is sent.
pub fn count(
    lib: Arc<Library>,
    cache: Cache,
    format: Format,
    levels: Vec<Level>,
    generation: u64,
    stop: Arc<AtomicBool>,
    tx: Sender<Event>,
) {
    std::thread::spawn(move || {
        let probe_cache = cache.clone();
        let enc = cache.encoding;
        let cache = cache.get_reporting(&tx);
        let progress_tx = tx.clone();
        // Progress is worth a frame only when counting takes a while: none in the first
        // PROGRESS_AFTER, then at most one a frame (a warm start counts every level in a few
        // milliseconds, and a redraw per report would compete with the counting for the cores).
        let started = std::time::Instant::now();
        let last_ms = std::sync::atomic::AtomicU64::new(0);
        let progress = move |p: tokens::Progress| {
            let now = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let due = now >= PROGRESS_AFTER_MS
                && now.saturating_sub(last_ms.load(Ordering::Relaxed)) >= PROGRESS_EVERY_MS;
            if due || p.done == p.total {
                last_ms.store(now, Ordering::Relaxed);
                let _ = progress_tx.send(Event::Job(JobEvent::CountProgress {
                    generation,
                    level: p.level,
                    done: p.done,
                    total: p.total,
                }));
            }
        };
        for level in levels {
            // The store of past probes is read only for L3, where the schemas count.
            let probes = (level == Level::L3).then(|| probe_cache.probe_store_reporting(&tx));
            let Some(counts) = load::count_level(
                &lib,
                level,
                format,
                enc,
                cache,
                probes.as_ref(),
                &progress,
                &stop,
            ) else {
                return;
            };
            if stop.load(Ordering::Relaxed)
                || tx
                    .send(Event::Job(JobEvent::Counted {
                        generation,
                        format,
                        encoding: enc,
                        counts,
                    }))
                    .is_err()
            {
                return;
            }
        }
        probe_cache.report(&tx);
        // A cache that cannot be written costs a recount next time, nothing more.
        let _ = cache.save();
    });
}

/// What the prompt preview asks a worker for.
#[derive(Debug, Clone)]
pub struct PreviewRequest {
    pub selections: Selections,
    pub mode: ListingMode,
    pub opts: ListingOptions,
    /// The message `auto` judged relevance by, for the screen to name.
    pub message: Option<String>,
    /// The agent whose view is listed; every skill when `None`.
    pub agent: Option<crate::core::Agent>,
    /// The files taken as open, for the agent's conditional skills.
    pub files: Vec<std::path::PathBuf>,
    /// The agents' own switches, as last read.
    pub switches: Option<Arc<AgentSwitches>>,
    /// The model the agent's client runs, where that changes what it sends.
    pub model: Option<&'static str>,
}

/// What the agents' budgets are priced for.
pub struct BudgetRequest {
    /// The agents' own switches, as last read.
    pub switches: Option<Arc<AgentSwitches>>,
    /// skillscope's own store, for the agents without switches.
    pub enabled: Vec<bool>,
    pub tier: listing::Tier,
    /// The context window, in tokens.
    pub window: usize,
    /// The model each agent whose budget depends on it runs: the one chosen for the agent in
    /// view, the others' as their settings set them.
    pub chosen: Vec<(
        crate::core::Agent,
        &'static crate::core::agents::client::ClientModel,
    )>,
}

/// Prices every agent's listing of the skills it has on, each in its own view, format and
/// budget, for the Budget screen.
pub fn agent_budgets(
    lib: Arc<Library>,
    cache: Cache,
    req: BudgetRequest,
    request: u64,
    tx: Sender<Event>,
) {
    std::thread::spawn(move || {
        let on = |i: usize| req.enabled.get(i).copied().unwrap_or(false);
        let budgets = crate::core::agents::budget::per_agent(
            &lib,
            req.switches.as_deref(),
            &on,
            crate::core::agents::budget::At {
                tier: req.tier,
                window: req.window,
                chosen: req.chosen,
            },
            cache.encoding,
            cache.get(),
        );
        let _ = tx.send(Event::Job(JobEvent::AgentBudgets { request, budgets }));
    });
}

/// Renders the listing the agent would get in the chosen mode and counts its tokens, with every
/// other mode's listing counted beside it.
pub fn preview(
    lib: Arc<Library>,
    cache: Cache,
    req: PreviewRequest,
    request: u64,
    tx: Sender<Event>,
) {
    std::thread::spawn(move || {
        let enc = cache.encoding;
        let cache = cache.get();
        // One agent's view is a library of its own; its fates point back into the app's.
        let (view, keep, selections) = match req.agent {
            Some(agent) => {
                let (view, keep) = crate::core::agents::view::agent_view(
                    &lib,
                    agent,
                    &req.files,
                    req.switches.as_deref(),
                );
                let selections = req.selections.for_view(&lib, &keep, agent);
                (Arc::new(view), Some(keep), selections)
            }
            None => (Arc::clone(&lib), None, req.selections.clone()),
        };
        let (shown, comparison) =
            modes::compare(&view, &selections, &req.opts, enc, cache, req.mode);
        let (mut listing, tokens) = shown.unwrap_or_else(|| {
            let none = listing::render(&view, &|_| false, &req.opts);
            let n = tokens::count_listing(&view, &none.text, enc, cache);
            (none, n)
        });
        let mask = selections.get(req.mode);
        let on = |i: usize| mask.is_some_and(|m| m.get(i).copied().unwrap_or(false));
        let supplied = crate::core::agents::budget::supplied(
            &view,
            &on,
            &req.opts,
            (&listing, tokens),
            enc,
            cache,
        );
        let tool = req.agent.and_then(|a| {
            crate::core::agents::budget::tool_cost(a, &listing.names, req.model, enc, cache)
        });
        let mut choices = listing.client_choices(&view);
        if let Some(keep) = keep {
            for e in &mut listing.entries {
                e.index = keep.get(e.index).copied().unwrap_or(e.index);
            }
            choices = choices
                .into_iter()
                .map(|(i, why)| (keep.get(i).copied().unwrap_or(i), why))
                .collect();
        }
        let _ = tx.send(Event::Job(JobEvent::Previewed {
            request,
            preview: Box::new(Preview {
                listing,
                tokens,
                mode: req.mode,
                comparison,
                message: req.message,
                supplied,
                tool,
                choices,
            }),
        }));
    });
}
