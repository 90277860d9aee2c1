//! Command-line front end: one file per subcommand, all over the same core.

pub mod budget;
pub mod check;
pub mod eval;
pub mod list;
pub mod match_cmd;
pub mod probe;
pub mod prompt;
pub mod toggle;

use crate::core::scan::{DEFAULT_MAX_DEPTH, ScanOptions};
use crate::core::source::{self, Agent, Root, Scope};
use crate::core::Library;
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
    List(list::ListArgs),
    /// Validate skills against an agent profile; exit 1 on any error.
    Check(check::CheckArgs),
    /// Token costs per level, per skill and in total.
    Budget(budget::BudgetArgs),
    /// Print the skill listing an agent's system prompt would hold.
    Prompt(prompt::PromptArgs),
    /// Which skills would this message trigger, and why.
    Match(match_cmd::MatchArgs),
    /// Score the matchers against a file of messages with expected skills.
    Eval(eval::EvalArgs),
    /// Run `--help-json` on executable skills, sandboxed (never `--run-json`).
    Probe(probe::ProbeArgs),
    /// Switch a skill on or off in an agent's own settings.
    Toggle(toggle::ToggleArgs),
}

/// Which skills to look at.
#[derive(Debug, Args, Clone, Default)]
pub struct LibraryArgs {
    /// Skill folders or libraries to read instead of the agents' default folders.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// How many folder levels below a root to look for skills.
    #[arg(long, default_value_t = DEFAULT_MAX_DEPTH, global = true)]
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

    pub fn load(&self) -> Library {
        let (roots, demo) = self.roots();
        let mut lib = Library::load(
            roots,
            &ScanOptions {
                max_depth: self.max_depth,
            },
        );
        lib.demo = demo;
        if lib.is_empty() && !demo && self.paths.is_empty() {
            let mut demo_lib = Library::load(
                vec![Root::new(demo_dir(), Agent::Demo, Scope::Demo)],
                &ScanOptions::default(),
            );
            demo_lib.demo = true;
            return demo_lib;
        }
        lib
    }
}

/// The bundled demo library.
pub fn demo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/skills")
}

/// Says on stderr that the demo library is in use, so no figure is mistaken for the user's own.
pub fn note_demo(lib: &Library) {
    if lib.demo {
        eprintln!(
            "skillscope: no skills installed; showing the bundled demo library ({})",
            demo_dir().display()
        );
    }
}

/// Whether to colour output: only on a terminal, and never when NO_COLOR is set.
pub fn use_color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// Runs a subcommand; returns the process exit code.
pub fn run(command: Command, library: LibraryArgs) -> anyhow::Result<i32> {
    match command {
        Command::List(a) => list::run(a, library),
        Command::Check(a) => check::run(a, library),
        Command::Budget(a) => budget::run(a, library),
        Command::Prompt(a) => prompt::run(a, library),
        Command::Match(a) => match_cmd::run(a, library),
        Command::Eval(a) => eval::run(a, library),
        Command::Probe(a) => probe::run(a, library),
        Command::Toggle(a) => toggle::run(a, library),
    }
}
