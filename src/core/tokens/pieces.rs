//! Counting a text piece by piece: tiktoken's split pattern run by the `regex` crate's DFA, and
//! each distinct piece encoded once by tiktoken-rs.
//!
//! tiktoken-rs runs its split pattern with `fancy-regex`, because the pattern's `\s+(?!\S)` looks
//! ahead; that backtracking search is most of the cost of counting. The same pattern without the
//! look-ahead is a plain regular expression, and the look-ahead's effect is one rule applied to
//! each match (see [`pieces`]), so the pieces come out exactly as tiktoken's. Each piece is then
//! counted by tiktoken-rs's own `encode_ordinary` (a piece split again by the pattern is the same
//! one piece), and the count is remembered per thread: prose repeats its words, so most pieces
//! are looked up, not encoded.

use super::encoding::Encoding;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::{Anchored, Input};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::sync::LazyLock;
use tiktoken_rs::CoreBPE;

/// o200k_base's split pattern (tiktoken's `O200K_BASE_PAT_STR`) with its last two alternatives,
/// `\s+(?!\S)|\s+`, written `\s+`; [`pieces`] applies the look-ahead.
const O200K: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"|\s*[\r\n]+",
    r"|\s+",
);

/// cl100k_base's split pattern as tiktoken writes it,
/// `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s`,
/// with the possessive quantifiers plain (none of them can give anything back that the next part
/// could take, so they match the same) and `\s+(?!\S)|\s` written `\s+`; [`pieces`] applies the
/// look-ahead.
const CL100K: &str = concat!(
    r"'(?i:[sdmt]|ll|ve|re)",
    r"|[^\r\n\p{L}\p{N}]?\p{L}+",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*",
    r"|\s+$",
    r"|\s*[\r\n]",
    r"|\s+",
);

/// The lazy DFA's cache per thread. The patterns' Unicode classes make many states; with the
/// default 2 MB the cache is rebuilt over and over on real text.
const DFA_CACHE: usize = 2 << 20;

/// The pattern as a forward lazy DFA: searches are anchored where the last piece ended, so the
/// end of the leftmost-first match is all that is needed.
fn pattern(enc: Encoding) -> &'static DFA {
    static PATTERNS: LazyLock<[DFA; 2]> = LazyLock::new(|| {
        [O200K, CL100K].map(|p| {
            // Both are fixed, tested patterns: they compile.
            #[allow(clippy::expect_used)]
            DFA::builder()
                .configure(DFA::config().cache_capacity(DFA_CACHE))
                .build(p)
                .expect("a valid split pattern")
        })
    });
    &PATTERNS[enc.slot()]
}

/// The pieces tiktoken's split pattern cuts `text` into, in order, searched with `cache` (the
/// pattern's own, from [`DFA::create_cache`]). `Err` holds where the lazy DFA gave up (it does not
/// with its default configuration, but the search can say so).
///
/// A whitespace run without a line break, followed by more text, is one match of `\s+` here;
/// tiktoken's `\s+(?!\S)` takes all of it but its last character instead (which then starts the
/// next piece), and a lone whitespace character stays whole (`\s+`, or cl100k_base's `\s`). A run
/// that holds a line break is matched by the line-break alternatives before it, and one at the
/// end of the text has nothing after it to look at.
fn pieces<'t, 'c>(
    enc: Encoding,
    cache: &'c mut Cache,
    text: &'t str,
) -> impl Iterator<Item = Result<&'t str, usize>> + use<'t, 'c> {
    let dfa = pattern(enc);
    let mut pos = 0;
    std::iter::from_fn(move || {
        loop {
            if pos >= text.len() {
                return None;
            }
            let input = Input::new(text).range(pos..).anchored(Anchored::Yes);
            let end = match dfa.try_search_fwd(cache, &input) {
                Ok(Some(m)) => m.offset(),
                Ok(None) => {
                    // No match starts here (every character starts one in both patterns, so this
                    // does not happen): tiktoken's search skips the character, and so does this.
                    pos += text[pos..].chars().next().map_or(1, char::len_utf8);
                    continue;
                }
                Err(_) => {
                    let start = pos;
                    pos = text.len();
                    return Some(Err(start));
                }
            };
            let start = pos;
            let piece = &text[start..end];
            let mut end = end;
            if end < text.len()
                && !piece.contains(['\r', '\n'])
                && piece.chars().all(char::is_whitespace)
                && let Some((last, _)) = piece.char_indices().next_back().filter(|&(i, _)| i > 0)
            {
                end = start + last;
            }
            pos = end;
            return Some(Ok(&text[start..end]));
        }
    })
}

/// Pieces up to this many bytes are remembered by value, packed in two words with their length.
const SHORT: usize = 15;
/// Longer pieces are remembered by their text, this many bytes of it at most per thread. They are
/// few (rules, tables, runs of spaces, long identifiers) but tiktoken's merge costs time
/// quadratic in a piece's length, and they repeat across files.
const LONG_BYTES: usize = 1 << 20;
/// A thread remembers at most this many pieces (about 3 MB); the first seen, which in prose are
/// the most frequent, stay. On the corpus (82 MB of text, 18 million pieces, 283,000 distinct)
/// nearly every piece is then looked up rather than encoded.
const MEMO_ENTRIES: usize = 100_000;

fn short_key(piece: &str) -> Option<[u64; 2]> {
    let b = piece.as_bytes();
    if b.len() > SHORT {
        return None;
    }
    let mut k = [0u8; 16];
    k[..b.len()].copy_from_slice(b);
    k[15] = b.len() as u8;
    let (lo, hi) = k.split_at(8);
    Some([lo, hi].map(|h| {
        let mut w = [0u8; 8];
        w.copy_from_slice(h);
        u64::from_le_bytes(w)
    }))
}

/// What a counting thread keeps per encoding: the split pattern's search cache and the counts of
/// the pieces seen.
#[derive(Default)]
struct Scratch {
    cache: Option<Cache>,
    short: FxHashMap<[u64; 2], u32>,
    long: FxHashMap<Box<str>, u32>,
    long_bytes: usize,
}

impl Scratch {
    fn count(&mut self, bpe: &CoreBPE, piece: &str) -> usize {
        let full = self.short.len() + self.long.len() >= MEMO_ENTRIES;
        let encode = |p: &str| u32::try_from(bpe.encode_ordinary(p).len()).unwrap_or(u32::MAX);
        let k = if let Some(key) = short_key(piece) {
            if let Some(&k) = self.short.get(&key) {
                k
            } else {
                let k = encode(piece);
                if !full {
                    self.short.insert(key, k);
                }
                k
            }
        } else {
            if let Some(&k) = self.long.get(piece) {
                k
            } else {
                let k = encode(piece);
                if !full && self.long_bytes + piece.len() <= LONG_BYTES {
                    self.long_bytes += piece.len();
                    self.long.insert(piece.into(), k);
                }
                k
            }
        };
        k as usize
    }
}

thread_local! {
    static SCRATCH: RefCell<[Scratch; 2]> = RefCell::default();
}

/// The number of tokens tiktoken-rs's `encode_ordinary` gives `text`, counted piece by piece.
pub(super) fn count(enc: Encoding, bpe: &CoreBPE, text: &str) -> usize {
    SCRATCH.with_borrow_mut(|scratch| {
        let scratch = &mut scratch[enc.slot()];
        let mut cache = scratch
            .cache
            .take()
            .unwrap_or_else(|| pattern(enc).create_cache());
        let mut n = 0;
        for piece in pieces(enc, &mut cache, text) {
            match piece {
                Ok(piece) => n += scratch.count(bpe, piece),
                // The rest of the text goes to tiktoken-rs whole.
                Err(at) => n += bpe.encode_ordinary(&text[at..]).len(),
            }
        }
        scratch.cache = Some(cache);
        n
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tiktoken-rs's own pieces, through its public splitter.
    fn reference_count(enc: Encoding, text: &str) -> usize {
        enc.bpe().encode_ordinary(text).len()
    }

    fn split(enc: Encoding, text: &str) -> Vec<String> {
        let mut cache = pattern(enc).create_cache();
        pieces(enc, &mut cache, text)
            .map(|p| p.map(str::to_string))
            .collect::<Result<_, _>>()
            .unwrap_or_default()
    }

    fn joined(enc: Encoding, text: &str) -> String {
        split(enc, text).concat()
    }

    #[test]
    fn whitespace_before_text_gives_its_last_character_to_the_next_piece() {
        let got = split(Encoding::O200kBase, "a   b \tc\n  d  ");
        assert_eq!(got, ["a", "  ", " b", " ", "\tc", "\n", " ", " d", "  "]);
        let got = split(Encoding::Cl100kBase, "x  y\u{a0}\u{3000}z");
        assert_eq!(got, ["x", " ", " y", "\u{a0}", "\u{3000}z"]);
    }

    #[test]
    fn the_pieces_are_the_whole_text() {
        for enc in Encoding::ALL {
            let text = "It's 2024: über-fast\r\n\r\n  code()  {x}\t\n// done ";
            assert_eq!(joined(enc, text), text);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Text of the characters every alternative of both patterns turns on (letters of each
        /// case class, marks, digits of several scripts, apostrophes and contractions in both
        /// cases, Unicode whitespace, line breaks, slashes, punctuation): the count piece by
        /// piece is tiktoken-rs's count of the whole.
        #[test]
        fn counts_equal_tiktoken_rs_on_adversarial_text(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "a", "Z", "st", "HTTP", "Dž", "ʰ", "中", "é", "e\u{301}", "\u{301}", "ſ", "K",
                "1", "12345", "٣", "Ⅻ", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{b}", "\u{c}",
                "\u{85}", "\u{a0}", "\u{2028}", "\u{3000}", "'", "'s", "'S", "'ll", "'LL", "'ve",
                "'d", "'t", "'m", "'re", "’", ".", "/", "=", "-", "{", "\"", "🎉", "\u{0}",
            ]), 0..80),
        ) {
            let text = parts.concat();
            for enc in Encoding::ALL {
                proptest::prop_assert_eq!(joined(enc, &text), text.clone());
                proptest::prop_assert_eq!(
                    count(enc, enc.bpe(), &text),
                    reference_count(enc, &text),
                    "{} on {:?}", enc, text
                );
            }
        }
    }
}
