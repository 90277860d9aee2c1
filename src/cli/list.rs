//! `skillscope list`.

use crate::cli::LibraryArgs;
use clap::Args;

#[derive(Debug, Args)]
pub struct ListArgs {}

pub fn run(_args: ListArgs, _library: LibraryArgs) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}
