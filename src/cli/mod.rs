//! Command-line front end: one file per subcommand, all over the same core.

pub mod add;
pub(crate) mod args;
pub mod budget;
pub(crate) mod check;
pub(crate) mod check_fix;
pub(crate) mod ci_formats;
pub mod complete;
pub mod defaults;
pub mod eval;
pub(crate) mod inject;
pub(crate) mod json;
pub(crate) mod list;
pub mod manage;
pub(crate) mod match_cmd;
pub(crate) mod model;
pub(crate) mod move_cmd;
pub mod new;
pub mod output;
pub mod probe;
pub mod prompt;
pub(crate) mod remove;
pub(crate) mod shell;
pub(crate) mod show;
pub(crate) mod style;
pub(crate) mod toggle;
pub mod typo;
pub(crate) mod update;
pub mod verify;

use args::LibraryArgs;
use clap::{CommandFactory, Parser, Subcommand};

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
        args: budget::args::BudgetArgs,
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
    /// Exactly what loading one skill adds to an agent's conversation, as its client sends it.
    Inject {
        #[command(flatten)]
        args: inject::InjectArgs,
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
    /// Run the agent's own client once, sandboxed against a loopback mock, and compare the
    /// listing it sends with skillscope's (exit 0 identical, 1 differs, 2 client missing or
    /// unusable).
    Verify {
        #[command(flatten)]
        args: verify::VerifyArgs,
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
    /// Write a new skill for an agent: its fields, a description to replace and a body skeleton.
    New {
        #[command(flatten)]
        args: new::NewArgs,
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
    /// The sentence model behind routing by meaning: install its weights, or say where they
    /// come from.
    Model {
        #[command(subcommand)]
        command: model::ModelCommand,
    },
}

/// The agent whose view a subcommand shows (`--agent A`): every such view says so on stderr when
/// the client installed is not the version its model was captured from.
fn agent_in_view(command: &Command) -> Option<crate::core::Agent> {
    match command {
        Command::List { args, .. } => args.view.agent,
        Command::Budget { args, .. } => args.view.agent,
        Command::Prompt { args, .. } => args.view.agent,
        Command::Match { args, .. } => args.view.agent,
        Command::Inject { args, .. } => args.view.agent,
        _ => None,
    }
}

/// Runs a subcommand; returns the process exit code.
pub fn run(command: Command) -> anyhow::Result<i32> {
    if let Some(agent) = agent_in_view(&command) {
        prompt::note_client_version(agent);
    }
    match command {
        Command::List { args, library } => list::run(args, library),
        Command::Check { args, library } => {
            // `--diff` (also with `--fix`) shows the fixes and stops; `--fix` writes them, then
            // checks what is left (exit 2 when a file could not be written).
            if args.fix || args.diff {
                let code = check_fix::run(&args, &library)?;
                if args.diff {
                    return Ok(code);
                }
                let left = check::run(args, library)?;
                return Ok(if code == 2 { left.max(2) } else { left });
            }
            check::run(args, library)
        }
        Command::Budget { args, library } => budget::run(args, library),
        Command::Prompt { args, library } => prompt::run(args, library),
        Command::Match { args, library } => match_cmd::run(args, library),
        Command::Inject { args, library } => inject::run(args, library),
        Command::Eval { args, library } => eval::run(args, library),
        Command::Probe { args, library } => probe::run(args, library),
        Command::Show { args, library } => show::run(args, library),
        Command::Verify { args, library } => verify::run(args, library),
        Command::Toggle { args, library } => toggle::run(args, library),
        Command::New { args } => new::run(args),
        Command::Add { args } => add::run(args),
        Command::Update { args } => update::run(args),
        Command::Remove { args } => remove::remove(args),
        Command::Restore { args } => remove::restore(args),
        Command::Trash { args } => remove::trash(args),
        Command::Move { args } => move_cmd::run(args, true),
        Command::Copy { args } => move_cmd::run(args, false),
        Command::Completions { shell: sh } => shell::completions(sh),
        Command::Man => shell::man(Cli::command()),
        Command::Model { command } => model::run(command),
    }
}
