//! Whether output may be coloured: `--color auto|always|never` as the user chose it, with
//! `NO_COLOR` (<https://no-color.org>) honoured under `auto`. Both front ends ask here.

use std::sync::OnceLock;

pub use clap::ColorChoice;

static CHOICE: OnceLock<ColorChoice> = OnceLock::new();

/// Records the command line's choice; only the first call counts.
pub fn choose(choice: ColorChoice) {
    let _ = CHOICE.set(choice);
}

/// Whether `NO_COLOR` is set to a non-empty value.
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Colours on an output that is a terminal (`terminal`): always with `--color always` (an
/// explicit flag wins over `NO_COLOR`), never with `never`, else unless `NO_COLOR` is set.
pub fn enabled(terminal: bool) -> bool {
    match CHOICE.get().copied().unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && !no_color(),
    }
}
