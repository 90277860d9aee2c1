//! `skillscope remove`, `restore` and `trash`: skills moved to skillscope's trash (with where
//! they came from), put back byte for byte, listed and emptied; agents' settings entries that
//! named a removed skill reported, and cleaned only when asked.

use crate::cli::args::ConfirmArgs;
use crate::cli::args::WhereArgs;
use crate::cli::manage::find_one;
use crate::cli::manage::{ask, places, shown};
use crate::core::manage::trash::{Trash, TrashEntry};
use crate::core::manage::{self, lockfile, settings};
use crate::core::words::text::line;
use clap::Args;
use serde_json::json;
use std::path::Path;

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

/// What `remove` will do: each skill, its links and the settings files that name it.
fn print_plan(
    picked: &[crate::cli::manage::Installed],
    refs: &[Vec<settings::Reference>],
    home: &std::path::Path,
    clean_settings: bool,
) {
    for (p, rs) in picked.iter().zip(refs) {
        println!(
            "remove {}  {}  ({})",
            line(&p.name),
            shown(&p.dir, home),
            p.target.label()
        );
        for l in lockfile::links_to(&p.dir, &p.linked) {
            println!("  and the link {}", shown(&l, home));
        }
        for r in rs {
            println!(
                "  named in {}: {}{}",
                shown(&r.file, home),
                r.entries.join(", "),
                if clean_settings {
                    "  (cleaned, with a backup)"
                } else {
                    "  (left as it is: --clean-settings removes it)"
                }
            );
        }
    }
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
        print_plan(&picked, &refs, &home, args.clean_settings);
    }
    if args.confirm.dry_run {
        if args.confirm.json {
            println!(
                "{}",
                crate::cli::output::json_string(&json!({
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
    if let Some(code) = ask(&args.confirm, &question)?.refused() {
        return Ok(code);
    }
    let trash = Trash::open();
    let mut done = Vec::new();
    let mut code = 0;
    for (p, rs) in picked.iter().zip(&refs) {
        // The agents' links to it and its lock entry go with it, as `npx skills remove` takes
        // them; the trash entry remembers them for `restore`.
        let removed = manage::remove_skill(&trash, &p.dir, &p.name, &p.linked)?;
        if !args.confirm.json {
            println!(
                "removed {} (skillscope restore {} puts it back)",
                shown(&p.dir, &home),
                line(&p.name)
            );
            for l in &removed.unlinked {
                println!("removed the link {}", shown(l, &home));
            }
        }
        for problem in &removed.problems {
            crate::cli::output::warn(problem);
            code = 1;
        }
        let (entry, unlinked, lock) = (removed.entry, removed.unlinked, removed.lock);
        if let Some(l) = &lock
            && !args.confirm.json
        {
            println!("took its entry out of {}", shown(l, &home));
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
                        crate::cli::output::warn(&e);
                        code = 1;
                    }
                }
            }
        }
        done.push(json!({"removed": entry, "settings": rs, "cleaned": cleaned, "unlinked": unlinked, "lock": lock}));
    }
    if args.confirm.json {
        println!("{}", crate::cli::output::json_string(&done)?);
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
    let back = manage::restore_skill(&trash, &entry)?;
    for problem in &back.problems {
        crate::cli::output::warn(problem);
    }
    if args.json {
        println!(
            "{}",
            crate::cli::output::json_string(
                &json!({ "restored": entry, "relinked": back.relinked, "lock": back.lock })
            )?
        );
    } else {
        println!("restored {}", shown(&entry.from, &home));
        for l in &back.relinked {
            println!("put back the link {}", shown(l, &home));
        }
        if let Some(l) = &back.lock {
            println!("put its entry back into {}", shown(l, &home));
        }
    }
    Ok(i32::from(!back.problems.is_empty()))
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
        println!("{}", crate::cli::output::json_string(&all)?);
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
    if let Some(code) = ask(
        &args.confirm,
        &format!("Delete {} removed skill(s) for good?", all.len()),
    )?
    .refused()
    {
        return Ok(code);
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
