//! Probes of executable skills: run the entry script's `--help-json` in a sandbox and judge the
//! answer, and check the health of the scripts a skill ships. Only ever on explicit request.

pub(crate) mod dependencies;
mod interpreter;
mod report;
pub(crate) mod sandbox;
mod schema;
mod scripts;
mod store;
// Its hand parser is being replaced by the reference PEP 440/508 crates; documented then.
#[allow(missing_docs)]
pub mod deps;

use crate::core::library::Library;
use crate::core::skill::{DEFAULT_ENTRY, Skill, SkillKind};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

pub use sandbox::{
    Ending, HAS_SANDBOX, MAX_PROCESSES, Mode as SandboxMode, NO_SANDBOX,
    Preference as SandboxPreference, SANDBOX_ENV, WEAKER_MODE,
};

/// Names the skillscope binary, which the namespaces sandbox runs to set up each probe; see
/// [`sandbox_stage`]. Programs other than skillscope that use the library (tests) call it with
/// the binary's path, or their probes run in the process-group mode.
pub fn set_sandbox_program(path: impl Into<PathBuf>) {
    sandbox::set_stage_program(path);
}

/// Runs a stage of the namespaces sandbox when the command line asks for one, returning the exit
/// code; `None` otherwise. The skillscope binary calls it first thing in `main`.
pub fn sandbox_stage(args: &[OsString]) -> Option<i32> {
    sandbox::stage(args)
}
use report::MIB;
pub use report::{
    DEFAULT_TIMEOUT, OUTPUT_CAP, ProbeOptions, ProbeReport, Verdict, entry_name, probe_timeout,
    schema_name_fallback,
};
pub(crate) use report::{signal_name, stderr_tail, tail};
pub use store::ProbeStore;

/// Probes the given skills of a library, several at once, and calls `on_done` with the index and
/// report of each as it finishes (from the probing threads). Blocks until all are done, so run it
/// on a worker. Reports come back in the order of `indices`; indices out of range are skipped,
/// and so are skills not started before a cancel.
pub fn probe_all(
    lib: &Library,
    indices: &[usize],
    opts: &ProbeOptions,
    on_done: &(dyn Fn(usize, &ProbeReport) + Sync),
) -> Vec<ProbeReport> {
    let todo: Vec<usize> = indices
        .iter()
        .copied()
        .filter(|&i| i < lib.skills.len())
        .collect();
    let slots: Vec<Mutex<Option<ProbeReport>>> = todo.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&i) = todo.get(k) else { break };
            if opts.cancelled() {
                break;
            }
            let report = probe_skill(&lib.skills[i], opts);
            on_done(i, &report);
            *slots[k].lock().unwrap_or_else(PoisonError::into_inner) = Some(report);
        }
    };
    std::thread::scope(|s| {
        let mut started = 0;
        for _ in 0..opts.jobs().min(todo.len()) {
            let spawned = std::thread::Builder::new()
                .name("probe".into())
                .spawn_scoped(s, work);
            if spawned.is_ok() {
                started += 1;
            }
        }
        // Without any thread to spare, probe here rather than not at all.
        if started == 0 {
            work();
        }
    });
    slots
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect()
}

/// Probes one skill: `--help-json` when it is executable, and its scripts when asked.
pub fn probe_skill(skill: &Skill, opts: &ProbeOptions) -> ProbeReport {
    let mut report = ProbeReport::new(skill, opts);
    if skill.kind() == SkillKind::Executable {
        let verdict = help_json(skill, opts, &mut report);
        report.verdict = Some(verdict);
    }
    if opts.scripts {
        report.diagnostics = scripts::check(skill, opts);
    }
    report
}

fn help_json(skill: &Skill, opts: &ProbeOptions, report: &mut ProbeReport) -> Verdict {
    let name = entry_name(skill);
    let (dir, entry) = match locate_entry(&skill.dir, name) {
        Ok(found) => found,
        Err(why) => {
            return Verdict::NoEntry {
                entry: name.to_string(),
                why: why.to_string(),
            };
        }
    };
    report.entry = Some(entry.clone());
    let head = match interpreter::read_head(&entry) {
        Ok(h) => h,
        Err(e) => {
            return Verdict::NoEntry {
                entry: name.to_string(),
                why: format!("cannot be read: {e}"),
            };
        }
    };
    let inv = match interpreter::choose(&dir, Some((&entry, &head)), &interpreter::search_path()) {
        Ok(chosen) => {
            report.interpreter_from = Some(chosen.from.to_string());
            chosen.invocation
        }
        Err(m) => {
            return Verdict::NoInterpreter {
                interpreter: m.wanted,
                why: m.why,
            };
        }
    };
    let mut args: Vec<OsString> = inv.args;
    if !inv.direct {
        args.push(entry.clone().into_os_string());
    }
    args.push(OsString::from("--help-json"));
    report.command = std::iter::once(inv.program.as_os_str())
        .chain(args.iter().map(OsString::as_os_str))
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let spec = sandbox::RunSpec {
        program: inv.program.clone(),
        args,
        cwd: dir,
        timeout: opts.timeout_for(skill),
        output_cap: opts.output_cap,
        sandbox: opts.sandbox,
        isolated: None,
    };
    let out = match sandbox::run(&spec, opts.cancel.as_deref()) {
        Ok(o) => o,
        Err(e) => {
            return Verdict::NoInterpreter {
                interpreter: inv.program.to_string_lossy().into_owned(),
                why: format!("`{}` cannot be started: {e}", inv.program.display()),
            };
        }
    };
    report.pid = out.pid;
    report.sandbox = Some(out.mode);
    report.sandbox_fallback.clone_from(&out.fallback);
    report.exit_code = out.exit_code();
    report.elapsed_ms = u64::try_from(out.elapsed.as_millis()).unwrap_or(u64::MAX);
    report.stdout_bytes = out.stdout.total;
    report.stderr_bytes = out.stderr.total;
    report.killed_descendants = out.killed_descendants;
    judge(skill, &out, opts, report)
}

/// Why a skill's entry script cannot be probed, said of the entry (`… is not a file`).
#[derive(Debug, thiserror::Error)]
enum EntryError {
    /// The skill folder cannot be resolved.
    #[error("cannot be looked for: the skill folder is unreadable ({0})")]
    Folder(std::io::Error),
    /// No such file in the skill folder; `default` when it is the default entry's name.
    #[error("is not in the skill folder{}", if *default { " (name another one with `entry:` in the frontmatter)" } else { "" })]
    Missing {
        /// Whether the name is the default entry's (no `entry:` named it).
        default: bool,
    },
    /// It cannot be resolved.
    #[error("cannot be read: {0}")]
    Unreadable(std::io::Error),
    /// It resolves outside the skill folder.
    #[error("points outside the skill folder")]
    Outside,
    /// It is not a regular file.
    #[error("is not a file")]
    NotAFile,
}

/// Finds the entry script inside the skill folder: (the folder, the script), both canonical. The
/// error says why there is none.
fn locate_entry(dir: &Path, name: &str) -> Result<(PathBuf, PathBuf), EntryError> {
    let dir = dir.canonicalize().map_err(EntryError::Folder)?;
    let path = match dir.join(name).canonicalize() {
        Ok(p) => p,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(EntryError::Missing {
                default: name == DEFAULT_ENTRY,
            });
        }
        Err(e) => return Err(EntryError::Unreadable(e)),
    };
    if !path.starts_with(&dir) {
        return Err(EntryError::Outside);
    }
    if !path.is_file() {
        return Err(EntryError::NotAFile);
    }
    Ok((dir, path))
}

fn judge(
    skill: &Skill,
    out: &sandbox::Outcome,
    opts: &ProbeOptions,
    report: &mut ProbeReport,
) -> Verdict {
    match out.ending {
        Ending::TimedOut => {
            return Verdict::Timeout {
                after_ms: u64::try_from(opts.timeout_for(skill).as_millis()).unwrap_or(u64::MAX),
            };
        }
        Ending::Cancelled => return Verdict::Cancelled,
        Ending::Exited => {}
    }
    if out.exit_code() != Some(0) {
        return Verdict::Crashed {
            exit_code: out.exit_code(),
            signal: out.signal().map(signal_name),
            stderr_tail: stderr_tail(&out.stderr.bytes),
            limit: out.limit.map(|l| match l {
                sandbox::Limit::Processes => "processes".to_string(),
            }),
        };
    }
    if out.stdout.truncated() {
        let over = format!(
            "{:.1} MiB on stdout, over the {:.1} MiB a schema may take",
            out.stdout.total as f64 / MIB,
            opts.output_cap as f64 / MIB
        );
        // Show where the kept part goes wrong, unless it is fine up to the cut.
        return match schema::parse(&out.stdout.bytes) {
            Err(e) if !e.eof => Verdict::NotJson {
                at_byte: e.at_byte,
                offending: e.offending,
                error: format!("{}; {over}", e.error),
            },
            _ => Verdict::NotJson {
                at_byte: out.stdout.bytes.len(),
                offending: schema::snippet(&[]),
                error: over,
            },
        };
    }
    let value = match schema::parse(&out.stdout.bytes) {
        Ok(v) => v,
        Err(e) => {
            return Verdict::NotJson {
                at_byte: e.at_byte,
                offending: e.offending,
                error: e.error,
            };
        }
    };
    report.schema_text = serde_json::to_string(&value).ok();
    let fallback = schema_name_fallback(skill.agent);
    match schema::check(&value, fallback) {
        Err(bad) => Verdict::BadSchema {
            key: bad.key,
            problem: bad.problem,
        },
        Ok(Some(found)) if found == skill.name => Verdict::Ok,
        // `schema.get("name", name)`: the schema's own name where it has one.
        Ok(found) if fallback => Verdict::NameFallback {
            expected: skill.name.clone(),
            found: found.map(str::to_string),
            registered: found.unwrap_or(&skill.name).to_string(),
        },
        Ok(found) => Verdict::NameMismatch {
            expected: skill.name.clone(),
            found: found.unwrap_or_default().to_string(),
        },
    }
}

// The probe runs in the sandbox, which Unix systems have.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};
    use std::os::unix::fs::PermissionsExt;
    use std::time::Duration;

    /// One executable skill named `tool` whose `--help-json` prints `schema`, read as `agent`'s.
    fn tool(agent: Agent, schema: &str) -> (tempfile::TempDir, Library) {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("tool");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: tool\ndescription: A tool. Use when asked.\ntype: executable\nentry: run.sh\n---\n",
        )
        .unwrap();
        let script = dir.join("run.sh");
        std::fs::write(&script, format!("#!/bin/sh\necho '{schema}'\n")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let lib = Library::load(
            vec![Root::new(t.path(), agent, Scope::User)],
            &ScanOptions::default(),
        );
        (t, lib)
    }

    fn verdict(agent: Agent, schema: &str) -> (Verdict, ProbeReport) {
        let (_t, lib) = tool(agent, schema);
        let r = probe_skill(&lib.skills[0], &ProbeOptions::default());
        (r.verdict.clone().unwrap(), r)
    }

    #[test]
    fn the_wait_is_the_agents() {
        assert_eq!(probe_timeout(Agent::LazySkills), Duration::from_secs(5));
        for a in Agent::ALL
            .iter()
            .copied()
            .filter(|&a| a != Agent::LazySkills)
        {
            assert_eq!(probe_timeout(a), DEFAULT_TIMEOUT, "{a:?}");
        }
        let ok = r#"{"name":"tool","description":"d","parameters":{"type":"object"}}"#;
        assert_eq!(verdict(Agent::LazySkills, ok).1.timeout_ms, 5_000);
        assert_eq!(verdict(Agent::Path, ok).1.timeout_ms, 10_000);
        let (_t, lib) = tool(Agent::LazySkills, ok);
        let asked = ProbeOptions {
            timeout: Some(Duration::from_secs(2)),
            ..ProbeOptions::default()
        };
        assert_eq!(probe_skill(&lib.skills[0], &asked).timeout_ms, 2_000);
    }

    #[test]
    fn a_lazy_skills_agent_registers_a_schema_under_its_own_name_else_the_skills() {
        let nameless = r#"{"description":"d","parameters":{"type":"object"}}"#;
        let misnamed = r#"{"name":"other","description":"d","parameters":{"type":"object"}}"#;
        let (v, r) = verdict(Agent::LazySkills, nameless);
        assert_eq!(
            v,
            Verdict::NameFallback {
                expected: "tool".into(),
                found: None,
                registered: "tool".into(),
            }
        );
        assert!(v.is_ok() && v.is_warning() && !r.probe_failed());
        assert!(r.schema_text.is_some(), "its schema still counts in L3");
        assert_eq!(
            v.rule()
                .info()
                .severity_under(crate::core::findings::catalogue::Profile::LazySkills),
            Some(crate::core::findings::diagnostic::Severity::Warning)
        );
        assert!(
            v.detail().contains("registered as \"tool\""),
            "{}",
            v.detail()
        );
        let (v, _) = verdict(Agent::LazySkills, misnamed);
        assert_eq!(
            v,
            Verdict::NameFallback {
                expected: "tool".into(),
                found: Some("other".into()),
                registered: "other".into(),
            }
        );
        assert!(
            v.detail().contains("registered as \"other\", its own name"),
            "{}",
            v.detail()
        );
        // Elsewhere both stay errors.
        let (v, r) = verdict(Agent::Path, nameless);
        assert!(
            matches!(&v, Verdict::BadSchema { key, .. } if key == "name"),
            "{v:?}"
        );
        assert!(r.probe_failed());
        let (v, _) = verdict(Agent::ClaudeCode, misnamed);
        assert!(matches!(v, Verdict::NameMismatch { .. }), "{v:?}");
    }
}
