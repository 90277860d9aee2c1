//! Declared dependencies checked against the interpreter the skill would run with (the rule
//! `--help-json` follows too: its own `.venv` by absolute path, else its entry script's `#!` line
//! or extension), by a one-line Python listing of the installed distributions, run in the same
//! sandbox as `--help-json`. A package declared in both `dependencies:` and `requirements.txt` is
//! one check naming both places. Nothing is installed: the report carries the command that would.

use super::{ProbeOptions, interpreter, sandbox};
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::library::Library;
use crate::core::probe::deps::{self, Declared, Origin, Requirement};
use crate::core::skill::{Skill, SkillKind};
use serde::Serialize;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Lists installed distributions as JSON; the first of a name on `sys.path` is the one imported.
const LIST_INSTALLED: &str = "import json, sys\n\
try:\n    from importlib import metadata as m\n\
except ImportError:\n    import importlib_metadata as m\n\
found = {}\n\
for d in m.distributions():\n    name = d.metadata.get('Name') if d.metadata else None\n    if name:\n        found.setdefault(name, d.version)\n\
print(json.dumps({'python': sys.version.split()[0], 'packages': found}))\n";

/// What became of one declared requirement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum DepState {
    /// Installed at a version every clause accepts.
    Ok {
        /// The version installed.
        installed: String,
    },
    /// Not installed.
    Missing,
    /// Installed at a version a clause refuses.
    WrongVersion {
        /// The version installed.
        installed: String,
        /// The clause it fails.
        wanted: String,
    },
    /// Not a valid specifier (found without running anything).
    Invalid {
        /// Why it does not parse.
        error: String,
    },
}

/// One declared requirement, where it is declared, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DepCheck {
    /// The requirement as written (each distinct spelling once, when it is declared twice).
    pub requirement: String,
    /// Where it is declared: one place, or both `dependencies:` and `requirements.txt`.
    pub origins: Vec<Origin>,
    /// Which of `origins` a diagnostic points at: the one whose clause the installed version
    /// fails.
    #[serde(skip)]
    pub blame: usize,
    /// What became of it.
    #[serde(flatten)]
    pub state: DepState,
}

/// Everything the dependency check learned about one skill.
#[derive(Debug, Clone, Serialize)]
pub struct DepsReport {
    /// The skill's name.
    pub skill: String,
    /// Its folder.
    pub dir: PathBuf,
    /// The interpreter the skill would run with, and why that one.
    pub interpreter: Option<PathBuf>,
    /// Why that interpreter (the entry script's shebang, a default).
    pub interpreter_from: String,
    /// Its version, as it reported it.
    pub python: Option<String>,
    /// The command as run (program, arguments).
    pub command: Vec<String>,
    /// The sandbox it ran in (the `--help-json` probes' own); `None` when nothing ran.
    pub sandbox: Option<sandbox::Mode>,
    /// Why the weaker process-group mode ran, when it did.
    pub sandbox_fallback: Option<String>,
    /// One per declared requirement.
    pub checks: Vec<DepCheck>,
    /// Why the installed packages could not be listed, when they could not.
    pub error: Option<String>,
    /// The command that would install what the skill declares; skillscope never runs it.
    pub install: String,
    /// The findings, each with its file and line.
    pub diagnostics: Vec<Diagnostic>,
}

impl DepsReport {
    /// How many checks are in a state `f` accepts.
    pub fn count(&self, f: impl Fn(&DepState) -> bool) -> usize {
        self.checks.iter().filter(|c| f(&c.state)).count()
    }

    /// Any requirement missing, at a wrong version, invalid, or the check could not run.
    pub fn failed(&self) -> bool {
        self.error.is_some()
            || self
                .checks
                .iter()
                .any(|c| !matches!(c.state, DepState::Ok { .. }))
    }

    /// `2 ok, 1 missing, 1 wrong version`.
    pub fn summary(&self) -> String {
        if let Some(e) = &self.error {
            return format!("not checked: {e}");
        }
        let mut parts = vec![format!(
            "{} ok",
            self.count(|s| matches!(s, DepState::Ok { .. }))
        )];
        for (n, what) in [
            (self.count(|s| matches!(s, DepState::Missing)), "missing"),
            (
                self.count(|s| matches!(s, DepState::WrongVersion { .. })),
                "wrong version",
            ),
            (
                self.count(|s| matches!(s, DepState::Invalid { .. })),
                "invalid",
            ),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        parts.join(", ")
    }
}

/// Whether a skill declares dependencies: a `dependencies:` field or a `requirements.txt`.
pub fn declares(skill: &Skill) -> bool {
    skill.frontmatter.get("dependencies").is_some()
        || std::fs::symlink_metadata(skill.dir.join(deps::REQUIREMENTS_FILE)).is_ok()
}

/// Checks the skills at `indices` that declare dependencies, several at once, calling
/// `on_done` as each finishes. Blocks; run it on a worker.
pub fn check_all(
    lib: &Library,
    indices: &[usize],
    opts: &ProbeOptions,
    on_done: &(dyn Fn(usize, &DepsReport) + Sync),
) -> Vec<DepsReport> {
    let todo: Vec<usize> = indices
        .iter()
        .copied()
        .filter(|&i| lib.skills.get(i).is_some_and(declares))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<DepsReport>>> =
        todo.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let work = || {
        loop {
            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&i) = todo.get(k) else { break };
            if opts.cancelled() {
                break;
            }
            let report = check(&lib.skills[i], opts);
            on_done(i, &report);
            *slots[k]
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(report);
        }
    };
    std::thread::scope(|s| {
        let started = (0..opts.jobs().min(todo.len()))
            .filter(|_| {
                std::thread::Builder::new()
                    .name("deps".into())
                    .spawn_scoped(s, work)
                    .is_ok()
            })
            .count();
        if started == 0 {
            work();
        }
    });
    slots
        .into_iter()
        .filter_map(|m| {
            m.into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        })
        .collect()
}

/// Checks one skill's declared dependencies.
pub fn check(skill: &Skill, opts: &ProbeOptions) -> DepsReport {
    let declared = deps::declared(
        &skill.dir,
        skill.frontmatter.get("dependencies").map(|f| &f.value),
    );
    let mut report = DepsReport {
        skill: skill.name.clone(),
        dir: skill.dir.clone(),
        interpreter: None,
        interpreter_from: String::new(),
        python: None,
        command: Vec::new(),
        sandbox: None,
        sandbox_fallback: None,
        checks: Vec::new(),
        error: declared.requirements_txt_error.clone(),
        install: String::new(),
        diagnostics: Vec::new(),
    };
    let valid: Vec<(Origin, Requirement)> = declared
        .valid()
        .map(|(o, r)| (o.clone(), r.clone()))
        .collect();
    for (origin, e) in declared.invalid() {
        report.checks.push(DepCheck {
            requirement: raw_of(skill, origin),
            origins: vec![origin.clone()],
            blame: 0,
            state: DepState::Invalid {
                error: e.to_string(),
            },
        });
    }
    let (program, from) = match choose_interpreter(skill) {
        Ok(found) => found,
        Err(why) => {
            report.error = Some(why.to_string());
            report.install = install_command(skill, &declared, "python3");
            report.diagnostics = diagnostics(skill, &report);
            return report;
        }
    };
    report.interpreter = Some(program.clone());
    report.interpreter_from = from;
    report.install = install_command(skill, &declared, &display_program(&program));
    if valid.is_empty() {
        report.diagnostics = diagnostics(skill, &report);
        return report;
    }
    match installed(skill, &program, opts, &mut report) {
        Ok(packages) => {
            for (origins, reqs) in by_package(valid) {
                let key = &reqs[0].key;
                let installed = packages.get(key);
                let blame = installed
                    .and_then(|v| reqs.iter().position(|r| !r.satisfied_by(v)))
                    .unwrap_or(0);
                let state = match installed {
                    None => DepState::Missing,
                    Some(v) if reqs.iter().all(|r| r.satisfied_by(v)) => DepState::Ok {
                        installed: v.clone(),
                    },
                    Some(v) => DepState::WrongVersion {
                        installed: v.clone(),
                        wanted: distinct(reqs.iter().map(Requirement::wanted)).join(","),
                    },
                };
                report.checks.push(DepCheck {
                    requirement: distinct(reqs.iter().map(|r| r.raw.clone())).join(", "),
                    origins,
                    blame,
                    state,
                });
            }
        }
        Err(e) => report.error = Some(e.to_string()),
    }
    report
        .checks
        .sort_by_key(|c| c.origins.first().map(order).unwrap_or_default());
    report.diagnostics = diagnostics(skill, &report);
    report
}

/// The requirements grouped by package (PEP 503 name), in the order first declared: a package in
/// both `dependencies:` and `requirements.txt` is checked once, against every clause of both.
fn by_package(valid: Vec<(Origin, Requirement)>) -> Vec<(Vec<Origin>, Vec<Requirement>)> {
    let mut out: Vec<(Vec<Origin>, Vec<Requirement>)> = Vec::new();
    for (origin, req) in valid {
        match out.iter_mut().find(|(_, rs)| rs[0].key == req.key) {
            Some((origins, reqs)) => {
                origins.push(origin);
                reqs.push(req);
            }
            None => out.push((vec![origin], vec![req])),
        }
    }
    out
}

/// Each non-empty text once, in order.
fn distinct(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in items {
        if !i.is_empty() && !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// Where a requirement is declared, in words: `dependencies: and requirements.txt line 2`.
fn places(origins: &[Origin]) -> String {
    let words: Vec<String> = origins
        .iter()
        .map(|o| match o {
            Origin::Frontmatter { .. } => "`dependencies:`".to_string(),
            Origin::RequirementsTxt { line } => {
                format!("{} line {line}", deps::REQUIREMENTS_FILE)
            }
        })
        .collect();
    words.join(" and ")
}

fn order(o: &Origin) -> (u8, usize) {
    match o {
        Origin::Frontmatter { index } => (0, *index),
        Origin::RequirementsTxt { line } => (1, *line as usize),
    }
}

/// The text of an invalid item, for the report.
fn raw_of(skill: &Skill, origin: &Origin) -> String {
    match origin {
        Origin::Frontmatter { index } => skill
            .frontmatter
            .get("dependencies")
            .and_then(|f| {
                f.value
                    .as_array()
                    .and_then(|a| a.get(*index))
                    .or(Some(&f.value))
            })
            .map(crate::core::frontmatter::compact)
            .unwrap_or_default(),
        Origin::RequirementsTxt { line } => format!("{}:{line}", deps::REQUIREMENTS_FILE),
    }
}

/// Why a skill's dependencies could not be checked against its interpreter.
#[derive(Debug, thiserror::Error)]
pub enum DepsError {
    #[error("the skill folder is unreadable ({0})")]
    Unreadable(std::io::Error),
    /// No interpreter could be chosen, and why.
    #[error("{}", .0.why)]
    NoInterpreter(interpreter::Missing),
    #[error(
        "the entry script runs with `{}`, not Python: pip dependencies cannot be checked against it",
        .0.display()
    )]
    NotPython(PathBuf),
    #[error("`{}` cannot be started: {}", .0.display(), .1)]
    NotStarted(PathBuf, std::io::Error),
    #[error(
        "the interpreter started more than {} processes and was killed",
        sandbox::MAX_PROCESSES
    )]
    TooManyProcesses,
    #[error("the interpreter did not answer in time")]
    TimedOut,
    #[error("stopped before it answered")]
    Cancelled,
    /// The interpreter's exit code (none: killed by a signal) and the tail of what it said.
    #[error("the interpreter failed (exit {}){tail}", exit_words(*.code))]
    Failed {
        /// The exit code, when it exited.
        code: Option<i32>,
        /// The tail of what it wrote to stderr, as [`super::tail`] gives it.
        tail: String,
    },
    #[error("the interpreter's answer is not JSON ({0})")]
    NotJson(serde_json::Error),
    #[error("the interpreter's answer lists no packages")]
    NoPackages,
}

/// An exit code in words: the number, or `by a signal`.
fn exit_words(code: Option<i32>) -> String {
    code.map_or_else(|| "by a signal".to_string(), |c| c.to_string())
}

/// The interpreter the skill would run with, by the rule its `--help-json` probe follows
/// ([`interpreter::choose`]): for a Python entry script (or none) its own `.venv` by absolute
/// path, else what the entry script's `#!` line or extension names, else `python3` on PATH.
pub fn choose_interpreter(skill: &Skill) -> Result<(PathBuf, String), DepsError> {
    // Absolute: the check runs in the skill folder, where a path relative to ours means nothing.
    let dir = skill.dir.canonicalize().map_err(DepsError::Unreadable)?;
    let entry = (skill.kind() == SkillKind::Executable)
        .then(|| crate::core::resource::resolve_inside(&dir, super::entry_name(skill)).ok())
        .flatten()
        .and_then(|e| interpreter::read_head(&e).ok().map(|h| (e, h)));
    let chosen = interpreter::choose(
        &dir,
        entry.as_ref().map(|(e, h)| (e.as_path(), h)),
        &interpreter::search_path(),
    )
    .map_err(DepsError::NoInterpreter)?;
    let program = chosen.invocation.program;
    if !interpreter::is_python(&program) {
        return Err(DepsError::NotPython(program));
    }
    Ok((program, chosen.from.to_string()))
}

fn display_program(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Runs the interpreter on the listing script in the sandbox and reads its answer: installed
/// distributions by normalised name.
fn installed(
    skill: &Skill,
    program: &Path,
    opts: &ProbeOptions,
    report: &mut DepsReport,
) -> Result<HashMap<String, String>, DepsError> {
    let cwd = skill.dir.canonicalize().map_err(DepsError::Unreadable)?;
    let args: Vec<OsString> = vec!["-I".into(), "-c".into(), LIST_INSTALLED.into()];
    report.command = std::iter::once(program.to_string_lossy().into_owned())
        .chain([
            "-I".to_string(),
            "-c".to_string(),
            "<list installed distributions>".to_string(),
        ])
        .collect();
    let spec = sandbox::RunSpec {
        program: program.to_path_buf(),
        args,
        cwd,
        timeout: opts.timeout_for(skill),
        output_cap: opts.output_cap,
        sandbox: opts.sandbox,
        isolated: None,
    };
    let out = sandbox::run(&spec, opts.cancel.as_deref())
        .map_err(|e| DepsError::NotStarted(program.to_path_buf(), e))?;
    report.sandbox = Some(out.mode);
    report.sandbox_fallback.clone_from(&out.fallback);
    if out.limit == Some(sandbox::Limit::Processes) {
        return Err(DepsError::TooManyProcesses);
    }
    match out.ending {
        sandbox::Ending::TimedOut => return Err(DepsError::TimedOut),
        sandbox::Ending::Cancelled => return Err(DepsError::Cancelled),
        sandbox::Ending::Exited => {}
    }
    if out.exit_code() != Some(0) {
        return Err(DepsError::Failed {
            code: out.exit_code(),
            tail: super::tail(&out.stderr.bytes),
        });
    }
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout.bytes).map_err(DepsError::NotJson)?;
    report.python = v["python"].as_str().map(str::to_string);
    let packages = v["packages"].as_object().ok_or(DepsError::NoPackages)?;
    Ok(packages
        .iter()
        .filter_map(|(name, ver)| Some((deps::normalize_name(name), ver.as_str()?.to_string())))
        .collect())
}

/// `python3 -m venv .venv && .venv/bin/pip install -r requirements.txt 'pkg>=1'`, run in the
/// skill folder; the `venv` step only when the skill has none.
fn install_command(skill: &Skill, declared: &Declared, python: &str) -> String {
    let mut pip: Vec<String> = Vec::new();
    if declared.has_requirements_txt {
        pip.push(format!("-r {}", deps::REQUIREMENTS_FILE));
    }
    for (origin, r) in declared.valid() {
        if matches!(origin, Origin::Frontmatter { .. }) {
            pip.push(shell_quote(&r.raw));
        }
    }
    if pip.is_empty() {
        return String::new();
    }
    let venv = if skill.dir.join(".venv/bin/pip").exists() {
        String::new()
    } else {
        format!("{python} -m venv .venv && ")
    };
    format!("{venv}.venv/bin/pip install {}", pip.join(" "))
}

fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=' | '/'))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// One diagnostic per problem, on the line that declares it, each with the fix.
fn diagnostics(skill: &Skill, report: &DepsReport) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let interp = report.interpreter.as_ref().map_or_else(String::new, |p| {
        format!(" for {} ({})", p.display(), report.interpreter_from)
    });
    let fix = if report.install.is_empty() {
        String::new()
    } else {
        format!(
            "; in the skill folder, `{}` would install it (skillscope installs nothing)",
            report.install
        )
    };
    let place = |d: Diagnostic, origin: Option<&Origin>| match origin {
        None => d.in_file(&skill.skill_md),
        Some(Origin::Frontmatter { .. }) => d
            .in_file(&skill.skill_md)
            .at_line(skill.frontmatter.line_of("dependencies")),
        Some(Origin::RequirementsTxt { line }) => d
            .in_file(skill.dir.join(deps::REQUIREMENTS_FILE))
            .at(*line, 1),
    };
    if let Some(e) = &report.error {
        out.push(
            Diagnostic::new(
                RuleId::DependencyUnchecked,
                Severity::Warning,
                format!("the declared dependencies could not be checked: {e}"),
            )
            .in_file(&skill.skill_md),
        );
    }
    for c in &report.checks {
        let twice = if c.origins.len() > 1 {
            format!(" (declared in {})", places(&c.origins))
        } else {
            String::new()
        };
        let d = match &c.state {
            DepState::Ok { .. } => continue,
            DepState::Missing => Diagnostic::new(
                RuleId::DependencyMissing,
                Severity::Error,
                format!("`{}`{twice} is not installed{interp}{fix}", c.requirement),
            ),
            DepState::WrongVersion { installed, wanted } => Diagnostic::new(
                RuleId::DependencyVersion,
                Severity::Error,
                format!(
                    "`{}`{twice} wants {wanted}, but {installed} is installed{interp}{fix}",
                    c.requirement
                ),
            ),
            DepState::Invalid { error } => Diagnostic::new(
                RuleId::DependencyInvalid,
                Severity::Error,
                format!("not a valid pip specifier: {error}"),
            ),
        };
        out.push(place(d, c.origins.get(c.blame).or(c.origins.first())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_commands_quote_specifiers_and_create_the_venv_only_when_missing() {
        let t = tempfile::tempdir().unwrap();
        let root = crate::core::source::Root::new(
            t.path(),
            crate::core::source::Agent::Path,
            crate::core::source::Scope::Path,
        );
        let skill = Skill::new(&root, t.path().to_path_buf(), t.path().join("SKILL.md"));
        std::fs::write(t.path().join("requirements.txt"), "requests\n").unwrap();
        let declared = deps::declared(
            t.path(),
            Some(&serde_json::json!(["playwright==1.40.0", "bs4>=4.12"])),
        );
        assert_eq!(
            install_command(&skill, &declared, "python3"),
            "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt playwright==1.40.0 'bs4>=4.12'"
        );
        std::fs::create_dir_all(t.path().join(".venv/bin")).unwrap();
        std::fs::write(t.path().join(".venv/bin/pip"), "").unwrap();
        assert_eq!(
            install_command(&skill, &declared, "python3"),
            ".venv/bin/pip install -r requirements.txt playwright==1.40.0 'bs4>=4.12'"
        );
    }
}
