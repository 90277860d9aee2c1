//! `skillscope toggle`.

use crate::cli::LibraryArgs;
use clap::Args;

#[derive(Debug, Args)]
pub struct ToggleArgs {}

pub fn run(_args: ToggleArgs, _library: LibraryArgs) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}
