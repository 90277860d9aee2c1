//! The `triggers` matcher: the frontmatter `triggers` phrases found in the message, whole words,
//! any case; at most three skills load, as in the context-provider design.

use super::text::words;
use super::{Hit, HitField, Match, push_hit, top_scores};
use crate::core::library::Library;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// The context-provider design loads at most this many skills per message.
pub const MAX_SKILLS: usize = 3;

#[derive(Debug)]
struct Phrase {
    skill: u32,
    /// The phrase as the skill writes it.
    text: String,
    /// Its lowercased words, matched against the message's words in a row.
    words: Vec<String>,
}

#[derive(Debug, Default)]
pub(super) struct TriggerIndex {
    phrases: Vec<Phrase>,
    /// Phrases by their first word, so a message only checks the phrases that can start at
    /// each of its words.
    by_first: HashMap<String, Vec<u32>>,
    /// Phrases in scripts written without spaces (Chinese, Japanese, Thai…): matched as
    /// substrings, since they have no word boundaries to respect.
    unspaced: Vec<u32>,
}

impl TriggerIndex {
    pub(super) fn build(lib: &Library) -> TriggerIndex {
        let mut idx = TriggerIndex::default();
        for (i, skill) in lib.skills.iter().enumerate() {
            for trigger in &skill.frontmatter.triggers {
                // `a|b|c` is a common way of writing alternatives (a regex in some agents).
                for alt in trigger.split('|') {
                    let alt = alt.trim();
                    let ws: Vec<String> = words(alt).into_iter().map(|w| w.text).collect();
                    let Some(first) = ws.first().cloned() else {
                        continue;
                    };
                    let id = idx.phrases.len() as u32;
                    if alt.chars().any(is_unspaced_script) {
                        idx.unspaced.push(id);
                    } else {
                        idx.by_first.entry(first).or_default().push(id);
                    }
                    idx.phrases.push(Phrase {
                        skill: i as u32,
                        text: alt.to_string(),
                        words: ws,
                    });
                }
            }
        }
        idx
    }

    pub(super) fn query(
        &self,
        message: &str,
        enabled: &dyn Fn(usize) -> bool,
        k: usize,
        names: &[String],
    ) -> Vec<Match> {
        let msg = words(message);
        // (phrase, where it matched)
        let mut found: Vec<(u32, Range<usize>)> = Vec::new();
        for (pos, w) in msg.iter().enumerate() {
            for &id in self.by_first.get(&w.text).map_or(&[][..], Vec::as_slice) {
                let p = &self.phrases[id as usize];
                let end = pos + p.words.len();
                if end <= msg.len()
                    && msg[pos..end]
                        .iter()
                        .zip(&p.words)
                        .all(|(m, t)| m.text == *t)
                {
                    found.push((id, w.span.start..msg[end - 1].span.end));
                }
            }
        }
        // Such a phrase can only be in a message written (partly) in such a script.
        if message.chars().any(is_unspaced_script) {
            for &id in &self.unspaced {
                for span in find_caseless(message, &self.phrases[id as usize].text) {
                    found.push((id, span));
                }
            }
        }
        let mut scores: HashMap<u32, f32> = HashMap::new();
        let mut counted: HashSet<u32> = HashSet::new();
        for (id, _) in &found {
            if !counted.insert(*id) {
                continue;
            }
            let p = &self.phrases[*id as usize];
            // A longer phrase is a more specific claim on the message.
            *scores.entry(p.skill).or_default() += p.words.len() as f32;
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

/// Scripts whose words are not separated by spaces.
fn is_unspaced_script(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}' // CJK extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK unified ideographs
        | '\u{AC00}'..='\u{D7AF}' // Hangul syllables
        | '\u{0E00}'..='\u{0E7F}' // Thai
        | '\u{F900}'..='\u{FAFF}' // CJK compatibility
    )
}

/// Every byte range of `haystack` equal to `needle` ignoring case, without overlaps.
fn find_caseless(haystack: &str, needle: &str) -> Vec<Range<usize>> {
    let needle: Vec<char> = needle.chars().flat_map(char::to_lowercase).collect();
    let mut out = Vec::new();
    if needle.is_empty() {
        return out;
    }
    let mut from = 0;
    for (start, _) in haystack.char_indices() {
        if start < from {
            continue;
        }
        let mut hay = haystack[start..].char_indices().flat_map(|(i, c)| {
            let len = c.len_utf8();
            c.to_lowercase().map(move |l| (i + len, l))
        });
        let mut end = start;
        let ok = needle.iter().all(|n| match hay.next() {
            Some((e, c)) if c == *n => {
                end = start + e;
                true
            }
            _ => false,
        });
        if ok {
            out.push(start..end);
            from = end;
        }
    }
    out
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
            idx.query("research xylophones", Matcher::Triggers, &|_| true, 10)
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
    fn caseless_find_keeps_original_byte_ranges() {
        assert_eq!(find_caseless("ÄÖ äö", "äö"), vec![0..4, 5..9]);
        assert_eq!(find_caseless("abc", ""), Vec::<Range<usize>>::new());
    }
}
