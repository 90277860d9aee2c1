//! `skillscope list`: every skill with its source, state, diagnostics and token costs.

use crate::cli::LibraryArgs;
use crate::core::diagnostic::Counts;
use crate::core::rules::{self, CheckOptions, Profile};
use clap::Args;
use serde_json::json;
use std::io::Write;

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print a JSON array instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Whose rules decide the diagnostics: spec, claude-code, codex or opencode.
    #[arg(long, default_value = "spec")]
    pub profile: Profile,
}

pub fn run(args: ListArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    let lib = library.load();
    crate::cli::note_demo(&lib);
    let state = crate::cli::load_state();
    let enabled: Vec<bool> = lib
        .skills
        .iter()
        .map(|s| state.as_ref().is_none_or(|st| st.is_enabled(s)))
        .collect();
    let is_enabled = |i: usize| enabled[i];
    let diags = rules::check_library(
        &lib,
        &CheckOptions {
            profile: args.profile,
            body: false,
            count_tokens: None,
            enabled: Some(&is_enabled),
        },
    );
    let mut out = std::io::stdout().lock();
    if args.json {
        let items: Vec<_> = lib
            .skills
            .iter()
            .zip(&diags)
            .enumerate()
            .map(|(i, (s, d))| {
                json!({
                    "name": s.name,
                    "description": s.frontmatter.description,
                    "kind": s.kind().as_str(),
                    "dir": s.dir,
                    "skill_md": s.skill_md,
                    "agent": s.agent,
                    "scope": s.scope,
                    "enabled": enabled[i],
                    "shadowed_by": s.shadowed_by.map(|w| &lib.skills[w].dir),
                    "diagnostics": d.iter().map(|d| json!({
                        "rule": d.rule,
                        "severity": d.severity,
                        "message": d.message,
                        "line": d.line,
                        "column": d.column,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        serde_json::to_writer_pretty(&mut out, &items)?;
        writeln!(out)?;
    } else {
        let width = lib
            .skills
            .iter()
            .map(|s| s.name.chars().count())
            .max()
            .unwrap_or(4)
            .clamp(4, 40);
        writeln!(
            out,
            "  {:width$}  {:16}  {:>6}  {:>6}",
            "NAME", "SOURCE", "ERRORS", "WARNS"
        )?;
        for ((s, d), on) in lib.skills.iter().zip(&diags).zip(&enabled) {
            let c = Counts::of(d);
            let name: String = if s.name.chars().count() > width {
                s.name.chars().take(width - 1).chain(['…']).collect()
            } else {
                s.name.clone()
            };
            writeln!(
                out,
                "{} {:width$}  {:16}  {:>6}  {:>6}",
                match (on, s.shadowed_by) {
                    (false, _) => "○",
                    (true, Some(_)) => "◌",
                    (true, None) => "●",
                },
                name,
                format!("{}/{}", s.agent.badge(), s.scope),
                c.errors,
                c.warnings
            )?;
        }
        writeln!(out, "{} skills", lib.len())?;
    }
    Ok(0)
}
