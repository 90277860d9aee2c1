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
    /// A filter with an empty pattern (every name passes).
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
        if !may_match(name, pattern) {
            return None;
        }
        self.matcher
            .fuzzy_indices(name, pattern)
            .map(|(score, indices)| NameMatch { score, indices })
    }

    /// [`NameFilter::score`] without the matched characters: cheaper, for filtering many names.
    pub fn rank(&self, name: &str, pattern: &str) -> Option<i64> {
        if pattern.is_empty() {
            return Some(0);
        }
        if !may_match(name, pattern) {
            return None;
        }
        self.matcher.fuzzy_match(name, pattern)
    }
}

/// Whether every character of `pattern` (white space aside) appears in `name` in order, ignoring
/// case: a cheap test that every fuzzy match passes, so most names never reach the matcher and
/// a pasted page never costs a full alignment per name.
fn may_match(name: &str, pattern: &str) -> bool {
    if pattern.chars().count() > name.chars().count() {
        return false;
    }
    let mut hay = name.chars().flat_map(char::to_lowercase);
    pattern
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|c| !c.is_whitespace())
        .all(|p| hay.any(|h| h == p))
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
        assert_eq!(f.rank("pdf", "pdf"), Some(exact));
        assert_eq!(f.rank("xlsx", "pdf"), None);
    }

    #[test]
    fn the_cheap_test_passes_every_match() {
        assert!(may_match("Pdf-Tools", "pdft"));
        assert!(!may_match("docx", "dox x"));
        let f = NameFilter::new();
        for (name, pattern) in [
            ("pdf-tools", "ptl"),
            ("a b", "a b"),
            ("ÉTÉ", "été"),
            ("x", "X"),
        ] {
            if f.matcher.fuzzy_match(name, pattern).is_some() {
                assert!(may_match(name, pattern), "{name} {pattern}");
            }
        }
    }
}
