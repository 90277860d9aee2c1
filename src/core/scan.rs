//! Discovery: a parallel walk of the roots for folders holding a SKILL.md, then a frontmatter-only
//! read of each. Bodies and resources are read later, when something needs them.

use crate::core::catalogue::RuleId;
use crate::core::diagnostic::{Diagnostic, Severity};
use crate::core::frontmatter;
use crate::core::skill::{KindSource, Skill, SkillKind};
use crate::core::source::Root;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How far below a root skills are looked for. Agents' own folders hold skills one or two levels
/// down; collections checked out from git nest them deeper (seven levels in real ones).
pub const DEFAULT_MAX_DEPTH: usize = 8;

/// Folders never holding skills: version control internals and package caches.
const SKIPPED_DIRS: &[&str] = &[".git", ".hg", ".svn", "node_modules"];

/// The kernel's views of processes, devices and drivers: a walk there never ends, and reading
/// can block or leak. Never entered, whatever link leads there.
const SYSTEM_DIRS: &[&str] = &["/proc", "/sys", "/dev"];

/// How many files and folders a walk visits per root before it stops and says so. Real
/// libraries hold a few thousand entries; the largest checked-out collections tens of thousands.
pub const DEFAULT_MAX_ENTRIES: usize = 200_000;
/// The environment variable that raises (or lowers) [`DEFAULT_MAX_ENTRIES`].
pub const MAX_ENTRIES_ENV: &str = "SKILLSCOPE_MAX_ENTRIES";

/// The first read of a SKILL.md; enough for nearly every frontmatter.
const HEAD_BYTES: usize = 16 * 1024;
/// The most read while looking for the closing `---`.
const HEAD_CAP: usize = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ScanOptions {
    pub max_depth: usize,
    /// Files and folders visited per root before the walk of that root stops.
    pub max_entries: usize,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            max_entries: DEFAULT_MAX_ENTRIES,
        }
    }
}

fn is_system(p: &Path) -> bool {
    SYSTEM_DIRS.iter().any(|s| p.starts_with(s))
}

/// Why the walk must not enter `real` (where a link leads), if it must not.
fn refused(real: &Path, root_real: &Path) -> Option<String> {
    if is_system(real) {
        Some(format!(
            "{}, a system folder ({})",
            real.display(),
            SYSTEM_DIRS.join(", ")
        ))
    } else if real != root_real && root_real.starts_with(real) {
        // The walk would go over the whole tree above the root before it met the root again.
        // (A link to the root itself is a cycle the walker reports on its own.)
        Some(format!("{}, a folder above the root", real.display()))
    } else {
        None
    }
}

/// A folder holding a skill file, found by the walk.
#[derive(Debug, Clone)]
struct Found {
    root: usize,
    dir: PathBuf,
    file: PathBuf,
    /// The skill file is a regular file (not a pipe, socket or device), as the walk saw it.
    regular: bool,
    /// Other skill files in the same folder (`SKILL.md` and `skill.md` side by side).
    others: Vec<PathBuf>,
}

fn is_skill_file(name: &str) -> bool {
    name.eq_ignore_ascii_case("skill.md")
}

/// Walks every root and reads the head of every skill file. Problems that belong to no skill
/// (unreadable folders, symlink cycles, missing roots) come back as the second value.
pub fn scan(roots: &[Root], opts: &ScanOptions) -> (Vec<Skill>, Vec<Diagnostic>) {
    let found: Mutex<Vec<(usize, PathBuf, PathBuf, bool)>> = Mutex::new(Vec::new());
    let problems: Mutex<Vec<Diagnostic>> = Mutex::new(Vec::new());
    for (ri, root) in roots.iter().enumerate() {
        if !root.path.exists() {
            push(
                &problems,
                Diagnostic::new(
                    RuleId::RootMissing,
                    Severity::Error,
                    format!("{} does not exist", root.path.display()),
                )
                .in_file(&root.path),
            );
            continue;
        }
        if root.path.is_file() {
            // A SKILL.md given directly stands for its folder.
            let is_skill = root
                .path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_skill_file);
            match (is_skill, root.path.parent()) {
                (true, Some(dir)) => {
                    lock(&found).push((ri, dir.to_path_buf(), root.path.clone(), true));
                }
                _ => push(
                    &problems,
                    Diagnostic::new(
                        RuleId::RootNotAFolder,
                        Severity::Error,
                        format!(
                            "{} is a file, not a skills folder or a SKILL.md",
                            root.path.display()
                        ),
                    )
                    .in_file(&root.path),
                ),
            }
            continue;
        }
        let root_real = std::fs::canonicalize(&root.path).unwrap_or_else(|_| root.path.clone());
        if is_system(&root_real) {
            push(
                &problems,
                Diagnostic::new(
                    RuleId::WalkSkipped,
                    Severity::Warning,
                    format!(
                        "{} is inside a system folder ({}): not walked",
                        root.path.display(),
                        SYSTEM_DIRS.join(", ")
                    ),
                )
                .in_file(&root.path),
            );
            continue;
        }
        // The filter must own what it uses: it lives as long as the walker.
        let skipped: Arc<Mutex<Vec<Diagnostic>>> = Arc::default();
        let filter_skipped = Arc::clone(&skipped);
        let filter_root = root_real.clone();
        let walker = ignore::WalkBuilder::new(&root.path)
            .standard_filters(false)
            .follow_links(true)
            .max_depth(Some(opts.max_depth + 1))
            .filter_entry(move |e| {
                if e.depth() == 0 {
                    return true;
                }
                let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                if is_dir && SKIPPED_DIRS.contains(&e.file_name().to_string_lossy().as_ref()) {
                    return false;
                }
                // Where the entry really is: a link is resolved; a plain child of the root is
                // the root's real folder joined with its name (only there can `/proc` be a
                // plain child, when the root is `/`). Deeper plain entries sit below an allowed
                // place, which holds no system folder and no ancestor of the root.
                let real = if e.path_is_symlink() {
                    std::fs::canonicalize(e.path()).ok()
                } else if e.depth() == 1 && is_dir {
                    Some(filter_root.join(e.file_name()))
                } else {
                    None
                };
                let Some(why) = real.and_then(|r| refused(&r, &filter_root)) else {
                    return true;
                };
                lock(&filter_skipped).push(
                    Diagnostic::new(
                        RuleId::WalkSkipped,
                        Severity::Warning,
                        format!("{} leads to {why}: not followed", e.path().display()),
                    )
                    .in_file(e.path()),
                );
                false
            })
            .build_parallel();
        let visited = AtomicUsize::new(0);
        let capped = AtomicBool::new(false);
        walker.run(|| {
            let found = &found;
            let problems = &problems;
            let visited = &visited;
            let capped = &capped;
            Box::new(move |entry| {
                if visited.fetch_add(1, Ordering::Relaxed) >= opts.max_entries {
                    if !capped.swap(true, Ordering::Relaxed) {
                        push(
                            problems,
                            Diagnostic::new(
                                RuleId::WalkCap,
                                Severity::Warning,
                                format!(
                                    "stopped walking {} after {} files and folders: skills below may be missing; raise the cap with --max-entries N or {MAX_ENTRIES_ENV}=N",
                                    root.path.display(),
                                    opts.max_entries
                                ),
                            )
                            .in_file(&root.path),
                        );
                    }
                    return ignore::WalkState::Quit;
                }
                match entry {
                    Ok(e) => {
                        let named = e.file_name().to_str().is_some_and(is_skill_file);
                        let ft = e.file_type();
                        // A pipe or device is kept as a skill that is never opened: it is listed
                        // with its error rather than left out.
                        if named
                            && !ft.is_some_and(|t| t.is_dir())
                            && let Some(dir) = e.path().parent()
                        {
                            let regular = ft.is_some_and(|t| t.is_file());
                            lock(found).push((
                                ri,
                                dir.to_path_buf(),
                                e.path().to_path_buf(),
                                regular,
                            ));
                        }
                    }
                    Err(err) => push(problems, walk_problem(&err)),
                }
                ignore::WalkState::Continue
            })
        });
        lock(&problems).append(&mut lock(&skipped));
    }

    // One skill per folder; a folder is claimed by the first root that reaches it.
    let mut by_dir: BTreeMap<PathBuf, Found> = BTreeMap::new();
    let mut raw = found.into_inner().unwrap_or_else(|e| e.into_inner());
    raw.sort();
    for (ri, dir, file, regular) in raw {
        match by_dir.get_mut(&dir) {
            Some(f) if f.root == ri => {
                // Prefer the exact `SKILL.md` spelling, as agents do.
                if file.file_name().is_some_and(|n| n == "SKILL.md") {
                    let old = std::mem::replace(&mut f.file, file);
                    f.regular = regular;
                    f.others.push(old);
                } else {
                    f.others.push(file);
                }
            }
            Some(_) => {}
            None => {
                by_dir.insert(
                    dir.clone(),
                    Found {
                        root: ri,
                        dir,
                        file,
                        regular,
                        others: Vec::new(),
                    },
                );
            }
        }
    }
    let mut list: Vec<Found> = by_dir.into_values().collect();
    list.sort_by(|a, b| (a.root, &a.dir).cmp(&(b.root, &b.dir)));
    let skills: Vec<Skill> = list.par_iter().map(|f| read_skill(f, roots)).collect();
    let mut problems = problems.into_inner().unwrap_or_else(|e| e.into_inner());
    problems.sort_by(|a, b| a.path.cmp(&b.path).then(a.message.cmp(&b.message)));
    (skills, problems)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn push(m: &Mutex<Vec<Diagnostic>>, d: Diagnostic) {
    lock(m).push(d);
}

fn walk_problem(err: &ignore::Error) -> Diagnostic {
    match err {
        ignore::Error::WithPath { path, err } => walk_problem(err).in_file(path),
        ignore::Error::WithDepth { err, .. } => walk_problem(err),
        ignore::Error::Loop { ancestor, child } => Diagnostic::new(
            RuleId::SymlinkCycle,
            Severity::Warning,
            format!(
                "symlink cycle: {} leads back to {}; not followed again",
                child.display(),
                ancestor.display()
            ),
        )
        .in_file(child),
        other => Diagnostic::new(
            RuleId::WalkError,
            Severity::Warning,
            format!("could not read a folder: {other}"),
        ),
    }
}

fn read_skill(f: &Found, roots: &[Root]) -> Skill {
    let root = &roots[f.root];
    let mut skill = Skill::new(root, f.dir.clone(), f.file.clone());
    let head = if f.regular {
        read_head(&f.file)
    } else {
        Err(crate::core::library::not_regular())
    };
    match head {
        Ok((head, len, mtime, complete)) => {
            skill.file_len = len;
            skill.mtime_ns = mtime;
            let parsed = frontmatter::parse(&head, complete);
            skill.frontmatter = parsed.frontmatter;
            skill.parse_diagnostics = parsed.diagnostics;
            skill.body_line = parsed.layout.body_line;
            skill.body_offset = parsed.layout.body_offset as u64;
            // Without `type:` or `entry:`, the default entry script makes a skill executable.
            if skill.frontmatter.kind_source == KindSource::Default
                && f.dir.join(crate::core::probe::DEFAULT_ENTRY).is_file()
            {
                skill.frontmatter.kind = SkillKind::Executable;
                skill.frontmatter.kind_source = KindSource::EntryScript;
            }
        }
        Err(e) if crate::core::library::is_not_regular(&e) => skill.parse_diagnostics.push(
            Diagnostic::new(
                RuleId::SkillFileNotRegular,
                Severity::Error,
                "this SKILL.md is not a regular file (a pipe, socket, device or folder): it was not opened; replace it with a text file",
            ),
        ),
        Err(e) => skill.parse_diagnostics.push(
            Diagnostic::new(
                RuleId::FileUnreadable,
                Severity::Error,
                format!("cannot read SKILL.md: {e}; check its permissions"),
            )
            .at(1, 1),
        ),
    }
    let file_name = f.file.file_name().map(|n| n.to_string_lossy().into_owned());
    if let Some(n) = file_name.filter(|n| n != "SKILL.md" && n != "skill.md") {
        skill.parse_diagnostics.push(Diagnostic::new(
            RuleId::SkillFileName,
            Severity::Error,
            format!(
                "the file is named `{n}`: agents look for `SKILL.md` on case-sensitive file systems; rename it"
            ),
        ));
    }
    for other in &f.others {
        skill.parse_diagnostics.push(Diagnostic::new(
            RuleId::SkillFileDuplicate,
            Severity::Warning,
            format!(
                "the folder also holds {}: agents read only {}; remove one",
                other.file_name().unwrap_or_default().to_string_lossy(),
                f.file.file_name().unwrap_or_default().to_string_lossy()
            ),
        ));
    }
    skill.name = skill
        .frontmatter
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| skill.dir_name(), str::to_string);
    let placed = crate::core::namespace::place(&root.path, &skill.dir, &skill.name);
    skill.id = placed.id;
    skill.namespace = placed.namespace;
    skill.plugin = placed.plugin;
    skill
}

/// Reads a SKILL.md's first bytes: through the frontmatter's end when there is one, at most
/// `HEAD_CAP`. Returns the bytes, the file length, its mtime and whether the bytes are the whole
/// file. Only a regular file is read, and opening never blocks.
pub fn read_head(path: &Path) -> std::io::Result<(Vec<u8>, u64, u128, bool)> {
    let (mut file, meta) = crate::core::library::open_regular(path)?;
    let len = meta.len();
    let mtime = crate::core::fsx::mtime_ns(&meta);
    let mut buf = Vec::with_capacity((len as usize).min(HEAD_BYTES));
    let mut want = HEAD_BYTES;
    loop {
        let got = (&mut file)
            .take((want - buf.len()) as u64)
            .read_to_end(&mut buf)?;
        let complete = buf.len() as u64 >= len || got == 0;
        // A read may stop inside a line (`----x` cut after `---`): judge only whole lines.
        let whole = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if complete || frontmatter::frontmatter_end(&buf[..whole]).is_some() || want >= HEAD_CAP {
            return Ok((buf, len, mtime, complete));
        }
        want = (want * 4).min(HEAD_CAP);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::source::{Agent, Scope};

    fn write(p: &Path, s: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    }

    #[test]
    fn finds_skills_at_depth_skips_dot_dirs_and_reports_cycles() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        write(&r.join("a/SKILL.md"), "---\nname: a\ndescription: d\n---\n");
        write(
            &r.join("x/y/b/skill.md"),
            "---\nname: b\ndescription: d\n---\n",
        );
        write(
            &r.join(".github/f/SKILL.md"),
            "---\nname: f\ndescription: d\n---\n",
        );
        write(
            &r.join(".git/c/SKILL.md"),
            "---\nname: c\ndescription: d\n---\n",
        );
        write(&r.join("node_modules/d/SKILL.md"), "---\nname: d\n---\n");
        write(&r.join("e/Skill.md"), "---\nname: e\ndescription: d\n---\n");
        std::os::unix::fs::symlink(r, r.join("x/loop")).unwrap();
        let (skills, problems) = scan(
            &[Root::new(r, Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        let names: Vec<_> = skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec!["f", "a", "e", "b"]);
        assert!(
            skills[2]
                .parse_diagnostics
                .iter()
                .any(|d| d.rule == "skill-file-name")
        );
        assert!(
            problems.iter().any(|d| d.rule == "symlink-cycle"),
            "{problems:?}"
        );
    }

    /// Runs `f` on a thread; fails if it takes longer than a minute (a hang guard, not a timing).
    fn guarded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(f()));
        rx.recv_timeout(std::time::Duration::from_secs(60))
            .expect("the walk did not finish: it went where it must not")
    }

    #[test]
    fn links_to_system_folders_and_above_the_root_are_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path().join("lib");
        write(&r.join("a/SKILL.md"), "---\nname: a\ndescription: d\n---\n");
        std::os::unix::fs::symlink("/", r.join("slash")).unwrap();
        std::os::unix::fs::symlink("/proc", r.join("a/proc")).unwrap();
        std::os::unix::fs::symlink("/dev/null", r.join("a/null")).unwrap();
        std::os::unix::fs::symlink(t.path(), r.join("parent")).unwrap();
        std::os::unix::fs::symlink(&r, r.join("self")).unwrap();
        let root = Root::new(&r, Agent::Path, Scope::Path);
        let (skills, problems) = guarded(move || scan(&[root], &ScanOptions::default()));
        assert_eq!(skills.len(), 1);
        let skipped: Vec<_> = problems
            .iter()
            .filter(|d| d.rule == "walk-skipped")
            .map(|d| d.path.clone().unwrap())
            .collect();
        for link in ["slash", "a/proc", "a/null", "parent"] {
            assert!(skipped.contains(&r.join(link)), "{link}: {problems:?}");
        }
        assert!(problems.iter().all(|d| d.severity == Severity::Warning));
        assert!(
            problems.iter().any(|d| d.rule == "symlink-cycle"),
            "a link to the root itself is a cycle: {problems:?}"
        );
    }

    #[test]
    fn a_root_inside_a_system_folder_is_not_walked() {
        let root = Root::new("/proc/self", Agent::Path, Scope::Path);
        let (skills, problems) = guarded(move || scan(&[root], &ScanOptions::default()));
        assert!(skills.is_empty());
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].rule, "walk-skipped");
    }

    #[test]
    fn a_walk_stops_at_the_entry_cap_and_says_how_to_raise_it() {
        let t = tempfile::tempdir().unwrap();
        for i in 0..40 {
            write(
                &t.path().join(format!("s{i:02}/SKILL.md")),
                "---\nname: s\ndescription: d\n---\n",
            );
        }
        let root = Root::new(t.path(), Agent::Path, Scope::Path);
        let opts = |max_entries| ScanOptions {
            max_entries,
            ..ScanOptions::default()
        };
        let (skills, problems) = scan(std::slice::from_ref(&root), &opts(10));
        assert!(skills.len() < 40, "{}", skills.len());
        let cap: Vec<_> = problems.iter().filter(|d| d.rule == "walk-cap").collect();
        assert_eq!(cap.len(), 1, "{problems:?}");
        assert!(cap[0].message.contains(&t.path().display().to_string()));
        assert!(
            cap[0]
                .message
                .contains("--max-entries N or SKILLSCOPE_MAX_ENTRIES=N")
        );
        let (skills, problems) = scan(&[root], &opts(81));
        assert_eq!(skills.len(), 40);
        assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn unreadable_and_huge_files_still_appear() {
        let t = tempfile::tempdir().unwrap();
        let big = t.path().join("big/SKILL.md");
        let mut s = String::from("---\nname: big\n");
        s.push_str(&"x: y\n".repeat(300_000));
        write(&big, &s);
        let (skills, _) = scan(
            &[Root::new(t.path(), Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        assert_eq!(skills.len(), 1);
        assert_eq!(skills[0].name, "big");
        let rules: Vec<_> = skills[0].parse_diagnostics.iter().map(|d| d.rule).collect();
        assert_eq!(rules, vec!["frontmatter-unterminated"]);
        assert!(skills[0].parse_diagnostics[0].message.contains("first MiB"));
    }
}
