use clap::Parser;
use skillscope::cli::{self, Cli};

fn main() {
    // The probe sandbox runs this binary again to set itself up: before anything else.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(code) = skillscope::core::probe::sandbox_stage(&args) {
        std::process::exit(code);
    }
    skillscope::core::probe::set_sandbox_program("/proc/self/exe");
    let cli = Cli::parse_from(args);
    let code = match cli.command {
        Some(command) => match cli::run(command) {
            Ok(code) => code,
            // A reader that stops early (`| head`) is not an error.
            Err(e) if is_broken_pipe(&e) => 0,
            Err(e) => {
                eprintln!("skillscope: {e:#}");
                2
            }
        },
        None => match skillscope::tui::run(cli.library.spec()) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("skillscope: {e:#}");
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
