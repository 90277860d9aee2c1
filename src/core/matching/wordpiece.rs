//! The sentence model's tokenizer: BERT's uncased WordPiece, as its `tokenizer.json` declares it
//! (Hugging Face's `BertNormalizer`, `BertPreTokenizer`, `WordPiece` model and `[CLS] … [SEP]`
//! template), giving the same ids as the `tokenizers` library for that file
//! (tests/fixtures/semantic/wordpiece.json holds that library's ids for texts chosen to reach
//! every step).
//!
//! The steps, in order:
//! 1. the special tokens (`[CLS]`, `[MASK]`, …) written in the text are taken out as they are;
//! 2. the rest is normalised: characters that are controls (Unicode's "other" categories as
//!    `unicode_categories` has them, unassigned ones included), U+0000 and U+FFFD dropped,
//!    whitespace made a space, CJK ideographs spaced apart, accents stripped (NFD, then no
//!    nonspacing marks), each character lower-cased on its own;
//! 3. split into words at whitespace, each punctuation character a word of its own;
//! 4. each word split greedily into the longest vocabulary pieces from its start (`##` before
//!    every piece but the first); a word with no such split, or over
//!    [`max_input_chars_per_word`](WordPiece) characters, is one `[UNK]`;
//! 5. cut to the length asked for, `[CLS]` and `[SEP]` around it.

use aho_corasick::{AhoCorasick, MatchKind};
use rustc_hash::FxHashMap;
use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

/// Why a `tokenizer.json` is not read.
#[derive(Debug, thiserror::Error)]
pub enum TokenizerError {
    #[error("the tokenizer is not JSON of the expected shape: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the tokenizer is not BERT's uncased WordPiece")]
    NotUncasedBert,
    #[error("the added token {0:?} is matched otherwise")]
    AddedToken(String),
    #[error("{0} is not in the vocabulary")]
    NotInVocabulary(String),
    #[error("the special tokens cannot be searched for: {0}")]
    Specials(#[from] aho_corasick::BuildError),
}

/// A WordPiece tokenizer read from a `tokenizer.json`.
pub struct WordPiece {
    vocab: FxHashMap<String, u32>,
    prefix: String,
    max_chars: usize,
    unk: u32,
    cls: u32,
    sep: u32,
    /// The special tokens, found in the raw text before anything else.
    specials: AhoCorasick,
    special_ids: Vec<u32>,
}

impl std::fmt::Debug for WordPiece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WordPiece")
            .field("vocab", &self.vocab.len())
            .finish_non_exhaustive()
    }
}

#[derive(serde::Deserialize)]
struct File {
    normalizer: Option<Step>,
    pre_tokenizer: Option<Step>,
    model: Model,
    #[serde(default)]
    added_tokens: Vec<Added>,
}

#[derive(serde::Deserialize)]
struct Step {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    clean_text: Option<bool>,
    #[serde(default)]
    handle_chinese_chars: Option<bool>,
    #[serde(default)]
    strip_accents: Option<bool>,
    #[serde(default)]
    lowercase: Option<bool>,
}

#[derive(serde::Deserialize)]
struct Model {
    #[serde(rename = "type")]
    kind: String,
    unk_token: String,
    continuing_subword_prefix: String,
    max_input_chars_per_word: usize,
    vocab: FxHashMap<String, u32>,
}

#[derive(serde::Deserialize)]
struct Added {
    id: u32,
    content: String,
    #[serde(default)]
    normalized: bool,
    #[serde(default)]
    single_word: bool,
    #[serde(default)]
    lstrip: bool,
    #[serde(default)]
    rstrip: bool,
}

impl WordPiece {
    /// Reads a `tokenizer.json`; one that declares any other pipeline than BERT's uncased one
    /// is refused rather than tokenized otherwise than its library would.
    pub fn from_json(bytes: &[u8]) -> Result<WordPiece, TokenizerError> {
        let file: File = serde_json::from_slice(bytes)?;
        let uncased_bert = file.normalizer.as_ref().is_some_and(|n| {
            n.kind == "BertNormalizer"
                && n.clean_text == Some(true)
                && n.handle_chinese_chars == Some(true)
                && n.strip_accents.is_none()
                && n.lowercase == Some(true)
        }) && file
            .pre_tokenizer
            .as_ref()
            .is_some_and(|p| p.kind == "BertPreTokenizer")
            && file.model.kind == "WordPiece";
        if !uncased_bert {
            return Err(TokenizerError::NotUncasedBert);
        }
        if let Some(a) = file
            .added_tokens
            .iter()
            .find(|a| a.normalized || a.single_word || a.lstrip || a.rstrip)
        {
            return Err(TokenizerError::AddedToken(a.content.clone()));
        }
        let vocab = file.model.vocab;
        let id = |token: &str| {
            vocab
                .get(token)
                .copied()
                .ok_or_else(|| TokenizerError::NotInVocabulary(token.to_string()))
        };
        let (unk, cls, sep) = (id(&file.model.unk_token)?, id("[CLS]")?, id("[SEP]")?);
        let specials = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(file.added_tokens.iter().map(|a| a.content.as_str()))?;
        Ok(WordPiece {
            special_ids: file.added_tokens.iter().map(|a| a.id).collect(),
            vocab,
            prefix: file.model.continuing_subword_prefix,
            max_chars: file.model.max_input_chars_per_word,
            unk,
            cls,
            sep,
            specials,
        })
    }

    /// The ids of a text: `[CLS]`, its first `max_len - 2` tokens, `[SEP]`.
    pub fn encode(&self, text: &str, max_len: usize) -> Vec<u32> {
        let room = max_len.saturating_sub(2);
        let mut ids = vec![self.cls];
        let mut piece = String::new();
        let mut plain = |part: &str, ids: &mut Vec<u32>| {
            if ids.len() <= room {
                for_each_word(&normalize(part), |word| {
                    if ids.len() > room {
                        return false;
                    }
                    self.pieces(word, &mut piece, ids);
                    true
                });
            }
        };
        let mut at = 0;
        for m in self.specials.find_iter(text) {
            plain(&text[at..m.start()], &mut ids);
            ids.push(self.special_ids[m.pattern().as_usize()]);
            at = m.end();
        }
        plain(&text[at..], &mut ids);
        ids.truncate(room + 1);
        ids.push(self.sep);
        ids
    }

    /// The vocabulary pieces of one word, pushed onto `ids` (`piece` is scratch space).
    fn pieces(&self, word: &str, piece: &mut String, ids: &mut Vec<u32>) {
        if word.chars().count() > self.max_chars {
            ids.push(self.unk);
            return;
        }
        let first = ids.len();
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while start < end {
                piece.clear();
                if start > 0 {
                    piece.push_str(&self.prefix);
                }
                piece.push_str(&word[start..end]);
                if let Some(&id) = self.vocab.get(piece.as_str()) {
                    found = Some(id);
                    break;
                }
                end -= word[start..end]
                    .chars()
                    .next_back()
                    .map_or(1, char::len_utf8);
            }
            let Some(id) = found else {
                ids.truncate(first);
                ids.push(self.unk);
                return;
            };
            ids.push(id);
            start = end;
        }
    }
}

/// BERT's whitespace: tab, newline and carriage return, and Unicode's.
fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// BERT's controls: Unicode's "other" categories, but not tab, newline and carriage return.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// The CJK ideograph blocks BERT spaces apart.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x2_0000..=0x2_A6DF
        | 0x2_A700..=0x2_B73F
        | 0x2_B740..=0x2_B81F
        | 0x2_B920..=0x2_CEAF
        | 0xF900..=0xFAFF
        | 0x2_F800..=0x2_FA1F)
}

/// BERT's punctuation: ASCII's and Unicode's.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The text cleaned, CJK spaced, accents stripped and lower-cased, in that order.
fn normalize(text: &str) -> String {
    let mut spaced = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{FFFD}' || is_control(c) {
            continue;
        }
        if is_whitespace(c) {
            spaced.push(' ');
        } else if is_cjk(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    let mut out = String::with_capacity(spaced.len());
    for c in spaced.nfd().filter(|c| !c.is_mark_nonspacing()) {
        out.extend(c.to_lowercase());
    }
    out
}

/// Calls `f` with each word of a normalised text (split at whitespace, each punctuation
/// character a word of its own) until it returns `false`.
fn for_each_word(text: &str, mut f: impl FnMut(&str) -> bool) {
    for chunk in text.split(char::is_whitespace) {
        let mut start = 0;
        for (i, c) in chunk.char_indices() {
            if is_punctuation(c) {
                let end = i + c.len_utf8();
                if (i > start && !f(&chunk[start..i])) || !f(&chunk[i..end]) {
                    return;
                }
                start = end;
            }
        }
        if start < chunk.len() && !f(&chunk[start..]) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file() -> serde_json::Value {
        serde_json::from_slice(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/model/tokenizer.json"
        )))
        .unwrap()
    }

    /// A `tokenizer.json` this file does not tokenize as its library would is refused.
    #[test]
    fn another_pipeline_is_refused() {
        let refused = |edit: &dyn Fn(&mut serde_json::Value)| {
            let mut f = file();
            edit(&mut f);
            WordPiece::from_json(&serde_json::to_vec(&f).unwrap()).unwrap_err()
        };
        let said = |e: &TokenizerError| e.to_string();
        assert!(WordPiece::from_json(&serde_json::to_vec(&file()).unwrap()).is_ok());
        let cased = refused(&|f| f["normalizer"]["lowercase"] = false.into());
        assert!(matches!(cased, TokenizerError::NotUncasedBert), "{cased}");
        assert!(said(&cased).contains("uncased WordPiece"), "{cased}");
        let bpe = refused(&|f| f["model"]["type"] = "BPE".into());
        assert!(matches!(bpe, TokenizerError::NotUncasedBert), "{bpe}");
        let lstrip = refused(&|f| f["added_tokens"][2]["lstrip"] = true.into());
        assert!(matches!(lstrip, TokenizerError::AddedToken(_)), "{lstrip}");
        assert!(said(&lstrip).contains("[CLS]"), "{lstrip}");
        let no_unk = refused(&|f| f["model"]["unk_token"] = "[NOT-THERE]".into());
        assert!(
            matches!(&no_unk, TokenizerError::NotInVocabulary(t) if t == "[NOT-THERE]"),
            "{no_unk}"
        );
        let garbage = WordPiece::from_json(b"{not json").unwrap_err();
        assert!(matches!(garbage, TokenizerError::Json(_)), "{garbage}");
    }

    #[test]
    fn words_split_at_whitespace_and_around_each_punctuation_mark() {
        let mut seen = Vec::new();
        for_each_word(" don't  stop...now! ", |w| {
            seen.push(w.to_string());
            true
        });
        assert_eq!(seen, ["don", "'", "t", "stop", ".", ".", ".", "now", "!"]);
        let mut first_two = Vec::new();
        for_each_word("a b c", |w| {
            first_two.push(w.to_string());
            first_two.len() < 2
        });
        assert_eq!(first_two, ["a", "b"]);
    }
}
