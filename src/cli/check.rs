//! `skillscope check`: validate skills against an agent profile, as text, JSON, SARIF, GitHub
//! workflow commands or markdown, with the rules the user selected.

use crate::cli::args::LibraryArgs;
use crate::cli::ci_formats::{self, md_text};
use crate::cli::style::{Style, Tone};
use crate::core::Library;
use crate::core::findings::diagnostic::{Counts, Diagnostic, Severity};
use crate::core::listing::{self, Format, ListingOptions, Tier};
use crate::core::rules::overlap::Meaning;
use crate::core::rules::select::{Place, Selection, Selector};
use crate::core::rules::{self, CheckOptions, Profile};
use crate::core::tokens::{self, Encoding, TokenCache};
use crate::core::words::escape;
use crate::core::words::text::{count_of, thousands};
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
    /// GitHub Actions workflow commands: one inline annotation per finding.
    Github,
    /// A short table for a pull-request comment.
    Markdown,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Whose rules to apply: spec, claude-code, codex, opencode, lazy-skills, qwen-code,
    /// github-copilot, cline or openclaw (default: each agent's own for its folders, spec for
    /// folders named here).
    #[arg(long, add = clap_complete::ArgValueCandidates::new(crate::cli::complete::profiles))]
    pub profile: Option<Profile>,
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Report only these rules: rule ids or families, comma-separated or repeated
    /// (`--select name,description-generic`).
    #[arg(long, value_name = "RULE", value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(crate::cli::complete::rules))]
    pub select: Vec<Selector>,
    /// Leave out these rules (ids or families); a more specific --select keeps its own.
    #[arg(long, value_name = "RULE", value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(crate::cli::complete::rules))]
    pub ignore: Vec<Selector>,
    /// Report warnings as errors: exit 1 on any warning.
    #[arg(long)]
    pub warnings_as_errors: bool,
    /// Also fail when the listing of enabled skills exceeds this many tokens.
    #[arg(long, value_name = "N")]
    pub max_listing_tokens: Option<usize>,
    /// Also fail when the listing of enabled skills is bigger than the context window.
    #[arg(long)]
    pub fail_over_window: bool,
    /// The listing format measured against the window and --max-listing-tokens: xml,
    /// markdown, claude-code, codex, lazy-skills, gemini or opencode.
    #[arg(long, default_value_t = Format::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::listings))]
    pub listing: Format,
    /// The model's context window (the claude-code and codex listing budgets are a share of it).
    #[arg(long, default_value_t = listing::DEFAULT_CONTEXT_WINDOW)]
    pub context_window: usize,
    /// Encoding for the body-length and listing limits: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Encoding::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::encodings))]
    pub encoding: Encoding,
    /// Show info-level findings too.
    #[arg(long, short)]
    pub verbose: bool,
    /// First make the sentence vectors the library index lacks (the bundled model runs, about
    /// 2 s per 100 skills, once), so that the overlap rule also finds descriptions that mean
    /// nearly the same in other words. Without it, check uses the vectors remembered from an
    /// earlier semantic match, eval or the app's Test box, and compares words alone when any
    /// is missing.
    #[arg(long)]
    pub embed: bool,
    /// Count the findings per rule instead of listing them (text; JSON adds `statistics`).
    #[arg(long)]
    pub statistics: bool,
    /// Fix the findings shown whose fix is mechanical (docs/rules.md says which), editing only
    /// the bytes each fix needs and refusing, with the reason, what it cannot edit faithfully;
    /// the report that follows is of what is left.
    #[arg(long)]
    pub fix: bool,
    /// Show the fixes as a unified diff of each frontmatter and write nothing, also with --fix
    /// (exit 1 when there is something to fix).
    #[arg(long)]
    pub diff: bool,
    #[command(flatten)]
    pub scope: crate::cli::args::ScopeArgs,
}

impl CheckArgs {
    /// The config file's `[rules]` with the command line's choices over them.
    pub(crate) fn selection(&self) -> Selection {
        Selection {
            config: crate::config::active()
                .map(|c| c.rules.clone())
                .unwrap_or_default(),
            select: self.select.clone(),
            ignore: self.ignore.clone(),
            warnings_as_errors: self.warnings_as_errors,
        }
    }
}

/// `check --format json`, serialised as it is built (no intermediate JSON tree).
#[derive(Serialize)]
struct JsonReport<'a> {
    profile: &'static str,
    skills: usize,
    errors: usize,
    warnings: usize,
    listing: JsonListing,
    overlap_by_meaning: JsonMeaning,
    #[serde(skip_serializing_if = "Option::is_none")]
    statistics: Option<Vec<RuleCount>>,
    diagnostics: Vec<JsonFinding<'a>>,
}

/// How many findings one rule made, at one severity (`check --statistics`).
#[derive(Serialize)]
struct RuleCount {
    rule: crate::core::findings::diagnostic::RuleId,
    severity: Severity,
    count: usize,
    fixable: bool,
}

/// Whether the overlap rule compared the descriptions by meaning too, and if not, how many had
/// no sentence vector.
#[derive(Serialize)]
struct JsonMeaning {
    compared: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    without_vector: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    descriptions: Option<usize>,
}

impl From<Meaning> for JsonMeaning {
    fn from(m: Meaning) -> JsonMeaning {
        match m {
            Meaning::Compared => JsonMeaning {
                compared: true,
                without_vector: None,
                descriptions: None,
            },
            Meaning::Missing { missing, of } => JsonMeaning {
                compared: false,
                without_vector: Some(missing),
                descriptions: Some(of),
            },
        }
    }
}

/// The listing of enabled skills measured against the window.
#[derive(Serialize)]
struct JsonListing {
    format: Format,
    encoding: Encoding,
    tokens: usize,
    context_window: usize,
    window_percent: f64,
    over_window: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_listing_tokens: Option<usize>,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    path: std::borrow::Cow<'a, str>,
    rule: crate::core::findings::diagnostic::RuleId,
    severity: Severity,
    message: &'a str,
    line: Option<u32>,
    column: Option<u32>,
}

impl<'a> JsonFinding<'a> {
    /// The finding `f` as the report shows it.
    fn of(f: &'a Finding<'a>) -> JsonFinding<'a> {
        JsonFinding {
            path: crate::core::files::paths::lossy(f.path),
            rule: f.d.rule,
            severity: f.d.severity,
            message: &f.d.message,
            line: f.d.line,
            column: f.d.column,
        }
    }
}

/// One finding with the file it is about.
struct Finding<'a> {
    path: &'a Path,
    d: &'a Diagnostic,
}

/// What the listing of enabled skills costs per turn, against the limits asked for.
#[derive(Clone, Copy)]
struct ListingCost {
    tokens: usize,
    over_max: Option<usize>,
    over_window: bool,
}

/// Everything a report is written from.
struct Report<'a> {
    args: &'a CheckArgs,
    checked: usize,
    findings: &'a [Finding<'a>],
    counts: Counts,
    profile: &'static str,
    listing: ListingCost,
    meaning: Meaning,
}

impl Report<'_> {
    /// Writes the report in the format asked for.
    fn write(&self, findings: &[Finding<'_>]) -> anyhow::Result<()> {
        // Buffered: a line-buffered stdout costs a write call per line of a report of thousands.
        let mut out = crate::cli::output::report_out();
        match self.args.format {
            CheckFormat::Text => self.write_text(&mut out)?,
            CheckFormat::Github => self.write_github(&mut out)?,
            CheckFormat::Json => {
                write_json_report(&mut out, self.json(), self.findings)?;
                writeln!(out)?;
            }
            CheckFormat::Sarif => {
                crate::cli::output::write_json(&mut out, &sarif(findings))?;
                writeln!(out)?;
            }
            CheckFormat::Markdown => out.write_all(self.markdown().as_bytes())?,
        }
        out.flush()?;
        Ok(())
    }
}

/// The JSON report, its findings (the last field, thousands of them) serialised on every core a
/// wave at a time: the rest is written with no findings, and they go where its empty list ends
/// it.
fn write_json_report<'a>(
    out: &mut impl Write,
    mut report: JsonReport<'a>,
    findings: &'a [Finding<'a>],
) -> anyhow::Result<()> {
    use crate::cli::output::{JsonArray, write_json};
    let mut head = Vec::new();
    write_json(&mut head, &report)?;
    match head.strip_suffix(b"[]\n}") {
        Some(head) if !findings.is_empty() => {
            out.write_all(head)?;
            let mut array = JsonArray::new(1);
            array.write_with(out, findings, JsonFinding::of)?;
            array.finish(out)?;
            out.write_all(b"\n}")?;
        }
        _ => {
            report.diagnostics = findings.iter().map(JsonFinding::of).collect();
            write_json(out, &report)?;
        }
    }
    Ok(())
}

/// `check` after `--fix` and `--diff` are done (`cli::check_fix`, run first by the command's
/// router, which sits above both).
pub fn run(args: CheckArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    // The token cache is read only if a count is missing from the library index (a long body
    // changed) or the listing changed.
    // Check reads no resource's size, kind or count: only their names and links.
    let lib = library.load_by_name();
    if lib.demo {
        anyhow::bail!(NOTHING_INSTALLED);
    }
    let roots_code = crate::cli::args::require_skills(&lib, "check")?;
    let cache = TokenCache::open_lazily();
    crate::cli::output::note_demo(&lib);
    let profile = args.profile.unwrap_or_else(|| Profile::fitting(&lib));
    // Without --profile, each agent's skills are judged as that agent judges them (also in a
    // folder named on the command line that is an agent's folder).
    let per_agent = args.profile.is_none() && rules::has_agent_skills(&lib);
    let label = if per_agent {
        "per-agent"
    } else {
        profile.as_str()
    };
    let selection = args.selection();
    let (enabled, shadowed) = crate::cli::args::enabled_and_shadowed(&lib);
    let is_enabled = |i: usize| enabled[i];
    let scope = args.scope.mask(&lib);
    let vectors = if args.embed {
        Some(crate::cli::match_cmd::skill_vectors(&lib)?.by_key())
    } else {
        None
    };
    // The listing is measured beside the rules: it needs nothing from them, and on its own it
    // would keep one core idle.
    let (checked, n) = rayon::join(
        || {
            rules::check(
                &lib,
                &CheckOptions {
                    per_agent,
                    profile,
                    body: true,
                    tokens: Some((args.encoding, &cache)),
                    enabled: Some(&is_enabled),
                    selection: Some(&selection),
                    vectors: vectors.as_ref(),
                    shadowed: shadowed.as_deref(),
                },
            )
        },
        || {
            let rendered = listing::render(
                &lib,
                &|i| is_enabled(i) && scope[i],
                &ListingOptions {
                    format: args.listing,
                    tier: Tier::Auto,
                    context_window: args.context_window,
                    ..ListingOptions::default()
                },
            );
            tokens::count_listing(&lib, &rendered.text, args.encoding, &cache) as usize
        },
    );
    let rules::Checked {
        diagnostics: diags,
        meaning,
        ..
    } = checked;
    let problems = judged_problems(&lib, &selection);
    let findings = findings(&problems, &diags, &scope);
    let counts = Counts::of(findings.iter().map(|f| f.d));
    let listing = ListingCost {
        tokens: n,
        over_max: args.max_listing_tokens.filter(|&max| n > max),
        over_window: n > args.context_window,
    };
    crate::cli::args::save_cache(&cache);
    crate::cli::args::save_index(&lib);
    let report = Report {
        args: &args,
        checked: scope.iter().filter(|s| **s).count(),
        findings: &findings,
        counts,
        profile: label,
        listing,
        meaning,
    };
    report.write(&findings)?;
    // Why a gate failed goes to stderr in every format: the job log says it beside the report.
    if let Some(max) = listing.over_max {
        crate::cli::output::warn(format_args!(
            "the {} listing of enabled skills costs {} {} tokens per turn, over the limit of {}",
            args.listing,
            thousands(listing.tokens as u64),
            args.encoding,
            thousands(max as u64)
        ));
    }
    if listing.over_window && (args.fail_over_window || report.window_unsaid()) {
        crate::cli::output::warn(report.window_warning());
    }
    if let Some(note) = report.meaning_note(&selection) {
        crate::cli::output::warn(note);
    }
    crate::cli::output::keep_until_exit((lib, cache, diags));
    let failed = counts.errors > 0
        || listing.over_max.is_some()
        || (args.fail_over_window && listing.over_window);
    Ok(i32::from(failed).max(roots_code))
}

/// Why `check` with no folder named and none installed stops: a gate that checked the bundled
/// demo would fail or pass on skills that are not the user's.
pub const NOTHING_INSTALLED: &str = "nothing to check: no agent's skill folder holds a skill \
     (`skillscope list` shows where skillscope looks), and check never checks the bundled demo; \
     name the folders to check (`skillscope check path/to/skills`) or add them to `roots` in \
     config.toml";

/// The library's own problems (missing roots, unreadable folders) as the selection weighs them.
fn judged_problems(lib: &Library, selection: &Selection) -> Vec<Diagnostic> {
    lib.problems
        .iter()
        .filter_map(|d| {
            let file = d.path.as_deref().unwrap_or(Path::new("."));
            let root = lib
                .roots
                .iter()
                .map(|r| r.path.as_path())
                .find(|r| file.starts_with(r));
            let severity = selection.judge(d.rule, d.severity, Place { file, root })?;
            Some(Diagnostic {
                severity,
                ..d.clone()
            })
        })
        .collect()
}

fn findings<'a>(
    problems: &'a [Diagnostic],
    diags: &'a [Vec<Diagnostic>],
    scope: &[bool],
) -> Vec<Finding<'a>> {
    let mut out: Vec<Finding> = problems
        .iter()
        .map(|d| Finding {
            path: d.path.as_deref().unwrap_or(Path::new(".")),
            d,
        })
        .collect();
    for (ds, _) in diags.iter().zip(scope).filter(|(_, on)| **on) {
        // The core gives a skill's findings their file: only the library's own lack one.
        out.extend(ds.iter().map(|d| Finding {
            path: d.path.as_deref().unwrap_or(Path::new(".")),
            d,
        }));
    }
    out
}

impl Report<'_> {
    /// The findings a person sees: info only with --verbose.
    fn shown(&self) -> impl Iterator<Item = &Finding<'_>> {
        self.findings
            .iter()
            .filter(|f| self.args.verbose || f.d.severity != Severity::Info)
    }

    /// How many files hold an error.
    fn files_with_errors(&self) -> usize {
        let mut files: Vec<&Path> = self
            .findings
            .iter()
            .filter(|f| f.d.severity == Severity::Error)
            .map(|f| f.path)
            .collect();
        files.sort();
        files.dedup();
        files.len()
    }

    /// `3 skills checked with the spec profile: 1 error, 2 warnings; 1 file with errors`.
    fn summary(&self) -> String {
        let own = if self.profile == "per-agent" {
            let agents: Vec<&str> = Profile::ALL
                .iter()
                .filter(|p| **p != Profile::Spec)
                .map(|p| p.as_str())
                .collect();
            format!(" (each agent's own: {}; spec elsewhere)", agents.join(", "))
        } else {
            String::new()
        };
        format!(
            "{} checked with the {} profile{own}: {}, {}; {}",
            count_of(self.checked, "skill", "skills"),
            self.profile,
            count_of(self.counts.errors, "error", "errors"),
            count_of(self.counts.warnings, "warning", "warnings"),
            count_of(
                self.files_with_errors(),
                "file with errors",
                "files with errors"
            ),
        )
    }

    /// The listing is bigger than the window: every turn would overflow it.
    fn window_warning(&self) -> String {
        format!(
            "the {} listing of enabled skills costs {} {} tokens per turn: {}",
            self.args.listing,
            thousands(self.listing.tokens as u64),
            self.args.encoding,
            crate::cli::output::window_share(self.listing.tokens, self.args.context_window)
        )
    }

    /// Why the overlap rule compared words alone, when it did and is reported (JSON says it in
    /// `overlap_by_meaning`).
    fn meaning_note(&self, selection: &Selection) -> Option<String> {
        let Meaning::Missing { missing, of } = self.meaning else {
            return None;
        };
        let place = Place {
            file: Path::new("."),
            root: None,
        };
        let reported = selection
            .judge(rules::RuleId::Overlap, Severity::Warning, place)
            .is_some();
        let remedy = if crate::core::matching::sentence::BUILT_IN {
            "`check --embed` makes them (once, about 2 s per 100 skills) and finds descriptions \
             that mean nearly the same in other words"
        } else {
            "the sentence model that makes them is not built in (skillscope was built without \
             the semantic feature)"
        };
        // Said only when asked for (--verbose): the same note after every check is noise, and
        // JSON carries it in `overlap_by_meaning`.
        (reported && self.args.verbose && self.args.format != CheckFormat::Json).then(|| {
            format!(
                "the overlap rule compared descriptions by their words alone: {} of {} {} no \
                 sentence vector yet; {remedy}",
                thousands(missing as u64),
                count_of(of, "description", "descriptions"),
                if missing == 1 { "has" } else { "have" }
            )
        })
    }

    /// The report itself does not carry the window warning (JSON and SARIF carry only
    /// figures), so stderr says it.
    fn window_unsaid(&self) -> bool {
        matches!(self.args.format, CheckFormat::Json | CheckFormat::Sarif)
    }

    /// The findings shown, counted per rule and severity: most first, then by rule.
    fn statistics(&self) -> Vec<RuleCount> {
        let mut counts: Vec<RuleCount> = Vec::new();
        for f in self.shown() {
            match counts
                .iter_mut()
                .find(|c| c.rule == f.d.rule && c.severity == f.d.severity)
            {
                Some(c) => c.count += 1,
                None => counts.push(RuleCount {
                    rule: f.d.rule,
                    severity: f.d.severity,
                    count: 1,
                    fixable: f.d.rule.fix().is_some(),
                }),
            }
        }
        counts.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(b.severity.cmp(&a.severity))
                .then(a.rule.as_str().cmp(b.rule.as_str()))
        });
        counts
    }

    /// `  12  error    unknown-field  (--fix)`: one line per rule and severity.
    fn write_statistics(&self, out: &mut impl Write) -> std::io::Result<()> {
        let counts = self.statistics();
        let width = counts
            .iter()
            .map(|c| c.rule.as_str().len())
            .max()
            .unwrap_or(0);
        let figures = counts
            .iter()
            .map(|c| thousands(c.count as u64).len())
            .max()
            .unwrap_or(0);
        for c in &counts {
            let line = format!(
                "{:>figures$}  {:<7}  {:<width$}  {}",
                thousands(c.count as u64),
                c.severity.to_string(),
                c.rule.as_str(),
                if c.fixable { "(--fix)" } else { "" }
            );
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }

    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        let style = Style::new(crate::cli::output::use_color());
        if self.args.statistics {
            self.write_statistics(out)?;
        }
        let mut paths = ShownPaths::default();
        for f in self.shown().filter(|_| !self.args.statistics) {
            let pos = match (f.d.line, f.d.column) {
                (Some(l), Some(col)) => format!(":{l}:{col}"),
                (Some(l), None) => format!(":{l}"),
                _ => String::new(),
            };
            let shown = paths.of(f.path);
            writeln!(
                out,
                "{shown}{pos}: {}[{}] {}",
                style.severity(f.d.severity, Tone::Note, f.d.severity.as_str()),
                f.d.rule,
                escape::line(&f.d.message)
            )?;
        }
        writeln!(out, "{}", self.summary())?;
        if self.listing.over_window {
            writeln!(
                out,
                "{}: {}",
                style.paint(Tone::Warn, "warning"),
                self.window_warning()
            )?;
        }
        Ok(())
    }

    /// One workflow command per finding, then the summary as a plain log line.
    fn write_github(&self, out: &mut impl Write) -> std::io::Result<()> {
        use ci_formats::{workflow_data, workflow_property};
        for f in self.shown() {
            let kind = match f.d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut props = vec![format!(
                "file={}",
                workflow_property(&ci_formats::relative_to_cwd(f.path).to_string_lossy())
            )];
            if let Some(l) = f.d.line {
                props.push(format!("line={l}"));
            }
            if let Some(c) = f.d.column {
                props.push(format!("col={c}"));
            }
            props.push(format!("title={}", workflow_property(f.d.rule.as_str())));
            writeln!(
                out,
                "::{kind} {}::{}",
                props.join(","),
                workflow_data(&f.d.message)
            )?;
        }
        if self.listing.over_window {
            writeln!(
                out,
                "::warning title={}::{}",
                workflow_property("listing over the context window"),
                workflow_data(&self.window_warning())
            )?;
        }
        writeln!(out, "{}", self.summary())
    }

    fn json(&self) -> JsonReport<'_> {
        let window = self.args.context_window;
        JsonReport {
            profile: self.profile,
            skills: self.checked,
            errors: self.counts.errors,
            warnings: self.counts.warnings,
            listing: JsonListing {
                format: self.args.listing,
                encoding: self.args.encoding,
                tokens: self.listing.tokens,
                context_window: window,
                window_percent: crate::cli::output::window_percent(self.listing.tokens, window),
                over_window: self.listing.over_window,
                max_listing_tokens: self.args.max_listing_tokens,
            },
            overlap_by_meaning: self.meaning.into(),
            statistics: self.args.statistics.then(|| self.statistics()),
            // Written from the findings themselves ([`write_json_report`]).
            diagnostics: Vec::new(),
        }
    }

    fn markdown(&self) -> String {
        use crate::cli::ci_formats::md_cell;
        let shown: Vec<&Finding> = self.shown().collect();
        let failed = self.counts.errors > 0
            || self.listing.over_max.is_some()
            || (self.args.fail_over_window && self.listing.over_window);
        let verdict = if failed { ":x:" } else { ":white_check_mark:" };
        let mut s = format!(
            "### skillscope check ({} profile)\n\n{verdict} **{}: {}, {}**; {}\n",
            self.profile,
            count_of(self.checked, "skill", "skills"),
            count_of(self.counts.errors, "error", "errors"),
            count_of(self.counts.warnings, "warning", "warnings"),
            count_of(
                self.files_with_errors(),
                "file with errors",
                "files with errors"
            ),
        );
        if let Some(max) = self.listing.over_max {
            s.push_str(&format!(
                "\n:x: the {} listing costs {} {} tokens per turn, over the limit of {}\n",
                self.args.listing,
                thousands(self.listing.tokens as u64),
                self.args.encoding,
                thousands(max as u64)
            ));
        }
        if self.listing.over_window {
            s.push_str(&format!(
                "\n:warning: {}\n",
                md_text(&self.window_warning())
            ));
        }
        if !shown.is_empty() {
            s.push_str("\n| | rule | where | message |\n|---|---|---|---|\n");
            for f in shown.iter().take(MARKDOWN_ROWS) {
                let pos = f.d.line.map_or_else(String::new, |l| format!(":{l}"));
                s.push_str(&format!(
                    "| {} | `{}` | {}{pos} | {} |\n",
                    f.d.severity,
                    f.d.rule.as_str(),
                    md_cell(&crate::cli::output::shown_path(f.path)),
                    md_text(&f.d.message)
                ));
            }
            if shown.len() > MARKDOWN_ROWS {
                s.push_str(&format!(
                    "\n… and {} more (`skillscope check --format json` lists them all).\n",
                    thousands((shown.len() - MARKDOWN_ROWS) as u64)
                ));
            }
        }
        s
    }
}

/// [`crate::cli::output::shown_path`] of the findings' files in turn. A file's findings come one
/// after another, so its path is shown once for all of them: a path written the same as the one
/// before (the same bytes, so shown the same) reuses it.
#[derive(Default)]
struct ShownPaths<'a> {
    last: Option<(&'a Path, String)>,
}

impl<'a> ShownPaths<'a> {
    fn of(&mut self, path: &'a Path) -> &str {
        let shown = match self.last.take() {
            Some((p, shown)) if p.as_os_str() == path.as_os_str() => (p, shown),
            _ => (path, crate::cli::output::shown_path(path)),
        };
        &self.last.insert(shown).1
    }
}

/// Findings shown in a markdown table at most: a pull-request comment stays readable.
const MARKDOWN_ROWS: usize = 30;

fn sarif(findings: &[Finding]) -> serde_json::Value {
    let rules: Vec<_> = rules::RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "shortDescription": {"text": r.summary},
                "helpUri": ci_formats::rule_help_uri(r.id),
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
            let mut loc = json!({"artifactLocation": ci_formats::artifact_location(f.path)});
            if !region.is_empty() {
                loc["region"] = serde_json::Value::Object(region);
            }
            json!({
                "ruleId": f.d.rule,
                "ruleIndex": f.d.rule as usize,
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
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules,
            }},
            "originalUriBaseIds": ci_formats::original_uri_base_ids(),
            "results": results,
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::findings::diagnostic::RuleId;

    /// A report with `diagnostics` in it.
    fn report(diagnostics: Vec<JsonFinding<'_>>) -> JsonReport<'_> {
        JsonReport {
            profile: "strict",
            skills: 7,
            errors: 3,
            warnings: 4,
            listing: JsonListing {
                format: Format::default(),
                encoding: Encoding::default(),
                tokens: 1234,
                context_window: 200_000,
                window_percent: 0.6,
                over_window: false,
                max_listing_tokens: Some(5),
            },
            overlap_by_meaning: Meaning::Missing { missing: 2, of: 9 }.into(),
            statistics: None,
            diagnostics,
        }
    }

    /// The JSON report with its findings written a wave at a time from the findings themselves
    /// is the report serialised whole with them in it, for no finding, one, and more than a
    /// wave.
    #[test]
    fn the_json_report_written_in_waves_is_the_report_written_whole() {
        let paths: Vec<std::path::PathBuf> = (0..7)
            .map(|i| std::path::PathBuf::from(format!("/tmp/s{i}/SKILL.md")))
            .collect();
        let diags: Vec<Diagnostic> = (0..1300u32)
            .map(|i| {
                let d = Diagnostic::new(
                    RuleId::BodyTooLong,
                    if i % 3 == 0 {
                        Severity::Error
                    } else {
                        Severity::Warning
                    },
                    format!("finding {i} \u{202e}\u{7f}\n\"quoted\""),
                );
                if i % 2 == 0 { d.at(i, i % 5) } else { d }
            })
            .collect();
        let findings: Vec<Finding> = diags
            .iter()
            .enumerate()
            .map(|(i, d)| Finding {
                path: &paths[i % paths.len()],
                d,
            })
            .collect();
        for n in [0, 1, 513, 1300] {
            let mut whole = Vec::new();
            let all = findings[..n].iter().map(JsonFinding::of).collect();
            crate::cli::output::write_json(&mut whole, &report(all)).unwrap();
            let mut waves = Vec::new();
            write_json_report(&mut waves, report(Vec::new()), &findings[..n]).unwrap();
            assert_eq!(
                String::from_utf8(waves).unwrap(),
                String::from_utf8(whole).unwrap(),
                "{n} findings"
            );
        }
    }

    /// The remembered path is what showing each path afresh gives, in any order, also for paths
    /// equal as paths but written apart.
    #[test]
    fn a_path_shown_again_is_shown_as_afresh() {
        let cwd = std::env::current_dir().unwrap();
        let inside = cwd.join("skills/pdf/SKILL.md");
        let paths = [
            Path::new("/tmp/a/SKILL.md"),
            Path::new("/tmp/a/SKILL.md"),
            Path::new("/tmp//a/SKILL.md"),
            Path::new("/tmp/a/SKILL.md"),
            Path::new("rel/x\u{202e}.md"),
            Path::new("."),
            inside.as_path(),
            inside.as_path(),
            cwd.as_path(),
            Path::new("/tmp/a/SKILL.md"),
        ];
        let mut memo = ShownPaths::default();
        let shown: Vec<String> = paths.iter().map(|p| memo.of(p).to_string()).collect();
        let afresh: Vec<String> = paths
            .iter()
            .map(|p| crate::cli::output::shown_path(p))
            .collect();
        assert_eq!(shown, afresh);
        assert_eq!(
            shown[6],
            crate::core::words::text::path(Path::new("skills/pdf/SKILL.md"))
        );
        assert_ne!(shown[0], shown[4]);
    }
}
