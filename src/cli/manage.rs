//! What the commands that manage skills (`add`, `update`, `remove`, `move`, `copy`) share: the
//! folders they work in, how they ask before writing, and how they find an installed skill.

use crate::cli::args::ConfirmArgs;
pub use crate::cli::args::places;
use crate::core::Library;
use crate::core::agents;
use crate::core::manage::Target;
use crate::core::scan::ScanOptions;
use crate::core::text::line;

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// A temporary folder under skillscope's data folder, for clones and staged copies: removed
/// when dropped.
pub fn work_dir() -> anyhow::Result<tempfile::TempDir> {
    Ok(crate::core::manage::work_dir(
        &crate::core::paths::data_root().join("tmp"),
    )?)
}

/// Asks on the terminal; without one, says how to go on and answers no.
pub fn ask(confirm: &ConfirmArgs, question: &str) -> anyhow::Result<bool> {
    if confirm.yes {
        return Ok(true);
    }
    if !std::io::stdin().is_terminal() {
        crate::cli::output::warn(
            "nothing was written: pass --yes to go ahead (or --dry-run to only look)",
        );
        return Ok(false);
    }
    eprint!("{question} [y/N] ");
    std::io::stderr().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes"))
}

/// `~/…` for paths under the home folder.
pub fn shown(p: &Path, home: &Path) -> String {
    line(&agents::show_path(p, home)).into_owned()
}

/// An installed skill found by its name.
#[derive(Debug, Clone)]
pub struct Installed {
    pub target: Target,
    pub dir: PathBuf,
    pub name: String,
    /// The other places its folder is reached at through links (`npx skills`' layout).
    pub linked: Vec<PathBuf>,
}

/// The installed skills named `name` (by frontmatter name or folder) in `targets`. A folder
/// reached through two agents' roots is listed once.
pub fn find(name: &str, targets: &[Target]) -> Vec<Installed> {
    let mut roots: Vec<crate::core::source::Root> = Vec::new();
    for t in targets {
        if !roots.iter().any(|r| r.path == t.dir) {
            roots.push(crate::core::source::Root::new(
                t.dir.clone(),
                t.agent,
                t.scope,
            ));
        }
    }
    let lib = Library::load(roots, &ScanOptions::default());
    let mut out: Vec<Installed> = Vec::new();
    for s in &lib.skills {
        if s.name != name && s.dir_name() != name {
            continue;
        }
        let Some(t) = targets.iter().find(|t| *s.root == *t.dir) else {
            continue;
        };
        if s.dir == t.dir || out.iter().any(|o| o.dir == s.dir) {
            continue;
        }
        out.push(Installed {
            target: t.clone(),
            dir: s.dir.clone(),
            name: s.name.clone(),
            linked: s.linked.iter().map(|p| p.dir.clone()).collect(),
        });
    }
    out
}

/// The one installed skill `name` names, or an error that says where the several are.
pub fn find_one(name: &str, targets: &[Target], home: &Path) -> anyhow::Result<Installed> {
    let mut found = find(name, targets);
    match found.len() {
        0 => anyhow::bail!(
            "no installed skill named {:?} in the agents' folders",
            line(name)
        ),
        1 => Ok(found.remove(0)),
        _ => {
            let places: Vec<String> = found
                .iter()
                .map(|f| format!("{} ({})", shown(&f.dir, home), f.target.label()))
                .collect();
            anyhow::bail!(
                "{:?} is installed in several places: {}; say which with --agent and --scope",
                line(name),
                places.join(", ")
            )
        }
    }
}
