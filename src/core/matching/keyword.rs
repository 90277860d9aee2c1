//! The `keyword` matcher, the Lazy Skills rule: a skill triggers when a word of its name or
//! description appears in the message; executable skills also react to a few verbs.

use super::lexicon::Lexicon;
use super::postings::Postings;
use super::text::{group_spans, is_content_word, words};
use super::{Hit, HitField, Match, push_hit, top_scores};
use crate::core::skill::{Skill, SkillKind};
use std::ops::Range;

/// The verbs every executable skill answers to, whatever its description says.
pub const EXECUTABLE_VERBS: [&str; 4] = ["run", "execute", "call", "api"];

const NAME: u8 = 1;
const DESCRIPTION: u8 = 2;
/// A word of the name says more about the skill than one of its description.
const NAME_WEIGHT: f32 = 2.0;
const DESCRIPTION_WEIGHT: f32 = 1.0;
const VERB_WEIGHT: f32 = 0.5;

#[derive(Debug, Default)]
pub(super) struct KeywordIndex {
    /// For each word of the lexicon, the skills holding it (in library order) and the fields
    /// it is in.
    postings: Postings<(u32, u8)>,
    executable: Vec<u32>,
    scratch: Vec<(u32, u8)>,
}

impl KeywordIndex {
    /// An empty index for skills holding about `words` words in all.
    pub(super) fn with_capacity(words: usize) -> KeywordIndex {
        KeywordIndex {
            postings: Postings::with_capacity(words),
            ..KeywordIndex::default()
        }
    }

    /// Adds one skill, given the ids of the content words of its name and description.
    pub(super) fn add(&mut self, skill: &Skill, i: u32, name: &[u32], description: &[u32]) {
        self.scratch.clear();
        self.scratch.extend(name.iter().map(|&w| (w, NAME)));
        self.scratch
            .extend(description.iter().map(|&w| (w, DESCRIPTION)));
        self.scratch.sort_unstable();
        let mut k = 0;
        while k < self.scratch.len() {
            let (w, mut bits) = self.scratch[k];
            k += 1;
            while k < self.scratch.len() && self.scratch[k].0 == w {
                bits |= self.scratch[k].1;
                k += 1;
            }
            self.postings.push(w, (i, bits));
        }
        if skill.kind() == SkillKind::Executable {
            self.executable.push(i);
        }
    }

    /// Lays out the postings once every skill is in.
    pub(super) fn finish(&mut self, words: usize) {
        self.postings.finish(words);
    }

    fn postings_of(&self, lx: &Lexicon, w: &str) -> &[(u32, u8)] {
        lx.word(w).map_or(&[], |id| self.postings.get(id))
    }

    pub(super) fn query(
        &self,
        lx: &Lexicon,
        message: &str,
        enabled: &dyn Fn(usize) -> bool,
        k: usize,
        names: &[String],
    ) -> Vec<Match> {
        let msg = message_words(message);
        let mut scores = vec![0f32; names.len()];
        let mut touched: Vec<u32> = Vec::new();
        let mut add = |skill: u32, s: f32| {
            let slot = &mut scores[skill as usize];
            if *slot == 0.0 {
                touched.push(skill);
            }
            *slot += s;
        };
        for (w, _) in &msg.words {
            for &(skill, bits) in self.postings_of(lx, w) {
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
        for (w, spans) in &msg.words {
            let post = self.postings_of(lx, w);
            if let Ok(p) = post.binary_search_by_key(&skill, |&(s, _)| s) {
                let bits = post[p].1;
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

/// The distinct content words of a message, each with every place it occurs, and the
/// executable verbs it holds.
struct MessageWords {
    words: Vec<(String, Vec<Range<usize>>)>,
    verbs: Vec<(String, Vec<Range<usize>>)>,
}

fn message_words(message: &str) -> MessageWords {
    let all = words(message);
    let verbs = all
        .iter()
        .filter(|w| EXECUTABLE_VERBS.contains(&w.text.as_str()))
        .map(|w| (w.text.clone(), w.span.clone()));
    let content = all
        .iter()
        .filter(|w| is_content_word(&w.text))
        .map(|w| (w.text.clone(), w.span.clone()));
    MessageWords {
        verbs: group_spans(verbs),
        words: group_spans(content),
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
