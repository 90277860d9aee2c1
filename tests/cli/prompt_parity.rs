//! `skillscope prompt --format xml A B C` is byte-identical to the reference `agentskills to-prompt
//! A B C` (skills-ref): on the demo library, on hand-made skills with characters to escape, and on a
//! slice of the real corpus. Runs only where the reference tool is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The reference CLI: `$SKILLSCOPE_AGENTSKILLS`, the project venv's, or `agentskills` on PATH.
fn reference() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("SKILLSCOPE_AGENTSKILLS").map(PathBuf::from),
        Some(PathBuf::from("/work/venv/bin/agentskills")),
        std::env::var_os("PATH").and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("agentskills"))
                .find(|f| f.is_file())
        }),
    ];
    let found = candidates.into_iter().flatten().find(|p| p.is_file());
    if found.is_none() {
        eprintln!("skipping: the reference `agentskills` (skills-ref) is not installed");
    }
    found
}

fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipping: no corpus at ../shared/corpus (set SKILLSCOPE_CORPUS)");
        None
    }
}

fn run(program: &Path, args: &[&str], dirs: &[PathBuf]) -> (bool, Vec<u8>) {
    let out = Command::new(program)
        .args(args)
        .args(dirs)
        .env(
            "SKILLSCOPE_CACHE_DIR",
            std::env::temp_dir().join("skillscope-parity-cache"),
        )
        .output()
        .unwrap();
    (out.status.success(), out.stdout)
}

fn ours(dirs: &[PathBuf]) -> Vec<u8> {
    let bin = Path::new(env!("CARGO_BIN_EXE_skillscope"));
    // skills-ref lists every folder it is given, switched off or not.
    let (ok, out) = run(
        bin,
        &["prompt", "--format", "xml", "--tier", "full", "--all"],
        dirs,
    );
    assert!(ok);
    out
}

/// The folders the reference accepts one by one (it rejects, for instance, flow-style YAML that
/// agents read fine; a single rejection fails its whole run).
fn accepted(reference: &Path, dirs: Vec<PathBuf>) -> Vec<PathBuf> {
    let (ok, _) = run(reference, &["to-prompt"], &dirs);
    if ok {
        return dirs;
    }
    dirs.into_iter()
        .filter(|d| run(reference, &["to-prompt"], std::slice::from_ref(d)).0)
        .collect()
}

fn assert_same(reference: &Path, dirs: &[PathBuf]) {
    let (ok, expected) = run(reference, &["to-prompt"], dirs);
    assert!(ok, "the reference rejected {dirs:?}");
    let got = ours(dirs);
    assert!(
        got == expected,
        "differs for {dirs:?}\n--- reference\n{}\n--- skillscope\n{}",
        String::from_utf8_lossy(&expected),
        String::from_utf8_lossy(&got)
    );
}

fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("SKILL.md").is_file())
        .collect();
    v.sort();
    v
}

#[test]
fn demo_library_matches_the_reference_in_both_orders() {
    let Some(reference) = reference() else { return };
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/skills");
    if !demo.is_dir() {
        eprintln!("skipping: no demo library at {}", demo.display());
        return;
    }
    let mut dirs = accepted(&reference, subfolders(&demo));
    assert!(dirs.len() >= 5, "too few demo skills accepted: {dirs:?}");
    assert_same(&reference, &dirs);
    dirs.reverse();
    assert_same(&reference, &dirs);
}

#[test]
fn characters_to_escape_and_strip_match_the_reference() {
    let Some(reference) = reference() else { return };
    let t = tempfile::tempdir().unwrap();
    let skills: &[(&str, &str)] = &[
        (
            "escapes",
            "name: escapes\ndescription: \"\\u00a0Tom & Jerry's <b>\\\"best\\\"</b> > all\\u00a0\"\n",
        ),
        (
            "block",
            "name: block\ndescription: |\n  First line,\n    indented line.\n\n  Last line.\n",
        ),
        (
            "folded",
            "name: folded\ndescription: >-\n  Folded text\n  on two lines — with ünïcode.\n",
        ),
        ("spaced", "name: \" spaced \"\ndescription: '  padded  '\n"),
    ];
    let mut dirs = Vec::new();
    for (dir, fm) in skills {
        let d = t.path().join(dir);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("SKILL.md"), format!("---\n{fm}---\n# Body\n")).unwrap();
        dirs.push(d);
    }
    // A SKILL.md given directly stands for its folder, for both tools.
    let lower = t.path().join("lower");
    std::fs::create_dir_all(&lower).unwrap();
    std::fs::write(
        lower.join("skill.md"),
        "---\nname: lower\ndescription: Lower-case file name.\n---\n",
    )
    .unwrap();
    dirs.push(lower.join("skill.md"));
    assert_same(&reference, &dirs);
}

#[test]
#[cfg_attr(not(skillscope_corpus), ignore = "needs the corpus")]
fn a_corpus_slice_matches_the_reference() {
    let Some(reference) = reference() else { return };
    let Some(corpus) = corpus() else { return };
    let mut dirs: Vec<PathBuf> = subfolders(&corpus.join("anthropic-skills/skills"));
    dirs.reverse();
    dirs.extend(subfolders(&corpus.join("superpowers/skills")));
    // Descriptions with quotes, `&`, `<`, block and folded scalars, double spaces.
    for name in [
        "acquire-codebase-knowledge",
        "aws-cloudwatch-investigation",
        "copilot-cli-quickstart",
        "copilot-sdk",
        "datanalysis-credit-risk",
        "mvvm-toolkit-messenger",
    ] {
        let d = corpus.join("awesome-copilot/skills").join(name);
        if d.is_dir() {
            dirs.push(d);
        }
    }
    let dirs = accepted(&reference, dirs);
    assert!(
        dirs.len() >= 20,
        "too few corpus skills accepted: {}",
        dirs.len()
    );
    assert_same(&reference, &dirs);
}
