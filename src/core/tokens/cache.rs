//! The on-disk token cache: counts keyed by content hash and encoding, plus a stat index so that
//! unchanged files are neither read nor hashed again.

use super::encoding::{Encoding, TokenError};
use crate::core::files::codec::{Reader, stamp_bytes};
use crate::core::files::fsx::{Stamp, bytes_path, path_bytes};
use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// A blake3 hash of the counted bytes.
pub type ContentHash = [u8; 32];

/// Ends in the layout's version: a file of another layout is foreign and counts as empty.
const MAGIC: &[u8; 8] = b"SKSCTOK3";
const FILE_NAME: &str = "tokens.bin";
/// A cache file larger than this is not read (a real one is a few MB).
const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;
/// Past this many entries, as many of the ones not used since the cache was loaded as must go to
/// get back under it are let go, those used longest ago first (see [`trim`]).
const MAX_ENTRIES: usize = 500_000;

/// A file's stamp (the one the library index keeps) and the hash of its content then: while the stat is unchanged, so is the content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    stat: Stamp,
    hash: ContentHash,
}

/// A save's number: one more than the file it was loaded from held. Each entry keeps the
/// generation of the last saved session that used it, so the oldest go first past the cap.
type Generation = u32;

#[derive(Debug, Default)]
struct Entries {
    /// Token count per (content, encoding), and the generation that last used it.
    counts: HashMap<(ContentHash, u8), (u32, Generation)>,
    /// Last known stamp per file path, and the generation that last used it.
    files: HashMap<PathBuf, (Seen, Generation)>,
    /// This session's generation: an entry stamped with it was used since the cache was loaded.
    generation: Generation,
    dirty: bool,
}

/// Token counts remembered across runs. Loaded once; [`TokenCache::save`] writes it back
/// atomically. A missing, unreadable or corrupt file is an empty cache, never an error.
#[derive(Debug)]
pub struct TokenCache {
    path: Option<PathBuf>,
    /// What the file holds and why it was not read when it is not a regular file (a FIFO, a
    /// folder, …: it is then never written over); read on first use for a cache opened lazily.
    loaded: OnceLock<Loaded>,
    /// Held through a whole save, so a second save (at exit) waits for a running one to reach
    /// the file instead of finding nothing dirty and letting the process end mid-write.
    writing: Mutex<()>,
    /// Texts that went through the encoder, and files read, since the cache was opened: what a
    /// run actually had to do.
    encoded: AtomicUsize,
    read: AtomicUsize,
}

#[derive(Debug)]
struct Loaded {
    entries: Mutex<Entries>,
    problem: Option<String>,
}

impl Loaded {
    fn empty() -> Loaded {
        Loaded {
            entries: Mutex::new(Entries::default()),
            problem: None,
        }
    }

    fn from_file(path: &Path) -> Loaded {
        let (entries, problem) =
            match crate::core::files::fsx::read_regular_up_to(path, MAX_FILE_BYTES) {
                Ok(bytes) => (bytes.and_then(|b| decode(&b)).unwrap_or_default(), None),
                // Writing over a file that cannot be read is fine (it is only a cache) unless it is
                // not a file at all: a FIFO or a folder there is the user's, not skillscope's.
                Err(e @ crate::core::files::fsx::FsxError::NotRegular { .. }) => {
                    (Entries::default(), Some(e.to_string()))
                }
                Err(_) => (Entries::default(), None),
            };
        Loaded {
            entries: Mutex::new(entries),
            problem,
        }
    }
}

impl TokenCache {
    /// A cache that lives only as long as the value.
    pub fn in_memory() -> TokenCache {
        TokenCache {
            path: None,
            loaded: OnceLock::from(Loaded::empty()),
            writing: Mutex::new(()),
            encoded: AtomicUsize::new(0),
            read: AtomicUsize::new(0),
        }
    }

    /// The cache in its default place: `tokens.bin` in skillscope's cache folder
    /// (`$SKILLSCOPE_CACHE_DIR`, else `<cache_dir>/skillscope`).
    pub fn open() -> TokenCache {
        match default_path() {
            Some(p) => TokenCache::at(p),
            None => TokenCache::in_memory(),
        }
    }

    /// The cache stored in `path`. Only a regular file is read; anything else there (a FIFO, a
    /// folder) leaves the cache empty, is reported by [`TokenCache::problem`] and is never
    /// written over.
    pub fn at(path: impl Into<PathBuf>) -> TokenCache {
        let cache = TokenCache::at_lazily(path);
        cache.loaded();
        cache
    }

    /// [`TokenCache::open`], read only when a count is first asked of it: a run that never asks
    /// (every figure it needs already in the library index) never reads the file.
    pub fn open_lazily() -> TokenCache {
        match default_path() {
            Some(p) => TokenCache::at_lazily(p),
            None => TokenCache::in_memory(),
        }
    }

    /// [`TokenCache::at`], read on first use.
    pub fn at_lazily(path: impl Into<PathBuf>) -> TokenCache {
        TokenCache {
            path: Some(path.into()),
            loaded: OnceLock::new(),
            writing: Mutex::new(()),
            encoded: AtomicUsize::new(0),
            read: AtomicUsize::new(0),
        }
    }

    /// The cache file, when the cache is kept on disk.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Why the cache file could not be read, naming the file; the cache then works in memory.
    pub fn problem(&self) -> Option<&str> {
        self.loaded().problem.as_deref()
    }

    /// [`TokenCache::problem`] if the file was read (a lazily opened cache may never be).
    pub fn problem_if_read(&self) -> Option<&str> {
        self.loaded.get().and_then(|l| l.problem.as_deref())
    }

    fn loaded(&self) -> &Loaded {
        self.loaded.get_or_init(|| match &self.path {
            Some(p) => Loaded::from_file(p),
            None => Loaded::empty(),
        })
    }

    /// How many counts are remembered.
    pub fn len(&self) -> usize {
        self.lock().counts.len()
    }

    /// Whether no count is known.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many texts had to be encoded since the cache was opened.
    pub fn encoded(&self) -> usize {
        self.encoded.load(Ordering::Relaxed)
    }

    /// How many files had to be read since the cache was opened.
    pub fn files_read(&self) -> usize {
        self.read.load(Ordering::Relaxed)
    }

    pub(super) fn note_encoded(&self) {
        self.encoded.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn note_read(&self) {
        self.read.fetch_add(1, Ordering::Relaxed);
    }

    fn lock(&self) -> MutexGuard<'_, Entries> {
        self.loaded()
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The count for content with this hash, if known.
    pub fn get(&self, hash: &ContentHash, enc: Encoding) -> Option<u32> {
        let mut e = self.lock();
        let now = e.generation;
        let slot = e.counts.get_mut(&(*hash, enc.id()))?;
        slot.1 = now;
        Some(slot.0)
    }

    /// Remembers `count` tokens for the content `hash` in `enc`.
    pub fn insert(&self, hash: ContentHash, enc: Encoding, count: u32) {
        let mut e = self.lock();
        let now = e.generation;
        e.counts.insert((hash, enc.id()), (count, now));
        e.dirty = true;
    }

    /// The content hash last seen for a file, when its stat is still the same.
    pub fn file_hash(&self, path: &Path, stat: &Stamp) -> Option<ContentHash> {
        let mut e = self.lock();
        let now = e.generation;
        let slot = e.files.get_mut(path)?;
        if !slot.0.stat.vouches_for(stat) {
            return None;
        }
        slot.1 = now;
        Some(slot.0.hash)
    }

    /// The count of a file whose stat is as remembered: [`TokenCache::file_hash`] and
    /// [`TokenCache::get`] under one lock (a warm count asks this of every file).
    pub fn file_count(&self, path: &Path, stat: &Stamp, enc: Encoding) -> Option<u32> {
        let mut e = self.lock();
        let now = e.generation;
        let slot = e.files.get_mut(path)?;
        if !slot.0.stat.vouches_for(stat) {
            return None;
        }
        slot.1 = now;
        let hash = slot.0.hash;
        let count = e.counts.get_mut(&(hash, enc.id()))?;
        count.1 = now;
        Some(count.0)
    }

    /// Remembers a file's content hash. `stat` must be taken before the read, so that a write
    /// during the read shows up as a new stat next time. A file changed within the last
    /// [`RACY_WINDOW_NS`](crate::core::files::fsx::RACY_WINDOW_NS) is not remembered (see
    /// [`Stamp::racy`]): another write in the same timestamp tick would leave its stat as it
    /// was.
    pub fn remember_file(&self, path: &Path, stat: &Stamp, hash: ContentHash) {
        if stat.racy(crate::core::files::fsx::now_ns()) {
            return;
        }
        let stamp = Seen { stat: *stat, hash };
        let mut e = self.lock();
        let now = e.generation;
        let old = e.files.insert(path.to_path_buf(), (stamp, now));
        if old.map(|(s, _)| s) != Some(stamp) {
            e.dirty = true;
        }
    }

    /// Writes the cache to its file (temp file + rename) when anything changed.
    pub fn save(&self) -> Result<(), TokenError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        // Never read, so never changed.
        let Some(loaded) = self.loaded.get() else {
            return Ok(());
        };
        if let Some(p) = &loaded.problem {
            return Err(TokenError::CacheUnusable(p.clone()));
        }
        let _writing = self
            .writing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !self.lock().dirty {
            return Ok(());
        }
        // Written as it is encoded, the entries locked only while their bytes go into the new
        // file (a few milliseconds; not while it is made or flushed to disk): at 50,000 skills
        // the file is about 20 MB that would otherwise be held whole beside them.
        let fill = |f: &mut std::fs::File| {
            let mut e = self.lock();
            trim(&mut e, MAX_ENTRIES);
            encode_to(&e, f)?;
            e.dirty = false;
            Ok(())
        };
        let sync = crate::core::files::paths::Durability::Cache;
        crate::core::files::paths::write_private_with(path, sync, fill).map_err(|source| {
            TokenError::CacheWrite {
                path: path.clone(),
                source,
            }
        })
    }
}

/// Lets go of as few entries as bring `e` down to `cap`: only ones this session did not use
/// (those are always kept, even past the cap), those of the oldest generation first.
fn trim(e: &mut Entries, cap: usize) {
    let excess = (e.counts.len() + e.files.len()).saturating_sub(cap);
    if excess == 0 {
        return;
    }
    let now = e.generation;
    let mut unused: Vec<Generation> = (e.counts.values().map(|v| v.1))
        .chain(e.files.values().map(|v| v.1))
        .filter(|&g| g != now)
        .collect();
    if unused.len() <= excess {
        e.counts.retain(|_, v| v.1 == now);
        e.files.retain(|_, v| v.1 == now);
        return;
    }
    // Every unused entry older than the `excess`-th oldest goes, and as many of its own
    // generation as are still needed.
    let (_, &mut cutoff, _) = unused.select_nth_unstable(excess - 1);
    let older = unused.iter().filter(|&&g| g < cutoff).count();
    let mut at_cutoff = excess - older;
    let mut keep = |g: Generation| {
        if g == now || g > cutoff {
            true
        } else if g < cutoff {
            false
        } else if at_cutoff > 0 {
            at_cutoff -= 1;
            false
        } else {
            true
        }
    };
    e.counts.retain(|_, v| keep(v.1));
    e.files.retain(|_, v| keep(v.1));
}

/// Where [`TokenCache::open`] keeps its file.
pub fn default_path() -> Option<PathBuf> {
    Some(crate::core::files::paths::cache_root().join(FILE_NAME))
}

// File layout (little-endian): MAGIC, u32 generation, u32 count entries × (hash, u8 encoding,
// u32 count, u32 generation), u32 file entries × (u32 path length, path bytes, u64 len, u128
// mtime_ns, u128 ctime_ns, u64 ino, u64 dev, hash, u32 generation), then the blake3 hash of everything before it, so a torn or edited file is
// recognised and ignored.

/// Writes the cache file's bytes for `e` to `out`, as they are encoded.
fn encode_to(e: &Entries, out: &mut impl std::io::Write) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = crate::core::files::fsx::Checksummed::<_, blake3::Hasher>::new(out);
    out.write_all(MAGIC)?;
    out.write_all(&e.generation.to_le_bytes())?;
    out.write_all(&(e.counts.len() as u32).to_le_bytes())?;
    for ((hash, enc), (count, generation)) in &e.counts {
        out.write_all(hash)?;
        out.write_all(&[*enc])?;
        out.write_all(&count.to_le_bytes())?;
        out.write_all(&generation.to_le_bytes())?;
    }
    out.write_all(&(e.files.len() as u32).to_le_bytes())?;
    for (path, (stamp, generation)) in &e.files {
        let p = path_bytes(path);
        out.write_all(&(p.len() as u32).to_le_bytes())?;
        out.write_all(&p)?;
        out.write_all(&stamp_bytes(&stamp.stat))?;
        out.write_all(&stamp.hash)?;
        out.write_all(&generation.to_le_bytes())?;
    }
    out.finish().map(drop)
}

fn decode(bytes: &[u8]) -> Option<Entries> {
    let body_len = bytes.len().checked_sub(32)?;
    let (body, sum) = bytes.split_at(body_len);
    if blake3::hash(body).as_bytes() != sum {
        return None;
    }
    let mut r = Reader(body);
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let saved = r.u32()?;
    let mut e = Entries {
        generation: saved.saturating_add(1),
        ..Entries::default()
    };
    // Never this session's: an entry of a later generation than its file counts as the file's.
    let age = |g: Generation| g.min(saved);
    let n = r.u32()? as usize;
    e.counts.reserve(n.min(MAX_ENTRIES));
    for _ in 0..n {
        let hash = r.array()?;
        let enc = r.take(1)?[0];
        let count = r.u32()?;
        e.counts.insert((hash, enc), (count, age(r.u32()?)));
    }
    let n = r.u32()? as usize;
    e.files.reserve(n.min(MAX_ENTRIES));
    for _ in 0..n {
        let plen = r.u32()? as usize;
        let path = bytes_path(r.take(plen)?);
        let stat = r.stamp()?;
        let stamp = Seen {
            stat,
            hash: r.array()?,
        };
        e.files.insert(path, (stamp, age(r.u32()?)));
    }
    r.0.is_empty().then_some(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(b: u8) -> ContentHash {
        [b; 32]
    }

    #[test]
    fn a_lazily_opened_cache_reads_its_file_on_first_use_only() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("tokens.bin");
        let c = TokenCache::at(&p);
        c.insert(h(1), Encoding::O200kBase, 42);
        c.save().unwrap();
        // Opened lazily and never asked: saving leaves the file alone, even one that is not a
        // cache file any more.
        std::fs::write(&p, b"not a cache").unwrap();
        TokenCache::at_lazily(&p).save().unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"not a cache");
        // Asked: the file is read then, as it is then.
        let c = TokenCache::at(&p);
        c.insert(h(1), Encoding::O200kBase, 42);
        c.save().unwrap();
        let lazy = TokenCache::at_lazily(&p);
        std::fs::remove_file(&p).unwrap();
        assert_eq!(lazy.get(&h(1), Encoding::O200kBase), None);
        let c = TokenCache::at(&p);
        c.insert(h(1), Encoding::O200kBase, 42);
        c.save().unwrap();
        let lazy = TokenCache::at_lazily(&p);
        assert_eq!(lazy.get(&h(1), Encoding::O200kBase), Some(42));
    }

    fn stat(len: u64, mtime_ns: u128) -> Stamp {
        Stamp {
            len,
            mtime_ns,
            ctime_ns: mtime_ns + 5,
            ino: 7,
            dev: 3,
        }
    }

    #[test]
    fn round_trips_through_the_file() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("sub/tokens.bin");
        let c = TokenCache::at(&p);
        assert!(c.is_empty());
        c.insert(h(1), Encoding::O200kBase, 42);
        c.insert(h(1), Encoding::Cl100kBase, 40);
        c.remember_file(Path::new("/x/SKILL.md"), &stat(10, 99), h(1));
        // Modified just now: not trusted by its stat.
        let now = crate::core::files::fsx::now_ns();
        c.remember_file(Path::new("/x/new.md"), &stat(10, now), h(2));
        c.save().unwrap();
        let c = TokenCache::at(&p);
        assert_eq!(c.get(&h(1), Encoding::O200kBase), Some(42));
        assert_eq!(c.get(&h(1), Encoding::Cl100kBase), Some(40));
        assert_eq!(c.get(&h(2), Encoding::O200kBase), None);
        let md = Path::new("/x/SKILL.md");
        assert_eq!(c.file_hash(md, &stat(10, 99)), Some(h(1)));
        // Any field of the stat that moved: the file is read again.
        let moved = [
            stat(11, 99),
            stat(10, 98),
            Stamp {
                ctime_ns: 1_000,
                ..stat(10, 99)
            },
            Stamp {
                ino: 8,
                ..stat(10, 99)
            },
            Stamp {
                dev: 4,
                ..stat(10, 99)
            },
        ];
        for m in moved {
            assert_eq!(c.file_hash(md, &m), None, "{m:?}");
        }
        assert_eq!(c.file_hash(Path::new("/x/new.md"), &stat(10, now)), None);
    }

    #[test]
    fn corrupt_truncated_or_foreign_files_are_an_empty_cache() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("tokens.bin");
        let c = TokenCache::at(&p);
        c.insert(h(7), Encoding::O200kBase, 7);
        c.save().unwrap();
        let good = std::fs::read(&p).unwrap();
        let mut flipped = good.clone();
        flipped[12] ^= 1;
        for bad in [
            flipped,
            good[..good.len() - 1].to_vec(),
            b"not a cache".to_vec(),
            Vec::new(),
        ] {
            std::fs::write(&p, &bad).unwrap();
            let c = TokenCache::at(&p);
            assert!(c.is_empty());
            // And it can be written over.
            c.insert(h(8), Encoding::O200kBase, 8);
            c.save().unwrap();
            assert_eq!(TokenCache::at(&p).get(&h(8), Encoding::O200kBase), Some(8));
        }
    }

    #[test]
    fn an_unwritable_place_is_an_error_not_a_panic() {
        let t = tempfile::tempdir().unwrap();
        let blocker = t.path().join("file");
        std::fs::write(&blocker, b"x").unwrap();
        let c = TokenCache::at(blocker.join("tokens.bin"));
        c.insert(h(1), Encoding::O200kBase, 1);
        assert!(matches!(c.save(), Err(TokenError::CacheWrite { .. })));
    }

    /// Ten counts saved by one session, ten more by a later one, then a session that uses three
    /// of the first ten.
    fn two_generations_then_three_used(p: &Path) -> TokenCache {
        let c = TokenCache::at(p);
        (0..10).for_each(|b| c.insert(h(b), Encoding::O200kBase, u32::from(b)));
        c.save().unwrap();
        let c = TokenCache::at(p);
        (10..20).for_each(|b| c.insert(h(b), Encoding::O200kBase, u32::from(b)));
        c.save().unwrap();
        let c = TokenCache::at(p);
        for b in [0, 4, 9] {
            assert_eq!(c.get(&h(b), Encoding::O200kBase), Some(u32::from(b)));
        }
        c
    }

    fn kept(c: &TokenCache) -> Vec<u8> {
        let mut k: Vec<u8> = c.lock().counts.keys().map(|(hash, _)| hash[0]).collect();
        k.sort_unstable();
        k
    }

    #[test]
    fn past_the_cap_only_as_many_unused_entries_go_as_must_the_oldest_first() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("tokens.bin");
        let c = two_generations_then_three_used(&p);
        assert_eq!(c.len(), 20);
        trim(&mut c.lock(), 10);
        // The three used, and seven of the ten saved later: none of the older unused ones.
        let k = kept(&c);
        assert_eq!(k.len(), 10, "{k:?}");
        assert!([0, 4, 9].iter().all(|b| k.contains(b)), "{k:?}");
        assert_eq!(k.iter().filter(|&&b| b >= 10).count(), 7, "{k:?}");
        // Under the cap, nothing goes; at a cap below what was used, every used entry stays.
        let c = two_generations_then_three_used(&p);
        trim(&mut c.lock(), 20);
        assert_eq!(c.len(), 20);
        trim(&mut c.lock(), 2);
        assert_eq!(kept(&c), vec![0, 4, 9]);
    }

    #[test]
    fn generations_and_file_entries_survive_the_file() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("tokens.bin");
        let c = two_generations_then_three_used(&p);
        c.remember_file(Path::new("/x/SKILL.md"), &stat(10, 99), h(0));
        c.save().unwrap();
        // Saved by the third session: the three it used and the file are the newest, the ten
        // of the second next; the first session's seven unused ones are the oldest.
        let c = TokenCache::at(&p);
        assert_eq!(c.lock().generation, 3);
        trim(&mut c.lock(), 14);
        let k = kept(&c);
        assert_eq!(k.len(), 13, "{k:?}");
        assert!(k.iter().all(|b| [0, 4, 9].contains(b) || *b >= 10), "{k:?}");
        assert_eq!(
            c.file_hash(Path::new("/x/SKILL.md"), &stat(10, 99)),
            Some(h(0))
        );
    }

    #[test]
    fn nothing_is_written_when_nothing_changed() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("tokens.bin");
        TokenCache::at(&p).save().unwrap();
        assert!(!p.exists());
    }
}
