//! The manager against hostile input and against a crowd, third round: lock-file keys that
//! leave the skill folder, installs and removals killed half-way, a private trash, parallel
//! replacements, a source added twice, and a git server that never answers.

use crate::common::write;
use crate::manage::{World, git, hostile_repo, skill_md, snapshot};
use std::collections::BTreeMap;
#[cfg(unix)]
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn lock_file(w: &World) -> serde_json::Value {
    let text = std::fs::read_to_string(w.skills().join("skills.lock")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A committed `skills.lock` whose keys climb out of the skill folder: `update` joins no such
/// key to a path, with or without `--replace`, and says which it left alone.
#[test]
fn update_never_joins_a_lock_key_that_leaves_the_skill_folder() {
    let w = World::new();
    let repo = hostile_repo(&w, &w.root.join("MARKER"));
    let url = format!("file://{}", repo.display());
    w.ok(&["add", &url, "--yes"]);
    // What the attacker targets: the repository's `.git` (whose config would then be the
    // source's) and a documentation folder, next to the skills folder's parents.
    let home = w.home();
    write(&home.join(".git/config"), "[core]\n\tbare = false\n");
    write(&home.join("docs/index.md"), "# the project's docs\n");
    let before = (snapshot(&home.join(".git")), snapshot(&home.join("docs")));
    let mut lock = lock_file(&w);
    let weather = lock["skills"]["weather"].clone();
    for key in ["../../.git", "../../docs", "..", ".hidden", "a/b"] {
        lock["skills"][key] = weather.clone();
    }
    std::fs::write(
        w.skills().join("skills.lock"),
        serde_json::to_string_pretty(&lock).unwrap(),
    )
    .unwrap();
    // Upstream changes the skill, so that an update has something to write.
    write(
        &repo.join("skills/weather/SKILL.md"),
        &skill_md(
            "weather",
            "Forecasts for any city when the user asks about rain.",
        ),
    );
    git(&repo, &["commit", "-qam", "upstream"]);
    for args in [
        &["update", "--yes"][..],
        &["update", "--yes", "--replace"][..],
    ] {
        let out = w.run(args);
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(said.contains("not one plain folder name"), "{said}");
        assert!(said.contains("../../.git"), "{said}");
        assert_eq!(
            (snapshot(&home.join(".git")), snapshot(&home.join("docs"))),
            before,
            "{args:?} wrote outside the skill folder"
        );
    }
    // The plain key was updated as usual.
    let now = std::fs::read_to_string(w.skills().join("weather/SKILL.md")).unwrap();
    assert!(now.contains("rain"), "{now}");
}

/// What an install or a removal leaves while it works, or when it is killed: folders of
/// skillscope's own in the skill folder. No command takes one for a skill.
#[test]
fn staging_and_removal_folders_are_never_read_as_skills() {
    let w = World::new();
    write(
        &w.skills().join("real/SKILL.md"),
        &skill_md("real", "Work with real files when the user asks for them."),
    );
    for own in [
        ".skillscope-add-Ab12/half",
        ".skillscope-copy-Cd34/item",
        ".skillscope-gone-old-Ef56",
    ] {
        write(
            &w.skills().join(own).join("SKILL.md"),
            &skill_md(
                "half",
                "A half-copied skill that must never be listed anywhere.",
            ),
        );
    }
    let list = w.ok(&["list", "--json"]);
    let names: Vec<String> = serde_json::from_str::<serde_json::Value>(&list)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["real"], "{list}");
    for args in [
        &["prompt", "--agent", "claude-code"][..],
        &["check"][..],
        &["budget"][..],
    ] {
        let out = w.run(args);
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!said.contains("half"), "{args:?}: {said}");
    }
    // A removal cut short is finished by the next change in that folder.
    w.ok(&["remove", "real", "--yes"]);
    assert!(!w.skills().join(".skillscope-gone-old-Ef56").exists());
}

/// The same device as `a`'s: a move between them is a rename.
#[cfg(unix)]
fn same_device(a: &Path, b: &Path) -> bool {
    std::fs::metadata(a).unwrap().dev() == std::fs::metadata(b).unwrap().dev()
}

/// A remove whose trash is on another file system, killed at many moments: the skill is always
/// either where it was, whole, or gone from its folder and whole in the trash, restorable byte
/// for byte; the trash never lists a half-made entry.
#[cfg(unix)]
#[test]
fn a_remove_across_file_systems_killed_at_any_moment_loses_nothing() {
    let w = World::new();
    let Ok(shm) = tempfile::tempdir_in("/dev/shm") else {
        eprintln!("SKIPPED: no /dev/shm to put the trash on another file system");
        return;
    };
    if same_device(shm.path(), &w.root) {
        eprintln!("SKIPPED: /dev/shm is on the test folder's file system");
        return;
    }
    let dir = w.skills().join("big");
    write(
        &dir.join("SKILL.md"),
        &skill_md("big", "A skill with thousands of files for a slow copy."),
    );
    for i in 0..3000 {
        write(
            &dir.join(format!("references/r{i:04}.md")),
            &"x".repeat(512),
        );
    }
    let original = snapshot(&dir);
    let data = shm.path().join("data");
    let with_data = |c: &mut std::process::Command| {
        c.env("SKILLSCOPE_DATA_DIR", &data);
    };
    // How long a whole removal takes here (and back), so that the kills below land throughout
    // it: while it starts, copies, moves and deletes.
    let started = Instant::now();
    assert!(
        w.run_with(&["remove", "big", "--yes"], with_data)
            .status
            .success()
    );
    let whole = started.elapsed();
    assert!(w.run_with(&["restore", "big"], with_data).status.success());
    assert!(snapshot(&dir) == original, "not restored byte for byte");
    let trash = data.join("trash");
    for step in 1..=12u32 {
        let delay = whole * step / 12;
        let mut child = w.command(&["remove", "big", "--yes"]);
        with_data(&mut child);
        let mut child = child
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let _ = child.kill();
        let _ = child.wait();
        let at = format!("killed after {delay:?} of {whole:?}");
        let listed = w.run_with(&["trash", "--json"], with_data);
        let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
        let listed = listed.as_array().unwrap().clone();
        // Every entry the trash lists holds the whole skill.
        for e in &listed {
            let item = trash.join(e["id"].as_str().unwrap()).join("item");
            assert!(
                snapshot(&item) == original,
                "{at}: a listed entry is partial"
            );
        }
        if dir.exists() {
            assert!(snapshot(&dir) == original, "{at}: the skill is half there");
            if !listed.is_empty() {
                w.run_with(&["trash", "--empty", "--yes"], with_data);
            }
        } else {
            assert_eq!(listed.len(), 1, "{at}: gone, yet not in the trash");
            let out = w.run_with(&["restore", "big"], with_data);
            assert!(out.status.success(), "{at}: restore failed");
            assert!(snapshot(&dir) == original, "{at}: restored differently");
        }
    }
    // Uninterrupted, it completes, and the trash holds the skill.
    let out = w.run_with(&["remove", "big", "--yes"], with_data);
    assert!(out.status.success());
    assert!(!dir.exists());
    let leftovers: Vec<PathBuf> = std::fs::read_dir(w.skills())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".skillscope-")
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    w.run_with(&["restore", "big"], with_data);
    assert!(snapshot(&dir) == original, "not restored byte for byte");
}

/// Removed skills may come from a private folder: the trash is its owner's only.
#[cfg(unix)]
#[test]
fn the_trash_is_private() {
    let w = World::new();
    write(
        &w.skills().join("secret/SKILL.md"),
        &skill_md("secret", "Private notes when the user asks for them."),
    );
    w.ok(&["remove", "secret", "--yes"]);
    let trash = w.home().join(".local/share/skillscope/trash");
    let mode = |p: &Path| std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&trash), 0o700);
    let slots: Vec<PathBuf> = std::fs::read_dir(&trash)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(slots.len(), 1);
    assert_eq!(mode(&slots[0]), 0o700);
    assert_eq!(mode(&slots[0].join("entry.json")), 0o600);
}

/// Twenty processes replacing one skill at once: the skill is there and recorded afterwards,
/// every round; what each replaced is in the trash.
#[test]
fn parallel_replacements_keep_the_skill_and_its_lock_entry() {
    let w = World::new();
    let repo = hostile_repo(&w, &w.root.join("MARKER"));
    let url = format!("file://{}", repo.display());
    w.ok(&["add", &url, "--pick", "weather", "--yes"]);
    for round in 0..3 {
        let children: Vec<std::process::Child> = (0..20)
            .map(|_| {
                w.command(&["add", &url, "--pick", "weather", "--yes", "--replace"])
                    .env("SKILLSCOPE_LOCK_TIMEOUT_MS", "60000")
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let ok = children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap().status.success())
            .filter(|s| *s)
            .count();
        assert_eq!(ok, 20, "round {round}: some replacements failed");
        assert!(
            w.skills().join("weather/SKILL.md").is_file(),
            "round {round}"
        );
        let lock = lock_file(&w);
        assert!(
            lock["skills"]["weather"]["hash"].is_string(),
            "round {round}: the lock entry was lost: {lock}"
        );
    }
}

/// One source added for two scopes is checked once per copy.
#[test]
fn update_checks_a_source_added_at_both_scopes() {
    let w = World::new();
    let repo = hostile_repo(&w, &w.root.join("MARKER"));
    let url = format!("file://{}", repo.display());
    let project = w.root.join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let in_project = |c: &mut std::process::Command| {
        c.current_dir(&project);
    };
    for scope in ["user", "project"] {
        let out = w.run_with(
            &["add", &url, "--pick", "weather", "--scope", scope, "--yes"],
            in_project,
        );
        assert!(out.status.success(), "{scope}");
    }
    let out = w.run_with(&["update", "--json"], in_project);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    let checks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let all = checks.to_string();
    assert!(!all.contains("File exists"), "{all}");
    let statuses: BTreeMap<String, String> = checks
        .as_array()
        .unwrap_or_else(|| panic!("{all}"))
        .iter()
        .map(|row| {
            (
                row["check"]["dir"].as_str().unwrap().to_string(),
                row["check"]["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(statuses.len(), 2, "{all}");
    assert!(statuses.values().all(|s| s == "up-to-date"), "{all}");
}

/// A `git://` server that accepts and then says nothing: `add` gives up after the stall limit
/// instead of waiting forever.
#[test]
fn a_silent_git_server_does_not_hang_add() {
    let w = World::new();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        while let Ok((s, _)) = listener.accept() {
            held.push(s);
        }
    });
    let mut child = w
        .command(&[
            "add",
            &format!("git://127.0.0.1:{port}/skills.git"),
            "--yes",
        ])
        .env("SKILLSCOPE_GIT_STALL_SECS", "2")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A hang guard, not a timing: the limit is 2 s.
    let until = Instant::now() + Duration::from_mins(2);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            panic!("add still waits on a silent server");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("stalled"), "{said}");
}

/// An upstream version that the agent's rules reject (broken YAML) would leave the agent's
/// listing: `update` says so and keeps the installed one unless `--force`.
#[test]
fn update_keeps_the_installed_version_when_the_upstream_one_is_rejected() {
    let w = World::new();
    let repo = hostile_repo(&w, &w.root.join("MARKER"));
    let url = format!("file://{}", repo.display());
    w.ok(&["add", &url, "--pick", "weather", "--yes"]);
    let installed = w.skills().join("weather/SKILL.md");
    let before = std::fs::read_to_string(&installed).unwrap();
    write(
        &repo.join("skills/weather/SKILL.md"),
        "---\nname: weather\ndescription: Forecasts: rain [and sun\n---\n# Weather\n",
    );
    git(&repo, &["commit", "-qam", "broken"]);
    let out = w.run(&["update", "--yes"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("--force") && said.contains("error"), "{said}");
    assert_eq!(std::fs::read_to_string(&installed).unwrap(), before);
    let out = w.run(&["update", "--yes", "--force"]);
    assert!(out.status.success());
    assert!(
        std::fs::read_to_string(&installed)
            .unwrap()
            .contains("[and sun")
    );
}

/// A project at `~/src/proj` (its links below lead back into the home) and a source with one
/// skill, `weather`; the user's own skill `mine` and Claude Code settings, and empty Codex-shared
/// and Gemini CLI folders.
fn linked_project(w: &World) -> (PathBuf, String) {
    let home = w.home();
    let project = home.join("src/proj");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    write(
        &w.skills().join("mine/SKILL.md"),
        &skill_md("mine", "Keeps the user's own notes when asked about notes."),
    );
    write(&home.join(".claude/settings.json"), "{}\n");
    std::fs::create_dir_all(home.join(".agents/skills")).unwrap();
    std::fs::create_dir_all(home.join(".gemini/skills")).unwrap();
    let repo = w.root.join("source");
    write(
        &repo.join("skills/weather/SKILL.md"),
        &skill_md(
            "weather",
            "Forecasts for any city when the user asks about rain.",
        ),
    );
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "one"]);
    (project, format!("file://{}", repo.display()))
}

/// The user's own folders a redirected write would land in.
fn users_own(w: &World) -> Vec<BTreeMap<String, (u32, Vec<u8>)>> {
    [".claude", ".agents", ".gemini"]
        .iter()
        .map(|d| snapshot(&w.home().join(d)))
        .collect()
}

/// A clone that commits links leading out of it (`.agents -> ../../.claude`, `.claude` or
/// `.claude/skills` linked into the home, a `skills.lock` or `skills-lock.json` linked to the
/// user's own): no project-scope write (add, add --link, copy, move, toggle) follows them; each
/// is refused, saying where the link leads, and the user's own folders are left as they were.
#[test]
fn a_projects_committed_links_do_not_redirect_project_scope_writes() {
    let link = |project: &Path, rel: &str, to: &str| {
        let at = project.join(rel);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        crate::common::symlink(to, at).unwrap();
    };
    type Case = (&'static str, &'static str, &'static [&'static str]);
    // (where the link is, where it leads, the command; URL stands for the source)
    let cases: [Case; 9] = [
        (
            ".agents",
            "../../.claude",
            &["add", "URL", "--scope", "project", "--agent", "generic"],
        ),
        (
            ".agents",
            "../../.claude",
            &["add", "URL", "--scope", "project", "--link"],
        ),
        (
            ".claude",
            "../../.claude",
            &["add", "URL", "--scope", "project"],
        ),
        (
            ".claude/skills",
            "HOME/.claude/skills",
            &["add", "URL", "--scope", "project"],
        ),
        (
            ".claude/skills/skills.lock",
            "../../../../.claude/skills/skills.lock",
            &["add", "URL", "--scope", "project"],
        ),
        (
            "skills-lock.json",
            "../../.agents/.skill-lock.json",
            &["add", "URL", "--scope", "project", "--link"],
        ),
        (
            ".agents",
            "../../.gemini",
            &["copy", "mine", "--to", "generic:project"],
        ),
        (
            ".agents",
            "../../.gemini",
            &["move", "mine", "--to", "generic:project"],
        ),
        (
            ".claude",
            "../../.claude",
            &[
                "toggle",
                "mine",
                "--off",
                "--scope",
                "project",
                "--agent",
                "claude-code",
            ],
        ),
    ];
    for (at, to, args) in cases {
        let w = World::new();
        let (project, url) = linked_project(&w);
        let home = w.home();
        if at == ".claude/skills/skills.lock" {
            std::fs::create_dir_all(project.join(".claude/skills")).unwrap();
        }
        link(
            &project,
            at,
            &to.replace("HOME", &home.display().to_string()),
        );
        let before = users_own(&w);
        let mut all: Vec<&str> = args
            .iter()
            .map(|a| if *a == "URL" { url.as_str() } else { *a })
            .collect();
        all.push("--yes");
        let out = w.run_with(&all, |c| {
            c.current_dir(&project);
        });
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let what = format!("{at} -> {to}, `skillscope {}`", args.join(" "));
        assert_ne!(out.status.code(), Some(0), "{what}: {said}");
        assert!(said.contains("leads out of the project"), "{what}: {said}");
        assert_eq!(
            users_own(&w),
            before,
            "{what} wrote into the user's own folders"
        );
        // Refused before anything was installed: no half-done add is left in the project.
        for place in [".agents/skills/weather", ".claude/skills/weather"] {
            assert!(
                std::fs::symlink_metadata(project.join(place)).is_err(),
                "{what} installed {place}"
            );
        }
    }
}

/// An update whose new version brings a script named with escape sequences, a C1 control and a
/// bidi override: the preview names it escaped, on the terminal as through a pipe.
#[test]
fn updates_preview_names_a_hostile_script_escaped() {
    let w = World::new();
    let (_, url) = linked_project(&w);
    w.ok(&["add", &url, "--yes"]);
    let repo = w.root.join("source");
    let script = repo.join("skills/weather/scripts/run\x1b]0;pwned\x07\u{9b}2J\u{202e}hs.sh");
    write(&script, "#!/bin/sh\necho rain\n");
    crate::common::set_mode(&script, 0o755);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "a script"]);
    let out = w.run(&["update", "--dry-run"]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("run\\u{1b}]0;pwned\\u{7}\\u{9b}2J\\u{202e}hs.sh"),
        "the script is named, escaped: {said}"
    );
    assert!(
        !said
            .chars()
            .any(|c| c != '\n' && skillscope::core::words::text::is_hazard(c)),
        "a raw control character: {said:?}"
    );
}

/// A `file://` repository is read in place (not cloned), and nothing its own settings name runs:
/// not an fsmonitor command, not the ssh command of a promisor remote that a missing object
/// would be fetched from, not its hooks.
#[test]
fn a_local_repository_read_in_place_runs_nothing_its_settings_name() {
    let w = World::new();
    let marker = w.root.join("MARKER");
    let repo = hostile_repo(&w, &marker);
    let url = format!("file://{}", repo.display());
    let touch = format!("touch {}", marker.display());
    for (key, value) in [
        ("core.fsmonitor", touch.as_str()),
        ("core.sshCommand", touch.as_str()),
        ("remote.origin.url", "ssh://example.invalid/skills"),
        ("remote.origin.promisor", "true"),
        ("core.repositoryformatversion", "1"),
        ("extensions.partialClone", "origin"),
    ] {
        git(&repo, &["config", key, value]);
    }
    let out = w.run(&["add", &url, "--yes"]);
    assert!(out.status.success(), "{out:?}");
    assert!(w.skills().join("weather/SKILL.md").is_file());
    assert!(!marker.exists(), "something from the source ran");
    // A blob the commit names is missing now: git would fetch it from the promisor remote.
    let blob = std::process::Command::new("git")
        .args(["rev-parse", "HEAD:skills/team-notes/SKILL.md"])
        .current_dir(&repo)
        .output()
        .unwrap();
    let id = String::from_utf8_lossy(&blob.stdout).trim().to_string();
    std::fs::remove_file(repo.join(".git/objects").join(&id[..2]).join(&id[2..])).unwrap();
    let out = w.run(&["add", &url, "--pick", "team-notes", "--yes", "--replace"]);
    assert!(!out.status.success(), "{out:?}");
    assert!(
        !marker.exists(),
        "a missing object was fetched through the source's settings"
    );
}
