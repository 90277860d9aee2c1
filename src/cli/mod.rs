//! Command-line front end: one file per subcommand, all over the same core.

pub mod add;
pub mod baseline;
pub mod budget;
pub mod check;
pub mod ci_formats;
pub mod complete;
pub mod defaults;
pub mod eval;
pub mod list;
pub mod match_cmd;
pub mod move_cmd;
pub mod probe;
pub mod prompt;
pub mod remove;
pub mod shell;
pub mod show;
pub mod toggle;
pub mod update;

use crate::core::Library;
use crate::core::index::IndexStore;
use crate::core::load::{self, LibrarySpec};
use crate::core::scan::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_ENTRIES, MAX_ENTRIES_ENV, ScanOptions};
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "skillscope",
    version,
    about = "See your Agent Skills the way each agent sees them: costs, listings, triggers, checks.",
    long_about = "With no subcommand, starts the terminal app on the given folders (or on every agent's \
                  skill folders, or on the bundled demo library when none exist)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub library: LibraryArgs,
    /// Colours: auto (on a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = clap::ColorChoice::Auto)]
    pub color: clap::ColorChoice,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every skill with its source, state, diagnostics and token costs.
    List {
        #[command(flatten)]
        args: list::ListArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
    /// Validate skills against an agent profile; exit 1 on any error.
    Check {
        #[command(flatten)]
        args: check::CheckArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
    /// Token costs per level, per skill and in total.
    Budget {
        #[command(flatten)]
        args: budget::BudgetArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
    /// Print the skill listing an agent's system prompt would hold.
    Prompt {
        #[command(flatten)]
        args: prompt::PromptArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
    /// Which skills would this message trigger, and why.
    Match {
        #[command(flatten)]
        args: match_cmd::MatchArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
    /// Score the matchers against a file of messages with expected skills.
    Eval {
        #[command(flatten)]
        args: eval::EvalArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
    /// Run `--help-json` on executable skills, sandboxed (never `--run-json`).
    Probe {
        #[command(flatten)]
        args: probe::ProbeArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
    /// Print a skill's body, or one of its files by its path inside the skill, with its tokens.
    Show {
        #[command(flatten)]
        args: show::ShowArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
    /// Switch a skill on or off in an agent's own settings.
    Toggle {
        #[command(flatten)]
        args: toggle::ToggleArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
    /// Add skills from a git URL, a folder or an archive, priced for the agent before they land.
    Add {
        #[command(flatten)]
        args: add::AddArgs,
    },
    /// Fetch the sources of added skills again and show (and apply) what changes.
    Update {
        #[command(flatten)]
        args: update::UpdateArgs,
    },
    /// Move installed skills to skillscope's trash.
    Remove {
        #[command(flatten)]
        args: remove::RemoveArgs,
    },
    /// Put a removed skill back where it was, byte for byte.
    Restore {
        #[command(flatten)]
        args: remove::RestoreArgs,
    },
    /// List the removed skills, or empty the trash.
    Trash {
        #[command(flatten)]
        args: remove::TrashArgs,
    },
    /// Move an installed skill to another agent or scope.
    Move {
        #[command(flatten)]
        args: move_cmd::MoveArgs,
    },
    /// Copy an installed skill to another agent or scope.
    Copy {
        #[command(flatten)]
        args: move_cmd::MoveArgs,
    },
    /// Print a shell completion script: `source <(skillscope completions bash)`.
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) on stdout: `skillscope man | man -l -`.
    Man,
}

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
            .is_none_or(|ns| crate::core::namespace::in_scope(&skill.namespace, ns))
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
    /// gemini, goose, lazy-skills or generic. Without it, an agent's own listing format
    /// (claude-code, codex, lazy-skills) picks that agent.
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
        match self.agent_for(format) {
            Some(agent) => crate::core::agents::view::agent_library(&lib, agent, &self.files),
            None => lib,
        }
    }
}

/// `12.3 % of the 200,000-token context window`, with a warning past the whole window.
pub fn window_share(tokens: usize, window: usize) -> String {
    let pct = if window == 0 {
        0.0
    } else {
        tokens as f64 * 100.0 / window as f64
    };
    let over = if tokens > window {
        ": MORE THAN THE WHOLE WINDOW"
    } else {
        ""
    };
    format!(
        "{pct:.1} % of the {}-token context window{over}",
        crate::core::text::thousands(window as u64)
    )
}

/// `tokens` as a share of `window`, in percent with one decimal (for JSON).
pub fn window_percent(tokens: usize, window: usize) -> f64 {
    if window == 0 {
        return 0.0;
    }
    (tokens as f64 * 1000.0 / window as f64).round() / 10.0
}

/// An agent of the model (`core::agents::model::MODELS`) by its name.
fn parse_agent(s: &str) -> Result<crate::core::Agent, String> {
    let models = crate::core::agents::model::MODELS;
    models
        .iter()
        .map(|m| m.agent)
        .find(|a| a.as_str() == s)
        .ok_or_else(|| {
            let names: Vec<&str> = models.iter().map(|m| m.agent.as_str()).collect();
            format!("unknown agent `{s}`: use {}", names.join(", "))
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

/// Says on stderr that the demo library is in use, so no figure is mistaken for the user's own,
/// and what else is worth knowing about how the library was read (an index file not used).
pub fn note_demo(lib: &Library) {
    for note in &lib.notes {
        warn(note);
    }
    if let Some(p) = load::demo_problem() {
        warn(p);
    }
    if lib.demo {
        let dir = lib.roots.first().map(|r| r.path.display().to_string());
        warn(format_args!(
            "no skills installed; showing the bundled demo library ({})",
            dir.unwrap_or_default()
        ));
    }
}

/// A line on stderr, `skillscope: …`, with every hazard of the message escaped: messages quote
/// names, paths and file contents.
pub fn warn(msg: impl std::fmt::Display) {
    eprintln!("skillscope: {}", crate::core::text::line(&msg.to_string()));
}

/// Says on stderr what could not be read (a missing root, a root that is a file, a folder the walk
/// could not enter, a skill file that is not a regular file or cannot be opened). Returns the
/// exit code `check` would give for it: 1 when any of it is an error, else 0.
pub fn note_unread(lib: &Library) -> i32 {
    let mut code = 0;
    for (path, d) in lib.unread() {
        let shown = path.display().to_string();
        if d.message.contains(&shown) {
            warn(format_args!("{}: {}", d.severity, d.message));
        } else {
            warn(format_args!("{}: {shown}: {}", d.severity, d.message));
        }
        if d.severity == crate::core::Severity::Error {
            code = 1;
        }
    }
    code
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
    use crate::core::catalogue::RuleId;
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
            None if !lib.skills.iter().any(|s| *s.root == *root.path) => out.push(Unusable {
                message: format!(
                    "{} holds no skill (no SKILL.md in it or below it)",
                    root.path.display()
                ),
                empty: true,
            }),
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
    crate::core::text::closest(wanted, names).map_or_else(String::new, |m| {
        format!(" (did you mean `{}`?)", crate::core::text::line(m))
    })
}

/// skillscope's own on/off state, when there is a config folder for it.
pub fn load_state() -> Option<crate::core::state::EnableState> {
    let (st, diags) = load::load_state(None);
    for d in &diags {
        warn(&d.message);
    }
    st
}

/// Each skill's on/off in skillscope's state (each skill's own default when there is none).
pub fn enabled_mask(lib: &Library) -> Vec<bool> {
    load::enabled_mask(lib, load_state().as_ref())
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

/// Keeps what a command built alive until the process exits, which is about to happen: freeing a
/// library of thousands of skills piece by piece costs milliseconds and returns nothing useful.
pub fn keep_until_exit<T>(what: T) {
    std::mem::forget(what);
}

/// Saves the counts a command made into the library index, unless it had to encode text: the
/// encoder is then in memory, and writing the index beside it would raise the peak. Those counts
/// are in the token cache already; the next run takes them from there and saves the index then.
pub fn save_counts(lib: &Library, cache: &crate::core::tokens::TokenCache) {
    if cache.encoded() == 0 {
        save_index(lib);
    }
}

/// Standard output for a report: locked, and buffered 64 KiB at a time (a report of thousands of
/// findings is megabytes; the default buffer would make a write call every 8 KiB).
pub fn report_out() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock())
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

/// Pretty JSON in which the characters a terminal acts on (DEL, C1 controls, bidi controls; serde
/// already escapes C0) are written as `\uXXXX` escapes: the same JSON value, nothing raw.
pub fn write_json<W: std::io::Write, T: serde::Serialize + ?Sized>(
    out: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, SafeFormatter::default());
    value.serialize(&mut ser)
}

/// [`write_json`] into a string.
pub fn json_string<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut buf = Vec::new();
    write_json(&mut buf, value)?;
    // The serializer writes only what it was given and ASCII escapes: valid UTF-8.
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// serde_json's pretty layout, with hazards escaped inside strings.
#[derive(Default)]
struct SafeFormatter(serde_json::ser::PrettyFormatter<'static>);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
            serde_json::ser::Formatter::$name(&mut self.0, w $(, $arg)*)
        }
    )*};
}

impl serde_json::ser::Formatter for SafeFormatter {
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        begin_object_value();
        end_object_value();
    }

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // Printable ASCII holds no hazard: most text is written whole.
        if fragment.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return w.write_all(fragment.as_bytes());
        }
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if crate::core::escape::is_hazard(c) {
                w.write_all(&fragment.as_bytes()[start..i])?;
                write!(w, "\\u{:04x}", u32::from(c))?;
                start = i + c.len_utf8();
            }
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
}

/// A column of names in a text report. On a terminal a long name is cut to the column with `…`
/// so the table keeps its shape; into a pipe or a file every character is kept and the column
/// is as wide as its longest entry, so the columns still line up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub width: usize,
    cut: bool,
}

impl Column {
    /// A column for entries up to `widest` characters: at most `max` wide on a terminal
    /// (`terminal`), else `widest` (and never narrower than `min`).
    pub fn new(widest: usize, min: usize, max: usize, terminal: bool) -> Column {
        if terminal {
            Column {
                width: widest.clamp(min, max.max(min)),
                cut: true,
            }
        } else {
            Column {
                width: widest.max(min),
                cut: false,
            }
        }
    }

    /// The text as one escaped line, cut at its end on a terminal.
    pub fn fit(&self, s: &str) -> String {
        if self.cut {
            crate::core::text::fit(s, self.width)
        } else {
            crate::core::text::line(s).into_owned()
        }
    }

    /// The text as one escaped line, cut at its start on a terminal (a path's end says most).
    pub fn fit_left(&self, s: &str) -> String {
        if self.cut {
            crate::core::text::fit_left(s, self.width)
        } else {
            crate::core::text::line(s).into_owned()
        }
    }

    /// `s` (already fitted) padded to the column.
    pub fn pad(&self, s: &str) -> String {
        let n = s.chars().count();
        format!("{s}{}", " ".repeat(self.width.saturating_sub(n)))
    }
}

/// The width of `s` as a column shows it (escaped, in characters).
pub fn shown_width(s: &str) -> usize {
    crate::core::text::line(s).chars().count()
}

/// Whether standard output is a terminal.
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Whether to colour standard output: `--color`, else only on a terminal and never when
/// `NO_COLOR` is set.
pub fn use_color() -> bool {
    crate::color::enabled(std::io::stdout().is_terminal())
}

/// Runs a subcommand; returns the process exit code.
pub fn run(command: Command) -> anyhow::Result<i32> {
    match command {
        Command::List { args, library } => list::run(args, library),
        Command::Check { args, library } => check::run(args, library),
        Command::Budget { args, library } => budget::run(args, library),
        Command::Prompt { args, library } => prompt::run(args, library),
        Command::Match { args, library } => match_cmd::run(args, library),
        Command::Eval { args, library } => eval::run(args, library),
        Command::Probe { args, library } => probe::run(args, library),
        Command::Show { args, library } => show::run(args, library),
        Command::Toggle { args, library } => toggle::run(args, library),
        Command::Add { args } => add::run(args),
        Command::Update { args } => update::run(args),
        Command::Remove { args } => remove::remove(args),
        Command::Restore { args } => remove::restore(args),
        Command::Trash { args } => remove::trash(args),
        Command::Move { args } => move_cmd::run(args, true),
        Command::Copy { args } => move_cmd::run(args, false),
        Command::Completions { shell: sh } => shell::completions(sh),
        Command::Man => shell::man(),
    }
}
