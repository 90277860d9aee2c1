//! Health of the files under a skill's `scripts/`: a `#!` line, the run bit, an interpreter on
//! PATH, and optionally a sandboxed `--help` smoke run.

use super::interpreter::{self, Head};
use super::sandbox::{self, Ending, RunSpec};
use super::{ProbeOptions, signal_name, tail};
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::skill::Skill;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// How deep below `scripts/` files are looked at.
const MAX_DEPTH: usize = 4;

/// One file that is meant to be run.
#[derive(Debug, Clone)]
struct Script {
    path: PathBuf,
    /// Relative to the skill folder, with `/` separators.
    rel: String,
    head: Head,
}

/// Checks every script under `scripts/`, in path order.
pub fn check(skill: &Skill, opts: &ProbeOptions) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    collect(&skill.dir, &skill.dir.join("scripts"), 0, &mut found);
    found.sort_by(|a, b| a.rel.cmp(&b.rel));
    let path_var = interpreter::search_path();
    let mut out = Vec::new();
    for s in &found {
        check_one(skill, s, &path_var, opts, &mut out);
    }
    out
}

fn collect(base: &Path, dir: &Path, depth: usize, out: &mut Vec<Script>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "__pycache__" || name == "node_modules" {
            continue;
        }
        let path = e.path();
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            if !e.file_type().is_ok_and(|t| t.is_symlink()) {
                collect(base, &path, depth + 1, out);
            }
        } else if meta.is_file() {
            let Ok(head) = interpreter::read_head(&path) else {
                continue;
            };
            if is_runnable(&path, &head) {
                let rel = path
                    .strip_prefix(base)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push(Script { path, rel, head });
            }
        }
    }
}

/// Is the file meant to be run? Data and docs (`README.md`, `requirements.txt`) are not; nor is a
/// Python module that is only imported (no `#!`, no `__main__` block).
fn is_runnable(path: &Path, head: &Head) -> bool {
    if head.shebang.is_some() {
        return true;
    }
    if head.binary {
        return false;
    }
    match interpreter::by_extension(path) {
        Some("python3") => std::fs::read(path).is_ok_and(|b| contains(&b, b"__main__")),
        Some(_) => true,
        None => interpreter::is_executable(path),
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

fn check_one(
    skill: &Skill,
    s: &Script,
    path_var: &std::ffi::OsStr,
    opts: &ProbeOptions,
    out: &mut Vec<Diagnostic>,
) {
    let rel = &s.rel;
    let by_ext = interpreter::by_extension(&s.path);
    if s.head.shebang.is_none() {
        let suggest = by_ext.unwrap_or("python3");
        out.push(
            Diagnostic::new(
                RuleId::ScriptNoShebang,
                Severity::Warning,
                format!(
                    "`{rel}` has no `#!` line, so it cannot be run as `./{rel}`: start it with \
                     `#!/usr/bin/env {suggest}`"
                ),
            )
            .in_file(&s.path)
            .at(1, 1),
        );
    }
    if !interpreter::is_executable(&s.path) {
        out.push(
            Diagnostic::new(
                RuleId::ScriptNotExecutable,
                Severity::Warning,
                format!(
                    "`{rel}` lacks the run bit: `chmod +x {rel}` (and in git: \
                     `git update-index --chmod=+x {rel}`)"
                ),
            )
            .in_file(&s.path),
        );
    }
    let invocation = match interpreter::resolve(&s.path, &s.head, path_var) {
        Ok(inv) => inv,
        Err(missing) => {
            // Without a `#!` line or a known extension nothing names an interpreter; the
            // missing `#!` line is already reported above.
            if s.head.shebang.is_some() || by_ext.is_some() {
                out.push(
                    Diagnostic::new(
                        RuleId::ScriptNoInterpreter,
                        Severity::Error,
                        format!("`{rel}` cannot run: {}", missing.why),
                    )
                    .in_file(&s.path)
                    .at(1, 1),
                );
            }
            return;
        }
    };
    if opts.smoke {
        if handles_help(&s.path) {
            smoke(skill, s, invocation, opts, out);
        } else {
            out.push(
                Diagnostic::new(
                    RuleId::ScriptSmokeSkipped,
                    Severity::Info,
                    format!(
                        "`{rel}` was not smoke-run: nothing in it reads `--help`, so it would \
                         likely ignore the flag and do its real work"
                    ),
                )
                .in_file(&s.path),
            );
        }
    }
}

/// Does the script look like it answers `--help`? A script that never mentions it (nor an
/// argument parser that adds it) would do its real work when smoke-run: deleting, deploying.
fn handles_help(path: &Path) -> bool {
    const CUES: [&[u8]; 9] = [
        b"--help",
        b"argparse",
        b"optparse",
        b"click",
        b"typer",
        b"getopt",
        b"commander",
        b"yargs",
        b"usage",
    ];
    let Ok(text) = std::fs::read(path) else {
        return false;
    };
    let lower = text.to_ascii_lowercase();
    CUES.iter().any(|c| contains(&lower, c))
}

/// Runs `script --help` under the probe sandbox; a timeout, a crash or a failing exit is reported.
fn smoke(
    skill: &Skill,
    s: &Script,
    inv: interpreter::Invocation,
    opts: &ProbeOptions,
    out: &mut Vec<Diagnostic>,
) {
    // Absolute paths: the command runs in the skill folder, whatever the caller's folder is.
    let script = s.path.canonicalize().unwrap_or_else(|_| s.path.clone());
    let cwd = skill
        .dir
        .canonicalize()
        .unwrap_or_else(|_| skill.dir.clone());
    let program = if inv.direct {
        script.clone()
    } else {
        inv.program
    };
    let mut args = inv.args;
    if !inv.direct {
        args.push(script.into_os_string());
    }
    args.push(OsString::from("--help"));
    let spec = RunSpec {
        program,
        args,
        cwd,
        timeout: opts.timeout_for(skill),
        output_cap: opts.output_cap,
        sandbox: opts.sandbox,
        isolated: None,
    };
    let rel = &s.rel;
    let problem = match sandbox::run(&spec, opts.cancel.as_deref()) {
        Err(e) => Some(format!("cannot start: {e}")),
        Ok(o) => match o.ending {
            Ending::Cancelled => None,
            Ending::TimedOut => Some(format!(
                "gave no answer within {:.1} s and was killed",
                opts.timeout_for(skill).as_secs_f64()
            )),
            Ending::Exited => match (o.exit_code(), o.signal()) {
                (Some(0), _) => None,
                (Some(code), _) => {
                    Some(format!("exited with code {code}{}", tail(&o.stderr.bytes)))
                }
                (None, Some(sig)) => Some(format!(
                    "was killed by {}{}",
                    signal_name(sig),
                    tail(&o.stderr.bytes)
                )),
                (None, None) => Some("could not be reaped".to_string()),
            },
        },
    };
    if let Some(p) = problem {
        out.push(
            Diagnostic::new(
                RuleId::ScriptSmokeFailed,
                Severity::Warning,
                format!("`{rel} --help` {p}"),
            )
            .in_file(&s.path),
        );
    }
}
