//! `skillscope new NAME`: a new skill for one agent, with the fields that agent's users need and a
//! body skeleton, checked by the agent's rules before it lands (written whole or not at all).

use crate::cli::args::ScopeArg;
use crate::cli::manage::places;
use crate::core::Library;
use crate::core::findings::diagnostic::{RuleId, Severity};
use crate::core::manage::{self, Target};
use crate::core::rules::{self, CheckOptions};
use crate::core::scan::ScanOptions;
use crate::core::source::{Agent, Root, Scope};
use anyhow::Context;
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The skill's name, which is also its folder's: lowercase letters, digits and hyphens.
    pub name: String,
    /// The agent whose skill folder receives it.
    #[arg(long, value_parser = crate::cli::args::target_agent(), default_value = "claude-code")]
    pub agent: Agent,
    /// The user's own folder (~/...) or the project's (default: the project's inside a project —
    /// a git work tree, or a folder holding `.claude` or `.agents` — else the user's).
    #[arg(long, value_enum)]
    pub scope: Option<ScopeArg>,
    /// The folder to make the skill's folder in (default: the agent's skill folder at --scope).
    #[arg(long, value_name = "DIR")]
    pub path: Option<PathBuf>,
    /// The description (default: a sentence to replace that already says what and when).
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
}

pub fn run(args: NewArgs) -> anyhow::Result<i32> {
    crate::core::front::skeleton::check_name(&args.name)?;
    let agent = args.agent;
    let target = if args.path.is_some() {
        None
    } else {
        Some(target(agent, args.scope)?)
    };
    let parent = match (&args.path, &target) {
        (Some(p), _) => p.clone(),
        (None, Some(t)) => t.dir.clone(),
        (None, None) => anyhow::bail!("no folder to write the skill in"),
    };
    let dest = parent.join(&args.name);
    if std::fs::symlink_metadata(&dest).is_ok() {
        anyhow::bail!(
            "{} already exists: nothing was written (pick another name or --path)",
            crate::cli::output::shown_path(&dest)
        );
    }
    std::fs::create_dir_all(&parent)
        .with_context(|| format!("cannot make {}", crate::cli::output::shown_path(&parent)))?;
    // A project's folder is checked again once made and right before the rename: a link
    // planted meanwhile must not carry the skill out of the project.
    let identity = match &target {
        Some(t) => Some(manage::still_inside(
            &t.dir,
            manage::lockfile::project_of(t).as_deref(),
            None,
        )?),
        None => None,
    };
    // Written in a folder of its own beside the destination, checked there, then renamed into
    // place: a reader (an agent, the app's watcher) sees no skill or the whole one.
    let stage = tempfile::Builder::new()
        .prefix(".skillscope-new-")
        .tempdir_in(&parent)
        .with_context(|| {
            format!(
                "cannot write in {}",
                crate::cli::output::shown_path(&parent)
            )
        })?;
    let staged = stage.path().join(&args.name);
    std::fs::create_dir(&staged)?;
    let text =
        crate::core::front::skeleton::skill_md(&args.name, agent, args.description.as_deref());
    std::fs::write(staged.join("SKILL.md"), &text)?;
    let profile = manage::profile_for(agent);
    // The placeholder description is expected here: `check` reports it until it is replaced.
    let findings: Vec<_> = findings(stage.path(), profile)
        .into_iter()
        .filter(|(_, rule, _)| *rule != RuleId::DescriptionPlaceholder.as_str())
        .collect();
    let placeholder = args.description.is_none();
    let errors = findings
        .iter()
        .filter(|(s, _, _)| *s == Severity::Error)
        .count();
    for (severity, rule, message) in &findings {
        crate::cli::output::warn(format_args!("{severity}[{rule}] {message}"));
    }
    if errors > 0 {
        anyhow::bail!(
            "the new skill would have {} under the {profile} rules: nothing was written",
            crate::core::words::text::count_of(errors, "error", "errors")
        );
    }
    if let Some(t) = &target {
        manage::still_inside(&t.dir, manage::lockfile::project_of(t).as_deref(), identity)?;
    }
    rename_new(&staged, &dest)?;
    let md = dest.join("SKILL.md");
    println!(
        "created {} for {} ({} rules: {})",
        crate::cli::output::shown_path(&md),
        agent.as_str(),
        profile,
        if findings.is_empty() {
            "no findings".to_string()
        } else {
            crate::core::words::text::count_of(findings.len(), "warning", "warnings")
        }
    );
    if placeholder {
        println!(
            "next: the description is a placeholder, which `check` reports as an error \
             (description-placeholder) until it says what the skill does and when to use it; fill \
             in the body, then `skillscope check {}`",
            crate::cli::output::shown_path(&dest)
        );
    } else {
        println!(
            "next: fill in the body, then `skillscope check {}`",
            crate::cli::output::shown_path(&dest)
        );
    }
    Ok(0)
}

/// The agent's skill folder at `scope`, or, without one, at the project's scope inside a project
/// (said on stderr) and the user's elsewhere.
fn target(agent: Agent, scope: Option<ScopeArg>) -> anyhow::Result<Target> {
    let (home, project) = places()?;
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    let inside = inside_project(&cwd, &home);
    let chosen = match (scope, &inside) {
        (Some(s), _) => s,
        (None, Some(p)) => {
            crate::cli::output::warn(format_args!(
                "inside the project {}: the skill goes to the project's folder (--scope user for \
                 your own)",
                crate::cli::output::shown_path(p)
            ));
            ScopeArg::Project
        }
        (None, None) => ScopeArg::User,
    };
    let project = if scope.is_none() {
        inside.or(project)
    } else {
        project
    };
    Ok(Target::resolve(
        agent,
        chosen.into(),
        &home,
        project.as_deref(),
    )?)
}

/// The project the current folder is inside, for the default scope: the nearest folder up to
/// (not including) the home that is a git work tree or holds `.claude` or `.agents`.
fn inside_project(cwd: &Path, home: &Path) -> Option<PathBuf> {
    cwd.ancestors()
        .take_while(|d| *d != home)
        .find(|d| {
            d.join(".git").exists() || d.join(".claude").is_dir() || d.join(".agents").is_dir()
        })
        .map(Path::to_path_buf)
}

/// What the rules of `profile` find in the one skill below `root`: severity, rule, message.
fn findings(root: &Path, profile: rules::Profile) -> Vec<(Severity, &'static str, String)> {
    let lib = Library::load(
        vec![Root::new(root, Agent::Path, Scope::Path)],
        &ScanOptions::default(),
    );
    let checked = rules::check(
        &lib,
        &CheckOptions {
            profile,
            per_agent: false,
            body: true,
            tokens: None,
            enabled: None,
            selection: None,
            vectors: None,
            shadowed: None,
        },
    );
    checked
        .diagnostics
        .iter()
        .flatten()
        .chain(&lib.problems)
        .filter(|d| d.severity != Severity::Info)
        .map(|d| (d.severity, d.rule.as_str(), d.message.clone()))
        .collect()
}

/// Renames the staged folder to `dest`, not over something that appeared there meanwhile: the
/// check before the rename is the guard (Linux's `RENAME_NOREPLACE` closes the window between
/// them; a folder that is not empty is never renamed over on any system).
#[cfg(not(target_os = "linux"))]
fn rename_new(staged: &Path, dest: &Path) -> anyhow::Result<()> {
    if std::fs::symlink_metadata(dest).is_ok() {
        anyhow::bail!(
            "{} appeared while the skill was written: nothing was written",
            crate::cli::output::shown_path(dest)
        );
    }
    std::fs::rename(staged, dest)
        .with_context(|| format!("cannot write {}", crate::cli::output::shown_path(dest)))
}

/// Renames the staged folder to `dest`, never over something that appeared there meanwhile.
#[cfg(target_os = "linux")]
fn rename_new(staged: &Path, dest: &Path) -> anyhow::Result<()> {
    use nix::fcntl::{AT_FDCWD, RenameFlags, renameat2};
    match renameat2(
        AT_FDCWD,
        staged,
        AT_FDCWD,
        dest,
        RenameFlags::RENAME_NOREPLACE,
    ) {
        Ok(()) => Ok(()),
        Err(nix::errno::Errno::EEXIST) => anyhow::bail!(
            "{} appeared while the skill was written: nothing was written",
            crate::cli::output::shown_path(dest)
        ),
        // A file system without RENAME_NOREPLACE: the check above is the guard.
        Err(nix::errno::Errno::EINVAL) => std::fs::rename(staged, dest)
            .with_context(|| format!("cannot write {}", crate::cli::output::shown_path(dest))),
        Err(e) => Err(std::io::Error::from(e))
            .with_context(|| format!("cannot write {}", crate::cli::output::shown_path(dest))),
    }
}
