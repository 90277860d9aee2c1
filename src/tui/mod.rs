//! The terminal app.

use crate::cli::LibraryArgs;

pub fn run(_library: LibraryArgs) -> anyhow::Result<()> {
    anyhow::bail!("the terminal app is not built yet")
}
