//! Exit codes a CI job can trust: a folder that gives no skill is exit 2 with nothing on stdout,
//! `check` never judges the bundled demo in place of the user's skills, failing skills are 1.

use crate::common;
use common::*;

fn err(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_missing_or_empty_root_is_exit_2_with_nothing_on_stdout() {
    let home = tempfile::tempdir().unwrap();
    let empty = home.path().join("empty");
    std::fs::create_dir_all(empty.join("docs")).unwrap();
    std::fs::write(empty.join("docs/README.md"), "no skill here").unwrap();
    let missing = home.path().join("nope");
    let (e, m) = (empty.to_str().unwrap(), missing.to_str().unwrap());
    for (args, said) in [
        (vec!["check", m], "does not exist"),
        (vec!["check", e], "holds no skill"),
        (vec!["check", "--format", "json", e], "holds no skill"),
        (vec!["check", "--format", "sarif", m], "does not exist"),
        (vec!["budget", m], "does not exist"),
        (vec!["budget", e], "holds no skill"),
        (vec!["budget", "--format", "json", m], "does not exist"),
        (
            vec!["budget", m, "--save-baseline", "b.json"],
            "does not exist",
        ),
        (vec!["list", "--json", m], "does not exist"),
        (vec!["prompt", e], "holds no skill"),
    ] {
        let out = run(&args, home.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", err(&out));
        assert!(
            out.stdout.is_empty(),
            "{args:?} printed a report of nothing: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let e = err(&out);
        assert!(
            e.contains(said) && e.contains("nothing to"),
            "{args:?}: {e}"
        );
    }
    assert!(
        !home.path().join("b.json").exists(),
        "no baseline of nothing"
    );
}

#[test]
fn a_good_root_beside_a_bad_one_reports_and_still_exits_2() {
    let home = tempfile::tempdir().unwrap();
    let good = home.path().join("good");
    write(
        &good.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Turns transcripts into meeting notes. Use when the user pastes a transcript.\n---\nBody\n",
    );
    let empty = home.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run(
        &["check", good.to_str().unwrap(), empty.to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", err(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 skill checked"), "{text}");
    assert!(err(&out).contains("holds no skill"), "{}", err(&out));
    // The good root alone passes.
    let out = run(&["check", good.to_str().unwrap()], home.path());
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
}

#[test]
fn a_root_named_inside_another_is_not_reported_empty() {
    let home = tempfile::tempdir().unwrap();
    let outer = home.path().join("outer");
    let text = "---\nname: NAME\ndescription: Turns transcripts into meeting notes. Use when the user pastes a transcript.\n---\nBody\n";
    write(&outer.join("SKILL.md"), &text.replace("NAME", "outer"));
    let inner = outer.join("inner");
    write(&inner.join("SKILL.md"), &text.replace("NAME", "inner"));
    let out = run(
        &["check", outer.to_str().unwrap(), inner.to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    assert!(!err(&out).contains("holds no skill"), "{}", err(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 skills checked"), "{text}");
}

#[test]
fn failing_skills_stay_exit_1() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(&lib.join("bad/SKILL.md"), "---\nname: Bad Name\n---\n");
    let out = run(&["check", lib.to_str().unwrap()], home.path());
    assert_eq!(out.status.code(), Some(1), "{}", err(&out));
    assert!(!out.stdout.is_empty());
}

#[test]
fn check_never_checks_the_demo_implicitly() {
    let home = tempfile::tempdir().unwrap();
    let say = |out: &std::process::Output| {
        assert_eq!(out.status.code(), Some(2), "{}", err(out));
        assert!(
            out.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let e = err(out);
        assert!(
            e.contains("never checks the bundled demo")
                && e.contains("skillscope check path/to/skills")
                && e.contains("roots"),
            "{e}"
        );
    };
    // Nothing installed at all.
    for format in ["text", "json", "sarif", "markdown"] {
        say(&run(&["check", "--format", format], home.path()));
    }
    // An agent's folder that exists but holds nothing: the app and `list` fall back to the
    // demo; `check` does not.
    std::fs::create_dir_all(home.path().join(".claude/skills")).unwrap();
    say(&run(&["check"], home.path()));
    let list = run(&["list"], home.path());
    assert_eq!(list.status.code(), Some(0), "{}", err(&list));
    assert!(err(&list).contains("bundled demo"), "{}", err(&list));
    // Once the agent's folder holds a skill, that is what `check` judges.
    write(
        &home.path().join(".claude/skills/notes/SKILL.md"),
        "---\nname: notes\ndescription: Turns transcripts into meeting notes. Use when the user pastes a transcript.\n---\nBody\n",
    );
    let out = run(&["check"], home.path());
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 skill checked"));
}

#[test]
fn a_reader_that_goes_away_ends_a_report_quietly() {
    // `skillscope list --json | head -c 16`: the reports bigger than a pipe's buffer fail to
    // write once the reader is gone, and that is a clean end, not an error on stderr.
    use std::io::Read;
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    let long = "Formats quarterly ledgers and reconciles accounts. ".repeat(18);
    for i in 0..300 {
        let dir = root.join(format!("skill-{i:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: skill-{i:03}\ndescription: {long}\n---\n\n# Skill {i}\n"),
        )
        .unwrap();
    }
    let r = root.to_str().unwrap();
    for args in [vec!["list", "--json", r], vec!["prompt", r]] {
        let mut child = bin()
            .args(&args)
            .env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"))
            .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
            .env("HOME", home.path())
            .current_dir(home.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 16];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(child.wait_with_output()));
        let out = rx
            .recv_timeout(std::time::Duration::from_mins(1))
            .unwrap_or_else(|_| panic!("skillscope {args:?} still runs after its reader left"))
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", err(&out));
        assert!(out.stderr.is_empty(), "{args:?}: {}", err(&out));
    }
}
