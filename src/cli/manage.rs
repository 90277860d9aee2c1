//! What the commands that manage skills (`add`, `update`, `remove`, `move`, `copy`) share: the
//! folders they work in, how they ask before writing, and how they find an installed skill.

use crate::cli::args::ConfirmArgs;
pub use crate::cli::args::places;
use crate::core::Library;
use crate::core::agents;
use crate::core::manage::Target;
use crate::core::scan::ScanOptions;
use crate::core::words::text::line;

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// A temporary folder under skillscope's data folder, for clones and staged copies: removed
/// when dropped.
pub fn work_dir() -> anyhow::Result<tempfile::TempDir> {
    Ok(crate::core::manage::work_dir(
        &crate::core::files::paths::data_root().join("tmp"),
    )?)
}

/// What [`ask`] was told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Go ahead (`--yes`, or yes on the terminal).
    Yes,
    /// The user said no on the terminal.
    No,
    /// No terminal to ask on and no `--yes`: the command could not do what was asked.
    NoTerminal,
}

impl Answer {
    /// The exit code when nothing is to be written: 1 for a no, 2 when there was no terminal
    /// to ask on (1 is a gate that failed, which this is not); `None` to go ahead.
    pub fn refused(self) -> Option<i32> {
        match self {
            Answer::Yes => None,
            Answer::No => Some(1),
            Answer::NoTerminal => Some(2),
        }
    }
}

/// Asks on the terminal; without one, says how to go on and answers [`Answer::NoTerminal`].
pub fn ask(confirm: &ConfirmArgs, question: &str) -> anyhow::Result<Answer> {
    if confirm.yes {
        return Ok(Answer::Yes);
    }
    if !std::io::stdin().is_terminal() {
        crate::cli::output::warn(
            "nothing was written: there is no terminal to ask on; pass --yes to go ahead (or \
             --dry-run to only look)",
        );
        return Ok(Answer::NoTerminal);
    }
    eprint!("{question} [y/N] ");
    std::io::stderr().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(if matches!(answer.trim(), "y" | "Y" | "yes" | "Yes") {
        Answer::Yes
    } else {
        Answer::No
    })
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
    find_in(name, targets).0
}

/// [`find`], and the installed skills' names (for a name that finds none).
fn find_in(name: &str, targets: &[Target]) -> (Vec<Installed>, Vec<String>) {
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
    let mut names: Vec<String> = lib.skills.iter().map(|s| s.name.clone()).collect();
    names.sort_unstable();
    names.dedup();
    (out, names)
}

/// The one installed skill `name` names, or an error that says where the several are.
pub fn find_one(name: &str, targets: &[Target], home: &Path) -> anyhow::Result<Installed> {
    let (mut found, names) = find_in(name, targets);
    match found.len() {
        0 => anyhow::bail!(
            "no installed skill named {:?} in the agents' folders{}",
            line(name),
            crate::core::words::text::closest(name, names.iter().map(String::as_str))
                .map_or_else(String::new, |m| format!(" (did you mean `{}`?)", line(m)))
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
