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
            let fast = match enc {
                Encoding::O200kBase => ascii::o200k_end(text.as_bytes(), pos),
                Encoding::Cl100kBase => None,
            };
            let input = Input::new(text).range(pos..).anchored(Anchored::Yes);
            let end = match fast.map_or_else(
                || {
                    dfa.try_search_fwd(cache, &input)
                        .map(|m| m.map(|m| m.offset()))
                },
                |e| Ok(Some(e)),
            ) {
                Ok(Some(m)) => m,
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
            // White space first: most pieces are words, whose first character ends the test.
            if end < text.len()
                && piece.chars().all(char::is_whitespace)
                && !piece.contains(['\r', '\n'])
                && let Some((last, _)) = piece.char_indices().next_back().filter(|&(i, _)| i > 0)
            {
                end = start + last;
            }
            pos = end;
            return Some(Ok(&text[start..end]));
        }
    })
}

/// o200k_base's pieces where the text is ASCII, found without the DFA: the same end as the
/// pattern's leftmost-first match, or `None` where a byte that decides it is not ASCII (a
/// letter, mark, digit or space of another script could change the match; the DFA decides).
mod ascii {
    const HIGH: u8 = 0;
    const LOWER: u8 = 1;
    const UPPER: u8 = 2;
    const DIGIT: u8 = 3;
    /// `\r` and `\n`.
    const NEWLINE: u8 = 4;
    /// The rest of `\s` in ASCII: space, tab, vertical tab, form feed.
    const SPACE: u8 = 5;
    /// Neither a letter, a digit nor `\s`: punctuation, symbols, control characters.
    const OTHER: u8 = 6;

    const CLASS: [u8; 256] = {
        let mut t = [HIGH; 256];
        let mut i = 0;
        while i < 128 {
            let b = i as u8;
            t[i] = match b {
                b'a'..=b'z' => LOWER,
                b'A'..=b'Z' => UPPER,
                b'0'..=b'9' => DIGIT,
                b'\r' | b'\n' => NEWLINE,
                b' ' | b'\t' | 0x0b | 0x0c => SPACE,
                _ => OTHER,
            };
            i += 1;
        }
        t
    };

    fn class(b: &[u8], i: usize) -> Option<u8> {
        b.get(i).map(|&x| CLASS[x as usize])
    }

    /// The end of the piece that starts at `pos` (a character boundary inside `b`).
    ///
    /// The alternatives in order: an optional character that is no letter, digit or line break,
    /// then upper-case letters and lower-case ones (at least one of either, lower-case after),
    /// then a contraction; one to three digits; an optional space, then punctuation and the line
    /// breaks and slashes after it; white space up to its last line break; white space.
    pub(super) fn o200k_end(b: &[u8], pos: usize) -> Option<usize> {
        let c0 = class(b, pos)?;
        match c0 {
            LOWER | UPPER => letters(b, pos),
            DIGIT => {
                let mut i = pos + 1;
                while i < pos + 3 && class(b, i) == Some(DIGIT) {
                    i += 1;
                }
                // Another script's digit would be taken too.
                (i == pos + 3 || class(b, i) != Some(HIGH)).then_some(i)
            }
            SPACE | OTHER => {
                match class(b, pos + 1) {
                    Some(HIGH) => return None,
                    Some(LOWER | UPPER) => return letters(b, pos + 1),
                    _ => {}
                }
                let start = if b[pos] == b' ' { pos + 1 } else { pos };
                if class(b, start) == Some(OTHER) {
                    let mut i = start + 1;
                    while class(b, i) == Some(OTHER) {
                        i += 1;
                    }
                    if class(b, i) == Some(HIGH) {
                        return None;
                    }
                    while matches!(b.get(i), Some(b'\r' | b'\n' | b'/')) {
                        i += 1;
                    }
                    return Some(i);
                }
                space(b, pos)
            }
            NEWLINE => space(b, pos),
            _ => None,
        }
    }

    /// Letters from `start` (a letter): upper-case ones, then lower-case ones, then a
    /// contraction.
    fn letters(b: &[u8], start: usize) -> Option<usize> {
        let mut i = start;
        while class(b, i) == Some(UPPER) {
            i += 1;
        }
        while class(b, i) == Some(LOWER) {
            i += 1;
        }
        if class(b, i) == Some(HIGH) {
            return None;
        }
        if b.get(i) != Some(&b'\'') {
            return Some(i);
        }
        let next = |k: usize| b.get(i + k).map(u8::to_ascii_lowercase);
        if class(b, i + 1) == Some(HIGH) || class(b, i + 2) == Some(HIGH) {
            // `ſ` is an `s` to a case-insensitive match.
            return None;
        }
        Some(match (next(1), next(2)) {
            (Some(b's' | b't' | b'm' | b'd'), _) => i + 2,
            (Some(b'r' | b'v'), Some(b'e')) | (Some(b'l'), Some(b'l')) => i + 3,
            _ => i,
        })
    }

    /// White space from `pos`: up to and including its last line break, else all of it.
    fn space(b: &[u8], pos: usize) -> Option<usize> {
        let mut i = pos;
        let mut last_break = None;
        loop {
            match class(b, i) {
                Some(NEWLINE) => last_break = Some(i),
                Some(SPACE) => {}
                // Another script's white space would be taken too.
                Some(HIGH) => return None,
                _ => break,
            }
            i += 1;
        }
        Some(last_break.map_or(i, |j| j + 1))
    }
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

fn short_key(piece: &str) -> Option<u128> {
    let b = piece.as_bytes();
    let mut k = [0u8; 16];
    k.get_mut(..b.len())?.copy_from_slice(b);
    if b.len() > SHORT {
        return None;
    }
    k[15] = b.len() as u8;
    Some(u128::from_le_bytes(k))
}

/// What a counting thread keeps per encoding: the split pattern's search cache and the counts of
/// the pieces seen.
#[derive(Default)]
struct Scratch {
    cache: Option<Cache>,
    short: FxHashMap<u128, u32>,
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

    /// The end of the DFA's anchored match at `pos`.
    fn dfa_end(enc: Encoding, text: &str, pos: usize) -> Option<usize> {
        let dfa = pattern(enc);
        let mut cache = dfa.create_cache();
        let input = Input::new(text).range(pos..).anchored(Anchored::Yes);
        dfa.try_search_fwd(&mut cache, &input)
            .ok()
            .flatten()
            .map(|m| m.offset())
    }

    #[test]
    fn the_ascii_splitter_ends_pieces_where_the_pattern_does() {
        let text = "It's HTTPServer's 12345 x'LL o'clock ...\n\n  //a/\n/b \t\x0b\r\n\
                    \x00\x7f (a) AB'Re don'T ' x' end. ";
        let mut pieces = 0;
        for pos in 0..text.len() {
            let fast = ascii::o200k_end(text.as_bytes(), pos);
            assert!(fast.is_some(), "ASCII text at {pos} went to the DFA");
            assert_eq!(fast, dfa_end(Encoding::O200kBase, text, pos), "at {pos}");
            pieces += 1;
        }
        assert_eq!(pieces, text.len());
        // Where a letter, digit or space of another script decides, the DFA does.
        for (text, pos) in [
            ("aé", 0),
            ("Aé", 0),
            ("1٣", 0),
            (" \u{a0}", 0),
            (".—", 0),
            (" é", 0),
            ("it'ſ", 0),
        ] {
            assert_eq!(ascii::o200k_end(text.as_bytes(), pos), None, "{text:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// At every character boundary of text mostly ASCII, the splitter ends the piece where
        /// the pattern's match ends, or leaves it to the DFA.
        #[test]
        fn the_ascii_splitter_agrees_with_the_dfa(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "a", "b", "Z", "Q", "st", "HTTP", "Ab", "aB", "1", "12", "1234", " ", "  ", "\t",
                "\n", "\r", "\r\n", "\u{b}", "\u{c}", "'", "'s", "'S", "'ll", "'LL", "'Re", "'ve",
                "'d", "'t", "'m", "'x", ".", "/", "//", "=", "-", "{", "\"", "\u{0}", "\u{1f}",
                "\u{7f}", "é", "\u{301}", "٣", "\u{a0}", "\u{85}", "ſ", "—", "🎉", "中",
            ]), 0..60),
        ) {
            let text = parts.concat();
            for pos in (0..text.len()).filter(|&p| text.is_char_boundary(p)) {
                if let Some(end) = ascii::o200k_end(text.as_bytes(), pos) {
                    proptest::prop_assert_eq!(
                        Some(end),
                        dfa_end(Encoding::O200kBase, &text, pos),
                        "at {} of {:?}", pos, text
                    );
                }
            }
        }

        /// The same texts, counted: piece by piece equals tiktoken-rs's count of the whole.
        #[test]
        fn counts_of_mostly_ascii_text_equal_tiktoken_rs(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "a", "Z", "st", "HTTP", "Ab", "1", "1234", " ", "  ", "\t", "\n", "\r\n", "'s",
                "'LL", "'Re", "'x", ".", "/", "=", "\u{0}", "é", "\u{a0}", "ſ", "—", "中",
            ]), 0..60),
        ) {
            let text = parts.concat();
            let enc = Encoding::O200kBase;
            proptest::prop_assert_eq!(count(enc, enc.bpe(), &text), reference_count(enc, &text));
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
