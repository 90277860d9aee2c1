//! `skillscope move NAME --to AGENT[:SCOPE]` and `copy`: an installed skill into another
//! agent's folder or scope, priced there first, written atomically; a move then puts the
//! original in the trash.

use crate::cli::add;
use crate::cli::args::ConfirmArgs;
use crate::cli::args::WhereArgs;
use crate::cli::manage::find_one;
use crate::cli::manage::{ask, places, shown, work_dir};
use crate::core::manage::manifest;
use crate::core::manage::origin::Origin;
use crate::core::manage::stage;
use crate::core::manage::trash::Trash;
use crate::core::manage::{self, Install, Plan, Recorded, Target};
use crate::core::source::Scope;
use crate::core::tokens::TokenCache;
use crate::core::words::text::line;
use clap::Args;
use serde_json::json;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct MoveArgs {
    /// The skill (its name or folder).
    #[arg(add = clap_complete::ArgValueCompleter::new(crate::cli::complete::skill_names))]
    pub name: String,
    /// Where to: an agent, with `:user` or `:project` (default user): `codex`, `opencode:project`.
    #[arg(long, value_name = "AGENT[:SCOPE]")]
    pub to: String,
    /// Where the skill is now, when it is installed in several places.
    #[command(flatten)]
    pub from: WhereArgs,
    /// Put a skill of the same name there in the trash and this one in its place.
    #[arg(long)]
    pub replace: bool,
    #[command(flatten)]
    pub confirm: ConfirmArgs,
}

/// `agent[:scope]` as a target.
fn parse_to(text: &str) -> anyhow::Result<(crate::core::source::Agent, Scope)> {
    let (a, s) = text.split_once(':').unwrap_or((text, "user"));
    let agent = manage::agent_named(a).ok_or_else(|| {
        let names: Vec<&str> = manage::TARGET_AGENTS.iter().map(|a| a.shown()).collect();
        // A name close to the triggers agent's first name (`generic`) means that agent too.
        let meant = crate::core::words::text::closest(
            a,
            names
                .iter()
                .copied()
                .chain([crate::core::Agent::Generic.as_str()]),
        )
        .and_then(manage::agent_named)
        .map_or_else(String::new, |m| format!(" (did you mean `{}`?)", m.shown()));
        anyhow::anyhow!(
            "--to {}{meant}: use one of {}",
            line(text),
            names.join(", ")
        )
    })?;
    let scope = match s {
        "user" => Scope::User,
        "project" => Scope::Project,
        _ => {
            let meant = crate::core::words::text::closest(s, ["user", "project"])
                .map_or_else(String::new, |m| format!(" (did you mean `{a}:{m}`?)"));
            anyhow::bail!("--to {}{meant}: the scope is user or project", line(text))
        }
    };
    Ok((agent, scope))
}

/// The installed skill at `dir`, staged (with its folder name) and priced for `target`.
fn plan_for(
    dir: &std::path::Path,
    target: &Target,
    cache: &Arc<TokenCache>,
) -> anyhow::Result<(Plan, String)> {
    let work = work_dir()?;
    let staged = stage::stage_installed(dir, &work.path().join("stage"))?;
    let folder = staged.folder.clone();
    let plan = Plan::of_staged(
        Origin::Folder(dir.to_path_buf()),
        None,
        Some(work),
        vec![staged],
        target,
        Arc::clone(cache),
    );
    Ok((plan, folder))
}

pub fn run(args: MoveArgs, moving: bool) -> anyhow::Result<i32> {
    let (home, project) = places()?;
    let (agent, scope) = parse_to(&args.to)?;
    let target = Target::resolve(agent, scope, &home, project.as_deref())?;
    let targets = args.from.targets(&home, project.as_deref());
    let skill = find_one(&args.name, &targets, &home)?;
    if skill.dir.parent() == Some(target.dir.as_path()) {
        anyhow::bail!(
            "{} is in {} already",
            line(&args.name),
            shown(&target.dir, &home)
        );
    }
    let cache = Arc::new(TokenCache::open());
    let (mut plan, folder) = plan_for(&skill.dir, &target, &cache)?;
    if moving {
        plan.pricing.moving_from(&skill.dir);
    }
    let clash = plan.priced.iter().any(|p| p.clash.is_some());
    // The install policy (`Plan::choose`): the skill is named by hand, so it is picked whatever
    // its verdict under the new agent's profile.
    let (chosen, _) = plan.choose(std::slice::from_ref(&folder));
    let preview = plan.pricing.preview(plan.priced.clone(), &chosen);
    let source = add::Source {
        shown: skill.dir.display().to_string(),
        commit: None,
    };
    add::report(&args.confirm, &source, &preview, &chosen, &[], &[], &home)?;
    if clash && !args.replace {
        crate::cli::output::warn(format_args!(
            "{} is already in {}: nothing was written (--replace puts it in the trash and this one in its place)",
            line(&folder),
            shown(&target.dir, &home)
        ));
        return Ok(1);
    }
    if args.confirm.dry_run {
        if !args.confirm.json {
            println!("dry run: nothing was written");
        }
        return Ok(0);
    }
    let verb = if moving { "Move" } else { "Copy" };
    if let Some(code) = ask(
        &args.confirm,
        &format!(
            "{verb} {} to {}?",
            line(&args.name),
            shown(&target.dir, &home)
        ),
    )?
    .refused()
    {
        return Ok(code);
    }
    // Where it came from travels with it: `update` still knows its source.
    let keep: Vec<(String, manifest::Entry)> = manifest::lookup(&skill.dir)
        .map(|e| (folder.clone(), e))
        .into_iter()
        .collect();
    let trash = Trash::open();
    let reason = format!(
        "replaced by {} from {}",
        verb.to_lowercase(),
        skill.target.label()
    );
    let how = Install {
        into: &target,
        recorded: Recorded::Kept(keep),
        replace: args.replace,
        reason: &reason,
    };
    let done = plan.install_as(&how, &chosen, &trash)?;
    let moved = if moving {
        Some(trash.put(&skill.dir, &format!("moved to {}", target.label()))?)
    } else {
        None
    };
    if args.confirm.json {
        println!(
            "{}",
            crate::cli::output::json_string(
                &json!({"installed": done, "original_in_trash": moved})
            )?
        );
    } else {
        for d in &done {
            println!(
                "{} {} → {}",
                if moving { "moved" } else { "copied" },
                shown(&skill.dir, &home),
                shown(&d.dir, &home)
            );
        }
        if moved.is_some() {
            println!("the original is in the trash (skillscope trash lists it)");
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_mistyped_target_says_what_was_meant() {
        let e = super::parse_to("claud-code:user").unwrap_err().to_string();
        assert!(e.contains("(did you mean `claude-code`?)"), "{e}");
        let e = super::parse_to("codex:projet").unwrap_err().to_string();
        assert!(e.contains("(did you mean `codex:project`?)"), "{e}");
        assert!(super::parse_to("codex:project").is_ok());
    }

    #[test]
    fn the_triggers_agent_is_named_triggers_and_generic_still_works() {
        use crate::core::Agent;
        let e = super::parse_to("nope:user").unwrap_err().to_string();
        assert!(e.contains("triggers") && !e.contains("generic"), "{e}");
        for meant in ["trigers:project", "generik:project"] {
            let e = super::parse_to(meant).unwrap_err().to_string();
            assert!(e.contains("(did you mean `triggers`?)"), "{meant}: {e}");
        }
        for name in ["triggers:project", "generic:project"] {
            assert_eq!(
                super::parse_to(name).unwrap(),
                (Agent::Generic, crate::core::Scope::Project)
            );
        }
        assert_eq!("triggers".parse::<Agent>().unwrap(), Agent::Generic);
        assert_eq!(Agent::Generic.as_str(), "generic", "JSON keeps its name");
    }
}
