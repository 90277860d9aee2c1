//! The `keyword` matcher, the Lazy Skills rule: a skill triggers when a word of its name or
//! description appears in the message; executable skills also react to a few verbs. Words meet
//! by their light stem, so "scrape" in a message finds a `web_scraper` (design 000's example).

use super::lexicon::Lexicon;
use super::postings::Postings;
use super::text::{group_spans, is_content_word, stem, words};
use super::{Hit, HitField, Match, push_hit, top_scores};
use crate::core::skill::{Skill, SkillKind};
use std::ops::Range;

/// The verbs every executable skill answers to, whatever its description says: the Lazy Skills
/// design lists `run`, `execute`, `call`, `api` in one place and `run`, `execute`, `api`,
/// `script` in another (design 000); both lists together.
pub const EXECUTABLE_VERBS: [&str; 5] = ["run", "execute", "call", "api", "script"];

/// Past this many competing skills the Lazy Skills design finds keyword matching loses its
/// precision: "simple keyword matching works surprisingly well for skill counts under ~50"
/// (design 000).
pub const KEYWORD_SKILL_LIMIT: usize = 50;

const NAME: u8 = 1;
const DESCRIPTION: u8 = 2;
/// A word of the name says more about the skill than one of its description.
const NAME_WEIGHT: f32 = 2.0;
const DESCRIPTION_WEIGHT: f32 = 1.0;
const VERB_WEIGHT: f32 = 0.5;

#[derive(Debug, Default)]
pub(super) struct KeywordIndex {
    /// For each stem of the lexicon, the skills holding it (in library order), the fields it
    /// is in, and the skill's own word with that stem (what a hit shows).
    postings: Postings<(u32, u8, u32)>,
    executable: Vec<u32>,
    scratch: Vec<(u32, u8, u32)>,
    /// The stems of [`EXECUTABLE_VERBS`], in their order.
    verb_stems: Vec<String>,
}

impl KeywordIndex {
    /// An empty index for skills holding about `words` words in all.
    pub(super) fn with_capacity(words: usize) -> KeywordIndex {
        KeywordIndex {
            postings: Postings::with_capacity(words),
            verb_stems: EXECUTABLE_VERBS.iter().map(|v| stem(v)).collect(),
            ..KeywordIndex::default()
        }
    }

    /// Adds one skill, given the ids of the content words of its name and description.
    pub(super) fn add(
        &mut self,
        lx: &Lexicon,
        skill: &Skill,
        i: u32,
        name: &[u32],
        description: &[u32],
    ) {
        self.scratch.clear();
        let stem_of = |w: u32| lx.words[w as usize].stem;
        self.scratch
            .extend(name.iter().map(|&w| (stem_of(w), NAME, w)));
        self.scratch
            .extend(description.iter().map(|&w| (stem_of(w), DESCRIPTION, w)));
        // By stem, then name before description: the word shown is one of the name's if any.
        self.scratch.sort_unstable();
        let mut k = 0;
        while k < self.scratch.len() {
            let (st, mut bits, word) = self.scratch[k];
            k += 1;
            while k < self.scratch.len() && self.scratch[k].0 == st {
                bits |= self.scratch[k].1;
                k += 1;
            }
            self.postings.push(st, (i, bits, word));
        }
        if skill.kind() == SkillKind::Executable {
            self.executable.push(i);
        }
    }

    /// Lays out the postings once every skill is in.
    pub(super) fn finish(&mut self, stems: usize) {
        self.postings.finish(stems);
    }

    pub(super) fn query(
        &self,
        lx: &Lexicon,
        message: &str,
        enabled: &dyn Fn(usize) -> bool,
        k: usize,
        names: &[String],
    ) -> Vec<Match> {
        let msg = self.message_words(lx, message);
        let mut scores = vec![0f32; names.len()];
        let mut touched: Vec<u32> = Vec::new();
        let mut add = |skill: u32, s: f32| {
            let slot = &mut scores[skill as usize];
            if *slot == 0.0 {
                touched.push(skill);
            }
            *slot += s;
        };
        for (st, _) in &msg.words {
            for &(skill, bits, _) in self.postings.get(*st) {
                add(skill, weight(bits));
            }
        }
        if !msg.verbs.is_empty() {
            for &skill in &self.executable {
                add(skill, VERB_WEIGHT);
            }
        }
        let scored: Vec<(u32, f32)> = touched
            .into_iter()
            .filter(|&s| enabled(s as usize))
            .map(|s| (s, scores[s as usize]))
            .collect();
        top_scores(scored, names, k)
            .into_iter()
            .map(|(skill, score)| Match {
                skill: skill as usize,
                score,
                hits: self.hits(lx, skill, &msg),
                name_indices: Vec::new(),
            })
            .collect()
    }

    fn hits(&self, lx: &Lexicon, skill: u32, msg: &MessageWords) -> Vec<Hit> {
        let mut hits = Vec::new();
        for (st, spans) in &msg.words {
            let post = self.postings.get(*st);
            if let Ok(p) = post.binary_search_by_key(&skill, |&(s, _, _)| s) {
                let (_, bits, word) = post[p];
                let w = &*lx.words[word as usize].text;
                if bits & NAME != 0 {
                    push_hit(&mut hits, w, HitField::Name, spans);
                }
                if bits & DESCRIPTION != 0 {
                    push_hit(&mut hits, w, HitField::Description, spans);
                }
            }
        }
        if self.executable.binary_search(&skill).is_ok() {
            for (verb, spans) in &msg.verbs {
                push_hit(&mut hits, verb, HitField::ExecutableVerb, spans);
            }
        }
        hits.sort_by_key(|h| (h.field, h.spans.first().map_or(0, |s| s.start)));
        hits
    }
}

fn weight(bits: u8) -> f32 {
    let mut w = 0.0;
    if bits & NAME != 0 {
        w += NAME_WEIGHT;
    }
    if bits & DESCRIPTION != 0 {
        w += DESCRIPTION_WEIGHT;
    }
    w
}

/// The distinct stems of a message's content words that some skill has, each with every place
/// it occurs, and the executable verbs it holds (by stem: "scripts", "running").
struct MessageWords {
    words: Vec<(u32, Vec<Range<usize>>)>,
    verbs: Vec<(String, Vec<Range<usize>>)>,
}

impl KeywordIndex {
    fn message_words(&self, lx: &Lexicon, message: &str) -> MessageWords {
        let all: Vec<(String, super::text::Word)> = words(message)
            .into_iter()
            .map(|w| {
                let s = match lx.word(&w.text) {
                    Some(id) => lx.stems[lx.words[id as usize].stem as usize].to_string(),
                    None => stem(&w.text),
                };
                (s, w)
            })
            .collect();
        let verbs = all.iter().filter_map(|(s, w)| {
            let v = self.verb_stems.iter().position(|v| v == s)?;
            Some((EXECUTABLE_VERBS[v].to_string(), w.span.clone()))
        });
        let content = all
            .iter()
            .filter(|(_, w)| is_content_word(&w.text))
            .map(|(s, w)| (s.clone(), w.span.clone()));
        MessageWords {
            verbs: group_spans(verbs),
            words: group_spans(content)
                .into_iter()
                .filter_map(|(s, spans)| Some((lx.stem_id(&s)?, spans)))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testlib::{library, names};
    use super::super::{Index, Matcher};
    use super::*;

    #[test]
    fn a_description_word_fires_and_says_where() {
        let (_t, lib) = library(&[
            ("pdf", "name: pdf\ndescription: Fill and merge PDF forms."),
            (
                "poet",
                "name: poet\ndescription: Writes poems in many styles.",
            ),
        ]);
        let idx = Index::build(&lib);
        let msg = "Please merge these two branches";
        let got = idx.query(msg, Matcher::Keyword, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["pdf"]);
        let hit = &got[0].hits[0];
        assert_eq!(
            (hit.term.as_str(), hit.field),
            ("merge", HitField::Description)
        );
        assert_eq!(hit.spans.len(), 1);
        assert_eq!(hit.spans[0], 7..12);
        assert_eq!(&msg[hit.spans[0].clone()], "merge");
    }

    #[test]
    fn name_words_outrank_description_words_and_stop_words_never_fire() {
        let (_t, lib) = library(&[
            (
                "a",
                "name: changelog\ndescription: Use when the user wants release notes.",
            ),
            (
                "b",
                "name: notes\ndescription: Use when the user wants a changelog.",
            ),
        ]);
        let idx = Index::build(&lib);
        let got = idx.query("write the changelog", Matcher::Keyword, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["changelog", "notes"]);
        assert_eq!(got[0].hits[0].field, HitField::Name);
        assert!(got[0].score > got[1].score);
        assert!(
            idx.query("use it when you want", Matcher::Keyword, &|_| true, 10)
                .is_empty()
        );
    }

    #[test]
    fn executable_skills_react_to_run_and_show_it() {
        let (_t, lib) = library(&[
            (
                "tool",
                "name: weather\ndescription: Forecasts.\ntype: executable",
            ),
            ("ctx", "name: style\ndescription: House style."),
        ]);
        let idx = Index::build(&lib);
        let msg = "Run it and CALL me";
        let got = idx.query(msg, Matcher::Keyword, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["weather"]);
        let verbs: Vec<(&str, HitField, &str)> = got[0]
            .hits
            .iter()
            .map(|h| (h.term.as_str(), h.field, &msg[h.spans[0].clone()]))
            .collect();
        assert_eq!(
            verbs,
            [
                ("run", HitField::ExecutableVerb, "Run"),
                ("call", HitField::ExecutableVerb, "CALL")
            ]
        );
    }

    #[test]
    fn script_is_an_executable_verb_and_verbs_meet_by_stem() {
        let (_t, lib) = library(&[
            (
                "tool",
                "name: weather\ndescription: Forecasts.\ntype: executable",
            ),
            ("ctx", "name: style\ndescription: House style."),
        ]);
        let idx = Index::build(&lib);
        for msg in ["write me a script", "two scripts", "it keeps running"] {
            let got = idx.query(msg, Matcher::Keyword, &|_| true, 10);
            assert_eq!(names(&lib, &got), ["weather"], "{msg}");
            assert_eq!(got[0].hits[0].field, HitField::ExecutableVerb, "{msg}");
        }
    }

    #[test]
    fn words_meet_by_their_stem_and_show_the_skills_word() {
        let (_t, lib) = library(&[(
            "web_scraper",
            "name: web_scraper\ndescription: Extract content from websites using headless browser\ntype: executable",
        )]);
        let idx = Index::build(&lib);
        let msg = "Can you scrape the pricing table from example.com?";
        let got = idx.query(msg, Matcher::Keyword, &|_| true, 10);
        assert_eq!(names(&lib, &got), ["web_scraper"]);
        let hit = &got[0].hits[0];
        assert_eq!((hit.term.as_str(), hit.field), ("scraper", HitField::Name));
        assert_eq!(&msg[hit.spans[0].clone()], "scrape");
        // Two forms of one stem in a message count once.
        let once = idx.query("scrape", Matcher::Keyword, &|_| true, 1)[0].score;
        let twice = idx.query("scrape scraping", Matcher::Keyword, &|_| true, 1)[0].score;
        assert_eq!(once, twice);
    }

    #[test]
    fn every_occurrence_of_a_word_is_a_span_and_words_match_whole() {
        let (_t, lib) = library(&[("d", "name: docker\ndescription: Containers.")]);
        let idx = Index::build(&lib);
        let got = idx.query("docker, docker!", Matcher::Keyword, &|_| true, 10);
        assert_eq!(got[0].hits[0].spans, vec![0..6, 8..14]);
        assert!(
            idx.query("dockerfile", Matcher::Keyword, &|_| true, 10)
                .is_empty()
        );
    }
}
