//! The `bm25` matcher: Okapi BM25 over a skill's name, description, `when_to_use` and triggers,
//! on a hand-rolled inverted index whose per-posting weights are computed at build time, so a
//! query only adds up floats.

use super::lexicon::{FIELD_COUNT, Lexicon};
use super::postings::Postings;
use super::text::{Synonyms, group_spans, is_content_word, stem, words};
use super::{Hit, HitField, Match, top_scores};
use std::collections::HashSet;
use std::ops::Range;

const K1: f32 = 1.2;
const B: f32 = 0.75;
/// A word of the name counts as much as three of the description; a trigger phrase is written
/// to route messages, so its words count double.
const FIELDS: [(u8, HitField, f32); FIELD_COUNT] = [
    (1, HitField::Name, 3.0),
    (2, HitField::Description, 1.0),
    (4, HitField::WhenToUse, 1.0),
    (8, HitField::Triggers, 2.0),
];
/// A message word reaching a skill only through the synonym table counts this much.
const SYNONYM_FACTOR: f32 = 0.5;
/// The least score worth a match, as a share of what one word found in no other skill gives: a
/// skill must share a rare word with the message, or several less rare ones. Relative, because
/// idf grows with the size of the library.
pub const MIN_SCORE_OF_RARE_WORD: f32 = 1.2;
/// Skills far behind the best one are noise, not candidates.
pub const MIN_SHARE_OF_BEST: f32 = 0.5;

#[derive(Debug, Clone, Copy, Default)]
struct Posting {
    doc: u32,
    /// idf × saturated term frequency, length-normalised: the term's whole contribution.
    weight: f32,
    fields: u8,
}

#[derive(Debug, Default)]
pub(super) struct Bm25Index {
    /// Postings of each stem of the lexicon, in document order.
    postings: Postings<Posting>,
    synonyms: Synonyms,
    min_score: f32,
    /// Weighted length of each document, while building.
    lengths: Vec<f32>,
    scratch: Vec<(u32, f32, u8)>,
    /// The stems of each document's name, without repeats.
    name_stems: Vec<Vec<u32>>,
    /// The words of each document's name as written (lexicon word ids, without repeats).
    name_words: Vec<Vec<u32>>,
    /// How many documents' names hold each stem.
    name_df: Vec<u32>,
}

/// A stem of a skill's name is the skill's own when at most this many names hold it: `strava`
/// of `strava-automation`, not the `automation` 800 app skills share, nor the `google` of ten
/// Google apps.
pub const NAME_DF_MAX: u32 = 2;
/// A word that names a skill is rare in the library: in at most this many skills' text.
pub const NAMED_DF_MAX: usize = 3;

/// Whether the word at `span` of `message` is written as a name: capitalised inside a sentence
/// (`on Strava`), with capitals or digits inside (`GitHub`, `S3`), or not a whole word of the
/// model's `vocabulary` (`strava` written in lower case).
fn written_as_name(message: &str, span: Range<usize>, vocabulary: &dyn Fn(&str) -> bool) -> bool {
    let Some(word) = message.get(span.clone()) else {
        return false;
    };
    let before = message[..span.start].trim_end();
    let sentence_start = before.is_empty() || before.ends_with(['.', '!', '?', ':', ';', '\n']);
    let capital = word.chars().next().is_some_and(char::is_uppercase);
    let inside =
        word.chars().skip(1).any(char::is_uppercase) || (word.chars().any(|c| c.is_ascii_digit()));
    (capital && !sentence_start) || inside || !vocabulary(&word.to_lowercase())
}

/// A stem the message asks for: its weight factor (1, or less through a synonym) and the
/// message spans that brought it in.
type QueryTerm = (u32, f32, Vec<Range<usize>>);

impl Bm25Index {
    /// An empty index for skills holding about `words` words in all.
    pub(super) fn with_capacity(words: usize) -> Bm25Index {
        Bm25Index {
            postings: Postings::with_capacity(words),
            synonyms: Synonyms::new(),
            ..Bm25Index::default()
        }
    }

    /// Adds one document, given the content word ids of each of its fields (name, description,
    /// `when_to_use`, triggers). Documents must come in library order.
    pub(super) fn add(&mut self, lx: &Lexicon, doc: u32, fields: &[&[u32]; FIELD_COUNT]) {
        self.scratch.clear();
        let mut len = 0.0;
        for (ids, &(bit, _, w)) in fields.iter().zip(&FIELDS) {
            len += w * ids.len() as f32;
            self.scratch
                .extend(ids.iter().map(|&id| (lx.words[id as usize].stem, w, bit)));
        }
        self.scratch.sort_unstable_by_key(|t| t.0);
        let mut k = 0;
        while k < self.scratch.len() {
            let (stem, mut tf, mut bits) = self.scratch[k];
            k += 1;
            while k < self.scratch.len() && self.scratch[k].0 == stem {
                tf += self.scratch[k].1;
                bits |= self.scratch[k].2;
                k += 1;
            }
            // The raw frequency for now: the weight needs every document's length and the
            // term's document frequency, known only at the end.
            self.postings.push(
                stem,
                Posting {
                    doc,
                    weight: tf,
                    fields: bits,
                },
            );
        }
        self.lengths.push(len);
        let mut own: Vec<u32> = fields[0]
            .iter()
            .map(|&id| lx.words[id as usize].stem)
            .collect();
        own.sort_unstable();
        own.dedup();
        self.name_stems.push(own);
        let mut written = fields[0].to_vec();
        written.sort_unstable();
        written.dedup();
        self.name_words.push(written);
    }

    /// Turns raw frequencies into final BM25 weights once every document is in.
    pub(super) fn finish(&mut self, stems: usize) {
        self.postings.finish(stems);
        let n = self.lengths.len().max(1) as f32;
        let avg_len = (self.lengths.iter().sum::<f32>() / n).max(1.0);
        self.min_score = MIN_SCORE_OF_RARE_WORD * (1.0 + (n - 0.5) / 1.5).ln();
        let lengths = &self.lengths;
        self.postings.for_each_list_mut(|post| {
            let df = post.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for p in post.iter_mut() {
                let tf = p.weight;
                let norm = K1 * (1.0 - B + B * lengths[p.doc as usize] / avg_len);
                p.weight = idf * tf * (K1 + 1.0) / (tf + norm);
            }
        });
        self.lengths = Vec::new();
        self.scratch = Vec::new();
        self.name_df = vec![0; stems];
        for own in &self.name_stems {
            for &st in own {
                if let Some(n) = self.name_df.get_mut(st as usize) {
                    *n += 1;
                }
            }
        }
    }

    /// The enabled skills the message names outright: a word of the message, as written (not
    /// through a synonym or a stem: "toggle" does not name `toggl-automation`), that is a word
    /// of the skill's name, in at most [`NAME_DF_MAX`] names, in at most [`NAMED_DF_MAX`] skills
    /// at all, and written as a name is (capitalised inside a sentence, mixed with digits or
    /// capitals, or no word of `vocabulary`: a brand, not a dictionary word); or every word of a
    /// name of two or more. The word must be the skill's distinctive name: a single letter names
    /// nothing, two letters ("CV") only a skill called just that (beside words many names
    /// share: `s3-automation`), and a dictionary word
    /// ("Center", "Slack", "Linear") only a skill whose other name words other names share too
    /// (`slack-automation` and `linear-automation` beside `jira-automation`, not
    /// `blackops-center`). "log my ride on Strava" names
    /// `strava-automation`; "did you catch the match last night? what a finish" names nothing,
    /// although a skill is called `finishing-a-development-branch`.
    pub(super) fn named(
        &self,
        lx: &Lexicon,
        message: &str,
        enabled: &dyn Fn(usize) -> bool,
        vocabulary: &dyn Fn(&str) -> bool,
    ) -> Vec<u32> {
        let asked: Vec<u32> = self
            .query_terms(lx, message)
            .into_iter()
            .filter(|t| t.1 >= 1.0)
            .map(|t| t.0)
            .collect();
        let mut out: Vec<u32> = Vec::new();
        let take = |d: u32, out: &mut Vec<u32>| {
            if !out.contains(&d) && enabled(d as usize) {
                out.push(d);
            }
        };
        // A word of a family of names (`automation` of `jira-automation` and
        // `linear-automation`): another skill's name holds it too.
        let generic = |word: u32| {
            let st = lx.words[word as usize].stem;
            self.name_df.get(st as usize).copied().unwrap_or(0) >= 2
        };
        for w in words(message) {
            if !is_content_word(&w.text) {
                continue;
            }
            let Some(id) = lx.word(&w.text) else {
                continue;
            };
            let t = lx.words[id as usize].stem;
            let post = self.postings.get(t);
            let name_df = self.name_df.get(t as usize).copied().unwrap_or(0);
            if name_df == 0 || name_df > NAME_DF_MAX || post.len() > NAMED_DF_MAX {
                continue;
            }
            let letters = w.text.chars().count();
            if letters < 2 || !written_as_name(message, w.span.clone(), vocabulary) {
                continue;
            }
            let dictionary = vocabulary(&w.text);
            for p in post.iter().filter(|p| p.fields & 1 != 0) {
                let Some(own) = self.name_words.get(p.doc as usize) else {
                    continue;
                };
                if !own.contains(&id) {
                    continue;
                }
                let distinctive = own.iter().all(|&o| o == id || generic(o));
                if distinctive || (letters > 2 && !dictionary) {
                    take(p.doc, &mut out);
                }
            }
        }
        // Every word of a longer name: `qdrant horizontal scaling`.
        for (d, stems) in self.name_stems.iter().enumerate() {
            if stems.len() >= 2 && stems.iter().all(|st| asked.contains(st)) {
                take(d as u32, &mut out);
            }
        }
        out.sort_unstable();
        out
    }

    fn query_terms(&self, lx: &Lexicon, message: &str) -> Vec<QueryTerm> {
        // Stems of the message, also those no skill has: their synonyms may be there.
        let stems = words(message)
            .into_iter()
            .filter(|w| is_content_word(&w.text))
            .map(|w| {
                let s = match lx.word(&w.text) {
                    Some(id) => lx.stems[lx.words[id as usize].stem as usize].to_string(),
                    None => stem(&w.text),
                };
                (s, w.span)
            });
        let direct = group_spans(stems);
        let asked: HashSet<&str> = direct.iter().map(|(s, _)| s.as_str()).collect();
        let mut out: Vec<QueryTerm> = direct
            .iter()
            .filter_map(|(s, spans)| Some((lx.stem_id(s)?, 1.0, spans.clone())))
            .collect();
        for (s, spans) in &direct {
            for syn in self.synonyms.of(s) {
                if asked.contains(syn.as_str()) {
                    continue;
                }
                let Some(t) = lx.stem_id(syn) else {
                    continue;
                };
                match out.iter_mut().find(|u| u.0 == t) {
                    Some(u) => u.2.extend(spans.iter().cloned()),
                    None => out.push((t, SYNONYM_FACTOR, spans.clone())),
                }
            }
        }
        out
    }

    pub(super) fn query(
        &self,
        lx: &Lexicon,
        message: &str,
        enabled: &dyn Fn(usize) -> bool,
        k: usize,
        names: &[String],
    ) -> Vec<Match> {
        let terms = self.query_terms(lx, message);
        let scored: Vec<(u32, f32)> = self
            .scores(&terms, names.len())
            .into_iter()
            .filter(|&(d, score)| score >= self.min_score && enabled(d as usize))
            .collect();
        let top = top_scores(scored, names, k);
        let best = top.first().map_or(0.0, |t| t.1);
        top.into_iter()
            .take_while(|&(_, s)| s >= best * MIN_SHARE_OF_BEST)
            .map(|(doc, score)| Match {
                skill: doc as usize,
                score,
                hits: self.hits(lx, doc, &terms),
                name_indices: Vec::new(),
            })
            .collect()
    }

    /// Every skill sharing a term with the query, with its BM25 score, in no order.
    fn scores(&self, terms: &[QueryTerm], docs: usize) -> Vec<(u32, f32)> {
        let mut scores = vec![0f32; docs];
        let mut touched: Vec<u32> = Vec::new();
        for (t, factor, _) in terms {
            for p in self.postings.get(*t) {
                let slot = &mut scores[p.doc as usize];
                if *slot == 0.0 {
                    touched.push(p.doc);
                }
                *slot += factor * p.weight;
            }
        }
        touched
            .into_iter()
            .map(|d| (d, scores[d as usize]))
            .collect()
    }

    /// The enabled skills sharing a term with `message`, best first, with their score and
    /// whether the `bm25` matcher would take them on its own (before its share-of-best cut):
    /// what the hybrid matcher fuses.
    pub(super) fn ranked(
        &self,
        lx: &Lexicon,
        message: &str,
        enabled: &dyn Fn(usize) -> bool,
        names: &[String],
    ) -> Vec<(u32, f32, bool)> {
        let terms = self.query_terms(lx, message);
        let scored: Vec<(u32, f32)> = self
            .scores(&terms, names.len())
            .into_iter()
            .filter(|&(d, _)| enabled(d as usize))
            .collect();
        let n = scored.len();
        top_scores(scored, names, n)
            .into_iter()
            .map(|(d, score)| (d, score, score >= self.min_score))
            .collect()
    }

    /// What of `message` reached skill `doc`, as the `bm25` matcher explains it.
    pub(super) fn hits_of(&self, lx: &Lexicon, message: &str, doc: u32) -> Vec<Hit> {
        self.hits(lx, doc, &self.query_terms(lx, message))
    }

    fn hits(&self, lx: &Lexicon, doc: u32, terms: &[QueryTerm]) -> Vec<Hit> {
        let mut found: Vec<(f32, Hit)> = Vec::new();
        for (t, factor, spans) in terms {
            let post = self.postings.get(*t);
            let Ok(i) = post.binary_search_by_key(&doc, |p| p.doc) else {
                continue;
            };
            let p = post[i];
            for (bit, field, _) in FIELDS {
                if p.fields & bit != 0 {
                    let mut spans = spans.clone();
                    spans.sort_by_key(|s| s.start);
                    let hit = Hit {
                        term: lx.stem_display(*t).to_string(),
                        field,
                        spans,
                        similarity: None,
                    };
                    found.push((factor * p.weight, hit));
                }
            }
        }
        // The terms that weigh most first; within a term, in field order.
        found.sort_by(|a, b| {
            b.0.partial_cmp(&a.0)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.1.field.cmp(&b.1.field))
        });
        found.into_iter().map(|(_, h)| h).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testlib::{library, names};
    use super::super::{Index, Matcher};
    use super::*;

    fn corpus() -> (tempfile::TempDir, crate::core::Library) {
        library(&[
            (
                "xlsx",
                "name: xlsx\ndescription: Create and edit spreadsheets with formulas and charts.",
            ),
            (
                "pdf",
                "name: pdf\ndescription: Extract text from PDF files, fill forms, merge documents.",
            ),
            (
                "tdd",
                "name: test-driven-development\ndescription: Write the failing test first, then the code.\nwhen_to_use: Before writing implementation code for a feature or bugfix.",
            ),
            (
                "git",
                "name: git-commit\ndescription: Write conventional commit messages for staged changes.\ntriggers: [commit message]",
            ),
            (
                "deploy",
                "name: deploy\ndescription: Ship the service to production with rollbacks.",
            ),
            (
                "poem",
                "name: poem\ndescription: Write poems and song lyrics.",
            ),
        ])
    }

    #[test]
    fn synonyms_and_stems_route_a_message_and_say_so() {
        let (_t, lib) = corpus();
        let idx = Index::build(&lib);
        let msg = "fix the formulas in this Excel sheet";
        let got = idx.query(msg, Matcher::Bm25, &|_| true, 5);
        assert_eq!(names(&lib, &got), ["xlsx"]);
        let hits: Vec<(&str, HitField, &str)> = got[0]
            .hits
            .iter()
            .map(|h| (h.term.as_str(), h.field, &msg[h.spans[0].clone()]))
            .collect();
        assert!(
            hits.contains(&("formulas", HitField::Description, "formulas")),
            "{hits:?}"
        );
        assert!(
            hits.contains(&("spreadsheets", HitField::Description, "Excel")),
            "{hits:?}"
        );
    }

    #[test]
    fn when_to_use_and_triggers_count() {
        let (_t, lib) = corpus();
        let idx = Index::build(&lib);
        let got = idx.query(
            "fix this bugfix before implementation",
            Matcher::Bm25,
            &|_| true,
            5,
        );
        assert_eq!(names(&lib, &got), ["test-driven-development"]);
        assert!(got[0].hits.iter().any(|h| h.field == HitField::WhenToUse));
        let got = idx.query("draft a commit message", Matcher::Bm25, &|_| true, 5);
        assert_eq!(names(&lib, &got)[0], "git-commit");
        assert!(
            got[0]
                .hits
                .iter()
                .any(|h| h.field == HitField::Triggers && h.term == "commit")
        );
    }

    #[test]
    fn unrelated_messages_trigger_nothing() {
        let (_t, lib) = corpus();
        let idx = Index::build(&lib);
        for msg in [
            "thanks, that is all for today",
            "what is the capital of France?",
            "hello there",
        ] {
            let got = idx.query(msg, Matcher::Bm25, &|_| true, 5);
            assert!(got.is_empty(), "{msg}: {:?}", names(&lib, &got));
        }
    }

    #[test]
    fn query_terms_skip_synonyms_already_asked_for() {
        let (_t, lib) = corpus();
        let idx = Index::build(&lib);
        let terms = idx.bm25.query_terms(&idx.lexicon, "excel spreadsheet");
        let sheet = idx.lexicon.stem_id(&stem("spreadsheet")).unwrap();
        let of_sheet: Vec<f32> = terms.iter().filter(|t| t.0 == sheet).map(|t| t.1).collect();
        assert_eq!(of_sheet, [1.0]);
    }
}
