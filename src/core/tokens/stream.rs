//! Counting a text read in bounded pieces (a large resource or skill file): bytes decoded as
//! lossy UTF-8 across reads, and cut into exactly the segments [`super::count`] cuts the whole
//! text into, so the count is the same and memory stays a few pieces whatever the file's size.

use super::encoding::Encoding;
use super::split::{Cutter, SEGMENT, count_segment};
use rayon::prelude::*;
use std::io::Read;

/// The size of each read. A read's worth of segments is counted on every core at once.
pub(super) const READ_PIECE: usize = 1 << 20;

/// A text fed a read at a time: what is decoded and not yet counted, and the count so far.
pub(super) struct Streamed {
    enc: Encoding,
    /// Decoded text from the start of the segment being cut.
    text: String,
    /// The first bytes of a UTF-8 sequence a read ended in (at most three).
    partial: Vec<u8>,
    cutter: Cutter,
    tokens: usize,
}

impl Streamed {
    pub(super) fn new(enc: Encoding) -> Streamed {
        Streamed::with_segments(enc, SEGMENT)
    }

    /// Cut into segments of about `size` bytes, as [`super::segments`] cuts with that size.
    fn with_segments(enc: Encoding, size: usize) -> Streamed {
        Streamed {
            enc,
            text: String::new(),
            partial: Vec::new(),
            cutter: Cutter::new(size),
            tokens: 0,
        }
    }

    /// Takes the next bytes of the text and counts the segments they complete.
    pub(super) fn push(&mut self, mut bytes: &[u8]) {
        // A sequence the last read ended in goes on with the first bytes of this one (at most
        // four bytes are copied): decoded from there, the text is what decoding it whole gives.
        while !self.partial.is_empty() && !bytes.is_empty() {
            let mut joined = std::mem::take(&mut self.partial);
            let k = bytes.len().min(4 - joined.len());
            joined.extend_from_slice(&bytes[..k]);
            bytes = &bytes[k..];
            self.decode(&joined);
        }
        self.decode(bytes);
        self.count_ready(true);
    }

    /// Decodes `bytes` as `String::from_utf8_lossy` would (every maximal invalid sequence one
    /// U+FFFD), keeping an unfinished sequence at the end for the next read.
    fn decode(&mut self, mut bytes: &[u8]) {
        loop {
            match std::str::from_utf8(bytes) {
                Ok(s) => {
                    self.text.push_str(s);
                    return;
                }
                Err(e) => {
                    let (valid, rest) = bytes.split_at(e.valid_up_to());
                    self.text
                        .push_str(std::str::from_utf8(valid).unwrap_or_default());
                    if let Some(bad) = e.error_len() {
                        self.text.push(char::REPLACEMENT_CHARACTER);
                        bytes = &rest[bad..];
                    } else {
                        self.partial.extend_from_slice(rest);
                        return;
                    }
                }
            }
        }
    }

    /// Counts every segment whose cut is settled (all of them at the end of the text), then lets
    /// go of their text.
    fn count_ready(&mut self, more: bool) {
        let mut ready = Vec::new();
        while let Some(range) = self.cutter.next(&self.text, more) {
            ready.push(range);
        }
        let text = &self.text;
        let enc = self.enc;
        self.tokens += ready
            .into_par_iter()
            .map(|r| count_segment(enc, &text[r]))
            .sum::<usize>();
        let done = self.cutter.pos();
        self.text.drain(..done);
        self.cutter.forget(done);
    }

    /// The count of the whole text (a sequence cut short by the end is one U+FFFD, as
    /// `String::from_utf8_lossy` makes it).
    pub(super) fn finish(mut self) -> usize {
        if !self.partial.is_empty() {
            self.text.push(char::REPLACEMENT_CHARACTER);
        }
        self.count_ready(false);
        self.tokens
    }
}

/// What reading a text from `r` gave: its count, the blake3 hash and the length of its bytes.
pub(super) struct ReadCount {
    pub tokens: usize,
    pub hash: [u8; 32],
    pub len: u64,
}

/// Counts the text read from `r` (lossy UTF-8) a [`READ_PIECE`] at a time, hashing its bytes.
pub(super) fn count_read(enc: Encoding, r: &mut impl Read) -> std::io::Result<ReadCount> {
    let mut streamed = Streamed::new(enc);
    let mut hasher = blake3::Hasher::new();
    let mut len = 0u64;
    each_piece(r, |piece| {
        hasher.update(piece);
        len += piece.len() as u64;
        streamed.push(piece);
    })?;
    Ok(ReadCount {
        tokens: streamed.finish(),
        hash: *hasher.finalize().as_bytes(),
        len,
    })
}

/// The blake3 hash and length of what `r` holds, read a [`READ_PIECE`] at a time.
pub(super) fn hash_read(r: &mut impl Read) -> std::io::Result<([u8; 32], u64)> {
    let mut hasher = blake3::Hasher::new();
    let mut len = 0u64;
    each_piece(r, |piece| {
        hasher.update(piece);
        len += piece.len() as u64;
    })?;
    Ok((*hasher.finalize().as_bytes(), len))
}

fn each_piece(r: &mut impl Read, mut f: impl FnMut(&[u8])) -> std::io::Result<()> {
    let mut buf = vec![0u8; READ_PIECE];
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        f(&buf[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::count;
    use super::super::split::segments;
    use super::*;

    /// The count of `bytes` fed `read` bytes at a time (cycling through the sizes given).
    fn streamed(enc: Encoding, size: usize, bytes: &[u8], reads: &[usize]) -> usize {
        let mut s = Streamed::with_segments(enc, size);
        let mut rest = bytes;
        for &n in reads.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (piece, after) = rest.split_at(n.clamp(1, rest.len()));
            s.push(piece);
            rest = after;
        }
        s.finish()
    }

    /// The text `bytes` decode to when fed `reads` bytes at a time.
    fn decoded(bytes: &[u8], reads: &[usize]) -> String {
        // Segments too large to be cut before the end: the text stays whole.
        let mut s = Streamed::with_segments(Encoding::O200kBase, usize::MAX / 4);
        let mut rest = bytes;
        for &n in reads.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (piece, after) = rest.split_at(n.clamp(1, rest.len()));
            s.push(piece);
            rest = after;
        }
        let mut text = std::mem::take(&mut s.text);
        if !s.partial.is_empty() {
            text.push(char::REPLACEMENT_CHARACTER);
        }
        text
    }

    /// What counting the whole text at once in segments of `size` gives.
    fn whole(enc: Encoding, size: usize, bytes: &[u8]) -> usize {
        let text = String::from_utf8_lossy(bytes);
        segments(&text, size)
            .map(|(s, _)| count_segment(enc, s))
            .sum()
    }

    /// Text of every kind the cuts and the decoding turn on, `len` bytes or a little more: prose,
    /// multi-byte letters and emoji, digits, contractions, CRLF and whitespace runs, stretches
    /// with no exact cut at all (one giant word, a wall of punctuation, a run of spaces, a run of
    /// non-ASCII letters), and bytes that are not UTF-8 (a lone continuation byte, a sequence cut
    /// short, an overlong form, a surrogate).
    fn awkward(len: usize) -> Vec<u8> {
        let parts: Vec<Vec<u8>> = vec![
            b"The quick brown fox's 12345 jumps; it'LL be done.\r\n".to_vec(),
            "Ünïcödé — 日本語テキスト 🎉 Привет, мир! e\u{301}\u{302}\n".into(),
            b"\x80\xbf lone, \xe2\x82 cut, \xc0\xaf overlong, \xed\xa0\x80 surrogate\n".to_vec(),
            b"    indented\t\ttabs   \n\n\n/path/to\n".to_vec(),
            vec![b'z'; 3000],
            vec![b'='; 2500],
            vec![b' '; 2100],
            "中文字符没有空格".repeat(200).into(),
            "🎉".repeat(700).into(),
            b"x1y2z3".to_vec(),
            b"\xf0\x9f\x8e".to_vec(),
            b"\n".to_vec(),
            b"'s'S'll".to_vec(),
            b"9876543210".to_vec(),
        ];
        let mut out = Vec::with_capacity(len + 8192);
        // A fixed walk through the parts, so that every neighbour of every part comes up.
        let mut i = 7usize;
        while out.len() < len {
            out.extend_from_slice(&parts[i % parts.len()]);
            i = i.wrapping_mul(31).wrapping_add(17) % 1009;
        }
        out
    }

    #[test]
    fn a_text_read_in_pieces_counts_as_the_whole_text_at_once() {
        let bytes = awkward(300_000);
        for enc in Encoding::ALL {
            let want = count(enc, &String::from_utf8_lossy(&bytes));
            for reads in [
                &[READ_PIECE][..],
                &[1, 2, 3][..],
                &[4093][..],
                &[65_536][..],
                &[131_071, 7, 1][..],
            ] {
                assert_eq!(
                    streamed(enc, SEGMENT, &bytes, reads),
                    want,
                    "{enc}, reads of {reads:?}"
                );
            }
        }
    }

    #[test]
    fn runs_without_a_cut_longer_than_a_read_count_as_at_once() {
        // One word, one wall of spaces, one run of non-ASCII letters, each past two segments and
        // longer than a read; then a multi-byte character across every read's end.
        let mut word = "ab".repeat(300_000).into_bytes();
        word.extend_from_slice(b" tail");
        let spaces = format!("{}x", " ".repeat(200_000)).into_bytes();
        let han = "字".repeat(100_000).into_bytes();
        for enc in Encoding::ALL {
            for text in [&word, &spaces, &han] {
                let want = count(enc, &String::from_utf8_lossy(text));
                assert_eq!(streamed(enc, SEGMENT, text, &[READ_PIECE]), want);
                assert_eq!(streamed(enc, SEGMENT, text, &[100_001]), want);
            }
        }
    }

    #[test]
    fn a_file_is_counted_from_a_reader_with_its_hash_and_length() {
        let bytes = awkward(50_000);
        let read = count_read(Encoding::O200kBase, &mut &bytes[..]).unwrap();
        assert_eq!(
            read.tokens,
            count(Encoding::O200kBase, &String::from_utf8_lossy(&bytes))
        );
        assert_eq!(read.hash, *blake3::hash(&bytes).as_bytes());
        assert_eq!(read.len, bytes.len() as u64);
        assert_eq!(hash_read(&mut &bytes[..]).unwrap(), (read.hash, read.len));
    }

    /// The pieces of the random texts: every kind a cut or the decoder turns on, and bytes that
    /// are not UTF-8 (a lone continuation byte, sequences cut short, an overlong form).
    fn small_parts() -> Vec<&'static [u8]> {
        vec![
            b"a",
            b"Zq",
            b"st ",
            b"1",
            b"123456",
            b" ",
            b"   ",
            b"\t",
            b"\n",
            b"\r\n",
            b"'",
            b"'s",
            b"'LL",
            b".",
            b"/",
            b"==",
            "é".as_bytes(),
            "中".as_bytes(),
            "🎉".as_bytes(),
            "\u{3000}".as_bytes(),
            "e\u{301}".as_bytes(),
            b"\x80",
            b"\xe2\x82",
            b"\xf0\x9f",
            b"\xc0\xaf",
            b"\xff",
            b"abcdefghijklmnop",
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Small segments and random reads over text made of the pieces the cuts and the decoder
        /// turn on: the same count as the whole text cut the same way, in both encodings.
        #[test]
        fn any_reads_give_the_count_of_the_whole(
            parts in proptest::collection::vec(proptest::sample::select(small_parts()), 0..120),
            reads in proptest::collection::vec(1usize..40, 1..8),
            size in 2usize..48,
        ) {
            let bytes = parts.concat();
            proptest::prop_assert_eq!(decoded(&bytes, &reads), String::from_utf8_lossy(&bytes));
            for enc in Encoding::ALL {
                proptest::prop_assert_eq!(
                    streamed(enc, size, &bytes, &reads),
                    whole(enc, size, &bytes),
                    "{} size {} reads {:?} of {:?}", enc, size, reads, String::from_utf8_lossy(&bytes)
                );
            }
        }
    }
}
