//! What the subcommands share of their arguments: which library to read (and reading it), whose
//! view, which namespace, and the flags of the commands that manage skills.

use crate::cli::output::{note_demo, warn};
use crate::core::Library;
use crate::core::front::load::{self, LibrarySpec};
use crate::core::front::request::{ViewRequest, ViewSettings};
use crate::core::index::IndexStore;
use crate::core::manage::{self, Target};
use crate::core::matching::candidates;
use crate::core::scan::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_ENTRIES, MAX_ENTRIES_ENV, ScanOptions};
use crate::core::source::{Agent, Scope};
use clap::{Args, ValueEnum};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// A namespace scope: only the skills of one namespace (and those below it) count.
#[derive(Debug, Args, Clone, Default)]
pub struct ScopeArgs {
    /// Only skills of this namespace and the ones below it: `web` (or `web.*`) for
    /// `web/…/SKILL.md` below a root, a plugin's name for its `plugin:skill` skills.
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
}

impl ScopeArgs {
    pub fn contains(&self, skill: &crate::core::Skill) -> bool {
        self.namespace
            .as_deref()
            .is_none_or(|ns| crate::core::words::namespace::in_scope(&skill.namespace, ns))
    }

    /// Which skills of the library are in scope.
    pub fn mask(&self, lib: &Library) -> Vec<bool> {
        lib.skills.iter().map(|s| self.contains(s)).collect()
    }
}

/// Whose view: one agent's skills, as that agent resolves, activates and lists them.
#[derive(Debug, Args, Clone, Default)]
pub struct AgentArgs {
    /// The agent whose view to show: only the skills it reads (its own folders and the ones it
    /// shares), its precedence, fallbacks and listing format: claude-code, codex, opencode,
    /// gemini, goose, openclaw, github-copilot (or copilot), cline, qwen-code, lazy-skills or
    /// generic. Without it, an agent's own listing format (claude-code, codex, lazy-skills,
    /// gemini, opencode, qwen-code, copilot, cline, openclaw) picks that agent.
    #[arg(long, value_parser = parse_agent, add = clap_complete::ArgValueCandidates::new(crate::cli::complete::agents))]
    pub agent: Option<crate::core::Agent>,
    /// Files open in the session: a conditional skill (Claude Code's `paths:`) is listed only
    /// when one of them matches its globs.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub files: Vec<PathBuf>,
}

impl AgentArgs {
    /// The agent modelled for a listing in `format`: the one asked for, else the format's own.
    pub fn agent_for(
        &self,
        format: Option<crate::core::listing::Format>,
    ) -> Option<crate::core::Agent> {
        self.agent
            .or_else(|| format.and_then(crate::core::agents::model::agent_of_format))
    }

    /// The library as that agent sees it; the whole library when no agent applies.
    pub fn apply(&self, lib: Library, format: Option<crate::core::listing::Format>) -> Library {
        view_library(
            &ViewRequest {
                agent: self.agent_for(format),
                files: self.files.clone(),
                ..ViewRequest::default()
            },
            lib,
        )
    }

    /// The view request of a listing in `format` at `tier`: the agent for it, the model its
    /// client runs ([`client_model`]), the window asked for and the files open.
    pub fn request(
        &self,
        format: crate::core::listing::Format,
        tier: crate::core::listing::Tier,
        window: Option<usize>,
        model: Option<crate::core::agents::configured::Configured>,
    ) -> ViewRequest {
        ViewRequest {
            agent: self.agent_for(Some(format)),
            model,
            format,
            tier,
            window,
            files: self.files.clone(),
        }
    }
}

/// The library as `request`'s agent sees it, its own settings' switches read for it (said on
/// stderr where a file cannot be read); the whole library when no agent is in view.
pub fn view_library(request: &ViewRequest, lib: Library) -> Library {
    view_library_in(request, lib, &|k| std::env::var(k).ok())
}

/// [`view_library`] with the environment given by `env` (what the agent's client runs with).
pub fn view_library_in(
    request: &ViewRequest,
    lib: Library,
    env: &dyn Fn(&str) -> Option<String>,
) -> Library {
    let switches = request.agent.and_then(|a| agent_switches_in(&[a], env));
    request.library(lib, switches.as_ref())
}

/// What the agents' settings say that `agent`'s view depends on (the model its client is set
/// to run, its budget overrides), read once from the user's home, the project and the
/// environment; nothing is read without an agent.
pub fn view_settings(agent: Option<Agent>) -> ViewSettings {
    view_settings_in(agent, &|k| std::env::var(k).ok())
}

/// [`view_settings`] with the environment given by `env`.
pub fn view_settings_in(
    agent: Option<Agent>,
    env: &dyn Fn(&str) -> Option<String>,
) -> ViewSettings {
    let home = dirs::home_dir();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let project = crate::core::agents::project_root(&cwd, home.as_deref());
    ViewSettings::read(agent.as_slice(), home.as_deref(), project.as_deref(), env)
}

/// The model `agent`'s client runs for this view, where its listing budget depends on it:
/// `model` when given (`--model`, taken as the client takes a name: an alias, a dated id, or a
/// model it does not know on its fallback window), else the one the client's own settings set
/// (its environment, project and user settings, in its precedence, as `settings` read them),
/// else its default. `None` for an agent whose budget does not depend on a model; `--model` for
/// one is an error naming the agents whose budget does, and without an agent an error too.
pub fn client_model(
    agent: Option<Agent>,
    model: Option<&str>,
    settings: &ViewSettings,
) -> anyhow::Result<Option<crate::core::agents::configured::Configured>> {
    use crate::core::agents::configured;
    let Some(agent) = agent else {
        if let Some(m) = model {
            anyhow::bail!(
                "--model `{m}` needs --agent: it chooses the model of an agent's client (claude-code, codex)"
            );
        }
        return Ok(None);
    };
    let m = crate::core::agents::model::model(agent);
    if let Some(id) = model {
        // An agent whose budget does not follow a model: the error names the ones that do.
        m.client_model_check()?;
        return Ok(m.client_in_use().and_then(|c| configured::chosen(c, id)));
    }
    Ok(settings.configured(agent).cloned())
}

/// Says on stderr which model an agent's budget was made for when its settings set it (not its
/// default), what was passed over reading them, and how the client budgets for a model it does
/// not know.
pub fn note_client_model(
    agent: Option<Agent>,
    model: Option<&crate::core::agents::configured::Configured>,
) {
    use crate::core::agents::configured::Origin;
    let (Some(agent), Some(c)) = (agent, model) else {
        return;
    };
    let m = crate::core::agents::model::model(agent);
    for n in &c.notes {
        crate::cli::output::warn(n);
    }
    if !matches!(c.origin, Origin::Default | Origin::Chosen) {
        crate::cli::output::warn(format_args!(
            "{}: {}",
            m.name,
            c.describe(m.name, dirs::home_dir().as_deref())
        ));
    }
    if let Some(note) = m.client_in_use().and_then(|client| {
        let newer = crate::core::agents::eras::known_from(agent, client.version, &c.name);
        c.unknown_note(m.name, client.version, newer)
    }) {
        crate::cli::output::warn(note);
    }
}

/// The home and project folders the commands work in.
pub fn places() -> anyhow::Result<(PathBuf, Option<PathBuf>)> {
    use anyhow::Context;
    let home = dirs::home_dir().context("cannot tell where the home folder is")?;
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    let project = crate::core::agents::project_root(&cwd, Some(&home));
    Ok((home, project))
}

/// The switches of the agents in view (their settings files under the home and the project):
/// one agent's own files only, every agent's when several are in view; a file that cannot be
/// read or parsed is said on stderr and counts as unset.
pub fn agent_switches(agents: &[Agent]) -> Option<crate::core::agents::AgentSwitches> {
    agent_switches_in(agents, &|k| std::env::var(k).ok())
}

/// [`agent_switches`] with the environment given by `env` (Gemini CLI's folder trust reads it;
/// with several agents in view, the process's own environment is read).
pub fn agent_switches_in(
    agents: &[Agent],
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<crate::core::agents::AgentSwitches> {
    let (home, project) = places().ok()?;
    let (switches, diags) = match agents {
        [agent] => {
            crate::core::agents::AgentSwitches::load_for_in(*agent, &home, project.as_deref(), env)
        }
        _ => crate::core::agents::AgentSwitches::load(&home, project.as_deref()),
    };
    for d in &diags {
        crate::cli::output::warn(&d.message);
    }
    Some(switches)
}

/// An agent of the model (`core::agents::model::models`) by its name.
fn parse_agent(s: &str) -> Result<crate::core::Agent, String> {
    let models = crate::core::agents::model::models;
    crate::core::Agent::named(s)
        .filter(|a| models().any(|m| m.agent == *a))
        .ok_or_else(|| {
            let names: Vec<&str> = models().map(|m| m.agent.as_str()).collect();
            let meant = crate::core::words::text::closest(s, names.iter().copied())
                .map_or_else(String::new, |m| format!(" (did you mean `{m}`?)"));
            format!("unknown agent `{s}`{meant}: use {}", names.join(", "))
        })
}

/// Which skills to look at.
#[derive(Debug, Args, Clone, Default)]
pub struct LibraryArgs {
    /// Skill folders or libraries to read instead of the agents' default folders.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// How many folder levels below a root to look for skills.
    #[arg(long, default_value_t = DEFAULT_MAX_DEPTH)]
    pub max_depth: usize,
    /// Stop walking a root after this many files and folders, with a warning [default: 1000000,
    /// or $SKILLSCOPE_MAX_ENTRIES].
    #[arg(long, value_name = "N")]
    pub max_entries: Option<usize>,
    /// A folder given to Claude Code with `--add-dir`: its `.claude/skills` are Claude Code's
    /// skills too, listed after the project's (repeat for more folders).
    #[arg(long, value_name = "DIR")]
    pub add_dir: Vec<PathBuf>,
    /// Read only the project's skill folders (every agent's, in the current folder and its
    /// parents up to the repository root), not the user's, the system's, plugins' or the config
    /// file's roots: what a CI job or a pre-commit hook checks.
    #[arg(long, conflicts_with = "paths")]
    pub project_only: bool,
}

impl LibraryArgs {
    /// The same choice in the core's terms.
    pub fn spec(&self) -> LibrarySpec {
        LibrarySpec {
            paths: self.paths.clone(),
            scan: self.scan_options(),
            // The config file's extra roots join the agents' folders (never folders given by hand).
            extra_roots: crate::config::active()
                .map(|c| c.roots.clone())
                .unwrap_or_default(),
            add_dirs: self.add_dir.clone(),
            project_only: self.project_only,
        }
    }

    /// The walk's limits: `--max-entries`, else `$SKILLSCOPE_MAX_ENTRIES`, else the default.
    pub fn scan_options(&self) -> ScanOptions {
        let from_env = std::env::var(MAX_ENTRIES_ENV).ok().and_then(|v| {
            let n = v.trim().parse::<usize>().ok().filter(|&n| n > 0);
            if n.is_none() {
                warn(format_args!(
                    "{MAX_ENTRIES_ENV}={v:?} is not a positive number; using {DEFAULT_MAX_ENTRIES}"
                ));
            }
            n
        });
        ScanOptions {
            max_depth: self.max_depth,
            max_entries: self.max_entries.or(from_env).unwrap_or(DEFAULT_MAX_ENTRIES),
            ..ScanOptions::default()
        }
    }

    /// The library, through the library index in skillscope's cache folder.
    pub fn load(&self) -> Library {
        self.spec().load()
    }

    /// [`LibraryArgs::load`] for a command that reads nothing of a resource but its name and
    /// links: an unchanged folder's resources are not stat'ed one by one
    /// ([`Resources::Names`](crate::core::scan::Resources::Names)).
    pub fn load_by_name(&self) -> Library {
        let mut spec = self.spec();
        spec.scan.resources = crate::core::scan::Resources::Names;
        spec.load()
    }

    /// The library, through the index in `store` (`IndexStore::none()`: walk and read it all).
    pub fn load_with(&self, store: &IndexStore) -> Library {
        self.spec().load_with(store)
    }
}

/// A folder named to read (on the command line, or in the config file's `roots`) that gives no
/// skill.
pub struct Unusable {
    pub message: String,
    /// It is a folder, and holds no skill (else it is missing or not a folder, which the
    /// library's problems say already).
    pub empty: bool,
}

/// The folders named to read that give no skill: missing, not a folder, or holding none. A CI
/// job pointed at the wrong folder must not pass on an empty report.
pub fn unusable_roots(lib: &Library) -> Vec<Unusable> {
    use crate::core::findings::catalogue::RuleId;
    let mut out = Vec::new();
    for root in lib
        .roots
        .iter()
        .filter(|r| r.agent == crate::core::Agent::Path)
    {
        let refused = lib.problems.iter().find(|d| {
            matches!(d.rule, RuleId::RootMissing | RuleId::RootNotAFolder)
                && d.path.as_deref() == Some(root.path.as_path())
        });
        match refused {
            Some(d) => out.push(Unusable {
                message: d.message.clone(),
                empty: false,
            }),
            // A folder named inside another named one gives its skills to that one (each
            // skill is read once): it is not empty.
            None if !lib
                .skills
                .iter()
                .any(|s| *s.root == *root.path || s.dir.starts_with(&root.path)) =>
            {
                out.push(Unusable {
                    message: format!(
                        "{} holds no skill (no SKILL.md in it or below it)",
                        root.path.display()
                    ),
                    empty: true,
                });
            }
            None => {}
        }
    }
    out
}

/// Refuses a library that answers nothing that was asked: every folder named is missing, empty
/// or not a folder (an error, exit 2, before anything is printed on stdout). When only some of
/// them are, says which on stderr and returns 2 for the command to exit with after its report;
/// else 0. `doing` ends the error: "nothing to check".
pub fn require_skills(lib: &Library, doing: &str) -> anyhow::Result<i32> {
    let bad = unusable_roots(lib);
    if bad.is_empty() {
        return Ok(0);
    }
    if lib.is_empty() {
        let all: Vec<&str> = bad.iter().map(|b| b.message.as_str()).collect();
        anyhow::bail!("{}: nothing to {doing}", all.join("; "));
    }
    // A missing root or a file is said by `note_unread` and the reports; an empty folder only
    // here.
    for b in bad.iter().filter(|b| b.empty) {
        warn(format_args!("error: {}", b.message));
    }
    Ok(2)
}

/// ` (did you mean `pdf-tools`?)` for a skill name that is none of the library's, when one is
/// close; else nothing.
pub fn did_you_mean(lib: &Library, wanted: &str) -> String {
    let names = lib
        .skills
        .iter()
        .flat_map(|s| [s.name.as_str(), s.id.as_str()]);
    crate::core::words::text::closest(wanted, names).map_or_else(String::new, |m| {
        format!(" (did you mean `{}`?)", crate::core::words::text::line(m))
    })
}

/// skillscope's own on/off state, when there is a config folder for it.
pub fn load_state() -> Option<crate::core::front::state::EnableState> {
    let (st, diags) = load::load_state(None);
    for d in &diags {
        warn(&d.message);
    }
    st
}

/// Each skill's on/off: in one agent's view, as that agent has it; otherwise on when some agent
/// that reads it has it on, by its own switches where it has them and by skillscope's state
/// (each skill's own default when there is none) where it has none
/// ([`crate::core::agents::view::on_for_readers`]).
pub fn enabled_mask(lib: &Library) -> Vec<bool> {
    let store = load::enabled_mask(lib, load_state().as_ref());
    if lib.agent.is_some() {
        return store;
    }
    crate::core::agents::view::on_for_readers(lib, agent_switches(Agent::ALL).as_ref(), &store)
}

/// [`enabled_mask`] and [`shadowed`] over every agent, from one reading of the agents' settings
/// and one view of the library per agent (made on every core), where calling both would make
/// each view twice.
pub fn enabled_and_shadowed(
    lib: &Library,
) -> (
    Vec<bool>,
    Option<Vec<Option<crate::core::findings::diagnostic::Diagnostic>>>,
) {
    use crate::core::agents::view;
    let store = load::enabled_mask(lib, load_state().as_ref());
    if lib.agent.is_some() {
        return (store, None);
    }
    let switches = agent_switches(Agent::ALL);
    let unread = crate::core::agents::gemini::settings::GeminiSettings::default();
    let gemini = switches
        .as_ref()
        .map_or(&unread, crate::core::agents::AgentSwitches::gemini);
    let views = view::every_view(lib, gemini);
    let on = view::on_for_readers_in(lib, &views, switches.as_ref(), &store);
    let shadowed = view::shadowed_findings_in(lib, &views);
    (on, Some(shadowed))
}

/// Each skill's `shadowed` finding as the agents that read it resolve its name
/// ([`crate::core::agents::view::shadowed_findings`]), `agents`' settings read quietly (their
/// problems are said where they decide what is on); `None` for a library that is already one
/// agent's view, whose own resolution is that agent's.
pub fn shadowed(
    lib: &Library,
    agents: &[Agent],
) -> Option<Vec<Option<crate::core::findings::diagnostic::Diagnostic>>> {
    if lib.agent.is_some() {
        return None;
    }
    let switches = places().ok().map(|(home, project)| match agents {
        [agent] => {
            crate::core::agents::AgentSwitches::load_for(*agent, &home, project.as_deref()).0
        }
        _ => crate::core::agents::AgentSwitches::load(&home, project.as_deref()).0,
    });
    Some(crate::core::agents::view::shadowed_findings(
        lib,
        switches.as_ref(),
    ))
}

/// Counts every level of every skill, L1 in `format`, through the cache;
/// progress goes to stderr when it is a terminal.
pub fn count_levels(
    lib: &Library,
    enc: crate::core::tokens::Encoding,
    format: crate::core::listing::Format,
    cache: &crate::core::tokens::TokenCache,
) -> Vec<crate::core::tokens::SkillTokens> {
    let show_progress = std::io::stderr().is_terminal();
    let progress = |p: crate::core::tokens::Progress| {
        // A hundred updates per level at most, whatever the library's size.
        let step = (p.total / 100).max(1);
        if show_progress && (p.done.is_multiple_of(step) || p.done == p.total) {
            eprint!("\rcounting {:?}: {}/{}   ", p.level, p.done, p.total);
        }
    };
    let probes = crate::core::probe::ProbeStore::open();
    if let Some(p) = probes.problem() {
        warn(format_args!("past probe results were not read: {p}"));
    }
    let counts = load::count_levels(lib, format, enc, cache, &probes, &progress);
    if show_progress {
        eprint!("\r{:40}\r", "");
    }
    counts
}

impl LibraryArgs {
    /// The library and the token cache, read side by side. With `no_cache` every file is read
    /// afresh: the library index and the token cache are left alone.
    pub fn load_with_cache(&self, no_cache: bool) -> (Library, crate::core::tokens::TokenCache) {
        use crate::core::tokens::TokenCache;
        if no_cache {
            rayon::join(
                || self.load_with(&IndexStore::none()),
                TokenCache::in_memory,
            )
        } else {
            // Read only if a count is missing from the library index.
            (self.load(), TokenCache::open_lazily())
        }
    }
}

/// Saves the counts a command made into the library index, unless it had to encode text: the
/// encoder is then in memory, and writing the index beside it would raise the peak. Those counts
/// are in the token cache already; the next run takes them from there and saves the index then.
pub fn save_counts(lib: &Library, cache: &crate::core::tokens::TokenCache) {
    if cache.encoded() == 0 {
        save_index(lib);
    }
}

/// Saves what the rules learned into the library index; a cache, so a failure is only mentioned.
pub fn save_index(lib: &Library) {
    if let Some(e) = lib.save_index() {
        warn(format_args!(
            "cannot write the library index: {e}; the next run reads the library again"
        ));
    }
}

/// Saves the token cache, saying on stderr when it cannot.
pub fn save_cache(cache: &crate::core::tokens::TokenCache) {
    if let Err(e) = cache.save() {
        warn(format_args!("{e}; counts were not remembered"));
    }
}

/// Which agent's folder, at which scope.
#[derive(Debug, Args, Clone)]
pub struct TargetArgs {
    /// The agent whose skill folder receives the skills; with --link, every agent to link them
    /// into (several may follow: `--agent claude-code codex`).
    #[arg(long, value_parser = target_agent(), num_args = 1.., default_value = "claude-code")]
    pub agent: Vec<Agent>,
    /// The user's own folder (~/...) or the project's.
    #[arg(long, value_enum, default_value_t = ScopeArg::User)]
    pub scope: ScopeArg,
}

/// Show, ask, write: the flags every managing command shares.
#[derive(Debug, Args, Clone)]
pub struct ConfirmArgs {
    /// Show what would change and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write without asking.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--agent` of the managing commands: an agent skills can be added to
/// ([`manage::TARGET_AGENTS`], so every agent with folders of
/// its own), by its name or the one its installers give it (`gemini-cli`, `copilot`); clap lists
/// the names in the help and completions.
pub fn target_agent() -> impl clap::builder::TypedValueParser<Value = Agent> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser as _};
    let values = manage::TARGET_AGENTS.map(|a| {
        let v = PossibleValue::new(a.as_str());
        match a.home().alias {
            Some(alias) => v.alias(alias),
            None => v,
        }
    });
    PossibleValuesParser::new(values)
        .try_map(|s| Agent::named(&s).ok_or_else(|| format!("unknown agent `{s}`")))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    User,
    Project,
}

impl From<ScopeArg> for Scope {
    fn from(s: ScopeArg) -> Scope {
        match s {
            ScopeArg::User => Scope::User,
            ScopeArg::Project => Scope::Project,
        }
    }
}

/// Narrows which agents' folders a name is looked for in.
#[derive(Debug, Args, Clone, Default)]
pub struct WhereArgs {
    /// Only this agent's folders.
    #[arg(long, value_parser = target_agent())]
    pub agent: Option<Agent>,
    /// Only this scope's folders.
    #[arg(long, value_enum)]
    pub scope: Option<ScopeArg>,
}

impl WhereArgs {
    /// The installed skill folders these flags allow.
    pub fn targets(&self, home: &Path, project: Option<&Path>) -> Vec<Target> {
        manage::installed_targets(home, project)
            .into_iter()
            .filter(|t| self.agent.is_none_or(|a| a == t.agent))
            .filter(|t| self.scope.is_none_or(|s| Scope::from(s) == t.scope))
            .collect()
    }
}

/// The skills that may trigger at all: an agent lists only skills it can parse, never loads a
/// shadowed copy, and never on its own a skill with `disable-model-invocation: true`; a skill
/// switched off in skillscope's state (or off by default: `auto_load: false`, `enabled: false`)
/// is out too. `include_disabled` lets every skill compete.
pub fn allowed(lib: &Library, include_disabled: bool) -> Vec<bool> {
    if include_disabled {
        return vec![true; lib.skills.len()];
    }
    candidates(lib, &crate::cli::args::enabled_mask(lib))
}

/// Loads the library, says on stderr what kept a folder from being read, and refuses an empty
/// library (every answer would be "nothing triggers", which says nothing).
pub fn load_library(library: &LibraryArgs) -> anyhow::Result<Library> {
    let lib = library.load();
    note_demo(&lib);
    crate::cli::output::note_unread(&lib);
    if lib.is_empty() {
        anyhow::bail!("no skills found: give folders that hold SKILL.md files");
    }
    Ok(lib)
}
