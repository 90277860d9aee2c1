//! `skillscope check`.

use crate::cli::LibraryArgs;
use clap::Args;

#[derive(Debug, Args)]
pub struct CheckArgs {}

pub fn run(_args: CheckArgs, _library: LibraryArgs) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}
