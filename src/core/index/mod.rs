//! The library index: what the walk, the frontmatter parser and the body rules derived from each
//! skill folder, kept in the cache folder and trusted only while every file and folder keeps its
//! stat (length, mtime, ctime, inode, device), so that an unchanged library reopens with `stat`
//! calls and one read, without a walk, without YAML and without reading bodies.

use crate::core::files::fsx::FsxError;
use crate::core::files::fsx::Stamp;
use crate::core::files::fsx::path_bytes;
use crate::core::skill::Skill;
use std::path::{Path, PathBuf};

mod codec;
mod format;
mod records;
mod vectors;

pub use records::{
    IndexData, REMEMBERED_KEPT, Remembered, ResourceRecord, SkillRecord, Source, Stored,
    StoredDirs, TEXTS_KEPT, TextCount, WalkRecord,
};
pub use vectors::{VectorEntry, Vectors, read_vector_keys, read_vectors};

use format::{VERSION, decode_from, encode_to};
use records::MAX_INDEX_BYTES;
use vectors::{vector_section, write_vectors};

/// A skill's remembered per-skill findings ([`Facts::rules`](crate::core::skill::Facts::rules)),
/// decoded from the index's bytes the first time they are asked for. Bytes that do not decode (a
/// rule this build does not know) are let go: the rules judge the skill again.
pub fn kept_rules(
    facts: &crate::core::skill::Facts,
) -> std::sync::MutexGuard<'_, Vec<crate::core::skill::RuleFindings>> {
    let mut rules = facts
        .rules
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let unread = facts
        .rules_unread
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some(bytes) = unread {
        let mut read = codec::rule_findings_from(&bytes).unwrap_or_default();
        read.append(&mut rules);
        *rules = read;
    }
    rules
}

/// The findings a skill's remembered per-skill rules hold for `key`, when they hold them: read
/// straight out of the index's bytes while nobody decoded them ([`kept_rules`] otherwise), and
/// handed over without a copy. What [`kept_rules`] would find for `key` first.
pub fn kept_rules_for(
    facts: &crate::core::skill::Facts,
    key: &[u8; 32],
) -> Option<Vec<crate::core::findings::diagnostic::Diagnostic>> {
    {
        let rules = facts
            .rules
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let unread = facts
            .rules_unread
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // The bytes come before what was learned since (`kept_rules`' order).
        if let Some(bytes) = unread.as_deref()
            && let Some(found) = codec::rule_findings_for(bytes, key)
        {
            return Some(found);
        }
        drop((unread, rules));
    }
    kept_rules(facts)
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, found)| found.clone())
}

/// Index files kept in the cache folder, one per set of roots; the least recently written go.
const KEEP_FILES: usize = 8;

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

#[cfg(test)]
mod tests;
