//! `skillscope add SOURCE`: find the skills of a git repository, folder or archive, price them
//! for the target agent (verdicts, tokens, the listing change, executables carried), and install
//! the ones chosen, atomically and with their provenance recorded.

use crate::cli::args::{ConfirmArgs, TargetArgs};
use crate::cli::manage::{ask, places, shown, work_dir};
use crate::core::manage::install;
use crate::core::manage::origin::{self, Origin};
use crate::core::manage::preview::{Preview, Priced};
use crate::core::manage::trash::Trash;
use crate::core::manage::{Plan, Target, lockfile};
use crate::core::source::{Agent, Scope};
use crate::core::tokens::{Encoding, TokenCache};
use crate::core::words::text::{line, thousands};
use anyhow::Context;
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Args)]
#[command(
    after_help = "Nothing from the source runs: git clones bare and shallow with hooks off, archives \
                  are unpacked without entries that climb out, devices, FIFOs or outward links. \
                  Skills with errors under the agent's profile are left out unless --pick names them. \
                  A folder that exists is read as that folder, even one named like owner/repo."
)]
pub struct AddArgs {
    /// A git URL (https://, ssh://, git@host:path, file://), GitHub's owner/repo, a folder, or a
    /// .zip/.tar.gz archive.
    pub source: String,
    #[command(flatten)]
    pub to: TargetArgs,
    /// A branch or tag of a git source.
    #[arg(long = "ref", value_name = "REF")]
    pub reference: Option<String>,
    /// Only these skills (by name, folder or folder inside the source).
    #[arg(long, visible_alias = "skill", value_name = "NAME", num_args = 1..)]
    pub pick: Vec<String>,
    /// One copy in .agents/skills, linked into the folder of each --agent that does not read
    /// .agents/skills itself, as `npx skills add` does; at the project scope, recorded in the
    /// project's skills-lock.json.
    #[arg(long)]
    pub link: bool,
    #[command(flatten)]
    pub confirm: ConfirmArgs,
    /// Put an installed skill of the same name in the trash and this one in its place.
    #[arg(long)]
    pub replace: bool,
}

/// Where the skills go: the folder priced (the first agent's), and with `--link` the one copy's
/// folder and the agents' folders that get a link.
struct Places {
    priced: Target,
    linked: Option<(Target, Vec<(Agent, PathBuf)>)>,
}

impl Places {
    fn of(args: &AddArgs, home: &Path, project: Option<&Path>) -> anyhow::Result<Places> {
        let mut agents: Vec<Agent> = Vec::new();
        for a in &args.to.agent {
            let a = *a;
            if !agents.contains(&a) {
                agents.push(a);
            }
        }
        let scope: Scope = args.to.scope.into();
        // `--agent` has a default, so one is always given.
        let Some(&first) = agents.first() else {
            anyhow::bail!("no --agent given");
        };
        if agents.len() > 1 && !args.link {
            anyhow::bail!(
                "skills go to one agent's folder: --link installs one copy in .agents/skills and links it into each --agent's folder"
            );
        }
        let priced = Target::resolve(first, scope, home, project)?;
        if !args.link {
            return Ok(Places {
                priced,
                linked: None,
            });
        }
        let mut canonical = Target::resolve(Agent::Generic, scope, home, project)?;
        let base = if scope == Scope::Project {
            project.unwrap_or(home)
        } else {
            home
        };
        canonical.dir = base.join(lockfile::LINK_HOME);
        if !canonical.view.iter().any(|r| r.path == canonical.dir) {
            let root = crate::core::source::Root::new(canonical.dir.clone(), Agent::Generic, scope);
            canonical.view.push(root);
        }
        let links: Vec<(Agent, PathBuf)> = agents
            .iter()
            .filter_map(|&a| Some((a, base.join(lockfile::link_folder(a, scope)?))))
            .collect();
        if scope == Scope::Project {
            // The one copy, every link to it and the project's skills-lock.json are written in
            // the project, never through a link it holds to somewhere else.
            crate::core::manage::inside_project(&canonical.dir, base)?;
            crate::core::manage::inside_project(
                &base.join(crate::core::installers::skills_lock::FILE),
                base,
            )?;
            for (_, place) in &links {
                crate::core::manage::inside_project(place, base)?;
            }
        }
        Ok(Places {
            priced,
            linked: Some((canonical, links)),
        })
    }
}

/// Whether a chosen skill is already installed in the target, or its link's place is taken by
/// something else (a warning says which; `--replace` makes way for them instead).
fn clashes(places: &Places, priced: &[Priced], chosen: &[&str], home: &std::path::Path) -> bool {
    let clashes: Vec<&Priced> = priced
        .iter()
        .filter(|p| p.clash.is_some() && chosen.contains(&p.folder.as_str()))
        .collect();
    if !clashes.is_empty() {
        let names: Vec<String> = clashes
            .iter()
            .map(|p| line(&p.folder).into_owned())
            .collect();
        crate::cli::output::warn(format_args!(
            "already installed in {}: {}; nothing was written (--replace puts the installed ones in the trash and these in their place)",
            shown(&places.priced.dir, home),
            names.join(", ")
        ));
        return true;
    }
    if let Some((canonical, links)) = &places.linked
        && let Some(taken) = taken_link_place(canonical, links, chosen)
    {
        crate::cli::output::warn(format_args!(
            "{} is already there and is not a link to {}: nothing was written (--replace puts it in the trash and links this one in its place)",
            shown(&taken, home),
            shown(&canonical.dir, home)
        ));
        return true;
    }
    false
}

pub fn run(args: AddArgs) -> anyhow::Result<i32> {
    let (home, project) = places()?;
    let places = Places::of(&args, &home, project.as_deref())?;
    let target = places.priced.clone();
    let origin = Origin::parse(&args.source, args.reference.as_deref())?;
    let work = work_dir()?;
    let cache = Arc::new(TokenCache::open());
    if cache.is_empty() {
        // Nothing counted yet, so every skill will be: the encoder is built on another core
        // while git copies the source and the skills are staged and checked.
        std::thread::spawn(|| Encoding::default().warm());
    }
    let fetched = origin::fetch(&origin, work.path())
        .with_context(|| format!("cannot read {}", line(&origin.shown())))?;
    let plan = Plan::stage(
        origin,
        fetched,
        work,
        &args.pick,
        &target,
        Arc::clone(&cache),
    )?;
    let origin = &plan.origin;
    let mut notes = plan.notes.clone();
    notes.extend(shorthand_note(&args.source, origin));
    if let Some((canonical, links)) = &places.linked {
        notes.push(link_note(canonical, links, &home));
    }
    if plan.staged.is_empty() {
        for n in &notes {
            crate::cli::output::warn(n);
        }
        anyhow::bail!("no skills found in {}", line(&origin.shown()));
    }
    let priced = &plan.priced;
    let (chosen, left_out) = plan.choose(&args.pick);
    let preview = plan.pricing.preview(priced.clone(), &chosen);
    let source = Source {
        shown: shown_source(&args.source, origin),
        commit: plan.commit.clone(),
    };
    report(
        &args.confirm,
        &source,
        &preview,
        &chosen,
        &left_out,
        &notes,
        &home,
    )?;
    if chosen.is_empty() {
        crate::cli::output::warn("nothing to add");
        return Ok(1);
    }
    if !args.replace && clashes(&places, priced, &chosen, &home) {
        return Ok(1);
    }
    if args.confirm.dry_run {
        if !args.confirm.json {
            println!("dry run: nothing was written");
        }
        return Ok(0);
    }
    let into = places.linked.as_ref().map_or(&target, |(c, _)| c);
    let question = format!(
        "Add {} skill(s) to {}?",
        chosen.len(),
        shown(&into.dir, &home)
    );
    if let Some(code) = ask(&args.confirm, &question)?.refused() {
        return Ok(code);
    }
    let lock = if places.linked.is_some() {
        lockfile::Record::Always
    } else {
        lockfile::Record::IfPresent
    };
    let trash = Trash::open();
    let done = plan.install_into(into, &chosen, lock, args.replace, &trash)?;
    let linked = match &places.linked {
        Some((_, links)) => make_links(&done, links, args.replace, &trash)?,
        None => Vec::new(),
    };
    crate::cli::args::save_cache(&cache);
    print_done(&args.confirm, &done, &linked, &home)?;
    Ok(0)
}

/// The source for the preview: GitHub's shorthand with the URL it stands for.
fn shown_source(text: &str, origin: &Origin) -> String {
    match origin {
        Origin::Git { url, .. } if origin::github_shorthand(text).as_deref() == Some(url) => {
            format!("{text} ({})", origin.shown())
        }
        _ => origin.shown(),
    }
}

/// A note when a folder named like GitHub's `owner/repo` was read as that folder.
fn shorthand_note(text: &str, origin: &Origin) -> Option<String> {
    match origin {
        Origin::Folder(p) if origin::github_shorthand(text).is_some() => Some(format!(
            "{text} is a folder here ({}): read as that folder, not as github.com/{text} (give the URL for GitHub's)",
            p.display()
        )),
        _ => None,
    }
}

/// What `--link` will do, for the preview.
fn link_note(canonical: &Target, links: &[(Agent, PathBuf)], home: &Path) -> String {
    let into: Vec<String> = links
        .iter()
        .map(|(a, d)| format!("{} ({a})", shown(d, home)))
        .collect();
    format!(
        "--link: one copy in {}, linked into {}",
        shown(&canonical.dir, home),
        if into.is_empty() {
            "no other folder (the agents named read it there)".to_string()
        } else {
            into.join(", ")
        }
    )
}

/// The first link place of the chosen skills that holds something other than a link to the
/// skill's one copy.
fn taken_link_place(
    canonical: &Target,
    links: &[(Agent, PathBuf)],
    chosen: &[&str],
) -> Option<PathBuf> {
    chosen.iter().find_map(|folder| {
        let copy = canonical.dir.join(folder);
        links.iter().map(|(_, d)| d.join(folder)).find(|place| {
            std::fs::symlink_metadata(place).is_ok()
                && !(std::fs::read_link(place).is_ok()
                    && std::fs::canonicalize(&copy)
                        .is_ok_and(|c| std::fs::canonicalize(place).is_ok_and(|p| p == c)))
        })
    })
}

/// Links each installed skill into each agent folder of `links`; what is at a link's place
/// already goes to the trash first with `replace`, else it is refused.
fn make_links(
    done: &[install::Installed],
    links: &[(Agent, PathBuf)],
    replace: bool,
    trash: &Trash,
) -> anyhow::Result<Vec<(PathBuf, PathBuf)>> {
    let mut made = Vec::new();
    for d in done {
        for (_, folder) in links {
            let place = folder.join(&d.folder);
            let ours = std::fs::canonicalize(&place).ok() == std::fs::canonicalize(&d.dir).ok();
            if replace && !ours && std::fs::symlink_metadata(&place).is_ok() {
                trash.put(&place, "replaced by add --link")?;
            }
            lockfile::link(&d.dir, &place)?;
            made.push((place, d.dir.clone()));
        }
    }
    Ok(made)
}

fn print_done(
    confirm: &ConfirmArgs,
    done: &[install::Installed],
    linked: &[(PathBuf, PathBuf)],
    home: &Path,
) -> anyhow::Result<()> {
    if confirm.json {
        let links: Vec<serde_json::Value> = linked
            .iter()
            .map(|(l, to)| json!({"link": l, "to": to}))
            .collect();
        println!(
            "{}",
            crate::cli::output::json_string(&json!({ "installed": done, "linked": links }))?
        );
        return Ok(());
    }
    for d in done {
        match &d.replaced {
            Some(r) => println!(
                "added {} (the one there is in the trash: skillscope restore {})",
                shown(&d.dir, home),
                line(&r.id)
            ),
            None => println!("added {}", shown(&d.dir, home)),
        }
    }
    for (l, to) in linked {
        println!("linked {} → {}", shown(l, home), shown(to, home));
    }
    Ok(())
}

/// Where the skills come from, for the report.
pub struct Source {
    pub shown: String,
    pub commit: Option<String>,
}

/// Prints a preview: as JSON, or as a table of skills and the listing change.
pub fn report(
    confirm: &ConfirmArgs,
    source: &Source,
    preview: &Preview,
    chosen: &[&str],
    left_out: &[(String, String)],
    notes: &[String],
    home: &Path,
) -> anyhow::Result<()> {
    if confirm.json {
        let v = json!({
            "schema_version": crate::cli::output::SKILL_SCHEMA_VERSION,
            "source": source.shown,
            "commit": source.commit,
            "dry_run": confirm.dry_run,
            "preview": crate::cli::output::PreviewJson::of(preview),
            "chosen": chosen,
            "left_out": left_out.iter().map(|(f, why)| json!({"folder": f, "why": why})).collect::<Vec<_>>(),
            "notes": notes,
        });
        let mut out = crate::cli::output::report_out();
        crate::cli::output::write_json(&mut out, &v)?;
        writeln!(out)?;
        out.flush()?;
        return Ok(());
    }
    print!("{}", text(source, preview, chosen, left_out, notes, home));
    Ok(())
}

/// The preview as text.
pub fn text(
    source: &Source,
    p: &Preview,
    chosen: &[&str],
    left_out: &[(String, String)],
    notes: &[String],
    home: &Path,
) -> String {
    let mut s = String::new();
    let commit = source
        .commit
        .as_deref()
        .map(|c| format!(" at {}", &c[..c.len().min(12)]))
        .unwrap_or_default();
    s.push_str(&format!("from   {}{commit}\n", line(&source.shown)));
    s.push_str(&format!(
        "to     {} {}  {}  (rules: {}; listing: {}; {} tokens)\n\n",
        p.agent,
        p.scope,
        shown(&p.dir, home),
        p.profile,
        p.listing.format,
        p.encoding
    ));
    s.push_str(&format!(
        "  {:<28} {:<20} {:>7} {:>7} {:>7}  {:<10} runs (never run here)\n",
        "skill", "verdict", "L1", "L2", "L3", "listing"
    ));
    let num = |n: Option<u32>| n.map_or_else(|| "-".to_string(), |n| thousands(u64::from(n)));
    for sk in &p.skills {
        let chosen_here = chosen.contains(&sk.folder.as_str());
        let mark = match (chosen_here, sk.clash.is_some()) {
            (false, _) => 'x',
            (true, true) => '~',
            (true, false) => '+',
        };
        // The skill's place, made once (not once per fate compared).
        let place = p.dir.join(&sk.folder).display().to_string();
        let fate = p
            .listing
            .fates
            .iter()
            .find(|f| f.dir == place)
            .and_then(|f| f.after)
            .map_or("-".to_string(), |f| f.to_string());
        let runs = if sk.executables.is_empty() {
            "-".to_string()
        } else {
            sk.executables
                .iter()
                .map(|e| line(e).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let row = format!(
            "{mark} {:<28} {:<20} {:>7} {:>7} {:>7}  {:<10} {}",
            crate::core::words::text::fit(&sk.folder, 28),
            sk.verdict.label(),
            num(sk.tokens.l1),
            num(sk.tokens.l2),
            num(sk.tokens.l3),
            fate,
            crate::core::words::text::fit(&runs, 60)
        );
        s.push_str(row.trim_end());
        s.push('\n');
    }
    let mut extra = Vec::new();
    for sk in &p.skills {
        for f in &sk.verdict.findings {
            extra.push(format!("{}: {}", sk.folder, line(f)));
        }
        for n in &sk.notes {
            extra.push(format!("{}: {}", sk.folder, line(n)));
        }
        if let Some(c) = &sk.clash {
            extra.push(format!("{}: replaces {}", sk.folder, shown(c, home)));
        }
    }
    for (f, why) in left_out {
        extra.push(format!("{f}: left out: {}", line(why)));
    }
    for n in notes {
        extra.push(line(n).into_owned());
    }
    if !extra.is_empty() {
        s.push('\n');
        for e in extra {
            s.push_str(&format!("  {e}\n"));
        }
    }
    s.push_str(&listing_text(&p.listing));
    s
}

/// The listing's change under the preview: tokens, skills, tier, the fates that change.
fn listing_text(l: &crate::core::manage::preview::ListingChange) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "\nlisting ({}): {} → {} tokens per turn ({}); {} → {}; tier {}{}\n",
        l.format,
        thousands(l.per_turn.before),
        thousands(l.per_turn.after),
        signed(l.per_turn.delta()),
        l.skills.before,
        crate::core::words::text::count(l.skills.after, "skill", "skills"),
        l.tier_before,
        if l.tier_after == l.tier_before {
            String::new()
        } else {
            format!(" → {}", l.tier_after)
        }
    ));
    let others: Vec<String> = l
        .fates
        .iter()
        .filter(|f| f.before.is_some())
        .map(|f| {
            format!(
                "{} {} → {}",
                line(&f.name),
                f.before.map_or("-".into(), |x| x.to_string()),
                f.after.map_or("-".into(), |x| x.to_string())
            )
        })
        .collect();
    if !others.is_empty() {
        s.push_str(&format!("fates that change: {}\n", others.join("; ")));
    }
    if l.drops > 0 {
        s.push_str(&format!(
            "{} skill(s) already installed leave the listing\n",
            l.drops
        ));
    }
    s
}

pub fn signed(n: i64) -> String {
    match n {
        0 => "no change".to_string(),
        n if n > 0 => format!("+{}", thousands(n.unsigned_abs())),
        n => format!("-{}", thousands(n.unsigned_abs())),
    }
}
