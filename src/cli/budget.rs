//! `skillscope budget`.

use crate::cli::LibraryArgs;
use clap::Args;

#[derive(Debug, Args)]
pub struct BudgetArgs {}

pub fn run(_args: BudgetArgs, _library: LibraryArgs) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}
