//! Bounded memory for any input size: a 250 MB `SKILL.md` under `check`, a 250 MB blob and a
//! link target longer than `PATH_MAX` in a baseline commit. Each command runs under an
//! address-space limit of 450 MB (`ulimit -v`), about 300 MB above what skillscope needs for a
//! small library (threads and allocator arenas reserve address space under load): reading
//! either 250 MB file whole (twice its size, as before) would not fit.

use crate::common::write;
use std::path::Path;
use std::process::{Command, Output};

/// The address-space limit, in KiB.
const LIMIT_KIB: u64 = 450_000;
/// The size of the big file and the big blob.
pub(crate) const BIG: usize = 250_000_000;

/// `skillscope ARGS` in `dir` under the limit; HOME and skillscope's folders in `home`.
pub(crate) fn limited(dir: &Path, home: &Path, args: &[&str]) -> Output {
    let mut c = Command::new("bash");
    c.args([
        "--norc",
        "--noprofile",
        "-c",
        &format!(r#"ulimit -v {LIMIT_KIB} && exec "$@""#),
        "bash",
        env!("CARGO_BIN_EXE_skillscope"),
    ])
    .args(args)
    .env("NO_COLOR", "1")
    .env_remove("SKILLSCOPE_CONFIG")
    .env("SKILLSCOPE_MANAGED_DIR", "/nonexistent/skillscope-managed")
    .env("HOME", home)
    .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
    .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
    .env("TMPDIR", home)
    .current_dir(dir);
    let out = c.output().unwrap();
    eprintln!(
        "skillscope {args:?}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// One line of text (spaces, a link) of `BIG` bytes after a frontmatter.
fn huge_skill_md(name: &str) -> Vec<u8> {
    let mut bytes =
        format!("---\nname: {name}\ndescription: A huge skill. Use when testing memory.\n---\n")
            .into_bytes();
    let unit = b"lorem ipsum dolor [a](missing.md) sit amet ";
    while bytes.len() < BIG {
        bytes.extend_from_slice(unit);
    }
    bytes
}

#[test]
fn check_reads_a_250_mb_skill_md_as_a_stream() {
    let t = tempfile::tempdir().unwrap();
    let lib = t.path().join("lib");
    std::fs::create_dir_all(lib.join("huge")).unwrap();
    std::fs::write(lib.join("huge/SKILL.md"), huge_skill_md("huge")).unwrap();
    write(
        &lib.join("small/SKILL.md"),
        "---\nname: small\ndescription: A small skill. Use when testing memory.\n---\n# Small\n",
    );
    let out = limited(t.path(), t.path(), &["check", "lib", "--format", "json"]);
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "check failed under the limit: {:?}",
        out.status
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = v.to_string();
    // The body was read to its end: its length and its links are judged.
    assert!(text.contains("body-too-long"), "{text}");
    assert!(text.contains("body-broken-link"), "{text}");
}

fn git(dir: &Path, args: &[&str], input: Option<&[u8]>) -> String {
    use std::io::Write;
    let mut child = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    if let Some(bytes) = input {
        stdin.write_all(bytes).unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "git {args:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A commit with a skill, a 250 MB resource and a link whose target is 5,000 bytes long, made
/// with git's plumbing (as a pull request could push it).
#[test]
fn budget_baseline_ref_streams_big_blobs_and_leaves_out_overlong_links() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"], None);
    let blob = |bytes: &[u8]| git(&repo, &["hash-object", "-w", "--stdin"], Some(bytes));
    let skill = blob(b"---\nname: a\ndescription: A skill. Use when testing memory.\n---\n# A\n");
    let big = blob(&vec![0u8; BIG]);
    let far = blob("x/".repeat(2500).as_bytes());
    let tree = |lines: &[String]| git(&repo, &["mktree"], Some(lines.join("\n").as_bytes()));
    let a = tree(&[
        format!("100644 blob {skill}\tSKILL.md"),
        format!("100644 blob {big}\tdata.bin"),
        format!("120000 blob {far}\tfar"),
    ]);
    let root = tree(&[format!(
        "040000 tree {}\tskills",
        tree(&[format!("040000 tree {a}\ta")])
    )]);
    let commit = git(&repo, &["commit-tree", &root, "-m", "big"], None);
    write(
        &repo.join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: A skill, now longer. Use when testing memory.\n---\n# A\n",
    );
    let out = limited(
        &repo,
        t.path(),
        &[
            "budget",
            "skills",
            "--baseline-ref",
            &commit,
            "--format",
            "json",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("far -> ") && err.contains("(target too long)"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["skills"]["before"], 1, "{v:#}");
}
