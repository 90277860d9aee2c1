//! `add`, `update`, `remove`, `restore`, `trash`, `move`: from local git repositories and
//! archives only, in a fake home; nothing from a source runs and nothing is written outside the
//! agent's folder and skillscope's own folders.

use crate::common::write;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fake machine: a home, skillscope's folders, and a place for sources.
pub(crate) struct World {
    _t: tempfile::TempDir,
    pub(crate) root: PathBuf,
}

impl World {
    pub(crate) fn new() -> World {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("home")).unwrap();
        World { _t: t, root }
    }

    pub(crate) fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    pub(crate) fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, |_| {})
    }

    /// [`World::run`] with the command changed first (another folder, more environment).
    pub(crate) fn run_with(&self, args: &[&str], change: impl FnOnce(&mut Command)) -> Output {
        let mut cmd = self.command(args);
        change(&mut cmd);
        let out = cmd.output().unwrap();
        eprintln!(
            "skillscope {args:?}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// The command `skillscope ARGS` in this world, not started.
    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut cmd = crate::common::bin();
        cmd.args(args)
            .env("HOME", self.home())
            .env(
                "SKILLSCOPE_CONFIG_DIR",
                self.home().join(".config/skillscope"),
            )
            .env(
                "SKILLSCOPE_CACHE_DIR",
                self.home().join(".cache/skillscope"),
            )
            .env(
                "SKILLSCOPE_DATA_DIR",
                self.home().join(".local/share/skillscope"),
            )
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.root.join("gitconfig"))
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("XDG_CACHE_HOME")
            .current_dir(self.home())
            .stdin(std::process::Stdio::null());
        cmd
    }

    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "skillscope {args:?} failed");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub(crate) fn skills(&self) -> PathBuf {
        self.home().join(".claude/skills")
    }
}

pub(crate) fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

pub(crate) fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nSteps.\n")
}

/// A repository with three skills: one whose script would leave `marker` if anything ran it,
/// and a link to /etc/passwd; a hook that would leave `marker` too.
pub(crate) fn hostile_repo(w: &World, marker: &Path) -> PathBuf {
    let repo = w.root.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    write(
        &repo.join("skills/pdf-tools/SKILL.md"),
        &skill_md(
            "pdf-tools",
            "Extract text from PDF files. Use when the user mentions PDFs.",
        ),
    );
    let script = repo.join("skills/pdf-tools/scripts/setup.sh");
    write(&script, &format!("#!/bin/sh\ntouch {}\n", marker.display()));
    crate::common::set_mode(&script, 0o755);
    crate::common::symlink("/etc/passwd", repo.join("skills/pdf-tools/passwd")).unwrap();
    // Inside the repository, outside the skill: left out too.
    crate::common::symlink("../weather/SKILL.md", repo.join("skills/pdf-tools/sibling")).unwrap();
    crate::common::symlink("SKILL.md", repo.join("skills/pdf-tools/same")).unwrap();
    write(
        &repo.join("skills/team-notes/SKILL.md"),
        &skill_md(
            "team-notes",
            "Write meeting notes in the team format when asked to summarise a meeting.",
        ),
    );
    write(
        &repo.join("skills/weather/SKILL.md"),
        &skill_md(
            "weather",
            "Get the weather forecast for a city when the user asks about weather.",
        ),
    );
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "skills"]);
    // A hook in the repository, and one in the user's git settings: neither may run.
    let hook = format!("#!/bin/sh\ntouch {}\n", marker.display());
    for dir in [repo.join(".git/hooks"), w.root.join("user-hooks")] {
        for name in ["post-checkout", "reference-transaction", "post-merge"] {
            write(&dir.join(name), &hook);
            crate::common::set_mode(dir.join(name), 0o755);
        }
    }
    write(
        &w.root.join("gitconfig"),
        &format!(
            "[core]\n\thooksPath = {}\n",
            w.root.join("user-hooks").display()
        ),
    );
    repo
}

/// Every file under `dir` with its bytes, mode and link target: two equal snapshots are the
/// same tree byte for byte.
pub(crate) fn snapshot(dir: &Path) -> BTreeMap<String, (u32, Vec<u8>)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            let content = if m.file_type().is_symlink() {
                std::fs::read_link(&p)
                    .unwrap()
                    .display()
                    .to_string()
                    .into_bytes()
            } else if m.is_dir() {
                stack.push(p.clone());
                Vec::new()
            } else {
                std::fs::read(&p).unwrap()
            };
            out.insert(rel, (skillscope::core::files::fsx::mode_of(&m), content));
        }
    }
    out
}

/// Every file under `root` (bytes, mode, link target) but those in or above the folders
/// skillscope may write to.
fn outside(root: &Path, allowed: &[PathBuf]) -> BTreeMap<String, (u32, Vec<u8>)> {
    snapshot(root)
        .into_iter()
        .filter(|(k, _)| {
            let p = root.join(k);
            !allowed
                .iter()
                .any(|a| p.starts_with(a) || a.starts_with(&p))
        })
        .collect()
}

/// A repository keeping its skills in the folders agents read a project's skills from (GitHub
/// Copilot CLI's `.github/skills`, Cline's `.clinerules/skills` and `.cline/skills`, Qwen Code's
/// `.qwen/skills`, beside Claude Code's `.claude/skills`), nested as deep in each as a collection
/// nests them (seven levels below the folder, the depth a scan reaches from a root): `add` looks
/// in every agent's folder as a root of its own, so it finds every one of them.
#[test]
fn add_finds_the_skills_a_repository_keeps_in_any_agents_project_folder() {
    let w = World::new();
    let repo = w.root.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    let places = [
        (".claude/skills", "claude-kept"),
        (".github/skills", "github-kept"),
        (".clinerules/skills", "clinerules-kept"),
        (".cline/skills", "cline-kept"),
        (".qwen/skills", "qwen-kept"),
    ];
    for (folder, name) in places {
        write(
            &repo
                .join(folder)
                .join("group/a/b/c/d/e")
                .join(name)
                .join("SKILL.md"),
            &skill_md(
                name,
                "A skill kept in an agent's project folder, for tests.",
            ),
        );
    }
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "skills"]);
    let url = format!("file://{}", repo.display());
    let out = w.ok(&["add", &url, "--yes"]);
    for (folder, name) in places {
        assert!(
            w.skills().join(name).join("SKILL.md").is_file(),
            "the skill in {folder} was not added: {out}"
        );
    }
}

#[test]
fn add_from_a_file_url_runs_nothing_and_records_where_each_skill_came_from() {
    let w = World::new();
    let marker = w.root.join("MARKER");
    let repo = hostile_repo(&w, &marker);
    let url = format!("file://{}", repo.display());
    let allowed = [
        w.skills(),
        w.home().join(".local/share/skillscope"),
        w.home().join(".cache/skillscope"),
        w.home().join(".config/skillscope"),
    ];
    let before = outside(&w.root, &allowed);
    let preview = w.ok(&["add", &url, "--dry-run"]);
    assert!(
        preview.contains("pdf-tools") && preview.contains("team-notes"),
        "{preview}"
    );
    assert!(
        preview.contains("scripts/setup.sh"),
        "the script is shown: {preview}"
    );
    assert!(preview.contains("tokens per turn"), "{preview}");
    assert!(!w.skills().exists(), "a dry run writes nothing");
    let out = w.ok(&["add", &url, "--yes"]);
    assert!(out.contains("added ~/.claude/skills/pdf-tools"), "{out}");
    assert!(!marker.exists(), "something from the source ran");
    for s in ["pdf-tools", "team-notes", "weather"] {
        assert!(w.skills().join(s).join("SKILL.md").is_file(), "{s}");
    }
    assert!(
        std::fs::symlink_metadata(w.skills().join("pdf-tools/passwd")).is_err(),
        "the link to /etc/passwd is left out"
    );
    assert!(
        std::fs::symlink_metadata(w.skills().join("pdf-tools/sibling")).is_err(),
        "a link to another skill is left out"
    );
    assert_eq!(
        std::fs::read_link(w.skills().join("pdf-tools/same")).unwrap(),
        PathBuf::from("SKILL.md"),
        "a link inside the skill stays"
    );
    // Run bits are Unix's.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(w.skills().join("pdf-tools/scripts/setup.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111, "the script keeps its run bit");
    }
    // Where each came from, for update and for people.
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(w.skills().join("skills.lock")).unwrap()).unwrap();
    let e = &lock["skills"]["pdf-tools"];
    assert_eq!(e["source"]["location"], url.as_str());
    assert_eq!(e["subfolder"], "skills/pdf-tools");
    assert_eq!(e["commit"].as_str().unwrap().len(), 40);
    let list = crate::common::json(&w.run(&["list", "--json"]));
    let pdf = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "pdf-tools")
        .unwrap();
    assert_eq!(pdf["source"]["source"]["location"], url.as_str());
    // Nothing was written outside the agent's folder and skillscope's own.
    assert_eq!(
        outside(&w.root, &allowed),
        before,
        "a file outside the allowed folders changed"
    );
    // The clone and staging folders are gone.
    let tmp = w.home().join(".local/share/skillscope/tmp");
    assert_eq!(
        std::fs::read_dir(tmp).map_or(0, std::iter::Iterator::count),
        0
    );
}

#[test]
fn a_name_clash_is_refused_unless_replace_and_the_replaced_one_goes_to_the_trash() {
    let w = World::new();
    let repo = hostile_repo(&w, &w.root.join("MARKER"));
    let url = format!("file://{}", repo.display());
    write(
        &w.skills().join("weather/SKILL.md"),
        &skill_md(
            "weather",
            "My own weather skill, used when the user asks about the weather.",
        ),
    );
    let out = w.run(&["add", &url, "--yes", "--pick", "weather"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("already installed"));
    assert!(
        std::fs::read_to_string(w.skills().join("weather/SKILL.md"))
            .unwrap()
            .contains("My own")
    );
    w.ok(&["add", &url, "--yes", "--pick", "weather", "--replace"]);
    assert!(
        !std::fs::read_to_string(w.skills().join("weather/SKILL.md"))
            .unwrap()
            .contains("My own")
    );
    assert!(
        !w.skills().join("pdf-tools").exists(),
        "--pick adds only what it names"
    );
    let trash = w.ok(&["trash"]);
    assert!(trash.contains("replaced by add"), "{trash}");
}

#[test]
fn archives_with_entries_that_climb_out_are_unpacked_without_them() {
    let w = World::new();
    // A .tar.gz with `../`, an absolute path, a FIFO, a device and an outward link.
    let tgz = w.root.join("skills.tar.gz");
    {
        let gz = flate2::write::GzEncoder::new(
            std::fs::File::create(&tgz).unwrap(),
            flate2::Compression::default(),
        );
        let mut b = tar::Builder::new(gz);
        let mut add = |name: &[u8], kind: tar::EntryType, data: &[u8], link: Option<&str>| {
            let mut h = tar::Header::new_gnu();
            h.as_old_mut().name[..name.len()].copy_from_slice(name);
            h.set_entry_type(kind);
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            if let Some(l) = link {
                h.set_link_name(l).unwrap();
            }
            h.set_cksum();
            b.append(&h, data).unwrap();
        };
        let md = skill_md(
            "good",
            "A good skill, used when the user asks for good things.",
        );
        add(
            b"pack/good/SKILL.md",
            tar::EntryType::Regular,
            md.as_bytes(),
            None,
        );
        add(b"../../escaped.txt", tar::EntryType::Regular, b"x", None);
        add(
            b"pack/../../escaped2.txt",
            tar::EntryType::Regular,
            b"x",
            None,
        );
        add(
            b"/tmp/skillscope-absolute-entry",
            tar::EntryType::Regular,
            b"x",
            None,
        );
        add(b"pack/good/fifo", tar::EntryType::Fifo, b"", None);
        add(b"pack/good/tty", tar::EntryType::Char, b"", None);
        add(
            b"pack/good/passwd",
            tar::EntryType::Symlink,
            b"",
            Some("/etc/passwd"),
        );
        b.into_inner().unwrap().finish().unwrap();
    }
    let out = w.run(&["add", tgz.to_str().unwrap(), "--yes"]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stdout);
    assert!(
        err.contains("climbs out")
            && err.contains("absolute")
            && err.contains("FIFO")
            && err.contains("device"),
        "{err}"
    );
    let good = w.skills().join("good");
    assert!(good.join("SKILL.md").is_file());
    for left in ["fifo", "tty", "passwd"] {
        assert!(
            std::fs::symlink_metadata(good.join(left)).is_err(),
            "{left}"
        );
    }
    assert!(
        !w.root.join("escaped.txt").exists()
            && !w.root.parent().unwrap().join("escaped.txt").exists()
    );
    assert!(!Path::new("/tmp/skillscope-absolute-entry").exists());
    // A zip with a `../` entry.
    let zip_path = w.root.join("skills.zip");
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
        let o = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        z.start_file("zipped/SKILL.md", o).unwrap();
        std::io::Write::write_all(
            &mut z,
            skill_md(
                "zipped",
                "A zipped skill, used when the user asks for zipped things.",
            )
            .as_bytes(),
        )
        .unwrap();
        z.start_file("../zip-escaped.txt", o).unwrap();
        std::io::Write::write_all(&mut z, b"x").unwrap();
        z.finish().unwrap();
    }
    let out = w.ok(&["add", zip_path.to_str().unwrap(), "--yes"]);
    assert!(out.contains("climbs out"), "{out}");
    assert!(w.skills().join("zipped/SKILL.md").is_file());
    assert!(!w.root.join("zip-escaped.txt").exists());
    assert!(
        !w.home()
            .join(".local/share/skillscope/zip-escaped.txt")
            .exists()
    );
}

#[test]
fn update_takes_an_upstream_commit_but_never_a_local_edit_without_replace() {
    let w = World::new();
    let repo = hostile_repo(&w, &w.root.join("MARKER"));
    let url = format!("file://{}", repo.display());
    w.ok(&["add", &url, "--yes"]);
    let up = w.ok(&["update"]);
    assert!(up.contains("up to date"), "{up}");
    // Upstream changes two skills; one of them was edited here.
    write(
        &repo.join("skills/team-notes/SKILL.md"),
        &skill_md(
            "team-notes",
            "Write meeting notes in the team format, with decisions and owners, when asked to summarise a meeting.",
        ),
    );
    write(
        &repo.join("skills/weather/SKILL.md"),
        &skill_md(
            "weather",
            "Get the weather forecast for any city when the user asks about weather or rain.",
        ),
    );
    git(&repo, &["commit", "-qam", "two"]);
    let local = w.skills().join("weather/SKILL.md");
    let mut edited = std::fs::read_to_string(&local).unwrap();
    edited.push_str("\nMy own note.\n");
    std::fs::write(&local, &edited).unwrap();
    let dry = w.ok(&["update", "--dry-run"]);
    assert!(
        dry.contains("team-notes") && dry.contains("tokens: L1"),
        "{dry}"
    );
    assert!(dry.contains("edited here"), "{dry}");
    let out = w.run(&["update", "--yes"]);
    assert_eq!(out.status.code(), Some(0));
    let notes = std::fs::read_to_string(w.skills().join("team-notes/SKILL.md")).unwrap();
    assert!(
        notes.contains("decisions and owners"),
        "the upstream commit landed"
    );
    assert_eq!(
        std::fs::read_to_string(&local).unwrap(),
        edited,
        "the local edit is kept"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--replace"), "{stderr}");
    w.ok(&["update", "weather", "--yes", "--replace"]);
    assert!(std::fs::read_to_string(&local).unwrap().contains("or rain"));
    assert!(w.ok(&["trash"]).contains("replaced by update"));
}

/// A skill added to the shared `.agents/skills` folder is priced as the first released client
/// that reads it lists it (Codex), not by the design document's agent that lists nothing.
#[test]
fn a_skill_of_the_shared_folder_is_priced_by_a_client_that_reads_it() {
    let w = World::new();
    let repo = hostile_repo(&w, &w.root.join("MARKER"));
    let url = format!("file://{}", repo.display());
    let out = w.run(&[
        "add",
        &url,
        "--agent",
        "generic",
        "--pick",
        "weather",
        "--json",
        "--dry-run",
    ]);
    assert!(out.status.success());
    let preview = crate::common::json(&out);
    assert_eq!(preview["preview"]["agent"], "codex", "{preview:#}");
    assert_eq!(preview["preview"]["profile"], "codex", "{preview:#}");
    assert!(
        preview["preview"]["listing"]["per_turn"]["after"]
            .as_u64()
            .unwrap()
            > 0,
        "{preview:#}"
    );
    w.ok(&[
        "add", &url, "--agent", "generic", "--pick", "weather", "--yes",
    ]);
    assert!(w.home().join(".agents/skills/weather/SKILL.md").is_file());
    write(
        &repo.join("skills/weather/SKILL.md"),
        &skill_md(
            "weather",
            "Get the weather forecast for any city when the user asks about weather or rain.",
        ),
    );
    git(&repo, &["commit", "-qam", "rain"]);
    let rows = crate::common::json(&w.run(&["update", "--dry-run", "--json"]));
    let row = &rows[0];
    assert_eq!(row["listing"]["format"], "codex", "{rows:#}");
    assert!(
        row["listing"]["per_turn"]["before"].as_u64().unwrap() > 0
            && row["listing"]["per_turn"]["after"].as_u64().unwrap() > 0,
        "{rows:#}"
    );
}

/// `add --agent codex` prices the listing as Codex has it: a skill Codex's own settings switch
/// off (`enabled = false`) is not in the listing before or after, as `budget --agent codex`
/// has it.
#[test]
fn add_prices_the_listing_with_the_agents_own_switches() {
    let before = |with_skill: bool, off: bool| {
        let w = World::new();
        let repo = hostile_repo(&w, &w.root.join("MARKER"));
        let url = format!("file://{}", repo.display());
        std::fs::create_dir_all(w.home().join(".codex/skills")).unwrap();
        if with_skill {
            write(
                &w.home().join(".codex/skills/writing-plans/SKILL.md"),
                &skill_md(
                    "writing-plans",
                    "Write implementation plans with steps and risks when the user asks for a plan.",
                ),
            );
        }
        if off {
            write(
                &w.home().join(".codex/config.toml"),
                "[[skills.config]]\nname = \"writing-plans\"\nenabled = false\n",
            );
        }
        let out = w.run(&[
            "add",
            &url,
            "--agent",
            "codex",
            "--pick",
            "weather",
            "--json",
            "--dry-run",
        ]);
        assert!(out.status.success());
        let v = crate::common::json(&out);
        v["preview"]["listing"]["per_turn"]["before"]
            .as_u64()
            .unwrap_or_else(|| panic!("{v:#}"))
    };
    let on = before(true, false);
    let off = before(true, true);
    let none = before(false, false);
    assert!(off < on, "switched off: {off}, on: {on}");
    assert_eq!(
        off, none,
        "a skill Codex has off costs nothing in its listing"
    );
}

/// A move between two folders of one agent leaves its listing's count as it was: the skill
/// leaves one place as it lands in the other; a copy adds one.
#[test]
fn a_move_within_one_agent_keeps_its_count_and_a_copy_adds_one() {
    let w = World::new();
    let repo = hostile_repo(&w, &w.root.join("MARKER"));
    let url = format!("file://{}", repo.display());
    let proj = w.root.join("proj");
    std::fs::create_dir_all(proj.join(".git")).unwrap();
    let in_proj = |args: &[&str]| {
        let p = proj.clone();
        w.run_with(args, move |c| {
            c.current_dir(p);
        })
    };
    let out = in_proj(&[
        "add",
        &url,
        "--scope",
        "project",
        "--pick",
        "team-notes",
        "--pick",
        "weather",
        "--yes",
    ]);
    assert!(out.status.success());
    let count = |verb: &str| {
        let out = in_proj(&[
            verb,
            "team-notes",
            "--to",
            "claude-code:user",
            "--dry-run",
            "--json",
        ]);
        assert!(out.status.success());
        let v = crate::common::json(&out);
        let skills = &v["preview"]["listing"]["skills"];
        (
            skills["before"].as_u64().unwrap(),
            skills["after"].as_u64().unwrap(),
        )
    };
    let (before, after) = count("move");
    assert!(before >= 2, "{before}");
    assert_eq!(after, before, "a move within one agent");
    let (before, after) = count("copy");
    assert_eq!(after, before + 1, "a copy");
}

#[test]
fn remove_and_restore_byte_for_byte_with_modes_and_settings_cleaned_on_request() {
    let w = World::new();
    let dir = w.skills().join("pdf");
    write(
        &dir.join("SKILL.md"),
        &skill_md("pdf", "Work with PDF files when the user mentions PDFs."),
    );
    write(&dir.join("scripts/run.sh"), "#!/bin/sh\necho\n");
    crate::common::set_mode(dir.join("scripts/run.sh"), 0o750);
    std::fs::write(dir.join("data.bin"), [0u8, 255, 10, 13]).unwrap();
    crate::common::symlink("scripts/run.sh", dir.join("run")).unwrap();
    write(
        &w.home().join(".claude/settings.json"),
        "{\n  \"skillOverrides\": {\"pdf\": \"off\"},\n  \"theme\": \"dark\"\n}\n",
    );
    let before = snapshot(&dir);
    let out = w.ok(&["remove", "pdf", "--yes"]);
    assert!(
        out.contains("skillOverrides.pdf") && out.contains("--clean-settings"),
        "{out}"
    );
    assert!(!dir.exists());
    let settings = std::fs::read_to_string(w.home().join(".claude/settings.json")).unwrap();
    assert!(
        settings.contains("\"pdf\""),
        "settings are not touched without consent"
    );
    assert!(w.ok(&["trash"]).contains("pdf"));
    w.ok(&["restore", "pdf"]);
    assert_eq!(snapshot(&dir), before, "restored byte for byte, modes too");
    w.ok(&["remove", "pdf", "--yes", "--clean-settings"]);
    let settings = std::fs::read_to_string(w.home().join(".claude/settings.json")).unwrap();
    assert!(
        !settings.contains("\"pdf\"") && settings.contains("dark"),
        "{settings}"
    );
    w.ok(&["trash", "--empty", "--yes"]);
    assert!(w.ok(&["trash"]).contains("empty"));
    assert!(!w.run(&["restore", "pdf"]).status.success());
}

#[test]
fn move_between_agents_keeps_the_source_and_the_bytes() {
    let w = World::new();
    let repo = hostile_repo(&w, &w.root.join("MARKER"));
    let url = format!("file://{}", repo.display());
    w.ok(&["add", &url, "--yes", "--pick", "team-notes"]);
    let from = w.skills().join("team-notes");
    let before = snapshot(&from);
    let out = w.ok(&["move", "team-notes", "--to", "codex", "--yes"]);
    assert!(
        out.contains("listing (codex)"),
        "the preview is for the target: {out}"
    );
    let to = w.home().join(".codex/skills/team-notes");
    assert!(!from.exists());
    assert_eq!(snapshot(&to), before);
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(w.home().join(".codex/skills/skills.lock")).unwrap())
            .unwrap();
    assert_eq!(
        lock["skills"]["team-notes"]["source"]["location"],
        url.as_str()
    );
    // A copy leaves the original where it is.
    w.ok(&["copy", "team-notes", "--to", "opencode", "--yes"]);
    assert!(to.join("SKILL.md").is_file());
    assert!(
        w.home()
            .join(".config/opencode/skill/team-notes/SKILL.md")
            .is_file()
    );
}

/// `add` and `update` quote a finding where `check` puts it: `SKILL.md:LINE:COLUMN`, so an
/// invalid frontmatter can be found without running `check` on the staged copy.
#[test]
fn add_and_update_give_a_yaml_error_its_line_and_column_as_check_does() {
    let w = World::new();
    let repo = w.root.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    let broken =
        "---\nname: notes\ndescription: Reads: notes here. Use when the user asks.\n---\n# notes\n";
    write(&repo.join("skills/notes/SKILL.md"), broken);
    write(
        &repo.join("skills/weather/SKILL.md"),
        &skill_md(
            "weather",
            "Get the weather forecast for any city when the user asks about weather.",
        ),
    );
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "one"]);

    let check = w.run(&["check", repo.join("skills/notes").to_str().unwrap()]);
    let check = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(
        check.contains("SKILL.md:3:19: error[yaml-invalid]"),
        "{check}"
    );

    let url = format!("file://{}", repo.display());
    let add = w.run(&["add", &url, "--dry-run"]);
    let add = String::from_utf8_lossy(&add.stdout).into_owned();
    assert!(
        add.contains("notes: SKILL.md:3:19: error yaml-invalid: invalid YAML"),
        "{add}"
    );

    // Added whole, then broken upstream: update says where.
    w.ok(&["add", &url, "--yes", "--pick", "weather"]);
    write(
        &repo.join("skills/weather/SKILL.md"),
        "---\nname: weather\ndescription: Weather: rain or sun. Use when the user asks.\n---\n# weather\n",
    );
    git(&repo, &["commit", "-qam", "two"]);
    let up = w.run(&["update", "--dry-run"]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&up.stdout),
        String::from_utf8_lossy(&up.stderr)
    );
    assert!(
        text.contains("SKILL.md:3:21: error yaml-invalid: invalid YAML"),
        "{text}"
    );
}
