//! `skillscope model`: installs the sentence model's weights where a program built without them
//! (from the published crate) reads them, and says where the model comes from.

use crate::core::matching::weights::{self, Status};
use anyhow::Context;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Install the weights from a file, or download them (`--url`), after checking their pinned
    /// SHA-256; the file is written into skillscope's data folder in one rename.
    Install(InstallArgs),
    /// Where the model comes from: the binary, the data folder, or nowhere yet.
    Status,
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    /// A copy of the weights file (`model.safetensors`).
    #[arg(value_name = "FILE", conflicts_with = "url")]
    pub file: Option<PathBuf>,
    /// Download the weights with `curl` (from the pinned address when no URL is given).
    #[arg(long, value_name = "URL", num_args = 0..=1, default_missing_value = weights::URL)]
    pub url: Option<String>,
}

pub fn run(command: ModelCommand) -> anyhow::Result<i32> {
    match command {
        ModelCommand::Status => Ok(status()),
        ModelCommand::Install(args) => install(&args),
    }
}

fn status() -> i32 {
    match weights::status() {
        Status::NotBuiltIn => {
            println!(
                "the sentence model is {}",
                crate::core::matching::sentence::NOT_BUILT_IN
            );
            1
        }
        Status::Embedded => {
            println!(
                "the sentence model is built into this program (sha256 {})",
                weights::SHA256
            );
            0
        }
        Status::Installed(path) => {
            println!(
                "the sentence model is installed: {} (sha256 {})",
                path.display(),
                weights::SHA256
            );
            0
        }
        Status::Damaged { path, found } => {
            println!(
                "{} is not the sentence model's weights (sha256 {found}, expected {}): {}",
                path.display(),
                weights::SHA256,
                weights::how_to_install()
            );
            1
        }
        Status::Missing(_) => {
            println!(
                "the sentence model is not installed: {}",
                weights::how_to_install()
            );
            1
        }
    }
}

fn install(args: &InstallArgs) -> anyhow::Result<i32> {
    if !cfg!(feature = "semantic") {
        anyhow::bail!(
            "the sentence model is {}: its weights would not be used",
            crate::core::matching::sentence::NOT_BUILT_IN
        );
    }
    let dest = weights::installed_path();
    match (&args.file, &args.url) {
        (Some(file), _) => weights::install(file, &dest)?,
        (None, Some(url)) => download_and_install(url, &dest)?,
        (None, None) => anyhow::bail!(
            "name the weights file (`skillscope model install FILE`) or download them \
             (`skillscope model install --url`, from {})",
            weights::URL
        ),
    }
    println!(
        "installed the sentence model: {} (sha256 {})",
        dest.display(),
        weights::SHA256
    );
    if weights::uses_embedded() {
        println!(
            "this program uses the copy built into it; the installed one is for builds without it"
        );
    }
    Ok(0)
}

/// Downloads `url` with `curl` into a temporary file beside `dest`, then installs it from there
/// (checked against the pinned SHA-256); the temporary file goes either way.
fn download_and_install(url: &str, dest: &Path) -> anyhow::Result<()> {
    if !url.starts_with("https://") {
        anyhow::bail!("{url:?}: only https:// addresses are downloaded");
    }
    let dir = dest.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let part = tempfile::Builder::new()
        .prefix(crate::core::files::paths::OWN_PREFIX)
        .suffix(".download")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    let status = std::process::Command::new("curl")
        .args(["--fail", "--location", "--silent", "--show-error", "--proto", "=https"])
        .arg("--output")
        .arg(part.path())
        .arg("--")
        .arg(url)
        .status()
        .context("cannot run curl to download the weights (install curl, or download the file and run `skillscope model install FILE`)")?;
    if !status.success() {
        anyhow::bail!("curl could not download {url} ({status})");
    }
    weights::install(part.path(), dest)?;
    Ok(())
}
