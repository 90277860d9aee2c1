//! Counting a text in segments cut where tiktoken's split pattern cuts too, on every core.

use super::encoding::Encoding;
use super::pieces;
use rayon::prelude::*;

/// Texts up to this many bytes go to the encoder whole; longer ones are cut into segments of
/// about this size (see [`segments`]), counted on every core.
pub(super) const SEGMENT: usize = 64 * 1024;

/// The size of the pieces a stretch without an exact cut is counted in. tiktoken merges one giant
/// piece with a heap (about 50 bytes of memory per byte, and heap operations whose cost grows
/// with the piece), and its split pattern gives up on whitespace runs of about a million
/// characters (tiktoken-rs then panics): small pieces keep both bounded.
const BLIND_PIECE: usize = 1024;

/// The number of tokens in `text`, special-token text counted as ordinary text: Python tiktoken's
/// `len(encoding.encode_ordinary(text))`, by tiktoken-rs. Text past [`SEGMENT`] bytes is cut where
/// tiktoken's split pattern cuts too, so the count is the same; only a stretch of twice that size
/// without a single such place (one giant word, a wall of one punctuation mark or of whitespace)
/// is cut blindly every [`BLIND_PIECE`] bytes, and may then count a token or so more per cut than
/// tiktoken would (which fails on whitespace runs of about a million characters anyway).
pub fn count(enc: Encoding, text: &str) -> usize {
    if text.len() <= SEGMENT {
        return count_segment(enc, text);
    }
    let segments: Vec<&str> = segments(text, SEGMENT).map(|(s, _)| s).collect();
    segments.par_iter().map(|s| count_segment(enc, s)).sum()
}

/// [`count`], stopped as soon as the count is over `limit`: a rule that only asks "more than N
/// tokens?" pays for N tokens or so, whatever the size of the text. The result is exact when it
/// is at most `limit`, and some figure over `limit` otherwise.
pub fn count_up_to(enc: Encoding, text: &str, limit: usize) -> usize {
    let mut n = 0;
    // Segments of about four bytes a token (English prose has about that many): once the count
    // passes the limit, little past it has been counted.
    let size = limit.saturating_mul(4).clamp(4096, SEGMENT);
    for (segment, _) in segments(text, size) {
        n += count_segment(enc, segment);
        if n > limit {
            break;
        }
    }
    n
}

pub(super) fn count_segment(enc: Encoding, text: &str) -> usize {
    pieces::count(enc, enc.bpe(), text)
}

/// Cuts `text` into segments of at most `size` bytes where possible, each cut at a place where
/// tiktoken's split pattern (o200k_base's and cl100k_base's alike) ends a piece whatever comes
/// before or after it, so that the segments' counts add up to the whole text's. The flag says
/// whether the cut after the segment is such a place: where a stretch of `2 * size` bytes holds
/// none, the text is cut blindly every [`BLIND_PIECE`] bytes (on character boundaries) until one
/// comes. Every byte is looked at about once.
pub(super) fn segments(text: &str, size: usize) -> impl Iterator<Item = (&str, bool)> {
    let mut cutter = Cutter::new(size);
    std::iter::from_fn(move || {
        let r = cutter.next(text, false)?;
        Some((&text[r], cutter.last_exact))
    })
}

/// Where [`segments`] cuts, one segment at a time, also over a text that arrives in pieces (see
/// [`stream`]): a cut is decided from at most `2 * size + 1` bytes past the segment's start and
/// from whether the text ends within them, so given those it is the cut the whole text gets.
pub(super) struct Cutter {
    size: usize,
    /// Where the next segment starts.
    pos: usize,
    /// No exact cut lies in `pos + 1 ..= clear`: it was searched already.
    clear: usize,
    /// Whether the last cut was exact.
    last_exact: bool,
}

impl Cutter {
    pub(super) fn new(size: usize) -> Cutter {
        Cutter {
            size,
            pos: 0,
            clear: 0,
            last_exact: true,
        }
    }

    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// The next segment of `text`. With `more` (the text goes on past `text`), `None` also when
    /// too little of it is there yet to decide the cut.
    pub(super) fn next(&mut self, text: &str, more: bool) -> Option<std::ops::Range<usize>> {
        let (b, size) = (text.as_bytes(), self.size);
        let start = self.pos;
        if start >= b.len() || (more && b.len() - start <= 2 * size) {
            return None;
        }
        let rest = b.len() - start;
        let (cut, exact) = if rest <= size {
            (b.len(), true)
        } else {
            let near = start + size;
            let far = (start + 2 * size).min(b.len() - 1);
            let from = (self.clear + 1).max(start + size / 2).max(start + 1);
            let found = (from..=near)
                .rev()
                .chain((self.clear + 1).max(near + 1)..=far)
                .find(|&i| exact_cut(b, i));
            self.clear = self.clear.max(far);
            match found {
                Some(i) => (i, true),
                None if rest <= 2 * size => (b.len(), true),
                None => {
                    let mut i = start + BLIND_PIECE.min(size);
                    while !text.is_char_boundary(i) {
                        i += 1;
                    }
                    (i, false)
                }
            }
        };
        self.pos = cut;
        self.last_exact = exact;
        Some(start..cut)
    }

    /// The first `n` bytes of the text (at most [`Cutter::pos`]) are gone: positions now count
    /// from there.
    pub(super) fn forget(&mut self, n: usize) {
        self.pos -= n;
        self.clear = self.clear.saturating_sub(n);
    }
}

/// Whether tiktoken's split pattern ends a piece between `b[i - 1]` and `b[i]` whatever the text
/// around them, with nothing on either side looking across:
/// - after an ASCII letter, before an ASCII character that is not a letter or an apostrophe (a
///   run of letters ends there, contractions start with the apostrophe);
/// - after an ASCII digit, before an ASCII character that is not a digit or an apostrophe (digit
///   runs are grouped by three from their start, so a cut inside one would move the groups);
/// - after a line feed, before an ASCII character that is neither whitespace nor `/` (o200k_base
///   lets `/` follow a newline in one piece; whitespace runs look ahead past their end).
///
/// Both bytes are ASCII, so `i` is a character boundary.
pub(super) fn exact_cut(b: &[u8], i: usize) -> bool {
    let (p, x) = (b[i - 1], b[i]);
    if !x.is_ascii() || x == b'\'' {
        return false;
    }
    if p.is_ascii_alphabetic() {
        !x.is_ascii_alphabetic()
    } else if p.is_ascii_digit() {
        !x.is_ascii_digit()
    } else if p == b'\n' {
        !matches!(x, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | b'/')
    } else {
        false
    }
}
