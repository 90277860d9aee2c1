//! Probes against hostile executables: each gets its verdict, the kill logic keeps its deadline,
//! nothing they start survives, and progress reaches a caller on another thread.

use skillscope::core::probe::{
    self, ProbeOptions, ProbeReport, SandboxMode, SandboxPreference, Verdict,
};
use skillscope::core::scan::ScanOptions;
use skillscope::core::{Agent, Library, Root, Scope, Severity};
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Tests that start fixture processes run one at a time, so that the search for survivors of one
/// test never sees the live processes of another.
static PROCESSES: Mutex<()> = Mutex::new(());

const TIMEOUT: Duration = Duration::from_secs(2);

/// Lets probes run in the namespaces mode from this test binary: it is not skillscope, so it
/// names the binary that sets the sandbox up.
fn sandbox_program() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| probe::set_sandbox_program(env!("CARGO_BIN_EXE_skillscope")));
}

/// Options for one of the two sandboxes.
fn options(sandbox: SandboxPreference) -> ProbeOptions {
    sandbox_program();
    ProbeOptions {
        sandbox,
        ..ProbeOptions::default()
    }
}

/// The mode a preference gets here: namespaces may be refused by the kernel (then the tests of
/// that mode check the fallback instead, and say so).
fn expected_mode(sandbox: SandboxPreference, report: &ProbeReport) -> SandboxMode {
    match (sandbox, report.sandbox) {
        (SandboxPreference::ProcessGroup, _) => SandboxMode::ProcessGroup,
        (_, Some(SandboxMode::ProcessGroup)) => {
            eprintln!(
                "namespaces refused here, checking the fallback: {:?}",
                report.sandbox_fallback
            );
            SandboxMode::ProcessGroup
        }
        _ if cfg!(target_os = "macos") => SandboxMode::Seatbelt,
        _ => SandboxMode::Namespaces,
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/probe")
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Git may lose the run bit; put it back on every entry script.
fn hostile_library() -> Library {
    let dir = fixtures().join("hostile");
    for skill in std::fs::read_dir(&dir).unwrap() {
        for f in std::fs::read_dir(skill.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            if p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("execute.")
            {
                set_mode(&p, 0o755);
            }
        }
    }
    library_at(&dir)
}

fn library_at(dir: &Path) -> Library {
    Library::load(
        vec![Root::new(dir, Agent::Path, Scope::Path)],
        &ScanOptions::default(),
    )
}

/// Processes still present (zombies included) that belong to one of the probed process groups
/// or whose command line holds `marker`.
fn survivors(groups: &[u32], marker: &str) -> Vec<String> {
    let me = std::process::id();
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // Fields after the command name: state, ppid, pgrp, …
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        let pgrp: u32 = fields.get(2).and_then(|f| f.parse().ok()).unwrap_or(0);
        let cmdline = std::fs::read(e.path().join("cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default();
        if groups.contains(&pgrp) || cmdline.contains(marker) {
            found.push(format!(
                "pid {pid} pgrp {pgrp} state {}: {cmdline}",
                fields[0]
            ));
        }
    }
    found
}

fn by_name(reports: &[ProbeReport]) -> BTreeMap<&str, &ProbeReport> {
    reports.iter().map(|r| (r.skill.as_str(), r)).collect()
}

fn verdict<'a>(reports: &BTreeMap<&str, &'a ProbeReport>, name: &str) -> &'a Verdict {
    reports[name]
        .verdict
        .as_ref()
        .unwrap_or_else(|| panic!("{name} was not probed"))
}

#[test]
fn hostile_executables_get_their_verdicts_and_leave_nothing_behind_namespaces() {
    hostile_executables(SandboxPreference::Strongest);
}

#[test]
fn hostile_executables_get_their_verdicts_and_leave_nothing_behind_process_group() {
    hostile_executables(SandboxPreference::ProcessGroup);
}

fn hostile_executables(sandbox: SandboxPreference) {
    let _serial = PROCESSES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let lib = Arc::new(hostile_library());
    assert_eq!(
        lib.len(),
        12,
        "fixture skills: {:?}",
        lib.skills.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    let indices: Vec<usize> = (0..lib.len()).collect();
    // Every probe at once: the bound below is about the kill logic, not about queueing.
    let opts = ProbeOptions {
        timeout: Some(TIMEOUT),
        jobs: indices.len(),
        ..options(sandbox)
    };

    // Run as the TUI does: on a worker, with progress coming back over a channel.
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    let worker = {
        let lib = Arc::clone(&lib);
        let indices = indices.clone();
        std::thread::spawn(move || {
            let tx = Mutex::new(tx);
            probe::probe_all(&lib, &indices, &opts, &|i, r: &ProbeReport| {
                let _ = tx.lock().unwrap().send((
                    i,
                    r.verdict
                        .as_ref()
                        .map(skillscope::core::probe::Verdict::name),
                ));
            })
        })
    };
    let first = rx.recv().unwrap();
    assert!(
        !worker.is_finished(),
        "progress must arrive while the run goes on (first: {first:?})"
    );
    let mut progress = vec![first];
    progress.extend(rx.iter());
    let reports = worker.join().unwrap();
    let elapsed = start.elapsed();

    assert!(
        elapsed < TIMEOUT + Duration::from_secs(1),
        "a full run must end within timeout + 1 s, took {elapsed:?}"
    );
    let mut reported: Vec<usize> = progress.iter().map(|(i, _)| *i).collect();
    reported.sort_unstable();
    assert_eq!(
        reported, indices,
        "each skill reports progress exactly once"
    );
    assert_eq!(reports.len(), indices.len());
    for (r, i) in reports.iter().zip(&indices) {
        assert_eq!(
            r.skill, lib.skills[*i].name,
            "reports come back in the order asked"
        );
    }

    let r = by_name(&reports);
    let mode = expected_mode(sandbox, r["good"]);
    for report in &reports {
        if let Some(m) = report.sandbox {
            assert_eq!(m, mode, "{}", report.skill);
        }
    }
    assert_eq!(r["no-entry"].sandbox, None, "nothing ran");
    assert_eq!(r["no-interpreter"].sandbox, None, "nothing ran");
    assert_eq!(verdict(&r, "good"), &Verdict::Ok);
    let schema = r["good"].schema_text.as_deref().unwrap();
    let schema: serde_json::Value = serde_json::from_str(schema).unwrap();
    assert_eq!(schema["parameters"]["required"][0], "message");

    assert!(matches!(
        verdict(&r, "sleeps-forever"),
        Verdict::Timeout { .. }
    ));
    assert!(matches!(
        verdict(&r, "forks-sleeper"),
        Verdict::Timeout { .. }
    ));
    assert!(
        r["forks-sleeper"].killed_descendants >= 1,
        "the forked sleeper is killed and reaped with its parent"
    );

    // It answered and exited; the child holding its stdout must neither hold up the verdict
    // nor survive.
    assert_eq!(verdict(&r, "leaves-child"), &Verdict::Ok);
    assert!(r["leaves-child"].killed_descendants >= 1);

    let Verdict::NotJson { error, .. } = verdict(&r, "floods-stdout") else {
        panic!("floods-stdout: {:?}", verdict(&r, "floods-stdout"));
    };
    assert!(error.contains("MiB"), "{error}");
    assert_eq!(
        r["floods-stdout"].stdout_bytes,
        100 * 1024 * 1024,
        "read to the end, not blocked"
    );
    assert_eq!(verdict(&r, "floods-stderr"), &Verdict::Ok);
    assert_eq!(r["floods-stderr"].stderr_bytes, 100 * 1024 * 1024);

    let Verdict::NotJson {
        at_byte, offending, ..
    } = verdict(&r, "prints-garbage")
    else {
        panic!("prints-garbage: {:?}", verdict(&r, "prints-garbage"));
    };
    assert_eq!(*at_byte, 0);
    assert!(offending.starts_with("Usage: execute.sh"), "{offending}");

    let Verdict::Crashed {
        exit_code,
        signal,
        stderr_tail,
        limit,
    } = verdict(&r, "exits-3")
    else {
        panic!("exits-3: {:?}", verdict(&r, "exits-3"));
    };
    assert_eq!(
        (*exit_code, signal.as_deref(), limit),
        (Some(3), None, &None)
    );
    assert!(
        stderr_tail.ends_with("fatal: config file not found"),
        "{stderr_tail}"
    );

    assert_eq!(
        verdict(&r, "wrong-schema"),
        &Verdict::BadSchema {
            key: "parameters.type".into(),
            problem: "is \"array\"; must be \"object\"".into()
        }
    );
    assert_eq!(
        verdict(&r, "other-name"),
        &Verdict::NameMismatch {
            expected: "other-name".into(),
            found: "other_name_tool".into()
        }
    );
    assert!(
        matches!(verdict(&r, "no-entry"), Verdict::NoEntry { entry, .. } if entry == "execute.py")
    );
    assert!(matches!(
        verdict(&r, "no-interpreter"),
        Verdict::NoInterpreter { interpreter, .. } if interpreter == "/nonexistent/bin/python9"
    ));

    let started = reports.iter().filter(|r| r.sandbox.is_some()).count();
    assert_eq!(started, 10, "every skill with a runnable entry was started");
    // In the process-group mode each pid is a group to search; in the namespaces mode the
    // command line is enough (and a pid may be missing: the entry ended before it was seen).
    let groups: Vec<u32> = match mode {
        SandboxMode::ProcessGroup | SandboxMode::Seatbelt => {
            let g: Vec<u32> = reports.iter().filter_map(|r| r.pid).collect();
            assert_eq!(g.len(), 10, "each started entry has its group id");
            g
        }
        SandboxMode::Namespaces => Vec::new(),
    };
    let marker = fixtures().join("hostile").canonicalize().unwrap();
    let left = survivors(&groups, &marker.to_string_lossy());
    assert!(
        left.is_empty(),
        "processes left behind:\n{}",
        left.join("\n")
    );
}

#[test]
fn cancelling_kills_a_running_probe_namespaces() {
    cancelling_kills_a_running_probe(SandboxPreference::Strongest);
}

#[test]
fn cancelling_kills_a_running_probe_process_group() {
    cancelling_kills_a_running_probe(SandboxPreference::ProcessGroup);
}

fn cancelling_kills_a_running_probe(sandbox: SandboxPreference) {
    let _serial = PROCESSES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let lib = hostile_library();
    let skill = lib.skills[lib.find("sleeps-forever").unwrap()].clone();
    let cancel = Arc::new(AtomicBool::new(false));
    let opts = ProbeOptions {
        timeout: Some(Duration::from_mins(5)),
        cancel: Some(Arc::clone(&cancel)),
        ..options(sandbox)
    };
    let worker = std::thread::spawn(move || probe::probe_skill(&skill, &opts));
    let marker = fixtures()
        .join("hostile/sleeps-forever")
        .canonicalize()
        .unwrap();
    let marker = marker.to_string_lossy().into_owned();
    let waited = Instant::now();
    while survivors(&[], &marker).is_empty() {
        assert!(
            waited.elapsed() < Duration::from_secs(30),
            "the probe never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    cancel.store(true, Ordering::Relaxed);
    let report = worker.join().unwrap();
    assert_eq!(report.verdict, Some(Verdict::Cancelled));
    assert_eq!(report.sandbox, Some(expected_mode(sandbox, &report)));
    let left = survivors(&report.pid.into_iter().collect::<Vec<_>>(), &marker);
    assert!(
        left.is_empty(),
        "processes left behind:\n{}",
        left.join("\n")
    );
}

/// A skill in a temporary folder whose entry script is `script`, named `entry`.
fn temp_skill(name: &str, entry: &str, script: &[u8]) -> (tempfile::TempDir, Library) {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: A test tool.\ntype: executable\nentry: {entry}\n---\n"
        ),
    )
    .unwrap();
    if let Some(parent) = dir.join(entry).parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(dir.join(entry), script).unwrap();
    let lib = library_at(t.path());
    (t, lib)
}

#[test]
fn only_help_json_is_asked_in_the_skill_folder_with_a_bare_environment_namespaces() {
    only_help_json_with_a_bare_environment(SandboxPreference::Strongest);
}

#[test]
fn only_help_json_is_asked_in_the_skill_folder_with_a_bare_environment_process_group() {
    only_help_json_with_a_bare_environment(SandboxPreference::ProcessGroup);
}

fn only_help_json_with_a_bare_environment(sandbox: SandboxPreference) {
    let _serial = PROCESSES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // Records how it was called in its answer's description (the skill folder may be
    // read-only), one `|`-separated item each, quotes and backslashes dropped.
    let script = br#"#!/bin/sh
rec=$({ printf 'args:%s\n' "$*"; printf 'cwd:%s\n' "$(pwd)"; env | sort; } | tr -d '"\\' | tr '\n' '|')
printf '{"name": "recorder", "description": "%s", "parameters": {"type": "object"}}\n' "$rec"
"#;
    let (t, lib) = temp_skill("recorder", "execute.sh", script);
    let report = probe::probe_skill(&lib.skills[0], &options(sandbox));
    assert_eq!(report.verdict, Some(Verdict::Ok), "{report:?}");
    assert_eq!(report.sandbox, Some(expected_mode(sandbox, &report)));
    let schema: serde_json::Value =
        serde_json::from_str(report.schema_text.as_deref().unwrap()).unwrap();
    let called = schema["description"].as_str().unwrap().to_string();
    let lines: Vec<&str> = called.split('|').filter(|l| !l.is_empty()).collect();
    assert_eq!(lines[0], "args:--help-json");
    let dir = t.path().join("recorder").canonicalize().unwrap();
    assert_eq!(lines[1], format!("cwd:{}", dir.display()));
    let env: BTreeMap<&str, &str> = lines[2..]
        .iter()
        .filter_map(|l| l.split_once('='))
        .collect();
    let names: BTreeSet<&str> = env.keys().copied().collect();
    // sh itself adds PWD (and may add OLDPWD/SHLVL); nothing else of this process may leak in.
    let allowed = [
        "HOME",
        "LANG",
        "OLDPWD",
        "PATH",
        "PWD",
        "PYTHONDONTWRITEBYTECODE",
        "SHLVL",
        "TMPDIR",
    ];
    for n in &names {
        assert!(allowed.contains(n), "unexpected variable {n} in {names:?}");
    }
    assert_eq!(env["LANG"], "C.UTF-8");
    assert_eq!(env["HOME"], env["TMPDIR"]);
    assert_ne!(Some(env["HOME"]), std::env::var("HOME").ok().as_deref());
    assert!(
        !Path::new(env["HOME"]).exists(),
        "the temporary home is removed afterwards"
    );
}

#[test]
fn entries_outside_the_folder_or_binaries_are_handled() {
    let _serial = PROCESSES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (_t, lib) = temp_skill("escape", "../outside.sh", b"#!/bin/sh\necho hi\n");
    let report = probe::probe_skill(&lib.skills[0], &options(SandboxPreference::Strongest));
    assert!(
        matches!(&report.verdict, Some(Verdict::NoEntry { why, .. }) if why.contains("outside")),
        "{:?}",
        report.verdict
    );
    assert_eq!(report.pid, None, "nothing was run");

    // A compiled entry runs directly: `echo` answers `--help-json` by echoing it.
    let echo = std::fs::read("/bin/echo").unwrap();
    let (t, lib) = temp_skill("binary", "bin/tool", &echo);
    set_mode(&t.path().join("binary/bin/tool"), 0o755);
    let report = probe::probe_skill(&lib.skills[0], &options(SandboxPreference::Strongest));
    let tool = t.path().join("binary/bin/tool").canonicalize().unwrap();
    assert_eq!(
        report.command,
        vec![tool.to_string_lossy().into_owned(), "--help-json".into()]
    );
    assert!(
        matches!(report.verdict, Some(Verdict::NotJson { .. })),
        "{:?}",
        report.verdict
    );
    assert_eq!(report.stdout_bytes, "--help-json\n".len() as u64);
}

fn script_findings(report: &ProbeReport) -> BTreeSet<(&'static str, String)> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            let file = d.path.as_ref().expect("script findings name their file");
            (
                d.rule.as_str(),
                file.file_name().unwrap().to_string_lossy().into_owned(),
            )
        })
        .collect()
}

#[test]
fn script_health_names_each_defect_and_its_file() {
    let _serial = PROCESSES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = fixtures().join("scripts");
    let scripts = dir.join("scripts-health/scripts");
    for (f, mode) in [
        ("build.sh", 0o644),
        ("report.py", 0o755),
        ("convert", 0o755),
        ("fine.sh", 0o755),
        ("broken-help.sh", 0o755),
        ("deploy.sh", 0o755),
    ] {
        set_mode(&scripts.join(f), mode);
    }
    let lib = library_at(&dir);
    let skill = &lib.skills[lib.find("scripts-health").unwrap()];
    let opts = ProbeOptions {
        scripts: true,
        timeout: Some(TIMEOUT),
        ..options(SandboxPreference::Strongest)
    };
    let report = probe::probe_skill(skill, &opts);
    assert_eq!(
        report.verdict, None,
        "a contextual skill has no --help-json to probe"
    );
    let expected: BTreeSet<(&str, String)> = [
        ("script-not-executable", "build.sh"),
        ("script-no-interpreter", "convert"),
        ("script-no-shebang", "report.py"),
    ]
    .into_iter()
    .map(|(r, f)| (r, f.to_string()))
    .collect();
    assert_eq!(script_findings(&report), expected);
    let severity = |rule: &str| {
        report
            .diagnostics
            .iter()
            .find(|d| d.rule == rule)
            .unwrap()
            .severity
    };
    assert_eq!(severity("script-no-interpreter"), Severity::Error);
    assert_eq!(severity("script-not-executable"), Severity::Warning);

    let deployed = dir.join("scripts-health/DEPLOYED");
    let _ = std::fs::remove_file(&deployed);
    let smoke = ProbeOptions {
        smoke: true,
        ..opts
    };
    let smoked = probe::probe_skill(skill, &smoke);
    let mut with_smoke = expected.clone();
    with_smoke.insert(("script-smoke-failed", "broken-help.sh".to_string()));
    // deploy.sh never mentions --help: running it would deploy.
    with_smoke.insert(("script-smoke-skipped", "deploy.sh".to_string()));
    assert_eq!(script_findings(&smoked), with_smoke);
    assert!(!deployed.exists(), "a script that ignores --help was run");
}

fn skillscope(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn cli_prints_one_line_per_skill_and_fails_on_any_failed_probe() {
    let _serial = PROCESSES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    hostile_library();
    let good = fixtures().join("hostile/good");
    let bad = fixtures().join("hostile/exits-3");
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());

    let out = skillscope(&["probe", good, "--timeout", "5"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("ok ") && first.contains(" good "),
        "{first}"
    );
    assert!(!text.contains('\x1b'), "no colour off a terminal");

    let out = skillscope(&["probe", good, bad, "--timeout", "5", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: BTreeMap<&str, &str> = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["skill"].as_str().unwrap(),
                s["verdict"]["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        BTreeMap::from([("exits-3", "crashed"), ("good", "ok")])
    );
    assert_eq!(doc["summary"]["failed"], 1);
    let crashed = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["skill"] == "exits-3")
        .unwrap();
    assert_eq!(crashed["verdict"]["exit_code"], 3);

    let out = skillscope(&["probe", good, "--smoke"]);
    assert_eq!(out.status.code(), Some(2), "--smoke needs --scripts");
}

#[test]
fn the_demo_library_executables_pass() {
    let _serial = PROCESSES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let lib = library_at(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/skills"));
    let executables: Vec<usize> = (0..lib.len())
        .filter(|&i| lib.skills[i].kind() == skillscope::core::SkillKind::Executable)
        .collect();
    assert_eq!(executables.len(), 2, "the demo ships two executable skills");
    let opts = options(SandboxPreference::Strongest);
    for r in probe::probe_all(&lib, &executables, &opts, &|_, _| {}) {
        assert_eq!(r.verdict, Some(Verdict::Ok), "{}: {:?}", r.skill, r.verdict);
        assert!(r.schema_text.is_some());
    }
}

#[test]
fn each_skill_waits_as_long_as_its_agent_does() {
    let _serial = PROCESSES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // One executable skill in the Lazy Skills folder, whose design waits 5 s.
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join(".config/cli-agent/skills/tool");
    crate::common::write(
        &dir.join("SKILL.md"),
        "---\nname: tool\ndescription: A tool. Use when asked.\ntype: executable\nauto_load: true\nentry: run.sh\n---\n",
    );
    crate::common::write(
        &dir.join("run.sh"),
        "#!/bin/sh\necho '{\"name\":\"tool\",\"description\":\"d\",\"parameters\":{\"type\":\"object\"}}'\n",
    );
    let v = crate::common::json(&crate::common::run(&["probe", "--json"], home.path()));
    assert!(v["timeout_ms"].is_null(), "{v}");
    assert_eq!(v["skills"][0]["skill"], "tool", "{v}");
    assert_eq!(v["skills"][0]["timeout_ms"], 5_000, "{v}");
    // The same folder given by path is no agent's: 10 s; --timeout overrides both.
    let v = crate::common::json(&crate::common::run(
        &["probe", "--json", dir.to_str().unwrap()],
        home.path(),
    ));
    assert_eq!(v["skills"][0]["timeout_ms"], 10_000, "{v}");
    let v = crate::common::json(&crate::common::run(
        &["probe", "--json", "--timeout", "3"],
        home.path(),
    ));
    assert_eq!(v["timeout_ms"], 3_000);
    assert_eq!(v["skills"][0]["timeout_ms"], 3_000, "{v}");
}
