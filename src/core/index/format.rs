//! The index file's layout: the header, the walks and the skills written as they are encoded,
//! and read back in batches decoded on every core.

use super::codec::{ReadRecords, WriteRecords, skill_record, skill_record_from};
use super::records::{
    IndexData, Remembered, SkillRecord, Stored, StoredDirs, TextCount, WalkRecord,
};
use crate::core::files::codec::{Reader as R, Writer as W};
use crate::core::files::fsx::{Crc32, RunningSum};
use crate::core::skill::Skill;
use rayon::prelude::*;
use std::io::{Read, Write};

const MAGIC: &[u8; 8] = b"SKSCLIX\0";
/// The bytes of the sum the file ends with.
pub(super) const SUM_BYTES: u64 = 4;
/// Bumped whenever the layout or the meaning of a record changes: an index of another version is
/// foreign and discarded.
pub(super) const VERSION: u32 = 17;

// The file: MAGIC, u32 VERSION, the walks, the skills, then the CRC-32 of all before it
// (`fsx::Crc32`, four bytes, little-endian).

/// The index, encoded into `out` as it is made (never held whole: tens of megabytes at 50,000
/// skills).
pub(super) fn encode_to<'a>(
    out: &mut impl Write,
    walks: &[WalkRecord],
    skills: impl IntoIterator<Item = &'a Skill>,
    remembered: &[Remembered],
    texts: &[TextCount],
    taken_ns: u128,
) -> std::io::Result<()> {
    let mut out = crate::core::files::fsx::Checksummed::<_, Crc32>::new(out);
    let mut w = W(Vec::with_capacity(1024));
    w.0.extend_from_slice(MAGIC);
    w.u32(VERSION);
    // The walks go first, prefixed with their length in bytes, so that reading can decode them
    // beside the skill records. A record whose contents were let go is copied from the file it
    // was read from, a piece at a time; if that file changed since (it should not: writers write
    // new files), the record is left out and its root walked again next time.
    let kept: Vec<WalkBytes> = walks
        .iter()
        .filter_map(|r| match &r.stored {
            Some(s) if !r.whole() => s.unchanged().then_some(WalkBytes::Copy(s)),
            _ => Some(WalkBytes::Encoded(encode_walk(r, taken_ns))),
        })
        .collect();
    let section = 4 + kept.iter().map(WalkBytes::len).sum::<u64>();
    w.u32(u32::try_from(section).unwrap_or(u32::MAX));
    w.len(kept.len());
    out.write_all(&w.0)?;
    for walk in &kept {
        match walk {
            WalkBytes::Copy(s) => s.copy_to(&mut out)?,
            WalkBytes::Encoded(bytes) => out.write_all(bytes)?,
        }
    }
    drop(kept);
    // Only skills whose file was read and stamped are worth remembering.
    let kept: Vec<&Skill> = skills
        .into_iter()
        .filter(|s| s.stamp.mtime_ns != 0)
        .collect();
    w.0.clear();
    w.len(kept.len());
    out.write_all(&w.0)?;
    // Each skill's record is prefixed with its length, so that reading can cut the records apart
    // first and decode them on every core.
    for s in kept {
        w.0.clear();
        w.len(0);
        skill_record(&mut w, s, taken_ns);
        let len = u32::try_from(w.0.len() - 4).unwrap_or(u32::MAX);
        w.0[..4].copy_from_slice(&len.to_le_bytes());
        out.write_all(&w.0)?;
    }
    w.0.clear();
    w.len(remembered.len());
    for (key, found) in remembered {
        w.0.extend_from_slice(key);
        w.len(found.len());
        for (i, d) in found {
            w.u64(*i as u64);
            w.diags(std::slice::from_ref(d));
        }
    }
    w.len(texts.len());
    for (hash, enc, n) in texts {
        w.0.extend_from_slice(hash);
        w.u8(*enc);
        w.u32(*n);
    }
    out.write_all(&w.0)?;
    out.finish().map(drop)
}

/// A walk as it goes in the file: copied from the index file it was read from, or encoded from
/// its record.
enum WalkBytes<'a> {
    Copy(&'a Stored),
    Encoded(Vec<u8>),
}

impl WalkBytes<'_> {
    fn len(&self) -> u64 {
        match self {
            WalkBytes::Copy(s) => s.len,
            WalkBytes::Encoded(b) => b.len() as u64,
        }
    }
}

fn encode_walk(r: &WalkRecord, taken_ns: u128) -> Vec<u8> {
    let mut ws = W(Vec::with_capacity(64 + r.dirs.len() * 96));
    ws.path(&r.path);
    ws.u64(r.max_depth as u64);
    let dirs = r.folders().unwrap_or_default();
    ws.len(dirs.len());
    for (d, s) in &dirs {
        ws.path(d);
        ws.stamp(&s.settled(taken_ns));
    }
    ws.len(r.found.len());
    for (d, f) in &r.found {
        ws.path(d);
        ws.path(f);
    }
    ws.diags(&r.problems);
    ws.len(r.links.len());
    for l in &r.links {
        ws.path(l);
    }
    ws.len(r.marks.len());
    for (m, plain) in &r.marks {
        ws.path(m);
        ws.u8(u8::from(*plain));
    }
    ws.0
}

/// Records are read and decoded in batches of about this many bytes. The two batch buffers are
/// fresh pages faulted in once each; a quarter of a megabyte keeps a core busy decoding (two
/// hundred records or so) while the next batch is read.
const BATCH_BYTES: usize = 1 << 18;

/// The index body (all but the checksum) as it is read: what is left of it, and the hash of what
/// was read so far.
struct Body<Rd> {
    rd: Rd,
    left: u64,
    hasher: Crc32,
}

impl<Rd: Read> Body<Rd> {
    /// Fills `buf` from the body; `None` past its end or on a read error.
    fn fill(&mut self, buf: &mut [u8]) -> Option<()> {
        self.fill_unhashed(buf)?;
        self.hasher.add(buf);
        Some(())
    }

    /// [`Body::fill`] without hashing: the caller hashes what it read, in order, before it
    /// reads more through [`Body::fill`].
    fn fill_unhashed(&mut self, buf: &mut [u8]) -> Option<()> {
        let n = buf.len() as u64;
        if n > self.left {
            return None;
        }
        self.rd.read_exact(buf).ok()?;
        self.left -= n;
        Some(())
    }

    /// Appends the next `n` bytes of the body to `buf` without hashing them, read straight
    /// into its spare room (nothing is zeroed first); `None` past the body's end or on a read
    /// error.
    fn append_unhashed(&mut self, buf: &mut Vec<u8>, n: usize) -> Option<()> {
        if n as u64 > self.left {
            return None;
        }
        buf.reserve(n);
        let start = buf.len();
        Read::take(&mut self.rd, n as u64).read_to_end(buf).ok()?;
        if buf.len() - start != n {
            return None;
        }
        self.left -= n as u64;
        Some(())
    }

    /// The next `n` bytes, allocated only when the body still holds them.
    fn bytes(&mut self, n: usize) -> Option<Vec<u8>> {
        let mut v = Vec::new();
        self.append_unhashed(&mut v, n)?;
        self.hasher.add(&v);
        Some(v)
    }

    fn u32(&mut self) -> Option<u32> {
        let mut b = [0; 4];
        self.fill(&mut b)?;
        Some(u32::from_le_bytes(b))
    }
}

/// Skill records read whole, one after another, each with its length before it as in the file;
/// `spans` says where each record is.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Batch {
    /// Reads records until the batch holds `size` bytes or `left` is down to 0. The batch is
    /// summed whole once read: a record is a kilobyte or so, and a sum fed one record at a time
    /// does more work per byte than one fed the whole batch.
    /// The buffers of `reuse` (a batch already decoded) are filled again: a new megabyte per
    /// batch would be new pages to fault in and clear each time.
    fn read<Rd: Read>(
        body: &mut Body<Rd>,
        left: &mut usize,
        size: usize,
        reuse: Batch,
    ) -> Option<Batch> {
        let mut batch = reuse;
        batch.bytes.clear();
        batch.spans.clear();
        batch.bytes.reserve(size.min(BATCH_BYTES) + 64 * 1024);
        while *left > 0 && batch.bytes.len() < size {
            let mut prefix = [0u8; 4];
            body.fill_unhashed(&mut prefix)?;
            batch.bytes.extend_from_slice(&prefix);
            let len = u32::from_le_bytes(prefix) as usize;
            let start = batch.bytes.len();
            body.append_unhashed(&mut batch.bytes, len)?;
            batch.spans.push((start, batch.bytes.len()));
            *left -= 1;
        }
        body.hasher.add(&batch.bytes);
        Some(batch)
    }

    fn decode(&self) -> Option<Vec<(Vec<u8>, Box<SkillRecord>)>> {
        self.spans
            .par_iter()
            .map(|&(a, b)| skill_record_from(&mut R(&self.bytes[a..b])))
            .collect()
    }
}

/// `n` skill records, each batch (of about `size` bytes) decoded while the next is read.
fn read_records<Rd: Read + Send>(
    body: &mut Body<Rd>,
    n: usize,
    size: usize,
) -> Option<Vec<(Vec<u8>, Box<SkillRecord>)>> {
    let mut out = Vec::with_capacity(n);
    let mut left = n;
    let mut batch = Batch::read(body, &mut left, size, Batch::default())?;
    // Two buffers in turn: one decoded while the other is filled.
    let mut spare = Batch::default();
    loop {
        let more = left > 0;
        let (decoded, next) = rayon::join(
            || batch.decode(),
            || more.then(|| Batch::read(body, &mut left, size, std::mem::take(&mut spare))),
        );
        out.extend(decoded?);
        match next {
            Some(next) => spare = std::mem::replace(&mut batch, next?),
            None => return Some(out),
        }
    }
}

/// Decodes an index file of `len` bytes from `rd`. The checksum is verified once everything
/// before it was read (hashed as it came); a mismatch, or a file that does not end where its
/// stat said, throws the result away. Decoding is safe on any bytes: every count is checked
/// against what is left before anything is allocated for it.
pub(super) fn decode_from(rd: impl Read + Send, len: u64) -> Option<IndexData> {
    decode_batched(rd, len, BATCH_BYTES)
}

/// [`decode_from`] with records read in batches of about `batch` bytes.
pub(super) fn decode_batched(rd: impl Read + Send, len: u64, batch: usize) -> Option<IndexData> {
    let mut body = Body {
        rd: std::io::BufReader::with_capacity(256 * 1024, rd),
        left: len.checked_sub(SUM_BYTES)?,
        hasher: Crc32::default(),
    };
    let mut head = [0u8; 12];
    body.fill(&mut head)?;
    if head[..8] != MAGIC[..] || head[8..] != VERSION.to_le_bytes() {
        return None;
    }
    let walk_len = body.u32()? as usize;
    let walk_bytes = std::sync::Arc::new(body.bytes(walk_len)?);
    let n = body.u32()? as usize;
    if (n as u64).saturating_mul(40) > body.left {
        return None;
    }
    let (walks, records) = rayon::join(
        || decode_walks(&walk_bytes),
        || read_records(&mut body, n, batch),
    );
    drop(walk_bytes);
    let rest = body.bytes(usize::try_from(body.left).ok()?)?;
    let mut sum = [0u8; SUM_BYTES as usize];
    body.rd.read_exact(&mut sum).ok()?;
    let mut past = [0u8; 1];
    if body.rd.read(&mut past).ok()? != 0 || body.hasher.sum() != sum {
        return None;
    }
    let (walks, walk_spans) = walks?;
    let mut data = IndexData {
        walks,
        walk_spans,
        ..IndexData::default()
    };
    data.skills.reserve(n);
    data.skills.extend(records?);
    let mut r = R(&rest);
    let nr = r.len(36)?;
    for _ in 0..nr {
        let key: [u8; 32] = r.take(32)?.try_into().ok()?;
        let n = r.len(20)?;
        let mut found = Vec::with_capacity(n);
        for _ in 0..n {
            let i = usize::try_from(r.u64()?).ok()?;
            let mut d = r.diags()?;
            if d.len() != 1 {
                return None;
            }
            found.push((i, d.pop()?));
        }
        data.remembered.push((key, found));
    }
    let nt = r.len(37)?;
    for _ in 0..nt {
        let hash: [u8; 32] = r.take(32)?.try_into().ok()?;
        data.texts.push((hash, r.u8()?, r.u32()?));
    }
    r.0.is_empty().then_some(data)
}

/// Decodes a whole index file held in memory.
#[cfg(test)]
pub(super) fn decode(bytes: &[u8]) -> Option<IndexData> {
    decode_from(bytes, bytes.len() as u64)
}

/// Where the walk section starts in an index file: after the magic, the version and its length.
const WALKS_AT: u64 = (MAGIC.len() + 4 + 4) as u64;

/// The walk records, and where each one's bytes are in the file (offset, length).
type Walks = (Vec<WalkRecord>, Vec<(u64, u64)>);

fn decode_walks(bytes: &std::sync::Arc<Vec<u8>>) -> Option<Walks> {
    let r = &mut R(bytes.as_slice());
    let total = r.0.len();
    let n = r.len(16)?;
    let mut walks = Vec::with_capacity(n);
    let mut spans = Vec::with_capacity(n);
    for _ in 0..n {
        let start = total - r.0.len();
        let path = r.path()?;
        let max_depth = usize::try_from(r.u64()?).ok()?;
        // The folders stay in the section's bytes, checked but not copied: a remembered walk
        // only stats them ([`WalkRecord::folders`]).
        let nd = r.len(24)?;
        let dirs_at = total - r.0.len();
        for _ in 0..nd {
            r.bytes()?;
            r.stamp()?;
        }
        let nf = r.len(8)?;
        let mut found = Vec::with_capacity(nf);
        for _ in 0..nf {
            found.push((r.path()?, r.path()?));
        }
        let problems = r.diags()?;
        let nl = r.len(8)?;
        let mut links = Vec::with_capacity(nl);
        for _ in 0..nl {
            links.push(r.path()?);
        }
        let nm = r.len(9)?;
        let mut marks = Vec::with_capacity(nm);
        for _ in 0..nm {
            marks.push((r.path()?, r.u8()? != 0));
        }
        spans.push((WALKS_AT + start as u64, (total - r.0.len() - start) as u64));
        walks.push(WalkRecord {
            path,
            max_depth,
            dirs: Vec::new(),
            stored_dirs: Some(StoredDirs {
                bytes: std::sync::Arc::clone(bytes),
                at: dirs_at,
                n: nd,
            }),
            found,
            problems,
            links,
            marks,
            stored: None,
        });
    }
    r.0.is_empty().then_some((walks, spans))
}
