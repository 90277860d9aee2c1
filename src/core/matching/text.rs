//! Words of a message or a skill field: splitting with byte ranges, stop-words, light stemming
//! and the synonym table the matchers share.

use std::collections::HashMap;
use std::ops::Range;

/// One word of a text: lowercased, with where it sits in the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The word, lowercased.
    pub text: String,
    /// Its byte range in the original text.
    pub span: Range<usize>,
}

/// Splits text into words: runs of letters and digits (any script), with `'` inside a word kept
/// out (so "user's" gives "user" and "s"). Words are lowercased; spans are byte ranges of `text`.
pub fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    each_word(text, &mut String::new(), |w, span| {
        out.push(Word {
            text: w.to_string(),
            span,
        });
    });
    out
}

/// Calls `f` with each word of `text`, lowercased, and its byte range, without allocating per
/// word: the splitting of [`words`].
pub fn each_word(text: &str, buf: &mut String, mut f: impl FnMut(&str, Range<usize>)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            if !b.is_ascii_alphanumeric() {
                i += 1;
                continue;
            }
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            if !c.is_alphanumeric() {
                i += c.len_utf8();
                continue;
            }
        }
        let start = i;
        buf.clear();
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii() {
                if !b.is_ascii_alphanumeric() {
                    break;
                }
                buf.push(b.to_ascii_lowercase() as char);
                i += 1;
            } else {
                let c = text[i..].chars().next().unwrap_or(' ');
                if !c.is_alphanumeric() {
                    break;
                }
                buf.extend(c.to_lowercase());
                i += c.len_utf8();
            }
        }
        f(buf, start..i);
    }
}

/// Groups items by key in first-seen order, each key with every span it came with. Messages can
/// be pasted documents, so the grouping is hashed rather than a scan per word.
pub fn group_spans(
    items: impl IntoIterator<Item = (String, Range<usize>)>,
) -> Vec<(String, Vec<Range<usize>>)> {
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut out: Vec<(String, Vec<Range<usize>>)> = Vec::new();
    for (key, span) in items {
        if let Some(&i) = at.get(&key) {
            out[i].1.push(span);
        } else {
            at.insert(key.clone(), out.len());
            out.push((key, vec![span]));
        }
    }
    out
}

/// Words that say nothing about what a message is for. Besides common English, the boilerplate
/// of skill descriptions ("Use when the user asks…") is here: nearly every description has it,
/// so it would tie every skill to every message.
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
    "are", "as", "ask", "asked", "asking", "asks", "at", "be", "because", "been", "before",
    "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing",
    "done", "down", "during", "e", "each", "eg", "etc", "few", "for", "from", "further", "g",
    "get", "gets", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his",
    "how", "i", "ie", "if", "in", "into", "is", "it", "its", "itself", "just", "let", "lets",
    "like", "me", "might", "more", "most", "must", "my", "need", "needs", "no", "nor", "not",
    "now", "of", "off", "on", "once", "one", "only", "or", "other", "our", "ours", "out", "over",
    "own", "please", "s", "same", "say", "says", "she", "should", "so", "some", "such", "t",
    "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this",
    "those", "through", "to", "too", "under", "until", "up", "us", "use", "used", "uses", "using",
    "very", "via", "want", "wants", "was", "we", "were", "what", "when", "whenever", "where",
    "which", "while", "who", "whom", "why", "will", "with", "within", "without", "would", "you",
    "your", "yours", "yourself",
];

/// Whether `w` is too common to say anything about a skill.
pub fn is_stop_word(w: &str) -> bool {
    STOP_WORDS.binary_search(&w).is_ok()
}

/// Whether a word is worth matching on: not a stop-word, not a bare number.
pub fn is_content_word(w: &str) -> bool {
    !is_stop_word(w) && !w.bytes().all(|b| b.is_ascii_digit())
}

/// A light suffix-stripping stemmer for English: plurals, `-ing`, `-ed`, the agent noun `-er`
/// and a final `e`, so that "tests", "testing" and "tested" meet, "create", "creates" and
/// "created" do, and so do "scraper", "scrape" and "scraping" (the Lazy Skills design's worked
/// example, design 000). Anything that is not plain ASCII is left alone.
///
/// Snowball's English stemmer is not used: it strips `-er` only far into a word (its R2
/// region), so "scraper" stays "scraper" there and never meets "scrape".
pub fn stem(w: &str) -> String {
    if w.len() <= 3 || !w.bytes().all(|b| b.is_ascii_lowercase()) {
        return w.to_string();
    }
    let mut s = w;
    let owned;
    if let Some(b) = s.strip_suffix("ies").filter(|b| b.len() >= 2) {
        owned = format!("{b}y");
        s = &owned;
    } else if let Some(b) = s.strip_suffix("sses") {
        owned = format!("{b}ss");
        s = &owned;
    } else if s.ends_with('s') && !s.ends_with("ss") && !s.ends_with("us") && !s.ends_with("is") {
        s = &s[..s.len() - 1];
    }
    let mut out = s.to_string();
    for suffix in ["ing", "ed"] {
        if let Some(b) = out.strip_suffix(suffix)
            && b.len() >= 3
            && b.bytes().any(is_vowel)
        {
            let mut b = b.to_string();
            let bytes = b.as_bytes();
            let n = bytes.len();
            if n >= 2 && bytes[n - 1] == bytes[n - 2] && !matches!(bytes[n - 1], b'l' | b's' | b'z')
            {
                b.pop();
            }
            out = b;
            break;
        }
    }
    strip_agent_noun(&mut out);
    if out.len() > 3 && out.ends_with('e') {
        out.pop();
    }
    out
}

/// Nouns ending in `-er` that name a thing, not the one doing a verb: stripping them would join
/// "container" with "contains", "folder" with "fold", "order" with "ord…".
const KEEP_ER: &[&str] = &[
    "answer",
    "border",
    "buffer",
    "chapter",
    "character",
    "cluster",
    "computer",
    "container",
    "corner",
    "filter",
    "folder",
    "footer",
    "header",
    "letter",
    "master",
    "member",
    "number",
    "parameter",
    "poster",
    "register",
    "shader",
];

/// "scraper" → "scrap(e)", "formatter" → "format", "runner" → "run": an agent noun meets its
/// verb. Bases shorter than four letters ("user", "paper") and `-eer` words ("engineer", which
/// is not "engine") keep their ending.
fn strip_agent_noun(out: &mut String) {
    let Some(base) = out.strip_suffix("er") else {
        return;
    };
    if base.len() < 4
        || base.ends_with(['e', 'i'])
        || !base.bytes().any(is_vowel)
        || KEEP_ER.binary_search(&out.as_str()).is_ok()
    {
        return;
    }
    let bytes = base.as_bytes();
    let n = bytes.len();
    let double = bytes[n - 1] == bytes[n - 2] && !matches!(bytes[n - 1], b'l' | b's' | b'z');
    let keep = if double { n - 1 } else { n };
    out.truncate(keep);
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// Groups of words that mean the same thing for routing a message. Lookups go through [`stem`],
/// so "spreadsheets" finds the group of "spreadsheet".
const SYNONYMS: &[&[&str]] = &[
    &["pdf", "document"],
    &["docx", "document"],
    &["xlsx", "spreadsheet", "excel", "xls"],
    &["csv", "spreadsheet"],
    &["pptx", "powerpoint", "slide", "presentation", "deck"],
    &["test", "spec", "unittest"],
    &["repo", "repository"],
    &["k8s", "kubernetes"],
    &["js", "javascript"],
    &["ts", "typescript"],
    &["py", "python"],
    &["db", "database"],
    &["postgres", "postgresql"],
    &["image", "picture", "photo", "img"],
    &["doc", "docs", "documentation"],
    &["email", "mail"],
    &["ui", "frontend", "interface"],
    &["bug", "debug", "error"],
    &["deploy", "deployment", "release"],
    &["chart", "graph", "plot", "visualization"],
    &["diagram", "flowchart"],
    &["auth", "authentication", "login", "oauth"],
    &["vuln", "vulnerability", "cve"],
    &["llm", "gpt", "ai"],
    &["pr", "review"],
    &["perf", "performance", "latency"],
    &["cli", "terminal", "command"],
];

/// The synonym table in stemmed form: each stem to the stems it may stand for.
#[derive(Debug, Clone, Default)]
pub struct Synonyms {
    map: HashMap<String, Vec<String>>,
}

impl Synonyms {
    /// A stemmer with nothing remembered yet.
    pub fn new() -> Self {
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        for group in SYNONYMS {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            for a in &stems {
                let entry = map.entry(a.clone()).or_default();
                for b in &stems {
                    if a != b && !entry.contains(b) {
                        entry.push(b.clone());
                    }
                }
            }
        }
        Synonyms { map }
    }

    /// The other stems that a stem may stand for (empty when it has no synonyms).
    pub fn of(&self, stem: &str) -> &[String] {
        self.map.get(stem).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_stop_word("the") && is_stop_word("use") && !is_stop_word("pdf"));
    }

    #[test]
    fn words_keep_byte_ranges_of_the_original() {
        let msg = "Fill the PDF-form, café; «Ünïcode» x2";
        let w = words(msg);
        let texts: Vec<&str> = w.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(
            texts,
            ["fill", "the", "pdf", "form", "café", "ünïcode", "x2"]
        );
        for w in &w {
            assert_eq!(msg[w.span.clone()].to_lowercase(), w.text);
        }
    }

    #[test]
    fn stemming_joins_inflections() {
        for (a, b) in [
            ("tests", "testing"),
            ("tested", "test"),
            ("create", "created"),
            ("creates", "creating"),
            ("libraries", "library"),
            ("running", "run"),
            ("spreadsheets", "spreadsheet"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        assert_eq!(stem("status"), "status");
    }

    #[test]
    fn agent_nouns_meet_their_verbs() {
        for group in [
            &["scraper", "scrape", "scraping", "scrapers", "scraped"][..],
            &["greetings", "greeting", "greet", "greeted"],
            &["formatter", "format", "formatting"],
            &["runner", "run", "running"],
            &["reviewer", "review", "reviews"],
            &["writer", "write", "writing"],
        ] {
            for w in group {
                assert_eq!(stem(w), stem(group[0]), "{w} / {}", group[0]);
            }
        }
    }

    #[test]
    fn things_ending_in_er_keep_their_ending() {
        for (a, b) in [
            ("container", "contains"),
            ("folder", "fold"),
            ("engineer", "engine"),
            ("user", "us"),
            ("paper", "pap"),
            ("number", "numb"),
        ] {
            assert_ne!(stem(a), stem(b), "{a} / {b}");
        }
        assert!(KEEP_ER.windows(2).all(|w| w[0] < w[1]), "sorted");
        assert!(KEEP_ER.iter().all(|w| w.ends_with("er")));
        assert_eq!(stem("analysis"), "analysis");
        assert_eq!(stem("pdf"), "pdf");
        assert_eq!(stem("façades"), "façades");
    }

    #[test]
    fn synonyms_are_symmetric_and_stemmed() {
        let s = Synonyms::new();
        assert!(s.of(&stem("excel")).contains(&stem("spreadsheet")));
        assert!(s.of(&stem("spreadsheet")).contains(&stem("xlsx")));
        assert!(s.of(&stem("spreadsheet")).contains(&stem("csv")));
        assert!(s.of("zebra").is_empty());
    }
}
