//! Hostile and odd input through the real binary: every skill appears with its diagnostics, and
//! nothing hangs or panics.

mod common;
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
        cases.len() + 1,
        "every skill but the pipe is read"
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
