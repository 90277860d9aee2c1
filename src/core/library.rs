//! The library: every skill of every root, with shadowing resolved, and on-demand access to what
//! the scan does not keep (bodies, resources).

use crate::core::findings::catalogue::Profile;
use crate::core::findings::diagnostic::{Diagnostic, RuleId};
use crate::core::index::{self, IndexStore, WalkRecord};
use crate::core::resource::Resource;
use crate::core::scan::{self, ScanOptions};
use crate::core::skill::Skill;
use crate::core::source::Root;
use rustc_hash::FxHashMap as HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How a client picks one of several copies of a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// It loads its skills concurrently and keeps the one loaded last.
    LoadOrder,
    /// It keeps the one its file system lists last.
    FileSystemOrder,
}

/// What the agent's client decides about one skill as it runs, which no reading of the files
/// can tell: its place among the entries of its folder, or which copy of its name is listed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientChoice {
    /// The folder whose entries the client lists in the order its file system gives (Gemini
    /// CLI's glob, which it does not sort), when the skill is one of them.
    pub order: Option<PathBuf>,
    /// The other copies of its name the client may list in its place, by index.
    pub copies: Vec<usize>,
    /// How the client picks among the copies.
    pub pick: Option<Pick>,
}

impl ClientChoice {
    /// What the client may do otherwise, for people: `order: the client's file-system order`,
    /// `either copy: the client picks by load order`; `None` when nothing (an order among
    /// fewer than `listed_beside + 1` entries is no choice).
    pub fn describe(&self, listed_beside: usize) -> Option<String> {
        let mut parts = Vec::new();
        if self.order.is_some() && listed_beside > 0 {
            parts.push("order: the client's file-system order".to_string());
        }
        if let Some(pick) = self.pick.filter(|_| !self.copies.is_empty()) {
            let which = if self.copies.len() == 1 {
                "either copy".to_string()
            } else {
                format!("any of {} copies", self.copies.len() + 1)
            };
            let how = match pick {
                Pick::LoadOrder => "load order",
                Pick::FileSystemOrder => "file-system order",
            };
            parts.push(format!("{which}: the client picks by {how}"));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// Why a skill's file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Every skill of every root, with shadowing resolved, and what could not be read.
#[derive(Debug, Clone, Default)]
pub struct Library {
    /// The roots read, in precedence order.
    pub roots: Vec<Root>,
    /// Every skill found, the shadowed ones included.
    pub skills: Vec<Skill>,
    /// Problems that belong to no single skill: missing roots, unreadable folders, cycles.
    pub problems: Vec<Diagnostic>,
    /// The roots are the bundled demo library, used because no skills are installed.
    pub demo: bool,
    /// Things to tell the user about how the library was read that are no finding about it (an
    /// index file that could not be used).
    pub notes: Vec<String>,
    /// Skills kept out of every listing though enabled, with why (conditional skills no open
    /// file activates), by index.
    pub inactive: HashMap<usize, String>,
    /// Skills the agent of this view lists by name only whatever its budget (Claude Code's
    /// `name-only` switch), with why, by index.
    pub name_only: HashMap<usize, String>,
    /// Skills kept out of the listing and of every matcher (they are in `inactive`) that the
    /// agent still loads when the user names them (Codex's `allow_implicit_invocation: false`),
    /// by index.
    pub explicit_only: std::collections::HashSet<usize>,
    /// Skills the agent's own switch turns off (they are in `inactive`, with the switch named),
    /// by index: the client still answers a call of one by name in its own way.
    pub switched_off: std::collections::HashSet<usize>,
    /// The agent whose view this library is ([`Library::subset`]), if it is one agent's.
    pub agent: Option<crate::core::source::Agent>,
    /// The agent of this view lists nothing at all, its client's built-ins included, with why
    /// (Gemini CLI's `skills.enabled: false`, opencode's skill tool denied).
    pub listing_off: Option<String>,
    /// Built-in entries of the agent's client its settings switch off, by name, with why.
    pub builtins_off: HashMap<String, String>,
    /// Skills whose place in the listing, or whose copy, the agent's client decides as it runs
    /// (by the order its file system or its concurrent loads give), by index.
    pub choices: HashMap<usize, ClientChoice>,
    /// What the walks saw of the installers' record files (`scan::Seen`), for their lookups.
    pub seen: Arc<crate::core::scan::Seen>,
    /// Where the library index lives and what to write into it.
    index: Option<Arc<IndexState>>,
}

/// The library index of a loaded library: its file, the walks to remember, and whether anything
/// learned since it was read is not in the file yet.
#[derive(Debug)]
struct IndexState {
    path: PathBuf,
    walks: Vec<WalkRecord>,
    /// When the scan started: stamps newer than the racy window before it are not trusted.
    taken_ns: u128,
    dirty: AtomicBool,
    /// Every root and skill was taken from the index: nothing was walked or parsed.
    unchanged: bool,
    /// Held through a save, so a save at exit waits for one already writing.
    writing: std::sync::Mutex<()>,
    /// The library-wide rules' findings by the key of their inputs, most recent last.
    remembered: std::sync::Mutex<Vec<index::Remembered>>,
    /// Counts of listings of this library, most recent last (see [`Library::text_count`]).
    texts: std::sync::Mutex<Vec<index::TextCount>>,
    /// The semantic matcher's vectors: left in the index file until asked for, then in memory.
    vectors: std::sync::Mutex<Option<index::Vectors>>,
    /// The copies of skills read at a linked place ([`Skill::linked`]): not in the library,
    /// but remembered so that the next load does not read them again.
    folded: Vec<Skill>,
}

/// How much of a load the index saved, for tests and benchmarks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// Roots walked (not taken from the index).
    pub roots_walked: usize,
    /// Skill files parsed (not taken from the index).
    pub skills_parsed: usize,
}

/// The groups Conjure sorts a skill's files into (design 004: `resources: %{scripts: [],
/// references: [], assets: [], other: []}`), by the spec's folder names.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    strum::VariantArray,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum ResourceGroup {
    /// Below `scripts/`.
    Scripts,
    /// Below `references/`.
    References,
    /// Below `assets/`.
    Assets,
    /// Anywhere else.
    Other,
}

impl ResourceGroup {
    /// Every group, in Conjure's order.
    pub const ALL: &'static [ResourceGroup] = <ResourceGroup as strum::VariantArray>::VARIANTS;

    /// The group of a file by its path inside the skill folder: a file below `scripts/`,
    /// `references/` or `assets/`, or any other.
    pub fn of(rel: &str) -> ResourceGroup {
        match rel.split_once('/').map(|(top, _)| top) {
            Some("scripts") => ResourceGroup::Scripts,
            Some("references") => ResourceGroup::References,
            Some("assets") => ResourceGroup::Assets,
            _ => ResourceGroup::Other,
        }
    }

    /// Its name in JSON and on screen.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A skill's resources by group, each group's paths in path order (the JSON of `list` and
/// `show`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct GroupedResources<'a> {
    /// Files below `scripts/`.
    pub scripts: Vec<&'a str>,
    /// Files below `references/`.
    pub references: Vec<&'a str>,
    /// Files below `assets/`.
    pub assets: Vec<&'a str>,
    /// Every other file.
    pub other: Vec<&'a str>,
}

impl<'a> GroupedResources<'a> {
    /// `resources` sorted into their groups, in their order.
    pub fn of(resources: &'a [Resource]) -> GroupedResources<'a> {
        let mut g = GroupedResources::default();
        for r in resources {
            let list = match ResourceGroup::of(&r.rel) {
                ResourceGroup::Scripts => &mut g.scripts,
                ResourceGroup::References => &mut g.references,
                ResourceGroup::Assets => &mut g.assets,
                ResourceGroup::Other => &mut g.other,
            };
            list.push(&r.rel);
        }
        g
    }

    /// Each group with its paths, in [`ResourceGroup::ALL`] order.
    pub fn groups(&self) -> [(ResourceGroup, &[&'a str]); 4] {
        [
            (ResourceGroup::Scripts, &self.scripts),
            (ResourceGroup::References, &self.references),
            (ResourceGroup::Assets, &self.assets),
            (ResourceGroup::Other, &self.other),
        ]
    }
}

/// Here rather than beside [`Profile`]: the catalogue lies below the library and knows nothing of it.
impl Profile {
    /// The profile a library is judged by when none is asked for: the bundled demo library is
    /// written for Lazy Skills; everything else starts with the spec.
    pub fn fitting(lib: &Library) -> Profile {
        if lib.demo {
            Profile::LazySkills
        } else {
            Profile::Spec
        }
    }
}

impl Library {
    /// Walks and reads every root, with no index.
    pub fn load(roots: Vec<Root>, opts: &ScanOptions) -> Library {
        Library::load_indexed(roots, opts, &IndexStore::none()).0
    }

    /// Loads the library through its index in `store`: roots whose folders kept their stat are
    /// not walked, skill files that kept theirs are not read, and the index is written back when
    /// anything was new. An index file that cannot be read (not a regular file, say) is left
    /// alone, with a note.
    pub fn load_indexed(
        roots: Vec<Root>,
        opts: &ScanOptions,
        store: &IndexStore,
    ) -> (Library, LoadStats) {
        let root_paths: Vec<PathBuf> = roots.iter().map(|r| r.path.clone()).collect();
        let path = store.path_for(&root_paths, opts.max_depth, opts.max_entries);
        let mut notes = Vec::new();
        let mut data = match path.as_deref().map(index::read) {
            Some(Ok(d)) => d,
            Some(Err(e)) => {
                notes.push(format!("library index not used: {e}"));
                None
            }
            None => None,
        };
        let taken_ns = crate::core::files::fsx::now_ns();
        let remembered = data
            .as_mut()
            .map(|d| std::mem::take(&mut d.remembered))
            .unwrap_or_default();
        let texts = data
            .as_mut()
            .map(|d| std::mem::take(&mut d.texts))
            .unwrap_or_default();
        let vectors = data
            .as_mut()
            .and_then(|d| d.vectors.take())
            .map(index::Vectors::Copy);
        let scanned = scan::scan_indexed(&roots, opts, data);
        let stats = LoadStats {
            roots_walked: scanned.roots_walked,
            skills_parsed: scanned.skills_parsed,
        };
        let changed = stats.roots_walked > 0 || stats.skills_parsed > 0;
        let (mut skills, mut problems) = (scanned.skills, scanned.problems);
        for root in roots.iter().filter(|r| r.commands) {
            let (commands, trouble) = crate::core::commands::load(root);
            skills.extend(commands);
            problems.extend(trouble);
        }
        // One folder reached through links from several agents' folders is one skill.
        let merged = crate::core::layout::merge(&roots, skills);
        let (skills, folded) = (merged.skills, merged.folded);
        let mut lib = Library {
            roots,
            skills,
            problems,
            demo: false,
            notes,
            inactive: HashMap::default(),
            name_only: HashMap::default(),
            explicit_only: std::collections::HashSet::default(),
            switched_off: std::collections::HashSet::default(),
            agent: None,
            listing_off: None,
            builtins_off: HashMap::default(),
            choices: HashMap::default(),
            seen: Arc::new(scanned.seen),
            index: None,
        };
        lib.resolve_shadowing();
        if let Some(path) = path
            && lib.notes.is_empty()
        {
            // A remembered walk holds nothing now (the scan let it go): it is copied from the
            // index file when the index is written again.
            lib.index = Some(Arc::new(IndexState {
                path,
                walks: scanned.walks,
                taken_ns,
                dirty: AtomicBool::new(changed),
                unchanged: !changed,
                writing: std::sync::Mutex::new(()),
                remembered: std::sync::Mutex::new(remembered),
                texts: std::sync::Mutex::new(texts),
                vectors: std::sync::Mutex::new(vectors),
                folded,
            }));
            lib.save_index();
        }
        (lib, stats)
    }

    /// Whether the library came whole from its index: no root walked, no skill file parsed.
    pub fn from_index(&self) -> bool {
        self.index.as_ref().is_some_and(|ix| ix.unchanged)
    }

    /// Says that something was learned that the index should keep (the body rules call it).
    pub fn index_changed(&self) {
        if let Some(ix) = &self.index {
            ix.dirty.store(true, Ordering::Relaxed);
        }
    }

    /// Library-wide findings remembered in the index for inputs hashing to `key` (then the most
    /// recently used, the last to be let go of).
    pub(crate) fn remembered(&self, key: &[u8; 32]) -> Option<Vec<(usize, Diagnostic)>> {
        let ix = self.index.as_ref()?;
        let mut kept = ix
            .remembered
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let at = kept.iter().position(|(k, _)| k == key)?;
        let last = kept.len() - 1;
        if at != last {
            // Only the order changed: nothing to save for that alone.
            let hit = kept.remove(at);
            kept.push(hit);
        }
        kept.last().map(|(_, found)| found.clone())
    }

    /// Remembers library-wide findings for inputs hashing to `key`, for the next run; past
    /// [`index::REMEMBERED_KEPT`], the least recently used go.
    pub(crate) fn remember(&self, key: [u8; 32], found: &[(usize, Diagnostic)]) {
        if let Some(ix) = &self.index {
            let mut kept = ix
                .remembered
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            kept.retain(|(k, _)| *k != key);
            if kept.len() >= index::REMEMBERED_KEPT {
                kept.remove(0);
            }
            kept.push((key, found.to_vec()));
            ix.dirty.store(true, Ordering::Relaxed);
        }
    }

    /// The count of a text made from this library (a listing) with the encoding numbered `enc`,
    /// when the library index remembers one for a text of blake3 hash `hash`.
    pub(crate) fn text_count(&self, hash: &[u8; 32], enc: u8) -> Option<u32> {
        let ix = self.index.as_ref()?;
        let texts = ix
            .texts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        texts
            .iter()
            .find(|(h, e, _)| h == hash && *e == enc)
            .map(|(_, _, n)| *n)
    }

    /// Remembers the count of a text made from this library, for the next run: a warm run then
    /// counts its listings without reading the token cache. The oldest go past
    /// [`index::TEXTS_KEPT`].
    pub(crate) fn remember_text_count(&self, hash: [u8; 32], enc: u8, n: u32) {
        let Some(ix) = &self.index else {
            return;
        };
        let mut texts = ix
            .texts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        texts.retain(|(h, e, _)| !(*h == hash && *e == enc));
        if texts.len() >= index::TEXTS_KEPT {
            texts.remove(0);
        }
        texts.push((hash, enc, n));
        ix.dirty.store(true, Ordering::Relaxed);
    }

    /// The sentence vectors the library index remembers, by the key of their text (empty
    /// without an index, or when its vectors cannot be read). The first call reads them from
    /// the index file.
    pub(crate) fn remembered_vectors(&self) -> HashMap<[u8; 32], Vec<f32>> {
        self.with_remembered_vectors(|v| v.iter().map(|(k, v)| (**k, v.to_vec())).collect())
    }

    /// [`Library::remembered_vectors`] lent to `f` rather than copied (the corpus's are
    /// megabytes).
    pub(crate) fn with_remembered_vectors<R>(
        &self,
        f: impl FnOnce(&HashMap<&[u8; 32], &[f32]>) -> R,
    ) -> R {
        let Some(ix) = &self.index else {
            return f(&HashMap::default());
        };
        let mut slot = ix
            .vectors
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(index::Vectors::Copy(stored)) = &*slot {
            *slot = index::read_vectors(stored).map(index::Vectors::Entries);
        }
        match &*slot {
            Some(index::Vectors::Entries(entries)) => {
                f(&entries.iter().map(|(k, v)| (k, v.as_slice())).collect())
            }
            _ => f(&HashMap::default()),
        }
    }

    /// The keys of the sentence vectors the library index remembers, without the vectors: what
    /// a check needs to know whether every description has one. The vectors stay in the file.
    pub(crate) fn remembered_vector_keys(&self) -> rustc_hash::FxHashSet<[u8; 32]> {
        let Some(ix) = &self.index else {
            return rustc_hash::FxHashSet::default();
        };
        let slot = ix
            .vectors
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match &*slot {
            Some(index::Vectors::Copy(stored)) => index::read_vector_keys(stored)
                .unwrap_or_default()
                .into_iter()
                .collect(),
            Some(index::Vectors::Entries(entries)) => entries.iter().map(|e| e.0).collect(),
            None => rustc_hash::FxHashSet::default(),
        }
    }

    /// Remembers the sentence vectors of this library's skill fields for the next run, in
    /// place of those remembered before.
    pub(crate) fn remember_vectors(&self, entries: Vec<index::VectorEntry>) {
        if let Some(ix) = &self.index {
            *ix.vectors
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) =
                Some(index::Vectors::Entries(entries));
            ix.dirty.store(true, Ordering::Relaxed);
        }
    }

    /// Writes the library index if anything is new since it was read. A cache: failing to write
    /// it costs time next run, nothing more, so the error is only returned for display.
    pub fn save_index(&self) -> Option<std::io::Error> {
        let ix = self.index.as_ref()?;
        let _writing = ix
            .writing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Readings the agents took off skill files since the last save are kept too.
        let read = self.skills.iter().fold(false, |any, s| {
            s.facts.readings_learned.swap(false, Ordering::Relaxed) | any
        });
        if !ix.dirty.swap(false, Ordering::Relaxed) && !read {
            return None;
        }
        let remembered = ix
            .remembered
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let texts = ix
            .texts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let vectors = ix
            .vectors
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let written = index::write(
            &ix.path,
            &ix.walks,
            self.skills.iter().chain(&ix.folded),
            &remembered,
            &texts,
            vectors.as_ref(),
            ix.taken_ns,
        );
        // Not written: what is new is still to be written, by the next save.
        let err = written.err()?;
        ix.dirty.store(true, Ordering::Relaxed);
        Some(err)
    }

    /// For every name an agent sees twice, the copy of highest precedence wins and the others are
    /// shadowed by it. Agents read only their own folders, so only skills of the same agent compete;
    /// agents that namespace nested folders compare ids rather than names; and skill folders named
    /// one by one on the command line are each listed, as `skills-ref to-prompt` lists the folders
    /// it is given, so they never shadow each other (libraries given there still do, in order).
    pub fn resolve_shadowing(&mut self) {
        let prec: HashMap<&Path, (u8, u8, usize)> = self
            .roots
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let (a, s) = r.precedence();
                (r.path.as_path(), (a, s, i))
            })
            .collect();
        let root_index: HashMap<&Path, usize> = self
            .roots
            .iter()
            .enumerate()
            .map(|(i, r)| (r.path.as_path(), i))
            .collect();
        let mut winners: HashMap<(crate::core::Agent, Option<usize>, &str), usize> =
            HashMap::default();
        let mut shadowed = vec![None; self.skills.len()];
        let mut order: Vec<usize> = (0..self.skills.len()).collect();
        // Each skill's rank looked up once; the scan lists a root's skills in folder order, so
        // the sort mostly finds runs already in order.
        // Skills hold their root's own path, so its bytes find it at once; a path spelled
        // otherwise goes through the names, as the maps are keyed.
        let prec_by_bytes: HashMap<&[u8], (u8, u8, usize)> = self
            .roots
            .iter()
            .filter_map(|r| Some((r.path.as_os_str().as_encoded_bytes(), *prec.get(&*r.path)?)))
            .collect();
        let rank: Vec<(u8, u8, usize)> = self
            .skills
            .iter()
            .map(|s| {
                prec_by_bytes
                    .get(s.root.as_os_str().as_encoded_bytes())
                    .or_else(|| prec.get(&*s.root))
                    .copied()
                    .unwrap_or((u8::MAX, u8::MAX, usize::MAX))
            })
            .collect();
        order.sort_by(|&a, &b| {
            rank[a]
                .cmp(&rank[b])
                .then_with(|| self.skills[a].dir.cmp(&self.skills[b].dir))
        });
        for i in order {
            let s = &self.skills[i];
            // An agent cannot load a skill whose frontmatter does not parse, so it shadows nothing.
            if !s.frontmatter.parsed {
                continue;
            }
            let named_alone = s.agent == crate::core::Agent::Path
                && (same_path(&s.dir, &s.root) || same_path(&s.skill_md, &s.root));
            let own_root = named_alone
                .then(|| root_index.get(&*s.root).copied())
                .flatten();
            let key = (s.agent, own_root, s.shadow_key());
            match winners.get(&key) {
                Some(&w) => shadowed[i] = Some(w),
                None => {
                    winners.insert(key, i);
                }
            }
        }
        for (s, sh) in self.skills.iter_mut().zip(shadowed) {
            s.shadowed_by = sh;
        }
    }

    /// How many skills it holds.
    pub fn len(&self) -> usize {
        self.skills.len()
    }

    /// The skills at `keep` (in that order) as a library of their own, for one agent's view:
    /// shadowing points into the new order (a winner left out shadows nothing), and the index
    /// stays with this library (a view never writes it).
    pub fn subset(&self, keep: &[usize]) -> Library {
        let mut new_of = vec![None; self.skills.len()];
        for (n, &i) in keep.iter().enumerate() {
            new_of[i] = Some(n);
        }
        let skills = keep
            .iter()
            .map(|&i| {
                let mut s = self.skills[i].clone();
                s.shadowed_by = s.shadowed_by.and_then(|w| new_of[w]);
                s
            })
            .collect();
        Library {
            roots: self.roots.clone(),
            skills,
            problems: self.problems.clone(),
            demo: self.demo,
            notes: self.notes.clone(),
            inactive: self
                .inactive
                .iter()
                .filter_map(|(&i, why)| Some((new_of[i]?, why.clone())))
                .collect(),
            name_only: self
                .name_only
                .iter()
                .filter_map(|(&i, why)| Some((new_of[i]?, why.clone())))
                .collect(),
            explicit_only: self
                .explicit_only
                .iter()
                .filter_map(|&i| new_of[i])
                .collect(),
            switched_off: self
                .switched_off
                .iter()
                .filter_map(|&i| new_of[i])
                .collect(),
            agent: self.agent,
            listing_off: self.listing_off.clone(),
            builtins_off: self.builtins_off.clone(),
            choices: self
                .choices
                .iter()
                .filter_map(|(&i, c)| {
                    let mut c = c.clone();
                    c.copies.retain_mut(|k| match new_of[*k] {
                        Some(n) => {
                            *k = n;
                            true
                        }
                        None => false,
                    });
                    Some((new_of[i]?, c))
                })
                .collect(),
            seen: Arc::clone(&self.seen),
            index: None,
        }
    }

    /// Whether it holds no skill.
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    /// The index of the skill named `name` (or with that id) that wins, if any.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.skills.iter().position(|s| s.name == name)
    }

    /// What could not be read, with the path it is about: missing roots, roots that are files,
    /// folders the walk could not enter, walks cut short, and skill files that were not read.
    pub fn unread(&self) -> Vec<(&Path, &Diagnostic)> {
        let problems = self
            .problems
            .iter()
            .map(|d| (d.path.as_deref().unwrap_or(Path::new(".")), d));
        let skills = self.skills.iter().flat_map(|s| {
            s.parse_diagnostics
                .iter()
                .filter(|d| UNREAD_SKILL_RULES.contains(&d.rule))
                .map(|d| (s.skill_md.as_path(), d))
        });
        problems.chain(skills).collect()
    }
}

/// The parse findings that mean a skill file was not read at all.
const UNREAD_SKILL_RULES: &[RuleId] = &[RuleId::FileUnreadable, RuleId::SkillFileNotRegular];

/// The bytes of a regular file (see [`fsx::open_regular`](crate::core::files::fsx::open_regular)).
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    let (mut file, meta) = crate::core::files::fsx::open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A file's text, bytes that are not UTF-8 replaced; only a regular file is read.
pub fn read_text(path: &Path) -> Result<String, LibraryError> {
    let bytes = read_regular(path).map_err(|source| LibraryError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// At most the first `max` bytes of the body of a SKILL.md (a character cut at the end is
/// replaced): what a question about its beginning needs, in bounded memory.
pub fn read_body_up_to(skill: &Skill, max: u64) -> Result<String, LibraryError> {
    use std::io::{Read, Seek};
    let read = || -> std::io::Result<Vec<u8>> {
        let (mut file, _) = crate::core::files::fsx::open_regular(&skill.skill_md)?;
        file.seek(std::io::SeekFrom::Start(skill.body_offset))?;
        let mut bytes = Vec::new();
        file.take(max).read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    let bytes = read().map_err(|source| LibraryError::Read {
        path: skill.skill_md.clone(),
        source,
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The body of a SKILL.md (everything after the frontmatter).
pub fn read_body(skill: &Skill) -> Result<String, LibraryError> {
    let bytes = read_regular(&skill.skill_md).map_err(|source| LibraryError::Read {
        path: skill.skill_md.clone(),
        source,
    })?;
    let start = (skill.body_offset as usize).min(bytes.len());
    Ok(String::from_utf8_lossy(&bytes[start..]).into_owned())
}

/// Whether two paths name the same components (`Path`'s `==`). A path that is `root` followed by
/// a name of its own (a byte other than `/` and `.`) has more components than `root`: a skill's
/// folder and file below its root, which every skill is asked of, are told apart by their bytes
/// without taking either into components.
pub(crate) fn same_path(path: &Path, root: &Path) -> bool {
    if path.as_os_str() == root.as_os_str() {
        return true;
    }
    match scan::below(path, root) {
        Some(rel)
            if rel
                .as_os_str()
                .as_encoded_bytes()
                .iter()
                .any(|&b| b != b'/' && b != b'.') =>
        {
            false
        }
        _ => path == root,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::files::fsx::Stamp;
    #[cfg(unix)]
    use crate::core::files::fsx::is_not_regular;
    #[cfg(unix)]
    use crate::core::resource::looks_like_text;
    use crate::core::source::{Agent, Scope};

    #[test]
    fn paths_told_apart_by_their_bytes_are_the_paths_that_differ_by_components() {
        use proptest::prelude::*;
        let path = "(/?[a./]{0,4}){0,4}";
        proptest!(ProptestConfig::with_cases(20_000), |(root in path, rel in "[a./]{0,6}", sep in "/{0,2}")| {
            let root = Path::new(&root);
            let joined = format!("{}{sep}{rel}", root.display());
            let p = Path::new(&joined);
            // The slow way: both paths taken into components.
            prop_assert_eq!(same_path(p, root), p == root, "{} and {}", p.display(), root.display());
            prop_assert_eq!(same_path(root, p), root == p);
        });
        assert!(same_path(Path::new("/x/lib/"), Path::new("/x/lib")));
        assert!(same_path(Path::new("/x/lib/."), Path::new("/x/lib")));
        assert!(!same_path(Path::new("/x/lib/a"), Path::new("/x/lib")));
        assert!(!same_path(Path::new("/x/lib/.."), Path::new("/x/lib")));
    }

    #[test]
    fn resources_fall_into_conjures_groups() {
        let rs: Vec<Resource> = [
            "assets/logo.png",
            "execute.py",
            "references/forms.md",
            "references/deep/more.md",
            "scripts",
            "scripts/fill.py",
            "scriptsx/a.sh",
        ]
        .iter()
        .map(|r| Resource::new(r.to_string(), Stamp::default(), true))
        .collect();
        let g = GroupedResources::of(&rs);
        assert_eq!(g.scripts, ["scripts/fill.py"]);
        assert_eq!(
            g.references,
            ["references/forms.md", "references/deep/more.md"]
        );
        assert_eq!(g.assets, ["assets/logo.png"]);
        assert_eq!(g.other, ["execute.py", "scripts", "scriptsx/a.sh"]);
        let v = serde_json::to_value(&g).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["scripts", "references", "assets", "other"]);
    }

    fn write(p: &Path, s: &[u8]) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    }

    #[test]
    fn user_scope_shadows_project_scope_of_the_same_agent_only() {
        let t = tempfile::tempdir().unwrap();
        let user = t.path().join("u");
        let proj = t.path().join("p");
        let codex = t.path().join("c");
        for r in [&user, &proj, &codex] {
            write(
                &r.join("pdf/SKILL.md"),
                b"---\nname: pdf\ndescription: d\n---\n",
            );
        }
        let lib = Library::load(
            vec![
                Root::new(&proj, Agent::ClaudeCode, Scope::Project),
                Root::new(&user, Agent::ClaudeCode, Scope::User),
                Root::new(&codex, Agent::Codex, Scope::User),
            ],
            &ScanOptions::default(),
        );
        assert_eq!(lib.skills.len(), 3);
        let by_root = |r: &Path| lib.skills.iter().position(|s| *s.root == *r).unwrap();
        assert_eq!(lib.skills[by_root(&proj)].shadowed_by, Some(by_root(&user)));
        assert_eq!(lib.skills[by_root(&user)].shadowed_by, None);
        assert_eq!(lib.skills[by_root(&codex)].shadowed_by, None);
    }

    #[test]
    fn namespaces_keep_same_names_apart_where_the_agent_namespaces_them() {
        let t = tempfile::tempdir().unwrap();
        let skill = |p: &Path, name: &str| {
            write(
                &p.join("SKILL.md"),
                format!("---\nname: {name}\ndescription: d\n---\n").as_bytes(),
            );
        };
        let claude = t.path().join("claude");
        let generic = t.path().join("generic");
        for r in [&claude, &generic] {
            skill(&r.join("scraper"), "scraper");
            skill(&r.join("web/scraper"), "scraper");
        }
        // A plugin's skill is `plugin:skill` for Claude Code, whatever its name.
        let plugin = claude.join("vendor/docs");
        write(
            &plugin.join(".claude-plugin/plugin.json"),
            br#"{"name": "docs"}"#,
        );
        skill(&plugin.join("skills/scraper"), "scraper");
        let lib = Library::load(
            vec![
                Root::new(&claude, Agent::ClaudeCode, Scope::User),
                Root::new(&generic, Agent::Generic, Scope::User),
            ],
            &ScanOptions::default(),
        );
        let by_dir = |d: &Path| lib.skills.iter().position(|s| s.dir == d).unwrap();
        let top = by_dir(&claude.join("scraper"));
        let nested = &lib.skills[by_dir(&claude.join("web/scraper"))];
        assert_eq!(nested.id, "web.scraper");
        assert_eq!(
            nested.shadowed_by,
            Some(top),
            "Claude Code keys skills by name"
        );
        let plugin_skill = &lib.skills[by_dir(&plugin.join("skills/scraper"))];
        assert_eq!(plugin_skill.id, "docs:scraper");
        assert_eq!(plugin_skill.shadowed_by, None);
        let generic_nested = &lib.skills[by_dir(&generic.join("web/scraper"))];
        assert_eq!(
            generic_nested.shadowed_by, None,
            "Lazy Skills keys them by id"
        );
        assert_eq!(
            lib.skills[by_dir(&generic.join("scraper"))].shadowed_by,
            None
        );
    }

    #[test]
    fn skill_folders_named_one_by_one_never_shadow_each_other() {
        let t = tempfile::tempdir().unwrap();
        let (a, b) = (t.path().join("a/same"), t.path().join("b/same"));
        for d in [&a, &b] {
            write(
                &d.join("SKILL.md"),
                b"---\nname: same\ndescription: d\n---\n",
            );
        }
        let load = |roots: Vec<Root>| Library::load(roots, &ScanOptions::default());
        let named = load(vec![
            Root::new(&a, Agent::Path, Scope::Path),
            Root::new(&b, Agent::Path, Scope::Path),
        ]);
        assert!(named.skills.iter().all(|s| s.shadowed_by.is_none()));
        // Libraries given on the command line still rank in their order.
        let libraries = load(vec![
            Root::new(t.path().join("a"), Agent::Path, Scope::Path),
            Root::new(t.path().join("b"), Agent::Path, Scope::Path),
        ]);
        let second = libraries.skills.iter().position(|s| s.dir == b).unwrap();
        assert!(libraries.skills[second].shadowed_by.is_some());
    }

    #[test]
    fn a_skill_that_does_not_parse_shadows_nothing() {
        let t = tempfile::tempdir().unwrap();
        let user = t.path().join("u");
        let proj = t.path().join("p");
        write(
            &user.join("pdf/SKILL.md"),
            b"---\nname: pdf\ndescription: a: b\n---\n",
        );
        write(
            &proj.join("pdf/SKILL.md"),
            b"---\nname: pdf\ndescription: d\n---\n",
        );
        let lib = Library::load(
            vec![
                Root::new(&user, Agent::ClaudeCode, Scope::User),
                Root::new(&proj, Agent::ClaudeCode, Scope::Project),
            ],
            &ScanOptions::default(),
        );
        assert!(lib.skills.iter().all(|s| s.shadowed_by.is_none()));
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_read_and_a_pipe_never_blocks() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("pipe");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        // Without O_NONBLOCK this open would wait for a writer forever: a hang fails the test.
        let (tx, rx) = std::sync::mpsc::channel();
        let p = fifo.clone();
        std::thread::spawn(move || tx.send(read_regular(&p).map_err(|e| is_not_regular(&e))));
        let got = rx.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(got, Ok(Err(true)), "reading a pipe must fail at once");
        let e = read_regular(&fifo).unwrap_err();
        assert!(is_not_regular(&e), "{e}");
        assert!(is_not_regular(&read_regular(t.path()).unwrap_err()));
        assert!(is_not_regular(
            &read_regular(Path::new("/dev/null")).unwrap_err()
        ));
        assert!(!looks_like_text(&fifo));
        let missing = read_regular(&t.path().join("none")).unwrap_err();
        assert!(!is_not_regular(&missing));
        let f = t.path().join("f.md");
        write(&f, b"text");
        assert_eq!(read_regular(&f).unwrap(), b"text");
    }

    #[test]
    fn resources_skip_nested_skills_and_flag_binaries() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        write(
            &d.join("SKILL.md"),
            b"---\nname: s\ndescription: d\n---\nbody\n",
        );
        write(&d.join("references/guide.md"), b"# Guide\n");
        write(&d.join("assets/logo.png"), b"\x89PNG\0\0\0");
        write(
            &d.join("inner/SKILL.md"),
            b"---\nname: inner\ndescription: d\n---\n",
        );
        let lib = Library::load(
            vec![Root::new(&d, Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        let main = &lib.skills[lib.find("s").unwrap()];
        let res = &main.resources;
        let got: Vec<_> = res.iter().map(|r| (r.rel.as_str(), r.text)).collect();
        assert_eq!(
            got,
            vec![("assets/logo.png", false), ("references/guide.md", true)]
        );
        assert_eq!(read_body(main).unwrap(), "body\n");
    }
}
