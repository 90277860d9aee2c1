//! `skillscope update [NAME…]`: each added skill's source fetched again and compared; what
//! changes is shown per skill (files, tokens per level, verdict, listing fate) and applied only
//! with consent. A skill edited since it was added is never overwritten without `--replace`.

use crate::cli::args::ConfirmArgs;
use crate::cli::args::WhereArgs;
use crate::cli::manage::{ask, places, shown, work_dir};
use crate::core::manage::install::Provenance;
use crate::core::manage::trash::Trash;
use crate::core::manage::update::{self, Check, Status};
use crate::core::manage::{Install, Plan, Recorded};
use crate::core::tokens::TokenCache;
use crate::core::words::text::{line, thousands};
use clap::Args;
use serde_json::json;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// Only these skills (name or folder); all added skills when none is given.
    pub names: Vec<String>,
    #[command(flatten)]
    pub place: WhereArgs,
    /// Also overwrite skills edited since they were added (the edited copy goes to the trash).
    #[arg(long)]
    pub replace: bool,
    /// Also install an upstream version that the agent's rules reject (with errors it would
    /// leave the agent's listing).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub confirm: ConfirmArgs,
}

/// Keeps the skills `names` asks for (all when it is empty), warning of a name that is none of
/// them nor a ClawHub skill already noted.
fn keep_named(names: &[String], added: &mut Vec<update::Added>, clawhub: &[(String, String)]) {
    if names.is_empty() {
        return;
    }
    let known: Vec<String> = added
        .iter()
        .flat_map(|a| [a.folder.clone(), a.entry.name.clone()])
        .collect();
    added.retain(|a| names.iter().any(|n| *n == a.folder || *n == a.entry.name));
    for n in names {
        let said = clawhub
            .iter()
            .any(|(slug, _)| slug == n || slug.rsplit('/').next() == Some(n));
        if !said && !added.iter().any(|a| a.folder == *n || a.entry.name == *n) {
            crate::cli::output::warn(format_args!(
                "{} was not added by skillscope (no skills.lock entry): nothing to update{}",
                line(n),
                crate::core::words::text::closest(n, known.iter().map(String::as_str))
                    .map_or_else(String::new, |m| format!(" (did you mean `{}`?)", line(m)))
            ));
        }
    }
}

/// What the checks came to: each one's JSON row, the updates to make (each a plan of the
/// upstream version), and how many were held back as edited or as rejected by the agent's rules.
struct Judged<'a> {
    rows: Vec<serde_json::Value>,
    to_apply: Vec<(&'a Check, Plan)>,
    blocked: usize,
    rejected: usize,
}

/// The upstream version of a changed skill, staged, as a plan for its target.
fn plan_of(c: &Check, cache: &Arc<TokenCache>) -> Option<Plan> {
    let (Some(staged), Some(target), Some(origin)) = (&c.staged, &c.target, &c.origin) else {
        return None;
    };
    Some(Plan::of_staged(
        origin.clone(),
        c.commit_after.clone(),
        None,
        vec![staged.clone()],
        target,
        Arc::clone(cache),
    ))
}

/// Prices each changed skill's upstream version and decides whether it is updated.
fn judge<'a>(
    checks: &'a [Check],
    args: &UpdateArgs,
    home: &std::path::Path,
    cache: &Arc<TokenCache>,
) -> Judged<'a> {
    let mut rows = Vec::new();
    let mut to_apply = Vec::new();
    let mut blocked = 0;
    let mut rejected_n = 0;
    for c in checks {
        let mut row = json!({"check": c});
        let plan = (c.status == Status::Changed)
            .then(|| plan_of(c, cache))
            .flatten();
        let Some(plan) = plan else {
            if !args.confirm.json {
                print_status(c, home);
            }
            rows.push(row);
            continue;
        };
        let target = &plan.pricing.target;
        let priced = plan.priced.first();
        let (listing, diff) = plan.pricing.listing_change(&[c.folder.as_str()]);
        let key = target.dir.join(&c.folder).display().to_string();
        let sd = diff.changed.iter().find(|s| s.key == key);
        row["priced"] = json!(priced.map(|p| {
            crate::cli::output::SkillJson::priced(
                p,
                &target.dir,
                (target.agent, target.scope),
                plan.pricing.encoding,
            )
        }));
        row["listing"] = json!(listing);
        row["levels"] = json!(sd.map(|s| json!({"l1": s.l1, "l2": s.l2, "l3": s.l3})));
        if !args.confirm.json {
            print_change(c, priced, sd, &listing, home);
        }
        // The install policy (`Plan::choose`): a version with errors under the agent's profile
        // is left out unless picked by hand, which `--force` does.
        let pick = if args.force {
            vec![c.folder.clone()]
        } else {
            Vec::new()
        };
        let rejected = !plan.choose(&pick).1.is_empty();
        if c.edited && !args.replace {
            blocked += 1;
        } else if rejected {
            rejected_n += 1;
            crate::cli::output::warn(format_args!(
                "{}: the upstream version has {} error(s) under {} rules, so the agent would drop it: not updated (--force installs it anyway)",
                line(&c.name),
                priced.map_or(0, |p| p.verdict.errors),
                crate::core::words::text::possessive(
                    crate::core::agents::model::model(target.pricing_agent()).name
                )
            ));
        } else {
            to_apply.push((c, plan));
        }
        rows.push(row);
    }
    Judged {
        rows,
        to_apply,
        blocked,
        rejected: rejected_n,
    }
}

/// Installs each update over its skill (the old copy to the trash), recorded with the source
/// its manifest entry names.
fn apply(to_apply: Vec<(&Check, Plan)>, json: bool, home: &std::path::Path) -> anyhow::Result<()> {
    let trash = Trash::open();
    for (c, plan) in to_apply {
        let entry = crate::core::manage::manifest::lookup(&c.dir);
        let Some(entry) = entry else { continue };
        let how = Install {
            into: &plan.pricing.target,
            recorded: Recorded::Source(Provenance {
                source: entry.source.clone(),
                commit: c.commit_after.clone(),
                lock: crate::core::manage::lockfile::Record::IfPresent,
            }),
            replace: true,
            reason: "replaced by update",
        };
        plan.install_as(&how, &[c.folder.as_str()], &trash)?;
        if !json {
            println!("updated {}", shown(&c.dir, home));
        }
    }
    Ok(())
}

pub fn run(args: UpdateArgs) -> anyhow::Result<i32> {
    let (home, project) = places()?;
    let targets = args.place.targets(&home, project.as_deref());
    let (mut added, notes) = update::added(&targets);
    for n in &notes {
        crate::cli::output::warn(n);
    }
    // What ClawHub pinned stays as it is, as `clawhub update` leaves it.
    let mut records = crate::core::installers::Records::new(Some(&home));
    let mut clawhub = Vec::new();
    added.retain(|a| match records.clawhub(&a.dir()) {
        Some(r) if r.pinned => {
            clawhub.push((a.folder.clone(), pin_note(&r, &a.folder)));
            false
        }
        _ => true,
    });
    clawhub.extend(clawhub_notes(project.as_deref(), &args.names, &mut records));
    for (_, n) in &clawhub {
        crate::cli::output::warn(n);
    }
    keep_named(&args.names, &mut added, &clawhub);
    if added.is_empty() {
        println!("no skills added by skillscope here; `skillscope add SOURCE` adds some");
        return Ok(0);
    }
    let work = work_dir()?;
    let checks = update::check(&added, work.path());
    let cache = Arc::new(TokenCache::open());
    let Judged {
        rows,
        to_apply,
        blocked,
        rejected: rejected_n,
    } = judge(&checks, &args, &home, &cache);
    if args.confirm.json {
        println!("{}", crate::cli::output::json_string(&rows)?);
    }
    if blocked > 0 {
        crate::cli::output::warn(format_args!(
            "{blocked} skill(s) edited since they were added are not updated: --replace overwrites them (the edited copy goes to the trash)"
        ));
    }
    if to_apply.is_empty() {
        if !args.confirm.json {
            println!("nothing to update");
        }
        return Ok(i32::from(blocked + rejected_n > 0));
    }
    if args.confirm.dry_run {
        if !args.confirm.json {
            println!("dry run: nothing was written");
        }
        return Ok(0);
    }
    if let Some(code) = ask(
        &args.confirm,
        &format!("Update {} skill(s)?", to_apply.len()),
    )?
    .refused()
    {
        return Ok(code);
    }
    apply(to_apply, args.confirm.json, &home)?;
    crate::cli::args::save_cache(&cache);
    Ok(0)
}

/// Why a ClawHub-pinned skill is left alone.
fn pin_note(r: &crate::core::installers::Record, name: &str) -> String {
    format!(
        "{}: pinned by ClawHub{} in {}: left alone (`clawhub unpin {}` lets it update)",
        line(name),
        r.pin_reason
            .as_deref()
            .map(|w| format!(" ({})", line(w)))
            .unwrap_or_default(),
        r.file.display(),
        line(&r.key)
    )
}

/// The skills ClawHub installed in the project (`skills/` beside `.clawhub/lock.json`): each
/// pinned one is left alone (with a note), and one named here is said to be ClawHub's to update.
fn clawhub_notes(
    project: Option<&std::path::Path>,
    names: &[String],
    records: &mut crate::core::installers::Records,
) -> Vec<(String, String)> {
    use crate::core::installers::clawhub;
    let Some(project) = project else {
        return Vec::new();
    };
    let Some(lock) = clawhub::lock_path(project) else {
        return Vec::new();
    };
    let entries = match clawhub::read_lock(&lock) {
        Ok(e) => e,
        Err(e) => return vec![(String::new(), format!("ClawHub's lock not read: {e}"))],
    };
    let mut out = Vec::new();
    for slug in entries.keys() {
        let named = names
            .iter()
            .any(|n| n == slug || slug.rsplit('/').next() == Some(n.as_str()));
        // The slug is only looked up, never joined as given: `@owner/slug` or one plain name.
        let plain = slug
            .split('/')
            .all(|part| crate::core::manage::safe_folder_name(part.trim_start_matches('@')));
        let Some(r) = plain
            .then(|| records.clawhub(&project.join("skills").join(slug)))
            .flatten()
        else {
            continue;
        };
        if r.pinned && (names.is_empty() || named) {
            out.push((slug.clone(), pin_note(&r, slug)));
        } else if named {
            out.push((
                slug.clone(),
                format!(
                    "{}: installed by ClawHub{}, not by skillscope: `clawhub update {}` updates it",
                    line(slug),
                    r.version
                        .as_deref()
                        .map(|v| format!(" (version {})", line(v)))
                        .unwrap_or_default(),
                    line(slug)
                ),
            ));
        }
    }
    out
}

/// A commit as the preview shows it: its first 12 characters, escaped (the lock file that
/// names it is the project's, and may hold anything).
fn short(c: Option<&str>) -> String {
    c.map_or_else(
        || "-".to_string(),
        |c| line(&c.chars().take(12).collect::<String>()).into_owned(),
    )
}

fn print_status(c: &Check, home: &std::path::Path) {
    let what = match (&c.problem, c.status) {
        (Some(p), _) => format!("cannot check: {}", line(p)),
        (None, Status::UpToDate) if c.edited => "up to date with its source; edited here".into(),
        (None, Status::UpToDate) => "up to date".into(),
        (None, Status::Gone) => "no longer in its source".into(),
        (None, Status::Missing) => "its folder is gone (skills.lock still names it)".into(),
        (None, Status::Changed) => "changed".into(),
    };
    println!("{}  {}  {what}", line(&c.folder), shown(&c.dir, home));
}

fn print_change(
    c: &Check,
    priced: Option<&crate::core::manage::preview::Priced>,
    sd: Option<&crate::core::pricing::baseline::SkillDiff>,
    listing: &crate::core::manage::preview::ListingChange,
    home: &std::path::Path,
) {
    println!(
        "{}  {}  {} → {}",
        line(&c.folder),
        shown(&c.dir, home),
        short(c.commit_before.as_deref()),
        short(c.commit_after.as_deref())
    );
    let files: Vec<String> = c
        .diff
        .changed
        .iter()
        .chain(&c.diff.added)
        .chain(&c.diff.removed)
        .take(8)
        .map(|f| line(f).into_owned())
        .collect();
    println!("  files: {}: {}", c.diff.summary(), files.join(", "));
    let n = |x: Option<u32>| x.map_or_else(|| "-".to_string(), |n| thousands(u64::from(n)));
    if let Some(sd) = sd {
        let f = listing.format.as_str();
        let l1 = sd.l1.get(f).copied().unwrap_or((None, None));
        println!(
            "  tokens: L1 {} → {}, L2 {} → {}, L3 {} → {}",
            n(l1.0),
            n(l1.1),
            n(sd.l2.0),
            n(sd.l2.1),
            n(sd.l3.0),
            n(sd.l3.1)
        );
        if let Some((a, b)) = sd.fates.get(f) {
            println!(
                "  listing: {} → {}",
                a.map_or("-".into(), |x| x.to_string()),
                b.map_or("-".into(), |x| x.to_string())
            );
        }
    }
    if let Some(p) = priced {
        println!("  verdict: {}", p.verdict.label());
        for f in &p.verdict.findings {
            println!("    {}", line(f));
        }
        if !p.executables.is_empty() {
            let runs: Vec<String> = p.executables.iter().map(|e| line(e).into_owned()).collect();
            println!("  runs (never run here): {}", runs.join(", "));
        }
    }
    println!(
        "  per turn ({}): {} → {}",
        listing.format,
        thousands(listing.per_turn.before),
        thousands(listing.per_turn.after)
    );
    if c.edited {
        println!("  edited here since it was added: kept unless --replace");
    }
}
