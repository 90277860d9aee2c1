//! `check --fix` and `check --diff`: the mechanical fixes of the findings `check` shows
//! (`RuleId::fix` says which), made by `core::rules::fix`, shown as a unified diff or written
//! back atomically under each file's lock.

use crate::cli::args::LibraryArgs;
use crate::cli::check::CheckArgs;
use crate::cli::output::{shown_path, warn};
use crate::core::diagnostic::{Diagnostic, Severity};
use crate::core::rules::select::Selection;
use crate::core::rules::{self, CheckOptions, Profile};
use crate::core::skill::Skill;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// One SKILL.md and its fixes.
struct Planned {
    path: PathBuf,
    fixed: rules::fix::Fixed,
}

/// Shows (`--diff`) or writes (`--fix`) the fixes; returns the exit code of `--diff` alone: 1
/// when there is something to fix, else 0.
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
    };
    let selection = args.selection();
    let scope = args.scope.mask(&lib);
    let planned: Vec<Planned> = lib
        .skills
        .par_iter()
        .zip(&scope)
        .filter(|(_, on)| **on)
        .filter_map(|(s, _)| plan(s, opts.profile_of(s), &selection, args.verbose))
        .collect();
    let findings: usize = planned.iter().map(|p| p.fixed.rules.len()).sum();
    if args.diff {
        let mut out = crate::cli::output::report_out();
        for p in &planned {
            let shown = shown_path(&p.path);
            let (before, after) = (
                String::from_utf8_lossy(&p.fixed.before),
                String::from_utf8_lossy(&p.fixed.after),
            );
            let diff = similar::TextDiff::from_lines(&*before, &*after)
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{shown}"), &format!("b/{shown}"))
                .to_string();
            out.write_all(crate::core::text::text(&diff).as_bytes())?;
        }
        out.flush()?;
    }
    let mut written = 0;
    if args.fix {
        for p in &planned {
            match write(p) {
                Ok(()) => {
                    written += 1;
                    warn(format_args!(
                        "fixed {}: {}",
                        shown_path(&p.path),
                        rule_counts(&p.fixed.rules)
                    ));
                }
                Err(e) => warn(format_args!("{}: {e:#}", shown_path(&p.path))),
            }
        }
    }
    let files = crate::core::text::count_of(planned.len(), "file", "files");
    let counted = crate::core::text::count_of(findings, "finding", "findings");
    if args.fix {
        warn(format_args!(
            "{counted} fixed in {}",
            crate::core::text::count_of(written, "file", "files")
        ));
        if written < planned.len() {
            return Ok(2);
        }
    } else if findings > 0 {
        warn(format_args!(
            "{counted} fixable in {files}; `check --fix` writes them"
        ));
    } else {
        warn("nothing to fix");
    }
    Ok(i32::from(findings > 0))
}

/// The fixes of one skill, when the check as chosen shows a finding with a mechanical fix.
fn plan(skill: &Skill, profile: Profile, selection: &Selection, verbose: bool) -> Option<Planned> {
    let findings = |s: &Skill| -> Vec<Diagnostic> {
        let mut d = rules::check_skill(s, profile);
        rules::select::apply_opt_outs(s, &mut d);
        selection.apply(s, &mut d);
        d.retain(|d| verbose || d.severity != Severity::Info);
        d
    };
    if !findings(skill).iter().any(|d| d.rule.fix().is_some()) {
        return None;
    }
    let bytes = crate::core::fsx::read_regular(&skill.skill_md).ok()??;
    let fixed = rules::fix::fix(skill, &bytes, &findings);
    (fixed.after != fixed.before).then(|| Planned {
        path: skill.skill_md.clone(),
        fixed,
    })
}

/// Writes the fixed file in one rename, under its lock, unless it changed since it was read.
fn write(p: &Planned) -> anyhow::Result<()> {
    let _lock = crate::core::fsx::lock(&p.path, crate::core::fsx::lock_wait())?;
    let now = crate::core::fsx::read_regular(&p.path)?;
    if now.as_deref() != Some(p.fixed.before.as_slice()) {
        anyhow::bail!("it changed while it was checked: not fixed; run `check --fix` again");
    }
    crate::core::paths::write_atomic(&p.path, &p.fixed.after, None)?;
    Ok(())
}

/// `unknown-field ×2, yaml-invalid`: the rules fixed, in the order first fixed.
fn rule_counts(rules: &[crate::core::catalogue::RuleId]) -> String {
    let mut seen: Vec<(crate::core::catalogue::RuleId, usize)> = Vec::new();
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
