//! Hostile and odd input through the real binary: every skill appears with its diagnostics, and
//! nothing hangs or panics.

use crate::common;
use common::*;
use std::collections::HashMap;

#[test]
fn odd_files_each_get_their_diagnostic() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    let cases: &[(&str, &[u8])] = &[
        ("bom", b"\xEF\xBB\xBF---\nname: bom\ndescription: Reads things from files. Use when asked.\n---\n"),
        ("crlf", b"---\r\nname: crlf\r\ndescription: Reads things from files. Use when asked to.\r\n---\r\nBody\r\n"),
        ("blank-lines", b"\n\n---\nname: blank-lines\ndescription: Reads things from files. Use when asked.\n---\n"),
        ("unterminated", b"---\nname: unterminated\ndescription: never closed\n"),
        ("no-frontmatter", b"# Just a title\n\nSome text.\n"),
        ("empty", b""),
        ("nul", b"---\nname: nul\x00\ndescription: Reads things from files. Use when asked.\n---\n"),
        ("latin1", b"---\nname: latin1\ndescription: Caf\xe9 menus. Use when asked.\n---\n"),
        ("star", b"---\nname: star\ndescription: *Reads* things.\n---\n"),
        ("colon", b"---\nname: colon\ndescription: Use it: for things\n---\n"),
        ("yes", b"---\nname: yes\ndescription: Reads things from files. Use when asked.\n---\n"),
        ("block", b"---\nname: block\ndescription: |\n  Reads things from files.\n  Use when asked.\n---\n"),
        ("flow", b"---\nname: flow\ndescription: Reads things from files. Use when asked.\nallowed-tools: [Read, Grep]\n---\n"),
        ("list", b"---\n- a\n- b\n---\n"),
    ];
    for (dir, bytes) in cases {
        let p = lib.join(dir).join("SKILL.md");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
    }
    // A 100 MB file whose frontmatter never closes: read up to 1 MiB, not all of it.
    let big = lib.join("huge/SKILL.md");
    std::fs::create_dir_all(big.parent().unwrap()).unwrap();
    let mut text = b"---\nname: huge\n".to_vec();
    text.resize(100 * 1024 * 1024, b'x');
    std::fs::write(&big, &text).unwrap();
    drop(text);
    // A pipe named SKILL.md would block a naive reader forever.
    let fifo = lib.join("pipe/SKILL.md");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );

    let out = run(
        &["check", "--format", "json", lib.to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(
        v["skills"],
        cases.len() + 2,
        "every skill is there, the pipe too (with its error)"
    );
    let mut by_dir: HashMap<String, Vec<String>> = HashMap::new();
    for d in v["diagnostics"].as_array().unwrap() {
        let path = std::path::PathBuf::from(d["path"].as_str().unwrap());
        let dir = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        by_dir
            .entry(dir)
            .or_default()
            .push(d["rule"].as_str().unwrap().to_string());
        assert!(
            d["line"].is_u64() || d["rule"] == "skill-file-not-regular",
            "{d}"
        );
    }
    let expect = [
        ("bom", "file-bom"),
        ("blank-lines", "frontmatter-leading-blank"),
        ("unterminated", "frontmatter-unterminated"),
        ("no-frontmatter", "frontmatter-missing"),
        ("empty", "file-empty"),
        ("nul", "file-nul-bytes"),
        ("latin1", "file-not-utf8"),
        ("star", "yaml-invalid"),
        ("colon", "yaml-invalid"),
        ("flow", "strict-yaml-flow"),
        ("list", "frontmatter-not-mapping"),
        ("huge", "frontmatter-unterminated"),
        ("pipe", "skill-file-not-regular"),
    ];
    for (dir, rule) in expect {
        assert!(
            by_dir.get(dir).is_some_and(|r| r.iter().any(|x| x == rule)),
            "{dir}: expected {rule}, got {:?}",
            by_dir.get(dir)
        );
    }
    for clean in ["crlf", "yes", "block"] {
        assert!(
            !by_dir.contains_key(clean),
            "{clean}: {:?}",
            by_dir.get(clean)
        );
    }
}

#[cfg(unix)]
fn mkfifo(p: &std::path::Path) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    nix::unistd::mkfifo(p, nix::sys::stat::Mode::S_IRWXU).unwrap();
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[cfg(unix)]
#[test]
fn list_budget_and_prompt_say_what_was_not_read_and_exit_as_check() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("good/SKILL.md"),
        "---\nname: good\ndescription: Reads good things from files. Use when asked about them.\n---\nBody\n",
    );
    // A pipe as SKILL.md, and a pipe among a good skill's resources: neither is opened.
    mkfifo(&lib.join("pipe/SKILL.md"));
    mkfifo(&lib.join("good/references/pipe.md"));
    // A link to nowhere: a folder the walk cannot enter.
    crate::common::symlink(home.path().join("nowhere"), lib.join("gone")).unwrap();
    let missing = home.path().join("missing");
    let file_root = home.path().join("notes.txt");
    std::fs::write(&file_root, "not a skill").unwrap();
    let roots = [
        lib.to_str().unwrap(),
        missing.to_str().unwrap(),
        file_root.to_str().unwrap(),
    ];
    let with = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(roots);
        run_guarded(&all, home.path(), 60)
    };
    let check = with(&["check"]);
    // A named root that is missing or a file: the command could not do what was asked.
    assert_eq!(check.status.code(), Some(2));
    let check_text = String::from_utf8_lossy(&check.stdout);
    for cmd in [
        &["list"][..],
        &["list", "--json"],
        &["budget"],
        &["budget", "--format", "json"],
        &["prompt"],
        &["prompt", "--format", "markdown"],
    ] {
        let out = with(cmd);
        let err = stderr(&out);
        assert_eq!(out.status.code(), check.status.code(), "{cmd:?}: {err}");
        for said in [
            format!("{} does not exist", missing.display()),
            format!("{} is a file", file_root.display()),
            format!(
                "{}: this SKILL.md is not a regular file",
                lib.join("pipe/SKILL.md").display()
            ),
            format!("{}", lib.join("gone").display()),
        ] {
            assert!(
                err.contains(&said),
                "{cmd:?}: `{said}` missing from stderr:\n{err}"
            );
            // `check` reports each of them too (its text shows paths from the current folder).
            let what = said
                .split(": ")
                .last()
                .unwrap()
                .replace(&format!("{}/", home.path().display()), "");
            assert!(
                check_text.contains(&what),
                "check: {what} missing:\n{check_text}"
            );
        }
    }
    // The pipe is listed with its error, as `check` reports it.
    let list = run_guarded(&["list", "--json", lib.to_str().unwrap()], home.path(), 60);
    let v = json(&list);
    let pipe = v
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "pipe")
        .unwrap_or_else(|| panic!("the pipe skill is not listed: {v:#}"));
    assert!(
        pipe["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == "skill-file-not-regular" && d["severity"] == "error"),
        "{pipe:#}"
    );
    assert_eq!(list.status.code(), Some(1));
    let text = run_guarded(&["list", lib.to_str().unwrap()], home.path(), 60);
    let table = String::from_utf8_lossy(&text.stdout);
    assert!(
        table
            .lines()
            .any(|l| l.contains(" pipe ") && l.trim_end().ends_with("1      0")),
        "{table}"
    );
    // Budget lists the good skill's files without the pipe among them.
    let budget = run_guarded(
        &[
            "budget",
            "--format",
            "json",
            lib.join("good").to_str().unwrap(),
        ],
        home.path(),
        60,
    );
    let v = json(&budget);
    assert_eq!(
        v["skills"][0]["resource_tokens"],
        serde_json::json!([]),
        "{v:#}"
    );
    assert_eq!(budget.status.code(), Some(0), "{}", stderr(&budget));
}

#[test]
fn a_clean_library_reads_without_a_word_on_stderr() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("good/SKILL.md"),
        "---\nname: good\ndescription: Reads good things from files. Use when asked about them.\n---\nBody\n",
    );
    for cmd in [&["list"][..], &["budget"], &["prompt"]] {
        let mut all = cmd.to_vec();
        all.push(lib.to_str().unwrap());
        let out = run_guarded(&all, home.path(), 60);
        assert_eq!(out.status.code(), Some(0), "{cmd:?}");
        assert_eq!(stderr(&out), "", "{cmd:?}");
    }
}

#[cfg(unix)]
#[test]
fn an_unreadable_folder_and_skill_file_are_named() {
    if nix::unistd::geteuid().is_root() {
        eprintln!("skipping: permissions do not stop root, so nothing is unreadable");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("locked/inner/SKILL.md"),
        "---\nname: inner\n---\n",
    );
    write(&lib.join("secret/SKILL.md"), "---\nname: secret\n---\n");
    let perm = |p: &std::path::Path, m| {
        crate::common::set_mode(p, m);
    };
    perm(&lib.join("locked"), 0o000);
    perm(&lib.join("secret/SKILL.md"), 0o000);
    let out = run_guarded(&["list", lib.to_str().unwrap()], home.path(), 60);
    perm(&lib.join("locked"), 0o755);
    let err = stderr(&out);
    assert!(
        err.contains(&lib.join("locked").display().to_string()),
        "{err}"
    );
    assert!(err.contains("cannot read SKILL.md"), "{err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
}

#[test]
fn a_link_to_the_file_system_root_is_not_walked_and_the_cap_can_be_raised() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("good/SKILL.md"),
        "---\nname: good\ndescription: Reads good things from files. Use when asked about them.\n---\nBody\n",
    );
    crate::common::symlink("/", lib.join("everything")).unwrap();
    let out = run_guarded(&["list", lib.to_str().unwrap()], home.path(), 120);
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{} leads to /, a folder above the root: not followed",
            lib.join("everything").display()
        )),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0), "a warning: {err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 skill,"));

    for i in 0..30 {
        write(
            &lib.join(format!("s{i:02}/SKILL.md")),
            "---\nname: s\ndescription: d\n---\n",
        );
    }
    let capped = |extra: &[&str], env: Option<&str>| {
        let mut c = bin();
        c.arg("list")
            .args(extra)
            .arg(&lib)
            .env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"))
            .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
            .env("HOME", home.path());
        match env {
            Some(v) => c.env("SKILLSCOPE_MAX_ENTRIES", v),
            None => c.env_remove("SKILLSCOPE_MAX_ENTRIES"),
        };
        let out = c.output().unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let warning = format!(
        "stopped walking {} after 10 files and folders",
        lib.display()
    );
    assert!(capped(&["--max-entries", "10"], None).contains(&warning));
    assert!(capped(&[], Some("10")).contains(&warning));
    assert!(!capped(&["--max-entries", "1000"], Some("10")).contains("stopped walking"));
    assert!(!capped(&[], None).contains("stopped walking"));
}
