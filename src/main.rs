use clap::{CommandFactory, FromArgMatches};
use skillscope::cli::{self, Cli, Command};
use skillscope::config::{self, Config};

/// The program's allocator on Linux: a warm load is mostly small allocations made on both cores
/// at once (docs/performance.md, December 7).
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    skillscope::tui::note_process_start();
    // The probe sandbox runs this binary again to set itself up: before anything else.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(code) = skillscope::core::probe::sandbox_stage(&args) {
        std::process::exit(code);
    }
    // `verify` runs this binary inside the sandbox too, as the command: mock and client.
    if let Some(code) = skillscope::core::verify::stage(&args) {
        std::process::exit(code);
    }
    skillscope::core::probe::set_sandbox_program("/proc/self/exe");
    let mut config = Config::load();
    // The key bindings are the app's to read; a wrong one is reported by every command, as
    // the rest of the file is.
    let bindings = skillscope::tui::settings::read(&mut config);
    let config = config::activate(config);
    // A shell asking for completions (`COMPLETE=bash skillscope -- …`) is answered here, before
    // anything else is written; the config's roots name the skills `show` and `toggle` complete.
    clap_complete::CompleteEnv::with_factory(|| cli::defaults::apply(config, Cli::command()))
        .var(cli::complete::VAR)
        .complete();
    let command = cli::defaults::apply(config, Cli::command());
    // `skillscope chek` is a typo, not a folder to open: said before clap reads the rest (a
    // subcommand's options would otherwise be refused as the app's).
    if let Some(message) = cli::typo::mistyped_command(&command, &args) {
        eprintln!("skillscope: {message}");
        std::process::exit(2);
    }
    let matches = command.get_matches_from(args);
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    skillscope::color::choose(cli.color);
    let code = match cli.command {
        Some(command) => {
            // Completions and the man page do not read the config; everything else says what
            // is wrong with it (on stderr, never on stdout where the output goes).
            if !matches!(command, Command::Completions { .. } | Command::Man) {
                for w in config.warnings() {
                    eprintln!(
                        "skillscope: warning: {}",
                        skillscope::core::words::text::line(&w.clone())
                    );
                }
            }
            match cli::run(command) {
                Ok(code) => code,
                // A reader that stops early (`| head`) is not an error.
                Err(e) if is_broken_pipe(&e) => 0,
                Err(e) => {
                    eprintln!(
                        "skillscope: {}",
                        skillscope::core::words::text::line(&format!("{e:#}"))
                    );
                    2
                }
            }
        }
        None => match skillscope::tui::run(
            cli.library.spec(),
            skillscope::tui::settings::options(config, bindings),
        ) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!(
                    "skillscope: {}",
                    skillscope::core::words::text::line(&format!("{e:#}"))
                );
                1
            }
        },
    };
    std::process::exit(code);
}

/// Whether `e` came of writing to a reader that went away (`skillscope list --json | head`). A
/// JSON writer's error names its I/O error only through `io_error_kind`: its `source` skips it.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        let kind = match c.downcast_ref::<std::io::Error>() {
            Some(io) => Some(io.kind()),
            None => c
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind),
        };
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}
