//! Layouts and records made by the installers people use (`npx skills`, ClawHub), rebuilt from
//! the captures in `tests/fixtures/installers`: each skill listed once with every agent that
//! reads it, where it came from, whether it was edited since, ClawHub's pins; and skillscope's
//! own `add --link`, `update` and `remove` keeping the same layout and records.

use crate::common::{layout_of, rebuild_layout, write};
use crate::manage::{World, git, snapshot};
use serde_json::Value;
use std::path::{Path, PathBuf};

const SKILLS_CLI: &str = "skills-cli@1.7.4";
const CLAWHUB: &str = "clawhub@0.23.3";
const NAMES: [&str; 3] = ["commit-helper", "pdf-tools", "web-search"];

/// A world with the installers' source at `root/source` and a project (a git repository) at
/// `root/proj`.
fn world() -> (World, PathBuf, PathBuf) {
    let w = World::new();
    let source = w.root.join("source");
    rebuild_layout(&format!("{SKILLS_CLI}/source"), &source, &[]);
    let proj = w.root.join("proj");
    std::fs::create_dir_all(proj.join(".git")).unwrap();
    (w, source, proj)
}

fn in_dir(w: &World, dir: &Path, args: &[&str]) -> std::process::Output {
    let dir = dir.to_path_buf();
    w.run_with(args, move |c| {
        c.current_dir(dir);
    })
}

fn said(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn listed(w: &World, dir: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["list", "--json"];
    args.extend_from_slice(extra);
    let out = in_dir(w, dir, &args);
    assert!(out.status.success(), "{}", said(&out));
    crate::common::json(&out).as_array().unwrap().clone()
}

fn named<'a>(skills: &'a [Value], name: &str) -> &'a Value {
    skills
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no {name}: {skills:#?}"))
}

fn names(skills: &[Value]) -> Vec<&str> {
    let mut n: Vec<&str> = skills.iter().map(|s| s["name"].as_str().unwrap()).collect();
    n.sort_unstable();
    n
}

/// `npx skills add ../source --agent claude-code codex`: one copy in `.agents/skills`, linked
/// into `.claude/skills`. Each skill is listed, judged, counted and compared once, with both
/// agents; Claude Code still lists it where its link is, Codex where the copy is.
#[test]
fn an_npx_project_lists_each_skill_once_with_every_agent_that_reads_it() {
    let (w, _, proj) = world();
    rebuild_layout(&format!("{SKILLS_CLI}/project-local"), &proj, &[]);
    let skills = listed(&w, &proj, &[]);
    assert_eq!(names(&skills), NAMES, "{skills:#?}");
    for name in NAMES {
        let s = named(&skills, name);
        assert_eq!(s["agent"], "generic");
        assert_eq!(s["scope"], "project");
        let dir = proj.join(".agents/skills").join(name);
        assert_eq!(s["dir"], dir.to_str().unwrap());
        let linked = s["linked"].as_array().unwrap();
        assert_eq!(linked.len(), 1, "{s:#}");
        assert_eq!(linked[0]["agent"], "claude-code");
        assert_eq!(
            linked[0]["dir"],
            proj.join(".claude/skills").join(name).to_str().unwrap()
        );
        let readers: Vec<&str> = s["readers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert!(
            readers.contains(&"claude-code") && readers.contains(&"codex"),
            "{readers:?}"
        );
        // The record, and its hash recomputed: web-search's source held a metadata.json the
        // copy left out, which the source itself (still at ../source) accounts for.
        let rec = &s["installed"];
        assert_eq!(rec["by"], "skills");
        assert_eq!(rec["source"], "../source");
        assert_eq!(rec["source_type"], "local");
        assert_eq!(rec["file"], proj.join("skills-lock.json").to_str().unwrap());
        assert_eq!(rec["files"]["state"], "unchanged", "{name}: {rec:#}");
    }
    let text = String::from_utf8_lossy(&in_dir(&w, &proj, &["list"]).stdout).into_owned();
    assert_eq!(text.matches("agents/project+claude").count(), 3, "{text}");

    // One skill, never its own rival.
    let check = said(&in_dir(&w, &proj, &["check"]));
    for rule in [
        "overlap",
        "shadowed",
        "duplicate-name",
        "installed-modified",
        "link-leaves-library",
    ] {
        assert!(!check.contains(&format!("[{rule}]")), "{rule}: {check}");
    }
    // Claude Code's profile still judges it: it reads the skill through its link.
    assert!(check.contains("error[description-xml]"), "{check}");
    let budget = crate::common::json(&in_dir(&w, &proj, &["budget", "--format", "json"]));
    assert_eq!(budget["skills"].as_array().unwrap().len(), 3, "{budget:#}");
    let claude = said(&in_dir(&w, &proj, &["prompt", "--agent", "claude-code"]));
    for name in NAMES {
        assert_eq!(claude.matches(&format!("- {name}:")).count(), 1, "{claude}");
    }
    let codex = said(&in_dir(&w, &proj, &["prompt", "--agent", "codex"]));
    assert!(
        codex.contains(".agents/skills`\n") && codex.contains("(file: r0/pdf-tools/SKILL.md)"),
        "{codex}"
    );

    // Edited since it was installed: said by list, check and show.
    write(
        &proj.join(".agents/skills/pdf-tools/references/forms.md"),
        "# Forms, edited\n",
    );
    let skills = listed(&w, &proj, &[]);
    assert_eq!(
        named(&skills, "pdf-tools")["installed"]["files"]["state"],
        "modified"
    );
    assert_eq!(
        named(&skills, "commit-helper")["installed"]["files"]["state"],
        "unchanged"
    );
    let check = said(&in_dir(&w, &proj, &["check"]));
    assert_eq!(check.matches("installed-modified").count(), 1, "{check}");
    assert!(
        check.contains(".agents/skills/pdf-tools/SKILL.md: warning[installed-modified]"),
        "{check}"
    );
    let show = said(&in_dir(&w, &proj, &["show", "pdf-tools"]));
    assert!(
        show.contains("installed by npx skills from ../source (local)"),
        "{show}"
    );
    assert!(show.contains("modified since it was installed"), "{show}");
    assert!(show.contains("linked from"), "{show}");
}

/// The same project given as a path (`check .`, the natural CI call): each linked skill is read
/// once, at its copy, with its link as its other place, as the default walk reads it; never
/// twice, never its own rival, never counted twice.
#[test]
fn a_project_given_as_a_path_reads_each_linked_skill_once() {
    let (w, _, proj) = world();
    rebuild_layout(&format!("{SKILLS_CLI}/project-local"), &proj, &[]);
    for args in [vec!["."], vec!["./"]] {
        let skills = listed(&w, &proj, &args);
        assert_eq!(names(&skills), NAMES, "{args:?}: {skills:#?}");
        for name in NAMES {
            let s = named(&skills, name);
            let ends = |v: &Value, folder: &str| {
                v.as_str().unwrap().ends_with(&format!("{folder}/{name}"))
            };
            assert!(ends(&s["dir"], ".agents/skills"), "{args:?}: {s:#}");
            let linked = s["linked"].as_array().unwrap();
            assert_eq!(linked.len(), 1, "{args:?}: {s:#}");
            assert!(ends(&linked[0]["dir"], ".claude/skills"), "{s:#}");
        }
        let mut check_args = vec!["check"];
        check_args.extend_from_slice(&args);
        let check = said(&in_dir(&w, &proj, &check_args));
        for rule in ["overlap", "shadowed", "duplicate-name"] {
            assert!(
                !check.contains(&format!("[{rule}]")),
                "{args:?} {rule}: {check}"
            );
        }
        assert!(
            !check.contains(".claude/skills/pdf-tools/SKILL.md"),
            "{check}"
        );
        let mut budget_args = vec!["budget", "--format", "json"];
        budget_args.extend_from_slice(&args);
        let budget = crate::common::json(&in_dir(&w, &proj, &budget_args));
        assert_eq!(budget["skills"].as_array().unwrap().len(), 3, "{budget:#}");
    }
    // Two names for one folder inside one skill folder stay two entries: an agent lists both.
    crate::common::symlink("pdf-tools", proj.join(".agents/skills/pdf-again")).unwrap();
    let skills = listed(&w, &proj, &["."]);
    assert_eq!(skills.len(), 4, "{skills:#?}");
}

/// The same installer from a `file://` git URL for the four agents added last (Qwen Code's
/// `.qwen/skills` links are followed; OpenClaw's `skills/` is its workspace's only when its
/// config names that workspace, so those links are left alone), and with `-g` in the home
/// folder.
#[test]
fn the_git_and_user_scope_layouts_and_records_are_read() {
    let (w, source, proj) = world();
    let src = source.to_str().unwrap();
    rebuild_layout(
        &format!("{SKILLS_CLI}/project-git-new-agents"),
        &proj,
        &[("SOURCE", src)],
    );
    let skills = listed(&w, &proj, &[]);
    assert_eq!(names(&skills), NAMES, "{skills:#?}");
    let pdf = named(&skills, "pdf-tools");
    let linked: Vec<&str> = pdf["linked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["agent"].as_str().unwrap())
        .collect();
    assert_eq!(linked, ["claude-code", "qwen-code"], "{pdf:#}");
    let rec = &pdf["installed"];
    assert_eq!(rec["source_type"], "git");
    assert_eq!(rec["skill_path"], "skills/pdf-tools/SKILL.md");
    assert_eq!(rec["files"]["state"], "unchanged");
    // A git source is not at hand: the copy's left-out metadata.json reads as a change, and the
    // record says why it may.
    let web = &named(&skills, "web-search")["installed"]["files"];
    assert_eq!(web["state"], "modified");
    assert!(web["note"].as_str().unwrap().contains("metadata.json"));

    let home = w.home();
    rebuild_layout(
        &format!("{SKILLS_CLI}/global"),
        &home,
        &[("SOURCE", src), ("DATETIME", "2026-01-01T00:00:00.000Z")],
    );
    let skills = listed(&w, &home, &[]);
    assert_eq!(names(&skills), NAMES, "{skills:#?}");
    let pdf = named(&skills, "pdf-tools");
    assert_eq!(pdf["scope"], "user");
    assert_eq!(pdf["linked"][0]["agent"], "claude-code");
    assert_eq!(
        pdf["installed"]["file"],
        home.join(".agents/.skill-lock.json").to_str().unwrap()
    );
    assert_eq!(pdf["installed"]["files"]["state"], "unchanged");
    let list = String::from_utf8_lossy(&in_dir(&w, &home, &["list"]).stdout).into_owned();
    assert_eq!(list.matches("agents/user+claude").count(), 3, "{list}");
}

/// A link from an agent's folder to a folder outside every skill folder: listed (the agent
/// loads it) and reported.
#[test]
fn a_link_that_leaves_the_library_is_reported_not_followed_silently() {
    let w = World::new();
    write(
        &w.root.join("elsewhere/mine/SKILL.md"),
        "---\nname: mine\ndescription: Notes on my own things when I ask about them.\n---\n",
    );
    std::fs::create_dir_all(w.skills()).unwrap();
    crate::common::symlink(w.root.join("elsewhere/mine"), w.skills().join("mine")).unwrap();
    let check = said(&w.run(&["check"]));
    assert!(check.contains("warning[link-leaves-library]"), "{check}");
    assert!(check.contains("elsewhere/mine"), "{check}");
}

/// ClawHub: version, pin and fingerprint read from its records; `update` leaves a pinned skill
/// alone and says so, for ClawHub's own skills and for one skillscope added where ClawHub
/// pinned it.
#[test]
fn clawhub_records_are_read_and_update_leaves_a_pinned_skill_alone() {
    let (w, _, proj) = world();
    rebuild_layout(
        &format!("{CLAWHUB}/install-pin"),
        &proj,
        &[("REGISTRY", "http://127.0.0.1:9")],
    );
    let lib = proj.join("skills");
    let skills = listed(&w, &proj, &[lib.to_str().unwrap()]);
    assert_eq!(names(&skills), NAMES, "{skills:#?}");
    let pdf = &named(&skills, "pdf-tools")["installed"];
    assert_eq!(pdf["by"], "clawhub");
    assert_eq!(pdf["version"], "1.0.0");
    assert_eq!(pdf["pinned"], true);
    assert_eq!(pdf["pin_reason"], "reviewed 1.0.0");
    assert_eq!(pdf["files"]["state"], "unchanged", "{pdf:#}");
    let web = &named(&skills, "web-search")["installed"];
    assert_eq!(web["key"], "@example/web-search");
    assert_eq!(web["files"]["state"], "unchanged", "{web:#}");
    let show = said(&in_dir(
        &w,
        &proj,
        &["show", "pdf-tools", lib.to_str().unwrap()],
    ));
    assert!(show.contains("pinned (reviewed 1.0.0)"), "{show}");
    write(&lib.join("commit-helper/notes.md"), "mine\n");
    let check = said(&in_dir(&w, &proj, &["check", lib.to_str().unwrap()]));
    assert_eq!(check.matches("installed-modified").count(), 1, "{check}");
    assert!(check.contains("commit-helper/SKILL.md"), "{check}");

    let before = snapshot(&proj);
    let out = said(&in_dir(&w, &proj, &["update", "--yes"]));
    assert!(
        out.contains("pdf-tools: pinned by ClawHub (reviewed 1.0.0)") && out.contains("left alone"),
        "{out}"
    );
    let out = said(&in_dir(&w, &proj, &["update", "commit-helper", "--yes"]));
    assert!(
        out.contains("installed by ClawHub (version 1.0.0), not by skillscope"),
        "{out}"
    );
    assert!(!out.contains("no skills.lock entry"), "{out}");
    assert_eq!(snapshot(&proj), before, "update wrote in the project");

    // A skill skillscope added into a folder ClawHub works in (`clawhub --workdir ~/.agents`)
    // and pinned there: its source changed, and still it is left alone.
    let repo = w.root.join("repo");
    write(
        &repo.join("skills/weather/SKILL.md"),
        &crate::manage::skill_md("weather", "Forecasts for a city when the user asks."),
    );
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "one"]);
    let url = format!("file://{}", repo.display());
    w.ok(&["add", &url, "--agent", "generic", "--yes"]);
    let agents = w.home().join(".agents");
    write(
        &agents.join(".clawhub/lock.json"),
        r#"{"version": 1, "skills": {"weather": {"version": "1.0.0", "installedAt": 0, "pinned": true, "pinReason": "frozen"}}}"#,
    );
    write(
        &repo.join("skills/weather/SKILL.md"),
        &crate::manage::skill_md("weather", "Forecasts and rain for a city when asked."),
    );
    git(&repo, &["commit", "-qam", "two"]);
    let out = said(&w.run(&["update", "--yes"]));
    assert!(out.contains("weather: pinned by ClawHub (frozen)"), "{out}");
    let now = std::fs::read_to_string(agents.join("skills/weather/SKILL.md")).unwrap();
    assert!(!now.contains("rain"), "a pinned skill was updated: {now}");
}

/// `restore` after `remove` of a linked skill puts everything back that `remove` took: the copy,
/// the agents' links to it and its `skills-lock.json` entry, byte for byte; a link whose place
/// is taken since is left alone and said.
#[test]
fn restore_puts_back_the_links_and_the_lock_entry_remove_took() {
    let (w, source, proj) = world();
    git(&source, &["init", "-q", "-b", "main"]);
    git(&source, &["add", "-A"]);
    git(&source, &["commit", "-qm", "skills"]);
    let url = format!("file://{}", source.display());
    let add = [
        "add",
        &url,
        "--link",
        "--agent",
        "claude-code",
        "--scope",
        "project",
        "--yes",
    ];
    let out = in_dir(&w, &proj, &add);
    assert!(out.status.success(), "{}", said(&out));
    let nothing = |_: &str| false;
    let layout = layout_of(&proj, &nothing);
    let lock = std::fs::read(proj.join("skills-lock.json")).unwrap();
    assert!(
        layout
            .iter()
            .any(|l| l.contains(".claude/skills/pdf-tools -> ")),
        "{layout:#?}"
    );
    let out = in_dir(&w, &proj, &["remove", "pdf-tools", "--yes"]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(std::fs::symlink_metadata(proj.join(".claude/skills/pdf-tools")).is_err());
    assert_ne!(std::fs::read(proj.join("skills-lock.json")).unwrap(), lock);
    let out = in_dir(&w, &proj, &["restore", "pdf-tools"]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("put back the link"), "{}", said(&out));
    assert_eq!(layout_of(&proj, &nothing), layout);
    assert_eq!(std::fs::read(proj.join("skills-lock.json")).unwrap(), lock);

    // A link's place taken in between: the skill and its entry come back, the link does not,
    // and the restore says so.
    let out = in_dir(&w, &proj, &["remove", "pdf-tools", "--yes"]);
    assert!(out.status.success(), "{}", said(&out));
    write(&proj.join(".claude/skills/pdf-tools/SKILL.md"), "mine\n");
    let out = in_dir(&w, &proj, &["restore", "pdf-tools"]);
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(said(&out).contains("was not put back"), "{}", said(&out));
    assert_eq!(
        std::fs::read_to_string(proj.join(".claude/skills/pdf-tools/SKILL.md")).unwrap(),
        "mine\n"
    );
    assert!(proj.join(".agents/skills/pdf-tools/SKILL.md").is_file());
    assert_eq!(std::fs::read(proj.join("skills-lock.json")).unwrap(), lock);
}

/// `add --link` from a `file://` repository makes the layout `npx skills` makes and the same
/// `skills-lock.json`, byte for byte; `remove` takes a skill, its link and its entry away, as
/// `npx skills remove` does; `--skill` picks by name.
#[test]
fn add_link_makes_the_installers_layout_and_record_and_remove_undoes_them() {
    let (w, source, proj) = world();
    git(&source, &["init", "-q", "-b", "main"]);
    git(&source, &["add", "-A"]);
    git(&source, &["commit", "-qm", "skills"]);
    let url = format!("file://{}", source.display());
    let out = in_dir(
        &w,
        &proj,
        &[
            "add",
            &url,
            "--link",
            "--agent",
            "claude-code",
            "codex",
            "--scope",
            "project",
            "--skill",
            "pdf-tools",
            "commit-helper",
            "web-search",
            "--yes",
        ],
    );
    assert!(out.status.success(), "{}", said(&out));
    let captured = |case: &str, skip: &dyn Fn(&str) -> bool| -> Vec<String> {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/installers")
                .join(case)
                .join("layout.txt"),
        )
        .unwrap();
        text.lines()
            .filter(|l| !skip(l.split_once(' ').unwrap().1.split(" -> ").next().unwrap()))
            .map(str::to_string)
            .collect()
    };
    // skillscope's own record sits beside the skills; the agents it does not model get no link;
    // and its copy keeps the metadata.json that the installer's leaves out (so that the hash it
    // records, of the source, is the installed folder's too).
    let ours = |p: &str| {
        p == ".agents/skills/skills.lock" || p == ".agents/skills/web-search/metadata.json"
    };
    let unmodelled = |p: &str| p.starts_with(".qwen") || p == "skills" || p.starts_with("skills/");
    assert_eq!(
        layout_of(&proj, &ours),
        captured(&format!("{SKILLS_CLI}/project-git-new-agents"), &unmodelled)
    );
    let lock = std::fs::read_to_string(proj.join("skills-lock.json")).unwrap();
    let want = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/installers")
            .join(SKILLS_CLI)
            .join("project-git-new-agents/files/skills-lock.json"),
    )
    .unwrap()
    .replace("{SOURCE}", source.to_str().unwrap());
    assert_eq!(lock, want);

    let out = in_dir(&w, &proj, &["remove", "commit-helper", "--yes"]);
    assert!(out.status.success(), "{}", said(&out));
    let gone = |p: &str| p.contains("commit-helper");
    assert_eq!(
        layout_of(&proj, &ours),
        captured(&format!("{SKILLS_CLI}/project-git-new-agents"), &|p| {
            unmodelled(p) || gone(p)
        })
    );
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(proj.join("skills-lock.json")).unwrap())
            .unwrap();
    let keys: Vec<&String> = lock["skills"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["pdf-tools", "web-search"]);

    // An update records the new hash.
    write(
        &source.join("skills/pdf-tools/README.md"),
        "# PDF tools, v2\n",
    );
    git(&source, &["commit", "-qam", "v2"]);
    let out = in_dir(&w, &proj, &["update", "--yes"]);
    assert!(out.status.success(), "{}", said(&out));
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(proj.join("skills-lock.json")).unwrap())
            .unwrap();
    let skills = listed(&w, &proj, &[]);
    let pdf = &named(&skills, "pdf-tools")["installed"];
    assert_eq!(pdf["files"]["state"], "unchanged", "{pdf:#}");
    assert_eq!(pdf["hash"], lock["skills"]["pdf-tools"]["computedHash"]);
    assert_ne!(
        lock["skills"]["pdf-tools"]["computedHash"],
        "9b31103770ea37b383de8bbd59a2463670a212a48dfa65f658224da1f1a15bc6"
    );
}

/// GitHub's shorthand: a folder of that name that exists is read as that folder, and the
/// preview says so (the shorthand's resolution itself is `origin::github_shorthand`'s test: no
/// network here).
#[test]
fn a_folder_named_like_owner_slash_repo_wins_over_github() {
    let w = World::new();
    write(
        &w.home().join("octo/skills/pdf/SKILL.md"),
        &crate::manage::skill_md("pdf", "Fill PDF forms when the user mentions a PDF form."),
    );
    let out = w.run(&["add", "octo/skills", "--dry-run"]);
    let text = said(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("octo/skills is a folder here"), "{text}");
    assert!(!text.contains("github.com/octo/skills.git"), "{text}");
}

/// A committed `skills-lock.json` (and ClawHub lock) naming paths outside the project: reading
/// it, updating and removing never writes outside the project and skillscope's own folders.
#[test]
fn hostile_installer_records_never_lead_skillscope_outside() {
    let (w, _, proj) = world();
    rebuild_layout(&format!("{SKILLS_CLI}/project-local"), &proj, &[]);
    write(&w.root.join("outside/x/SKILL.md"), "---\nname: x\n---\n");
    write(&w.root.join("outside/keep.txt"), "keep\n");
    let path = proj.join("skills-lock.json");
    let mut lock: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let pdf = lock["skills"]["pdf-tools"].clone();
    for key in ["../../outside/x", "../outside", "/", ".."] {
        let mut e = pdf.clone();
        e["source"] = Value::from(key);
        lock["skills"][key] = e;
    }
    lock["skills"]["pdf-tools"]["source"] = Value::from("../../../../../..");
    std::fs::write(&path, serde_json::to_string_pretty(&lock).unwrap()).unwrap();
    write(
        &proj.join(".clawhub/lock.json"),
        r#"{"version": 1, "skills": {"../../outside/x": {"version": "1", "pinned": true}, "..": {"pinned": true}}}"#,
    );
    let before = snapshot(&w.root.join("outside"));
    for args in [
        &["list", "--json"][..],
        &["check"][..],
        &["show", "pdf-tools"][..],
        &["update", "--yes"][..],
        &["update", "../../outside/x", "--yes"][..],
        &["remove", "pdf-tools", "--yes"][..],
        &[
            "add",
            "../source",
            "--link",
            "--scope",
            "project",
            "--yes",
            "--replace",
        ][..],
    ] {
        let out = in_dir(&w, &proj, args);
        assert!(out.status.code().is_some(), "{args:?} was killed");
        assert_eq!(
            snapshot(&w.root.join("outside")),
            before,
            "{args:?} wrote outside"
        );
    }
    // The other entries are kept as they were; pdf-tools was removed, then added again.
    let lock: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(lock["skills"].get("../../outside/x").is_some(), "{lock:#}");
    assert_eq!(lock["skills"]["pdf-tools"]["source"], "../source");
}

/// Parallel `add --link` runs of different skills into one project: each holds the install lock
/// around its `skills-lock.json` change, so none loses another's entry.
#[test]
fn parallel_adds_lose_no_skills_lock_entry() {
    let (w, _, proj) = world();
    let repo = w.root.join("many");
    let names: Vec<String> = (0..6).map(|i| format!("skill-{i}")).collect();
    for n in &names {
        write(
            &repo.join("skills").join(n).join("SKILL.md"),
            &crate::manage::skill_md(n, "Handle one kind of report when the user sends it."),
        );
    }
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "many"]);
    let url = format!("file://{}", repo.display());
    let children: Vec<_> = names
        .iter()
        .map(|n| {
            let mut c = w.command(&[
                "add", &url, "--link", "--scope", "project", "--skill", n, "--yes",
            ]);
            c.current_dir(&proj)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            c.spawn().unwrap()
        })
        .collect();
    for c in children {
        let out = crate::common::wait_guarded(c, 300, "a parallel add");
        assert!(out.status.success(), "{}", said(&out));
    }
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(proj.join("skills-lock.json")).unwrap())
            .unwrap();
    let keys: Vec<&String> = lock["skills"].as_object().unwrap().keys().collect();
    assert_eq!(keys, names.iter().collect::<Vec<_>>());
    for n in &names {
        assert!(
            std::fs::read_link(proj.join(".claude/skills").join(n)).is_ok(),
            "{n} has no link"
        );
    }
}
