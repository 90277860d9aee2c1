use clap::Parser;
use skillscope::cli::{self, Cli};

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(command) => match cli::run(command) {
            Ok(code) => code,
            // A reader that stops early (`| head`) is not an error.
            Err(e) if is_broken_pipe(&e) => 0,
            Err(e) => {
                eprintln!("skillscope: {}", skillscope::text::line(&format!("{e:#}")));
                2
            }
        },
        None => match skillscope::tui::run(cli.library) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("skillscope: {}", skillscope::text::line(&format!("{e:#}")));
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
