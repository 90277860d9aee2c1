//! Fuzzy matching of a typed pattern against skill names (the `fuzzy` matcher and the list
//! filter), with the matched characters so they can be highlighted.

use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;
use serde::Serialize;

/// How well a name matches a pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NameMatch {
    /// Higher is better.
    pub score: i64,
    /// Character (not byte) indices of the name that the pattern matched, ascending.
    pub indices: Vec<usize>,
}

/// A fuzzy name filter (skim's algorithm, smart case: a capital in the pattern must match).
pub struct NameFilter {
    matcher: SkimMatcherV2,
}

impl std::fmt::Debug for NameFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NameFilter")
    }
}

impl Default for NameFilter {
    fn default() -> Self {
        NameFilter::new()
    }
}

impl NameFilter {
    pub fn new() -> Self {
        NameFilter {
            matcher: SkimMatcherV2::default().smart_case(),
        }
    }

    /// The match of `pattern` in `name`, or `None` when the name does not hold the pattern's
    /// characters in order. An empty pattern matches every name with score 0.
    pub fn score(&self, name: &str, pattern: &str) -> Option<NameMatch> {
        if pattern.is_empty() {
            return Some(NameMatch {
                score: 0,
                indices: Vec::new(),
            });
        }
        // Every character of the pattern must be found in the name: a longer pattern cannot
        // match, and a pasted page would otherwise cost a full alignment per name.
        if pattern.chars().count() > name.chars().count() {
            return None;
        }
        self.matcher
            .fuzzy_indices(name, pattern)
            .map(|(score, indices)| NameMatch { score, indices })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_characters_of_the_name() {
        let f = NameFilter::new();
        let m = f.score("café-pdf", "pdf").unwrap();
        assert_eq!(m.indices, vec![5, 6, 7]);
        let name: Vec<char> = "café-pdf".chars().collect();
        let picked: String = m.indices.iter().map(|&i| name[i]).collect();
        assert_eq!(picked, "pdf");
    }

    #[test]
    fn closer_names_score_higher_and_misses_are_none() {
        let f = NameFilter::new();
        let exact = f.score("pdf", "pdf").unwrap().score;
        let spread = f.score("pretty-data-formatter", "pdf").unwrap().score;
        assert!(exact > spread);
        assert_eq!(f.score("xlsx", "pdf"), None);
        assert_eq!(
            f.score("pdf", "PDF"),
            None,
            "smart case: capitals must match"
        );
        assert_eq!(f.score("anything", "").map(|m| m.score), Some(0));
    }
}
