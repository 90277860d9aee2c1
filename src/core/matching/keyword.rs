//! The `keyword` matcher, the Lazy Skills rule exactly as design 000 writes it
//! (`_check_and_load_relevant_skills`): a skill is relevant when the lowercased message holds
//! its whole lowercased name, or its whole lowercased description, as a substring
//! (`any(keyword in user_message_lower for keyword in skill_keywords)`); a skill whose `type`
//! is the string `executable` (`skill_dict["type"] == "executable"`: not `tool`, not a type an
//! entry script implies) also when the message holds one of a few verbs, inside a word too
//! ("running" holds "run").
//! No words, no stems: "scrape" in a message does not find a `web_scraper` (the design's prose
//! example says it would; its code says otherwise, and the code is what runs).

use super::triggers::Lowered;
use super::{Hit, HitField, Match, push_hit, top_scores};
use crate::core::library::Library;
use std::ops::Range;

/// The verbs every executable skill answers to, whatever its description says: the Lazy Skills
/// design lists `run`, `execute`, `call`, `api` in one place and `run`, `execute`, `api`,
/// `script` in another (design 000); both lists together.
pub const EXECUTABLE_VERBS: [&str; 5] = ["run", "execute", "call", "api", "script"];

/// Past this many competing skills the Lazy Skills design finds keyword matching loses its
/// precision: "simple keyword matching works surprisingly well for skill counts under ~50"
/// (design 000).
pub const KEYWORD_SKILL_LIMIT: usize = 50;

/// The design loads every relevant skill alike; the ranking only orders them for people: the
/// name found says more than the description found, and either more than a verb.
const NAME_WEIGHT: f32 = 2.0;
const DESCRIPTION_WEIGHT: f32 = 1.0;
const VERB_WEIGHT: f32 = 0.5;

/// One skill's keywords: `skill_dict["name"].lower()`, `skill_dict["description"].lower()`.
#[derive(Debug)]
struct Keywords {
    name: String,
    /// `None` when the skill has no description (the design's `.lower()` would fail on it);
    /// an empty one is held by every message (`"" in s` is true in Python).
    description: Option<String>,
    executable: bool,
}

#[derive(Debug, Default)]
pub(super) struct KeywordIndex {
    skills: Vec<Keywords>,
}

/// Python's `str.lower()`, character by character.
fn lower(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// Every place `needle` occurs in the lowered message, as byte ranges of the original message.
fn places(msg: &Lowered, needle: &str) -> Vec<Range<usize>> {
    if needle.is_empty() {
        return Vec::new();
    }
    msg.text
        .match_indices(needle)
        .map(|(at, m)| msg.original(at..at + m.len()))
        .collect()
}

impl KeywordIndex {
    /// Every skill's keywords, in library order.
    pub(super) fn build(lib: &Library) -> KeywordIndex {
        KeywordIndex {
            skills: lib
                .skills
                .iter()
                .map(|s| Keywords {
                    name: lower(&s.name),
                    description: s.frontmatter.description().map(lower),
                    executable: s
                        .frontmatter
                        .get("type")
                        .is_some_and(|f| f.value.as_str() == Some("executable")),
                })
                .collect(),
        }
    }

    pub(super) fn query(
        &self,
        message: &str,
        enabled: &dyn Fn(usize) -> bool,
        k: usize,
        names: &[String],
    ) -> Vec<Match> {
        let msg = Lowered::new(message);
        let mut found: Vec<(u32, f32, Vec<Hit>)> = Vec::new();
        for (i, kw) in self.skills.iter().enumerate() {
            if !enabled(i) {
                continue;
            }
            let (score, hits) = kw.relevance(&msg);
            if score > 0.0 {
                found.push((i as u32, score, hits));
            }
        }
        let scored: Vec<(u32, f32)> = found.iter().map(|(i, s, _)| (*i, *s)).collect();
        top_scores(scored, names, k)
            .into_iter()
            .map(|(skill, score)| Match {
                skill: skill as usize,
                score,
                hits: found
                    .iter()
                    .find(|(i, _, _)| *i == skill)
                    .map(|(_, _, h)| h.clone())
                    .unwrap_or_default(),
                name_indices: Vec::new(),
            })
            .collect()
    }
}

impl Keywords {
    /// How relevant the message makes the skill (0: not at all) and the hits that say why.
    fn relevance(&self, msg: &Lowered) -> (f32, Vec<Hit>) {
        let mut score = 0.0;
        let mut hits = Vec::new();
        let name = places(msg, &self.name);
        if !name.is_empty() {
            score += NAME_WEIGHT;
            push_hit(&mut hits, &self.name, HitField::Name, &name);
        }
        if let Some(d) = &self.description {
            let at = places(msg, d);
            if d.is_empty() || !at.is_empty() {
                score += DESCRIPTION_WEIGHT;
                push_hit(&mut hits, d, HitField::Description, &at);
            }
        }
        if self.executable {
            let mut any = false;
            for verb in EXECUTABLE_VERBS {
                let at = places(msg, verb);
                if !at.is_empty() {
                    any = true;
                    push_hit(&mut hits, verb, HitField::ExecutableVerb, &at);
                }
            }
            if any {
                score += VERB_WEIGHT;
            }
        }
        hits.sort_by_key(|h| (h.field, h.spans.first().map_or(0, |s| s.start)));
        (score, hits)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testlib::{library, names};
    use super::super::{Index, Matcher};
    use super::*;

    fn query(lib: &crate::core::library::Library, msg: &str) -> Vec<String> {
        let got = Index::build(lib).query(msg, Matcher::Keyword, &|_| true, 10);
        names(lib, &got).into_iter().map(str::to_string).collect()
    }

    #[test]
    fn the_whole_name_or_the_whole_description_must_be_in_the_message() {
        let (_t, lib) = library(&[
            ("pdf", "name: pdf\ndescription: Fill and merge PDF forms."),
            (
                "poet",
                "name: poet\ndescription: Writes poems in many styles.",
            ),
        ]);
        // A word of the description is not enough: the design compares whole strings.
        assert!(query(&lib, "Please merge these two forms").is_empty());
        // The name, in any case, also inside a word ("pdfs").
        let idx = Index::build(&lib);
        let msg = "Two PDFs to read";
        let got = idx.query(msg, Matcher::Keyword, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["pdf"]);
        assert_eq!(got[0].hits[0].field, HitField::Name);
        assert_eq!(&msg[got[0].hits[0].spans[0].clone()], "PDF");
        // The whole description, any case.
        let msg = "i want to FILL AND MERGE PDF FORMS. now";
        let got = idx.query(msg, Matcher::Keyword, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["pdf"]);
        let fields: Vec<HitField> = got[0].hits.iter().map(|h| h.field).collect();
        assert_eq!(fields, [HitField::Name, HitField::Description]);
        assert!(got[0].score > idx.query("pdf", Matcher::Keyword, &|_| true, 1)[0].score);
    }

    #[test]
    fn scrape_does_not_find_web_scraper_as_the_code_runs() {
        let (_t, lib) = library(&[(
            "web_scraper",
            "name: web_scraper\ndescription: Extract content from websites using headless browser",
        )]);
        assert!(query(&lib, "Can you scrape the pricing table from example.com?").is_empty());
        assert_eq!(query(&lib, "use web_scraper on it"), ["web_scraper"]);
    }

    #[test]
    fn executable_skills_react_to_the_verbs_inside_words_too() {
        let (_t, lib) = library(&[
            (
                "tool",
                "name: weather\ndescription: Forecasts.\ntype: executable",
            ),
            ("ctx", "name: style\ndescription: House style."),
        ]);
        for msg in [
            "Run it",
            "CALL me",
            "write me a script",
            "it keeps running",
            "a brunch",
        ] {
            assert_eq!(query(&lib, msg), ["weather"], "{msg}");
        }
        let idx = Index::build(&lib);
        let msg = "Run it and CALL me";
        let got = idx.query(msg, Matcher::Keyword, &|_| true, 10);
        let verbs: Vec<(&str, &str)> = got[0]
            .hits
            .iter()
            .map(|h| (h.term.as_str(), &msg[h.spans[0].clone()]))
            .collect();
        assert_eq!(verbs, [("run", "Run"), ("call", "CALL")]);
    }

    #[test]
    fn only_the_type_executable_adds_the_verbs() {
        let (_t, lib) = library(&[
            ("t", "name: weather\ndescription: Forecasts.\ntype: tool"),
            ("e", "name: tides\ndescription: Tide tables.\nentry: run.py"),
            (
                "x",
                "name: quakes\ndescription: Earthquakes.\ntype: executable",
            ),
        ]);
        assert_eq!(query(&lib, "run it"), ["quakes"]);
    }

    #[test]
    fn an_empty_description_is_in_every_message_and_none_in_none() {
        let (_t, lib) = library(&[("e", "name: empty\ndescription: ''"), ("n", "name: nodesc")]);
        assert_eq!(query(&lib, "anything at all"), ["empty"]);
    }

    #[test]
    fn every_occurrence_is_a_span() {
        let (_t, lib) = library(&[("d", "name: docker\ndescription: Containers.")]);
        let idx = Index::build(&lib);
        let got = idx.query("docker, Docker!", Matcher::Keyword, &|_| true, 10);
        assert_eq!(got[0].hits[0].spans, vec![0..6, 8..14]);
    }
}
