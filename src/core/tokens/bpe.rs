//! A tiktoken counter that holds each vocabulary once: a rank map over token bytes embedded in the
//! binary, the encoding's split pattern, and tiktoken's byte-pair merge, counting instead of
//! collecting tokens.

use fancy_regex::Regex;
use rustc_hash::FxBuildHasher;
use std::collections::{BinaryHeap, HashMap};
use std::sync::OnceLock;

/// A token's number in its encoding.
pub(super) type Rank = u32;

/// o200k_base's tokens in rank order, each as one length byte and the token's bytes (written by
/// scripts/gen_encodings.py from tiktoken's `o200k_base.tiktoken`).
pub(super) const O200K_BASE_VOCABULARY: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/encodings/o200k_base.bin"
));

/// cl100k_base's tokens, as [`O200K_BASE_VOCABULARY`].
pub(super) const CL100K_BASE_VOCABULARY: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/encodings/cl100k_base.bin"
));

/// o200k_base's split pattern, as tiktoken has it.
pub(super) const O200K_BASE_PATTERN: &str = concat!(
    r#"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"#,
    "|",
    r#"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?"#,
    "|",
    r#"\p{N}{1,3}"#,
    "|",
    r#" ?[^\s\p{L}\p{N}]+[\r\n/]*"#,
    "|",
    r#"\s*[\r\n]+"#,
    "|",
    r#"\s+(?!\S)"#,
    "|",
    r#"\s+"#
);

/// cl100k_base's split pattern, as tiktoken has it (tiktoken-rs does not export this one; the
/// count tests compare with its encoder).
pub(super) const CL100K_BASE_PATTERN: &str = concat!(
    r#"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+"#,
    r#"| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"#
);

/// Worker threads past this many share a compiled pattern.
const PATTERN_COPIES: usize = 8;

/// Pieces this long are merged with a heap, as tiktoken does; below it the plain scan is faster.
const LARGE_PIECE: usize = 100;

/// The tokens of a vocabulary file in rank order. A truncated last entry ends the list.
pub(super) fn vocabulary_tokens(vocabulary: &'static [u8]) -> impl Iterator<Item = &'static [u8]> {
    let mut rest = vocabulary;
    std::iter::from_fn(move || {
        let (&len, tail) = rest.split_first()?;
        let Some((token, tail)) = tail.split_at_checked(usize::from(len)) else {
            rest = &[];
            return None;
        };
        rest = tail;
        Some(token)
    })
}

/// One encoding, ready to count: what `tiktoken`'s `encode_ordinary` does, without the decoder
/// and the sorted token list that tiktoken's encoder also keeps.
pub(super) struct Counter {
    /// Rank of every token; the keys borrow the embedded vocabulary, so no token is copied.
    ranks: HashMap<&'static [u8], Rank, FxBuildHasher>,
    /// The split pattern, for the first worker thread and threads outside the pool.
    pattern: Regex,
    /// The pattern compiled again, on first use, for each further worker thread: clones of a
    /// compiled pattern share its scratch space, and threads taking turns at it cost about a
    /// sixth of the counting time.
    own_patterns: Box<[OnceLock<Option<Regex>>]>,
    source: &'static str,
}

impl Counter {
    pub(super) fn new(
        vocabulary: &'static [u8],
        source: &'static str,
    ) -> Result<Counter, fancy_regex::Error> {
        let pattern = Regex::new(source)?;
        let size = vocabulary_tokens(vocabulary).count();
        let mut ranks = HashMap::with_capacity_and_hasher(size, FxBuildHasher);
        for (rank, token) in (0..).zip(vocabulary_tokens(vocabulary)) {
            ranks.insert(token, rank);
        }
        let threads = rayon::current_num_threads().min(PATTERN_COPIES);
        Ok(Counter {
            ranks,
            pattern,
            own_patterns: (1..threads).map(|_| OnceLock::new()).collect(),
            source,
        })
    }

    /// The calling thread's copy of the split pattern.
    fn pattern(&self) -> &Regex {
        rayon::current_thread_index()
            .and_then(|i| self.own_patterns.get(i.checked_sub(1)?))
            .and_then(|own| own.get_or_init(|| Regex::new(self.source).ok()).as_ref())
            .unwrap_or(&self.pattern)
    }

    /// How many tokens the vocabulary holds.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.ranks.len()
    }

    fn rank(&self, bytes: &[u8]) -> Option<Rank> {
        self.ranks.get(bytes).copied()
    }

    /// The number of tokens tiktoken's `encode_ordinary` gives for `text`. Fails where the split
    /// pattern gives up (its backtracking limit, reached on whitespace runs of about a million
    /// characters), where tiktoken panics.
    pub(super) fn count(&self, text: &str) -> Result<usize, fancy_regex::Error> {
        let mut parts = Vec::new();
        let mut n = 0;
        for piece in self.pattern().find_iter(text) {
            let piece = piece?.as_str().as_bytes();
            n += if self.ranks.contains_key(piece) {
                1
            } else if piece.len() < LARGE_PIECE {
                self.merge_count(piece, &mut parts)
            } else {
                self.merge_count_large(piece)
            };
        }
        Ok(n)
    }

    /// The number of tokens byte-pair merging makes of `piece`: tiktoken's `_byte_pair_merge`.
    /// `parts` is scratch space, reused across pieces.
    fn merge_count(&self, piece: &[u8], parts: &mut Vec<(usize, Rank)>) -> usize {
        if piece.len() < 2 {
            return piece.len();
        }
        // (start, rank of the pair starting there); the last two entries close the list.
        parts.clear();
        let mut min_rank = (Rank::MAX, usize::MAX);
        for i in 0..piece.len() - 1 {
            let rank = self.rank(&piece[i..i + 2]).unwrap_or(Rank::MAX);
            if rank < min_rank.0 {
                min_rank = (rank, i);
            }
            parts.push((i, rank));
        }
        parts.push((piece.len() - 1, Rank::MAX));
        parts.push((piece.len(), Rank::MAX));

        // The rank of the part at `i` merged with the next one, read before parts[i + 1] goes.
        let pair_rank = |parts: &[(usize, Rank)], i: usize| {
            if i + 3 < parts.len() {
                self.rank(&piece[parts[i].0..parts[i + 3].0])
                    .unwrap_or(Rank::MAX)
            } else {
                Rank::MAX
            }
        };
        while min_rank.0 != Rank::MAX {
            let i = min_rank.1;
            if i > 0 {
                parts[i - 1].1 = pair_rank(parts, i - 1);
            }
            parts[i].1 = pair_rank(parts, i);
            parts.remove(i + 1);

            min_rank = (Rank::MAX, usize::MAX);
            for (i, &(_, rank)) in parts[..parts.len() - 1].iter().enumerate() {
                if rank < min_rank.0 {
                    min_rank = (rank, i);
                }
            }
        }
        parts.len() - 1
    }

    /// [`Counter::merge_count`] for long pieces: tiktoken's `_byte_pair_merge_large`, a heap of
    /// candidate merges instead of a scan per merge.
    fn merge_count_large(&self, piece: &[u8]) -> usize {
        if piece.len() < 2 {
            return piece.len();
        }
        // One entry per byte; `end` of a token's first byte is where the token ends.
        let mut state = Vec::with_capacity(piece.len());
        state.push(MergeState {
            prev: usize::MAX,
            end: 1,
            next_end: 2,
            next_rank: Rank::MAX,
        });
        let mut heap = BinaryHeap::with_capacity(piece.len());
        for i in 0..piece.len() - 1 {
            if let Some(rank) = self.rank(&piece[i..i + 2]) {
                heap.push(Merge { start: i, rank });
                state[i].next_rank = rank;
            }
            state.push(MergeState {
                prev: i,
                end: i + 2,
                next_end: i + 3,
                next_rank: Rank::MAX,
            });
        }

        // Sets the merge of the token at `start` with the bytes up to `next_end`, if that is a
        // token; the old merge from `start` is invalid either way.
        let potential_merge = |state: &mut Vec<MergeState>,
                               heap: &mut BinaryHeap<Merge>,
                               start: usize,
                               next_end: usize| {
            state[start].next_end = next_end;
            state[start].next_rank = Rank::MAX;
            if next_end <= piece.len()
                && let Some(rank) = self.rank(&piece[start..next_end])
            {
                heap.push(Merge { start, rank });
                state[start].next_rank = rank;
            }
        };

        while let Some(left) = heap.pop() {
            if left.rank == Rank::MAX {
                break;
            }
            if left.rank != state[left.start].next_rank {
                continue; // invalidated by an earlier merge
            }
            let left_start = left.start;
            let right_start = state[left_start].end;
            let right_end = state[left_start].next_end;
            let right_next_end = state[right_start].next_end;

            state[left_start].end = right_end;
            potential_merge(&mut state, &mut heap, left_start, right_next_end);
            if right_end < state.len() {
                state[right_end].prev = left_start;
            }
            if left_start > 0 {
                let prev_start = state[left_start].prev;
                potential_merge(&mut state, &mut heap, prev_start, right_end);
            }
            state[right_start].next_rank = Rank::MAX;
        }

        let mut tokens = 0;
        let mut i = 0;
        while i < state.len() {
            tokens += 1;
            i = state[i].end;
        }
        tokens
    }
}

struct MergeState {
    prev: usize,
    end: usize,
    next_end: usize,
    next_rank: Rank,
}

/// A candidate merge; the heap yields the lowest rank first, then the leftmost.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Merge {
    start: usize,
    rank: Rank,
}

impl Ord for Merge {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .rank
            .cmp(&self.rank)
            .then_with(|| other.start.cmp(&self.start))
    }
}

impl PartialOrd for Merge {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each encoding with its vocabulary file and tiktoken-rs's encoder for it.
    fn encodings() -> [(Counter, &'static [u8], &'static tiktoken_rs::CoreBPE); 2] {
        [
            (
                Counter::new(O200K_BASE_VOCABULARY, O200K_BASE_PATTERN).unwrap(),
                O200K_BASE_VOCABULARY,
                tiktoken_rs::o200k_base_singleton(),
            ),
            (
                Counter::new(CL100K_BASE_VOCABULARY, CL100K_BASE_PATTERN).unwrap(),
                CL100K_BASE_VOCABULARY,
                tiktoken_rs::cl100k_base_singleton(),
            ),
        ]
    }

    #[test]
    fn the_shipped_vocabularies_are_tiktokens() {
        for (counter, vocabulary, reference) in encodings() {
            let mut n = 0u32;
            for (rank, token) in (0u32..).zip(vocabulary_tokens(vocabulary)) {
                assert_eq!(
                    reference.decode_bytes(&[rank]).unwrap(),
                    token,
                    "rank {rank}"
                );
                n += 1;
            }
            // Every ordinary token is there: the rank after the last one is not a token.
            assert!(reference.decode_bytes(&[n]).is_err(), "rank {n}");
            // The file holds nothing else, and the rank map holds every token under its rank.
            let stored: usize = vocabulary_tokens(vocabulary).map(|t| t.len() + 1).sum();
            assert_eq!(stored, vocabulary.len());
            assert_eq!(counter.len(), n as usize);
            for (rank, token) in (0u32..).zip(vocabulary_tokens(vocabulary)) {
                assert_eq!(counter.rank(token), Some(rank));
            }
        }
    }

    #[test]
    fn the_o200k_pattern_is_tiktokens() {
        assert_eq!(O200K_BASE_PATTERN, tiktoken_rs::O200K_BASE_PAT_STR);
    }

    #[test]
    fn a_truncated_vocabulary_ends_at_its_last_whole_token() {
        let tokens: Vec<&[u8]> = vocabulary_tokens(b"\x01a\x02bc\x05de").collect();
        assert_eq!(tokens, [b"a".as_slice(), b"bc"]);
    }

    #[test]
    fn merging_counts_as_tiktoken_on_short_and_long_pieces() {
        // Pieces that are not tokens, below and above the heap threshold, and a repeated pair so
        // that ties between equal ranks are decided.
        let texts = [
            "supercalifragilisticexpialidocious".to_string(),
            "abababababababab".repeat(20),
            "x".repeat(99),
            "x".repeat(100),
            "x".repeat(1_001),
            "Ωμέγα".repeat(40),
            "=-".repeat(300),
            // Short pieces whose merges tie on rank: the leftmost pair goes first.
            format!(" {}", "-".repeat(46)),
            format!(" {}", "-".repeat(24)),
            " ".repeat(5_000),
            format!("{}\n", " ".repeat(777)),
            "🎉".repeat(60),
        ];
        for (counter, _, reference) in encodings() {
            for text in &texts {
                assert_eq!(
                    counter.count(text).unwrap(),
                    reference.encode_ordinary(text).len(),
                    "{:?}",
                    &text[..text.len().min(40)]
                );
            }
        }
    }

    #[test]
    fn a_pattern_that_gives_up_is_an_error_not_a_panic() {
        let [(counter, ..), _] = encodings();
        let text = format!("{}x", " ".repeat(2_000_000));
        assert!(counter.count(&text).is_err());
    }
}
