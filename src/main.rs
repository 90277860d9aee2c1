use clap::Parser;
use skillscope::cli::{self, Cli};

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(command) => match cli::run(command) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("skillscope: {e:#}");
                2
            }
        },
        None => match skillscope::tui::run(cli.library) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("skillscope: {e:#}");
                1
            }
        },
    };
    std::process::exit(code);
}
