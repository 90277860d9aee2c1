//! The library: every skill of every root, with shadowing resolved, and on-demand access to what
//! the scan does not keep (bodies, resources).

use crate::core::diagnostic::{Diagnostic, RuleId};
use crate::core::scan::{self, ScanOptions};
use crate::core::skill::Skill;
use crate::core::source::Root;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

#[derive(Debug, Clone, Default)]
pub struct Library {
    pub roots: Vec<Root>,
    pub skills: Vec<Skill>,
    /// Problems that belong to no single skill: missing roots, unreadable folders, cycles.
    pub problems: Vec<Diagnostic>,
    /// The roots are the bundled demo library, used because no skills are installed.
    pub demo: bool,
}

/// A file of a skill other than its SKILL.md: an L3 resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    pub path: PathBuf,
    /// Path relative to the skill folder, with `/` separators.
    pub rel: String,
    pub size: u64,
    /// Modification time in nanoseconds since the epoch (0 when unknown).
    pub mtime_ns: u128,
    /// Text files are counted; binary ones are listed with their size only.
    pub text: bool,
}

impl Library {
    pub fn load(roots: Vec<Root>, opts: &ScanOptions) -> Library {
        let (skills, problems) = scan::scan(&roots, opts);
        let mut lib = Library {
            roots,
            skills,
            problems,
            demo: false,
        };
        lib.resolve_shadowing();
        lib
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
        let mut winners: HashMap<(crate::core::Agent, Option<usize>, &str), usize> = HashMap::new();
        let mut shadowed = vec![None; self.skills.len()];
        let mut order: Vec<usize> = (0..self.skills.len()).collect();
        order.sort_by_key(|&i| {
            let s = &self.skills[i];
            (
                prec.get(s.root.as_path())
                    .copied()
                    .unwrap_or((u8::MAX, u8::MAX, usize::MAX)),
                s.dir.clone(),
            )
        });
        for i in order {
            let s = &self.skills[i];
            // An agent cannot load a skill whose frontmatter does not parse, so it shadows nothing.
            if !s.frontmatter.parsed {
                continue;
            }
            let named_alone =
                s.agent == crate::core::Agent::Path && (s.dir == s.root || s.skill_md == s.root);
            let own_root = named_alone
                .then(|| root_index.get(s.root.as_path()).copied())
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

    pub fn len(&self) -> usize {
        self.skills.len()
    }

    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

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

/// What [`open_regular`] refuses: a pipe, socket, device or folder where a file was expected.
#[derive(Debug, thiserror::Error)]
#[error("not a regular file (a pipe, socket, device or folder)")]
pub struct NotRegular;

/// The error for a path that is not a regular file.
pub fn not_regular() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, NotRegular)
}

/// Whether `e` is [`not_regular`].
pub fn is_not_regular(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<NotRegular>())
}

/// Opens a file of a skill for reading, and only if it is a regular file. The open does not block
/// (`O_NONBLOCK`: a pipe with no writer would hang a plain open or read), and the type is checked
/// on the open file (`fstat`), so a path swapped for a pipe after a stat is refused too.
pub fn open_regular(path: &Path) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    Ok((file, meta))
}

/// The bytes of a regular file (see [`open_regular`]).
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    let (mut file, meta) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

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

/// The body of a SKILL.md (everything after the frontmatter).
pub fn read_body(skill: &Skill) -> Result<String, LibraryError> {
    let bytes = read_regular(&skill.skill_md).map_err(|source| LibraryError::Read {
        path: skill.skill_md.clone(),
        source,
    })?;
    let start = (skill.body_offset as usize).min(bytes.len());
    Ok(String::from_utf8_lossy(&bytes[start..]).into_owned())
}

/// Every file of the skill folder other than its skill file, in path order. Nested skills (folders
/// with their own SKILL.md), dot-folders and `node_modules` are not part of it.
pub fn resources(skill: &Skill) -> Vec<Resource> {
    let mut out = resource_files(skill);
    for r in &mut out {
        r.text = looks_like_text(&r.path);
    }
    out
}

/// [`resources`] without opening any file: `text` is left `false` for callers that decide it
/// themselves (the token counter knows counted files by their stat).
pub fn resource_files(skill: &Skill) -> Vec<Resource> {
    let mut out = Vec::new();
    collect(&skill.dir, &skill.dir, &skill.skill_md, &mut out, 0);
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

fn collect(base: &Path, dir: &Path, skill_md: &Path, out: &mut Vec<Resource>, depth: usize) {
    if depth > 8 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut subdirs = Vec::new();
    let mut files = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        // The entry's own type comes with the folder listing; only links need a stat.
        let Ok(ft) = e.file_type() else { continue };
        let path = e.path();
        if ft.is_dir() {
            if name != "node_modules" {
                subdirs.push(path);
            }
        } else if ft.is_file() || ft.is_symlink() {
            // A folder below the skill folder that holds its own skill file is a nested skill.
            if depth > 0 && (name == "SKILL.md" || name == "skill.md") {
                return;
            }
            // A link that leads out of the skill folder is not one of its resources: the agent
            // reads files by their path inside the skill (the rule `show` applies too).
            if ft.is_symlink() && !crate::core::resource::stays_inside(base, &path) {
                continue;
            }
            files.push(path);
        }
    }
    for path in files {
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if !meta.is_file() || path == skill_md {
            continue;
        }
        let rel = path
            .strip_prefix(base)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        out.push(Resource {
            text: false,
            mtime_ns: crate::core::fsx::mtime_ns(&meta),
            path,
            rel,
            size: meta.len(),
        });
    }
    for sub in subdirs {
        let mut inner = Vec::new();
        collect(base, &sub, skill_md, &mut inner, depth + 1);
        out.append(&mut inner);
    }
}

/// A file is text when its first 8 KiB hold no NUL and decode as UTF-8 (a cut multi-byte
/// character at the end of the sample is allowed).
pub fn looks_like_text(path: &Path) -> bool {
    let mut buf = [0u8; 8192];
    let Ok((mut f, _)) = open_regular(path) else {
        return false;
    };
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(_) => return false,
        }
    }
    let sample = &buf[..n];
    if sample.contains(&0) {
        return false;
    }
    match std::str::from_utf8(sample) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none() && n == buf.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::source::{Agent, Scope};

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
        let by_root = |r: &Path| lib.skills.iter().position(|s| s.root == r).unwrap();
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
            )
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
        let res = resources(main);
        let got: Vec<_> = res.iter().map(|r| (r.rel.as_str(), r.text)).collect();
        assert_eq!(
            got,
            vec![("assets/logo.png", false), ("references/guide.md", true)]
        );
        assert_eq!(read_body(main).unwrap(), "body\n");
    }
}
