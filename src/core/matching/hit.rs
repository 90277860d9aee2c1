//! What a matcher finds: the skills a message triggers, each with the hits that say why.

use serde::Serialize;
use std::cmp::Ordering;
use std::ops::Range;

/// Where in the skill a hit came from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum HitField {
    /// The skill's name.
    Name,
    /// Its description.
    Description,
    /// Its `when_to_use`.
    WhenToUse,
    /// Its trigger phrases.
    Triggers,
    /// One of the verbs every executable skill reacts to (`run`, `execute`, `call`, `api`,
    /// `script`).
    #[strum(to_string = "executable-verb")]
    ExecutableVerb,
}

impl HitField {
    /// Its name in JSON and on screen.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One reason a skill matched: a term of the skill found in the message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    /// What matched, as the skill has it: a word (stemmed for bm25), a trigger phrase as written,
    /// an executable verb, or the name for fuzzy. It differs from the message text at `spans`
    /// when a stem or a synonym made the match ("excel" in the message, "spreadsheet" here).
    pub term: String,
    /// Where in the skill it was found.
    pub field: HitField,
    /// Byte ranges of the message that matched, in order (none for a semantic hit: the whole
    /// message was compared).
    pub spans: Vec<Range<usize>>,
    /// The cosine similarity of the message and this field (semantic hits only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f32>,
}

/// One skill a message triggers under a matcher.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    /// Index of the skill in the library.
    pub skill: usize,
    /// Higher is better; scales differ between matchers.
    pub score: f32,
    /// Every reason, most telling first.
    pub hits: Vec<Hit>,
    /// Character indices of the skill's name that matched (fuzzy only; empty otherwise).
    pub name_indices: Vec<usize>,
}

/// The best `k` of `(skill, score)` pairs, without sorting all of them.
pub(super) fn top_scores(
    mut scored: Vec<(u32, f32)>,
    names: &[String],
    k: usize,
) -> Vec<(u32, f32)> {
    let cmp = |a: &(u32, f32), b: &(u32, f32)| {
        b.1.partial_cmp(&a.1)
            .unwrap_or(Ordering::Equal)
            .then_with(|| names[a.0 as usize].cmp(&names[b.0 as usize]))
            .then(a.0.cmp(&b.0))
    };
    if scored.len() > k {
        scored.select_nth_unstable_by(k, cmp);
        scored.truncate(k);
    }
    scored.sort_by(cmp);
    scored
}

/// Folds the byte ranges of one message word into a hit list: one hit per (term, field), with
/// every place in the message where it matched.
pub(super) fn push_hit(hits: &mut Vec<Hit>, term: &str, field: HitField, spans: &[Range<usize>]) {
    if let Some(h) = hits.iter_mut().find(|h| h.term == term && h.field == field) {
        for s in spans {
            if !h.spans.contains(s) {
                h.spans.push(s.clone());
            }
        }
        h.spans.sort_by_key(|s| s.start);
    } else {
        hits.push(Hit {
            term: term.to_string(),
            field,
            spans: spans.to_vec(),
            similarity: None,
        });
    }
}
