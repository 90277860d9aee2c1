//! `skillscope eval`: score the matchers against a file of messages with the skills they should
//! trigger.

use crate::cli::args::LibraryArgs;
use crate::cli::args::{allowed, load_library};
use crate::cli::match_cmd::{MatcherChoice, index_for};
use crate::cli::output::use_color;
use crate::cli::style::{Style, Tone};
use crate::core::matching::eval::{Score, check_names, evaluate, parse_cases};
use crate::core::matching::{Matcher, keyword_crowded};
use crate::core::words::text::{count_of, line, thousands};
use anyhow::Context;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// JSON Lines (or a JSON array), or YAML (`.yaml`/`.yml`): a list of
    /// `{message, expect: [skill names]}`; an empty `expect` means nothing should trigger.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Which matcher to score; `all` scores every routing matcher (all but fuzzy) side by side,
    /// skipping (and saying so) a matcher with nothing to match, such as triggers where no skill
    /// declares any.
    #[arg(long, value_enum, default_value_t = MatcherChoice::All)]
    pub matcher: MatcherChoice,
    /// How many skills each matcher may trigger per message.
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub top: usize,
    /// Exit 1 when the recall of any scored matcher is below R (0 to 1).
    #[arg(long, value_name = "R")]
    pub min_recall: Option<f64>,
    /// Let every skill compete, also the shadowed ones and those closed to model invocation.
    #[arg(long)]
    pub include_disabled: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub scope: crate::cli::args::ScopeArgs,
}

pub fn run(args: EvalArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    let asked = args.matcher.matchers()?;
    if let Some(r) = args.min_recall
        && !(0.0..=1.0).contains(&r)
    {
        anyhow::bail!("--min-recall must be between 0 and 1, got {r}");
    }
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let yaml = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
    let cases = parse_cases(&text, yaml).with_context(|| format!("in {}", args.file.display()))?;
    let lib = load_library(&library)?;
    check_names(&cases, &lib).with_context(|| format!("in {}", args.file.display()))?;
    let index = index_for(&lib, &asked)?;
    let allowed = allowed(&lib, args.include_disabled);
    let scope = args.scope.mask(&lib);
    let enabled = |i: usize| allowed[i] && scope[i];
    // Asked by name, a matcher is scored whatever the library; among `all`, one with nothing to
    // match would only drag the table (and --min-recall) down.
    let (matchers, skipped): (Vec<Matcher>, Vec<Matcher>) = asked
        .iter()
        .partition(|&&m| args.matcher != MatcherChoice::All || index.matchable(m, &enabled));
    let skipped: Vec<(Matcher, String)> = skipped
        .into_iter()
        .map(|m| (m, nothing_to_match(m)))
        .chain(args.matcher.not_built_in().into_iter().map(|m| {
            let why = crate::core::matching::sentence::NOT_BUILT_IN;
            (m, why.to_string())
        }))
        .collect();
    let scores = evaluate(&index, &lib, &cases, &matchers, &enabled, args.top);
    let competing = (0..lib.len()).filter(|&i| enabled(i)).count();
    let warnings: Vec<String> = matchers
        .contains(&Matcher::Keyword)
        .then(|| keyword_crowded(competing))
        .flatten()
        .into_iter()
        .collect();
    let below: Vec<&Score> = args
        .min_recall
        .map(|r| scores.iter().filter(|s| s.recall < r).collect())
        .unwrap_or_default();
    if args.json {
        let doc = json!({
            "file": args.file,
            "cases": cases.len(),
            "skills": lib.skills.len(),
            "competing": competing,
            "top": args.top,
            "matchers": scores,
            "skipped": skipped
                .iter()
                .map(|(m, why)| json!({"matcher": m, "why": why}))
                .collect::<Vec<_>>(),
            "warnings": warnings,
        });
        println!("{}", crate::cli::output::json_string(&doc)?);
    } else {
        print!(
            "{}",
            render(
                &Report {
                    scores: &scores,
                    skipped: &skipped,
                    warnings: &warnings,
                    cases: cases.len(),
                    skills: lib.skills.len(),
                    top: args.top,
                },
                use_color()
            )
        );
    }
    if let Some(r) = args.min_recall
        && !below.is_empty()
    {
        for s in &below {
            let hint = if index.matchable(s.matcher, &enabled) {
                String::new()
            } else {
                format!(" ({})", nothing_to_match(s.matcher))
            };
            eprintln!(
                "skillscope: {} recall {:.2} is below --min-recall {r}{hint}",
                s.matcher, s.recall
            );
        }
        return Ok(1);
    }
    Ok(0)
}

/// Why a matcher has nothing to match in this library.
fn nothing_to_match(m: Matcher) -> String {
    match m {
        Matcher::Triggers => {
            "no competing skill declares `triggers:`, so this matcher can match nothing".into()
        }
        _ => "no skill competes".into(),
    }
}

/// Everything the text report shows.
pub struct Report<'a> {
    pub scores: &'a [Score],
    /// Matchers left out, each with why.
    pub skipped: &'a [(Matcher, String)],
    pub warnings: &'a [String],
    pub cases: usize,
    pub skills: usize,
    pub top: usize,
}

/// A table of precision, recall and F1 per matcher, then each matcher's misses and false alarms
/// by message (skills by id, so copies of one name stay apart).
pub fn render(report: &Report, color: bool) -> String {
    let Report {
        scores,
        skipped,
        warnings,
        cases,
        skills,
        top,
    } = *report;
    let style = Style::new(color);
    let paint = |tone: Tone, s: &str| style.paint(tone, s);
    let quiet = scores.first().map_or(0, |s| s.expected_quiet);
    let mut out = format!(
        "{} ({} nothing) · {} · at most {} per message\n\n",
        count_of(cases, "message", "messages"),
        if quiet == 1 {
            "1 expects".to_string()
        } else {
            format!("{} expect", thousands(quiet as u64))
        },
        count_of(skills, "skill", "skills"),
        thousands(top as u64)
    );
    out.push_str(&format!(
        "{:<10} {:>9} {:>7} {:>6} {:>5} {:>5} {:>5} {:>7}\n",
        "matcher", "precision", "recall", "f1", "tp", "fp", "fn", "quiet"
    ));
    for s in scores {
        out.push_str(&format!(
            "{:<10} {:>9.2} {:>7.2} {:>6.2} {:>5} {:>5} {:>5} {:>7}\n",
            s.matcher.as_str(),
            s.precision,
            s.recall,
            s.f1,
            s.true_positives,
            s.false_positives,
            s.false_negatives,
            format!("{}/{}", s.quiet_when_expected, s.expected_quiet),
        ));
    }
    for (m, why) in skipped {
        out.push_str(&format!("{:<10} skipped: {why}\n", m.as_str()));
    }
    for w in warnings {
        out.push_str(&format!(
            "{}\n",
            paint(Tone::Warn, &format!("warning: {w}"))
        ));
    }
    for s in scores {
        let wrong: Vec<_> = s
            .outcomes
            .iter()
            .filter(|o| !o.missed.is_empty() || !o.false_alarms.is_empty())
            .collect();
        out.push_str(&format!(
            "\n{} — {} of {} not as expected\n",
            paint(Tone::Strong, s.matcher.as_str()),
            thousands(wrong.len() as u64),
            count_of(cases, "message", "messages")
        ));
        for o in wrong {
            out.push_str(&format!("  {}\n", line(&format!("{:?}", o.message))));
            if !o.missed.is_empty() {
                out.push_str(&format!(
                    "    missed:       {}\n",
                    paint(Tone::Bad, &line(&o.missed.join(", ")))
                ));
            }
            if !o.false_alarms.is_empty() {
                out.push_str(&format!(
                    "    false alarms: {}\n",
                    paint(Tone::Warn, &line(&o.false_alarms.join(", ")))
                ));
            }
        }
    }
    out
}
