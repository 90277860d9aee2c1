//! Command-line front end: one file per subcommand, all over the same core.

pub mod budget;
pub mod check;
pub mod eval;
pub mod list;
pub mod match_cmd;
pub mod probe;
pub mod prompt;
pub mod toggle;

use crate::core::Library;
use crate::core::index::IndexStore;
use crate::core::scan::{DEFAULT_MAX_DEPTH, ScanOptions};
use crate::core::source::{self, Agent, Root, Scope};
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
    /// Switch a skill on or off in an agent's own settings.
    Toggle {
        #[command(flatten)]
        args: toggle::ToggleArgs,
        #[command(flatten)]
        library: LibraryArgs,
    },
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
}

impl LibraryArgs {
    /// The roots to scan: the given paths, else every agent folder that exists, else the demo.
    pub fn roots(&self) -> (Vec<Root>, bool) {
        if !self.paths.is_empty() {
            return (source::path_roots(&self.paths), false);
        }
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let roots = source::default_roots(dirs::home_dir().as_deref(), &cwd);
        if roots.is_empty() {
            (vec![Root::new(demo_dir(), Agent::Demo, Scope::Demo)], true)
        } else {
            (roots, false)
        }
    }

    /// The library, through the library index in skillscope's cache folder.
    pub fn load(&self) -> Library {
        self.load_with(&IndexStore::open())
    }

    /// The library, through the index in `store` (`IndexStore::none()`: walk and read it all).
    pub fn load_with(&self, store: &IndexStore) -> Library {
        let (roots, demo) = self.roots();
        let (mut lib, _) = Library::load_indexed(
            roots,
            &ScanOptions {
                max_depth: self.max_depth,
            },
            store,
        );
        lib.demo = demo;
        if lib.is_empty() && !demo && self.paths.is_empty() {
            let (mut demo_lib, _) = Library::load_indexed(
                vec![Root::new(demo_dir(), Agent::Demo, Scope::Demo)],
                &ScanOptions::default(),
                store,
            );
            demo_lib.demo = true;
            return demo_lib;
        }
        lib
    }
}

static DEMO: include_dir::Dir<'_> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/assets/skills");

/// The bundled demo library: the source tree's copy when it is there, else the copy embedded in
/// the binary, unpacked once under the cache folder (scripts keep their run bit).
pub fn demo_dir() -> PathBuf {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/skills");
    if source.is_dir() {
        return source;
    }
    let target = crate::core::paths::cache_root().join(concat!("demo-", env!("CARGO_PKG_VERSION")));
    if !target.is_dir()
        && let Err(e) = unpack_demo(&target)
    {
        eprintln!(
            "skillscope: cannot unpack the demo library to {}: {e}",
            target.display()
        );
    }
    target
}

fn unpack_demo(target: &std::path::Path) -> std::io::Result<()> {
    let tmp = target.with_extension("partial");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    DEMO.extract(&tmp)?;
    mark_scripts_executable(&tmp)?;
    std::fs::rename(&tmp, target)
}

/// Files starting with `#!` get their run bit back (the embedded copy does not keep modes).
fn mark_scripts_executable(dir: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let p = e.path();
        if e.file_type()?.is_dir() {
            mark_scripts_executable(&p)?;
        } else if std::fs::read(&p)?.starts_with(b"#!") {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    Ok(())
}

/// Says on stderr that the demo library is in use, so no figure is mistaken for the user's own,
/// and what else is worth knowing about how the library was read (an index file not used).
pub fn note_demo(lib: &Library) {
    for note in &lib.notes {
        eprintln!("skillscope: {note}");
    }
    if lib.demo {
        eprintln!(
            "skillscope: no skills installed; showing the bundled demo library ({})",
            demo_dir().display()
        );
    }
}

/// skillscope's own on/off state, when there is a config folder for it.
pub fn load_state() -> Option<crate::core::state::EnableState> {
    let path = crate::core::state::default_path()?;
    let (st, diags) = crate::core::state::EnableState::load(&path);
    for d in &diags {
        eprintln!("skillscope: {}", d.message);
    }
    Some(st)
}

/// Each skill's on/off in skillscope's state (every skill on when there is no state file).
pub fn enabled_mask(lib: &Library) -> Vec<bool> {
    let state = load_state();
    lib.skills
        .iter()
        .map(|s| state.as_ref().is_none_or(|st| st.is_enabled(s)))
        .collect()
}

/// Counts every level of every skill, L1 in `format`, through the cache;
/// progress goes to stderr when it is a terminal.
pub fn count_levels(
    lib: &Library,
    enc: crate::core::tokens::Encoding,
    format: crate::core::listing::Format,
    cache: &crate::core::tokens::TokenCache,
) -> Vec<crate::core::tokens::SkillTokens> {
    use crate::core::tokens::{self, Progress};
    let l1_texts = crate::core::listing::entries(lib, format);
    let show_progress = std::io::stderr().is_terminal();
    let progress = |p: Progress| {
        // A hundred updates per level at most, whatever the library's size.
        let step = (p.total / 100).max(1);
        if show_progress && (p.done.is_multiple_of(step) || p.done == p.total) {
            eprint!("\rcounting {:?}: {}/{}   ", p.level, p.done, p.total);
        }
    };
    let mut counts = tokens::count_library_with(lib, &l1_texts, enc, cache, &progress);
    // Executable skills: the tool schema of their last passing probe is part of L3.
    let probes = crate::core::probe::ProbeStore::open();
    for (s, c) in lib.skills.iter().zip(&mut counts) {
        if let Some(schema) = probes.schema(s) {
            c.schema = Some(tokens::count_text(schema, enc, cache));
        }
    }
    if show_progress {
        eprint!("\r{:40}\r", "");
    }
    counts
}

/// Saves what the rules learned into the library index; a cache, so a failure is only mentioned.
pub fn save_index(lib: &Library) {
    if let Some(e) = lib.save_index() {
        eprintln!(
            "skillscope: cannot write the library index: {e}; the next run reads the library again"
        );
    }
}

/// Saves the token cache, saying on stderr when it cannot.
pub fn save_cache(cache: &crate::core::tokens::TokenCache) {
    if let Some(p) = cache.problem() {
        eprintln!("skillscope: token cache not used: {p}");
    }
    if let Err(e) = cache.save() {
        eprintln!("skillscope: {e}; counts were not remembered");
    }
}

/// Whether to colour output: only on a terminal, and never when NO_COLOR is set.
pub fn use_color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
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
        Command::Toggle { args, library } => toggle::run(args, library),
    }
}
