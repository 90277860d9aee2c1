//! The `triggers` matcher: the frontmatter `triggers` phrases found in the message, any case. As
//! in the context-provider ADR (design 002, `trigger.lower() in message_lower`), a phrase fires
//! wherever the message holds it, also inside a word ("greet" in "greetings"); it also fires on
//! the same words lightly stemmed, whatever stands between them ("scrape page" in "scraping
//! pages", "tg contact" in "tg-contact"). At most three skills load, as in that design.

use super::text::{stem, words};
use super::{Hit, HitField, Match, push_hit, top_scores};
use crate::core::library::Library;
use aho_corasick::{AhoCorasick, AhoCorasickKind};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// The context-provider design loads at most this many skills per message.
pub const MAX_SKILLS: usize = 3;

#[derive(Debug)]
struct Phrase {
    skill: u32,
    /// The phrase as the skill writes it.
    text: String,
    /// Its words' stems, matched against the message's stems in a row.
    stems: Vec<String>,
}

#[derive(Debug, Default)]
pub(super) struct TriggerIndex {
    phrases: Vec<Phrase>,
    /// Phrases by their first stem, so a message only checks the phrases that can start at
    /// each of its words.
    by_first: HashMap<String, Vec<u32>>,
    /// Every phrase lowercased, pattern `i` being phrase `i`: one pass over the message finds
    /// each place any phrase occurs, overlaps included.
    substrings: Option<AhoCorasick>,
}

impl TriggerIndex {
    pub(super) fn build(lib: &Library) -> TriggerIndex {
        let mut idx = TriggerIndex::default();
        let mut lowered: Vec<String> = Vec::new();
        for (i, skill) in lib.skills.iter().enumerate() {
            for trigger in &skill.frontmatter.triggers {
                // `a|b|c` is a common way of writing alternatives (a regex in some agents).
                for alt in trigger.split('|') {
                    let alt = alt.trim();
                    let stems: Vec<String> =
                        words(alt).into_iter().map(|w| stem(&w.text)).collect();
                    // A phrase of punctuation alone would fire on nearly every message.
                    let Some(first) = stems.first().cloned() else {
                        continue;
                    };
                    let id = idx.phrases.len() as u32;
                    idx.by_first.entry(first).or_default().push(id);
                    lowered.push(alt.chars().flat_map(char::to_lowercase).collect());
                    idx.phrases.push(Phrase {
                        skill: i as u32,
                        text: alt.to_string(),
                        stems,
                    });
                }
            }
        }
        if !lowered.is_empty() {
            // An NFA, not the DFA the builder would pick for few patterns: built in a fraction of
            // the time with the index rebuilt on every library change, and a message is short.
            // Building fails only past the automaton's size limits; the word runs still match.
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
        let mut found: Vec<(u32, Range<usize>)> = Vec::new();
        if let Some(ac) = &self.substrings {
            let lower = Lowered::new(message);
            for m in ac.find_overlapping_iter(lower.text.as_str()) {
                found.push((m.pattern().as_u32(), lower.original(m.start()..m.end())));
            }
        }
        let msg = words(message);
        let stems: Vec<String> = msg.iter().map(|w| stem(&w.text)).collect();
        for (pos, s) in stems.iter().enumerate() {
            for &id in self.by_first.get(s).map_or(&[][..], Vec::as_slice) {
                let p = &self.phrases[id as usize];
                let end = pos + p.stems.len();
                if end <= msg.len() && stems[pos..end] == p.stems[..] {
                    found.push((id, msg[pos].span.start..msg[end - 1].span.end));
                }
            }
        }
        // One place of a phrase found both ways is one place: keep the widest.
        found.sort_by_key(|(id, r)| (*id, r.start, std::cmp::Reverse(r.end)));
        let mut kept: Vec<(u32, Range<usize>)> = Vec::with_capacity(found.len());
        for (id, r) in found {
            let inside = kept
                .iter()
                .rev()
                .take_while(|(k, _)| *k == id)
                .any(|(_, k)| k.start <= r.start && r.end <= k.end);
            if !inside {
                kept.push((id, r));
            }
        }
        kept
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
            *scores.entry(p.skill).or_default() += p.stems.len() as f32;
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
    fn phrases_match_whole_words_in_any_case() {
        let (_t, lib) = library(&[
            (
                "a",
                "name: contacts\ndescription: d\ntriggers:\n  - find contact\n  - TG contact sync",
            ),
            ("b", "name: x\ndescription: d\ntriggers: search x"),
        ]);
        let idx = Index::build(&lib);
        let msg = "Can you FIND   contact info, then do a tg-contact sync?";
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
                ("find contact", "FIND   contact"),
                ("TG contact sync", "tg-contact sync")
            ]
        );
        assert!(
            idx.query("search for xylophones", Matcher::Triggers, &|_| true, 10)
                .is_empty()
        );
        assert_eq!(
            names(
                &lib,
                &idx.query("search X now", Matcher::Triggers, &|_| true, 10)
            ),
            ["x"]
        );
    }

    #[test]
    fn map_and_alternation_and_unspaced_scripts() {
        let (_t, lib) = library(&[(
            "s",
            "name: stocks\ndescription: d\ntriggers:\n  - pattern: \"股票|stock|股价\"\n    note: market",
        )]);
        let idx = Index::build(&lib);
        let msg = "查询股票价格";
        let got = idx.query(msg, Matcher::Triggers, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["stocks"]);
        assert_eq!(&msg[got[0].hits[0].spans[0].clone()], "股票");
        let got = idx.query(
            "Stock prices and the market",
            Matcher::Triggers,
            &|_| true,
            10,
        );
        let terms: Vec<&str> = got[0].hits.iter().map(|h| h.term.as_str()).collect();
        assert_eq!(terms, ["stock", "market"]);
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
        // "greet" is inside "Greetings"; "greeting" is too, and is also the stem of it.
        assert!(hits.contains(&("greet", "Greetings")), "{hits:?}");
        assert!(hits.contains(&("greeting", "Greetings")), "{hits:?}");
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
    fn stemmed_words_match_whatever_stands_between_them() {
        let (_t, lib) = library(&[(
            "s",
            "name: scraper\ndescription: d\ntriggers: [scrape web page]",
        )]);
        let idx = Index::build(&lib);
        let msg = "scraping web-pages for prices";
        let got = idx.query(msg, Matcher::Triggers, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["scraper"]);
        assert_eq!(&msg[got[0].hits[0].spans[0].clone()], "scraping web-pages");
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
