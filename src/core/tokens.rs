//! Token counts per disclosure level (L1 listing entry, L2 SKILL.md, L3 resources) with tiktoken
//! encodings, counted on worker threads and remembered on disk by content hash.

mod bpe;
mod cache;

pub use cache::{ContentHash, TokenCache, default_path as default_cache_path};

use crate::core::library::{self, Library, Resource};
use crate::core::skill::{Level, Skill};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("unknown encoding `{0}`: use o200k_base or cl100k_base")]
    UnknownEncoding(String),
    #[error("cannot write the token cache {path}: {source}")]
    CacheWrite {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A tiktoken encoding. Every figure the tool shows names the one that produced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
pub enum Encoding {
    /// GPT-4o and later; the default.
    #[default]
    #[serde(rename = "o200k_base")]
    O200kBase,
    /// GPT-4 and GPT-3.5.
    #[serde(rename = "cl100k_base")]
    Cl100kBase,
}

impl Encoding {
    pub const ALL: [Encoding; 2] = [Encoding::O200kBase, Encoding::Cl100kBase];

    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::O200kBase => "o200k_base",
            Encoding::Cl100kBase => "cl100k_base",
        }
    }

    /// The encoding's number in the cache file; never reuse one.
    fn id(self) -> u8 {
        match self {
            Encoding::O200kBase => 1,
            Encoding::Cl100kBase => 2,
        }
    }

    /// The counter, built on first use (15 ms or so) and shared afterwards. `None`
    /// only if the split pattern did not compile, which the tests rule out.
    fn counter(self) -> Option<&'static bpe::Counter> {
        static O200K_BASE: OnceLock<Option<bpe::Counter>> = OnceLock::new();
        static CL100K_BASE: OnceLock<Option<bpe::Counter>> = OnceLock::new();
        let (cell, vocabulary, pattern) = match self {
            Encoding::O200kBase => (
                &O200K_BASE,
                bpe::O200K_BASE_VOCABULARY,
                bpe::O200K_BASE_PATTERN,
            ),
            Encoding::Cl100kBase => (
                &CL100K_BASE,
                bpe::CL100K_BASE_VOCABULARY,
                bpe::CL100K_BASE_PATTERN,
            ),
        };
        cell.get_or_init(|| bpe::Counter::new(vocabulary, pattern).ok())
            .as_ref()
    }

    /// Builds the counter now, so a later count does not wait for it. Call it on a worker.
    pub fn warm(self) {
        self.counter();
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Encoding {
    type Err = TokenError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| TokenError::UnknownEncoding(s.to_string()))
    }
}

/// Whitespace runs this long make the tokenizer's pattern give up (it fails from about a million
/// characters, as Python tiktoken does); such text is counted in pieces instead.
const LONG_WHITESPACE: usize = 500_000;
/// The size of the pieces a long whitespace run is cut into.
const WHITESPACE_PIECE: usize = 100_000;

/// The number of tokens in `text`, special-token text counted as ordinary text. Equals Python
/// tiktoken's `len(encoding.encode_ordinary(text))` wherever that succeeds.
pub fn count(enc: Encoding, text: &str) -> usize {
    let Some(counter) = enc.counter() else {
        // Not reached (see `Encoding::counter`); the usual four bytes a token beats a crash.
        return text.len().div_ceil(4);
    };
    if !has_long_whitespace(text)
        && let Ok(n) = counter.count(text)
    {
        return n;
    }
    split_long_whitespace(text)
        .map(|piece| count_in_halves(counter, piece))
        .sum()
}

/// Counts `text`, cut in two at a character boundary (and so on) wherever the pattern gives up.
fn count_in_halves(counter: &bpe::Counter, text: &str) -> usize {
    if let Ok(n) = counter.count(text) {
        return n;
    }
    let mut mid = text.len() / 2;
    while !text.is_char_boundary(mid) {
        mid += 1;
    }
    if mid == 0 || mid == text.len() {
        return 1; // one character
    }
    let (a, b) = text.split_at(mid);
    count_in_halves(counter, a) + count_in_halves(counter, b)
}

fn has_long_whitespace(text: &str) -> bool {
    if text.len() < LONG_WHITESPACE {
        return false;
    }
    let mut run = 0;
    for c in text.chars() {
        if c.is_whitespace() {
            run += 1;
            if run >= LONG_WHITESPACE {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Cuts `text` inside whitespace runs every [`WHITESPACE_PIECE`] characters.
fn split_long_whitespace(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut run = 0;
        let mut cut = rest.len();
        for (i, c) in rest.char_indices() {
            if c.is_whitespace() {
                run += 1;
                if run == WHITESPACE_PIECE {
                    cut = i + c.len_utf8();
                    break;
                }
            } else {
                run = 0;
            }
        }
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

/// Token figures of one skill. `None` means not known: not counted yet, not listed (L1), or the
/// file could not be read (L2).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SkillTokens {
    /// Its entry in the listing.
    pub l1: Option<u32>,
    /// The whole SKILL.md.
    pub l2: Option<u32>,
    /// All text resources together (not the schema).
    pub l3: Option<u32>,
    pub resources: Vec<ResourceTokens>,
    /// The tool schema an executable skill answers `--help-json` with, filled in by the probe.
    pub schema: Option<u32>,
}

impl SkillTokens {
    /// Nothing known yet.
    pub const UNKNOWN: SkillTokens = SkillTokens {
        l1: None,
        l2: None,
        l3: None,
        resources: Vec::new(),
        schema: None,
    };

    /// Every level as far as known, the schema included.
    pub fn known_total(&self) -> u64 {
        u64::from(self.l1.unwrap_or(0))
            + u64::from(self.l2.unwrap_or(0))
            + u64::from(self.l3_with_schema().unwrap_or(0))
    }

    /// L3 including the tool schema when it is known.
    pub fn l3_with_schema(&self) -> Option<u32> {
        match (self.l3, self.schema) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
        }
    }
}

/// One file of a skill other than its SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResourceTokens {
    /// Path relative to the skill folder, `/`-separated.
    pub rel: String,
    pub size: u64,
    /// Whether the file is text (binary files are listed, not counted).
    pub text: bool,
    /// `None` for binary files and for text files that could not be read.
    pub tokens: Option<u32>,
}

/// How far a level's counting has come, for progress displays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub level: Level,
    pub done: usize,
    pub total: usize,
}

/// No progress display.
pub fn no_progress(_: Progress) {}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The count of a text that is not a file (a listing entry, a schema), through the cache.
pub fn count_text(text: &str, enc: Encoding, cache: &TokenCache) -> u32 {
    let hash = *blake3::hash(text.as_bytes()).as_bytes();
    if let Some(n) = cache.get(&hash, enc) {
        return n;
    }
    cache.note_encoded();
    let n = to_u32(count(enc, text));
    cache.insert(hash, enc, n);
    n
}

/// The count of a file's whole text (lossy UTF-8), through the stat index and the cache. `len` and
/// `mtime_ns` are the file's stat; with mtime 0 (unknown) the file is always read.
pub fn count_file(
    path: &Path,
    len: u64,
    mtime_ns: u128,
    enc: Encoding,
    cache: &TokenCache,
) -> std::io::Result<u32> {
    if let Some(n) = cache
        .file_hash(path, len, mtime_ns)
        .and_then(|hash| cache.get(&hash, enc))
    {
        return Ok(n);
    }
    // Regular files only, opened without blocking: a pipe at a skill's path must not hang.
    let bytes = crate::core::library::read_regular(path)?;
    cache.note_read();
    let hash = *blake3::hash(&bytes).as_bytes();
    // The stat said `len`; a different length means the file changed since, so the stat is not
    // remembered (the count still is, under the hash of what was read).
    if bytes.len() as u64 == len {
        cache.remember_file(path, len, mtime_ns, hash);
    }
    if let Some(n) = cache.get(&hash, enc) {
        return Ok(n);
    }
    let text = String::from_utf8_lossy(&bytes);
    cache.note_encoded();
    let n = to_u32(count(enc, &text));
    cache.insert(hash, enc, n);
    Ok(n)
}

/// L1 of every skill: the count of each listing entry (see [`crate::core::listing::entries`]). An
/// empty text is a skill that is not listed and gets `None`.
pub fn count_l1(
    texts: &[String],
    enc: Encoding,
    cache: &TokenCache,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<Option<u32>> {
    count_l1_unless(texts, enc, cache, progress, &AtomicBool::new(false)).unwrap_or_default()
}

/// [`count_l1`], given up (`None`) when `stop` is set before the end.
pub fn count_l1_unless(
    texts: &[String],
    enc: Encoding,
    cache: &TokenCache,
    progress: &(dyn Fn(Progress) + Sync),
    stop: &AtomicBool,
) -> Option<Vec<Option<u32>>> {
    each(texts, Level::L1, progress, stop, |t| {
        (!t.is_empty()).then(|| count_text(t, enc, cache))
    })
}

/// `f` of every item on worker threads, with a progress report after each. Once `stop` is set
/// the items left are skipped and the answer is `None`: a result nobody waits for any more.
fn each<T: Sync, R: Send>(
    items: &[T],
    level: Level,
    progress: &(dyn Fn(Progress) + Sync),
    stop: &AtomicBool,
    f: impl Fn(&T) -> R + Sync,
) -> Option<Vec<R>> {
    let done = AtomicUsize::new(0);
    let total = items.len();
    let out: Option<Vec<R>> = items
        .par_iter()
        .map(|item| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let r = f(item);
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(Progress {
                level,
                done: d,
                total,
            });
            Some(r)
        })
        .collect();
    out.filter(|_| !stop.load(Ordering::Relaxed))
}

/// L2 of one skill: its whole SKILL.md as a load tool returns it.
pub fn count_skill_l2(skill: &Skill, enc: Encoding, cache: &TokenCache) -> Option<u32> {
    // The scan's stat is the one to trust: it was taken before anything read the file.
    count_file(&skill.skill_md, skill.file_len, skill.mtime_ns, enc, cache).ok()
}

/// L2 of every skill.
pub fn count_l2(
    lib: &Library,
    enc: Encoding,
    cache: &TokenCache,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<Option<u32>> {
    count_l2_unless(lib, enc, cache, progress, &AtomicBool::new(false)).unwrap_or_default()
}

/// [`count_l2`], given up (`None`) when `stop` is set before the end.
pub fn count_l2_unless(
    lib: &Library,
    enc: Encoding,
    cache: &TokenCache,
    progress: &(dyn Fn(Progress) + Sync),
    stop: &AtomicBool,
) -> Option<Vec<Option<u32>>> {
    each(&lib.skills, Level::L2, progress, stop, |s| {
        count_skill_l2(s, enc, cache)
    })
}

fn count_resource(r: &Resource, enc: Encoding, cache: &TokenCache) -> ResourceTokens {
    // A file the cache knows by its stat was text when it was counted: it need not be opened.
    let known = cache
        .file_hash(&r.path, r.size, r.mtime_ns)
        .and_then(|hash| cache.get(&hash, enc));
    let text = known.is_some() || library::looks_like_text(&r.path);
    let tokens = match known {
        Some(n) => Some(n),
        None if text => count_file(&r.path, r.size, r.mtime_ns, enc, cache).ok(),
        None => None,
    };
    ResourceTokens {
        rel: r.rel.clone(),
        size: r.size,
        text,
        tokens,
    }
}

/// L3 of one skill: every resource, text ones counted.
pub fn count_skill_l3(skill: &Skill, enc: Encoding, cache: &TokenCache) -> Vec<ResourceTokens> {
    library::resource_files(skill)
        .par_iter()
        .map(|r| count_resource(r, enc, cache))
        .collect()
}

/// The sum of the text resources' counts.
pub fn l3_total(resources: &[ResourceTokens]) -> u32 {
    resources
        .iter()
        .filter_map(|r| r.tokens)
        .fold(0u32, u32::saturating_add)
}

/// L3 of every skill.
pub fn count_l3(
    lib: &Library,
    enc: Encoding,
    cache: &TokenCache,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<Vec<ResourceTokens>> {
    count_l3_unless(lib, enc, cache, progress, &AtomicBool::new(false)).unwrap_or_default()
}

/// [`count_l3`], given up (`None`) when `stop` is set before the end.
pub fn count_l3_unless(
    lib: &Library,
    enc: Encoding,
    cache: &TokenCache,
    progress: &(dyn Fn(Progress) + Sync),
    stop: &AtomicBool,
) -> Option<Vec<Vec<ResourceTokens>>> {
    each(&lib.skills, Level::L3, progress, stop, |s| {
        count_skill_l3(s, enc, cache)
    })
}

/// Every level of every skill, in library order. `l1_texts` holds one listing entry per skill
/// (empty for skills that are not listed).
pub fn count_library(
    lib: &Library,
    l1_texts: &[String],
    enc: Encoding,
    cache: &TokenCache,
) -> Vec<SkillTokens> {
    count_library_with(lib, l1_texts, enc, cache, &no_progress)
}

/// [`count_library`] with a progress report after each skill of each level, L1 first.
pub fn count_library_with(
    lib: &Library,
    l1_texts: &[String],
    enc: Encoding,
    cache: &TokenCache,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<SkillTokens> {
    let l1 = count_l1(l1_texts, enc, cache, progress);
    let l2 = count_l2(lib, enc, cache, progress);
    let l3 = count_l3(lib, enc, cache, progress);
    l2.into_iter()
        .zip(l3)
        .enumerate()
        .map(|(i, (l2, resources))| SkillTokens {
            l1: l1.get(i).copied().flatten(),
            l2,
            l3: Some(l3_total(&resources)),
            resources,
            schema: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_names_round_trip() {
        for e in Encoding::ALL {
            assert_eq!(e.to_string().parse::<Encoding>().unwrap(), e);
        }
        assert_eq!(Encoding::default(), Encoding::O200kBase);
        assert!(matches!(
            "gpt2".parse::<Encoding>(),
            Err(TokenError::UnknownEncoding(_))
        ));
    }

    #[test]
    fn long_whitespace_is_cut_without_losing_text() {
        let text = format!("a{}b{}c", " ".repeat(250_001), "\t".repeat(3));
        let pieces: Vec<&str> = split_long_whitespace(&text).collect();
        assert_eq!(pieces.concat(), text);
        assert_eq!(pieces.len(), 3);
        assert!(pieces.iter().all(|p| p.len() <= WHITESPACE_PIECE + 1));
        assert!(!has_long_whitespace(&text));
        assert!(has_long_whitespace(&" ".repeat(LONG_WHITESPACE)));
    }

    #[test]
    fn a_million_spaces_do_not_panic_and_long_runs_stay_close_to_tiktoken() {
        // Python tiktoken fails on this text; the count is the sum of its pieces.
        let text = format!("{}x", " ".repeat(1_000_000));
        assert!(count(Encoding::O200kBase, &text) > 0);
        // Python tiktoken counts 7,033 tokens here, where the run is just short of failing; the
        // pieces must stay within 1% of that.
        let text = format!("{}x", " ".repeat(900_000));
        assert!(has_long_whitespace(&text));
        let n = count(Encoding::O200kBase, &text) as f64;
        assert!((n - 7_033.0).abs() / 7_033.0 < 0.01, "{n}");
    }
}
