//! The repository's `.pre-commit-hooks.yaml` and `action.yml`, as the tools that read them run
//! them: pre-commit's own `try-repo` runs the hooks on a repository of skills (when pre-commit is
//! installed: `pre-commit` on PATH, or `SKILLSCOPE_PRE_COMMIT` naming it), and the action's
//! steps run one after the other with the inputs, environment and files GitHub gives a
//! composite action's steps. What both files say is checked without either tool.

use crate::manage::git;
use serde_yaml::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn yaml(file: &str) -> Value {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no {key} in {v:?}"))
        .to_string()
}

/// The folder holding the built binary, to put first on PATH.
fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_skillscope"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn path_with_bin() -> String {
    format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

const GOOD: &str = "---\nname: alpha\ndescription: Summarise meeting notes into decisions and owners. Use when the user pastes meeting notes.\n---\n# Alpha\n\nSteps.\n";
const BROKEN: &str =
    "---\nname: alpha\ndescription: Summarise: meeting notes\n  bad: [\n---\n# Alpha\n";

/// A git repository whose `skills/` holds one valid skill at its first commit.
fn repo(t: &Path) -> PathBuf {
    let repo = t.join("repo");
    crate::common::write(&repo.join("skills/alpha/SKILL.md"), GOOD);
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "alpha"]);
    repo
}

/// Every hook runs skillscope on the folder its args name, once per commit, and its flags are
/// ones skillscope takes: each entry with its args runs on a valid library with exit 0.
#[test]
fn the_pre_commit_hooks_say_what_skillscope_takes() {
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hooks = hooks.as_sequence().expect("a list of hooks");
    let ids: Vec<String> = hooks.iter().map(|h| text(h, "id")).collect();
    for id in [
        "skillscope-check",
        "skillscope-budget",
        "skillscope-check-system",
        "skillscope-budget-system",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id} missing: {ids:?}");
    }
    let t = tempfile::tempdir().unwrap();
    let repo = repo(t.path());
    for h in hooks {
        let id = text(h, "id");
        let language = text(h, "language");
        assert!(
            ["rust", "system"].contains(&language.as_str()),
            "{id}: {language}"
        );
        assert_eq!(
            language == "system",
            id.ends_with("-system"),
            "{id}: {language}"
        );
        assert_eq!(h["pass_filenames"], Value::Bool(false), "{id}");
        let entry = text(h, "entry");
        let mut words: Vec<String> = entry.split_whitespace().map(str::to_string).collect();
        assert_eq!(words.remove(0), "skillscope", "{id}: {entry}");
        let args: Vec<String> = h["args"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        words.extend(args);
        let out = crate::common::bin()
            .args(&words)
            .current_dir(&repo)
            .env("HOME", t.path())
            .env("SKILLSCOPE_CACHE_DIR", t.path().join("cache"))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{id}: {words:?}\n{}",
            said(&out)
        );
    }
}

/// Where pre-commit is installed, its `try-repo` runs the `-system` hooks of this file (the
/// others build skillscope with cargo first, which is this very build) on a repository of
/// skills: a valid change passes, a broken skill fails the check hook and a skill that leaves
/// the listings fails the budget hook.
#[test]
fn pre_commit_try_repo_runs_the_hooks() {
    let pre_commit = std::env::var_os("SKILLSCOPE_PRE_COMMIT")
        .map_or_else(|| PathBuf::from("pre-commit"), PathBuf::from);
    let found = Command::new(&pre_commit)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!(
            "skipping: pre-commit is not installed (pip install pre-commit, or SKILLSCOPE_PRE_COMMIT=/path/to/pre-commit); the hooks' structure is checked by the_pre_commit_hooks_say_what_skillscope_takes"
        );
        return;
    }
    let t = tempfile::tempdir().unwrap();
    // The hooks' repository: this file, committed, as a tag of a release would hold it.
    let hooks = t.path().join("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::copy(
        root().join(".pre-commit-hooks.yaml"),
        hooks.join(".pre-commit-hooks.yaml"),
    )
    .unwrap();
    git(&hooks, &["init", "-q", "-b", "main"]);
    git(&hooks, &["add", "-A"]);
    git(&hooks, &["commit", "-qm", "hooks"]);
    let repo = repo(t.path());
    let try_repo = |id: &str| {
        Command::new(&pre_commit)
            .args(["try-repo", hooks.to_str().unwrap(), id, "--all-files"])
            .current_dir(&repo)
            .env("PATH", path_with_bin())
            .env("HOME", t.path())
            .env("PRE_COMMIT_HOME", t.path().join("pre-commit-cache"))
            .env("SKILLSCOPE_CACHE_DIR", t.path().join("cache"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap()
    };
    for id in ["skillscope-check-system", "skillscope-budget-system"] {
        let out = try_repo(id);
        assert!(out.status.success(), "{id}: {}", said(&out));
        assert!(said(&out).contains("Passed"), "{id}: {}", said(&out));
    }
    // The skill broken in the work tree: its YAML no longer parses, so every agent drops it.
    crate::common::write(&repo.join("skills/alpha/SKILL.md"), BROKEN);
    git(&repo, &["add", "-A"]);
    for id in ["skillscope-check-system", "skillscope-budget-system"] {
        let out = try_repo(id);
        assert!(!out.status.success(), "{id}: {}", said(&out));
        assert!(said(&out).contains("Failed"), "{id}: {}", said(&out));
    }
    let out = try_repo("skillscope-check-system");
    assert!(said(&out).contains("yaml-invalid"), "{}", said(&out));
    let out = try_repo("skillscope-budget-system");
    assert!(said(&out).contains("left a listing"), "{}", said(&out));
}

/// One step's outcome.
struct Ran {
    name: String,
    code: Option<i32>,
    stdout: String,
}

/// Runs the composite action's steps as GitHub does: each step's `env` with `${{ inputs.X }}`
/// (the input given, else its default) and `${{ github.X }}` filled in, its `run` under
/// `bash --noprofile --norc -eo pipefail`, `GITHUB_PATH` and `GITHUB_STEP_SUMMARY` files, and a
/// step after a failed one only when its `if` is `!cancelled()`. Any other expression fails the
/// test: the action keeps to what this runner knows.
fn run_action(
    dir: &Path,
    temp: &Path,
    inputs: &BTreeMap<&str, &str>,
    github: &BTreeMap<&str, &str>,
) -> (Vec<Ran>, String) {
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"], Value::from("composite"));
    let declared = action["inputs"].as_mapping().unwrap();
    for k in inputs.keys() {
        assert!(
            declared.contains_key(Value::from(*k)),
            "{k} is no input of the action"
        );
    }
    let fill = |v: &str| -> String {
        let t = v.trim();
        let Some(inner) = t
            .strip_prefix("${{")
            .and_then(|r| r.strip_suffix("}}"))
            .map(str::trim)
        else {
            assert!(!v.contains("${{"), "an expression inside a value: {v}");
            return v.to_string();
        };
        if let Some(name) = inner.strip_prefix("inputs.") {
            let default = declared[Value::from(name)]["default"]
                .as_str()
                .unwrap_or_else(|| panic!("no input {name}"))
                .to_string();
            return inputs.get(name).map_or(default, |s| (*s).to_string());
        }
        if let Some(name) = inner.strip_prefix("github.") {
            return github
                .get(name)
                .map_or_else(String::new, |s| (*s).to_string());
        }
        panic!("an expression this runner does not know: {v}")
    };
    let summary = temp.join("summary.md");
    let gh_path = temp.join("path.txt");
    std::fs::write(&summary, "").unwrap();
    std::fs::write(&gh_path, "").unwrap();
    let mut ran = Vec::new();
    let mut failed = false;
    for step in action["runs"]["steps"].as_sequence().unwrap() {
        let name = text(step, "name");
        assert_eq!(text(step, "shell"), "bash", "{name}");
        let run = text(step, "run");
        assert!(
            !run.contains("${{"),
            "{name}: an expression pasted into a script"
        );
        let always = match step.get("if").and_then(Value::as_str) {
            None => false,
            Some("${{ !cancelled() }}") => true,
            Some(other) => panic!("{name}: an `if` this runner does not know: {other}"),
        };
        if failed && !always {
            continue;
        }
        let mut cmd = Command::new("bash");
        cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &run])
            .current_dir(dir)
            .env("PATH", path_with_bin())
            .env("HOME", temp)
            .env("SKILLSCOPE_CACHE_DIR", temp.join("cache"))
            .env("RUNNER_TEMP", temp)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_PATH", &gh_path)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null");
        if let Some(env) = step.get("env").and_then(Value::as_mapping) {
            for (k, v) in env {
                cmd.env(k.as_str().unwrap(), fill(v.as_str().unwrap_or_default()));
            }
        }
        let out = cmd.output().unwrap();
        eprintln!("step {name}:\n{}", said(&out));
        failed |= !out.status.success();
        ran.push(Ran {
            name,
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        });
    }
    (ran, std::fs::read_to_string(&summary).unwrap())
}

fn step<'a>(ran: &'a [Ran], name: &str) -> &'a Ran {
    ran.iter()
        .find(|r| r.name.contains(name))
        .unwrap_or_else(|| panic!("step {name} did not run"))
}

/// The action on a pull request: a valid change passes with the budget table as the job
/// summary; a broken skill fails the check step with an annotation on its file, and the budget
/// step still runs and fails the job on the skill that left the listings; inputs are data, never
/// code.
#[test]
fn the_action_checks_annotates_and_writes_the_budget_as_the_job_summary() {
    let t = tempfile::tempdir().unwrap();
    let repo = repo(t.path());
    let temp = t.path().join("runner");
    std::fs::create_dir_all(&temp).unwrap();
    crate::common::write(
        &repo.join("skills/beta/SKILL.md"),
        "---\nname: beta\ndescription: Draft release notes from merged pull requests. Use when the user prepares a release.\n---\n# Beta\n",
    );
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "beta"]);
    let inputs = BTreeMap::from([("path", "skills"), ("fail-on-increase", "500")]);
    let action_path = root();
    let github = BTreeMap::from([("action_path", action_path.to_str().unwrap())]);
    let (ran, summary) = run_action(&repo, &temp, &inputs, &github);
    assert_eq!(ran.len(), 3);
    for r in &ran {
        assert_eq!(r.code, Some(0), "{}", r.name);
    }
    assert!(
        step(&ran, "Install").stdout.contains("using "),
        "the binary on PATH is used"
    );
    assert!(summary.contains("### skillscope budget"), "{summary}");
    assert!(summary.contains("1 added"), "{summary}");

    // A broken skill: annotated, and the budget still runs and fails on the drop.
    crate::common::write(&repo.join("skills/alpha/SKILL.md"), BROKEN);
    git(&repo, &["commit", "-qam", "broken"]);
    let (ran, summary) = run_action(&repo, &temp, &inputs, &github);
    let check = step(&ran, "Check");
    assert_eq!(check.code, Some(1));
    assert!(
        check
            .stdout
            .contains("::error file=skills/alpha/SKILL.md,line="),
        "{}",
        check.stdout
    );
    let budget = step(&ran, "Budget");
    assert_eq!(budget.code, Some(1));
    assert!(summary.contains("left a listing"), "{summary}");

    // Inputs are arguments, not code: nothing of them runs.
    let marker = t.path().join("MARKER");
    let hostile = format!("$(touch {m}) `touch {m}`; touch {m}", m = marker.display());
    let inputs = BTreeMap::from([
        ("path", hostile.as_str()),
        ("check-args", hostile.as_str()),
        ("baseline-ref", hostile.as_str()),
        ("fail-on-increase", hostile.as_str()),
    ]);
    let (ran, _) = run_action(&repo, &temp, &inputs, &github);
    assert!(!marker.exists(), "an input ran as code");
    assert_eq!(step(&ran, "Check").code, Some(2));
    // A ref not in the clone (a shallow checkout) fails and says how to fetch it, never a pass
    // that compared nothing.
    let inputs = BTreeMap::from([("path", "skills"), ("baseline-ref", "no-such-ref")]);
    let (ran, _) = run_action(&repo, &temp, &inputs, &github);
    let budget = step(&ran, "Budget");
    assert_eq!(budget.code, Some(2));
    assert!(
        budget
            .stdout
            .contains("::error title=skillscope budget::no-such-ref is not in this clone"),
        "{}",
        budget.stdout
    );
}
