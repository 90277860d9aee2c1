//! The `hybrid` matcher: the semantic similarity, raised by bm25's own finding where there is
//! one: a skill whose words the message uses (enough for bm25 to take it) gains up to
//! [`BM25_WEIGHT`], in proportion to its share of the best bm25 score, if it is near the message
//! in meaning at all ([`MIN_LIFTED_SIMILARITY`]). Words that bm25 alone would not act on add
//! nothing, so common words do not pull in noise.

use super::Match;
use super::bm25::Bm25Index;
use super::lexicon::Lexicon;
use super::semantic::{self, SkillVectors};
use rustc_hash::FxHashMap;

/// What bm25's best skill adds to its similarity (a tenth of the cosine scale is a clear lead at
/// the similarities these messages reach).
pub const BM25_WEIGHT: f32 = 0.15;
/// A skill must be at least this near in meaning for bm25's finding to lift it: a word the
/// message shares with a skill about something else ("next" in a message about the pager and a
/// skill about Next.js) is not a reason to load it.
pub const MIN_LIFTED_SIMILARITY: f32 = 0.2;

#[allow(clippy::too_many_arguments)]
pub(super) fn query(
    bm25: &Bm25Index,
    lx: &Lexicon,
    vectors: &SkillVectors,
    message: &str,
    q: &[f32],
    enabled: &dyn Fn(usize) -> bool,
    k: usize,
    names: &[String],
) -> Vec<Match> {
    let lexical: Vec<(u32, f32)> = bm25
        .ranked(lx, message, enabled, names)
        .into_iter()
        .filter(|&(_, _, taken)| taken)
        .map(|(d, score, _)| (d, score))
        .collect();
    let best_lexical = lexical.first().map_or(0.0, |l| l.1);
    let boost: FxHashMap<u32, f32> = lexical
        .iter()
        .map(|&(d, s)| (d, BM25_WEIGHT * s / best_lexical))
        .collect();
    let sims = vectors.similarities(q, enabled);
    let lifted = |d: u32, sim: f32| match boost.get(&d) {
        Some(&b) if sim >= MIN_LIFTED_SIMILARITY => sim + b,
        _ => sim,
    };
    semantic::nearest(&sims, &lifted, k, names)
        .into_iter()
        .map(|(d, score, fields)| {
            let nearest = fields.get(..1).unwrap_or(&[]);
            let mut hits = semantic::hits(nearest);
            if boost.contains_key(&d) && score > nearest.first().map_or(0.0, |x| x.1) {
                hits.extend(bm25.hits_of(lx, message, d));
            }
            Match {
                skill: d as usize,
                score,
                hits,
                name_indices: Vec::new(),
            }
        })
        .collect()
}
