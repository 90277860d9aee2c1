//! `skillscope match`: which skills a message would trigger under each matcher, and why.

use crate::cli::args::LibraryArgs;
use crate::cli::args::{allowed, load_library};
use crate::cli::output::use_color;
use crate::cli::style::{Style, Tone};
use crate::core::Library;
use crate::core::matching::semantic::SkillVectors;
use crate::core::matching::sentence::NOT_BUILT_IN;
use crate::core::matching::{Hit, Index, Match, Matcher, highlight_spans};
use crate::core::words::text::line;
use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::ops::Range;

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The message, as a user would type it to the agent.
    #[arg(value_name = "MESSAGE")]
    pub message: String,
    /// Which matcher to run; `all` runs every routing matcher (all but fuzzy).
    #[arg(long, value_enum, default_value_t = MatcherChoice::All)]
    pub matcher: MatcherChoice,
    /// How many skills to show per matcher (triggers never loads more than 3).
    #[arg(long, value_name = "K", default_value_t = 5)]
    pub top: usize,
    /// Let every skill compete, also the shadowed ones and those closed to model invocation.
    #[arg(long)]
    pub include_disabled: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub scope: crate::cli::args::ScopeArgs,
    #[command(flatten)]
    pub view: crate::cli::args::AgentArgs,
    /// Also show, per agent (or for --agent), the exact text the message makes it add to the
    /// conversation — the bodies it would load, in its framing — and its tokens.
    #[arg(long)]
    pub inject: bool,
    /// Encoding for --inject's token counts: o200k_base or cl100k_base.
    #[arg(long, default_value_t = crate::core::tokens::Encoding::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::encodings))]
    pub encoding: crate::core::tokens::Encoding,
}

/// `--matcher`: one of the core's matchers by its name, or `all` (the routing ones). The values
/// come from `Matcher::ALL`, so a new matcher is offered by `--help` and the completions at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherChoice {
    One(Matcher),
    All,
}

impl MatcherChoice {
    const VALUES: [MatcherChoice; Matcher::ALL.len() + 1] = {
        let mut values = [MatcherChoice::All; Matcher::ALL.len() + 1];
        let mut i = 0;
        while i < Matcher::ALL.len() {
            values[i] = MatcherChoice::One(Matcher::ALL[i]);
            i += 1;
        }
        values
    };

    /// The matchers it runs: `all`, the routing ones this program has built in
    /// ([`Matcher::built_in`]); one named that is not built in is an error that says so.
    pub fn matchers(self) -> anyhow::Result<Vec<Matcher>> {
        match self {
            MatcherChoice::One(m) if !m.built_in() => {
                anyhow::bail!("the {m} matcher is {NOT_BUILT_IN}")
            }
            MatcherChoice::One(m) => Ok(vec![m]),
            MatcherChoice::All => Ok(Matcher::ROUTING
                .into_iter()
                .filter(|m| m.built_in())
                .collect()),
        }
    }

    /// The routing matchers `all` leaves out because this program does not have them.
    pub fn not_built_in(self) -> Vec<Matcher> {
        match self {
            MatcherChoice::One(_) => Vec::new(),
            MatcherChoice::All => Matcher::ROUTING
                .into_iter()
                .filter(|m| !m.built_in())
                .collect(),
        }
    }

    /// Says on stderr which of `all`'s matchers are left out, not being built in.
    pub fn note_not_built_in(self) {
        for m in self.not_built_in() {
            crate::cli::output::warn(format_args!("the {m} matcher is {NOT_BUILT_IN}"));
        }
    }
}

impl ValueEnum for MatcherChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::VALUES
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(match self {
            MatcherChoice::One(m) => m.as_str(),
            MatcherChoice::All => "all",
        }))
    }
}

/// The matchers' index of `lib`, with the skills' sentence vectors when one of `matchers` needs
/// them: remembered ones from the library index, the others embedded now (with a counter on
/// stderr when it is a terminal) and saved into the library index for the next run.
pub fn index_for(lib: &Library, matchers: &[Matcher]) -> anyhow::Result<Index> {
    let index = Index::build(lib);
    if matchers.iter().any(|m| m.needs_vectors()) {
        index.set_vectors(std::sync::Arc::new(skill_vectors(lib)?));
    }
    Ok(index)
}

/// The skills' sentence vectors: remembered ones from the library index, the others embedded
/// now (with a counter on stderr when it is a terminal) and saved into the library index for
/// the next run.
pub fn skill_vectors(lib: &Library) -> anyhow::Result<SkillVectors> {
    let counter = std::io::stderr().is_terminal();
    let progress = |done: usize, total: usize| {
        if counter {
            eprint!("\rembedding skills for the semantic matcher: {done}/{total}   ");
        }
    };
    let vectors = SkillVectors::build(lib, &progress);
    if counter {
        eprint!("\r{:60}\r", "");
    }
    let vectors = vectors?;
    if vectors.embedded > 0 {
        crate::cli::args::save_index(lib);
    }
    Ok(vectors)
}

pub fn run(args: MatchArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    let whole = load_library(&library)?;
    let injections = if args.inject {
        injections(&whole, &args)
    } else {
        Vec::new()
    };
    let lib = args.view.apply(whole, None);
    let matchers = args.matcher.matchers()?;
    args.matcher.note_not_built_in();
    let index = index_for(&lib, &matchers)?;
    let allowed = allowed(&lib, args.include_disabled);
    let scope = args.scope.mask(&lib);
    let enabled = |i: usize| allowed[i] && scope[i];
    let results = index.query_many(&args.message, &matchers, &enabled, args.top);
    if args.json {
        let mut doc = to_json(&args.message, &lib, &results);
        if args.inject {
            doc["inject"] = Value::Array(injections.iter().map(Shown::json).collect());
        }
        println!("{}", crate::cli::output::json_string(&doc)?);
    } else {
        print!(
            "{}",
            render(
                &args.message,
                &lib,
                &results,
                use_color(),
                crate::cli::output::stdout_is_terminal()
            )
        );
        for shown in &injections {
            print!("{}", shown.text(args.encoding));
        }
    }
    Ok(0)
}

/// One agent's injection for the message, ready to show.
struct Shown {
    agent: crate::core::Agent,
    matcher: Matcher,
    ids: Vec<String>,
    text: String,
    tokens: usize,
    /// Tokens sent to forked sub-agents instead of the main conversation (`context: fork`).
    forked_tokens: usize,
}

impl Shown {
    fn text(&self, enc: crate::core::tokens::Encoding) -> String {
        let model = crate::core::agents::model::model(self.agent);
        let how = match model.injection {
            crate::core::agents::model::Injection::SkillLoaded
            | crate::core::agents::model::Injection::AvailableSkills => {
                format!("its own {} rule", self.matcher)
            }
            _ => format!("{} standing in for the model's choice", self.matcher),
        };
        let mut s = format!(
            "\ninjected by {} ({how}): {}, {} tokens ({enc})\n",
            self.agent,
            match self.ids.len() {
                0 => "nothing".to_string(),
                _ => self.ids.join(", "),
            },
            crate::core::words::text::thousands(self.tokens as u64),
        );
        if self.forked_tokens > 0 {
            s.push_str(&format!(
                "and {} tokens as a forked sub-agent's prompt (context: fork), outside the main conversation\n",
                crate::core::words::text::thousands(self.forked_tokens as u64),
            ));
        }
        if !self.text.is_empty() {
            s.push_str("----\n");
            s.push_str(&crate::core::words::text::text(
                self.text.trim_start_matches('\n'),
            ));
            if !self.text.ends_with('\n') {
                s.push('\n');
            }
            s.push_str("----\n");
        }
        s
    }

    fn json(&self) -> Value {
        json!({
            "agent": self.agent,
            "matcher": self.matcher.as_str(),
            "skills": self.ids,
            "tokens": self.tokens,
            "forked_tokens": self.forked_tokens,
            "text": self.text,
        })
    }
}

/// What the message injects for --agent, or for every agent that reads a skill of the library.
fn injections(whole: &Library, args: &MatchArgs) -> Vec<Shown> {
    let agents: Vec<crate::core::Agent> = match args.view.agent {
        Some(a) => vec![a],
        None => crate::core::agents::model::models()
            .map(|m| m.agent)
            .collect(),
    };
    let fallback = match args.matcher {
        MatcherChoice::One(m) => m,
        MatcherChoice::All => Matcher::Bm25,
    };
    let switches = crate::cli::args::agent_switches(&agents);
    agents
        .into_iter()
        .filter_map(|agent| {
            let lib = crate::core::agents::view::agent_library(
                whole,
                agent,
                &args.view.files,
                switches.as_ref(),
            );
            if lib.is_empty() {
                return None;
            }
            // A model that cannot run leaves the semantic matchers without vectors: they then
            // inject nothing, as they find nothing.
            let index = index_for(&lib, &[fallback]).unwrap_or_else(|_| Index::build(&lib));
            let allowed = allowed(&lib, args.include_disabled);
            let scope = args.scope.mask(&lib);
            let got = crate::core::front::inject::inject(
                &lib,
                &index,
                crate::core::agents::model::model(agent),
                &args.message,
                &|i| allowed[i] && scope[i],
                fallback,
            );
            Some(Shown {
                agent,
                matcher: got.matcher,
                ids: got
                    .skills
                    .iter()
                    .map(|&i| line(&lib.skills[i].id).into_owned())
                    .collect(),
                tokens: crate::core::tokens::count(args.encoding, &got.text),
                forked_tokens: crate::core::tokens::count(args.encoding, &got.forked),
                text: got.text,
            })
        })
        .collect()
}

/// `{"message", "results": {matcher: [{"name", "path", "score", "matched": [...]}]}}`.
pub fn to_json(message: &str, lib: &Library, results: &[(Matcher, Vec<Match>)]) -> Value {
    let mut by_matcher = serde_json::Map::new();
    for (matcher, matches) in results {
        let list: Vec<Value> = matches
            .iter()
            .map(|m| {
                let skill = &lib.skills[m.skill];
                let mut entry = json!({
                    "name": skill.name,
                    "id": skill.id,
                    "path": skill.skill_md,
                    "score": round(m.score),
                    "matched": m.hits.iter().map(|h| hit_json(message, h)).collect::<Vec<_>>(),
                });
                if !m.name_indices.is_empty() {
                    entry["name_indices"] = json!(m.name_indices);
                }
                entry
            })
            .collect();
        by_matcher.insert(matcher.as_str().to_string(), Value::Array(list));
    }
    json!({ "message": message, "results": by_matcher })
}

fn round(x: f32) -> f64 {
    (f64::from(x) * 1000.0).round() / 1000.0
}

fn hit_json(message: &str, h: &Hit) -> Value {
    let mut v = json!({
        "term": h.term,
        "field": h.field.as_str(),
        "text": spans_text(message, &h.spans),
        "spans": h.spans.iter().map(|s| [s.start, s.end]).collect::<Vec<_>>(),
    });
    if let Some(sim) = h.similarity {
        v["similarity"] = json!(round(sim));
    }
    v
}

/// The message text at the spans, each distinct form once.
fn spans_text(message: &str, spans: &[Range<usize>]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for s in spans {
        if let Some(t) = message.get(s.clone())
            && !seen.iter().any(|x| x.eq_ignore_ascii_case(t))
        {
            seen.push(t);
        }
    }
    seen.join(", ")
}

/// The message with its matched words marked (coloured, or in brackets without colour), then
/// one ranked list per matcher, each skill by its id (copies of one name stay apart). Ids line
/// up; on a `terminal` a long one is cut to 40 characters.
pub fn render(
    message: &str,
    lib: &Library,
    results: &[(Matcher, Vec<Match>)],
    color: bool,
    terminal: bool,
) -> String {
    let style = Style::new(color);
    let paint = |tone: Tone, s: &str| style.paint(tone, s);
    let all: Vec<Match> = results
        .iter()
        .flat_map(|(_, m)| m.iter().cloned())
        .collect();
    let mut out = format!(
        "message: {}\n",
        mark(message, &highlight_spans(&all), color)
    );
    let shown = crate::core::pricing::budget::shown_names(lib);
    let widest = results
        .iter()
        .flat_map(|(_, ms)| {
            ms.iter()
                .map(|m| crate::cli::output::shown_width(&shown[m.skill]))
        })
        .max()
        .unwrap_or(0);
    let names = crate::cli::output::Column::new(widest, 0, 40, terminal);
    for (matcher, matches) in results {
        out.push('\n');
        out.push_str(&paint(Tone::Strong, matcher.as_str()));
        out.push('\n');
        if matches.is_empty() {
            out.push_str(&paint(Tone::Faint, "  nothing triggers"));
            out.push('\n');
        }
        for (rank, m) in matches.iter().enumerate() {
            let name = names.fit(&shown[m.skill]);
            let pad = " ".repeat(names.width.saturating_sub(name.chars().count()));
            // One entry per matched term, with every field it came from.
            let mut why: Vec<(String, Vec<&str>)> = Vec::new();
            for h in &m.hits {
                if let Some(sim) = h.similarity {
                    why.push((format!("meaning {sim:.2}"), vec![h.field.as_str()]));
                    continue;
                }
                let text = spans_text(message, &h.spans);
                let what = if text.eq_ignore_ascii_case(&h.term) {
                    paint(Tone::Mark, &line(&h.term))
                } else {
                    format!("{}→{}", paint(Tone::Mark, &line(&text)), line(&h.term))
                };
                match why.iter_mut().find(|(w, _)| *w == what) {
                    Some((_, fields)) => fields.push(h.field.as_str()),
                    None => why.push((what, vec![h.field.as_str()])),
                }
            }
            let why: Vec<String> = why
                .into_iter()
                .map(|(what, fields)| format!("{what} ({})", fields.join(", ")))
                .collect();
            out.push_str(&format!(
                "  {:>2}. {}{pad}  {:>7.2}  {}\n",
                rank + 1,
                paint(Tone::Strong, &name),
                m.score,
                why.join(", ")
            ));
        }
    }
    out
}

/// The message with the given byte ranges marked.
fn mark(message: &str, spans: &[Range<usize>], color: bool) -> String {
    let (open, close) = if color {
        Style::new(true).around(Tone::Mark)
    } else {
        ("[".to_string(), "]")
    };
    let mut out = String::with_capacity(message.len() + spans.len() * 8);
    let mut at = 0;
    for s in spans {
        let (Some(before), Some(inside)) = (message.get(at..s.start), message.get(s.clone()))
        else {
            continue;
        };
        out.push_str(&line(before));
        out.push_str(&open);
        out.push_str(&line(inside));
        out.push_str(close);
        at = s.end;
    }
    out.push_str(&line(message.get(at..).unwrap_or("")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_wrap_the_spans_and_keep_the_rest() {
        assert_eq!(
            mark("fill the pdf form", &[0..4, 9..12], false),
            "[fill] the [pdf] form"
        );
        assert_eq!(mark("abc", &[], true), "abc");
        assert_eq!(
            mark("héllo", std::slice::from_ref(&(1..2)), false),
            "héllo",
            "a span inside a character is skipped"
        );
    }

    #[test]
    fn marks_escape_what_they_wrap() {
        assert_eq!(
            mark("a\x1b[2J pdf\u{202e}", std::slice::from_ref(&(6..9)), false),
            "a\\u{1b}[2J [pdf]\\u{202e}"
        );
    }

    #[test]
    fn spans_text_lists_each_form_once() {
        assert_eq!(
            spans_text("PDF or pdf or Pdfs", &[0..3, 7..10, 14..18]),
            "PDF, Pdfs"
        );
    }
}
