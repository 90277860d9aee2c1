//! The `triggers` matcher: the SkillContextProvider ADR's rule exactly as its code writes it
//! (design 002, `_match_skills`): a skill fires when one of its `triggers` phrases, lowercased,
//! is a substring of the lowercased message (`trigger.lower() in message_lower`). Nothing else:
//! no words, no stems ("scrape web page" does not fire on "scraping web-pages"), no alternation
//! (`foo|bar` is one literal phrase), inside a word too ("greet" in "greetings"). Only the key
//! the provider reads, `triggers` (`skill.get("triggers", [])`), iterated as Python iterates it:
//! a list's strings, a mapping's keys, a lone string's characters; an empty phrase is in every
//! message. At most three skills load, as in that design.

use super::{Hit, HitField, Match, push_hit, top_scores};
use crate::core::library::Library;
use aho_corasick::{AhoCorasick, AhoCorasickKind};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// The context-provider design loads at most this many skills per message.
pub const MAX_SKILLS: usize = 3;

#[derive(Debug)]
struct Phrase {
    skill: u32,
    /// The phrase as the skill writes it.
    text: String,
    /// How much it weighs: its words, at least one (a longer phrase is a more specific claim).
    weight: f32,
}

#[derive(Debug, Default)]
pub(super) struct TriggerIndex {
    phrases: Vec<Phrase>,
    /// The phrases whose lowercased text is empty: `"" in message` holds for every message.
    empty: Vec<u32>,
    /// The other phrases lowercased, pattern `i` being phrase `patterns[i]`: one pass over the
    /// message finds each place any phrase occurs, overlaps included.
    substrings: Option<AhoCorasick>,
    patterns: Vec<u32>,
}

/// The phrases `for trigger in skill.get("triggers", [])` visits, as Python iterates the
/// frontmatter's value: a list's items (only strings have `.lower()`), a mapping's keys, a
/// string's characters.
pub(super) fn phrases_of(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items
            .iter()
            .filter_map(|i| i.as_str().map(str::to_string))
            .collect(),
        Value::Object(m) => m.keys().cloned().collect(),
        Value::String(s) => s.chars().map(String::from).collect(),
        _ => Vec::new(),
    }
}

impl TriggerIndex {
    pub(super) fn build(lib: &Library) -> TriggerIndex {
        let mut idx = TriggerIndex::default();
        let mut lowered: Vec<String> = Vec::new();
        for (i, skill) in lib.skills.iter().enumerate() {
            let Some(field) = skill.frontmatter.get("triggers") else {
                continue;
            };
            for text in phrases_of(&field.value) {
                let id = idx.phrases.len() as u32;
                let lower: String = text.chars().flat_map(char::to_lowercase).collect();
                if lower.is_empty() {
                    idx.empty.push(id);
                } else {
                    idx.patterns.push(id);
                    lowered.push(lower);
                }
                let weight = text.split_whitespace().count().max(1) as f32;
                idx.phrases.push(Phrase {
                    skill: i as u32,
                    text,
                    weight,
                });
            }
        }
        if !lowered.is_empty() {
            // An NFA, not the DFA the builder would pick for few patterns: built in a fraction of
            // the time with the index rebuilt on every library change, and a message is short.
            // Building fails only past the automaton's size limits.
            idx.substrings = AhoCorasick::builder()
                .kind(Some(AhoCorasickKind::ContiguousNFA))
                .build(&lowered)
                .ok();
        }
        idx
    }

    /// Whether any skill `enabled` lets compete declares a phrase.
    pub(super) fn any_phrase(&self, enabled: &dyn Fn(usize) -> bool) -> bool {
        self.phrases.iter().any(|p| enabled(p.skill as usize))
    }

    /// Every place a phrase occurs in the message: (phrase, byte range of the message).
    fn find(&self, message: &str) -> Vec<(u32, Range<usize>)> {
        let mut found: Vec<(u32, Range<usize>)> = self.empty.iter().map(|&id| (id, 0..0)).collect();
        if let Some(ac) = &self.substrings {
            let lower = Lowered::new(message);
            for m in ac.find_overlapping_iter(lower.text.as_str()) {
                if let Some(&id) = self.patterns.get(m.pattern().as_usize()) {
                    found.push((id, lower.original(m.start()..m.end())));
                }
            }
        }
        found
    }

    pub(super) fn query(
        &self,
        message: &str,
        enabled: &dyn Fn(usize) -> bool,
        k: usize,
        names: &[String],
    ) -> Vec<Match> {
        let found = self.find(message);
        let mut scores: HashMap<u32, f32> = HashMap::new();
        let mut counted: HashSet<u32> = HashSet::new();
        for (id, _) in &found {
            if !counted.insert(*id) {
                continue;
            }
            let p = &self.phrases[*id as usize];
            // A longer phrase is a more specific claim on the message.
            *scores.entry(p.skill).or_default() += p.weight;
        }
        let scored: Vec<(u32, f32)> = scores
            .into_iter()
            .filter(|&(s, _)| enabled(s as usize))
            .collect();
        top_scores(scored, names, k)
            .into_iter()
            .map(|(skill, score)| {
                let mut hits: Vec<Hit> = Vec::new();
                for (id, span) in &found {
                    let p = &self.phrases[*id as usize];
                    if p.skill == skill {
                        push_hit(
                            &mut hits,
                            &p.text,
                            HitField::Triggers,
                            std::slice::from_ref(span),
                        );
                    }
                }
                hits.sort_by_key(|h| h.spans.first().map_or(0, |s| s.start));
                Match {
                    skill: skill as usize,
                    score,
                    hits,
                    name_indices: Vec::new(),
                }
            })
            .collect()
    }
}

/// A text lowercased character by character, with the way back to the original's bytes.
pub(super) struct Lowered {
    pub(super) text: String,
    /// For each byte of `text`, the original byte range of the character it came from.
    from: Vec<(u32, u32)>,
}

impl Lowered {
    pub(super) fn new(original: &str) -> Lowered {
        let mut text = String::with_capacity(original.len());
        let mut from = Vec::with_capacity(original.len());
        for (i, c) in original.char_indices() {
            let span = (i as u32, (i + c.len_utf8()) as u32);
            if c.is_ascii() {
                text.push(c.to_ascii_lowercase());
                from.push(span);
                continue;
            }
            for l in c.to_lowercase() {
                text.push(l);
                from.extend(std::iter::repeat_n(span, l.len_utf8()));
            }
        }
        Lowered { text, from }
    }

    /// The original byte range a non-empty range of the lowered text stands for.
    pub(super) fn original(&self, r: Range<usize>) -> Range<usize> {
        let start = self.from.get(r.start).map_or(0, |s| s.0 as usize);
        let end = self
            .from
            .get(r.end.saturating_sub(1))
            .map_or(start, |s| s.1 as usize);
        start..end
    }
}

#[cfg(test)]
mod tests {
    use super::super::testlib::{library, names};
    use super::super::{Index, Matcher};
    use super::*;

    #[test]
    fn phrases_are_found_as_written_in_any_case() {
        let (_t, lib) = library(&[
            (
                "a",
                "name: contacts\ndescription: d\ntriggers:\n  - find contact\n  - TG contact sync",
            ),
            ("b", "name: x\ndescription: d\ntriggers: [search x]"),
        ]);
        let idx = Index::build(&lib);
        let msg = "Can you FIND contact info, then do a tg Contact Sync?";
        let got = idx.query(msg, Matcher::Triggers, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["contacts"]);
        let hits: Vec<(&str, &str)> = got[0]
            .hits
            .iter()
            .map(|h| (h.term.as_str(), &msg[h.spans[0].clone()]))
            .collect();
        assert_eq!(
            hits,
            [
                ("find contact", "FIND contact"),
                ("TG contact sync", "tg Contact Sync")
            ]
        );
        for msg in [
            "FIND   contact",
            "a tg-contact sync",
            "search for xylophones",
        ] {
            assert!(
                idx.query(msg, Matcher::Triggers, &|_| true, 10).is_empty(),
                "{msg}"
            );
        }
        assert_eq!(
            names(
                &lib,
                &idx.query("search X now", Matcher::Triggers, &|_| true, 10)
            ),
            ["x"]
        );
    }

    #[test]
    fn a_bar_is_part_of_the_phrase_and_unspaced_scripts_match() {
        let (_t, lib) = library(&[
            (
                "s",
                "name: stocks\ndescription: d\ntriggers: [\"股票|stock\"]",
            ),
            ("c", "name: china\ndescription: d\ntriggers: [股票]"),
        ]);
        let idx = Index::build(&lib);
        let msg = "查询股票价格";
        let got = idx.query(msg, Matcher::Triggers, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["china"]);
        assert_eq!(&msg[got[0].hits[0].spans[0].clone()], "股票");
        assert!(
            idx.query("Stock prices", Matcher::Triggers, &|_| true, 10)
                .is_empty()
        );
        let got = idx.query("grep '股票|Stock'", Matcher::Triggers, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["china", "stocks"]);
    }

    /// `for trigger in skill.get("triggers", [])`: the plural key only, iterated as Python
    /// iterates its value; `"" in message` always holds.
    #[test]
    fn only_the_triggers_key_iterated_as_python_does() {
        let (_t, lib) = library(&[
            ("one", "name: singular\ndescription: d\ntrigger: [deploy]"),
            (
                "map",
                "name: mapping\ndescription: d\ntriggers:\n  ship: [release]",
            ),
            ("str", "name: letters\ndescription: d\ntriggers: qz"),
            ("emp", "name: empty\ndescription: d\ntriggers: ['', 7]"),
        ]);
        let idx = Index::build(&lib);
        let q = |m: &str| names(&lib, &idx.query(m, Matcher::Triggers, &|_| true, 10));
        assert_eq!(q("deploy the release"), ["empty"]);
        assert_eq!(q("ship it"), ["empty", "mapping"]);
        assert_eq!(
            q("a quiz"),
            ["letters", "empty"],
            "two letters found weigh two"
        );
        assert_eq!(q("7"), ["empty"]);
    }

    #[test]
    fn never_more_than_three_skills() {
        let skills: Vec<(String, String)> = (0..5)
            .map(|i| {
                (
                    format!("s{i}"),
                    format!("name: s{i}\ndescription: d\ntriggers: [deploy]"),
                )
            })
            .collect();
        let refs: Vec<(&str, &str)> = skills
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let (_t, lib) = library(&refs);
        let idx = Index::build(&lib);
        assert_eq!(
            idx.query("deploy now", Matcher::Triggers, &|_| true, 10)
                .len(),
            3
        );
    }

    #[test]
    fn phrases_fire_inside_words_as_the_adr_has_it() {
        // design 002's manifest.
        let (_t, lib) = library(&[
            (
                "hello-extended",
                "name: hello-extended\ndescription: Multi-language greeting tool\ntriggers: [\"greet\", \"hello\", \"bonjour\", \"hola\", \"greeting\"]",
            ),
            ("calc", "name: calc\ndescription: d\ntriggers: [calculate]"),
        ]);
        let idx = Index::build(&lib);
        let msg = "Greetings from Alice";
        let got = idx.query(msg, Matcher::Triggers, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["hello-extended"]);
        let hits: Vec<(&str, &str)> = got[0]
            .hits
            .iter()
            .map(|h| (h.term.as_str(), &msg[h.spans[0].clone()]))
            .collect();
        // "greet" is inside "Greetings"; so is "greeting".
        assert_eq!(hits, [("greet", "Greet"), ("greeting", "Greeting")]);
        assert!(
            idx.query("What is 2+2?", Matcher::Triggers, &|_| true, 10)
                .is_empty(),
            "the ADR's example of a message that loads nothing"
        );
        assert_eq!(
            names(
                &lib,
                &idx.query("Say bonjour to Alice", Matcher::Triggers, &|_| true, 10)
            ),
            ["hello-extended"]
        );
    }

    #[test]
    fn no_words_and_no_stems_as_the_adr_has_it() {
        let (_t, lib) = library(&[(
            "s",
            "name: scraper\ndescription: d\ntriggers: [scrape web page]",
        )]);
        let idx = Index::build(&lib);
        assert!(
            idx.query(
                "scraping web-pages for prices",
                Matcher::Triggers,
                &|_| true,
                10
            )
            .is_empty()
        );
        let msg = "please Scrape Web Pages for prices";
        let got = idx.query(msg, Matcher::Triggers, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["scraper"]);
        assert_eq!(&msg[got[0].hits[0].spans[0].clone()], "Scrape Web Page");
    }

    #[test]
    fn lowered_text_maps_back_to_original_bytes() {
        let l = Lowered::new("ÄÖ äö İx");
        let at = |needle: &str| {
            let i = l.text.find(needle).unwrap();
            l.original(i..i + needle.len())
        };
        assert_eq!(at("äö ä"), 0..7);
        assert_eq!(at("x"), 12..13);
        // "İ" lowers to two characters; a match of either stands for all of it.
        assert_eq!(at("i"), 10..12);
    }
}
