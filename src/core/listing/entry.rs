//! A skill's entry in a listing format: its parts as the format takes them, cut to the
//! format's caps, as one line.

use super::dialect::Dialect;
use super::format::{Folders, Format, Parts};
use super::formats;
use crate::core::library::Library;
use crate::core::skill::Skill;
use crate::core::words::escape;
use rayon::prelude::*;
use std::borrow::Cow;

/// Cuts `s` to at most `max` characters, ending in `…` when anything was cut.
pub(super) fn cut(s: &str, max: usize) -> (String, bool) {
    if s.chars().count() <= max {
        return (s.to_string(), false);
    }
    let keep: String = s.chars().take(max.saturating_sub(1)).collect();
    (format!("{}…", keep.trim_end()), true)
}

pub(super) fn parts(skill: &Skill, format: Format, folders: &Folders, dialect: Dialect) -> Parts {
    let mut p = match format {
        // Claude Code's parts are what it sends: it removes or replaces every hazard itself
        // (`claude_text`), and a name holding one is not offered.
        Format::ClaudeCode => return formats::claude_parts(skill, dialect),
        _ => raw_parts(skill, format, folders),
    };
    // A control character would make the XML ill-formed and can drive the terminal the listing
    // is printed on; a bidi override would make an entry read as something else. They are
    // listed escaped (`\u{1b}`), names and paths on one line.
    if let Cow::Owned(n) = escape::line(&p.name) {
        p.name = n;
    }
    if let Cow::Owned(d) = escape::text(&p.description) {
        p.description = d;
    }
    if let Cow::Owned(l) = escape::line(&p.path) {
        p.path = l;
    }
    p
}

pub(super) fn raw_parts(skill: &Skill, format: Format, folders: &Folders) -> Parts {
    (format.spec().parts)(skill, folders)
}

/// One entry; `description` is `None` for a name-only entry.
pub(super) fn line(format: Format, p: &Parts, description: Option<&str>) -> String {
    (format.spec().line)(p, description)
}

/// Whether `format` can list the skill: a parsed name and description (an empty description
/// counts for the formats that list one).
pub(super) fn listable_in(skill: &Skill, format: Format) -> bool {
    if !format.spec().empty_description {
        return skill.listable();
    }
    let fm = &skill.frontmatter;
    fm.parsed
        && fm.name.as_deref().is_some_and(|n| !n.trim().is_empty())
        && fm.description().is_some()
}

/// The full-tier entry of one skill: its L1 text. Empty for a skill no agent can list (no parsed
/// name or description).
pub fn entry(skill: &Skill, format: Format) -> String {
    entry_in(skill, format, &Folders::default())
}

pub(super) fn entry_in(skill: &Skill, format: Format, folders: &Folders) -> String {
    if !listable_in(skill, format) {
        return String::new();
    }
    let p = parts(skill, format, folders, Dialect::CURRENT);
    let d = match &format.spec().entry_cap {
        Some(cap) => (cap.cut)(&p.description, cap.max).0,
        None => p.description.clone(),
    };
    line(format, &p, Some(&d))
}

/// [`entry`] for every skill of the library, in library order, built on worker threads.
pub fn entries(lib: &Library, format: Format) -> Vec<String> {
    let entry = entry_maker(format);
    lib.skills.par_iter().map(&entry).collect()
}

/// What [`entries`] makes of each skill, one skill at a time (the folders it resolves are
/// remembered across calls).
pub fn entry_maker(format: Format) -> impl Fn(&Skill) -> String + Sync {
    let folders = Folders::default();
    move |s| entry_in(s, format, &folders)
}

/// A skill's entry in a format and the key of what it is made of, one skill at a time, sharing
/// the folders they resolve: see [`EntryMaker::key`].
pub struct EntryMaker {
    format: Format,
    folders: Folders,
    /// What every key starts with: the program, the format and the folders a path is read
    /// against; `None` when the program cannot tell itself from another build.
    prefix: Option<Vec<u8>>,
    /// Per root folder (by its bytes): the hash of the prefix, the root and its real place.
    roots: std::sync::Mutex<rustc_hash::FxHashMap<std::ffi::OsString, [u8; 32]>>,
}

/// A path's bytes as the key takes them.
fn path_bytes(p: &std::path::Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

/// Bytes to be hashed once, written part by part.
struct KeyBytes(Vec<u8>);

impl KeyBytes {
    /// A part of variable length: its length, then its bytes.
    fn part(&mut self, bytes: &[u8]) {
        self.0
            .extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        self.0.extend_from_slice(bytes);
    }

    fn path(&mut self, p: &std::path::Path) {
        self.part(path_bytes(p));
    }
}

impl EntryMaker {
    /// The maker of `format`'s entries.
    pub fn new(format: Format) -> EntryMaker {
        let prefix = crate::core::files::fsx::program_key().map(|program| {
            let mut k = KeyBytes(Vec::with_capacity(128));
            k.0.extend_from_slice(b"listing entry 1\0");
            k.0.extend_from_slice(program);
            k.part(format.as_str().as_bytes());
            // A relative path is read against the working folder, and OpenClaw shows paths
            // below the home folder from `~`.
            k.path(&crate::core::files::paths::absolute(std::path::Path::new(
                ".",
            )));
            k.path(&dirs::home_dir().unwrap_or_default());
            k.0
        });
        EntryMaker {
            format,
            folders: Folders::default(),
            prefix,
            roots: std::sync::Mutex::default(),
        }
    }

    /// The skill's entry: [`entry`].
    pub fn entry(&self, skill: &Skill) -> String {
        entry_in(skill, self.format, &self.folders)
    }

    /// A key of everything the skill's entry is made of, far cheaper to make than the entry:
    /// the program, the format, the root and its real place (hashed with blake3 once per root),
    /// and a 64-bit fingerprint of the rest (the texts an entry shows: the frontmatter's name,
    /// description and `when_to_use`, the skill's names; its paths, agent, scope and skill
    /// file's stat; a linked folder's real place). Two skills with one key have one entry, so a
    /// count kept under the key stands for the entry's. The counts are kept per skill, so a
    /// fingerprint only has to tell one skill's states apart (its edits, an agent's view of it
    /// showing another description), not every skill from every other. `None` for a skill the
    /// format does not list (its entry is empty) or when the program cannot be told from
    /// another build.
    pub fn key(&self, skill: &Skill) -> Option<[u8; 32]> {
        use std::hash::{Hash, Hasher};
        let prefix = self.prefix.as_ref()?;
        if !listable_in(skill, self.format) {
            return None;
        }
        let fm = &skill.frontmatter;
        let mut rest = rustc_hash::FxHasher::default();
        (&skill.name, &skill.id, &skill.namespace).hash(&mut rest);
        (
            &fm.name,
            fm.description(),
            fm.description_style,
            &fm.when_to_use,
        )
            .hash(&mut rest);
        let flags = (skill.command, skill.plugin, skill.plain, fm.parsed);
        (skill.agent, skill.scope, flags).hash(&mut rest);
        let st = &skill.stamp;
        (st.len, st.mtime_ns, st.ctime_ns, st.ino, st.dev).hash(&mut rest);
        (path_bytes(&skill.dir), path_bytes(&skill.skill_md)).hash(&mut rest);
        // A folder reached through a link is where the link leads (`Folders::location`).
        if !skill.plain {
            path_bytes(&self.folders.resolve(&skill.dir)).hash(&mut rest);
        }
        let mut k = [0u8; 40];
        k[..32].copy_from_slice(&self.root_key(prefix, &skill.root));
        k[32..].copy_from_slice(&rest.finish().to_le_bytes());
        Some(*blake3::hash(&k).as_bytes())
    }

    /// The hash of `prefix`, `root` and the root's real place, made once per root.
    fn root_key(&self, prefix: &[u8], root: &std::path::Path) -> [u8; 32] {
        let lock = || {
            self.roots
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some(k) = lock().get(root.as_os_str()) {
            return *k;
        }
        let mut k = KeyBytes(prefix.to_vec());
        k.path(root);
        k.path(&self.folders.resolve(root));
        let key = *blake3::hash(&k.0).as_bytes();
        lock().insert(root.as_os_str().to_os_string(), key);
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};
    use crate::core::tokens::{self, Encoding, TokenCache};
    use std::path::Path;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    fn write_skill(root: &Path, dir: &str, head: &str) {
        let d = root.join(dir);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("SKILL.md"), format!("---\n{head}---\nBody.\n")).unwrap();
    }

    /// Skills of every shape an entry tells apart, one of them reached through a link.
    fn library(t: &Path) -> Library {
        let (a, b) = (t.join("a"), t.join("b"));
        write_skill(&a, "pdf", "name: pdf\ndescription: Reads PDF files.\n");
        write_skill(
            &a,
            "web/scraper",
            "name: scraper\ndescription: \"Scrapes <pages> & more.\"\n",
        );
        write_skill(
            &a,
            "plan",
            "name: plan\ndescription: |\n  Plans work.\n  Two lines.\nwhen_to_use: Before a task.\n",
        );
        write_skill(
            &a,
            "other-name",
            "name: Not Valid\ndescription: Named apart.\n",
        );
        write_skill(&a, "nodesc", "name: nodesc\n");
        write_skill(&a, "empty", "name: empty\ndescription: \"\"\n");
        write_skill(&b, "real", "name: real\ndescription: Linked.\n");
        std::fs::create_dir_all(a.join("links")).unwrap();
        crate::core::files::fsx::test_link(b.join("real"), a.join("links/real")).unwrap();
        crate::core::library::Library::load(
            vec![
                Root::new(&a, Agent::ClaudeCode, Scope::User),
                Root::new(&b, Agent::Codex, Scope::Project),
            ],
            &ScanOptions::default(),
        )
    }

    /// Each skill, and each with one of the inputs of its entry changed.
    fn variants(lib: &Library) -> Vec<Skill> {
        let mut out = Vec::new();
        for s in &lib.skills {
            out.push(s.clone());
            let changes: [fn(&mut Skill); 13] = [
                |s| s.name.push('x'),
                |s| s.id.push('x'),
                |s| s.namespace.push('x'),
                |s| s.plugin = !s.plugin,
                |s| s.command = !s.command,
                |s| s.scope = Scope::Project,
                |s| s.agent = Agent::Codex,
                |s| {
                    let d = s.frontmatter.description().unwrap_or("").to_string();
                    s.frontmatter.set_description(Some(format!("{d} More.")));
                },
                |s| s.frontmatter.when_to_use = Some("Always.".to_string()),
                |s| s.frontmatter.name = Some("renamed".to_string()),
                |s| {
                    s.dir = s.dir.with_file_name("moved");
                    s.skill_md = s.dir.join("SKILL.md");
                },
                |s| s.skill_md = s.dir.join("skill.md"),
                |s| s.root = Path::new("/elsewhere").into(),
            ];
            for change in changes {
                let mut v = s.clone();
                change(&mut v);
                out.push(v);
            }
        }
        out
    }

    #[test]
    fn skills_with_one_key_have_one_entry_in_every_format() {
        let t = tempfile::tempdir().unwrap();
        let lib = library(t.path());
        assert_eq!(lib.skills.len(), 7);
        let skills = variants(&lib);
        for format in Format::ALL {
            let maker = EntryMaker::new(format);
            let made: Vec<(Option<[u8; 32]>, String)> = skills
                .iter()
                .map(|s| (maker.key(s), maker.entry(s)))
                .collect();
            let mut keyed = std::collections::HashMap::new();
            for (key, entry) in &made {
                // No key for a skill the format does not list: its entry is empty.
                let Some(key) = key else {
                    assert_eq!(entry, "", "{format}");
                    continue;
                };
                let first = keyed.entry(*key).or_insert(entry);
                assert_eq!(*first, entry, "{format}: one key, two entries");
            }
            // The changes make entries of their own, so the check above had work to do.
            let distinct: std::collections::HashSet<&String> =
                made.iter().map(|(_, e)| e).collect();
            assert!(
                distinct.len() > lib.skills.len(),
                "{format}: {}",
                distinct.len()
            );
            // The key is the same for the same skill, made again.
            assert_eq!(
                maker.key(&lib.skills[0]),
                EntryMaker::new(format).key(&lib.skills[0])
            );
        }
    }

    #[test]
    fn keyed_counts_are_the_entries_counts_and_spare_unchanged_entries() {
        let t = tempfile::tempdir().unwrap();
        let lib = library(t.path());
        let cache = TokenCache::in_memory();
        let enc = Encoding::O200kBase;
        let never = AtomicBool::new(false);
        let maker = EntryMaker::new(Format::Xml);
        let made = AtomicUsize::new(0);
        let entry = |_: usize, s: &Skill| {
            made.fetch_add(1, Ordering::Relaxed);
            Cow::Owned(maker.entry(s))
        };
        let count = |lib: &Library| {
            tokens::count_l1_keyed(
                lib,
                &|s| maker.key(s),
                &entry,
                enc,
                &cache,
                &tokens::no_progress,
                &never,
            )
            .unwrap()
        };
        let want = |lib: &Library| -> Vec<Option<u32>> {
            lib.skills
                .iter()
                .map(|s| {
                    let e = maker.entry(s);
                    (!e.is_empty()).then(|| tokens::count(enc, &e) as u32)
                })
                .collect()
        };
        assert_eq!(count(&lib), want(&lib));
        assert_eq!(made.swap(0, Ordering::Relaxed), lib.skills.len());
        // Again: only the entries of skills the format does not list are made (empty at once).
        assert_eq!(count(&lib), want(&lib));
        let unlisted = lib
            .skills
            .iter()
            .filter(|s| !listable_in(s, Format::Xml))
            .count();
        assert_eq!(made.swap(0, Ordering::Relaxed), unlisted);
        // A changed description (the counts it shares with its first self notwithstanding) is
        // counted afresh.
        let mut changed = lib.clone();
        let d = changed.skills[0]
            .frontmatter
            .description()
            .unwrap_or("")
            .to_string();
        changed.skills[0].frontmatter.set_description(Some(format!(
            "{d} And a great deal more than it said before."
        )));
        assert_eq!(count(&changed), want(&changed));
        assert_ne!(count(&changed)[0], count(&lib)[0]);
    }
}
