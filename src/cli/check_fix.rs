//! `check --fix` and `check --diff`: the mechanical fixes of the findings `check` shows
//! (`RuleId::fix` says which), made by `core::rules::fix` on each SKILL.md's head (its
//! frontmatter; the body is never held whole), shown as a unified diff of the head or written
//! back atomically under each file's lock (`core::files::head_edit`). `--diff` only shows, also with
//! `--fix`.

use crate::cli::args::LibraryArgs;
use crate::cli::check::CheckArgs;
use crate::cli::output::{shown_path, warn};
use crate::core::files::head_edit::{self, Head};
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::rules::select::Selection;
use crate::core::rules::{self, CheckOptions, Profile};
use crate::core::skill::Skill;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// One SKILL.md and its fixes.
struct Planned {
    path: PathBuf,
    /// The skill's folder: a write never follows a link out of it.
    folder: PathBuf,
    head: Head,
    fixed: rules::fix::Fixed,
    /// Why the fixes cannot be written, known before trying (a link out of the folder).
    blocked: Option<String>,
}

/// Shows (`--diff`, also with `--fix`) or writes (`--fix`) the fixes; returns the exit code: with
/// `--diff`, 1 when there is something to fix, else 0; with `--fix`, 2 when a file was not
/// written, else 0.
pub fn run(args: &CheckArgs, library: &LibraryArgs) -> anyhow::Result<i32> {
    let lib = library.load_by_name();
    if lib.demo {
        anyhow::bail!(crate::cli::check::NOTHING_INSTALLED);
    }
    crate::cli::args::require_skills(&lib, "check")?;
    let profile = args.profile.unwrap_or_else(|| Profile::fitting(&lib));
    let opts = CheckOptions {
        per_agent: args.profile.is_none() && rules::has_agent_skills(&lib),
        profile,
        body: false,
        tokens: None,
        enabled: None,
        selection: None,
        vectors: None,
        shadowed: None,
    };
    let selection = args.selection();
    let scope = args.scope.mask(&lib);
    let planned: Vec<anyhow::Result<Planned>> = lib
        .skills
        .par_iter()
        .zip(&scope)
        .filter(|(_, on)| **on)
        .filter_map(|(s, _)| plan(s, opts.profile_of(s), &selection, args.verbose).transpose())
        .collect();
    let mut failed = 0;
    let planned: Vec<Planned> = planned
        .into_iter()
        .filter_map(|p| {
            p.map_err(|e| {
                failed += 1;
                warn(format_args!("{e:#}"));
            })
            .ok()
        })
        .collect();
    for p in &planned {
        for r in &p.fixed.refused {
            let at = r.line.map(|l| format!(":{l}")).unwrap_or_default();
            warn(format_args!(
                "{}{at}: {} not fixed: {}",
                shown_path(&p.path),
                r.rule,
                &r.why
            ));
        }
    }
    let changed: Vec<&Planned> = planned
        .iter()
        .filter(|p| p.fixed.after != p.fixed.before)
        .collect();
    let findings: usize = changed.iter().map(|p| p.fixed.rules.len()).sum();
    let files = crate::core::words::text::count_of(changed.len(), "file", "files");
    let counted = crate::core::words::text::count_of(findings, "finding", "findings");
    if args.diff {
        let mut out = crate::cli::output::report_out();
        for p in &changed {
            out.write_all(crate::core::words::text::text(&diff_of(p)).as_bytes())?;
            if let Some(why) = &p.blocked {
                warn(format_args!(
                    "{}: --fix would not write it: {why}",
                    shown_path(&p.path)
                ));
            }
        }
        out.flush()?;
        if findings > 0 {
            warn(format_args!(
                "{counted} fixable in {files}; `check --fix` without --diff writes them"
            ));
        } else {
            warn("nothing to fix");
        }
        return Ok(i32::from(findings > 0));
    }
    let (written, not_written) = write_each(&changed);
    failed += not_written;
    warn(format_args!(
        "{counted} fixed in {}",
        crate::core::words::text::count_of(written, "file", "files")
    ));
    Ok(if failed > 0 { 2 } else { 0 })
}

/// Writes each file's fixes, saying so per file; returns how many were written and how many not.
fn write_each(changed: &[&Planned]) -> (usize, usize) {
    let (mut written, mut failed) = (0, 0);
    for p in changed {
        let done = match &p.blocked {
            Some(why) => Err(anyhow::anyhow!("{why}")),
            None => head_edit::write_head(
                &p.head,
                &p.fixed.after,
                &p.folder,
                crate::core::files::fsx::lock_wait(),
                &mut || {},
            )
            .map_err(anyhow::Error::from),
        };
        match done {
            Ok(()) => {
                written += 1;
                warn(format_args!(
                    "fixed {}: {}",
                    shown_path(&p.path),
                    rule_counts(&p.fixed.rules)
                ));
            }
            Err(e) => {
                failed += 1;
                warn(format_args!(
                    "{}: not fixed: {}",
                    shown_path(&p.path),
                    format_args!("{e:#}")
                ));
            }
        }
    }
    (written, failed)
}

/// The unified diff of one file's head: the frontmatter hunk, never the body.
fn diff_of(p: &Planned) -> String {
    let shown = shown_path(&p.path);
    let (before, after) = (
        String::from_utf8_lossy(&p.fixed.before),
        String::from_utf8_lossy(&p.fixed.after),
    );
    similar::TextDiff::from_lines(&*before, &*after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{shown}"), &format!("b/{shown}"))
        .to_string()
}

/// The fixes of one skill, when the check as chosen shows a finding with a mechanical fix.
fn plan(
    skill: &Skill,
    profile: Profile,
    selection: &Selection,
    verbose: bool,
) -> anyhow::Result<Option<Planned>> {
    let findings = |s: &Skill| -> Vec<Diagnostic> {
        let mut d = rules::check_skill(s, profile);
        rules::select::apply_opt_outs(s, &mut d);
        selection.apply(s, &mut d);
        d.retain(|d| verbose || d.severity != Severity::Info);
        d
    };
    if !findings(skill).iter().any(|d| d.rule.fix().is_some()) {
        return Ok(None);
    }
    let Some(head) = head_edit::read_head(&skill.skill_md)? else {
        return Ok(None);
    };
    let fixed = rules::fix::fix(skill, &head.bytes, head.complete, &findings);
    if fixed.after == fixed.before && fixed.refused.is_empty() {
        return Ok(None);
    }
    let blocked = match head_edit::write_target(&skill.skill_md, &skill.dir) {
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
    };
    Ok(Some(Planned {
        path: skill.skill_md.clone(),
        folder: skill.dir.clone(),
        head,
        fixed,
        blocked,
    }))
}

/// `unknown-field ×2, yaml-invalid`: the rules fixed, in the order first fixed.
fn rule_counts(rules: &[crate::core::findings::catalogue::RuleId]) -> String {
    let mut seen: Vec<(crate::core::findings::catalogue::RuleId, usize)> = Vec::new();
    for r in rules {
        match seen.iter_mut().find(|(s, _)| s == r) {
            Some((_, n)) => *n += 1,
            None => seen.push((*r, 1)),
        }
    }
    seen.iter()
        .map(|(r, n)| {
            if *n > 1 {
                format!("{r} ×{n}")
            } else {
                r.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
