//! The worked CI example of docs/ci.md: its script runs the documented commands on a fixture
//! repository, and every `skillscope` command of the document is one the script runs.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_ci_example_script_passes() {
    for tool in ["bash", "git"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            eprintln!("skipping: {tool} is not installed");
            return;
        }
    }
    let out = Command::new("bash")
        .arg(root().join("scripts/ci-example-test.sh"))
        .env("SKILLSCOPE_BIN", env!("CARGO_BIN_EXE_skillscope"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("ci example: ok"), "{stdout}\n{stderr}");
}

#[test]
fn every_command_in_the_doc_is_run_by_the_script() {
    let doc = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let script = std::fs::read_to_string(root().join("scripts/ci-example-test.sh")).unwrap();
    let mut in_code = false;
    let mut commands = Vec::new();
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let l = line.trim();
        if in_code && l.starts_with("skillscope ") && !l.contains("--format sarif") {
            commands.push(l.to_string());
        }
    }
    assert!(commands.len() >= 5, "{commands:?}");
    for c in &commands {
        assert!(
            script.lines().any(|s| s.contains(c.as_str())),
            "docs/ci.md runs `{c}` but scripts/ci-example-test.sh does not"
        );
    }
    // The table shown in the doc is the script's fixture's: same headline as the script expects.
    assert!(doc.contains("1 added, 0 removed, 2 changed; 1 left a listing"));
    assert!(script.contains("1 added, 0 removed, 2 changed; 1 left a listing"));
}
