//! What a probe is asked (its options) and what it finds (its verdict and report), below the
//! probing itself and the store that keeps reports.

use super::sandbox::{MAX_PROCESSES, Mode as SandboxMode, Preference as SandboxPreference};
use crate::core::findings::diagnostic::{Diagnostic, RuleId};
use crate::core::skill::{DEFAULT_ENTRY, Skill, SkillKind};
use crate::core::source::Agent;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long an entry script may take to answer `--help-json` where its agent says nothing else.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the agent a skill belongs to waits for its `--help-json`, from the agent's model:
/// 5 s for Lazy Skills, whose design's `_get_tool_schema` waits 5 s (design 000:
/// `subprocess.run(..., timeout=5)`), so a probe fails where that agent would; 10 s elsewhere,
/// where no agent documents a wait (10 s lets a cold interpreter with heavy imports answer).
pub fn probe_timeout(agent: Agent) -> Duration {
    crate::core::agents::model::model(agent).probe_timeout
}

/// Whether the agent registers a tool whose schema has no `name`, or another one, under the
/// skill's name (a warning), rather than refusing it (an error): Lazy Skills does,
/// `schema.get("name", name)` in design 000's `register_executables`.
pub fn schema_name_fallback(agent: Agent) -> bool {
    crate::core::agents::model::model(agent).schema_name_fallback
}
/// Bytes kept of stdout and of stderr each.
pub const OUTPUT_CAP: usize = 1024 * 1024;
/// Most probes run at once: each is mostly waiting, but some are busy interpreters.
const MAX_JOBS: usize = 4;
pub(super) const MIB: f64 = 1024.0 * 1024.0;

/// How probes run: their timeout, output cap, parallelism, sandbox and cancel switch.
#[derive(Debug, Clone)]
pub struct ProbeOptions {
    /// How long each probe may run; `None`: its skill's agent's wait ([`probe_timeout`]).
    pub timeout: Option<Duration>,
    /// Bytes kept of stdout and of stderr each.
    pub output_cap: usize,
    /// Probes run at once; 0 means the number of cores, at most 4.
    pub jobs: usize,
    /// Also check every file under `scripts/` (shebang, run bit, interpreter).
    pub scripts: bool,
    /// With `scripts`: also run each script's `--help` in the sandbox.
    pub smoke: bool,
    /// Set to stop: running probes are killed (verdict `cancelled`), waiting ones never start.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Which sandbox to ask for; the default reads `SKILLSCOPE_SANDBOX`.
    pub sandbox: SandboxPreference,
}

impl Default for ProbeOptions {
    fn default() -> Self {
        ProbeOptions {
            timeout: None,
            output_cap: OUTPUT_CAP,
            jobs: 0,
            scripts: false,
            smoke: false,
            cancel: None,
            sandbox: SandboxPreference::from_env(),
        }
    }
}

impl ProbeOptions {
    /// How many probes run at once.
    pub fn jobs(&self) -> usize {
        if self.jobs > 0 {
            return self.jobs;
        }
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(MAX_JOBS)
    }

    /// How long a probe of `skill` may run.
    pub fn timeout_for(&self, skill: &Skill) -> Duration {
        self.timeout.unwrap_or_else(|| probe_timeout(skill.agent))
    }

    pub(super) fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// What the `--help-json` probe of one executable skill found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Verdict {
    /// A well-formed tool schema whose name is the skill's.
    Ok,
    /// No answer before the timeout; it was killed with everything the sandbox holds.
    Timeout {
        /// The timeout, in milliseconds.
        after_ms: u64,
    },
    /// The run was stopped by the caller before it answered.
    Cancelled,
    /// Exited with a non-zero code or was killed by a signal of its own.
    Crashed {
        /// Its exit code, when it exited.
        exit_code: Option<i32>,
        /// The signal that killed it, when one did.
        signal: Option<String>,
        /// The last lines of its stderr.
        stderr_tail: String,
        /// The sandbox limit that stopped it (`processes`), when one did.
        #[serde(skip_serializing_if = "Option::is_none")]
        limit: Option<String>,
    },
    /// stdout is not one JSON value.
    NotJson {
        /// Where the JSON stopped making sense.
        at_byte: usize,
        /// The text around that place.
        offending: String,
        /// The parser's message.
        error: String,
    },
    /// JSON, but not `{"name", "description", "parameters": {"type": "object", …}}`.
    BadSchema {
        /// The key at fault.
        key: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The schema's `name` is not the skill's name.
    NameMismatch {
        /// The skill's name.
        expected: String,
        /// The schema's name.
        found: String,
    },
    /// The schema has no `name`, or another one, and the skill's agent registers the tool anyway
    /// (Lazy Skills: `schema.get("name", name)`): under the schema's own `name` when it has one,
    /// else under the skill's. A warning.
    NameFallback {
        /// The skill's name.
        expected: String,
        /// The schema's `name`, when it has one.
        found: Option<String>,
        /// The name the tool is registered under: the schema's own, else the skill's.
        registered: String,
    },
    /// The entry script is missing (or not a file inside the skill folder).
    NoEntry {
        /// The entry script named.
        entry: String,
        /// Why it cannot be used.
        why: String,
    },
    /// Nothing can run the entry script.
    NoInterpreter {
        /// The interpreter looked for.
        interpreter: String,
        /// Why it cannot be used.
        why: String,
    },
}

impl Verdict {
    /// The verdict's stable name, as in the JSON `kind`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Timeout { .. } => "timeout",
            Verdict::Cancelled => "cancelled",
            Verdict::Crashed { .. } => "crashed",
            Verdict::NotJson { .. } => "not-json",
            Verdict::BadSchema { .. } => "bad-schema",
            Verdict::NameMismatch { .. } => "name-mismatch",
            Verdict::NameFallback { .. } => "name-fallback",
            Verdict::NoEntry { .. } => "no-entry",
            Verdict::NoInterpreter { .. } => "no-interpreter",
        }
    }

    /// The schema registers: a clean pass, or one under the skill's name.
    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Ok | Verdict::NameFallback { .. })
    }

    /// A pass with something to fix.
    pub fn is_warning(&self) -> bool {
        matches!(self, Verdict::NameFallback { .. } | Verdict::Cancelled)
    }

    /// The rule id of the diagnostic this verdict becomes (`probe-timeout`, …).
    pub fn rule(&self) -> RuleId {
        match self {
            Verdict::Ok => RuleId::ProbeOk,
            Verdict::Timeout { .. } => RuleId::ProbeTimeout,
            Verdict::Cancelled => RuleId::ProbeCancelled,
            Verdict::Crashed { .. } => RuleId::ProbeCrashed,
            Verdict::NotJson { .. } => RuleId::ProbeNotJson,
            Verdict::BadSchema { .. } => RuleId::ProbeBadSchema,
            Verdict::NameMismatch { .. } => RuleId::ProbeNameMismatch,
            Verdict::NameFallback { .. } => RuleId::ProbeNameFallback,
            Verdict::NoEntry { .. } => RuleId::ProbeNoEntry,
            Verdict::NoInterpreter { .. } => RuleId::ProbeNoInterpreter,
        }
    }

    /// One line saying what happened and, for failures, what to fix.
    pub fn detail(&self) -> String {
        let what = self.what_broke();
        match self.fix() {
            Some(fix) => format!("{what}; fix: {fix}"),
            None => what,
        }
    }

    /// What to do about a failed verdict (the ones whose message already says it, or that are
    /// no failure, have none).
    pub fn fix(&self) -> Option<String> {
        Some(match self {
            Verdict::Timeout { .. } => "`--help-json` must print the schema and exit at once, \
                 before any network call, prompt or long work; run the command shown in the skill \
                 folder to see where it waits"
                .to_string(),
            Verdict::Crashed {
                stderr_tail, limit, ..
            } => {
                if limit.as_deref() == Some("processes") {
                    "answer `--help-json` without starting other processes".to_string()
                } else if stderr_tail.contains("No module named")
                    || stderr_tail.contains("ModuleNotFoundError")
                    || stderr_tail.contains("ImportError")
                    || stderr_tail.contains("Cannot find module")
                {
                    "install the missing module for the interpreter the probe ran (the skill's \
                     .venv, or the `#!` line's); `probe --deps` checks what the skill declares"
                        .to_string()
                } else {
                    "run the command shown in the skill folder to see the whole error; \
                     `--help-json` must exit 0 after printing the schema"
                        .to_string()
                }
            }
            Verdict::NotJson { .. } => "print only the JSON schema on stdout for `--help-json`; \
                 logs, banners and warnings go to stderr"
                .to_string(),
            Verdict::BadSchema { .. } => {
                "print `{\"name\", \"description\", \"parameters\"}` with \
                 `parameters` a JSON Schema object (`{\"type\": \"object\", \"properties\": {…}}`)"
                    .to_string()
            }
            Verdict::NoEntry { entry, .. } => format!(
                "add `{entry}` to the skill folder, or name the script that is there with `entry:`"
            ),
            Verdict::NoInterpreter { why, .. } if !why.contains("add a line") => {
                "install the interpreter, or name one that is installed on the script's `#!` \
                 line (`#!/usr/bin/env python3`), or make a `.venv` in the skill folder"
                    .to_string()
            }
            _ => return None,
        })
    }

    /// What went wrong, without what to do about it.
    fn what_broke(&self) -> String {
        match self {
            Verdict::Ok => "answered with a valid tool schema".to_string(),
            Verdict::Timeout { after_ms } => format!(
                "no answer within {:.1} s: killed",
                *after_ms as f64 / 1000.0
            ),
            Verdict::Cancelled => "stopped before it answered".to_string(),
            Verdict::Crashed {
                exit_code,
                signal,
                stderr_tail,
                limit,
            } => {
                let mut how = match (exit_code, signal) {
                    (Some(c), _) => format!("exit code {c}"),
                    (None, Some(s)) => format!("killed by {s}"),
                    (None, None) => "no exit status".to_string(),
                };
                if limit.as_deref() == Some("processes") {
                    how.push_str(&format!(
                        " (over the sandbox's limit of {MAX_PROCESSES} processes)"
                    ));
                }
                match stderr_tail.lines().rev().find(|l| !l.trim().is_empty()) {
                    Some(last) => format!("{how}; stderr ends: {}", last.trim()),
                    None => format!("{how}; nothing on stderr"),
                }
            }
            Verdict::NotJson {
                at_byte,
                offending,
                error,
            } if offending.is_empty() => format!("stdout is not JSON ({error}) at byte {at_byte}"),
            Verdict::NotJson {
                at_byte,
                offending,
                error,
            } => format!("stdout is not JSON ({error}); at byte {at_byte}: \"{offending}\""),
            Verdict::BadSchema { key, problem } => format!("schema `{key}` {problem}"),
            Verdict::NameMismatch { expected, found } => {
                format!(
                    "schema is named \"{found}\" but the skill is \"{expected}\": make them equal"
                )
            }
            Verdict::NameFallback {
                expected,
                found: Some(found),
                ..
            } => format!(
                "schema is named \"{found}\": registered as \"{found}\", its own name, not the skill's \"{expected}\"; make them equal"
            ),
            Verdict::NameFallback {
                expected,
                found: None,
                ..
            } => format!(
                "schema has no `name`: registered as \"{expected}\", the skill's name; add `\"name\": \"{expected}\"`"
            ),
            Verdict::NoEntry { entry, why } => {
                format!("entry script `{entry}` {why}")
            }
            Verdict::NoInterpreter { why, .. } => why.clone(),
        }
    }
}

/// Everything a probe learned about one skill.
#[derive(Debug, Clone, Serialize)]
pub struct ProbeReport {
    /// The skill's name.
    pub skill: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Its type.
    pub kind: SkillKind,
    /// The entry script, when the skill is executable and it was found.
    pub entry: Option<PathBuf>,
    /// The command as run (program, arguments), for the user to repeat it.
    pub command: Vec<String>,
    /// Where its program came from: the skill's `.venv`, the `#!` line, the extension.
    pub interpreter_from: Option<String>,
    /// How long it was given.
    pub timeout_ms: u64,
    /// `None` when `--help-json` was not run: the skill is not executable.
    pub verdict: Option<Verdict>,
    /// Its exit code, when it exited.
    pub exit_code: Option<i32>,
    /// How long it ran.
    pub elapsed_ms: u64,
    /// Bytes it wrote to stdout.
    pub stdout_bytes: u64,
    /// Bytes it wrote to stderr.
    pub stderr_bytes: u64,
    /// The process id of the entry script as skillscope saw it (in the process-group mode also
    /// its process group id); `None` when nothing ran or it ended before it could be seen.
    pub pid: Option<u32>,
    /// The sandbox the entry script ran in; `None` when nothing ran.
    pub sandbox: Option<SandboxMode>,
    /// Why the namespaces sandbox did not run, when the weaker process-group mode did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox_fallback: Option<String>,
    /// Processes it left or spawned that were still alive at the end and were killed.
    pub killed_descendants: u32,
    /// The schema as an agent registers it (compact JSON), whenever stdout was JSON. Its token
    /// count is part of the skill's L3: `tokens::count(encoding, schema_text)`.
    pub schema_text: Option<String>,
    /// Tokens of `schema_text`, once counted by whoever knows the encoding in use.
    pub schema_tokens: Option<u32>,
    /// Script health findings (with `scripts`), each with its file.
    pub diagnostics: Vec<Diagnostic>,
}

impl ProbeReport {
    pub(super) fn new(skill: &Skill, opts: &ProbeOptions) -> ProbeReport {
        ProbeReport {
            skill: skill.name.clone(),
            dir: skill.dir.clone(),
            kind: skill.kind(),
            entry: None,
            command: Vec::new(),
            interpreter_from: None,
            timeout_ms: u64::try_from(opts.timeout_for(skill).as_millis()).unwrap_or(u64::MAX),
            verdict: None,
            exit_code: None,
            elapsed_ms: 0,
            stdout_bytes: 0,
            stderr_bytes: 0,
            pid: None,
            sandbox: None,
            sandbox_fallback: None,
            killed_descendants: 0,
            schema_text: None,
            schema_tokens: None,
            diagnostics: Vec::new(),
        }
    }

    /// The `--help-json` probe ran and did not pass.
    pub fn probe_failed(&self) -> bool {
        self.verdict.as_ref().is_some_and(|v| !v.is_ok())
    }

    /// The text whose tokens the schema adds to the skill's L3, when there is a schema.
    pub fn l3_schema_text(&self) -> Option<&str> {
        self.schema_text.as_deref()
    }
}

/// The entry script a skill names, or the default.
pub fn entry_name(skill: &Skill) -> &str {
    skill
        .frontmatter
        .entry
        .as_deref()
        .filter(|e| !e.trim().is_empty())
        .unwrap_or(DEFAULT_ENTRY)
}

/// The last lines of stderr (at most 5 lines, 400 characters), lossy.
pub(crate) fn stderr_tail(b: &[u8]) -> String {
    let start = b.len().saturating_sub(4096);
    let text = String::from_utf8_lossy(&b[start..]);
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let kept = lines[lines.len().saturating_sub(5)..].join("\n");
    let n = kept.chars().count();
    if n > 400 {
        let cut: String = kept.chars().skip(n - 400).collect();
        format!("…{cut}")
    } else {
        kept
    }
}

/// `": <last line of stderr>"`, or nothing when stderr is empty.
pub(crate) fn tail(b: &[u8]) -> String {
    let t = stderr_tail(b);
    match t.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(l) => format!(": {}", l.trim()),
        None => String::new(),
    }
}

pub(crate) fn signal_name(sig: i32) -> String {
    #[cfg(unix)]
    {
        nix::sys::signal::Signal::try_from(sig)
            .map_or_else(|_| format!("signal {sig}"), |s| s.as_str().to_string())
    }
    #[cfg(not(unix))]
    {
        format!("signal {sig}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_says_what_to_do() {
        let crashed = |tail: &str| Verdict::Crashed {
            exit_code: Some(1),
            signal: None,
            stderr_tail: tail.to_string(),
            limit: None,
        };
        let d = crashed("Traceback …\nModuleNotFoundError: No module named 'requests'\n").detail();
        assert!(
            d.starts_with("exit code 1; stderr ends: ModuleNotFoundError")
                && d.contains("; fix: install the missing module"),
            "{d}"
        );
        assert!(
            crashed("")
                .detail()
                .contains("; fix: run the command shown")
        );
        let t = Verdict::Timeout { after_ms: 10_000 }.detail();
        assert!(
            t.starts_with("no answer within 10.0 s: killed; fix: "),
            "{t}"
        );
        // What already says what to do, and a pass, add nothing.
        assert_eq!(Verdict::Ok.fix(), None);
        let named = Verdict::NameMismatch {
            expected: "a".into(),
            found: "b".into(),
        };
        assert!(!named.detail().contains("fix:"));
    }
}
