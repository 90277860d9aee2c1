//! The encodings' vocabularies as rank tables built into the program, and the byte-pair merge
//! that counts a piece with them.
//!
//! tiktoken-rs builds its encoder from base64 text at first use and a whole `CoreBPE` with it
//! (a decoder, a sorted copy of every token, 128 copies of the split pattern): for o200k_base
//! about 790 million instructions, a third of an `add` of 181 skills. Counting needs only the
//! map from a token's bytes to its rank. The tables under `assets/tokens/` hold every token in
//! rank order (`SKSCRNK1`, the number of tokens as a little-endian `u32`, each token's length
//! as one byte, then the tokens' bytes one after another); the map borrows its keys from them,
//! so building it is one pass with no allocation per token. `the_rank_tables_are_tiktoken_rs_own`
//! checks every token against tiktoken-rs's decoder, and with `SKILLSCOPE_WRITE_ASSETS=1` writes
//! the tables from it.

use super::encoding::Encoding;
use rustc_hash::FxHashMap;
use std::collections::BinaryHeap;
use std::sync::OnceLock;

/// A token's rank (its id).
pub(super) type Rank = u32;

const MAGIC: &[u8; 8] = b"SKSCRNK1";

static O200K_TABLE: &[u8] = include_bytes!("../../../assets/tokens/o200k_base.ranks");
static CL100K_TABLE: &[u8] = include_bytes!("../../../assets/tokens/cl100k_base.ranks");

/// An encoding's map from a token's bytes to its rank.
pub(super) struct Ranks {
    map: FxHashMap<&'static [u8], Rank>,
}

/// The tokens of a rank table, in rank order; `None` when the table is not one.
fn tokens(table: &'static [u8]) -> Option<impl Iterator<Item = &'static [u8]>> {
    let rest = table.strip_prefix(MAGIC.as_slice())?;
    let (n, rest) = rest.split_first_chunk::<4>()?;
    let n = usize::try_from(u32::from_le_bytes(*n)).ok()?;
    let (lengths, mut bytes) = rest.split_at_checked(n)?;
    let total: usize = lengths.iter().map(|&l| usize::from(l)).sum();
    if bytes.len() != total {
        return None;
    }
    Some(lengths.iter().map(move |&l| {
        let (token, more) = bytes.split_at(usize::from(l));
        bytes = more;
        token
    }))
}

impl Ranks {
    fn of(table: &'static [u8]) -> Ranks {
        let mut map = FxHashMap::default();
        if let Some(tokens) = tokens(table) {
            map.reserve(table.len() / 8);
            for (rank, token) in (0..).zip(tokens) {
                map.insert(token, rank);
            }
        }
        Ranks { map }
    }

    /// The rank table of `enc`, built on first use (a few milliseconds) and shared afterwards.
    pub(super) fn of_encoding(enc: Encoding) -> &'static Ranks {
        static RANKS: [OnceLock<Ranks>; 2] = [OnceLock::new(), OnceLock::new()];
        RANKS[enc.slot()].get_or_init(|| {
            Ranks::of(match enc {
                Encoding::O200kBase => O200K_TABLE,
                Encoding::Cl100kBase => CL100K_TABLE,
            })
        })
    }

    /// How many tokens there are.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.map.len()
    }

    fn rank(&self, bytes: &[u8]) -> Rank {
        self.map.get(bytes).copied().unwrap_or(Rank::MAX)
    }

    /// The number of tokens tiktoken's `encode_ordinary` makes of one piece of the split
    /// pattern: one when the piece is a token, else as many as its byte-pair merge leaves
    /// (tiktoken's own merge: the pair of lowest rank merged first, the leftmost among equals).
    pub(super) fn count(&self, piece: &[u8]) -> usize {
        if piece.is_empty() {
            return 0;
        }
        if piece.len() == 1 || self.map.contains_key(piece) {
            return 1;
        }
        if piece.len() < 100 {
            self.merge_small(piece)
        } else {
            self.merge_large(piece)
        }
    }

    /// tiktoken's merge for short pieces: the parts' starts with the rank of the pair each
    /// begins, the lowest merged until none is left.
    fn merge_small(&self, piece: &[u8]) -> usize {
        let mut parts: Vec<(usize, Rank)> = Vec::with_capacity(piece.len() + 1);
        let mut min = (Rank::MAX, usize::MAX);
        for i in 0..piece.len() - 1 {
            let rank = self.rank(&piece[i..i + 2]);
            if rank < min.0 {
                min = (rank, i);
            }
            parts.push((i, rank));
        }
        parts.push((piece.len() - 1, Rank::MAX));
        parts.push((piece.len(), Rank::MAX));
        // The rank of the pair starting at part `i` once part `i + 1` is merged into it.
        let rank_after = |parts: &[(usize, Rank)], i: usize| {
            if i + 3 < parts.len() {
                self.rank(&piece[parts[i].0..parts[i + 3].0])
            } else {
                Rank::MAX
            }
        };
        while min.0 != Rank::MAX {
            let i = min.1;
            if i > 0 {
                parts[i - 1].1 = rank_after(&parts, i - 1);
            }
            parts[i].1 = rank_after(&parts, i);
            parts.remove(i + 1);
            min = (Rank::MAX, usize::MAX);
            for (i, &(_, rank)) in parts[..parts.len() - 1].iter().enumerate() {
                if rank < min.0 {
                    min = (rank, i);
                }
            }
        }
        parts.len() - 1
    }

    /// tiktoken's merge for long pieces: the same merges in the same order, found with a heap
    /// over a linked list of parts (time `n log n`, not `n²`).
    fn merge_large(&self, piece: &[u8]) -> usize {
        /// A possible merge: the part at `start` with the next; the heap gives the lowest rank
        /// first, the leftmost among equals.
        #[derive(PartialEq, Eq)]
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
        /// The part starting at a byte: the part before it, where it ends, where the next
        /// ends, and the rank of merging it with the next (`Rank::MAX`: none).
        struct Part {
            prev: usize,
            end: usize,
            next_end: usize,
            next_rank: Rank,
        }
        let n = piece.len();
        let mut parts: Vec<Part> = (0..n)
            .map(|i| Part {
                prev: i.wrapping_sub(1),
                end: i + 1,
                next_end: i + 2,
                next_rank: Rank::MAX,
            })
            .collect();
        let mut heap = BinaryHeap::with_capacity(n);
        for i in 0..n - 1 {
            let rank = self.rank(&piece[i..i + 2]);
            if rank != Rank::MAX {
                heap.push(Merge { start: i, rank });
                parts[i].next_rank = rank;
            }
        }
        let propose = |parts: &mut Vec<Part>, heap: &mut BinaryHeap<Merge>, start: usize, end| {
            parts[start].next_end = end;
            parts[start].next_rank = Rank::MAX;
            if end <= n {
                let rank = self.rank(&piece[start..end]);
                if rank != Rank::MAX {
                    heap.push(Merge { start, rank });
                    parts[start].next_rank = rank;
                }
            }
        };
        while let Some(left) = heap.pop() {
            if left.rank != parts[left.start].next_rank {
                continue;
            }
            let start = left.start;
            let right = parts[start].end;
            let right_end = parts[start].next_end;
            let right_next_end = parts[right].next_end;
            parts[start].end = right_end;
            propose(&mut parts, &mut heap, start, right_next_end);
            if right_end < n {
                parts[right_end].prev = start;
            }
            if start > 0 {
                let before = parts[start].prev;
                propose(&mut parts, &mut heap, before, right_end);
            }
            parts[right].next_rank = Rank::MAX;
        }
        let mut count = 0;
        let mut i = 0;
        while i < n {
            count += 1;
            i = parts[i].end;
        }
        count
    }
}

impl Encoding {
    /// Builds the rank table now, so a later count does not wait for it.
    pub fn warm(self) {
        Ranks::of_encoding(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_path(enc: Encoding) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets/tokens")
            .join(format!("{}.ranks", enc.as_str()))
    }

    /// A rank table made from tiktoken-rs's decoder: every rank from 0 until the first it does
    /// not know.
    fn table_from_tiktoken(enc: Encoding) -> Vec<u8> {
        let bpe = enc.bpe();
        let mut tokens: Vec<Vec<u8>> = Vec::new();
        while let Ok(t) = bpe.decode_bytes(&[Rank::try_from(tokens.len()).unwrap()]) {
            tokens.push(t);
        }
        let mut out = MAGIC.to_vec();
        out.extend(u32::try_from(tokens.len()).unwrap().to_le_bytes());
        out.extend(tokens.iter().map(|t| u8::try_from(t.len()).unwrap()));
        for t in &tokens {
            out.extend(t);
        }
        out
    }

    /// Every token of each built-in table is tiktoken-rs's token of that rank, and there are as
    /// many; `SKILLSCOPE_WRITE_ASSETS=1` writes the tables from tiktoken-rs instead.
    #[test]
    fn the_rank_tables_are_tiktoken_rs_own() {
        for enc in Encoding::ALL {
            let made = table_from_tiktoken(enc);
            if std::env::var_os("SKILLSCOPE_WRITE_ASSETS").is_some() {
                std::fs::write(table_path(enc), &made).unwrap();
                continue;
            }
            let built = match enc {
                Encoding::O200kBase => O200K_TABLE,
                Encoding::Cl100kBase => CL100K_TABLE,
            };
            assert!(
                built == made.as_slice(),
                "{} differs from tiktoken-rs's vocabulary: SKILLSCOPE_WRITE_ASSETS=1 cargo test --lib rank_tables writes it",
                table_path(enc).display()
            );
            let ranks = Ranks::of_encoding(enc);
            let n = tokens(built).unwrap().count();
            assert_eq!(ranks.len(), n, "every token has its own bytes");
            assert_eq!(ranks.rank(b"the"), enc.bpe().encode_ordinary("the")[0]);
        }
    }

    #[test]
    fn a_table_that_is_not_one_makes_an_empty_map() {
        for bad in [
            &b""[..],
            b"SKSCRNK1",
            b"SKSCRNK1\x02\0\0\0\x01\x01a",
            b"XXXXXXXX\0\0\0\0",
        ] {
            let leaked: &'static [u8] = Box::leak(bad.to_vec().into_boxed_slice());
            assert_eq!(Ranks::of(leaked).len(), 0, "{bad:?}");
        }
        let ok: &'static [u8] = b"SKSCRNK1\x02\0\0\0\x01\x02abc";
        let r = Ranks::of(ok);
        assert_eq!(
            (r.rank(b"a"), r.rank(b"bc"), r.rank(b"x")),
            (0, 1, Rank::MAX)
        );
    }

    /// Both merges count as tiktoken-rs encodes, on pieces short and long (each merge is also run
    /// on the pieces the other one is for, to hold them to one result).
    #[test]
    fn both_merges_count_as_tiktoken_rs() {
        let words = [
            // Each is one piece of both split patterns, repeated too.
            "antidisestablishmentarianism",
            "pneumonoultramicroscopicsilicovolcanoconiosis",
            "=====================",
            "äöüßéèê",
            "日本語のテキスト",
            "🙂🙃😉",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "xqzjvkwpfhg",
        ];
        for enc in Encoding::ALL {
            let ranks = Ranks::of_encoding(enc);
            let bpe = enc.bpe();
            for w in words {
                let long = w.repeat(12);
                for piece in [w, long.as_str()] {
                    let want = bpe.encode_ordinary(piece).len();
                    assert_eq!(ranks.count(piece.as_bytes()), want, "{enc} {piece:?}");
                    if piece.len() > 1 && !ranks.map.contains_key(piece.as_bytes()) {
                        assert_eq!(ranks.merge_large(piece.as_bytes()), want, "{piece:?}");
                        if piece.len() < 400 {
                            assert_eq!(ranks.merge_small(piece.as_bytes()), want, "{piece:?}");
                        }
                    }
                }
            }
        }
    }
}
