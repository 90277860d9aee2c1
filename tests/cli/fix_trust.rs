//! `check --fix`, `--diff` and `toggle --agent lazy-skills` against hostile frontmatter and
//! files: inline `{…}` frontmatter, anchors and merges, names YAML reads as another type, a
//! SKILL.md linking out of the library; `--fix --diff` only previews.

use crate::common::{json, run, write};
use std::path::Path;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

const DESC: &str =
    "description: Extracts text and tables from PDF files. Use when the user gives a PDF.";

/// The rules `check --format json` reports for `lib`.
fn rules_of(lib: &str, home: &Path) -> Vec<String> {
    let out = run(
        &["check", "--profile", "spec", "--format", "json", lib],
        home,
    );
    json(&out)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn fix_with_diff_shows_the_fixes_and_writes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let md = home.path().join("lib/pdf/SKILL.md");
    let text = format!("---\nname: pdf\n{DESC}\nrelease: 1.0\n---\nBody\n");
    write(&md, &text);
    let l = home.path().join("lib");
    let l = l.to_str().unwrap();
    let out = run(
        &["check", "--profile", "spec", "--fix", "--diff", l],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("+metadata:\n+  release: 1.0\n"),
        "{}",
        stdout(&out)
    );
    assert_eq!(read(&md), text);
    assert!(!stderr(&out).contains("fixed lib/pdf"), "{}", stderr(&out));
    // --fix alone writes it.
    let out = run(&["check", "--profile", "spec", "--fix", l], home.path());
    assert!(
        stderr(&out).contains("fixed lib/pdf/SKILL.md"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        read(&md),
        format!("---\nname: pdf\n{DESC}\nmetadata:\n  release: 1.0\n---\nBody\n")
    );
}

#[test]
fn fix_keeps_an_inline_frontmatter_and_says_why() {
    let home = tempfile::tempdir().unwrap();
    let md = home.path().join("lib/pdf/SKILL.md");
    let text = "---\n{name: pdf, description: Extracts text and tables from PDF files. Use when the user gives a PDF., version: 2}\n---\nBody\n";
    write(&md, text);
    let l = home.path().join("lib");
    let l = l.to_str().unwrap();
    let out = run(&["check", "--profile", "spec", "--fix", l], home.path());
    assert_eq!(read(&md), text, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("lib/pdf/SKILL.md:2: unknown-field not fixed: the frontmatter is one inline `{…}` mapping"),
        "{}",
        stderr(&out)
    );
    // The skill keeps its description.
    let rules = rules_of(l, home.path());
    assert!(
        !rules.iter().any(|r| r == "description-missing"),
        "{rules:?}"
    );
}

#[test]
fn fix_never_moves_an_anchor_below_its_alias() {
    let home = tempfile::tempdir().unwrap();
    let md = home.path().join("lib/pdf/SKILL.md");
    let text = format!("---\nshared: &s {{team: docs}}\nname: pdf\n{DESC}\n<<: *s\n---\nBody\n");
    write(&md, &text);
    let l = home.path().join("lib");
    let l = l.to_str().unwrap();
    let out = run(&["check", "--profile", "spec", "--fix", l], home.path());
    assert_eq!(read(&md), text, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("holds the anchor `&s`"),
        "{}",
        stderr(&out)
    );
    let rules = rules_of(l, home.path());
    assert!(!rules.iter().any(|r| r == "yaml-invalid"), "{rules:?}");
}

#[test]
fn fix_quotes_a_folder_name_yaml_reads_as_null() {
    let home = tempfile::tempdir().unwrap();
    let md = home.path().join("lib/null/SKILL.md");
    write(&md, &format!("---\n{DESC}\n---\nBody\n"));
    let l = home.path().join("lib");
    let l = l.to_str().unwrap();
    let out = run(&["check", "--profile", "spec", "--fix", l], home.path());
    assert_eq!(
        read(&md),
        format!("---\nname: \"null\"\n{DESC}\n---\nBody\n"),
        "{}",
        stderr(&out)
    );
    let rules = rules_of(l, home.path());
    assert!(!rules.iter().any(|r| r.starts_with("name-")), "{rules:?}");
}

#[test]
fn fix_never_writes_through_a_skill_md_linking_out_of_the_library() {
    let home = tempfile::tempdir().unwrap();
    let outside = home.path().join("private/notes.md");
    let theirs = format!("---\nname: pdf\n{DESC}\nrelease: 1.0\n---\nprivate\n");
    write(&outside, &theirs);
    let md = home.path().join("lib/pdf/SKILL.md");
    std::fs::create_dir_all(md.parent().unwrap()).unwrap();
    crate::common::symlink(&outside, &md).unwrap();
    let l = home.path().join("lib");
    let l = l.to_str().unwrap();
    let out = run(&["check", "--profile", "spec", "--fix", l], home.path());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("lib/pdf/SKILL.md: not fixed:"), "{err}");
    assert!(err.contains("is a link to"), "{err}");
    assert!(err.contains("private/notes.md"), "{err}");
    assert_eq!(read(&outside), theirs);
    assert!(
        std::fs::symlink_metadata(&md)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // No lock or temporary file was made beside the outside file.
    let names: Vec<_> = std::fs::read_dir(outside.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["notes.md"]);
    // --diff says so too.
    let out = run(&["check", "--profile", "spec", "--diff", l], home.path());
    assert!(
        stderr(&out).contains("--fix would not write it")
            && stderr(&out).contains("private/notes.md"),
        "{}",
        stderr(&out)
    );
    // The same for the Lazy Skills switch.
    let out = run(
        &[
            "toggle",
            "--yes",
            "pdf",
            "--on",
            "--agent",
            "lazy-skills",
            l,
        ],
        home.path(),
    );
    assert_ne!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("private/notes.md"),
        "{}",
        stderr(&out)
    );
    assert_eq!(read(&outside), theirs);
}

#[test]
fn lazy_toggle_on_an_inline_frontmatter_keeps_it_valid() {
    let home = tempfile::tempdir().unwrap();
    let md = home.path().join("lib/pdf/SKILL.md");
    write(
        &md,
        "---\n{name: pdf, description: Fill PDF forms}\n---\n# pdf\n",
    );
    let l = home.path().join("lib");
    let l = l.to_str().unwrap();
    let out = run(
        &[
            "toggle",
            "--yes",
            "pdf",
            "--on",
            "--agent",
            "lazy-skills",
            l,
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(&md),
        "---\n{name: pdf, description: Fill PDF forms, auto_load: true}\n---\n# pdf\n"
    );
    let rules = rules_of(l, home.path());
    assert!(!rules.iter().any(|r| r == "yaml-invalid"), "{rules:?}");
}

/// `check --diff` and `--fix` on a 250 MB SKILL.md under the address-space limit of the bounded
/// memory tests (450 MB): only the frontmatter is read apart and shown, the body is copied
/// through in chunks. Holding the file whole, as before, did not fit.
#[test]
fn fix_and_diff_stream_a_250_mb_skill_md() {
    use crate::bounded_memory::{BIG, limited};
    use std::io::Read;
    let t = tempfile::tempdir().unwrap();
    let md = t.path().join("lib/huge/SKILL.md");
    std::fs::create_dir_all(md.parent().unwrap()).unwrap();
    let head = format!("---\nname: huge\n{DESC}\nrelease: 1.0\n---\n");
    let mut bytes = head.clone().into_bytes();
    let unit = b"lorem ipsum dolor sit amet\n";
    while bytes.len() < BIG {
        bytes.extend_from_slice(unit);
    }
    std::fs::write(&md, &bytes).unwrap();
    let out = limited(
        t.path(),
        t.path(),
        &["check", "--profile", "spec", "--diff", "lib"],
    );
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
    let diff = stdout(&out);
    assert!(diff.contains("+metadata:\n+  release: 1.0\n"), "{diff}");
    // The frontmatter's hunk alone, not the body.
    assert!(diff.len() < 2_000, "{}", diff.len());
    let out = limited(
        t.path(),
        t.path(),
        &["check", "--profile", "spec", "--fix", "lib"],
    );
    assert!(
        stderr(&out).contains("fixed lib/huge/SKILL.md"),
        "{:?} {}",
        out.status,
        stderr(&out)
    );
    let new_head = format!("---\nname: huge\n{DESC}\nmetadata:\n  release: 1.0\n---\n");
    let mut file = std::fs::File::open(&md).unwrap();
    assert_eq!(
        file.metadata().unwrap().len(),
        (bytes.len() - head.len() + new_head.len()) as u64
    );
    let mut got = vec![0u8; new_head.len()];
    file.read_exact(&mut got).unwrap();
    assert_eq!(got, new_head.as_bytes());
    let mut at = head.len();
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut chunk).unwrap();
        if n == 0 {
            break;
        }
        assert_eq!(&chunk[..n], &bytes[at..at + n], "at byte {at}");
        at += n;
    }
    assert_eq!(at, bytes.len());
}
