//! `probe --deps`: declared dependencies checked against the interpreter the skill would run
//! with, in the probe's sandbox, installing nothing. The fixture makes its own venv (offline:
//! only the packages `venv` puts there) with one requirement installed, one missing and one at a
//! version its specifier refuses; it skips when python3 or its venv module is absent.

use crate::common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh venv inside `skill`, or `None` (with the reason on stderr) when this machine cannot
/// make one. It is made with the system's Python: a probe runs a skill's `.venv` only when its
/// interpreter lies in the system folders or the skill (one a user's home holds, as pyenv's,
/// is refused).
fn venv(skill: &Path) -> Option<PathBuf> {
    let python = ["/usr/bin/python3", "/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .unwrap_or("python3");
    let made = Command::new(python)
        .args(["-m", "venv", ".venv"])
        .current_dir(skill)
        .output();
    match made {
        Ok(out) if out.status.success() => Some(skill.join(".venv/bin/python")),
        Ok(out) => {
            eprintln!(
                "skipping: `python3 -m venv` failed here: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            None
        }
        Err(e) => {
            eprintln!("skipping: no python3 to make a venv with ({e})");
            None
        }
    }
}

/// What the venv really holds, asked of its own interpreter.
fn installed(python: &Path) -> serde_json::Value {
    let out = Command::new(python)
        .args([
            "-c",
            "import json, importlib.metadata as m; print(json.dumps({d.metadata['Name'].lower(): d.version for d in m.distributions()}))",
        ])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn installed_missing_and_wrong_version_against_the_skills_own_venv() {
    let home = tempfile::tempdir().unwrap();
    let skill = home.path().join("lib/scraper");
    write(
        &skill.join("SKILL.md"),
        "---\nname: scraper\ndescription: Scrape web pages into text. Use when a URL is given.\ndependencies:\n  - pip>=1.0\n  - skillscope-test-not-installed==1.0\n---\nBody\n",
    );
    write(
        &skill.join("requirements.txt"),
        "# pinned too old on purpose\npip<1.0\n",
    );
    let Some(python) = venv(&skill) else { return };
    let before = installed(&python);
    let pip = before["pip"]
        .as_str()
        .expect("venv installs pip")
        .to_string();

    let lib = home.path().join("lib");
    let out = run(
        &["probe", "--deps", "--json", lib.to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1), "problems make the probe fail");
    let v = json(&out);
    let report = &v["dependencies"][0];
    assert_eq!(report["skill"], "scraper");
    assert_eq!(report["interpreter_from"], "the skill's .venv");
    assert!(
        report["interpreter"]
            .as_str()
            .unwrap()
            .ends_with("scraper/.venv/bin/python")
    );
    let states: Vec<(&str, &str)> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["requirement"].as_str().unwrap(),
                c["state"].as_str().unwrap(),
            )
        })
        .collect();
    // pip is declared in both places: one check, against the clauses of both.
    assert_eq!(
        states,
        [
            ("pip>=1.0, pip<1.0", "wrong-version"),
            ("skillscope-test-not-installed==1.0", "missing"),
        ]
    );
    assert_eq!(
        report["checks"][0]["origins"],
        serde_json::json!([{"from": "frontmatter", "index": 0}, {"from": "requirements-txt", "line": 2}])
    );
    assert_eq!(report["checks"][0]["installed"], pip.as_str());
    assert_eq!(report["checks"][0]["wanted"], ">=1.0,<1.0");
    // The fix is printed, never run.
    let install = report["install"].as_str().unwrap();
    assert_eq!(
        install,
        ".venv/bin/pip install -r requirements.txt 'pip>=1.0' skillscope-test-not-installed==1.0"
    );
    assert_eq!(installed(&python), before, "nothing was installed");
    let diags = report["diagnostics"].as_array().unwrap();
    let rule_at = |rule: &str| -> (String, u64) {
        let d = diags.iter().find(|d| d["rule"] == rule).unwrap();
        assert!(
            d["message"].as_str().unwrap().contains(install),
            "the message names the fix: {d}"
        );
        (
            d["path"].as_str().unwrap().to_string(),
            d["line"].as_u64().unwrap(),
        )
    };
    let (path, line) = rule_at("dependency-missing");
    assert!(path.ends_with("SKILL.md") && line == 4, "{path}:{line}");
    let (path, line) = rule_at("dependency-version");
    assert!(
        path.ends_with("requirements.txt") && line == 2,
        "{path}:{line}"
    );
    assert_eq!(v["summary"]["deps_failed"], 1);

    // The text report says the same.
    let text = run(&["probe", "--deps", lib.to_str().unwrap()], home.path());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("0 ok, 1 missing, 1 wrong version"), "{text}");
    assert!(
        text.contains(&format!(
            "`pip>=1.0, pip<1.0` (declared in `dependencies:` and requirements.txt line 2) wants >=1.0,<1.0, but {pip} is installed"
        )),
        "{text}"
    );
    assert!(text.contains("nothing was installed"), "{text}");
}

#[test]
fn the_interpreter_comes_from_the_entry_script_and_must_be_python() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipping: no python3");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("py-tool/SKILL.md"),
        "---\nname: py-tool\ndescription: A Python tool. Use for tests.\ndependencies:\n  - skillscope-test-not-installed\n---\n",
    );
    write(
        &lib.join("py-tool/execute.py"),
        "#!/usr/bin/env python3\nimport sys\n",
    );
    write(
        &lib.join("sh-tool/SKILL.md"),
        "---\nname: sh-tool\ndescription: A shell tool. Use for tests.\nentry: run.sh\ndependencies:\n  - requests\n---\n",
    );
    write(&lib.join("sh-tool/run.sh"), "#!/bin/sh\necho '{}'\n");
    let out = run(
        &["probe", "--deps", "--json", lib.to_str().unwrap()],
        home.path(),
    );
    let v = json(&out);
    let by = |name: &str| {
        v["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["skill"] == name)
            .unwrap()
            .clone()
    };
    let py = by("py-tool");
    assert_eq!(py["interpreter_from"], "the entry script's #! line");
    assert_eq!(py["checks"][0]["state"], "missing");
    assert!(
        py["install"]
            .as_str()
            .unwrap()
            .starts_with("python3 -m venv .venv && .venv/bin/pip install"),
        "{py}"
    );
    let sh = by("sh-tool");
    assert!(sh["error"].as_str().unwrap().contains("not Python"), "{sh}");
    assert!(
        sh["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == "dependency-unchecked")
    );
}

#[test]
fn nothing_runs_without_asking() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("a/SKILL.md"),
        "---\nname: a\ndescription: Declares a dependency. Use for tests.\ndependencies:\n  - requests\n---\n",
    );
    // Without --deps, `probe` checks no dependencies; `check` never runs an interpreter.
    let v = json(&run(
        &["probe", "--json", lib.to_str().unwrap()],
        home.path(),
    ));
    assert_eq!(v["dependencies"], serde_json::json!([]));
    let v = json(&run(
        &[
            "check",
            "--profile",
            "lazy-skills",
            "--format",
            "json",
            lib.to_str().unwrap(),
        ],
        home.path(),
    ));
    assert!(
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| !d["rule"].as_str().unwrap().starts_with("dependency-")),
        "{v}"
    );
}

#[test]
fn the_dependency_check_runs_in_the_help_json_probes_sandbox() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipping: no python3");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("py-tool/SKILL.md"),
        "---\nname: py-tool\ndescription: A Python tool. Use for tests.\ndependencies:\n  - skillscope-test-not-installed\n---\n",
    );
    let entry = lib.join("py-tool/execute.py");
    write(
        &entry,
        "#!/usr/bin/env python3\nimport json\nprint(json.dumps({'name': 'py-tool', 'description': 'd', 'parameters': {'type': 'object', 'properties': {}}}))\n",
    );
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let sandboxes = |force_group: bool| {
        let mut c = bin();
        c.args(["probe", "--deps", "--json", lib.to_str().unwrap()])
            .env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"))
            .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
            .env("HOME", home.path())
            .current_dir(home.path());
        if force_group {
            c.env("SKILLSCOPE_SANDBOX", "process-group");
        } else {
            c.env_remove("SKILLSCOPE_SANDBOX");
        }
        let v = json(&c.output().unwrap());
        let probe = v["skills"][0]["sandbox"].clone();
        let deps = v["dependencies"][0]["sandbox"].clone();
        assert!(probe.is_string(), "the --help-json probe ran: {v}");
        assert_eq!(
            v["dependencies"][0]["checks"][0]["state"], "missing",
            "the listing ran and answered: {v}"
        );
        (probe, deps)
    };
    // Whatever sandbox this kernel gives the probe, the dependency check gets the same one…
    let (probe, deps) = sandboxes(false);
    assert_eq!(deps, probe);
    // …and it follows the same preference.
    let (probe, deps) = sandboxes(true);
    assert_eq!(probe, "process-group");
    assert_eq!(deps, "process-group");
}

#[test]
fn the_text_report_shows_control_characters_escaped() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("odd/SKILL.md"),
        "---\nname: odd\ndescription: Declares odd dependencies. Use for tests.\n---\n",
    );
    // A terminal escape in a requirement line and in the requirement itself.
    write(
        &lib.join("odd/requirements.txt"),
        "req\u{1b}[2Jests>=1\nclean\u{1b}]0;title\u{7}\n",
    );
    let out = run(&["probe", "--deps", lib.to_str().unwrap()], home.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("odd"), "the skill is reported:\n{text}");
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "raw control characters reached the terminal:\n{text:?}"
    );
    assert!(text.contains("\\u{1b}") || text.contains("\\e"), "{text}");
}

#[test]
fn a_relative_path_reaches_the_skills_venv_for_both_probes_and_a_package_declared_twice_is_one_check()
 {
    let home = tempfile::tempdir().unwrap();
    let skill = home.path().join("lib/tool");
    write(
        &skill.join("SKILL.md"),
        "---\nname: tool\ndescription: A Python tool. Use for tests.\ntype: executable\ndependencies: [pip]\n---\n",
    );
    write(&skill.join("requirements.txt"), "pip>=1\n");
    // The schema says which interpreter answered.
    let entry = skill.join("execute.py");
    write(
        &entry,
        "#!/usr/bin/env python3\nimport json, sys\nprint(json.dumps({'name': 'tool', 'description': sys.executable, 'parameters': {'type': 'object'}}))\n",
    );
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let Some(python) = venv(&skill) else { return };
    // `lib`, relative to the folder skillscope runs in.
    let out = run(&["probe", "--deps", "--json", "lib"], home.path());
    let v = json(&out);
    let probe = &v["skills"][0];
    assert_eq!(probe["verdict"]["kind"], "ok", "{v}");
    assert_eq!(probe["interpreter_from"], "the skill's .venv", "{v}");
    let program = probe["command"][0].as_str().unwrap();
    assert!(
        Path::new(program).is_absolute() && program.ends_with("tool/.venv/bin/python"),
        "{program}"
    );
    let schema: serde_json::Value =
        serde_json::from_str(probe["schema_text"].as_str().unwrap()).unwrap();
    assert!(
        schema["description"]
            .as_str()
            .unwrap()
            .ends_with(".venv/bin/python"),
        "--help-json ran with the venv's interpreter: {schema}"
    );
    let deps = &v["dependencies"][0];
    assert_eq!(deps["interpreter_from"], "the skill's .venv", "{v}");
    assert!(deps["error"].is_null(), "{deps}");
    assert!(Path::new(deps["interpreter"].as_str().unwrap()).is_absolute());
    let checks = deps["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 1, "pip once: {deps}");
    assert_eq!(checks[0]["state"], "ok", "{deps}");
    assert_eq!(checks[0]["requirement"], "pip, pip>=1");
    assert_eq!(checks[0]["origins"].as_array().unwrap().len(), 2);
    assert_eq!(out.status.code(), Some(0), "{v}");
    drop(python);
}
