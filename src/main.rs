use clap::{CommandFactory, FromArgMatches};
use skillscope::cli::{self, Cli, Command};
use skillscope::config::{self, Config};

fn main() {
    skillscope::tui::note_process_start();
    keep_large_buffers_out_of_the_heap();
    // The probe sandbox runs this binary again to set itself up: before anything else.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(code) = skillscope::core::probe::sandbox_stage(&args) {
        std::process::exit(code);
    }
    skillscope::core::probe::set_sandbox_program("/proc/self/exe");
    let config = Config::load();
    let matches = config.apply_defaults(Cli::command()).get_matches_from(args);
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let config = config::activate(config);
    let code = match cli.command {
        Some(command) => {
            // Completions and the man page do not read the config; everything else says what
            // is wrong with it (on stderr, never on stdout where the output goes).
            if !matches!(command, Command::Completions { .. } | Command::Man) {
                for w in config.warnings() {
                    eprintln!(
                        "skillscope: warning: {}",
                        skillscope::core::text::line(&w.to_string())
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
                        skillscope::core::text::line(&format!("{e:#}"))
                    );
                    2
                }
            }
        }
        None => match skillscope::tui::run(cli.library.spec(), config.tui_options()) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!(
                    "skillscope: {}",
                    skillscope::core::text::line(&format!("{e:#}"))
                );
                1
            }
        },
    };
    std::process::exit(code);
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Large buffers (a file read to be counted, the library index read whole) are mapped apart and
/// go back to the system when freed. By default glibc raises its threshold for that to the size
/// of the first large buffer freed, after which such buffers stay in the heap and add their size
/// to the peak RSS of a cold count.
fn keep_large_buffers_out_of_the_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes a setting of the allocator; it is called before any thread
    // is started.
    unsafe {
        nix::libc::mallopt(nix::libc::M_MMAP_THRESHOLD, 256 * 1024);
    }
}
