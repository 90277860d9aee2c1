//! `skillscope match`.

use crate::cli::LibraryArgs;
use clap::Args;

#[derive(Debug, Args)]
pub struct MatchArgs {}

pub fn run(_args: MatchArgs, _library: LibraryArgs) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}
