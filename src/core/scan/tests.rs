use super::*;
use crate::core::source::{Agent, Scope};
use std::cmp::Ordering;

fn write(p: &Path, s: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, s).unwrap();
}

#[test]
fn path_order_is_the_order_of_separator_first_bytes_and_of_paths() {
    use proptest::prelude::*;
    let old = |a: &Path, b: &Path| {
        let key = |c: &u8| if *c == b'/' { 0 } else { *c };
        let (a, b) = (
            a.as_os_str().as_encoded_bytes(),
            b.as_os_str().as_encoded_bytes(),
        );
        a.iter().map(key).cmp(b.iter().map(key))
    };
    let path = "(/?[ab./ -]{0,6}){0,4}";
    proptest!(ProptestConfig::with_cases(20_000), |(a in path, b in path)| {
        let (a, b) = (Path::new(&a), Path::new(&b));
        prop_assert_eq!(path_order(a, b), old(a, b));
        // On paths a walk makes (no `.` or `..` component below the root, no repeated or
        // trailing separator), the order of `Path` itself.
        let clean = |p: &Path| {
            crate::core::files::paths::absolute(p).as_os_str() == p.as_os_str()
                && !p.components().any(|c| c == std::path::Component::ParentDir)
        };
        if a.is_absolute() && b.is_absolute() && clean(a) && clean(b) {
            prop_assert_eq!(path_order(a, b), a.cmp(b));
        }
    });
    let long = "/a/".repeat(40);
    assert_eq!(
        path_order(
            Path::new(&format!("{long}x")),
            Path::new(&format!("{long}-"))
        ),
        Ordering::Greater
    );
    assert_eq!(
        path_order(
            Path::new(&format!("{long}/b")),
            Path::new(&format!("{long}-b"))
        ),
        Ordering::Less
    );
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
    // An install or a removal under way (or cut short by a kill) is skillscope's own.
    for own in [".skillscope-add-x1/g", ".skillscope-gone-g-x2"] {
        write(
            &r.join(own).join("SKILL.md"),
            "---\nname: g\ndescription: d\n---\n",
        );
    }
    write(&r.join("e/Skill.md"), "---\nname: e\ndescription: d\n---\n");
    crate::core::files::fsx::test_link(r, r.join("x/loop")).unwrap();
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
    rx.recv_timeout(std::time::Duration::from_mins(1))
        .expect("the walk did not finish: it went where it must not")
}

#[test]
fn links_to_system_folders_and_above_the_root_are_not_followed() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path().join("lib");
    write(&r.join("a/SKILL.md"), "---\nname: a\ndescription: d\n---\n");
    crate::core::files::fsx::test_link("/", r.join("slash")).unwrap();
    crate::core::files::fsx::test_link("/proc", r.join("a/proc")).unwrap();
    crate::core::files::fsx::test_link("/dev/null", r.join("a/null")).unwrap();
    crate::core::files::fsx::test_link(t.path(), r.join("parent")).unwrap();
    crate::core::files::fsx::test_link(&r, r.join("self")).unwrap();
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
fn a_link_to_slash_beside_a_skill_past_the_depth_limit_is_not_followed() {
    // The walker's depth limit leaves the skill's deep folder to the resource look, which
    // must refuse the same links the walk refuses.
    let t = tempfile::tempdir().unwrap();
    let r = t.path().join("lib");
    write(&r.join("s/SKILL.md"), "---\nname: s\ndescription: d\n---\n");
    write(&r.join("s/a/b/ok.md"), "ok\n");
    crate::core::files::fsx::test_link("/", r.join("s/a/b/slash")).unwrap();
    crate::core::files::fsx::test_link(&r, r.join("s/a/b/up")).unwrap();
    let root = Root::new(&r, Agent::Path, Scope::Path);
    let opts = ScanOptions {
        max_depth: 1,
        ..ScanOptions::default()
    };
    let (skills, _) = guarded(move || scan(&[root], &opts));
    let rels: Vec<&str> = skills[0].resources.iter().map(|x| x.rel.as_str()).collect();
    assert_eq!(rels, vec!["a/b/ok.md"]);
}

#[cfg(unix)]
#[test]
fn a_fifo_skill_file_is_listed_with_its_error_and_never_opened() {
    let t = tempfile::tempdir().unwrap();
    write(
        &t.path().join("ok/SKILL.md"),
        "---\nname: ok\ndescription: d\n---\n",
    );
    std::fs::create_dir_all(t.path().join("pipe")).unwrap();
    nix::unistd::mkfifo(
        &t.path().join("pipe/SKILL.md"),
        nix::sys::stat::Mode::S_IRWXU,
    )
    .unwrap();
    let root = Root::new(t.path(), Agent::Path, Scope::Path);
    let (skills, _) = guarded(move || scan(&[root], &ScanOptions::default()));
    let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, vec!["ok", "pipe"]);
    let rules: Vec<_> = skills[1].parse_diagnostics.iter().map(|d| d.rule).collect();
    assert_eq!(rules, vec![RuleId::SkillFileNotRegular]);
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

/// Dates every file and folder under `root` an hour back: stamps of the last seconds are not
/// trusted (another write in the same tick would not show).
fn backdate(root: &Path) {
    let then = std::time::SystemTime::now() - std::time::Duration::from_hours(1);
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).unwrap() {
                stack.push(e.unwrap().path());
            }
        }
        // A link to nothing keeps its time.
        if let Ok(f) = std::fs::File::open(&p) {
            f.set_modified(then).unwrap();
        }
    }
}

#[test]
fn a_remembered_walk_sees_a_folder_added_or_removed_anywhere_below_its_root() {
    use crate::core::index::IndexStore;
    use crate::core::library::Library;
    let t = tempfile::tempdir().unwrap();
    let (root, elsewhere) = (t.path().join("lib"), t.path().join("elsewhere"));
    // Hundreds of folders (more than one core checks at a time), nested three deep, some skills
    // with a subfolder of their own, and a linked folder whose folders are checked through it.
    let skill = |dir: &Path, name: &str| {
        write(
            &dir.join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: Skill {name}.\n---\nBody.\n"),
        );
    };
    for i in 0..612 {
        let dir = root.join(format!("g{}/o{}/s{i:04}", i % 3, i % 7));
        skill(&dir, &format!("s{i:04}"));
        if i % 5 == 0 {
            write(&dir.join("references/guide.md"), "A guide.\n");
        }
    }
    skill(&elsewhere.join("deep/far"), "far");
    crate::core::files::fsx::test_link(elsewhere.join("deep"), root.join("g1/via")).unwrap();
    let store = IndexStore::in_dir(t.path().join("cache"));
    let load = || {
        let (lib, stats) = Library::load_indexed(
            crate::core::source::path_roots(std::slice::from_ref(&root)),
            &ScanOptions::default(),
            &store,
        );
        lib.save_index();
        (lib.skills.len(), stats.roots_walked)
    };
    let all = 613;
    // Each place: a folder of folders, a skill folder with no subfolder, a skill's own
    // subfolder, one of the last folders, one behind a link.
    let places = [
        root.join("g0"),
        root.join("g2/o6"),
        root.join("g0/o0/s0000"),
        root.join("g1/o3/s0598"),
        root.join(format!("g0/o0/s{:04}/references", 0)),
        root.join(format!(
            "g{}/o{}/s{:04}",
            (all - 2) % 3,
            (all - 2) % 7,
            all - 2
        )),
        root.join("g1/via/far"),
        root.join("g1/via"),
    ];
    // Stamps an hour old, taken by a walk, then trusted by the next load.
    let settle = |want: usize| {
        backdate(&root);
        backdate(&elsewhere);
        assert_eq!(load(), (want, 1));
        assert_eq!(load(), (want, 0), "settled: not walked");
    };
    settle(all);
    for place in places {
        assert!(place.is_dir(), "{}", place.display());
        let added = place.join("added");
        // Each change alone, on a library whose every stamp is trusted: the walk is made again.
        skill(&added, "added");
        assert_eq!(load(), (all + 1, 1), "added in {}", place.display());
        settle(all + 1);
        std::fs::remove_file(added.join("SKILL.md")).unwrap();
        assert_eq!(load(), (all, 1), "emptied in {}", place.display());
        settle(all);
        std::fs::remove_dir(&added).unwrap();
        assert_eq!(load(), (all, 1), "removed from {}", place.display());
        settle(all);
    }
}

/// A library whose record lookups are answered from its remembered walk: `lib/proj/skills/a`
/// and `lib/work/skills/w` (a ClawHub work folder), its index, and a folder `elsewhere` beside.
struct Lookups {
    _t: tempfile::TempDir,
    root: PathBuf,
    elsewhere: PathBuf,
    store: crate::core::index::IndexStore,
}

impl Lookups {
    fn new() -> Lookups {
        let t = tempfile::tempdir().unwrap();
        let (root, elsewhere) = (t.path().join("lib"), t.path().join("elsewhere"));
        for (dir, name) in [("proj/skills/a", "a"), ("work/skills/w", "w")] {
            write(
                &root.join(dir).join("SKILL.md"),
                &format!("---\nname: {name}\ndescription: Skill {name}.\n---\nBody.\n"),
            );
        }
        std::fs::create_dir_all(&elsewhere).unwrap();
        let store = crate::core::index::IndexStore::in_dir(t.path().join("cache"));
        Lookups {
            _t: t,
            root,
            elsewhere,
            store,
        }
    }

    /// A load through the index (written again), and how many roots it walked.
    fn load(&self) -> (crate::core::library::Library, usize) {
        let (lib, stats) = crate::core::library::Library::load_indexed(
            crate::core::source::path_roots(std::slice::from_ref(&self.root)),
            &ScanOptions::default(),
            &self.store,
        );
        lib.save_index();
        (lib, stats.roots_walked)
    }

    /// Stamps an hour old, taken by a walk; then a load that trusts them all.
    fn settle(&self) -> crate::core::library::Library {
        backdate(&self.root);
        backdate(&self.elsewhere);
        self.load();
        let (lib, walked) = self.load();
        assert_eq!(walked, 0, "settled: not walked");
        lib
    }
}

/// Roots walked, the installers' record file of each skill (`a`, `w`), and what the walk saw of
/// `proj/skills-lock.json`.
type Looked = (
    usize,
    Option<PathBuf>,
    Option<PathBuf>,
    Option<crate::core::scan::Entry>,
);

fn looked(l: &Lookups, (lib, walked): (crate::core::library::Library, usize)) -> Looked {
    let (records, _) =
        crate::core::installers::records_seen(&lib.skills, None, std::sync::Arc::clone(&lib.seen));
    let file_of = |name: &str| {
        let i = lib.skills.iter().position(|s| s.name == name).unwrap();
        records[i].as_ref().map(|r| r.file.clone())
    };
    let a = lib.skills.iter().find(|s| s.name == "a").unwrap();
    let proj = l.root.join("proj");
    let saw = lib.seen.entry(
        &l.root,
        &a.dir,
        &proj,
        crate::core::installers::skills_lock::FILE,
    );
    (walked, file_of("a"), file_of("w"), saw)
}

/// The project lock's lookups in folders a remembered walk read are answered from what it saw,
/// and only while every folder keeps its stat: a lock added or removed is seen by the next load,
/// and a lock that is a link is looked at each time (its target can come and go while its folder
/// keeps its stat; while it is missing the lookup goes on to the lock above).
#[test]
fn lock_lookups_answered_from_a_remembered_walk_see_every_change() {
    use crate::core::scan::Entry;
    let l = Lookups::new();
    let (load, settle) = (|| looked(&l, l.load()), || looked(&l, (l.settle(), 0)));
    let lock = r#"{"version":1,"skills":{"a":{"source":"o/r","sourceType":"github","computedHash":"00"}}}"#;
    let proj_lock = l.root.join("proj/skills-lock.json");
    assert_eq!(settle(), (0, None, None, Some(Entry::Absent)));
    // Added: the folder's stat changed, so the walk is made again and sees it.
    write(&proj_lock, lock);
    assert_eq!(load().1, Some(proj_lock.clone()), "added");
    let answered = (0, Some(proj_lock.clone()), None, Some(Entry::File));
    assert_eq!(settle(), answered, "answered by the remembered walk");
    std::fs::remove_file(&proj_lock).unwrap();
    assert_eq!(load(), (1, None, None, Some(Entry::Absent)), "removed");
    assert_eq!(settle(), (0, None, None, Some(Entry::Absent)));
    // A link, with a lock further up, walked first while its target is missing (the walker
    // cannot stat it), then while it is there.
    let (target, root_lock) = (
        l.elsewhere.join("lock.json"),
        l.root.join("skills-lock.json"),
    );
    write(&root_lock, lock);
    crate::core::files::fsx::test_link(&target, &proj_lock).unwrap();
    let (by_link, above) = (
        (0, Some(proj_lock.clone()), None, Some(Entry::Other)),
        (0, Some(root_lock.clone()), None, Some(Entry::Other)),
    );
    assert_eq!(settle(), above, "walked with the target missing");
    write(&target, lock);
    assert_eq!(load(), by_link, "target made");
    std::fs::remove_file(&target).unwrap();
    assert_eq!(load(), above, "target gone");
    write(&target, lock);
    assert_eq!(settle(), by_link, "walked with the target there");
    std::fs::remove_file(&target).unwrap();
    assert_eq!(load(), above, "target gone");
    write(&target, lock);
    assert_eq!(load(), by_link, "target back");
}

/// ClawHub's record folder and skillscope's own manifest, looked up in folders a remembered
/// walk read: each added or removed is seen by the next load.
#[test]
fn clawhub_and_manifest_lookups_answered_from_a_remembered_walk_see_every_change() {
    let l = Lookups::new();
    let (load, settle) = (|| looked(&l, l.load()), || looked(&l, (l.settle(), 0)));
    let work_lock = l.root.join("work/.clawhub/lock.json");
    let clawhub_lock = r#"{"skills":{"w":{"version":"1.0.0"}}}"#;
    assert_eq!(settle().2, None);
    write(&work_lock, clawhub_lock);
    assert_eq!(load().2, Some(work_lock.clone()), "clawhub lock added");
    assert_eq!(settle().2, Some(work_lock.clone()));
    // Removed inside its record folder: a change of that folder's own stat.
    std::fs::remove_file(&work_lock).unwrap();
    assert_eq!(load().2, None, "clawhub lock removed");
    assert_eq!(settle().2, None);
    std::fs::remove_dir(l.root.join("work/.clawhub")).unwrap();
    assert_eq!(settle().2, None);
    write(&work_lock, clawhub_lock);
    assert_eq!(load().2, Some(work_lock), "clawhub folder and lock added");
    // skillscope's own manifest, in the skills folder.
    let skills_dir = l.root.join("proj/skills");
    let provenance = |(lib, walked): (crate::core::library::Library, usize)| {
        let i = lib.skills.iter().position(|s| s.name == "a").unwrap();
        let from = crate::core::manage::manifest::provenances(&lib.skills, &lib.seen);
        (walked, from[i].as_ref().map(|e| e.hash.clone()))
    };
    assert_eq!(provenance((l.settle(), 0)), (0, None));
    crate::core::manage::manifest::edit(&skills_dir, |m| {
        m.skills.insert(
            "a".into(),
            crate::core::manage::manifest::Entry {
                name: "a".into(),
                source: crate::core::manage::origin::OriginRecord {
                    kind: crate::core::manage::origin::OriginKind::Git,
                    location: "file:///r".into(),
                    reference: None,
                },
                commit: None,
                subfolder: "a".into(),
                added: "2025-01-01T00:00:00Z".into(),
                hash: "h".into(),
            },
        )
    })
    .unwrap();
    assert_eq!(
        provenance(l.load()),
        (1, Some("h".into())),
        "manifest added"
    );
    let remembered = provenance((l.settle(), 0));
    assert_eq!(
        remembered,
        (0, Some("h".into())),
        "from the remembered walk"
    );
    std::fs::remove_file(skills_dir.join(crate::core::manage::manifest::FILE)).unwrap();
    assert_eq!(provenance(l.load()), (1, None), "manifest removed");
    assert_eq!(provenance((l.settle(), 0)), (0, None));
}

#[test]
fn a_folder_below_the_root_by_bytes_is_the_folder_its_full_path_names() {
    use crate::core::files::fsx::{Dir, Stamp, stat_path};
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("lib");
    write(&root.join("a/b/SKILL.md"), "x");
    write(&root.join("a/c/SKILL.md"), "y");
    write(&t.path().join("out/SKILL.md"), "z");
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("a/b"), root.join("link")).unwrap();
    let r = root.to_string_lossy().into_owned();
    let bases = [r.clone(), format!("{r}/"), format!("{r}//")];
    let rels = [
        "",
        "/",
        "a",
        "a/",
        "a/b",
        "//a//b",
        "a/./b",
        "./a",
        "a/b/..",
        "a/../a/c",
        "../out",
        "link",
        "link/..",
        "link/SKILL.md",
        "a/b/SKILL.md",
        "missing",
        "a/missing/..",
    ];
    let mut compared = 0;
    for base in &bases {
        let held = Dir::open(Path::new(base));
        for rel in rels {
            for sep in ["", "/"] {
                let full = PathBuf::from(format!("{base}{sep}{rel}"));
                // The slow way: the whole path looked up from the start.
                let slow: Option<Stamp> = stat_path(&full).ok().map(|(s, _)| s);
                let fast = within(&held, Path::new(base), &full).stat_self().ok();
                assert_eq!(fast, slow, "{} below {base}", full.display());
                compared += usize::from(slow.is_some());
                // Where the names say it is below, so do the bytes, and the rests name the same
                // path below the root.
                if let Some(named) = crate::core::files::paths::strip_prefix(&full, Path::new(base))
                {
                    let rest = below(&full, Path::new(base));
                    assert!(rest.is_some(), "{}", full.display());
                    let (a, b) = (
                        Path::new(base).join(rest.unwrap()),
                        Path::new(base).join(named),
                    );
                    assert_eq!(a, b, "{}", full.display());
                }
            }
        }
    }
    assert!(compared > 20, "only {compared} paths existed");
    // Paths that do not start with the root's bytes, or only with part of a name, are not below.
    assert_eq!(below(Path::new("/x/lib2/a"), Path::new("/x/lib")), None);
    assert_eq!(below(Path::new("/x/li"), Path::new("/x/lib")), None);
    assert_eq!(below(Path::new("/x/lib/a"), Path::new("")), None);
    assert_eq!(
        below(Path::new("/x/lib//a"), Path::new("/x/lib")),
        Some(Path::new("a"))
    );
    assert_eq!(
        below(Path::new("/x/lib"), Path::new("/x/lib")),
        Some(Path::new(""))
    );
}
