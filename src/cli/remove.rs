//! `skillscope remove`, `restore` and `trash`: skills moved to skillscope's trash (with where
//! they came from), put back byte for byte, listed and emptied; agents' settings entries that
//! named a removed skill reported, and cleaned only when asked.

use crate::cli::add::{ConfirmArgs, ScopeArg, ask, places, shown};
use crate::core::Library;
use crate::core::manage::settings;
use crate::core::manage::trash::{Trash, TrashEntry};
use crate::core::manage::{self, Target};
use crate::core::scan::ScanOptions;
use crate::core::source::{Agent, Scope};
use crate::core::text::line;
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};

/// Narrows which agents' folders a name is looked for in.
#[derive(Debug, Args, Clone, Default)]
pub struct WhereArgs {
    /// Only this agent's folders.
    #[arg(long, value_enum)]
    pub agent: Option<crate::cli::add::AgentArg>,
    /// Only this scope's folders.
    #[arg(long, value_enum)]
    pub scope: Option<ScopeArg>,
}

impl WhereArgs {
    /// The installed skill folders these flags allow.
    pub fn targets(&self, home: &Path, project: Option<&Path>) -> Vec<Target> {
        manage::installed_targets(home, project)
            .into_iter()
            .filter(|t| self.agent.is_none_or(|a| Agent::from(a) == t.agent))
            .filter(|t| self.scope.is_none_or(|s| Scope::from(s) == t.scope))
            .collect()
    }
}

/// An installed skill found by its name.
#[derive(Debug, Clone)]
pub struct Installed {
    pub target: Target,
    pub dir: PathBuf,
    pub name: String,
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

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The skills to remove (their name or folder).
    #[arg(required = true, add = clap_complete::ArgValueCompleter::new(crate::cli::complete::skill_names))]
    pub names: Vec<String>,
    #[command(flatten)]
    pub place: WhereArgs,
    /// Also remove the agents' settings entries that name the skills (a backup is kept).
    #[arg(long)]
    pub clean_settings: bool,
    #[command(flatten)]
    pub confirm: ConfirmArgs,
}

pub fn remove(args: RemoveArgs) -> anyhow::Result<i32> {
    let (home, project) = places()?;
    let targets = args.place.targets(&home, project.as_deref());
    let mut picked = Vec::new();
    for n in &args.names {
        picked.push(find_one(n, &targets, &home)?);
    }
    let refs: Vec<Vec<settings::Reference>> = picked
        .iter()
        .map(|p| settings::references(&p.name, &p.dir, &home, project.as_deref()))
        .collect();
    if !args.confirm.json {
        for (p, rs) in picked.iter().zip(&refs) {
            println!(
                "remove {}  {}  ({})",
                line(&p.name),
                shown(&p.dir, &home),
                p.target.label()
            );
            for r in rs {
                println!(
                    "  named in {}: {}{}",
                    shown(&r.file, &home),
                    r.entries.join(", "),
                    if args.clean_settings {
                        "  (cleaned, with a backup)"
                    } else {
                        "  (left as it is: --clean-settings removes it)"
                    }
                );
            }
        }
    }
    if args.confirm.dry_run {
        if args.confirm.json {
            println!(
                "{}",
                crate::cli::json_string(&json!({
                    "dry_run": true,
                    "remove": picked.iter().zip(&refs).map(|(p, r)| json!({"name": p.name, "dir": p.dir, "settings": r})).collect::<Vec<_>>(),
                }))?
            );
        } else {
            println!("dry run: nothing was written");
        }
        return Ok(0);
    }
    let question = format!("Move {} skill(s) to skillscope's trash?", picked.len());
    if !ask(&args.confirm, &question)? {
        return Ok(1);
    }
    let trash = Trash::open();
    let mut done = Vec::new();
    let mut code = 0;
    for (p, rs) in picked.iter().zip(&refs) {
        let entry = trash.put(&p.dir, "remove")?;
        if !args.confirm.json {
            println!(
                "removed {} (skillscope restore {} puts it back)",
                shown(&p.dir, &home),
                line(&p.name)
            );
        }
        let mut cleaned = Vec::new();
        if args.clean_settings {
            for r in rs {
                match settings::clean(r) {
                    Ok(backup) => {
                        if !args.confirm.json {
                            println!(
                                "cleaned {} (backup: {})",
                                shown(&r.file, &home),
                                shown(&backup, &home)
                            );
                        }
                        cleaned.push(r.file.clone());
                    }
                    Err(e) => {
                        crate::cli::warn(&e);
                        code = 1;
                    }
                }
            }
        }
        done.push(json!({"removed": entry, "settings": rs, "cleaned": cleaned}));
    }
    if args.confirm.json {
        println!("{}", crate::cli::json_string(&done)?);
    }
    Ok(code)
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The skill's name (its latest removal) or the id `skillscope trash` shows.
    pub name: String,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn restore(args: RestoreArgs) -> anyhow::Result<i32> {
    let (home, _) = places()?;
    let trash = Trash::open();
    let Some(entry) = trash.find(&args.name) else {
        anyhow::bail!(
            "nothing named {:?} in the trash ({}); `skillscope trash` lists it",
            line(&args.name),
            trash.dir().display()
        );
    };
    trash.restore(&entry)?;
    if args.json {
        println!(
            "{}",
            crate::cli::json_string(&json!({ "restored": entry }))?
        );
    } else {
        println!("restored {}", shown(&entry.from, &home));
    }
    Ok(0)
}

#[derive(Debug, Args)]
pub struct TrashArgs {
    /// Delete everything in the trash for good.
    #[arg(long)]
    pub empty: bool,
    #[command(flatten)]
    pub confirm: ConfirmArgs,
}

pub fn trash(args: TrashArgs) -> anyhow::Result<i32> {
    let (home, _) = places()?;
    let trash = Trash::open();
    let all = trash.list();
    if args.confirm.json && !args.empty {
        println!("{}", crate::cli::json_string(&all)?);
        return Ok(0);
    }
    if !args.empty {
        if all.is_empty() {
            println!("the trash is empty ({})", shown(trash.dir(), &home));
        }
        for e in &all {
            print_entry(e, &home);
        }
        return Ok(0);
    }
    if all.is_empty() {
        println!("the trash is empty");
        return Ok(0);
    }
    if args.confirm.dry_run {
        println!(
            "dry run: {} removed skill(s) would be deleted for good",
            all.len()
        );
        return Ok(0);
    }
    if !ask(
        &args.confirm,
        &format!("Delete {} removed skill(s) for good?", all.len()),
    )? {
        return Ok(1);
    }
    for e in &all {
        trash.purge(e)?;
    }
    println!("deleted {} removed skill(s) for good", all.len());
    Ok(0)
}

fn print_entry(e: &TrashEntry, home: &Path) {
    println!(
        "{}  {}  {}  from {}  ({}){}",
        line(&e.id),
        line(&e.name),
        e.removed,
        shown(&e.from, home),
        line(&e.reason),
        e.provenance
            .as_ref()
            .map(|p| format!("  source {}", line(&p.source.location)))
            .unwrap_or_default()
    );
}
