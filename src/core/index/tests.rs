use super::codec::{ReadRecords, WriteRecords};
use super::format::{decode, decode_batched};
use super::*;
use crate::core::files::codec::{Reader as R, Writer as W};
use crate::core::findings::diagnostic::{Diagnostic, RuleId};
use crate::core::frontmatter;
use crate::core::library::Library;
use crate::core::rules::{self, CheckOptions};
use crate::core::scan::{DEFAULT_MAX_DEPTH as DEPTH, DEFAULT_MAX_ENTRIES as ENTRIES, ScanOptions};
use crate::core::skill::{KindSource, SkillKind};
use crate::core::source::{Agent, Root, Scope};
use std::io::Write;
#[cfg(unix)]
use std::os::unix::fs::FileTypeExt;
use std::time::{Duration, SystemTime};

fn write(p: &Path, s: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, s).unwrap();
}

/// Dates every file and folder under `root` an hour back: stamps of the last seconds are not
/// trusted (another write in the same tick would not show).
fn backdate(root: &Path) {
    let then = SystemTime::now() - Duration::from_hours(1);
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).unwrap() {
                stack.push(e.unwrap().path());
            }
        }
        std::fs::File::open(&p).unwrap().set_modified(then).unwrap();
    }
}

#[test]
fn vectors_follow_the_index_are_read_only_when_asked_and_a_bad_section_is_dropped() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("lib");
    write(
        &root.join("a/SKILL.md"),
        "---\nname: a\ndescription: A.\n---\n",
    );
    backdate(&root);
    let store = IndexStore::in_dir(t.path().join("cache"));
    let roots = || vec![Root::new(&root, Agent::Path, Scope::Path)];
    let load = || Library::load_indexed(roots(), &ScanOptions::default(), &store).0;
    let lib = load();
    assert!(lib.remembered_vectors().is_empty());
    let v: Vec<f32> = (0..384).map(|i| (i as f32 - 192.0) / 400.0).collect();
    lib.remember_vectors(vec![([7; 32], v.clone()), ([9; 32], vec![0.25; 384])]);
    assert!(lib.save_index().is_none());
    // An index with vectors behind it reads as one without: the walks and skills come back.
    let lib = load();
    assert!(lib.from_index());
    // Their keys alone, read from the file without the vectors.
    let keys = lib.remembered_vector_keys();
    assert_eq!(keys, [[7; 32], [9; 32]].into_iter().collect());
    let got = lib.remembered_vectors();
    assert_eq!(got.len(), 2);
    assert_eq!(lib.remembered_vector_keys(), keys);
    let back = &got[&[7; 32]];
    assert!(
        back.iter().zip(&v).all(|(a, b)| (a - b).abs() < 1e-3),
        "{back:?}"
    );
    // Saved again without being changed, they are copied along.
    lib.index_changed();
    assert!(lib.save_index().is_none());
    let path = store
        .path_for(std::slice::from_ref(&root), DEPTH, ENTRIES)
        .unwrap();
    assert_eq!(load().remembered_vectors().len(), 2);
    // A flipped byte in the section: the vectors are gone, the index is still used.
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 16 - 32 - 10;
    bytes[at] ^= 0xff;
    std::fs::write(&path, &bytes).unwrap();
    let lib = load();
    assert!(lib.from_index());
    assert!(lib.remembered_vector_keys().is_empty());
    assert!(lib.remembered_vectors().is_empty());
}

#[test]
fn linked_and_plain_folders_are_located_alike_when_walked_and_when_remembered() {
    use crate::core::listing::{Format, entry};
    use crate::core::source::path_roots;
    let write_skill = |root: &Path, dir: &str, fm: &str| {
        write(
            &root.join(dir).join("SKILL.md"),
            &format!("---\n{fm}---\nBody.\n"),
        );
    };
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("root");
    let elsewhere = t.path().join("elsewhere");
    write_skill(&root, "plain", "name: plain\ndescription: Plain.\n");
    write_skill(
        &elsewhere.join("deep"),
        "far",
        "name: far\ndescription: Far.\n",
    );
    std::fs::create_dir_all(root.join("ns")).unwrap();
    // A linked folder holding a skill, and a skill folder that is itself a link.
    crate::core::files::fsx::test_link(elsewhere.join("deep"), root.join("ns/via")).unwrap();
    write_skill(&elsewhere, "own", "name: own\ndescription: Own.\n");
    crate::core::files::fsx::test_link(elsewhere.join("own"), root.join("own")).unwrap();
    backdate(&root);
    backdate(&elsewhere);
    let store = IndexStore::in_dir(t.path().join("cache"));
    let real = |p: PathBuf| -> PathBuf { std::fs::canonicalize(p).unwrap().join("SKILL.md") };
    let want = [
        real(root.join("ns/via/far")),
        real(elsewhere.join("own")),
        real(root.join("plain")),
    ];
    for pass in ["walked", "remembered"] {
        let (lib, stats) = Library::load_indexed(
            path_roots(std::slice::from_ref(&root)),
            &ScanOptions::default(),
            &store,
        );
        assert_eq!(stats.roots_walked, usize::from(pass == "walked"), "{pass}");
        lib.save_index();
        let mut got: Vec<(String, bool, String)> = lib
            .skills
            .iter()
            .map(|s| {
                let e = entry(s, Format::Xml);
                let loc = e.split("<location>\n").nth(1).unwrap().split('\n').next();
                (s.name.clone(), s.plain, loc.unwrap().to_string())
            })
            .collect();
        got.sort();
        let names: Vec<(&str, bool)> = got.iter().map(|(n, p, _)| (n.as_str(), *p)).collect();
        assert_eq!(
            names,
            [("far", false), ("own", false), ("plain", true)],
            "{pass}"
        );
        let locs: Vec<PathBuf> = got.iter().map(|(_, _, l)| PathBuf::from(l)).collect();
        assert_eq!(locs, want, "{pass}");
    }
}

fn library(root: &Path) {
    for (name, extra) in [
        ("alpha", ""),
        ("beta", "[guide](references/guide.md)"),
        ("gamma", ""),
    ] {
        write(
            &root.join(format!("{name}/SKILL.md")),
            &format!(
                "---\nname: {name}\ndescription: Does {name} things. Use when {name} is asked for.\n---\n# {name}\n{extra}\n[missing](nowhere.md)\n"
            ),
        );
    }
    write(
        &root.join("beta/references/guide.md"),
        "# Guide\nSee [more](more.md).\n",
    );
    write(&root.join("beta/references/more.md"), "# More\n");
    write(&root.join("beta/assets/logo.png"), "\u{89}PNG\0\0");
    write(&root.join("README.md"), "not a skill\n");
    backdate(root);
}

fn load(root: &Path, cache: &Path) -> (Library, crate::core::library::LoadStats) {
    Library::load_indexed(
        vec![Root::new(root, Agent::Path, Scope::Path)],
        &ScanOptions::default(),
        &IndexStore::in_dir(cache),
    )
}

/// Everything a scan hands on, in a comparable form.
fn summary(lib: &Library) -> Vec<String> {
    lib.skills
        .iter()
        .map(|s| {
            format!(
                "{} {:?} {:?} {:?} {:?} {}",
                s.name,
                s.frontmatter.fields,
                s.parse_diagnostics,
                s.resources
                    .iter()
                    .map(|r| (&r.rel, r.size, r.text))
                    .collect::<Vec<_>>(),
                s.stamp,
                s.body_line
            )
        })
        .collect()
}

fn body_check(lib: &Library) -> Vec<Vec<Diagnostic>> {
    rules::check_library(
        lib,
        &CheckOptions {
            per_agent: false,
            body: true,
            ..CheckOptions::default()
        },
    )
}

#[test]
fn a_remembered_walk_is_copied_from_its_file_when_the_index_is_written_again() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let _ = load(&root, &cache);
    let (warm, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
    // Something new to keep: the index is written again, its walk copied from the file read.
    warm.remember_text_count([7; 32], 1, 42);
    assert!(warm.save_index().is_none());
    let (again, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
    assert_eq!(summary(&again), summary(&warm));
    assert_eq!(again.text_count(&[7; 32], 1), Some(42));
    // And once more, from the file written by the copy.
    again.remember_text_count([8; 32], 1, 43);
    assert!(again.save_index().is_none());
    let (third, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
    assert_eq!(summary(&third), summary(&warm));
}

#[test]
fn a_walk_whose_index_file_changed_under_it_is_left_out_and_walked_again() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let (first, _) = load(&root, &cache);
    let (warm, _) = load(&root, &cache);
    let path = IndexStore::in_dir(&cache)
        .path_for(std::slice::from_ref(&root), DEPTH, ENTRIES)
        .unwrap();
    // Written in place (no writer of ours does): the walk's bytes can no longer be trusted.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(b"x")
        .unwrap();
    warm.remember_text_count([7; 32], 1, 42);
    assert!(warm.save_index().is_none());
    let (again, stats) = load(&root, &cache);
    assert_eq!(stats.roots_walked, 1, "the root is walked again");
    assert_eq!(stats.skills_parsed, 0, "its skills' records are still good");
    assert_eq!(summary(&again), summary(&first));
    assert_eq!(again.text_count(&[7; 32], 1), Some(42));
}

#[test]
fn an_unchanged_library_is_neither_walked_nor_parsed_and_reads_the_same() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let (first, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (1, 3));
    let (second, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
    assert_eq!(summary(&first), summary(&second));
    let plain = Library::load(
        vec![Root::new(&root, Agent::Path, Scope::Path)],
        &ScanOptions::default(),
    );
    assert_eq!(summary(&plain), summary(&second));
    let beta = &second.skills[second.find("beta").unwrap()];
    let rels: Vec<(&str, bool)> = beta
        .resources
        .iter()
        .map(|r| (r.rel.as_str(), r.text))
        .collect();
    assert_eq!(
        rels,
        vec![
            ("assets/logo.png", false),
            ("references/guide.md", true),
            ("references/more.md", true)
        ]
    );
}

/// What a skill's place and its neighbours decide, for comparing loads.
fn placed(lib: &Library) -> Vec<String> {
    lib.skills
        .iter()
        .map(|s| {
            format!(
                "{} {} {} {} {:?} {:?} {:?}",
                s.id,
                s.namespace,
                s.plugin,
                s.name,
                s.kind(),
                s.frontmatter.kind_source,
                s.shadowed_by
            )
        })
        .collect()
}

#[test]
fn namespaced_ids_and_kinds_are_the_same_from_the_index_and_from_a_scan() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    let skill = |rel: &str, name: &str, extra: &str| {
        write(
            &root.join(rel).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: Does {name} things.\n{extra}---\nBody.\n"),
        );
    };
    skill("web/scraper", "scraper", "");
    skill("data/scraper", "scraper", "");
    skill("pdf", "pdf", "");
    skill("tools/run", "run", "");
    write(&root.join("tools/run/execute.py"), "print('hi')\n");
    skill("tools/entry", "entry", "entry: main.sh\n");
    skill("tools/typed", "typed", "type: composite\n");
    write(&root.join("tools/typed/execute.py"), "print('hi')\n");
    let plugin = root.join("plugins/doc-kit");
    write(
        &plugin.join(".claude-plugin/plugin.json"),
        r#"{"name": "docs"}"#,
    );
    skill("plugins/doc-kit/skills/pdf", "pdf", "");
    backdate(&root);
    let scanned = || {
        Library::load(
            vec![Root::new(&root, Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        )
    };
    let (cold, stats) = load(&root, &cache);
    assert_eq!(stats.skills_parsed, 7);
    let (warm, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
    assert_eq!(placed(&warm), placed(&cold));
    assert_eq!(placed(&warm), placed(&scanned()));
    let ids: Vec<&str> = warm.skills.iter().map(|s| s.id.as_str()).collect();
    for id in [
        "web.scraper",
        "data.scraper",
        "pdf",
        "docs:pdf",
        "tools.run",
    ] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }
    let run = &warm.skills[warm
        .skills
        .iter()
        .position(|s| s.id == "tools.run")
        .unwrap()];
    assert_eq!(run.frontmatter.kind_source, KindSource::EntryScript);
    // What lies beside the skill file changes with the skill file untouched: the plugin is
    // renamed in its manifest and the entry script goes. Neither skill is read again, and
    // both show the change.
    write(
        &plugin.join(".claude-plugin/plugin.json"),
        r#"{"name": "papers"}"#,
    );
    std::fs::remove_file(root.join("tools/run/execute.py")).unwrap();
    let (warm, stats) = load(&root, &cache);
    assert_eq!(stats.skills_parsed, 0);
    assert_eq!(placed(&warm), placed(&scanned()));
    let ids: Vec<&str> = warm.skills.iter().map(|s| s.id.as_str()).collect();
    assert!(ids.contains(&"papers:pdf"), "{ids:?}");
    let run = &warm.skills[warm
        .skills
        .iter()
        .position(|s| s.id == "tools.run")
        .unwrap()];
    assert_eq!(run.frontmatter.kind_source, KindSource::Default);
}

#[test]
fn counts_kept_in_the_index_are_used_while_their_files_keep_their_stat() {
    use crate::core::listing::{self, Format};
    use crate::core::tokens::{self, Encoding, TokenCache};
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let count = |lib: &Library, tokens: &TokenCache| {
        let texts = listing::entries(lib, Format::Xml);
        let got = tokens::count_library(lib, &texts, Encoding::O200kBase, tokens);
        assert!(lib.save_index().is_none());
        got
    };
    let (cold, _) = load(&root, &cache);
    let first = TokenCache::in_memory();
    let want = count(&cold, &first);
    assert!(first.files_read() > 0 && first.encoded() > 0);
    // A new process, with no token cache at all: every level comes from the index.
    let (warm, stats) = load(&root, &cache);
    assert_eq!(stats.skills_parsed, 0);
    let empty = TokenCache::in_memory();
    assert_eq!(count(&warm, &empty), want);
    assert_eq!((empty.files_read(), empty.encoded()), (0, 0));
    // A resource that changed is read and counted again; the rest still come from the index.
    let guide = root.join("beta/references/guide.md");
    write(
        &guide,
        "# Guide\nSee [more](more.md), and more words now.\n",
    );
    std::fs::File::open(&guide)
        .unwrap()
        .set_modified(SystemTime::now() - Duration::from_mins(1))
        .unwrap();
    let (changed, stats) = load(&root, &cache);
    assert_eq!(stats.skills_parsed, 0);
    let empty = TokenCache::in_memory();
    let got = count(&changed, &empty);
    assert_eq!((empty.files_read(), empty.encoded()), (1, 1));
    let beta = changed
        .skills
        .iter()
        .position(|s| s.name == "beta")
        .unwrap();
    assert!(
        got[beta].l3 > want[beta].l3,
        "{:?} vs {:?}",
        got[beta],
        want[beta]
    );
    assert_eq!(got[beta].l2, want[beta].l2);
    assert_eq!(got[beta].l1, want[beta].l1);
}

#[test]
fn only_an_entry_script_inside_the_folder_makes_a_skill_executable_warm_or_cold() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    let skill = |rel: &str| {
        write(
            &root.join(rel).join("SKILL.md"),
            &format!("---\nname: {rel}\ndescription: Does {rel} things.\n---\nBody.\n"),
        );
    };
    skill("inside");
    write(&root.join("inside/run.py"), "print('hi')\n");
    crate::core::files::fsx::test_link("run.py", root.join("inside/execute.py")).unwrap();
    skill("outside");
    write(&t.path().join("elsewhere/execute.py"), "print('hi')\n");
    crate::core::files::fsx::test_link(
        t.path().join("elsewhere/execute.py"),
        root.join("outside/execute.py"),
    )
    .unwrap();
    skill("folder");
    std::fs::create_dir_all(root.join("folder/execute.py")).unwrap();
    backdate(&root);
    let kinds = |lib: &Library| -> Vec<(String, SkillKind)> {
        lib.skills
            .iter()
            .map(|s| (s.name.clone(), s.kind()))
            .collect()
    };
    let (cold, _) = load(&root, &cache);
    let (warm, stats) = load(&root, &cache);
    assert_eq!(stats.skills_parsed, 0);
    assert_eq!(kinds(&warm), kinds(&cold));
    let mut k = kinds(&warm);
    k.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        k,
        vec![
            ("folder".to_string(), SkillKind::Contextual),
            ("inside".to_string(), SkillKind::Executable),
            ("outside".to_string(), SkillKind::Contextual),
        ]
    );
}

#[test]
fn links_out_of_the_skill_folder_are_not_resources_warm_or_cold() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let outside = t.path().join("outside");
    write(&outside.join("secret.md"), "secret\n");
    let beta = root.join("beta");
    crate::core::files::fsx::test_link(outside.join("secret.md"), beta.join("leak.md")).unwrap();
    crate::core::files::fsx::test_link(&outside, beta.join("shared")).unwrap();
    crate::core::files::fsx::test_link("references/more.md", beta.join("more-link.md")).unwrap();
    backdate(&root);
    let rels = |lib: &Library| -> Vec<String> {
        lib.skills[lib.find("beta").unwrap()]
            .resources
            .iter()
            .map(|r| r.rel.clone())
            .collect()
    };
    let want = vec![
        "assets/logo.png",
        "more-link.md",
        "references/guide.md",
        "references/more.md",
    ];
    let (cold, _) = load(&root, &cache);
    assert_eq!(rels(&cold), want);
    let (warm, stats) = load(&root, &cache);
    assert_eq!(stats.roots_walked, 0);
    assert_eq!(rels(&warm), want);
    // Past the walk's depth limit the folder is read by the look below it: same rule.
    let shallow = ScanOptions {
        max_depth: 1,
        ..ScanOptions::default()
    };
    let lib = Library::load(vec![Root::new(&root, Agent::Path, Scope::Path)], &shallow);
    assert_eq!(rels(&lib), want);
}

#[test]
fn a_changed_file_rereads_exactly_its_skill() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    load(&root, &cache);
    // New contents, same folder listing: no walk, one skill read again.
    write(
        &root.join("gamma/SKILL.md"),
        "---\nname: gamma-two\ndescription: Changed. Use when testing.\n---\n",
    );
    let (lib, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 1));
    assert!(lib.find("gamma-two").is_some());
    // A new resource changes its folder: the root is walked again, but no skill file is read.
    backdate(&root);
    load(&root, &cache);
    write(&root.join("alpha/scripts/run.sh"), "echo hi\n");
    let (lib, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (1, 0));
    let alpha = &lib.skills[lib.find("alpha").unwrap()];
    assert_eq!(alpha.resources.len(), 1);
    // A new skill: walked, and only it is read.
    backdate(&root);
    load(&root, &cache);
    write(
        &root.join("delta/SKILL.md"),
        "---\nname: delta\ndescription: d\n---\n",
    );
    let (lib, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (1, 1));
    assert_eq!(lib.len(), 4);
}

#[test]
fn body_facts_are_kept_while_the_file_keeps_its_stat() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let (lib, _) = load(&root, &cache);
    let found = |d: &[Vec<Diagnostic>], lib: &Library, name: &str| -> Vec<&'static str> {
        d[lib.find(name).unwrap()]
            .iter()
            .map(|d| d.rule.as_str())
            .collect()
    };
    let d = body_check(&lib);
    assert!(found(&d, &lib, "beta").contains(&"body-broken-link"));
    assert!(found(&d, &lib, "beta").contains(&"body-nested-reference"));
    assert!(lib.save_index().is_none());
    // Unchanged: the index vouches for the old body, so the rules answer from what they read
    // before (the file is not read again).
    let (lib, stats) = load(&root, &cache);
    assert_eq!(stats.skills_parsed, 0);
    let beta = &lib.skills[lib.find("beta").unwrap()];
    assert!(beta.facts.body.get().is_some());
    assert!(beta.resources.iter().any(|r| r.links.get().is_some()));
    let d = body_check(&lib);
    let msgs: Vec<&str> = d[lib.find("beta").unwrap()]
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(msgs.iter().any(|m| m.contains("`nowhere.md`")), "{msgs:?}");
    // Edited in place to the same length, its mtime put back (`cp -p`, `touch -r`): the
    // length, mtime and inode are as they were, the ctime is not, and the body is read again.
    let skill_md = root.join("beta/SKILL.md");
    let before = std::fs::metadata(&skill_md).unwrap();
    let text = std::fs::read_to_string(&skill_md).unwrap();
    let mut f = std::fs::File::options()
        .write(true)
        .open(&skill_md)
        .unwrap();
    f.write_all(text.replace("nowhere", "xxxxxxx").as_bytes())
        .unwrap();
    loop {
        f.set_modified(before.modified().unwrap()).unwrap();
        let after = Stamp::of(&std::fs::metadata(&skill_md).unwrap());
        let before = Stamp::of(&before);
        assert_eq!(
            (after.len, after.mtime_ns, after.ino),
            (before.len, before.mtime_ns, before.ino)
        );
        if after.ctime_ns != before.ctime_ns {
            break;
        }
        // A coarse clock: the next tick moves it.
        std::thread::sleep(Duration::from_millis(10));
    }
    let (lib, stats) = load(&root, &cache);
    assert_eq!(stats.skills_parsed, 1);
    let d = body_check(&lib);
    let msgs: Vec<&str> = d[lib.find("beta").unwrap()]
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(msgs.iter().any(|m| m.contains("`xxxxxxx.md`")), "{msgs:?}");
}

#[test]
fn an_index_that_could_not_be_written_is_written_by_the_next_save() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let (lib, _) = load(&root, &cache);
    assert!(lib.save_index().is_none());
    // Something new to keep (the body rules' findings), and the cache folder gone, a file
    // in its place.
    body_check(&lib);
    std::fs::remove_dir_all(&cache).unwrap();
    std::fs::write(&cache, "not a folder").unwrap();
    assert!(lib.save_index().is_some());
    std::fs::remove_file(&cache).unwrap();
    assert!(lib.save_index().is_none());
    let (lib, stats) = load(&root, &cache);
    assert_eq!((stats.roots_walked, stats.skills_parsed), (0, 0));
    let beta = &lib.skills[lib.find("beta").unwrap()];
    assert!(
        beta.facts.body.get().is_some(),
        "the body facts were written"
    );
}

#[test]
fn links_read_off_a_resource_taken_by_name_are_kept_only_while_it_keeps_its_stamp() {
    use crate::core::scan::Resources;
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let load_as = |resources| {
        Library::load_indexed(
            vec![Root::new(&root, Agent::Path, Scope::Path)],
            &ScanOptions {
                resources,
                ..ScanOptions::default()
            },
            &IndexStore::in_dir(&cache),
        )
    };
    let links_of = |lib: &Library, rel: &str| {
        let beta = &lib.skills[lib.find("beta").unwrap()];
        let r = beta.resources.iter().find(|r| r.rel == rel).unwrap();
        (r.fresh, r.links.get().cloned())
    };
    // An index with no links remembered (no rule ran), then loads by name.
    let (lib, _) = load_as(Resources::Stat);
    assert!(lib.save_index().is_none());
    let (lib, _) = load_as(Resources::Names);
    body_check(&lib);
    // Unchanged: stat'ed when its links were wanted, and they are kept.
    assert_eq!(
        links_of(&lib, "references/guide.md"),
        (false, Some(vec!["more.md".to_string()]))
    );
    // Changed in place (no folder changes): read, but not kept under the old stamp.
    let guide = root.join("beta/references/guide.md");
    let (lib, _) = load_as(Resources::Stat);
    assert!(lib.save_index().is_none());
    write(&guide, "# Guide\nSee [other](other.md).\n");
    let (lib, stats) = load_as(Resources::Names);
    assert_eq!(stats.roots_walked, 0);
    body_check(&lib);
    assert_eq!(links_of(&lib, "references/guide.md"), (false, None));
}

#[test]
fn resources_taken_by_name_keep_what_the_index_remembers_and_their_links_stay_current() {
    use crate::core::resource::Resource;
    use crate::core::scan::Resources;
    // At the default depth the walker meets every file; at depth 1 the resources are found
    // by the look below its limit, which must report its links the same way.
    for max_depth in [ScanOptions::default().max_depth, 1] {
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        library(&root);
        // A file that is a link, linked from gamma's body (not markdown, so no links of its own
        // are read), to a file in its `node_modules`, which the walk does not enter: when that
        // file goes, no folder the walk stamped changes.
        let far = root.join("gamma/node_modules/real.json");
        write(&far, "{}\n");
        std::fs::create_dir_all(root.join("gamma/references")).unwrap();
        crate::core::files::fsx::test_link(
            "../node_modules/real.json",
            root.join("gamma/references/far.json"),
        )
        .unwrap();
        write(
            &root.join("gamma/SKILL.md"),
            "---\nname: gamma\ndescription: Does gamma things. Use when gamma is asked for.\n---\n[far](references/far.json)\n",
        );
        backdate(&root);
        let load_as = |resources| {
            Library::load_indexed(
                vec![Root::new(&root, Agent::Path, Scope::Path)],
                &ScanOptions {
                    max_depth,
                    resources,
                    ..ScanOptions::default()
                },
                &IndexStore::in_dir(&cache),
            )
        };
        let rules_of = |lib: &Library, name: &str| -> Vec<String> {
            body_check(lib)[lib.find(name).unwrap()]
                .iter()
                .map(|d| format!("{} {}", d.rule.as_str(), d.message))
                .collect()
        };
        let resource = |lib: &Library, skill: &str, rel: &str| -> Resource {
            let s = &lib.skills[lib.find(skill).unwrap()];
            s.resources.iter().find(|r| r.rel == rel).unwrap().clone()
        };
        // The first load reads everything and learns guide.md's links.
        let (lib, _) = load_as(Resources::Stat);
        assert!(
            rules_of(&lib, "beta")
                .iter()
                .any(|r| r.contains("body-nested-reference"))
        );
        assert!(lib.save_index().is_none());
        // Files change in place: no folder changes, so the walk is remembered.
        let logo = root.join("beta/assets/logo.png");
        let logo_then = std::fs::metadata(&logo).unwrap().len();
        write(&logo, "\u{89}PNG\0\0 and a good deal longer\0");
        write(
            &root.join("beta/references/guide.md"),
            "# Guide, no links now\n",
        );
        std::fs::remove_file(&far).unwrap();
        let (lib, stats) = load_as(Resources::Names);
        assert_eq!(stats.roots_walked, 0);
        // Taken by name: what the index remembers, marked as such.
        let l = resource(&lib, "beta", "assets/logo.png");
        assert!(!l.fresh);
        assert_eq!(l.size, logo_then);
        // Its links were remembered: stat'ed, found changed, and read again.
        assert!(resource(&lib, "beta", "references/guide.md").fresh);
        let beta = rules_of(&lib, "beta");
        assert!(
            !beta.iter().any(|r| r.contains("body-nested-reference")),
            "{beta:?}"
        );
        // A link is stat'ed: it lost its target, so it is no resource and the link is broken.
        let gamma = &lib.skills[lib.find("gamma").unwrap()];
        assert!(
            gamma
                .resources
                .iter()
                .all(|r| r.rel != "references/far.json")
        );
        let gamma = rules_of(&lib, "gamma");
        assert!(
            gamma
                .iter()
                .any(|r| r.contains("body-broken-link") && r.contains("references/far.json")),
            "{gamma:?}"
        );
        // A load that stats every resource sees the new size.
        let (lib, _) = load_as(Resources::Stat);
        let l = resource(&lib, "beta", "assets/logo.png");
        assert!(l.fresh);
        assert_eq!(l.size, std::fs::metadata(&logo).unwrap().len());
    }
}

#[test]
fn the_overlap_findings_are_kept_while_the_descriptions_stay() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let (lib, _) = load(&root, &cache);
    let key = |lib: &Library| rules::overlap::input_key(lib, &|_| true, false);
    assert!(lib.remembered(&key(&lib)).is_none());
    let first = body_check(&lib);
    assert!(lib.save_index().is_none());
    let (lib, _) = load(&root, &cache);
    assert!(lib.remembered(&key(&lib)).is_some());
    assert_eq!(body_check(&lib), first);
    // Another description: another key, so the rule runs again.
    write(
        &root.join("alpha/SKILL.md"),
        "---\nname: alpha\ndescription: Something else entirely. Use when asked.\n---\n",
    );
    let (lib, _) = load(&root, &cache);
    assert!(lib.remembered(&key(&lib)).is_none());
}

/// The per-skill rules' findings of each skill as the index keeps them.
fn judged(s: &Skill) -> Vec<crate::core::skill::RuleFindings> {
    super::kept_rules(&s.facts).clone()
}

#[test]
fn the_per_skill_findings_are_kept_while_the_skill_file_stays() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    // A field no profile knows: a finding of the per-skill rules.
    write(
        &root.join("alpha/SKILL.md"),
        "---\nname: alpha\ndescription: Does alpha things. Use when alpha is asked for.\ncolour: blue\n---\n# alpha\n",
    );
    backdate(&root);
    let unknown = |found: &[Vec<Diagnostic>]| {
        found
            .iter()
            .flatten()
            .filter(|d| d.rule == RuleId::UnknownField)
            .count()
    };
    let (lib, _) = load(&root, &cache);
    assert!(lib.skills.iter().all(|s| judged(s).is_empty()));
    let first = body_check(&lib);
    assert_eq!(unknown(&first), 1);
    assert!(lib.skills.iter().all(|s| judged(s).len() == 1));
    assert!(lib.save_index().is_none());
    // Read back with the skills: the same findings as judged afresh.
    let (lib, _) = load(&root, &cache);
    assert!(lib.skills.iter().all(|s| judged(s).len() == 1));
    assert_eq!(body_check(&lib), first);
    // Taken from the index, not judged again: a remembered judgement is what the check says.
    let alpha = lib.skills.iter().find(|s| s.name == "alpha").unwrap();
    alpha.facts.rules.lock().unwrap()[0].1.clear();
    assert_eq!(unknown(&body_check(&lib)), 0);
    // Another profile is another key: judged, and kept beside the first.
    let spec = rules::check_library(
        &lib,
        &CheckOptions {
            profile: rules::Profile::ClaudeCode,
            body: true,
            ..CheckOptions::default()
        },
    );
    assert_eq!(unknown(&spec), 1);
    assert_eq!(judged(alpha).len(), 2);
    // The skill file changed: read and judged again.
    write(
        &root.join("alpha/SKILL.md"),
        "---\nname: alpha\ndescription: Does alpha things. Use when alpha is asked for.\n---\n# alpha\n",
    );
    let (lib, _) = load(&root, &cache);
    assert_eq!(unknown(&body_check(&lib)), 0);
}

/// A judgement read straight out of the kept bytes (`codec::rule_findings_for`) is the one the
/// whole list decoded (`codec::rule_findings_from`) finds first for its key, and bytes it reads
/// as malformed are the bytes the whole decoding refuses: every key, every cut, every byte
/// changed.
#[test]
fn one_judgement_read_from_the_bytes_is_the_one_the_whole_list_finds() {
    use super::codec::{rule_findings, rule_findings_for, rule_findings_from};
    use crate::core::findings::diagnostic::Severity;
    let d = |rule, severity, message: &str, at: Option<u32>| Diagnostic {
        rule,
        severity,
        message: message.to_string(),
        path: at.map(|n| PathBuf::from(format!("/r/s{n}/SKILL.md"))),
        line: at,
        column: at.map(|n| n + 1),
    };
    let lists: Vec<Vec<crate::core::skill::RuleFindings>> = vec![
        vec![],
        vec![([1; 32], vec![])],
        vec![
            (
                [1; 32],
                vec![
                    d(RuleId::UnknownField, Severity::Warning, "colour", Some(3)),
                    d(RuleId::NameDirectory, Severity::Error, "é name", None),
                ],
            ),
            (
                [2; 32],
                vec![d(RuleId::FieldType, Severity::Info, "", Some(1))],
            ),
            (
                [1; 32],
                vec![d(RuleId::FieldValue, Severity::Error, "later", None)],
            ),
        ],
    ];
    let keys = [[1_u8; 32], [2; 32], [3; 32]];
    let want = |bytes: &[u8], key: &[u8; 32]| {
        rule_findings_from(bytes).map(|all| {
            all.iter()
                .find(|(k, _)| k == key)
                .map(|(_, found)| found.clone())
        })
    };
    let mut checked = 0;
    for list in &lists {
        let mut w = W(Vec::new());
        rule_findings(&mut w, list);
        let bytes = w.0;
        let mut variants = vec![bytes.clone()];
        variants.extend((0..bytes.len()).map(|n| bytes[..n].to_vec()));
        for i in 0..bytes.len() {
            for b in [0_u8, 1, 2, 3, 0x7f, 0xff, b'z'] {
                let mut v = bytes.clone();
                v[i] = b;
                variants.push(v);
            }
        }
        for v in &variants {
            for key in &keys {
                assert_eq!(
                    rule_findings_for(v, key),
                    want(v, key).flatten(),
                    "{v:?} {key:?}"
                );
                checked += 1;
            }
        }
        for key in &keys {
            let found = rule_findings_for(&bytes, key);
            assert_eq!(found.is_some(), list.iter().any(|(k, _)| k == key));
        }
    }
    assert!(checked > 1000);
}

#[test]
fn the_template_findings_are_kept_while_names_and_descriptions_stay() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    for name in ["strava", "xero", "asana", "jira", "slack"] {
        write(
            &root.join(format!("{name}/SKILL.md")),
            &format!(
                "---\nname: {name}\ndescription: Automate {name} tasks via the {name} API. Use when {name} is asked for.\n---\n# {name}\n"
            ),
        );
    }
    backdate(&root);
    let templates = |found: &[Vec<Diagnostic>]| {
        found
            .iter()
            .flatten()
            .filter(|d| d.rule == RuleId::DescriptionTemplate)
            .count()
    };
    let (lib, _) = load(&root, &cache);
    let key = rules::template_key(&lib).unwrap();
    assert!(lib.remembered(&key).is_none());
    let first = body_check(&lib);
    assert_eq!(templates(&first), 5);
    assert!(lib.save_index().is_none());
    let (lib, _) = load(&root, &cache);
    let kept = lib.remembered(&key).unwrap();
    assert_eq!(kept.len(), 5);
    assert_eq!(body_check(&lib), first);
    // What the index remembers is what the check says.
    lib.remember(key, &kept[..1]);
    assert_eq!(templates(&body_check(&lib)), 1);
    // Another description: another key, so the rule runs again.
    write(
        &root.join("slack/SKILL.md"),
        "---\nname: slack\ndescription: Posts to channels. Use when a message must go out.\n---\n# slack\n",
    );
    let (lib, _) = load(&root, &cache);
    assert_ne!(rules::template_key(&lib), Some(key));
    assert_eq!(templates(&body_check(&lib)), 4);
}

#[test]
fn a_corrupt_truncated_or_foreign_index_is_discarded() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let (want, _) = load(&root, &cache);
    let path = IndexStore::in_dir(&cache)
        .path_for(std::slice::from_ref(&root), DEPTH, ENTRIES)
        .unwrap();
    let good = std::fs::read(&path).unwrap();
    assert!(decode(&good).is_some());
    // Read one record per batch, the index decodes to the same records.
    let whole = decode(&good).unwrap();
    let batched = decode_batched(&good[..], good.len() as u64, 1).unwrap();
    let mut a: Vec<_> = whole
        .skills
        .iter()
        .map(|(k, v)| (k.clone(), format!("{v:?}")))
        .collect();
    let mut b: Vec<_> = batched
        .skills
        .iter()
        .map(|(k, v)| (k.clone(), format!("{v:?}")))
        .collect();
    a.sort();
    b.sort();
    assert_eq!(a.len(), 3);
    assert_eq!(a, b);
    for cut in [good.len() / 2, good.len() - 5] {
        assert!(decode_batched(&good[..cut], cut as u64, 1).is_none());
    }
    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    // Another version with a correct checksum: foreign all the same.
    let mut other_version = good[..good.len() - 4].to_vec();
    other_version[8..12].copy_from_slice(&(VERSION + 1).to_le_bytes());
    let sum = crc32fast::hash(&other_version).to_le_bytes();
    other_version.extend_from_slice(&sum);
    for bad in [
        flipped,
        good[..good.len() - 1].to_vec(),
        good[..good.len() / 3].to_vec(),
        other_version,
        b"SKSCLIX\0 not really".to_vec(),
        Vec::new(),
    ] {
        std::fs::write(&path, &bad).unwrap();
        assert!(decode(&bad).is_none());
        let (lib, stats) = load(&root, &cache);
        assert_eq!((stats.roots_walked, stats.skills_parsed), (1, 3));
        assert!(lib.notes.is_empty());
        assert_eq!(summary(&lib), summary(&want));
        // And it was replaced by a good one.
        assert_eq!(load(&root, &cache).1.skills_parsed, 0);
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_at_the_index_path_is_a_note_not_a_hang() {
    let t = tempfile::tempdir().unwrap();
    let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
    library(&root);
    let path = IndexStore::in_dir(&cache)
        .path_for(std::slice::from_ref(&root), DEPTH, ENTRIES)
        .unwrap();
    std::fs::create_dir_all(&cache).unwrap();
    nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let (r, c) = (root.clone(), cache.clone());
    std::thread::spawn(move || {
        let _ = tx.send(load(&r, &c));
    });
    let (lib, _) = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("loading hung on a FIFO at the index path");
    assert_eq!(lib.len(), 3);
    assert_eq!(lib.notes.len(), 1, "{:?}", lib.notes);
    assert!(
        lib.notes[0].contains("not a regular file"),
        "{:?}",
        lib.notes
    );
    // The FIFO is left alone, not written over.
    assert!(
        std::fs::symlink_metadata(&path)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    // A folder in its place is said to be one too.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    let (lib, _) = load(&root, &cache);
    assert!(
        lib.notes[0].contains("not a regular file"),
        "{:?}",
        lib.notes
    );
}

#[test]
fn resources_past_the_walks_depth_and_the_walks_skips() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("lib");
    write(
        &root.join("s/SKILL.md"),
        "---\nname: s\ndescription: d\n---\n",
    );
    write(&root.join("s/a/b/c/deep.md"), "deep\n");
    write(&root.join("s/.hidden/x.md"), "x\n");
    write(&root.join("s/node_modules/m/i.js"), "x\n");
    write(
        &root.join("s/inner/SKILL.md"),
        "---\nname: inner\ndescription: d\n---\n",
    );
    write(&root.join("s/inner/ref.md"), "r\n");
    write(&root.join("s/skill.md"), "---\nname: s2\n---\n");
    // Skills one level down: the walker stops two levels below the root.
    let lib = Library::load(
        vec![Root::new(&root, Agent::Path, Scope::Path)],
        &ScanOptions {
            max_depth: 1,
            ..ScanOptions::default()
        },
    );
    let s = &lib.skills[lib.find("s").unwrap()];
    let rels: Vec<&str> = s.resources.iter().map(|r| r.rel.as_str()).collect();
    assert_eq!(rels, vec!["a/b/c/deep.md", "skill.md"]);
    let inner = lib.find("inner").map(|i| &lib.skills[i]);
    assert!(inner.is_none(), "too deep for the walk");
    // With room for the nested skill, its files are its own.
    let lib = Library::load(
        vec![Root::new(&root, Agent::Path, Scope::Path)],
        &ScanOptions::default(),
    );
    let s = &lib.skills[lib.find("s").unwrap()];
    let rels: Vec<&str> = s.resources.iter().map(|r| r.rel.as_str()).collect();
    assert_eq!(rels, vec!["a/b/c/deep.md", "skill.md"]);
    let inner = &lib.skills[lib.find("inner").unwrap()];
    let rels: Vec<&str> = inner.resources.iter().map(|r| r.rel.as_str()).collect();
    assert_eq!(rels, vec!["ref.md"]);
}

#[test]
fn one_index_file_per_set_of_roots_and_only_a_few_kept() {
    let t = tempfile::tempdir().unwrap();
    let cache = t.path().join("cache");
    let mut paths = Vec::new();
    for i in 0..(KEEP_FILES + 3) {
        let root = t.path().join(format!("lib{i}"));
        library(&root);
        load(&root, &cache);
        paths.push(
            IndexStore::in_dir(&cache)
                .path_for(&[root], DEPTH, ENTRIES)
                .unwrap(),
        );
    }
    let mut unique = paths.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), paths.len());
    let kept = std::fs::read_dir(&cache).unwrap().count();
    assert_eq!(kept, KEEP_FILES);
    assert!(paths.last().unwrap().exists());
}

#[test]
fn frontmatters_read_back_type_as_parsed() {
    let texts = [
        "---\nname: a\ndescription: d\ntype: executable\nentry: run.py\ntriggers: [x, y]\nauto_load: \"false\"\ndisable-model-invocation: true\n---\n",
        "---\nname: 12\ndescription: yes\ndependencies:\n  - b\n  - c\nmetadata: {k: [1, 2.5, null]}\n---\n",
        "---\nname: a\ndescription: a: b\n---\n",
        "---\nname: x\n",
        "no frontmatter",
        "---\nname: a\ndescription: d\nauto_load: no # off\n---\n",
        "---\nname: a\ndescription: d\nauto_load: 'yes'\n---\n",
        "---\nname: a\ndescription: 'ends in a blank line\n\n  '\n---\n",
        "---\nname: a\ndescription: >-\n  folded\n---\n",
    ];
    for t in texts {
        let p = frontmatter::parse(t.as_bytes(), true);
        let back = frontmatter::from_fields(
            p.frontmatter.parsed,
            p.frontmatter.fields.clone(),
            p.frontmatter.flow_style_lines.clone(),
            p.frontmatter.description_style,
        );
        assert_eq!(format!("{back:?}"), format!("{:?}", p.frontmatter), "{t}");
        // And through the file's encoding of values.
        let mut w = W(Vec::new());
        w.frontmatter(&p.frontmatter);
        let mut r = R(&w.0);
        let read = r.frontmatter().unwrap();
        assert!(r.0.is_empty());
        assert_eq!(format!("{read:?}"), format!("{:?}", p.frontmatter), "{t}");
    }
}

#[test]
fn a_remembered_walks_folders_read_from_the_index_bytes_are_the_folders_written() {
    use crate::core::files::fsx::Stamp;
    let stamp = |i: u64| Stamp {
        len: 4096 + i,
        mtime_ns: 1_000_000_000 * u128::from(i + 1),
        ctime_ns: 1_000_000_007 * u128::from(i + 1),
        ino: 77 + i,
        dev: 3,
    };
    let mut names = vec!["/lib".to_string(), "/lib/a".into(), "/lib/a b/ü".into()];
    names.extend((0..40).map(|i| format!("/lib/x/{i}")));
    let dirs: Vec<(PathBuf, Stamp)> = names
        .iter()
        .zip(0..)
        .map(|(n, i)| (PathBuf::from(n), stamp(i)))
        .collect();
    let walk = |path: &str, dirs: Vec<(PathBuf, Stamp)>| WalkRecord {
        path: PathBuf::from(path),
        max_depth: 8,
        dirs,
        found: vec![("/lib/a".into(), "/lib/a/SKILL.md".into())],
        links: vec!["/lib/x/3".into()],
        marks: vec![("/lib/skills-lock.json".into(), true)],
        ..WalkRecord::default()
    };
    let walks = [walk("/lib", dirs.clone()), walk("/other", Vec::new())];
    let taken = u128::MAX / 2;
    let encode = |walks: &[WalkRecord]| {
        let mut out = Vec::new();
        super::format::encode_to(
            &mut out,
            walks,
            std::iter::empty::<&crate::core::skill::Skill>(),
            &[],
            &[],
            taken,
        )
        .unwrap();
        out
    };
    let bytes = encode(&walks);
    let read = decode(&bytes).unwrap();
    assert_eq!(read.walks.len(), 2);
    // Left in the file's bytes, not decoded path by path...
    assert!(read.walks.iter().all(|w| w.dirs.is_empty()));
    // ...and read out, they are the folders and stamps written (the slow way: a Vec of them).
    let folders = read.walks[0].folders().unwrap();
    let got: Vec<(PathBuf, Stamp)> = folders.iter().map(|(d, s)| (d.to_path_buf(), *s)).collect();
    assert_eq!(got, dirs);
    assert!(read.walks[1].folders().unwrap().is_empty());
    assert_eq!(read.walks[0].found, walks[0].found);
    // A record written again from what was read (not copied from a file) is the same bytes.
    assert_eq!(encode(&read.walks), bytes);
    // Once let go of, they are gone with the rest.
    let mut stored = read.walks[0].clone();
    stored.stored = Some(Stored {
        source: std::sync::Arc::new(Source {
            file: std::fs::File::open(std::env::current_exe().unwrap()).unwrap(),
            stamp: Stamp::default(),
        }),
        offset: 0,
        len: 0,
    });
    stored.forget_if_stored();
    assert!(stored.folders().unwrap().is_empty());
}
