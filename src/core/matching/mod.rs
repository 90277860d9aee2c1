//! Trigger simulation: which skills a message would load under each matcher, and why.
//!
//! [`Index::build`] does every matcher's precomputation once per library; [`Index::query`] answers
//! one message with ranked [`Match`]es whose [`Hit`]s say which word or phrase matched, in which
//! field of the skill, and where in the message, so a front end can highlight it.

#[cfg(feature = "semantic")]
mod bert;
mod bm25;
pub mod eval;
pub(crate) mod fuzzy;
#[cfg(feature = "semantic")]
mod gelu;
mod hit;
mod hybrid;
mod keyword;
pub(crate) mod lexicon;
pub(crate) mod matrix;
mod postings;
pub mod semantic;
pub mod sentence;
pub mod text;
mod triggers;
pub mod weights;
#[cfg(feature = "semantic")]
mod wordpiece;

use crate::core::library::Library;
use crate::core::skill::Skill;
use lexicon::Lexicon;
use serde::Serialize;
use std::cell::OnceCell;
use std::cmp::Ordering;
use std::ops::Range;

pub use fuzzy::{NameFilter, NameMatch};
pub use hit::{Hit, HitField, Match};
use hit::{push_hit, top_scores};
pub use keyword::{EXECUTABLE_VERBS, KEYWORD_SKILL_LIMIT};

/// The warning keyword routing earns when more than [`KEYWORD_SKILL_LIMIT`] skills compete for
/// a message: the Lazy Skills design finds its precision degrades past about 50 (design 000).
pub fn keyword_crowded(competing: usize) -> Option<String> {
    (competing > KEYWORD_SKILL_LIMIT).then(|| {
        format!(
            "keyword matching faces {competing} skills: the Lazy Skills design finds it degrades \
             beyond ~{KEYWORD_SKILL_LIMIT} (too many false positives); compare bm25"
        )
    })
}

/// A way of deciding which skills a message triggers.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, strum::VariantArray, strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Matcher {
    /// Lazy Skills' rule: the skill's whole name or whole description in the message.
    Keyword,
    /// The frontmatter `triggers` phrases; at most three skills.
    Triggers,
    /// BM25 ranking over name, description, `when_to_use` and triggers.
    Bm25,
    /// Fuzzy match of the message against skill names, as a list filter does.
    Fuzzy,
    /// Cosine similarity of sentence vectors: what the message means, not its words.
    Semantic,
    /// BM25 and semantic ranks fused.
    Hybrid,
}

impl Matcher {
    /// Every matcher, in display order.
    pub const ALL: &'static [Matcher] = <Matcher as strum::VariantArray>::VARIANTS;
    /// The matchers that read the message's words: each answers within a keystroke.
    pub const LEXICAL: [Matcher; 4] = [
        Matcher::Keyword,
        Matcher::Triggers,
        Matcher::Bm25,
        Matcher::Fuzzy,
    ];
    /// The matchers that embed the message first (about 12 ms of the sentence model's time): a
    /// front end answering every keystroke runs them apart from [`Matcher::LEXICAL`].
    pub const BY_MEANING: [Matcher; 2] = [Matcher::Semantic, Matcher::Hybrid];
    /// The matchers that model an agent routing a message (fuzzy is a name filter).
    pub const ROUTING: [Matcher; 5] = [
        Matcher::Keyword,
        Matcher::Triggers,
        Matcher::Bm25,
        Matcher::Semantic,
        Matcher::Hybrid,
    ];

    /// Its name on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Whether it needs the sentence model and the skills' vectors.
    pub fn needs_vectors(self) -> bool {
        matches!(self, Matcher::Semantic | Matcher::Hybrid)
    }

    /// Whether this program has it: those that need the sentence model are the `semantic`
    /// feature's ([`sentence::BUILT_IN`]).
    pub fn built_in(self) -> bool {
        !self.needs_vectors() || sentence::BUILT_IN
    }

    /// The matcher named `name` (as [`Matcher::as_str`] writes it).
    pub fn from_name(name: &str) -> Option<Matcher> {
        Matcher::ALL
            .iter()
            .copied()
            .find(|m| m.as_str().eq_ignore_ascii_case(name))
    }

    /// The most skills this matcher ever returns, whatever `top_k` asks for.
    pub fn cap(self) -> Option<usize> {
        match self {
            Matcher::Triggers => Some(triggers::MAX_SKILLS),
            _ => None,
        }
    }
}

impl std::fmt::Display for Matcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Every matcher's precomputed view of one library. Build it again when the library changes.
#[derive(Debug)]
pub struct Index {
    names: Vec<String>,
    lexicon: Lexicon,
    keyword: keyword::KeywordIndex,
    triggers: triggers::TriggerIndex,
    bm25: bm25::Bm25Index,
    fuzzy: NameFilter,
    /// The skills' sentence vectors, once made ([`Index::set_vectors`]): until then the semantic
    /// and hybrid matchers find nothing.
    vectors: std::sync::OnceLock<std::sync::Arc<semantic::SkillVectors>>,
}

impl Index {
    /// Every matcher's view of `lib`.
    pub fn build(lib: &Library) -> Index {
        let (triggers, (lexicon, keyword, bm25)) =
            rayon::join(|| triggers::TriggerIndex::build(lib), || word_indexes(lib));
        Index {
            names: lib.skills.iter().map(|s| s.name.clone()).collect(),
            lexicon,
            keyword,
            triggers,
            bm25,
            fuzzy: NameFilter::new(),
            vectors: std::sync::OnceLock::new(),
        }
    }

    /// Gives the semantic and hybrid matchers the skills' vectors (made for the same library);
    /// false if it already had them.
    pub fn set_vectors(&self, vectors: std::sync::Arc<semantic::SkillVectors>) -> bool {
        self.vectors.set(vectors).is_ok()
    }

    /// Whether the semantic and hybrid matchers can answer.
    pub fn has_vectors(&self) -> bool {
        self.vectors.get().is_some()
    }

    /// The skills' sentence vectors, once given.
    pub fn vectors(&self) -> Option<&std::sync::Arc<semantic::SkillVectors>> {
        self.vectors.get()
    }

    /// How many skills the index was built over.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the library had no skill.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The skills `message` triggers under `matcher`, best first, at most `top_k` (and at most
    /// the matcher's own [`Matcher::cap`]). Only skills for which `enabled` says yes compete.
    pub fn query(
        &self,
        message: &str,
        matcher: Matcher,
        enabled: &dyn Fn(usize) -> bool,
        top_k: usize,
    ) -> Vec<Match> {
        self.query_with(message, matcher, enabled, top_k, &OnceCell::new())
    }

    /// [`Index::query`], with the message's sentence vector made at most once across calls.
    fn query_with(
        &self,
        message: &str,
        matcher: Matcher,
        enabled: &dyn Fn(usize) -> bool,
        top_k: usize,
        q: &OnceCell<Option<Vec<f32>>>,
    ) -> Vec<Match> {
        let k = matcher.cap().map_or(top_k, |c| c.min(top_k));
        if k == 0 || message.trim().is_empty() {
            return Vec::new();
        }
        match matcher {
            Matcher::Keyword => self.keyword.query(message, enabled, k, &self.names),
            Matcher::Triggers => self.triggers.query(message, enabled, k, &self.names),
            Matcher::Bm25 => self
                .bm25
                .query(&self.lexicon, message, enabled, k, &self.names),
            Matcher::Fuzzy => self.fuzzy_query(message, enabled, k),
            Matcher::Semantic | Matcher::Hybrid => {
                let Some(vectors) = self.vectors.get() else {
                    return Vec::new();
                };
                // A model that cannot run finds nothing: it was loaded to make the vectors, so
                // this does not happen once they are made.
                let Some(q) = q.get_or_init(|| semantic::message_vector(message).ok()) else {
                    return Vec::new();
                };
                if matcher == Matcher::Semantic {
                    semantic::query(vectors, q, enabled, k, &self.names)
                } else {
                    hybrid::query(
                        &self.bm25,
                        &self.lexicon,
                        vectors,
                        message,
                        q,
                        enabled,
                        k,
                        &self.names,
                    )
                }
            }
        }
    }

    /// Whether `matcher` has anything to match among the skills `enabled` lets compete: the
    /// triggers matcher has nothing in a library where none of them declares `triggers:`.
    pub fn matchable(&self, matcher: Matcher, enabled: &dyn Fn(usize) -> bool) -> bool {
        match matcher {
            Matcher::Triggers => self.triggers.any_phrase(enabled),
            _ => (0..self.len()).any(enabled),
        }
    }

    /// Every matcher on one message, in [`Matcher::ALL`] order.
    pub fn query_all(
        &self,
        message: &str,
        enabled: &dyn Fn(usize) -> bool,
        top_k: usize,
    ) -> Vec<(Matcher, Vec<Match>)> {
        self.query_many(message, Matcher::ALL, enabled, top_k)
    }

    /// The given matchers on one message, in order (the message embedded once for those that
    /// need its vector).
    pub fn query_many(
        &self,
        message: &str,
        matchers: &[Matcher],
        enabled: &dyn Fn(usize) -> bool,
        top_k: usize,
    ) -> Vec<(Matcher, Vec<Match>)> {
        let q = OnceCell::new();
        matchers
            .iter()
            .map(|&m| (m, self.query_with(message, m, enabled, top_k, &q)))
            .collect()
    }

    fn fuzzy_query(&self, message: &str, enabled: &dyn Fn(usize) -> bool, k: usize) -> Vec<Match> {
        let pattern = message.trim();
        let start = message.len() - message.trim_start().len();
        let whole = start..start + pattern.len();
        let mut out: Vec<Match> = self
            .names
            .iter()
            .enumerate()
            .filter(|&(i, _)| enabled(i))
            .filter_map(|(i, name)| {
                let m = self.fuzzy.score(name, pattern)?;
                Some(Match {
                    skill: i,
                    score: m.score as f32,
                    hits: vec![Hit {
                        term: name.clone(),
                        field: HitField::Name,
                        spans: vec![whole.clone()],
                        similarity: None,
                    }],
                    name_indices: m.indices,
                })
            })
            .collect();
        rank(&mut out, &self.names, k);
        out
    }
}

/// The keyword and BM25 indexes, over one tokenisation of every skill.
fn word_indexes(lib: &Library) -> (Lexicon, keyword::KeywordIndex, bm25::Bm25Index) {
    let all: Vec<usize> = (0..lib.skills.len()).collect();
    let (lx, words) = lexicon::tokenize(lib, &all);
    let keyword = keyword::KeywordIndex::build(lib);
    let mut bm25 = bm25::Bm25Index::with_capacity(words.total());
    for i in 0..lib.skills.len() {
        bm25.add(&lx, i as u32, &words.fields(i));
    }
    bm25.finish(lx.stems.len());
    (lx, keyword, bm25)
}

/// Whether an agent would ever load this skill on its own: it lists only skills whose
/// frontmatter parses, never loads a shadowed copy, and leaves `disable-model-invocation: true`
/// skills to the user. (Front ends add skillscope's own on/off state to this.)
pub fn may_trigger(skill: &Skill) -> bool {
    skill.listable() && skill.shadowed_by.is_none() && !skill.frontmatter.disable_model_invocation
}

/// The skills that compete for a message: switched on in `enabled` (index-aligned with the
/// library) and ones an agent would load on its own ([`may_trigger`]).
pub fn candidates(lib: &Library, enabled: &[bool]) -> Vec<bool> {
    (0..lib.skills.len())
        .map(|i| competes(lib, enabled, i))
        .collect()
}

/// Whether skill `i` is one of the [`candidates`].
/// A skill an agent's view keeps out of its listing (a conditional skill no open file
/// activates) cannot be chosen either.
pub fn competes(lib: &Library, enabled: &[bool], i: usize) -> bool {
    enabled.get(i).copied().unwrap_or(false)
        && lib.skills.get(i).is_some_and(may_trigger)
        && !lib.inactive.contains_key(&i)
}

/// Sorts best first (ties by name, then library order) and keeps the first `k`.
fn rank(matches: &mut Vec<Match>, names: &[String], k: usize) {
    matches.sort_by(|a, b| {
        b.score
            .partial_cmp(&a.score)
            .unwrap_or(Ordering::Equal)
            .then_with(|| names[a.skill].cmp(&names[b.skill]))
            .then(a.skill.cmp(&b.skill))
    });
    matches.truncate(k);
}

/// Every byte range of the message covered by some hit, merged and in order: what a front end
/// highlights in the message.
pub fn highlight_spans(matches: &[Match]) -> Vec<Range<usize>> {
    let mut spans: Vec<Range<usize>> = matches
        .iter()
        .flat_map(|m| m.hits.iter().flat_map(|h| h.spans.iter().cloned()))
        .collect();
    spans.sort_by_key(|s| (s.start, s.end));
    let mut out: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    for s in spans {
        match out.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => out.push(s),
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod testlib {
    //! Small libraries written to a temporary folder for the matchers' unit tests.

    use crate::core::library::Library;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};

    /// Writes one SKILL.md per `(folder, frontmatter body)` and loads them.
    pub fn library(skills: &[(&str, &str)]) -> (tempfile::TempDir, Library) {
        let t = tempfile::tempdir().unwrap();
        for (dir, fm) in skills {
            let d = t.path().join(dir);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("SKILL.md"), format!("---\n{fm}\n---\n# Body\n")).unwrap();
        }
        let lib = Library::load(
            vec![Root::new(t.path(), Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        (t, lib)
    }

    pub fn names<'a>(lib: &'a Library, m: &[super::Match]) -> Vec<&'a str> {
        m.iter()
            .map(|m| lib.skills[m.skill].name.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testlib::{library, names};
    use super::*;

    #[test]
    fn the_index_can_be_built_on_a_worker_and_shared() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Index>();
    }

    /// The index with the skills' sentence vectors, so every matcher built in answers.
    fn with_vectors(lib: &Library) -> Index {
        let idx = Index::build(lib);
        if sentence::BUILT_IN {
            let v = semantic::SkillVectors::build(lib, &|_, _| {}).unwrap();
            idx.set_vectors(std::sync::Arc::new(v));
        }
        idx
    }

    #[test]
    fn query_all_gives_one_column_per_matcher() {
        let (_t, lib) = library(&[(
            "pdf",
            "name: pdf\ndescription: Fill PDF forms.\ntriggers: [pdf]",
        )]);
        let idx = with_vectors(&lib);
        let cols = idx.query_all("pdf", &|_| true, 5);
        let order: Vec<Matcher> = cols.iter().map(|c| c.0).collect();
        assert_eq!(order, Matcher::ALL);
        // One skill from each built in, nothing from the others.
        assert!(
            cols.iter()
                .all(|(m, found)| found.len() == usize::from(m.built_in())),
            "{cols:?}"
        );
    }

    #[test]
    fn the_lexical_matchers_and_those_by_meaning_are_every_matcher_in_order() {
        let both: Vec<Matcher> = Matcher::LEXICAL
            .into_iter()
            .chain(Matcher::BY_MEANING)
            .collect();
        assert_eq!(both, Matcher::ALL);
        assert!(Matcher::LEXICAL.iter().all(|m| !m.needs_vectors()));
        assert!(Matcher::BY_MEANING.iter().all(|m| m.needs_vectors()));
    }

    #[test]
    fn matcher_names_round_trip() {
        for &m in Matcher::ALL {
            assert_eq!(Matcher::from_name(m.as_str()), Some(m));
        }
        assert_eq!(Matcher::from_name("BM25"), Some(Matcher::Bm25));
        assert_eq!(Matcher::from_name("regex"), None);
    }

    #[test]
    fn disabled_skills_never_compete() {
        let (_t, lib) = library(&[
            (
                "pdf",
                "name: pdf\ndescription: Fill PDF forms.\ntriggers: [fill pdf]",
            ),
            (
                "pdf-two",
                "name: pdf-two\ndescription: Fill PDF forms too.\ntriggers: [fill pdf]",
            ),
            ("git", "name: git\ndescription: Commit messages."),
            ("sql", "name: sql\ndescription: Faster queries."),
            ("docker", "name: docker\ndescription: Container builds."),
        ]);
        let idx = with_vectors(&lib);
        let two = lib.find("pdf-two").unwrap();
        let only_one = |i: usize| i != two;
        for m in Matcher::ALL.iter().copied().filter(|m| m.built_in()) {
            let message = if m == Matcher::Fuzzy {
                "pdf"
            } else {
                "fill pdf"
            };
            let got = idx.query(message, m, &only_one, 10);
            assert!(!got.is_empty(), "{m} found nothing");
            assert!(
                got.iter().all(|g| g.skill != two),
                "{m}: {:?}",
                names(&lib, &got)
            );
        }
    }

    #[test]
    fn empty_message_and_zero_k_give_nothing() {
        let (_t, lib) = library(&[("pdf", "name: pdf\ndescription: Fill PDF forms.")]);
        let idx = Index::build(&lib);
        for &m in Matcher::ALL {
            assert!(idx.query("   ", m, &|_| true, 5).is_empty());
            assert!(idx.query("pdf", m, &|_| true, 0).is_empty());
        }
    }

    #[test]
    fn highlight_spans_merge_overlaps() {
        let hit = |s: Range<usize>| Hit {
            term: String::new(),
            field: HitField::Name,
            spans: vec![s],
            similarity: None,
        };
        let m = Match {
            skill: 0,
            score: 1.0,
            hits: vec![hit(4..8), hit(0..3), hit(6..10), hit(12..14)],
            name_indices: Vec::new(),
        };
        assert_eq!(highlight_spans(&[m]), vec![0..3, 4..10, 12..14]);
    }
}
