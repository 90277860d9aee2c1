//! The library index: what the walk, the frontmatter parser and the body rules derived from each
//! skill folder, kept in the cache folder and trusted only while every file and folder keeps its
//! stat (length, mtime, ctime, inode, device), so that an unchanged library reopens with `stat`
//! calls and one read, without a walk, without YAML and without reading bodies.

use crate::core::files::fsx::FsxError;
use crate::core::files::fsx::path_bytes;
use crate::core::findings::diagnostic::{Diagnostic, RuleId, Severity};
use crate::core::frontmatter::{self, Field, Frontmatter};
use crate::core::skill::{BodyFacts, Link, Skill};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"SKSCLIX\0";
/// Bumped whenever the layout or the meaning of a record changes: an index of another version is
/// foreign and discarded.
const VERSION: u32 = 14;
/// Index files kept in the cache folder, one per set of roots; the least recently written go.
const KEEP_FILES: usize = 8;
/// An index larger than this is not read (a real one for 50,000 skills is a few tens of MB).
const MAX_INDEX_BYTES: u64 = 512 * 1024 * 1024;
/// Deepest frontmatter value nesting read back (the YAML parser stops far earlier).
const MAX_VALUE_DEPTH: usize = 256;

/// A file's or folder's identity as far as the index trusts it: while its stat is unchanged, so
/// are its contents (a folder's mtime and ctime move when an entry is added, removed or renamed).
use crate::core::files::codec::{Reader as R, Writer as W};
use crate::core::files::fsx::Stamp;

/// What the walk of one root found: every folder it read (stamped before it was read), every
/// skill file, and the problems it met.
#[derive(Debug, Clone, Default)]
pub struct WalkRecord {
    /// The root walked.
    pub path: PathBuf,
    /// How deep it was walked.
    pub max_depth: usize,
    /// Every folder read, with its stamp from before it was read.
    pub dirs: Vec<(PathBuf, Stamp)>,
    /// (skill folder, skill file), as the walk found them.
    pub found: Vec<(PathBuf, PathBuf)>,
    /// Problems met on the way.
    pub problems: Vec<Diagnostic>,
    /// Every link the walk met (files and folders), in path order. A link made or removed later
    /// changes its folder's stat, so the record is then walked again.
    pub links: Vec<PathBuf>,
    /// Where the record's bytes are in the index file it was read from (`None` for a fresh walk).
    pub stored: Option<Stored>,
}

impl WalkRecord {
    /// Lets go of what the record holds when its bytes can be copied from the index file it came
    /// from at the next write: at 50,000 skills a walk's folders and skill files are about 18 MB
    /// that nothing needs once the library is read.
    pub fn forget_if_stored(&mut self) {
        if self.stored.is_some() {
            self.dirs = Vec::new();
            self.found = Vec::new();
            self.problems = Vec::new();
            self.links = Vec::new();
        }
    }

    /// Whether the record still holds what the walk found.
    fn whole(&self) -> bool {
        self.stored.is_none() || !self.dirs.is_empty() || !self.found.is_empty()
    }
}

/// An index file as it was opened for reading: held open, so that its bytes stay what they were
/// even after a writer renames a new index over it (every writer writes a new file).
#[derive(Debug)]
pub struct Source {
    file: std::fs::File,
    stamp: Stamp,
}

/// A walk record's bytes in the index file it was read from.
#[derive(Debug, Clone)]
pub struct Stored {
    source: std::sync::Arc<Source>,
    offset: u64,
    len: u64,
}

impl Stored {
    /// Whether the file still has the stat it had when it was read.
    fn unchanged(&self) -> bool {
        self.source
            .file
            .metadata()
            .is_ok_and(|m| Stamp::of(&m) == self.source.stamp)
    }

    /// Copies the record's bytes to `out`, a piece at a time.
    fn copy_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        const PIECE: usize = 256 * 1024;
        let mut buf = vec![0; PIECE.min(usize::try_from(self.len).unwrap_or(PIECE))];
        let (mut at, end) = (self.offset, self.offset + self.len);
        while at < end {
            let n = buf
                .len()
                .min(usize::try_from(end - at).unwrap_or(usize::MAX));
            crate::core::files::fsx::read_exact_at(&self.source.file, &mut buf[..n], at)?;
            out.write_all(&buf[..n])?;
            at += n as u64;
        }
        Ok(())
    }
}

/// One resource as remembered.
#[derive(Debug, Clone, Default)]
pub struct ResourceRecord {
    /// Its path inside the skill folder.
    pub rel: String,
    /// Its stamp when it was read.
    pub stamp: Stamp,
    /// Whether it is text.
    pub text: bool,
    /// Its local links, once a rule read them.
    pub links: Option<Vec<String>>,
    /// Its token count per encoding, when counted.
    pub tokens: [Option<u32>; 2],
}

/// One skill folder as remembered: what reading its skill file gave, its resources, and what the
/// body rules read off its body.
#[derive(Debug, Clone, Default)]
pub struct SkillRecord {
    /// The skill file.
    pub file: PathBuf,
    /// Its stamp when it was read.
    pub stamp: Stamp,
    /// Its frontmatter, as parsed.
    pub frontmatter: Frontmatter,
    /// What reading it found.
    pub parse_diagnostics: Vec<Diagnostic>,
    /// 1-based line where the body starts.
    pub body_line: u32,
    /// Byte offset of the body.
    pub body_offset: u64,
    /// Its resources.
    pub resources: Vec<ResourceRecord>,
    /// What the body rules read off the body, when they did.
    pub body: Option<BodyFacts>,
    /// The body's token count per encoding, up to the body rule's limit (see `tokens::count_up_to`).
    pub body_tokens: [Option<u32>; 2],
    /// The whole skill file's token count per encoding, when counted.
    pub l2_tokens: [Option<u32>; 2],
    /// Its listing entries' counts (see `Facts::l1_tokens`).
    pub l1_tokens: Vec<crate::core::skill::L1Count>,
    /// Its per-skill rules' findings, by the key of what they read (see `Facts::rules`).
    pub rules: Vec<crate::core::skill::RuleFindings>,
}

/// A decoded index file.
#[derive(Debug, Default)]
pub struct IndexData {
    /// The walks, one per root.
    pub walks: Vec<WalkRecord>,
    /// By skill folder (its path's bytes).
    /// Boxed: records move twice on the way to a skill.
    pub skills: FxHashMap<Vec<u8>, Box<SkillRecord>>,
    /// The library-wide rules' last findings (the overlap rule's, the template rule's), each
    /// with the hash of what they were computed from, most recent last.
    pub remembered: Vec<Remembered>,
    /// Counts of texts made from the whole library (listings), by their hash and encoding.
    pub texts: Vec<TextCount>,
    /// Where each walk record's bytes are in the file (offset, length), index-aligned with `walks`.
    pub walk_spans: Vec<(u64, u64)>,
    /// The semantic matcher's vectors, left in the file until it asks ([`read_vectors`]).
    pub vectors: Option<Stored>,
}

/// A remembered count of a text: its blake3 hash, the encoding's id, the count.
pub type TextCount = crate::core::skill::L1Count;

/// At most this many library-wide text counts are kept (listing formats × tiers × modes in use).
pub const TEXTS_KEPT: usize = 32;

/// Library-wide findings (library index, finding) kept with the hash of their inputs.
pub type Remembered = ([u8; 32], Vec<(usize, Diagnostic)>);

/// At most this many sets of library-wide findings are kept (rules × their inputs in use).
pub const REMEMBERED_KEPT: usize = 4;

/// Where index files live, and whether there is one at all.
#[derive(Debug, Clone, Default)]
pub struct IndexStore {
    dir: Option<PathBuf>,
}

impl IndexStore {
    /// No index: every load walks and parses (tests, `--no-cache`).
    pub fn none() -> IndexStore {
        IndexStore { dir: None }
    }

    /// Index files in skillscope's cache folder (`$SKILLSCOPE_CACHE_DIR`, else
    /// `<cache_dir>/skillscope`).
    pub fn open() -> IndexStore {
        IndexStore::in_dir(crate::core::files::paths::cache_root())
    }

    /// The index kept in `dir`.
    pub fn in_dir(dir: impl Into<PathBuf>) -> IndexStore {
        IndexStore {
            dir: Some(dir.into()),
        }
    }

    /// The index file for a set of roots (their paths and the walk's limits, `max_depth` and
    /// `max_entries`, decide what a walk finds; which agent reads a root does not).
    pub fn path_for(
        &self,
        roots: &[PathBuf],
        max_depth: usize,
        max_entries: usize,
    ) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        let mut h = blake3::Hasher::new();
        h.update(&VERSION.to_le_bytes());
        h.update(&(max_depth as u64).to_le_bytes());
        h.update(&(max_entries as u64).to_le_bytes());
        for r in roots {
            let p = path_bytes(r);
            h.update(&(p.len() as u64).to_le_bytes());
            h.update(&p);
        }
        let hex = h.finalize().to_hex();
        Some(dir.join(format!("library-{}.idx", &hex[..16])))
    }
}

/// Reads an index file. A missing file is `Ok(None)`; a corrupt, truncated or foreign one (magic,
/// version, checksum) is `Ok(None)` as well — discarded, never trusted. What is not a regular
/// file (a FIFO, a device, a folder) is not opened for reading at all: it is an error naming it.
///
/// The file is read in batches of records, each decoded on every core while the next is read
/// and hashed, so it is never held whole: at 50,000 skills it is tens of megabytes that would
/// otherwise sit beside the records decoded from it.
pub fn read(path: &Path) -> Result<Option<IndexData>, FsxError> {
    let Some((file, len)) = crate::core::files::fsx::open_regular_up_to(path, MAX_INDEX_BYTES)?
    else {
        return Ok(None);
    };
    // Stamped before it is read: a change while it is read shows at the copy.
    let stamp = file.metadata().map(|m| Stamp::of(&m));
    let (len, vectors) = vector_section(&file, len);
    let Some(mut data) = decode_from(std::io::Read::take(&file, len), len) else {
        return Ok(None);
    };
    // The walks are remembered by their place in this file, held open.
    if let Ok(stamp) = stamp {
        let source = std::sync::Arc::new(Source { file, stamp });
        for (w, &(offset, len)) in data.walks.iter_mut().zip(&data.walk_spans) {
            w.stored = Some(Stored {
                source: std::sync::Arc::clone(&source),
                offset,
                len,
            });
        }
        data.vectors = vectors.map(|(offset, len)| Stored {
            source,
            offset,
            len,
        });
    }
    Ok(Some(data))
}

/// Writes an index file for `walks` and `skills` (temp file + rename, so a reader sees the old
/// index or the new one), then lets go of the oldest index files past [`KEEP_FILES`]. Stamps
/// within the racy window before `taken_ns` (when they were taken) are written as untrusted.
pub fn write<'a>(
    path: &Path,
    walks: &[WalkRecord],
    skills: impl IntoIterator<Item = &'a Skill>,
    remembered: &[Remembered],
    texts: &[TextCount],
    vectors: Option<&Vectors>,
    taken_ns: u128,
) -> std::io::Result<()> {
    // Written as it is encoded, never held whole (tens of megabytes at 50,000 skills); a failure
    // part way leaves the temporary file, which is removed, and the old index. A cache: no
    // fsync, a crash leaves the old file or one whose checksum fails.
    let sync = crate::core::files::paths::Durability::Cache;
    crate::core::files::paths::write_private_with(path, sync, |f| {
        encode_to(f, walks, skills, remembered, texts, taken_ns)?;
        match vectors {
            Some(v) => write_vectors(f, v),
            None => Ok(()),
        }
    })?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    prune(&dir, path);
    Ok(())
}

fn prune(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            n.starts_with("library-") && n.ends_with(".idx")
        })
        .filter_map(|e| {
            let m = e.metadata().ok()?;
            let modified = m.modified().ok()?;
            m.is_file().then(|| (modified, e.path()))
        })
        .collect();
    if files.len() <= KEEP_FILES {
        return;
    }
    files.sort();
    let excess = files.len() - KEEP_FILES;
    for (_, p) in files.into_iter().take(excess) {
        if p != keep {
            let _ = std::fs::remove_file(p);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The semantic matcher's vectors follow the checksummed index as a section of their own: the
// entries (u32 dimension, u32 count, then per entry a 32-byte key and the vector as float16),
// their blake3 hash, then a footer (u64 length of the section with its hash, VECTORS_MAGIC).
// A read of the index leaves the section in the file; it is read only when the semantic matcher
// asks, so the rest of skillscope pays nothing for it.

const VECTORS_MAGIC: &[u8; 8] = b"SKSCVEC\0";
/// Longest vector read back (all-MiniLM-L6-v2 has 384 floats).
const MAX_VECTOR_DIM: usize = 4096;

/// One remembered sentence vector: the key of the text it is the vector of, and the vector.
pub type VectorEntry = ([u8; 32], Vec<f32>);

/// The vectors to write after the index.
#[derive(Debug)]
pub enum Vectors {
    /// As they are in the index file they were read from.
    Copy(Stored),
    /// Read from the section, or made in this run.
    Entries(Vec<VectorEntry>),
}

/// Where the vector section of an index file of `len` bytes is (offset, length with its hash),
/// and the length of the index before it. A file without one is all index.
fn vector_section(file: &std::fs::File, len: u64) -> (u64, Option<(u64, u64)>) {
    let mut footer = [0u8; 16];
    if len < 16 || crate::core::files::fsx::read_exact_at(file, &mut footer, len - 16).is_err() {
        return (len, None);
    }
    if footer[8..] != VECTORS_MAGIC[..] {
        return (len, None);
    }
    let section = u64::from_le_bytes(footer[..8].try_into().unwrap_or_default());
    match (len - 16).checked_sub(section) {
        Some(start) if section >= 32 + 8 => (start, Some((start, section))),
        _ => (len, None),
    }
}

/// The vector section's bytes (with their hash), if its hash is right. The file it was read
/// from is held open: a newer index renamed over it leaves these bytes as they were (though
/// the unlink moves the file's ctime), and the hash vouches for them.
fn section_bytes(stored: &Stored) -> Option<Vec<u8>> {
    if stored.len > MAX_INDEX_BYTES {
        return None;
    }
    let mut bytes = vec![0u8; usize::try_from(stored.len).ok()?];
    crate::core::files::fsx::read_exact_at(&stored.source.file, &mut bytes, stored.offset).ok()?;
    let (body, sum) = bytes.split_at(bytes.len().checked_sub(32)?);
    (blake3::hash(body).as_bytes() == sum).then_some(bytes)
}

/// Reads the vectors an index file holds. `None` when they cannot be read or their hash is
/// wrong: they are then made again.
pub fn read_vectors(stored: &Stored) -> Option<Vec<VectorEntry>> {
    read_vector_section(stored, |key, v| {
        let v = v
            .chunks_exact(2)
            .map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32())
            .collect();
        (key, v)
    })
}

/// The keys of the vectors an index file holds, without widening the vectors themselves (a
/// check needs only to know which texts have one). `None` as for [`read_vectors`].
pub fn read_vector_keys(stored: &Stored) -> Option<Vec<[u8; 32]>> {
    read_vector_section(stored, |key, _| key)
}

/// Each vector of an index file's vector section, its key and its float16 bytes, as `each`
/// makes of them; `None` when the section cannot be read or its hash is wrong.
fn read_vector_section<T>(stored: &Stored, each: impl Fn([u8; 32], &[u8]) -> T) -> Option<Vec<T>> {
    let bytes = section_bytes(stored)?;
    let mut r = R(&bytes[..bytes.len() - 32]);
    let dim = r.u32()? as usize;
    if dim == 0 || dim > MAX_VECTOR_DIM {
        return None;
    }
    let n = r.len(32 + 2 * dim)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let key: [u8; 32] = r.take(32)?.try_into().ok()?;
        out.push(each(key, r.take(2 * dim)?));
    }
    r.0.is_empty().then_some(out)
}

/// Appends the vector section and its footer to an index just written.
fn write_vectors(out: &mut impl Write, vectors: &Vectors) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, out);
    let section = match vectors {
        Vectors::Copy(stored) => {
            let Some(bytes) = section_bytes(stored) else {
                return Ok(());
            };
            out.write_all(&bytes)?;
            stored.len
        }
        Vectors::Entries(entries) => {
            let dim = entries.first().map_or(0, |e| e.1.len());
            let mut w = W(Vec::with_capacity(8 + entries.len() * (32 + 2 * dim)));
            w.u32(u32::try_from(dim).unwrap_or(u32::MAX));
            let kept: Vec<&VectorEntry> = entries.iter().filter(|e| e.1.len() == dim).collect();
            w.len(kept.len());
            for (key, v) in kept {
                w.0.extend_from_slice(key);
                for x in v {
                    w.0.extend_from_slice(&half::f16::from_f32(*x).to_le_bytes());
                }
            }
            let sum = blake3::hash(&w.0);
            w.0.extend_from_slice(sum.as_bytes());
            out.write_all(&w.0)?;
            w.0.len() as u64
        }
    };
    out.write_all(&section.to_le_bytes())?;
    out.write_all(VECTORS_MAGIC)?;
    out.flush()
}

// ---------------------------------------------------------------------------------------------
// The file: MAGIC, u32 VERSION, the walks, the skills, then the blake3 hash of all before it.

/// The index, encoded into `out` as it is made (never held whole: tens of megabytes at 50,000
/// skills).
fn encode_to<'a>(
    out: &mut impl Write,
    walks: &[WalkRecord],
    skills: impl IntoIterator<Item = &'a Skill>,
    remembered: &[Remembered],
    texts: &[TextCount],
    taken_ns: u128,
) -> std::io::Result<()> {
    let mut out = crate::core::files::fsx::Checksummed::new(out);
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
    ws.len(r.dirs.len());
    for (d, s) in &r.dirs {
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
    ws.0
}

/// Records are read and decoded in batches of about this many bytes.
const BATCH_BYTES: usize = 1 << 20;

/// The index body (all but the checksum) as it is read: what is left of it, and the hash of what
/// was read so far.
struct Body<Rd> {
    rd: Rd,
    left: u64,
    hasher: blake3::Hasher,
}

impl<Rd: Read> Body<Rd> {
    /// Fills `buf` from the body; `None` past its end or on a read error.
    fn fill(&mut self, buf: &mut [u8]) -> Option<()> {
        self.fill_unhashed(buf)?;
        self.hasher.update(buf);
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

    /// The next `n` bytes, allocated only when the body still holds them.
    fn bytes(&mut self, n: usize) -> Option<Vec<u8>> {
        if n as u64 > self.left {
            return None;
        }
        let mut v = vec![0; n];
        self.fill(&mut v)?;
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
struct Batch {
    bytes: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Batch {
    /// Reads records until the batch holds `size` bytes or `left` is down to 0. The batch is
    /// hashed whole once read: a record is a kilobyte or so, and blake3 fed one record at a time
    /// compresses one block per step instead of many at once.
    fn read<Rd: Read>(body: &mut Body<Rd>, left: &mut usize, size: usize) -> Option<Batch> {
        let mut batch = Batch {
            bytes: Vec::with_capacity(size.min(BATCH_BYTES) + 64 * 1024),
            spans: Vec::new(),
        };
        while *left > 0 && batch.bytes.len() < size {
            let at = batch.bytes.len();
            batch.bytes.resize(at + 4, 0);
            body.fill_unhashed(&mut batch.bytes[at..])?;
            let len = u32::from_le_bytes(batch.bytes[at..].try_into().ok()?) as usize;
            if len as u64 > body.left {
                return None;
            }
            let start = at + 4;
            batch.bytes.resize(start + len, 0);
            body.fill_unhashed(&mut batch.bytes[start..])?;
            batch.spans.push((start, batch.bytes.len()));
            *left -= 1;
        }
        body.hasher.update(&batch.bytes);
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
    let mut batch = Batch::read(body, &mut left, size)?;
    loop {
        let more = left > 0;
        let (decoded, next) = rayon::join(
            || batch.decode(),
            || more.then(|| Batch::read(body, &mut left, size)),
        );
        out.extend(decoded?);
        match next {
            Some(next) => batch = next?,
            None => return Some(out),
        }
    }
}

/// Decodes an index file of `len` bytes from `rd`. The checksum is verified once everything
/// before it was read (hashed as it came); a mismatch, or a file that does not end where its
/// stat said, throws the result away. Decoding is safe on any bytes: every count is checked
/// against what is left before anything is allocated for it.
fn decode_from(rd: impl Read + Send, len: u64) -> Option<IndexData> {
    decode_batched(rd, len, BATCH_BYTES)
}

/// [`decode_from`] with records read in batches of about `batch` bytes.
fn decode_batched(rd: impl Read + Send, len: u64, batch: usize) -> Option<IndexData> {
    let mut body = Body {
        rd: std::io::BufReader::with_capacity(256 * 1024, rd),
        left: len.checked_sub(32)?,
        hasher: blake3::Hasher::new(),
    };
    let mut head = [0u8; 12];
    body.fill(&mut head)?;
    if head[..8] != MAGIC[..] || head[8..] != VERSION.to_le_bytes() {
        return None;
    }
    let walk_len = body.u32()? as usize;
    let walk_bytes = body.bytes(walk_len)?;
    let n = body.u32()? as usize;
    if (n as u64).saturating_mul(40) > body.left {
        return None;
    }
    let (walks, records) = rayon::join(
        || decode_walks(&mut R(&walk_bytes)),
        || read_records(&mut body, n, batch),
    );
    drop(walk_bytes);
    let rest = body.bytes(usize::try_from(body.left).ok()?)?;
    let mut sum = [0u8; 32];
    body.rd.read_exact(&mut sum).ok()?;
    let mut past = [0u8; 1];
    if body.rd.read(&mut past).ok()? != 0 || body.hasher.finalize().as_bytes() != &sum {
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
fn decode(bytes: &[u8]) -> Option<IndexData> {
    decode_from(bytes, bytes.len() as u64)
}

/// Where the walk section starts in an index file: after the magic, the version and its length.
const WALKS_AT: u64 = (MAGIC.len() + 4 + 4) as u64;

/// The walk records, and where each one's bytes are in the file (offset, length).
type Walks = (Vec<WalkRecord>, Vec<(u64, u64)>);

fn decode_walks(r: &mut R) -> Option<Walks> {
    let total = r.0.len();
    let n = r.len(16)?;
    let mut walks = Vec::with_capacity(n);
    let mut spans = Vec::with_capacity(n);
    for _ in 0..n {
        let start = total - r.0.len();
        let path = r.path()?;
        let max_depth = usize::try_from(r.u64()?).ok()?;
        let nd = r.len(24)?;
        let mut dirs = Vec::with_capacity(nd);
        for _ in 0..nd {
            dirs.push((r.path()?, r.stamp()?));
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
        spans.push((WALKS_AT + start as u64, (total - r.0.len() - start) as u64));
        walks.push(WalkRecord {
            path,
            max_depth,
            dirs,
            found,
            problems,
            links,
            stored: None,
        });
    }
    r.0.is_empty().then_some((walks, spans))
}

/// One skill's record in the index file.
fn skill_record(w: &mut W, s: &Skill, taken_ns: u128) {
    w.path(&s.dir);
    w.path(&s.skill_md);
    w.stamp(&s.stamp.settled(taken_ns));
    w.frontmatter(&s.frontmatter);
    w.diags(&s.parse_diagnostics);
    w.u32(s.body_line);
    w.u64(s.body_offset);
    w.len(s.resources.len());
    for r in &s.resources {
        w.str(&r.rel);
        w.stamp(&r.stamp().settled(taken_ns));
        w.u8(u8::from(r.text));
        match r.links.get() {
            Some(links) => {
                w.u8(1);
                w.strs(links);
            }
            None => w.u8(0),
        }
        for slot in &r.tokens {
            w.opt_u32(slot.get().copied());
        }
    }
    match s.facts.body.get() {
        Some(b) => {
            w.u8(1);
            w.u32(b.lines);
            w.u64(b.bytes);
            w.len(b.links.len());
            for l in &b.links {
                w.str(&l.target);
                w.u32(l.line);
                w.u32(l.column);
            }
        }
        None => w.u8(0),
    }
    for slot in &s.facts.body_tokens {
        w.opt_u32(slot.get().copied());
    }
    for slot in &s.facts.l2_tokens {
        w.opt_u32(slot.get().copied());
    }
    let l1 = s
        .facts
        .l1_tokens
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    w.len(l1.len());
    for (hash, enc, n) in l1.iter() {
        w.0.extend_from_slice(hash);
        w.u8(*enc);
        w.u32(*n);
    }
    drop(l1);
    let rules = s
        .facts
        .rules
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    w.len(rules.len());
    for (key, found) in rules.iter() {
        w.0.extend_from_slice(key);
        w.diags(found);
    }
}

/// One skill's record read back; `None` when it is not whole or holds more.
fn skill_record_from(r: &mut R) -> Option<(Vec<u8>, Box<SkillRecord>)> {
    let dir = r.bytes()?.to_vec();
    let file = r.path()?;
    let stamp = r.stamp()?;
    let frontmatter = r.frontmatter()?;
    let parse_diagnostics = r.diags()?;
    let body_line = r.u32()?;
    let body_offset = r.u64()?;
    let nr = r.len(30)?;
    let mut resources = Vec::with_capacity(nr);
    for _ in 0..nr {
        let rel = r.string()?;
        let stamp = r.stamp()?;
        let text = r.u8()? != 0;
        let links = match r.u8()? {
            0 => None,
            _ => Some(r.strs()?),
        };
        let tokens = [r.opt_u32()?, r.opt_u32()?];
        resources.push(ResourceRecord {
            rel,
            stamp,
            text,
            links,
            tokens,
        });
    }
    let body = if r.u8()? == 0 {
        None
    } else {
        let lines = r.u32()?;
        let bytes = r.u64()?;
        let nl = r.len(12)?;
        let mut links = Vec::with_capacity(nl);
        for _ in 0..nl {
            links.push(Link {
                target: r.string()?,
                line: r.u32()?,
                column: r.u32()?,
            });
        }
        Some(BodyFacts {
            lines,
            bytes,
            links,
        })
    };
    let body_tokens = [r.opt_u32()?, r.opt_u32()?];
    let l2_tokens = [r.opt_u32()?, r.opt_u32()?];
    let n1 = r.len(37)?;
    let mut l1_tokens = Vec::with_capacity(n1);
    for _ in 0..n1 {
        let hash: [u8; 32] = r.take(32)?.try_into().ok()?;
        l1_tokens.push((hash, r.u8()?, r.u32()?));
    }
    let nr = r.len(36)?;
    let mut rules = Vec::with_capacity(nr);
    for _ in 0..nr {
        let key: [u8; 32] = r.take(32)?.try_into().ok()?;
        rules.push((key, r.diags()?));
    }
    let record = (
        dir,
        Box::new(SkillRecord {
            file,
            stamp,
            frontmatter,
            parse_diagnostics,
            body_line,
            body_offset,
            resources,
            body,
            body_tokens,
            l2_tokens,
            l1_tokens,
            rules,
        }),
    );
    r.0.is_empty().then_some(record)
}

/// The index's own records on the shared codec: findings, frontmatters and YAML values.
trait WriteRecords {
    fn diags(&mut self, ds: &[Diagnostic]);
    fn frontmatter(&mut self, fm: &Frontmatter);
    fn value(&mut self, v: &Value);
}

impl WriteRecords for W {
    fn diags(&mut self, ds: &[Diagnostic]) {
        self.len(ds.len());
        for d in ds {
            self.str(d.rule.as_str());
            self.u8(match d.severity {
                Severity::Info => 0,
                Severity::Warning => 1,
                Severity::Error => 2,
            });
            self.str(&d.message);
            match &d.path {
                Some(p) => {
                    self.u8(1);
                    self.path(p);
                }
                None => self.u8(0),
            }
            self.opt_u32(d.line);
            self.opt_u32(d.column);
        }
    }
    fn frontmatter(&mut self, fm: &Frontmatter) {
        self.u8(u8::from(fm.parsed));
        self.len(fm.fields.len());
        for f in &fm.fields {
            self.str(&f.key);
            self.value(&f.value);
            self.u32(f.line);
        }
        self.len(fm.flow_style_lines.len());
        for l in &fm.flow_style_lines {
            self.u32(*l);
        }
        self.u8(fm.description_style.code());
        self.len(fm.opt_outs.len());
        for o in &fm.opt_outs {
            self.u32(o.at);
            self.opt_u32(o.line);
            self.len(o.rules.len());
            for r in &o.rules {
                self.str(r);
            }
        }
    }
    fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.u8(0),
            Value::Bool(false) => self.u8(1),
            Value::Bool(true) => self.u8(2),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    self.u8(3);
                    self.i64(i);
                } else if let Some(u) = n.as_u64() {
                    self.u8(4);
                    self.u64(u);
                } else {
                    self.u8(5);
                    self.u64(n.as_f64().unwrap_or(0.0).to_bits());
                }
            }
            Value::String(s) => {
                self.u8(6);
                self.str(s);
            }
            Value::Array(a) => {
                self.u8(7);
                self.len(a.len());
                for x in a {
                    self.value(x);
                }
            }
            Value::Object(m) => {
                self.u8(8);
                self.len(m.len());
                for (k, x) in m {
                    self.str(k);
                    self.value(x);
                }
            }
        }
    }
}

/// Reads back what [`WriteRecords`] writes; `None` on anything malformed.
trait ReadRecords {
    fn diags(&mut self) -> Option<Vec<Diagnostic>>;
    fn frontmatter(&mut self) -> Option<Frontmatter>;
    fn value(&mut self, depth: usize) -> Option<Value>;
}

impl ReadRecords for R<'_> {
    fn diags(&mut self) -> Option<Vec<Diagnostic>> {
        let n = self.len(16)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let rule = rule_id(std::str::from_utf8(self.bytes()?).ok()?)?;
            let severity = match self.u8()? {
                0 => Severity::Info,
                1 => Severity::Warning,
                2 => Severity::Error,
                _ => return None,
            };
            let message = self.string()?;
            let path = match self.u8()? {
                0 => None,
                _ => Some(self.path()?),
            };
            let line = self.opt_u32()?;
            let column = self.opt_u32()?;
            out.push(Diagnostic {
                rule,
                severity,
                message,
                path,
                line,
                column,
            });
        }
        Some(out)
    }
    fn frontmatter(&mut self) -> Option<Frontmatter> {
        let parsed = self.u8()? != 0;
        let n = self.len(10)?;
        let mut fields = Vec::with_capacity(n);
        for _ in 0..n {
            fields.push(Field {
                key: self.string()?,
                value: self.value(0)?,
                line: self.u32()?,
            });
        }
        let n = self.len(4)?;
        let flow_style_lines = (0..n).map(|_| self.u32()).collect::<Option<Vec<_>>>()?;
        let style = frontmatter::ScalarStyle::from_code(self.u8()?)?;
        let mut fm = frontmatter::from_fields(parsed, fields, flow_style_lines, style);
        let n = self.len(9)?;
        for _ in 0..n {
            let at = self.u32()?;
            let line = self.opt_u32()?;
            let k = self.len(4)?;
            let rules = (0..k).map(|_| self.string()).collect::<Option<Vec<_>>>()?;
            fm.opt_outs.push(frontmatter::OptOut { at, line, rules });
        }
        Some(fm)
    }
    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_VALUE_DEPTH {
            return None;
        }
        Some(match self.u8()? {
            0 => Value::Null,
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => Value::from(self.i64()?),
            4 => Value::from(self.u64()?),
            5 => serde_json::Number::from_f64(f64::from_bits(self.u64()?))
                .map_or(Value::Null, Value::Number),
            6 => Value::String(self.string()?),
            7 => {
                let n = self.len(1)?;
                let mut a = Vec::with_capacity(n);
                for _ in 0..n {
                    a.push(self.value(depth + 1)?);
                }
                Value::Array(a)
            }
            8 => {
                let n = self.len(5)?;
                let mut m = serde_json::Map::with_capacity(n);
                for _ in 0..n {
                    let k = self.string()?;
                    let v = self.value(depth + 1)?;
                    m.insert(k, v);
                }
                Value::Object(m)
            }
            _ => return None,
        })
    }
}

/// The rule id for a name read back: one the catalogue does not list comes from another build,
/// and the whole index is then discarded.
fn rule_id(name: &str) -> Option<RuleId> {
    name.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::library::Library;
    use crate::core::rules::{self, CheckOptions};
    use crate::core::scan::{
        DEFAULT_MAX_DEPTH as DEPTH, DEFAULT_MAX_ENTRIES as ENTRIES, ScanOptions,
    };
    use crate::core::skill::{KindSource, SkillKind};
    use crate::core::source::{Agent, Root, Scope};
    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt;
    use std::time::{Duration, SystemTime};

    fn write(p: &Path, s: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    }

    /// Dates every file and folder under `root` an hour back: stamps of the last seconds are not
    /// trusted (another write in the same tick would not show).
    fn backdate(root: &Path) {
        let then = SystemTime::now() - Duration::from_hours(1);
        let mut stack = vec![root.to_path_buf()];
        while let Some(p) = stack.pop() {
            if p.is_dir() {
                for e in std::fs::read_dir(&p).unwrap() {
                    stack.push(e.unwrap().path());
                }
            }
            std::fs::File::open(&p).unwrap().set_modified(then).unwrap();
        }
    }

    #[test]
    fn vectors_follow_the_index_are_read_only_when_asked_and_a_bad_section_is_dropped() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("lib");
        write(
            &root.join("a/SKILL.md"),
            "---\nname: a\ndescription: A.\n---\n",
        );
        backdate(&root);
        let store = IndexStore::in_dir(t.path().join("cache"));
        let roots = || vec![Root::new(&root, Agent::Path, Scope::Path)];
        let load = || Library::load_indexed(roots(), &ScanOptions::default(), &store).0;
        let lib = load();
        assert!(lib.remembered_vectors().is_empty());
        let v: Vec<f32> = (0..384).map(|i| (i as f32 - 192.0) / 400.0).collect();
        lib.remember_vectors(vec![([7; 32], v.clone()), ([9; 32], vec![0.25; 384])]);
        assert!(lib.save_index().is_none());
        // An index with vectors behind it reads as one without: the walks and skills come back.
        let lib = load();
        assert!(lib.from_index());
        // Their keys alone, read from the file without the vectors.
        let keys = lib.remembered_vector_keys();
        assert_eq!(keys, [[7; 32], [9; 32]].into_iter().collect());
        let got = lib.remembered_vectors();
        assert_eq!(got.len(), 2);
        assert_eq!(lib.remembered_vector_keys(), keys);
        let back = &got[&[7; 32]];
        assert!(
            back.iter().zip(&v).all(|(a, b)| (a - b).abs() < 1e-3),
            "{back:?}"
        );
        // Saved again without being changed, they are copied along.
        lib.index_changed();
        assert!(lib.save_index().is_none());
        let path = store
            .path_for(std::slice::from_ref(&root), DEPTH, ENTRIES)
            .unwrap();
        assert_eq!(load().remembered_vectors().len(), 2);
        // A flipped byte in the section: the vectors are gone, the index is still used.
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 16 - 32 - 10;
        bytes[at] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let lib = load();
        assert!(lib.from_index());
        assert!(lib.remembered_vector_keys().is_empty());
        assert!(lib.remembered_vectors().is_empty());
    }

    #[test]
    fn linked_and_plain_folders_are_located_alike_when_walked_and_when_remembered() {
        use crate::core::listing::{Format, entry};
        use crate::core::source::path_roots;
        let write_skill = |root: &Path, dir: &str, fm: &str| {
            write(
                &root.join(dir).join("SKILL.md"),
                &format!("---\n{fm}---\nBody.\n"),
            );
        };
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("root");
        let elsewhere = t.path().join("elsewhere");
        write_skill(&root, "plain", "name: plain\ndescription: Plain.\n");
        write_skill(
            &elsewhere.join("deep"),
            "far",
            "name: far\ndescription: Far.\n",
        );
        std::fs::create_dir_all(root.join("ns")).unwrap();
        // A linked folder holding a skill, and a skill folder that is itself a link.
        crate::core::files::fsx::test_link(elsewhere.join("deep"), root.join("ns/via")).unwrap();
        write_skill(&elsewhere, "own", "name: own\ndescription: Own.\n");
        crate::core::files::fsx::test_link(elsewhere.join("own"), root.join("own")).unwrap();
        backdate(&root);
        backdate(&elsewhere);
        let store = IndexStore::in_dir(t.path().join("cache"));
        let real = |p: PathBuf| -> PathBuf { std::fs::canonicalize(p).unwrap().join("SKILL.md") };
        let want = [
            real(root.join("ns/via/far")),
            real(elsewhere.join("own")),
            real(root.join("plain")),
        ];
        for pass in ["walked", "remembered"] {
            let (lib, stats) = Library::load_indexed(
                path_roots(std::slice::from_ref(&root)),
                &ScanOptions::default(),
                &store,
            );
            assert_eq!(stats.roots_walked, usize::from(pass == "walked"), "{pass}");
            lib.save_index();
            let mut got: Vec<(String, bool, String)> = lib
                .skills
                .iter()
                .map(|s| {
                    let e = entry(s, Format::Xml);
                    let loc = e.split("<location>\n").nth(1).unwrap().split('\n').next();
                    (s.name.clone(), s.plain, loc.unwrap().to_string())
                })
                .collect();
            got.sort();
            let names: Vec<(&str, bool)> = got.iter().map(|(n, p, _)| (n.as_str(), *p)).collect();
            assert_eq!(
                names,
                [("far", false), ("own", false), ("plain", true)],
                "{pass}"
            );
            let locs: Vec<PathBuf> = got.iter().map(|(_, _, l)| PathBuf::from(l)).collect();
            assert_eq!(locs, want, "{pass}");
        }
    }

    fn library(root: &Path) {
        for (name, extra) in [
            ("alpha", ""),
            ("beta", "[guide](references/guide.md)"),
            ("gamma", ""),
        ] {
            write(
                &root.join(format!("{name}/SKILL.md")),
                &format!(
                    "---\nname: {name}\ndescription: Does {name} things. Use when {name} is asked for.\n---\n# {name}\n{extra}\n[missing](nowhere.md)\n"
                ),
            );
        }
        write(
            &root.join("beta/references/guide.md"),
            "# Guide\nSee [more](more.md).\n",
        );
        write(&root.join("beta/references/more.md"), "# More\n");
        write(&root.join("beta/assets/logo.png"), "\u{89}PNG\0\0");
        write(&root.join("README.md"), "not a skill\n");
        backdate(root);
    }

    fn load(root: &Path, cache: &Path) -> (Library, crate::core::library::LoadStats) {
        Library::load_indexed(
            vec![Root::new(root, Agent::Path, Scope::Path)],
            &ScanOptions::default(),
            &IndexStore::in_dir(cache),
        )
    }

    /// Everything a scan hands on, in a comparable form.
    fn summary(lib: &Library) -> Vec<String> {
        lib.skills
            .iter()
            .map(|s| {
                format!(
                    "{} {:?} {:?} {:?} {:?} {}",
                    s.name,
                    s.frontmatter.fields,
                    s.parse_diagnostics,
                    s.resources
                        .iter()
                        .map(|r| (&r.rel, r.size, r.text))
                        .collect::<Vec<_>>(),
                    s.stamp,
                    s.body_line
                )
            })
            .collect()
    }

    fn body_check(lib: &Library) -> Vec<Vec<Diagnostic>> {
        rules::check_library(
            lib,
            &CheckOptions {
                per_agent: false,
                body: true,
                ..CheckOptions::default()
            },
        )
    }

    #[test]
    fn a_remembered_walk_is_copied_from_its_file_when_the_index_is_written_again() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let _ = load(&root, &cache);
        let (warm, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
        // Something new to keep: the index is written again, its walk copied from the file read.
        warm.remember_text_count([7; 32], 1, 42);
        assert!(warm.save_index().is_none());
        let (again, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
        assert_eq!(summary(&again), summary(&warm));
        assert_eq!(again.text_count(&[7; 32], 1), Some(42));
        // And once more, from the file written by the copy.
        again.remember_text_count([8; 32], 1, 43);
        assert!(again.save_index().is_none());
        let (third, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
        assert_eq!(summary(&third), summary(&warm));
    }

    #[test]
    fn a_walk_whose_index_file_changed_under_it_is_left_out_and_walked_again() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let (first, _) = load(&root, &cache);
        let (warm, _) = load(&root, &cache);
        let path = IndexStore::in_dir(&cache)
            .path_for(std::slice::from_ref(&root), DEPTH, ENTRIES)
            .unwrap();
        // Written in place (no writer of ours does): the walk's bytes can no longer be trusted.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"x")
            .unwrap();
        warm.remember_text_count([7; 32], 1, 42);
        assert!(warm.save_index().is_none());
        let (again, stats) = load(&root, &cache);
        assert_eq!(stats.roots_walked, 1, "the root is walked again");
        assert_eq!(stats.skills_parsed, 0, "its skills' records are still good");
        assert_eq!(summary(&again), summary(&first));
        assert_eq!(again.text_count(&[7; 32], 1), Some(42));
    }

    #[test]
    fn an_unchanged_library_is_neither_walked_nor_parsed_and_reads_the_same() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let (first, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (1, 3));
        let (second, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
        assert_eq!(summary(&first), summary(&second));
        let plain = Library::load(
            vec![Root::new(&root, Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        assert_eq!(summary(&plain), summary(&second));
        let beta = &second.skills[second.find("beta").unwrap()];
        let rels: Vec<(&str, bool)> = beta
            .resources
            .iter()
            .map(|r| (r.rel.as_str(), r.text))
            .collect();
        assert_eq!(
            rels,
            vec![
                ("assets/logo.png", false),
                ("references/guide.md", true),
                ("references/more.md", true)
            ]
        );
    }

    /// What a skill's place and its neighbours decide, for comparing loads.
    fn placed(lib: &Library) -> Vec<String> {
        lib.skills
            .iter()
            .map(|s| {
                format!(
                    "{} {} {} {} {:?} {:?} {:?}",
                    s.id,
                    s.namespace,
                    s.plugin,
                    s.name,
                    s.kind(),
                    s.frontmatter.kind_source,
                    s.shadowed_by
                )
            })
            .collect()
    }

    #[test]
    fn namespaced_ids_and_kinds_are_the_same_from_the_index_and_from_a_scan() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        let skill = |rel: &str, name: &str, extra: &str| {
            write(
                &root.join(rel).join("SKILL.md"),
                &format!(
                    "---\nname: {name}\ndescription: Does {name} things.\n{extra}---\nBody.\n"
                ),
            );
        };
        skill("web/scraper", "scraper", "");
        skill("data/scraper", "scraper", "");
        skill("pdf", "pdf", "");
        skill("tools/run", "run", "");
        write(&root.join("tools/run/execute.py"), "print('hi')\n");
        skill("tools/entry", "entry", "entry: main.sh\n");
        skill("tools/typed", "typed", "type: composite\n");
        write(&root.join("tools/typed/execute.py"), "print('hi')\n");
        let plugin = root.join("plugins/doc-kit");
        write(
            &plugin.join(".claude-plugin/plugin.json"),
            r#"{"name": "docs"}"#,
        );
        skill("plugins/doc-kit/skills/pdf", "pdf", "");
        backdate(&root);
        let scanned = || {
            Library::load(
                vec![Root::new(&root, Agent::Path, Scope::Path)],
                &ScanOptions::default(),
            )
        };
        let (cold, stats) = load(&root, &cache);
        assert_eq!(stats.skills_parsed, 7);
        let (warm, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
        assert_eq!(placed(&warm), placed(&cold));
        assert_eq!(placed(&warm), placed(&scanned()));
        let ids: Vec<&str> = warm.skills.iter().map(|s| s.id.as_str()).collect();
        for id in [
            "web.scraper",
            "data.scraper",
            "pdf",
            "docs:pdf",
            "tools.run",
        ] {
            assert!(ids.contains(&id), "{id} in {ids:?}");
        }
        let run = &warm.skills[warm
            .skills
            .iter()
            .position(|s| s.id == "tools.run")
            .unwrap()];
        assert_eq!(run.frontmatter.kind_source, KindSource::EntryScript);
        // What lies beside the skill file changes with the skill file untouched: the plugin is
        // renamed in its manifest and the entry script goes. Neither skill is read again, and
        // both show the change.
        write(
            &plugin.join(".claude-plugin/plugin.json"),
            r#"{"name": "papers"}"#,
        );
        std::fs::remove_file(root.join("tools/run/execute.py")).unwrap();
        let (warm, stats) = load(&root, &cache);
        assert_eq!(stats.skills_parsed, 0);
        assert_eq!(placed(&warm), placed(&scanned()));
        let ids: Vec<&str> = warm.skills.iter().map(|s| s.id.as_str()).collect();
        assert!(ids.contains(&"papers:pdf"), "{ids:?}");
        let run = &warm.skills[warm
            .skills
            .iter()
            .position(|s| s.id == "tools.run")
            .unwrap()];
        assert_eq!(run.frontmatter.kind_source, KindSource::Default);
    }

    #[test]
    fn counts_kept_in_the_index_are_used_while_their_files_keep_their_stat() {
        use crate::core::listing::{self, Format};
        use crate::core::tokens::{self, Encoding, TokenCache};
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let count = |lib: &Library, tokens: &TokenCache| {
            let texts = listing::entries(lib, Format::Xml);
            let got = tokens::count_library(lib, &texts, Encoding::O200kBase, tokens);
            assert!(lib.save_index().is_none());
            got
        };
        let (cold, _) = load(&root, &cache);
        let first = TokenCache::in_memory();
        let want = count(&cold, &first);
        assert!(first.files_read() > 0 && first.encoded() > 0);
        // A new process, with no token cache at all: every level comes from the index.
        let (warm, stats) = load(&root, &cache);
        assert_eq!(stats.skills_parsed, 0);
        let empty = TokenCache::in_memory();
        assert_eq!(count(&warm, &empty), want);
        assert_eq!((empty.files_read(), empty.encoded()), (0, 0));
        // A resource that changed is read and counted again; the rest still come from the index.
        let guide = root.join("beta/references/guide.md");
        write(
            &guide,
            "# Guide\nSee [more](more.md), and more words now.\n",
        );
        std::fs::File::open(&guide)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_mins(1))
            .unwrap();
        let (changed, stats) = load(&root, &cache);
        assert_eq!(stats.skills_parsed, 0);
        let empty = TokenCache::in_memory();
        let got = count(&changed, &empty);
        assert_eq!((empty.files_read(), empty.encoded()), (1, 1));
        let beta = changed
            .skills
            .iter()
            .position(|s| s.name == "beta")
            .unwrap();
        assert!(
            got[beta].l3 > want[beta].l3,
            "{:?} vs {:?}",
            got[beta],
            want[beta]
        );
        assert_eq!(got[beta].l2, want[beta].l2);
        assert_eq!(got[beta].l1, want[beta].l1);
    }

    #[test]
    fn only_an_entry_script_inside_the_folder_makes_a_skill_executable_warm_or_cold() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        let skill = |rel: &str| {
            write(
                &root.join(rel).join("SKILL.md"),
                &format!("---\nname: {rel}\ndescription: Does {rel} things.\n---\nBody.\n"),
            );
        };
        skill("inside");
        write(&root.join("inside/run.py"), "print('hi')\n");
        crate::core::files::fsx::test_link("run.py", root.join("inside/execute.py")).unwrap();
        skill("outside");
        write(&t.path().join("elsewhere/execute.py"), "print('hi')\n");
        crate::core::files::fsx::test_link(
            t.path().join("elsewhere/execute.py"),
            root.join("outside/execute.py"),
        )
        .unwrap();
        skill("folder");
        std::fs::create_dir_all(root.join("folder/execute.py")).unwrap();
        backdate(&root);
        let kinds = |lib: &Library| -> Vec<(String, SkillKind)> {
            lib.skills
                .iter()
                .map(|s| (s.name.clone(), s.kind()))
                .collect()
        };
        let (cold, _) = load(&root, &cache);
        let (warm, stats) = load(&root, &cache);
        assert_eq!(stats.skills_parsed, 0);
        assert_eq!(kinds(&warm), kinds(&cold));
        let mut k = kinds(&warm);
        k.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            k,
            vec![
                ("folder".to_string(), SkillKind::Contextual),
                ("inside".to_string(), SkillKind::Executable),
                ("outside".to_string(), SkillKind::Contextual),
            ]
        );
    }

    #[test]
    fn links_out_of_the_skill_folder_are_not_resources_warm_or_cold() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let outside = t.path().join("outside");
        write(&outside.join("secret.md"), "secret\n");
        let beta = root.join("beta");
        crate::core::files::fsx::test_link(outside.join("secret.md"), beta.join("leak.md"))
            .unwrap();
        crate::core::files::fsx::test_link(&outside, beta.join("shared")).unwrap();
        crate::core::files::fsx::test_link("references/more.md", beta.join("more-link.md"))
            .unwrap();
        backdate(&root);
        let rels = |lib: &Library| -> Vec<String> {
            lib.skills[lib.find("beta").unwrap()]
                .resources
                .iter()
                .map(|r| r.rel.clone())
                .collect()
        };
        let want = vec![
            "assets/logo.png",
            "more-link.md",
            "references/guide.md",
            "references/more.md",
        ];
        let (cold, _) = load(&root, &cache);
        assert_eq!(rels(&cold), want);
        let (warm, stats) = load(&root, &cache);
        assert_eq!(stats.roots_walked, 0);
        assert_eq!(rels(&warm), want);
        // Past the walk's depth limit the folder is read by the look below it: same rule.
        let shallow = ScanOptions {
            max_depth: 1,
            ..ScanOptions::default()
        };
        let lib = Library::load(vec![Root::new(&root, Agent::Path, Scope::Path)], &shallow);
        assert_eq!(rels(&lib), want);
    }

    #[test]
    fn a_changed_file_rereads_exactly_its_skill() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        load(&root, &cache);
        // New contents, same folder listing: no walk, one skill read again.
        write(
            &root.join("gamma/SKILL.md"),
            "---\nname: gamma-two\ndescription: Changed. Use when testing.\n---\n",
        );
        let (lib, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 1));
        assert!(lib.find("gamma-two").is_some());
        // A new resource changes its folder: the root is walked again, but no skill file is read.
        backdate(&root);
        load(&root, &cache);
        write(&root.join("alpha/scripts/run.sh"), "echo hi\n");
        let (lib, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (1, 0));
        let alpha = &lib.skills[lib.find("alpha").unwrap()];
        assert_eq!(alpha.resources.len(), 1);
        // A new skill: walked, and only it is read.
        backdate(&root);
        load(&root, &cache);
        write(
            &root.join("delta/SKILL.md"),
            "---\nname: delta\ndescription: d\n---\n",
        );
        let (lib, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (1, 1));
        assert_eq!(lib.len(), 4);
    }

    #[test]
    fn body_facts_are_kept_while_the_file_keeps_its_stat() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let (lib, _) = load(&root, &cache);
        let found = |d: &[Vec<Diagnostic>], lib: &Library, name: &str| -> Vec<&'static str> {
            d[lib.find(name).unwrap()]
                .iter()
                .map(|d| d.rule.as_str())
                .collect()
        };
        let d = body_check(&lib);
        assert!(found(&d, &lib, "beta").contains(&"body-broken-link"));
        assert!(found(&d, &lib, "beta").contains(&"body-nested-reference"));
        assert!(lib.save_index().is_none());
        // Unchanged: the index vouches for the old body, so the rules answer from what they read
        // before (the file is not read again).
        let (lib, stats) = load(&root, &cache);
        assert_eq!(stats.skills_parsed, 0);
        let beta = &lib.skills[lib.find("beta").unwrap()];
        assert!(beta.facts.body.get().is_some());
        assert!(beta.resources.iter().any(|r| r.links.get().is_some()));
        let d = body_check(&lib);
        let msgs: Vec<&str> = d[lib.find("beta").unwrap()]
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert!(msgs.iter().any(|m| m.contains("`nowhere.md`")), "{msgs:?}");
        // Edited in place to the same length, its mtime put back (`cp -p`, `touch -r`): the
        // length, mtime and inode are as they were, the ctime is not, and the body is read again.
        let skill_md = root.join("beta/SKILL.md");
        let before = std::fs::metadata(&skill_md).unwrap();
        let text = std::fs::read_to_string(&skill_md).unwrap();
        let mut f = std::fs::File::options()
            .write(true)
            .open(&skill_md)
            .unwrap();
        f.write_all(text.replace("nowhere", "xxxxxxx").as_bytes())
            .unwrap();
        loop {
            f.set_modified(before.modified().unwrap()).unwrap();
            let after = Stamp::of(&std::fs::metadata(&skill_md).unwrap());
            let before = Stamp::of(&before);
            assert_eq!(
                (after.len, after.mtime_ns, after.ino),
                (before.len, before.mtime_ns, before.ino)
            );
            if after.ctime_ns != before.ctime_ns {
                break;
            }
            // A coarse clock: the next tick moves it.
            std::thread::sleep(Duration::from_millis(10));
        }
        let (lib, stats) = load(&root, &cache);
        assert_eq!(stats.skills_parsed, 1);
        let d = body_check(&lib);
        let msgs: Vec<&str> = d[lib.find("beta").unwrap()]
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert!(msgs.iter().any(|m| m.contains("`xxxxxxx.md`")), "{msgs:?}");
    }

    #[test]
    fn an_index_that_could_not_be_written_is_written_by_the_next_save() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let (lib, _) = load(&root, &cache);
        assert!(lib.save_index().is_none());
        // Something new to keep (the body rules' findings), and the cache folder gone, a file
        // in its place.
        body_check(&lib);
        std::fs::remove_dir_all(&cache).unwrap();
        std::fs::write(&cache, "not a folder").unwrap();
        assert!(lib.save_index().is_some());
        std::fs::remove_file(&cache).unwrap();
        assert!(lib.save_index().is_none());
        let (lib, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
        let beta = &lib.skills[lib.find("beta").unwrap()];
        assert!(
            beta.facts.body.get().is_some(),
            "the body facts were written"
        );
    }

    #[test]
    fn links_read_off_a_resource_taken_by_name_are_kept_only_while_it_keeps_its_stamp() {
        use crate::core::scan::Resources;
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let load_as = |resources| {
            Library::load_indexed(
                vec![Root::new(&root, Agent::Path, Scope::Path)],
                &ScanOptions {
                    resources,
                    ..ScanOptions::default()
                },
                &IndexStore::in_dir(&cache),
            )
        };
        let links_of = |lib: &Library, rel: &str| {
            let beta = &lib.skills[lib.find("beta").unwrap()];
            let r = beta.resources.iter().find(|r| r.rel == rel).unwrap();
            (r.fresh, r.links.get().cloned())
        };
        // An index with no links remembered (no rule ran), then loads by name.
        let (lib, _) = load_as(Resources::Stat);
        assert!(lib.save_index().is_none());
        let (lib, _) = load_as(Resources::Names);
        body_check(&lib);
        // Unchanged: stat'ed when its links were wanted, and they are kept.
        assert_eq!(
            links_of(&lib, "references/guide.md"),
            (false, Some(vec!["more.md".to_string()]))
        );
        // Changed in place (no folder changes): read, but not kept under the old stamp.
        let guide = root.join("beta/references/guide.md");
        let (lib, _) = load_as(Resources::Stat);
        assert!(lib.save_index().is_none());
        write(&guide, "# Guide\nSee [other](other.md).\n");
        let (lib, stats) = load_as(Resources::Names);
        assert_eq!(stats.roots_walked, 0);
        body_check(&lib);
        assert_eq!(links_of(&lib, "references/guide.md"), (false, None));
    }

    #[test]
    fn resources_taken_by_name_keep_what_the_index_remembers_and_their_links_stay_current() {
        use crate::core::resource::Resource;
        use crate::core::scan::Resources;
        // At the default depth the walker meets every file; at depth 1 the resources are found
        // by the look below its limit, which must report its links the same way.
        for max_depth in [ScanOptions::default().max_depth, 1] {
            let t = tempfile::tempdir().unwrap();
            let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
            library(&root);
            // A file that is a link, linked from gamma's body (not markdown, so no links of its own
            // are read), to a file in its `node_modules`, which the walk does not enter: when that
            // file goes, no folder the walk stamped changes.
            let far = root.join("gamma/node_modules/real.json");
            write(&far, "{}\n");
            std::fs::create_dir_all(root.join("gamma/references")).unwrap();
            crate::core::files::fsx::test_link(
                "../node_modules/real.json",
                root.join("gamma/references/far.json"),
            )
            .unwrap();
            write(
                &root.join("gamma/SKILL.md"),
                "---\nname: gamma\ndescription: Does gamma things. Use when gamma is asked for.\n---\n[far](references/far.json)\n",
            );
            backdate(&root);
            let load_as = |resources| {
                Library::load_indexed(
                    vec![Root::new(&root, Agent::Path, Scope::Path)],
                    &ScanOptions {
                        max_depth,
                        resources,
                        ..ScanOptions::default()
                    },
                    &IndexStore::in_dir(&cache),
                )
            };
            let rules_of = |lib: &Library, name: &str| -> Vec<String> {
                body_check(lib)[lib.find(name).unwrap()]
                    .iter()
                    .map(|d| format!("{} {}", d.rule.as_str(), d.message))
                    .collect()
            };
            let resource = |lib: &Library, skill: &str, rel: &str| -> Resource {
                let s = &lib.skills[lib.find(skill).unwrap()];
                s.resources.iter().find(|r| r.rel == rel).unwrap().clone()
            };
            // The first load reads everything and learns guide.md's links.
            let (lib, _) = load_as(Resources::Stat);
            assert!(
                rules_of(&lib, "beta")
                    .iter()
                    .any(|r| r.contains("body-nested-reference"))
            );
            assert!(lib.save_index().is_none());
            // Files change in place: no folder changes, so the walk is remembered.
            let logo = root.join("beta/assets/logo.png");
            let logo_then = std::fs::metadata(&logo).unwrap().len();
            write(&logo, "\u{89}PNG\0\0 and a good deal longer\0");
            write(
                &root.join("beta/references/guide.md"),
                "# Guide, no links now\n",
            );
            std::fs::remove_file(&far).unwrap();
            let (lib, stats) = load_as(Resources::Names);
            assert_eq!(stats.roots_walked, 0);
            // Taken by name: what the index remembers, marked as such.
            let l = resource(&lib, "beta", "assets/logo.png");
            assert!(!l.fresh);
            assert_eq!(l.size, logo_then);
            // Its links were remembered: stat'ed, found changed, and read again.
            assert!(resource(&lib, "beta", "references/guide.md").fresh);
            let beta = rules_of(&lib, "beta");
            assert!(
                !beta.iter().any(|r| r.contains("body-nested-reference")),
                "{beta:?}"
            );
            // A link is stat'ed: it lost its target, so it is no resource and the link is broken.
            let gamma = &lib.skills[lib.find("gamma").unwrap()];
            assert!(
                gamma
                    .resources
                    .iter()
                    .all(|r| r.rel != "references/far.json")
            );
            let gamma = rules_of(&lib, "gamma");
            assert!(
                gamma
                    .iter()
                    .any(|r| r.contains("body-broken-link") && r.contains("references/far.json")),
                "{gamma:?}"
            );
            // A load that stats every resource sees the new size.
            let (lib, _) = load_as(Resources::Stat);
            let l = resource(&lib, "beta", "assets/logo.png");
            assert!(l.fresh);
            assert_eq!(l.size, std::fs::metadata(&logo).unwrap().len());
        }
    }

    #[test]
    fn the_overlap_findings_are_kept_while_the_descriptions_stay() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let (lib, _) = load(&root, &cache);
        let key = |lib: &Library| rules::overlap::input_key(lib, &|_| true, false);
        assert!(lib.remembered(&key(&lib)).is_none());
        let first = body_check(&lib);
        assert!(lib.save_index().is_none());
        let (lib, _) = load(&root, &cache);
        assert!(lib.remembered(&key(&lib)).is_some());
        assert_eq!(body_check(&lib), first);
        // Another description: another key, so the rule runs again.
        write(
            &root.join("alpha/SKILL.md"),
            "---\nname: alpha\ndescription: Something else entirely. Use when asked.\n---\n",
        );
        let (lib, _) = load(&root, &cache);
        assert!(lib.remembered(&key(&lib)).is_none());
    }

    /// The per-skill rules' findings of each skill as the index keeps them.
    fn judged(s: &Skill) -> Vec<crate::core::skill::RuleFindings> {
        s.facts.rules.lock().unwrap().clone()
    }

    #[test]
    fn the_per_skill_findings_are_kept_while_the_skill_file_stays() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        // A field no profile knows: a finding of the per-skill rules.
        write(
            &root.join("alpha/SKILL.md"),
            "---\nname: alpha\ndescription: Does alpha things. Use when alpha is asked for.\ncolour: blue\n---\n# alpha\n",
        );
        backdate(&root);
        let unknown = |found: &[Vec<Diagnostic>]| {
            found
                .iter()
                .flatten()
                .filter(|d| d.rule == RuleId::UnknownField)
                .count()
        };
        let (lib, _) = load(&root, &cache);
        assert!(lib.skills.iter().all(|s| judged(s).is_empty()));
        let first = body_check(&lib);
        assert_eq!(unknown(&first), 1);
        assert!(lib.skills.iter().all(|s| judged(s).len() == 1));
        assert!(lib.save_index().is_none());
        // Read back with the skills: the same findings as judged afresh.
        let (lib, _) = load(&root, &cache);
        assert!(lib.skills.iter().all(|s| judged(s).len() == 1));
        assert_eq!(body_check(&lib), first);
        // Taken from the index, not judged again: a remembered judgement is what the check says.
        let alpha = lib.skills.iter().find(|s| s.name == "alpha").unwrap();
        alpha.facts.rules.lock().unwrap()[0].1.clear();
        assert_eq!(unknown(&body_check(&lib)), 0);
        // Another profile is another key: judged, and kept beside the first.
        let spec = rules::check_library(
            &lib,
            &CheckOptions {
                profile: rules::Profile::ClaudeCode,
                body: true,
                ..CheckOptions::default()
            },
        );
        assert_eq!(unknown(&spec), 1);
        assert_eq!(judged(alpha).len(), 2);
        // The skill file changed: read and judged again.
        write(
            &root.join("alpha/SKILL.md"),
            "---\nname: alpha\ndescription: Does alpha things. Use when alpha is asked for.\n---\n# alpha\n",
        );
        let (lib, _) = load(&root, &cache);
        assert_eq!(unknown(&body_check(&lib)), 0);
    }

    #[test]
    fn the_template_findings_are_kept_while_names_and_descriptions_stay() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        for name in ["strava", "xero", "asana", "jira", "slack"] {
            write(
                &root.join(format!("{name}/SKILL.md")),
                &format!(
                    "---\nname: {name}\ndescription: Automate {name} tasks via the {name} API. Use when {name} is asked for.\n---\n# {name}\n"
                ),
            );
        }
        backdate(&root);
        let templates = |found: &[Vec<Diagnostic>]| {
            found
                .iter()
                .flatten()
                .filter(|d| d.rule == RuleId::DescriptionTemplate)
                .count()
        };
        let (lib, _) = load(&root, &cache);
        let key = rules::template_key(&lib).unwrap();
        assert!(lib.remembered(&key).is_none());
        let first = body_check(&lib);
        assert_eq!(templates(&first), 5);
        assert!(lib.save_index().is_none());
        let (lib, _) = load(&root, &cache);
        let kept = lib.remembered(&key).unwrap();
        assert_eq!(kept.len(), 5);
        assert_eq!(body_check(&lib), first);
        // What the index remembers is what the check says.
        lib.remember(key, &kept[..1]);
        assert_eq!(templates(&body_check(&lib)), 1);
        // Another description: another key, so the rule runs again.
        write(
            &root.join("slack/SKILL.md"),
            "---\nname: slack\ndescription: Posts to channels. Use when a message must go out.\n---\n# slack\n",
        );
        let (lib, _) = load(&root, &cache);
        assert_ne!(rules::template_key(&lib), Some(key));
        assert_eq!(templates(&body_check(&lib)), 4);
    }

    #[test]
    fn a_corrupt_truncated_or_foreign_index_is_discarded() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let (want, _) = load(&root, &cache);
        let path = IndexStore::in_dir(&cache)
            .path_for(std::slice::from_ref(&root), DEPTH, ENTRIES)
            .unwrap();
        let good = std::fs::read(&path).unwrap();
        assert!(decode(&good).is_some());
        // Read one record per batch, the index decodes to the same records.
        let whole = decode(&good).unwrap();
        let batched = decode_batched(&good[..], good.len() as u64, 1).unwrap();
        let mut a: Vec<_> = whole
            .skills
            .iter()
            .map(|(k, v)| (k.clone(), format!("{v:?}")))
            .collect();
        let mut b: Vec<_> = batched
            .skills
            .iter()
            .map(|(k, v)| (k.clone(), format!("{v:?}")))
            .collect();
        a.sort();
        b.sort();
        assert_eq!(a.len(), 3);
        assert_eq!(a, b);
        for cut in [good.len() / 2, good.len() - 33] {
            assert!(decode_batched(&good[..cut], cut as u64, 1).is_none());
        }
        let mut flipped = good.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0x40;
        // Another version with a correct checksum: foreign all the same.
        let mut other_version = good[..good.len() - 32].to_vec();
        other_version[8..12].copy_from_slice(&(VERSION + 1).to_le_bytes());
        let sum = *blake3::hash(&other_version).as_bytes();
        other_version.extend_from_slice(&sum);
        for bad in [
            flipped,
            good[..good.len() - 1].to_vec(),
            good[..good.len() / 3].to_vec(),
            other_version,
            b"SKSCLIX\0 not really".to_vec(),
            Vec::new(),
        ] {
            std::fs::write(&path, &bad).unwrap();
            assert!(decode(&bad).is_none());
            let (lib, stats) = load(&root, &cache);
            assert_eq!((stats.roots_walked, stats.skills_parsed), (1, 3));
            assert!(lib.notes.is_empty());
            assert_eq!(summary(&lib), summary(&want));
            // And it was replaced by a good one.
            assert_eq!(load(&root, &cache).1.skills_parsed, 0);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_at_the_index_path_is_a_note_not_a_hang() {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        let path = IndexStore::in_dir(&cache)
            .path_for(std::slice::from_ref(&root), DEPTH, ENTRIES)
            .unwrap();
        std::fs::create_dir_all(&cache).unwrap();
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let (r, c) = (root.clone(), cache.clone());
        std::thread::spawn(move || {
            let _ = tx.send(load(&r, &c));
        });
        let (lib, _) = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("loading hung on a FIFO at the index path");
        assert_eq!(lib.len(), 3);
        assert_eq!(lib.notes.len(), 1, "{:?}", lib.notes);
        assert!(
            lib.notes[0].contains("not a regular file"),
            "{:?}",
            lib.notes
        );
        // The FIFO is left alone, not written over.
        assert!(
            std::fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_fifo()
        );
        // A folder in its place is said to be one too.
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        let (lib, _) = load(&root, &cache);
        assert!(
            lib.notes[0].contains("not a regular file"),
            "{:?}",
            lib.notes
        );
    }

    #[test]
    fn resources_past_the_walks_depth_and_the_walks_skips() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("lib");
        write(
            &root.join("s/SKILL.md"),
            "---\nname: s\ndescription: d\n---\n",
        );
        write(&root.join("s/a/b/c/deep.md"), "deep\n");
        write(&root.join("s/.hidden/x.md"), "x\n");
        write(&root.join("s/node_modules/m/i.js"), "x\n");
        write(
            &root.join("s/inner/SKILL.md"),
            "---\nname: inner\ndescription: d\n---\n",
        );
        write(&root.join("s/inner/ref.md"), "r\n");
        write(&root.join("s/skill.md"), "---\nname: s2\n---\n");
        // Skills one level down: the walker stops two levels below the root.
        let lib = Library::load(
            vec![Root::new(&root, Agent::Path, Scope::Path)],
            &ScanOptions {
                max_depth: 1,
                ..ScanOptions::default()
            },
        );
        let s = &lib.skills[lib.find("s").unwrap()];
        let rels: Vec<&str> = s.resources.iter().map(|r| r.rel.as_str()).collect();
        assert_eq!(rels, vec!["a/b/c/deep.md", "skill.md"]);
        let inner = lib.find("inner").map(|i| &lib.skills[i]);
        assert!(inner.is_none(), "too deep for the walk");
        // With room for the nested skill, its files are its own.
        let lib = Library::load(
            vec![Root::new(&root, Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        let s = &lib.skills[lib.find("s").unwrap()];
        let rels: Vec<&str> = s.resources.iter().map(|r| r.rel.as_str()).collect();
        assert_eq!(rels, vec!["a/b/c/deep.md", "skill.md"]);
        let inner = &lib.skills[lib.find("inner").unwrap()];
        let rels: Vec<&str> = inner.resources.iter().map(|r| r.rel.as_str()).collect();
        assert_eq!(rels, vec!["ref.md"]);
    }

    #[test]
    fn one_index_file_per_set_of_roots_and_only_a_few_kept() {
        let t = tempfile::tempdir().unwrap();
        let cache = t.path().join("cache");
        let mut paths = Vec::new();
        for i in 0..(KEEP_FILES + 3) {
            let root = t.path().join(format!("lib{i}"));
            library(&root);
            load(&root, &cache);
            paths.push(
                IndexStore::in_dir(&cache)
                    .path_for(&[root], DEPTH, ENTRIES)
                    .unwrap(),
            );
        }
        let mut unique = paths.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), paths.len());
        let kept = std::fs::read_dir(&cache).unwrap().count();
        assert_eq!(kept, KEEP_FILES);
        assert!(paths.last().unwrap().exists());
    }

    #[test]
    fn frontmatters_read_back_type_as_parsed() {
        let texts = [
            "---\nname: a\ndescription: d\ntype: executable\nentry: run.py\ntriggers: [x, y]\nauto_load: \"false\"\ndisable-model-invocation: true\n---\n",
            "---\nname: 12\ndescription: yes\ndependencies:\n  - b\n  - c\nmetadata: {k: [1, 2.5, null]}\n---\n",
            "---\nname: a\ndescription: a: b\n---\n",
            "---\nname: x\n",
            "no frontmatter",
            "---\nname: a\ndescription: d\nauto_load: no # off\n---\n",
            "---\nname: a\ndescription: d\nauto_load: 'yes'\n---\n",
            "---\nname: a\ndescription: 'ends in a blank line\n\n  '\n---\n",
            "---\nname: a\ndescription: >-\n  folded\n---\n",
        ];
        for t in texts {
            let p = frontmatter::parse(t.as_bytes(), true);
            let back = frontmatter::from_fields(
                p.frontmatter.parsed,
                p.frontmatter.fields.clone(),
                p.frontmatter.flow_style_lines.clone(),
                p.frontmatter.description_style,
            );
            assert_eq!(format!("{back:?}"), format!("{:?}", p.frontmatter), "{t}");
            // And through the file's encoding of values.
            let mut w = W(Vec::new());
            w.frontmatter(&p.frontmatter);
            let mut r = R(&w.0);
            let read = r.frontmatter().unwrap();
            assert!(r.0.is_empty());
            assert_eq!(format!("{read:?}"), format!("{:?}", p.frontmatter), "{t}");
        }
    }
}
