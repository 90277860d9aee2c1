//! A skill as discovered: where it lives, what its frontmatter says, what is wrong with it.

use crate::core::files::fsx::Stamp;
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::frontmatter::Frontmatter;
pub use crate::core::frontmatter::{KindSource, SkillKind};
use crate::core::resource::Resource;
use crate::core::source::{Agent, Root, Scope};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The entry script of an executable skill that names none in its frontmatter.
pub const DEFAULT_ENTRY: &str = "execute.py";

/// The three levels of progressive disclosure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Level {
    /// Its entry in the listing, in front of the model every turn.
    L1,
    /// Its SKILL.md, read when the skill is used.
    L2,
    /// Its other files, read when the body points to them.
    L3,
}

/// One skill as discovered: where it is, its frontmatter, its resources, what reading it found.
#[derive(Debug, Clone)]
pub struct Skill {
    /// The name agents see: the frontmatter `name`, or the folder name when it has none.
    pub name: String,
    /// The name with its namespace: `web.scraper` for `web/scraper/SKILL.md` below the root,
    /// `plugin:skill` for a Claude Code plugin's skill; the name itself at the top of a root.
    pub id: String,
    /// The namespace part of `id` (empty at the top of a root; the plugin for plugin skills).
    pub namespace: String,
    /// A Claude Code plugin's skill (`plugin:skill`), which its agent always namespaces.
    pub plugin: bool,
    /// Its folder.
    pub dir: PathBuf,
    /// Its SKILL.md.
    pub skill_md: PathBuf,
    /// The root the skill was found under, shared by every skill of that root.
    pub root: Arc<Path>,
    /// The walk saw no link between the root and the skill folder: the folder's real place is the
    /// root's real place joined with the path below it, without asking the file system again.
    pub plain: bool,
    /// The agent whose root it was found under.
    pub agent: Agent,
    /// That root's scope.
    pub scope: Scope,
    /// One of Claude Code's custom commands (`.claude/commands/NAME.md`): `dir` and `skill_md`
    /// are the file, its name its path, and it has no resources.
    pub command: bool,
    /// Its frontmatter, as parsed.
    pub frontmatter: Frontmatter,
    /// Problems found while reading the file (YAML, encoding, layout). Rule findings are computed
    /// per profile by [`crate::core::rules`].
    pub parse_diagnostics: Vec<Diagnostic>,
    /// Index (in the library) of the skill that wins over this one for the same name.
    pub shadowed_by: Option<usize>,
    /// The skill file's stat when it was read (all 0 when it could not be).
    pub stamp: Stamp,
    /// 1-based line where the body starts (after the closing `---`).
    pub body_line: u32,
    /// Byte offset of the body in SKILL.md.
    pub body_offset: u64,
    /// Every file of the skill folder other than its skill file (its L3 resources), in path
    /// order, found by the same walk as the skill.
    pub resources: Vec<Resource>,
    /// What the body rules learned from the body, shared by the clones of this skill.
    pub facts: Arc<Facts>,
    /// The other places the same folder is reached at, through links from other agents'
    /// folders (an installer's one copy linked into each agent's folder): the skill is listed
    /// once, at its own place, and read by every agent whose folder leads to it.
    pub linked: Vec<Place>,
}

/// One place a skill folder is reached at: its path there, and the root (agent, scope) that
/// path lies under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The folder as the agent reaches it (a link, or a path through one).
    pub dir: PathBuf,
    /// Its skill file there.
    pub skill_md: PathBuf,
    /// The root the place was found under.
    pub root: Arc<Path>,
    /// That root's agent.
    pub agent: Agent,
    /// That root's scope.
    pub scope: Scope,
}

/// What reading a skill's body taught the rules, kept (in memory, and in the library index while
/// the file keeps its stat) so that the body is not read again to answer the same questions.
#[derive(Debug, Default)]
pub struct Facts {
    /// Its body's lines, size and local links, once a body rule read them.
    pub body: OnceLock<BodyFacts>,
    /// The body's token count per encoding (`Encoding::slot`), up to the body rule's limit: exact
    /// at or below it, some figure above it otherwise.
    pub body_tokens: [OnceLock<u32>; 2],
    /// The whole SKILL.md's token count (its L2) per encoding, once counted: kept in the index
    /// with the file's stamp, so an unchanged skill is not counted again.
    pub l2_tokens: [OnceLock<u32>; 2],
    /// Counts of its listing entries (L1, one per format and encoding asked for): the blake3 hash
    /// of the entry's text, the encoding's id, the count. Kept in the index; an entry whose text
    /// changed (a renamed root in its path) misses and is counted again.
    pub l1_tokens: std::sync::Mutex<Vec<L1Count>>,
    /// The findings of the rules that read only the skill file and where it lies
    /// (`rules::check_skill` but the parse findings), by the key of what they read
    /// (`rules::per_skill_key`: the program, the profile, the skill's paths and agent). Kept in
    /// the index with the file's stamp, so an unchanged skill is not judged again.
    pub rules: std::sync::Mutex<Vec<RuleFindings>>,
    /// [`Facts::rules`] as the library index holds them, not decoded yet: most commands never
    /// ask (`list`, `budget`, the app's first frame), so the index's reader leaves them in their
    /// bytes. Taken and decoded into `rules` by the first who asks (`index::kept_rules`), under
    /// `rules`' lock; written back as they are when nobody did.
    pub rules_unread: std::sync::Mutex<Option<Box<[u8]>>>,
    /// What the agents that read a skill file their own way read off the whole file, once read.
    pub readings: Readings,
    /// A reading was read off the file by this process (not taken from the index): the index
    /// should keep it ([`Facts::reading`]).
    pub readings_learned: std::sync::atomic::AtomicBool,
}

impl Facts {
    /// The reading in `slot` (one of [`Facts::readings`]), read by `read` the first time and kept
    /// (`None` from `read`: the file could not be read, and nothing is kept).
    pub fn reading<'a, T>(
        &'a self,
        slot: &'a OnceLock<T>,
        read: impl FnOnce() -> Option<T>,
    ) -> Option<&'a T> {
        if let Some(v) = slot.get() {
            return Some(v);
        }
        let v = read()?;
        self.readings_learned
            .store(true, std::sync::atomic::Ordering::Relaxed);
        Some(slot.get_or_init(|| v))
    }
}

/// What the agents that read a SKILL.md their own way take from the file beyond its frontmatter
/// as skillscope parsed it (their own reading of its frontmatter, its body's first lines): the
/// file's bytes alone decide each, so each is read once and kept, in memory and in the library
/// index with the file's stamp, and an unchanged skill's file is not read again to answer them.
/// A slot stays unset while the file cannot be read (the question is asked again).
#[derive(Debug, Clone, Default)]
pub struct Readings {
    /// Gemini CLI's `name:` and `description:` lines read one by one
    /// (`gemini::reading::simple_frontmatter`), when its frontmatter splits off and has both.
    pub gemini_lines: OnceLock<Option<(String, String)>>,
    /// opencode's name and description from its frontmatter parsed again with the values
    /// holding `: ` quoted (`opencode::reading`), when that parse gives them.
    pub opencode_again: OnceLock<Option<(String, Option<String>)>>,
    /// Claude Code's description from the body's first non-blank line
    /// (`listing::claude_body_description`), when it has one.
    pub claude_fallback: OnceLock<Option<String>>,
    /// GitHub Copilot's description from the body's first two paragraphs
    /// (`reach::first_paragraph`), when it has one.
    pub first_paragraphs: OnceLock<Option<String>>,
}

impl Readings {
    /// Sets every slot `other` holds (a record read back from the index) that is not set yet.
    pub fn fill_from(&self, other: Readings) {
        fn put<T>(slot: &OnceLock<T>, from: OnceLock<T>) {
            if let Some(v) = from.into_inner() {
                let _ = slot.set(v);
            }
        }
        put(&self.gemini_lines, other.gemini_lines);
        put(&self.opencode_again, other.opencode_again);
        put(&self.claude_fallback, other.claude_fallback);
        put(&self.first_paragraphs, other.first_paragraphs);
    }
}

/// One remembered judgement of a skill by its rules: the key of what they read, their findings.
pub type RuleFindings = ([u8; 32], Vec<Diagnostic>);

/// At most this many judgements are kept per skill (profiles in use).
pub const RULES_KEPT: usize = 4;

/// One remembered listing-entry count: the entry text's hash, the encoding's id, the count.
pub type L1Count = ([u8; 32], u8, u32);

/// At most this many listing-entry counts are kept per skill (formats × encodings in use).
pub const L1_KEPT: usize = 4;

/// What the body rules read off a SKILL.md body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BodyFacts {
    /// Lines of the body.
    pub lines: u32,
    /// Bytes of the body.
    pub bytes: u64,
    /// Its links to local files, in order (see `rules::body::file_facts`).
    pub links: Vec<Link>,
}

/// A markdown link to a local file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Where it points, as written.
    pub target: String,
    /// 1-based line and column within the text it was read from.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl Skill {
    /// A skill found at `dir` under `root` before its file is read: no frontmatter yet, named
    /// after its folder.
    pub fn new(root: &Root, dir: PathBuf, skill_md: PathBuf) -> Skill {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Skill {
            id: name.clone(),
            name,
            namespace: String::new(),
            plugin: false,
            dir,
            skill_md,
            root: Arc::from(root.path.as_path()),
            plain: false,
            agent: root.agent,
            scope: root.scope,
            command: false,
            frontmatter: Frontmatter::default(),
            parse_diagnostics: Vec::new(),
            shadowed_by: None,
            stamp: Stamp::default(),
            body_line: 1,
            body_offset: 0,
            resources: Vec::new(),
            facts: Arc::default(),
            linked: Vec::new(),
        }
    }

    /// Gives each of `findings` (the skill's) its file where a rule named none: the skill's
    /// `SKILL.md`. Findings leave the core with their file filled in.
    pub fn file_findings(&self, findings: &mut [Diagnostic]) {
        for d in findings {
            d.path.get_or_insert_with(|| self.skill_md.clone());
        }
    }

    /// The findings of reading the skill (its frontmatter, its folder), each with its file.
    pub fn parse_findings(&self) -> Vec<Diagnostic> {
        let mut out = self.parse_diagnostics.clone();
        self.file_findings(&mut out);
        out
    }

    /// Where the skill lives, as a [`Place`].
    pub fn place(&self) -> Place {
        Place {
            dir: self.dir.clone(),
            skill_md: self.skill_md.clone(),
            root: Arc::clone(&self.root),
            agent: self.agent,
            scope: self.scope,
        }
    }

    /// The skill as an agent reaches it at `place`: its folder, file, root, agent and scope
    /// there (everything read from the files stays as it is).
    pub fn at(&self, place: &Place) -> Skill {
        let mut s = self.clone();
        s.dir.clone_from(&place.dir);
        s.skill_md.clone_from(&place.skill_md);
        s.root = Arc::clone(&place.root);
        s.agent = place.agent;
        s.scope = place.scope;
        s.plain = false;
        s
    }

    /// The skill file's length in bytes (0 when it could not be read).
    pub fn file_len(&self) -> u64 {
        self.stamp.len
    }

    /// Its type: declared, else decided by its entry script.
    pub fn kind(&self) -> SkillKind {
        self.frontmatter.kind
    }

    /// The key two copies must share for one to shadow the other: agents that namespace nested
    /// folders (and every agent, for plugin skills) tell skills apart by id, the others by name.
    pub fn shadow_key(&self) -> &str {
        if self.plugin || self.agent.namespaces_folders() {
            &self.id
        } else {
            &self.name
        }
    }

    /// What decided [`Skill::kind`].
    pub fn kind_source(&self) -> KindSource {
        self.frontmatter.kind_source
    }

    /// Its frontmatter description (empty when it has none).
    pub fn description(&self) -> &str {
        self.frontmatter.description().unwrap_or("")
    }

    /// The folder's name, as the `name` field must repeat it (borrowed when it is UTF-8).
    pub fn dir_name(&self) -> std::borrow::Cow<'_, str> {
        self.dir
            .file_name()
            .map_or(std::borrow::Cow::Borrowed(""), |n| n.to_string_lossy())
    }

    /// Can an agent list this skill at all? It needs a parsed name and description.
    pub fn listable(&self) -> bool {
        self.frontmatter.parsed
            && self
                .frontmatter
                .name
                .as_deref()
                .is_some_and(|n| !n.trim().is_empty())
            && self
                .frontmatter
                .description()
                .is_some_and(|d| !d.trim().is_empty())
    }
}
