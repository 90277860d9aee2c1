//! The records the index holds: each root's walk, each skill's record and its resources, and
//! where a remembered walk's bytes lie in the file it was read from.

use crate::core::findings::diagnostic::Diagnostic;
use crate::core::frontmatter::Frontmatter;
use crate::core::skill::BodyFacts;
use rustc_hash::FxHashMap;
use std::io::Write;
use std::path::PathBuf;

/// An index larger than this is not read (a real one for 50,000 skills is a few tens of MB).
pub(super) const MAX_INDEX_BYTES: u64 = 512 * 1024 * 1024;

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
    /// Every entry the walk met with a name the installers' records are looked up by, in path
    /// order, and whether it is a plain regular file (`scan::seen`). Kept when the rest is let
    /// go: the lookups come after the load.
    pub marks: Vec<(PathBuf, bool)>,
    /// Where the record's bytes are in the index file it was read from (`None` for a fresh walk).
    pub stored: Option<Stored>,
    /// The folders of a remembered walk, left in the bytes they were read from (`dirs` is then
    /// empty): they are only stat'ed, once, and read out without a copy of each path
    /// ([`WalkRecord::folders`]).
    pub stored_dirs: Option<StoredDirs>,
}

/// A remembered walk's folders (path and stamp, as the index file writes them), `n` of them from
/// `at` in the walk section's bytes.
#[derive(Debug, Clone)]
pub struct StoredDirs {
    pub(super) bytes: std::sync::Arc<Vec<u8>>,
    pub(super) at: usize,
    pub(super) n: usize,
}

impl WalkRecord {
    /// Lets go of what the record holds when its bytes can be copied from the index file it came
    /// from at the next write: at 50,000 skills a walk's folders and skill files are about 18 MB
    /// that nothing needs once the library is read.
    pub fn forget_if_stored(&mut self) {
        if self.stored.is_some() {
            self.dirs = Vec::new();
            self.stored_dirs = None;
            self.found = Vec::new();
            self.problems = Vec::new();
            self.links = Vec::new();
        }
    }

    /// Every folder the walk read, with its stamp from before it was read: the stored ones (read
    /// out of the index's bytes, each path borrowed where the system's paths are bytes), then
    /// `dirs`. `None` when the stored bytes do not read back.
    pub fn folders(&self) -> Option<Vec<(std::borrow::Cow<'_, std::path::Path>, Stamp)>> {
        use std::borrow::Cow;
        let stored = self.stored_dirs.as_ref();
        let mut out = Vec::with_capacity(stored.map_or(0, |s| s.n) + self.dirs.len());
        if let Some(s) = stored {
            let mut r = crate::core::files::codec::Reader(s.bytes.get(s.at..)?);
            for _ in 0..s.n {
                let path = stored_path(r.bytes()?);
                out.push((path, r.stamp()?));
            }
        }
        out.extend(
            self.dirs
                .iter()
                .map(|(d, st)| (Cow::Borrowed(d.as_path()), *st)),
        );
        Some(out)
    }

    /// Whether the record still holds what the walk found.
    pub(super) fn whole(&self) -> bool {
        self.stored.is_none() || !self.dirs.is_empty() || !self.found.is_empty()
    }
}

/// A path as the index stores it, borrowed from its bytes on Unix.
#[cfg(unix)]
fn stored_path(b: &[u8]) -> std::borrow::Cow<'_, std::path::Path> {
    use std::os::unix::ffi::OsStrExt;
    std::borrow::Cow::Borrowed(std::path::Path::new(std::ffi::OsStr::from_bytes(b)))
}

/// A path as the index stores it (UTF-8 on other systems).
#[cfg(not(unix))]
fn stored_path(b: &[u8]) -> std::borrow::Cow<'_, std::path::Path> {
    std::borrow::Cow::Owned(crate::core::files::fsx::bytes_path(b))
}

/// An index file as it was opened for reading: held open, so that its bytes stay what they were
/// even after a writer renames a new index over it (every writer writes a new file).
#[derive(Debug)]
pub struct Source {
    pub(super) file: std::fs::File,
    pub(super) stamp: Stamp,
}

/// A walk record's bytes in the index file it was read from.
#[derive(Debug, Clone)]
pub struct Stored {
    pub(super) source: std::sync::Arc<Source>,
    pub(super) offset: u64,
    pub(super) len: u64,
}

impl Stored {
    /// Whether the file still has the stat it had when it was read.
    pub(super) fn unchanged(&self) -> bool {
        self.source
            .file
            .metadata()
            .is_ok_and(|m| Stamp::of(&m) == self.source.stamp)
    }

    /// Copies the record's bytes to `out`, a piece at a time.
    pub(super) fn copy_to(&self, out: &mut impl Write) -> std::io::Result<()> {
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
    /// Its per-skill rules' findings, by the key of what they read (see `Facts::rules`), as
    /// the file holds them: decoded only when a rule asks (`index::kept_rules`).
    pub rules: Box<[u8]>,
    /// What the agents that read the file their own way read off it (see `Facts::readings`).
    pub readings: crate::core::skill::Readings,
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
