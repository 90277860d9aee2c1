//! `skillscope check`: validate skills against an agent profile, as text, JSON or SARIF.

use crate::cli::LibraryArgs;
use crate::core::diagnostic::{Counts, Diagnostic, Severity};
use crate::core::escape;
use crate::core::text::count_of;
use crate::core::listing::{self, Format, ListingOptions, Tier};
use crate::core::rules::{self, CheckOptions, Profile};
use crate::core::tokens::{self, Encoding, TokenCache};
use crate::core::{Agent, Library};
use clap::{Args, ValueEnum};
use serde::Serialize;
use serde_json::json;
use std::io::Write;
use std::path::Path;

#[derive(Debug, Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum CheckFormat {
    #[default]
    Text,
    Json,
    Sarif,
    /// A short table for a pull-request comment.
    Markdown,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Whose rules to apply: spec, claude-code, codex, opencode or lazy-skills (default: spec;
    /// lazy-skills for the bundled demo library).
    #[arg(long)]
    pub profile: Option<Profile>,
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Also fail when the listing of enabled skills exceeds this many tokens.
    #[arg(long, value_name = "N")]
    pub max_listing_tokens: Option<usize>,
    /// The listing format measured by --max-listing-tokens: xml, markdown, claude-code or codex.
    #[arg(long, default_value_t = Format::default())]
    pub listing: Format,
    /// The model's context window (the claude-code and codex listing budgets are a share of it).
    #[arg(long, default_value_t = listing::DEFAULT_CONTEXT_WINDOW)]
    pub context_window: usize,
    /// Encoding for the body-length and listing limits: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Encoding::default())]
    pub encoding: Encoding,
    /// Show info-level findings too (text output).
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    pub scope: crate::cli::ScopeArgs,
}

/// `check --format json`, serialised as it is built (no intermediate JSON tree).
#[derive(Serialize)]
struct JsonReport<'a> {
    profile: &'static str,
    skills: usize,
    errors: usize,
    warnings: usize,
    diagnostics: Vec<JsonFinding<'a>>,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    path: std::borrow::Cow<'a, str>,
    rule: crate::core::diagnostic::RuleId,
    severity: Severity,
    message: &'a str,
    line: Option<u32>,
    column: Option<u32>,
}

/// One finding with the file it is about.
struct Finding<'a> {
    path: &'a Path,
    d: &'a Diagnostic,
}

pub fn run(args: CheckArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    // The library and the token cache are read side by side.
    // The token cache is read only if a count is missing from the library index (a long body
    // changed) or the listing is counted.
    // Check reads no resource's size, kind or count: only their names and links.
    let lib = library.load_by_name();
    if lib.demo {
        anyhow::bail!(NOTHING_INSTALLED);
    }
    let roots_code = crate::cli::require_skills(&lib, "check")?;
    let cache = TokenCache::open_lazily();
    crate::cli::note_demo(&lib);
    let profile = args.profile.unwrap_or_else(|| Profile::fitting(&lib));
    // Without --profile, each agent's skills are judged as that agent judges them.
    let per_agent = args.profile.is_none()
        && lib
            .skills
            .iter()
            .any(|s| !matches!(s.agent, Agent::Path | Agent::Demo));
    let label = if per_agent {
        "per-agent"
    } else {
        profile.as_str()
    };
    let enabled = crate::cli::enabled_mask(&lib);
    let is_enabled = |i: usize| enabled[i];
    let diags = rules::check_library(
        &lib,
        &CheckOptions {
            per_agent,
            profile,
            body: true,
            tokens: Some((args.encoding, &cache)),
            enabled: Some(&is_enabled),
        },
    );
    let scope = args.scope.mask(&lib);
    let findings = findings(&lib, &diags, &scope);
    let counts = Counts::of(findings.iter().map(|f| f.d));
    let listing_over = args.max_listing_tokens.and_then(|max| {
        let listing = listing::render(
            &lib,
            &|i| is_enabled(i) && scope[i],
            &ListingOptions {
                format: args.listing,
                tier: Tier::Auto,
                context_window: args.context_window,
            },
        );
        let n = tokens::count_listing(&lib, &listing.text, args.encoding, &cache) as usize;
        (n > max).then_some((n, max))
    });
    crate::cli::save_cache(&cache);
    crate::cli::save_index(&lib);
    // Buffered: a line-buffered stdout costs a write call per line of a report of thousands.
    let mut out = crate::cli::report_out();
    match args.format {
        CheckFormat::Text => write_text(
            &mut out,
            scope.iter().filter(|s| **s).count(),
            &findings,
            counts,
            label,
            args.verbose,
        )?,
        CheckFormat::Json => {
            let v = JsonReport {
                profile: label,
                skills: scope.iter().filter(|s| **s).count(),
                errors: counts.errors,
                warnings: counts.warnings,
                diagnostics: findings
                    .iter()
                    .map(|f| JsonFinding {
                        path: f.path.to_string_lossy(),
                        rule: f.d.rule,
                        severity: f.d.severity,
                        message: &f.d.message,
                        line: f.d.line,
                        column: f.d.column,
                    })
                    .collect(),
            };
            crate::cli::write_json(&mut out, &v)?;
            writeln!(out)?;
        }
        CheckFormat::Sarif => {
            crate::cli::write_json(&mut out, &sarif(&findings))?;
            writeln!(out)?;
        }
        CheckFormat::Markdown => {
            out.write_all(markdown(scope.iter().filter(|s| **s).count(), &findings, counts, &args, label, listing_over).as_bytes())?
        }
    }
    out.flush()?;
    crate::cli::keep_until_exit((lib, cache, diags));
    if let Some((n, max)) = listing_over {
        eprintln!(
            "skillscope: the {} listing of enabled skills costs {n} {} tokens per turn, over the limit of {max}",
            args.listing, args.encoding
        );
    }
    Ok(i32::from(counts.errors > 0 || listing_over.is_some()).max(roots_code))
}

/// Why `check` with no folder named and none installed stops: a gate that checked the bundled
/// demo would fail or pass on skills that are not the user's.
pub const NOTHING_INSTALLED: &str = "nothing to check: no agent's skill folder holds a skill \
     (`skillscope list` shows where skillscope looks), and check never checks the bundled demo; \
     name the folders to check (`skillscope check path/to/skills`) or add them to `roots` in \
     config.toml";

fn findings<'a>(
    lib: &'a Library,
    diags: &'a [Vec<Diagnostic>],
    scope: &[bool],
) -> Vec<Finding<'a>> {
    let mut out: Vec<Finding> = lib
        .problems
        .iter()
        .map(|d| Finding {
            path: d.path.as_deref().unwrap_or(Path::new(".")),
            d,
        })
        .collect();
    for ((s, ds), _) in lib
        .skills
        .iter()
        .zip(diags)
        .zip(scope)
        .filter(|(_, on)| **on)
    {
        for d in ds {
            out.push(Finding {
                path: d.path.as_deref().unwrap_or(&s.skill_md),
                d,
            });
        }
    }
    out
}

fn write_text(
    out: &mut impl Write,
    checked: usize,
    findings: &[Finding],
    counts: Counts,
    profile: &str,
    verbose: bool,
) -> std::io::Result<()> {
    let color = crate::cli::use_color();
    for f in findings {
        if f.d.severity == Severity::Info && !verbose {
            continue;
        }
        let (c, r) = match (color, f.d.severity) {
            (false, _) => ("", ""),
            (true, Severity::Error) => ("\x1b[31m", "\x1b[0m"),
            (true, Severity::Warning) => ("\x1b[33m", "\x1b[0m"),
            (true, Severity::Info) => ("\x1b[36m", "\x1b[0m"),
        };
        let pos = match (f.d.line, f.d.column) {
            (Some(l), Some(col)) => format!(":{l}:{col}"),
            (Some(l), None) => format!(":{l}"),
            _ => String::new(),
        };
        writeln!(
            out,
            "{}{pos}: {c}{}{r}[{}] {}",
            escape::path(f.path),
            f.d.severity,
            f.d.rule,
            escape::line(&f.d.message)
        )?;
    }
    let invalid = {
        let mut set = std::collections::HashSet::new();
        for f in findings {
            if f.d.severity == Severity::Error {
                set.insert(f.path);
            }
        }
        set.len()
    };
    writeln!(
        out,
        "{} checked with the {} profile{}: {}, {}; {}",
        count_of(checked, "skill", "skills"),
        profile,
        if profile == "per-agent" {
            " (each agent's own: claude-code, codex, opencode, lazy-skills; spec elsewhere)"
        } else {
            ""
        },
        count_of(counts.errors, "error", "errors"),
        count_of(counts.warnings, "warning", "warnings"),
        count_of(invalid, "file with errors", "files with errors"),
    )
}

/// Findings shown in a markdown table at most: a pull-request comment stays readable.
const MARKDOWN_ROWS: usize = 30;

fn markdown(
    checked: usize,
    findings: &[Finding],
    counts: Counts,
    args: &CheckArgs,
    profile: &str,
    listing_over: Option<(usize, usize)>,
) -> String {
    use crate::cli::baseline::md_cell;
    let shown: Vec<&Finding> = findings
        .iter()
        .filter(|f| args.verbose || f.d.severity != Severity::Info)
        .collect();
    let mut files: Vec<&Path> = findings
        .iter()
        .filter(|f| f.d.severity == Severity::Error)
        .map(|f| f.path)
        .collect();
    files.sort();
    files.dedup();
    let verdict = if counts.errors > 0 || listing_over.is_some() {
        ":x:"
    } else {
        ":white_check_mark:"
    };
    let mut s = format!(
        "### skillscope check ({} profile)\n\n{verdict} **{}: {}, {}**; {}\n",
        profile,
        count_of(checked, "skill", "skills"),
        count_of(counts.errors, "error", "errors"),
        count_of(counts.warnings, "warning", "warnings"),
        count_of(files.len(), "file with errors", "files with errors"),
    );
    if let Some((n, max)) = listing_over {
        s.push_str(&format!(
            "\n:x: the {} listing costs {n} {} tokens per turn, over the limit of {max}\n",
            args.listing, args.encoding
        ));
    }
    if !shown.is_empty() {
        s.push_str("\n| | rule | where | message |\n|---|---|---|---|\n");
        for f in shown.iter().take(MARKDOWN_ROWS) {
            let pos = f.d.line.map_or_else(String::new, |l| format!(":{l}"));
            s.push_str(&format!(
                "| {} | {} | {}{pos} | {} |\n",
                f.d.severity,
                md_cell(f.d.rule.as_str()),
                md_cell(&f.path.display().to_string()),
                md_cell(&f.d.message)
            ));
        }
        if shown.len() > MARKDOWN_ROWS {
            s.push_str(&format!(
                "\n… and {} more (`skillscope check --format json` lists them all).\n",
                shown.len() - MARKDOWN_ROWS
            ));
        }
    }
    s
}

fn sarif(findings: &[Finding]) -> serde_json::Value {
    let rules: Vec<_> = rules::RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "shortDescription": {"text": r.summary},
                "properties": {"family": r.family.as_str()},
            })
        })
        .collect();
    let results: Vec<_> = findings
        .iter()
        .map(|f| {
            let mut region = serde_json::Map::new();
            if let Some(l) = f.d.line {
                region.insert("startLine".into(), l.into());
            }
            if let Some(c) = f.d.column {
                region.insert("startColumn".into(), c.into());
            }
            let mut loc = json!({"artifactLocation": {"uri": f.path.to_string_lossy()}});
            if !region.is_empty() {
                loc["region"] = serde_json::Value::Object(region);
            }
            json!({
                "ruleId": f.d.rule,
                "level": match f.d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Info => "note",
                },
                "message": {"text": f.d.message},
                "locations": [{"physicalLocation": loc}],
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skillscope",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    })
}
