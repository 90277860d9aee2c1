//! `skillscope probe`: run `--help-json` of executable skills in a sandbox, and check scripts.

use crate::cli::args::LibraryArgs;
use crate::cli::output::{note_demo, use_color};
use crate::cli::style::{Style, Tone};
use crate::core::probe::dependencies::{self, DepsReport};
use crate::core::probe::{self, ProbeOptions, ProbeReport, SandboxMode, Verdict};
use crate::core::words::text::{count, count_of, thousands};
use crate::core::{Severity, SkillKind};
use anyhow::Context;
use clap::Args;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// Encoding for the schema's token count: o200k_base or cl100k_base.
    #[arg(long, default_value_t = crate::core::tokens::Encoding::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::encodings))]
    pub encoding: crate::core::tokens::Encoding,
    /// Seconds an entry script may take to answer before it is killed with all it started
    /// (default: its agent's wait: 5 s for Lazy Skills, as that design waits, else 10 s).
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<Duration>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also check every file under each skill's scripts/: shebang, run bit, interpreter.
    #[arg(long)]
    pub scripts: bool,
    /// With --scripts: also run each script's `--help` in the sandbox (it runs their code).
    #[arg(long, requires = "scripts")]
    pub smoke: bool,
    /// Also check declared dependencies (`dependencies:`, requirements.txt) against the
    /// interpreter each skill would run with, in the same sandbox; installs nothing, prints the
    /// command that would.
    #[arg(long)]
    pub deps: bool,
    /// Probes run at once (default: the number of cores, at most 4).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
}

fn parse_secs(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !secs.is_finite() || secs <= 0.0 || secs > 86_400.0 {
        return Err(format!(
            "`{s}`: the timeout must be above 0 and at most 86400 seconds"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Paths (`[]` for every element) of the JSON fields that hold what a probed program printed.
const UNTRUSTED: &[&str] = &[
    "skills[].schema_text",
    "skills[].verdict.stderr_tail",
    "skills[].verdict.offending",
    "skills[].verdict.found",
    "skills[].verdict.key",
    "skills[].verdict.problem",
    "dependencies[].python",
    "dependencies[].checks[].state.installed",
];

/// The JSON document `probe --json` prints.
#[derive(Debug, Serialize)]
struct Document<'a> {
    /// The fields whose text came from a probed program (its stdout, stderr, or what its
    /// interpreter reported): untrusted data, to be shown escaped, never rendered or run.
    untrusted: &'static [&'static str],
    /// The `--timeout` given; `null`: each skill's agent's (in each report's `timeout_ms`).
    timeout_ms: Option<u64>,
    skills: &'a [ProbeReport],
    /// With --deps: one report per skill that declares dependencies.
    dependencies: &'a [DepsReport],
    summary: Summary,
}

#[derive(Debug, Default, Serialize)]
struct Summary {
    /// Executable skills whose `--help-json` ran.
    probed: usize,
    /// Passed, counting those that pass with a warning.
    ok: usize,
    /// Passed with a warning (`name-fallback`).
    warned: usize,
    failed: usize,
    /// Count of each verdict, by name.
    verdicts: BTreeMap<&'static str, usize>,
    script_errors: usize,
    script_warnings: usize,
    /// Skills whose declared dependencies were checked, and those with a missing, wrong or
    /// invalid one.
    deps_checked: usize,
    deps_failed: usize,
    elapsed_ms: u64,
}

impl Summary {
    fn of(reports: &[ProbeReport], deps: &[DepsReport], elapsed: Duration) -> Summary {
        let mut s = Summary {
            elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            deps_checked: deps.len(),
            deps_failed: deps.iter().filter(|d| d.failed()).count(),
            ..Summary::default()
        };
        for r in reports {
            if let Some(v) = &r.verdict {
                s.probed += 1;
                *s.verdicts.entry(v.name()).or_default() += 1;
                if v.is_ok() {
                    s.ok += 1;
                    s.warned += usize::from(v.is_warning());
                } else {
                    s.failed += 1;
                }
            }
            for d in &r.diagnostics {
                match d.severity {
                    Severity::Error => s.script_errors += 1,
                    Severity::Warning => s.script_warnings += 1,
                    Severity::Info => {}
                }
            }
        }
        s
    }
}

pub fn run(args: ProbeArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    // Only `--scripts` without `--smoke` reads files and runs nothing.
    if !crate::core::probe::HAS_SANDBOX && (!args.scripts || args.smoke || args.deps) {
        anyhow::bail!("{}", crate::core::probe::NO_SANDBOX);
    }
    let lib = library.load();
    note_demo(&lib);
    let indices: Vec<usize> = lib
        .skills
        .iter()
        .enumerate()
        .filter(|(_, s)| args.scripts || s.kind() == SkillKind::Executable)
        .map(|(i, _)| i)
        .collect();
    if indices.is_empty() && !args.deps {
        eprintln!(
            "skillscope: no executable skills among {} skill(s); `--scripts` checks the scripts of all",
            lib.len()
        );
    }

    // Ctrl-C (or a closed terminal) stops the probes, which kills their process groups: they are
    // not in the terminal's foreground group and would otherwise outlive this process. A second
    // Ctrl-C exits at once.
    let cancel = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        #[cfg(unix)]
        signal_hook::consts::SIGHUP,
    ] {
        signal_hook::flag::register_conditional_shutdown(sig, 130, Arc::clone(&cancel))
            .context("cannot install the signal handler")?;
        signal_hook::flag::register(sig, Arc::clone(&cancel))
            .context("cannot install the signal handler")?;
    }
    let opts = ProbeOptions {
        timeout: args.timeout,
        jobs: args.jobs.unwrap_or(0),
        scripts: args.scripts,
        smoke: args.smoke,
        cancel: Some(Arc::clone(&cancel)),
        ..ProbeOptions::default()
    };
    let start = Instant::now();
    let mut reports = probe::probe_all(&lib, &indices, &opts, &|_, _| {});
    let mut store = probe::ProbeStore::open();
    for r in &mut reports {
        r.schema_tokens = r
            .schema_text
            .as_deref()
            .map(|t| crate::core::tokens::count(args.encoding, t) as u32);
        store.record(r);
    }
    if let Err(e) = store.save() {
        crate::cli::output::warn(format_args!("the probe results were not remembered: {e}"));
    }
    let deps_reports = if args.deps {
        let all: Vec<usize> = (0..lib.len()).collect();
        let found = dependencies::check_all(&lib, &all, &opts, &|_, _| {});
        if found.is_empty() {
            eprintln!(
                "skillscope: no skill among {} declares dependencies (dependencies: or requirements.txt)",
                lib.len()
            );
        }
        found
    } else {
        Vec::new()
    };
    let summary = Summary::of(&reports, &deps_reports, start.elapsed());
    if cancel.load(Ordering::Relaxed) {
        eprintln!("skillscope: probe interrupted; every started probe was killed");
        return Ok(130);
    }

    let mut out = std::io::stdout().lock();
    if args.json {
        let doc = Document {
            untrusted: UNTRUSTED,
            timeout_ms: args
                .timeout
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            skills: &reports,
            dependencies: &deps_reports,
            summary,
        };
        crate::cli::output::write_json(&mut out, &doc)?;
        writeln!(out)?;
        return Ok(exit_code(&doc.summary));
    }
    write_text(&mut out, &reports, &summary, use_color())?;
    write_deps(&mut out, &deps_reports, use_color())?;
    Ok(exit_code(&summary))
}

fn exit_code(s: &Summary) -> i32 {
    i32::from(s.failed > 0 || s.script_errors > 0 || s.deps_failed > 0)
}

/// One block per skill that declares dependencies: the interpreter, the verdicts, the fix.
fn write_deps(out: &mut impl Write, reports: &[DepsReport], color: bool) -> std::io::Result<()> {
    let style = Style::new(color);
    for r in reports {
        let word = if r.failed() {
            style.paint(Tone::Worst, &format!("{:<14}", "deps"))
        } else {
            style.paint(Tone::Good, &format!("{:<14}", "deps"))
        };
        let interp = match (&r.interpreter, &r.python) {
            (Some(p), Some(v)) => {
                format!(
                    " · {} ({}), Python {}",
                    crate::core::words::text::path(p),
                    r.interpreter_from,
                    crate::core::words::text::line(v)
                )
            }
            (Some(p), None) => {
                format!(
                    " · {} ({})",
                    crate::core::words::text::path(p),
                    r.interpreter_from
                )
            }
            _ => String::new(),
        };
        // Names, requirements and interpreter answers come from the library: escaped.
        writeln!(
            out,
            "{word} {}  {}{interp}",
            crate::core::words::text::line(&r.skill),
            crate::core::words::text::line(&r.summary())
        )?;
        for d in &r.diagnostics {
            let sev = style.severity(
                d.severity,
                Tone::Faint,
                &format!("{:<7}", d.severity.to_string()),
            );
            writeln!(
                out,
                "    {sev} {:<22} {}",
                d.rule.as_str(),
                crate::core::words::text::line(&d.message)
            )?;
        }
        if r.failed() && !r.install.is_empty() {
            writeln!(
                out,
                "    install (in {}): {}",
                crate::cli::output::shown_path(&r.dir),
                crate::core::words::text::line(&r.install)
            )?;
        }
    }
    if !reports.is_empty() {
        let failed = reports.iter().filter(|r| r.failed()).count();
        writeln!(
            out,
            "dependencies of {} skill(s) checked: {failed} with problems; nothing was installed",
            reports.len()
        )?;
    }
    Ok(())
}

/// A verdict in its colour: passed green, cancelled or read by a fallback yellow, failed bold
/// red.
fn paint_verdict(style: Style, v: &Verdict, padded: &str) -> String {
    let tone = match v {
        Verdict::Ok => Tone::Good,
        Verdict::Cancelled | Verdict::NameFallback { .. } => Tone::Warn,
        _ => Tone::Worst,
    };
    style.paint(tone, padded)
}

const NAME_WIDTH: usize = 28;

/// The line after the reports: how many were probed, how they fared, the scripts' findings.
fn summary_line(reports: &[ProbeReport], summary: &Summary) -> String {
    let warned = if summary.warned > 0 {
        format!(" ({} with a warning)", thousands(summary.warned as u64))
    } else {
        String::new()
    };
    let mut line = format!(
        "{} probed in {:.1} s: {} ok{warned}, {} failed",
        count_of(summary.probed, "skill", "skills"),
        summary.elapsed_ms as f64 / 1000.0,
        thousands(summary.ok as u64),
        thousands(summary.failed as u64)
    );
    let failures: Vec<String> = summary
        .verdicts
        .iter()
        .filter(|(k, _)| **k != "ok" && **k != "name-fallback")
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    if !failures.is_empty() {
        line.push_str(&format!(" ({})", failures.join(", ")));
    }
    if reports.iter().any(|r| !r.diagnostics.is_empty()) || summary.script_errors > 0 {
        line.push_str(&format!(
            "; scripts: {}, {}",
            count_of(summary.script_errors, "error", "errors"),
            count_of(summary.script_warnings, "warning", "warnings")
        ));
    }
    line
}

fn write_text(
    out: &mut impl Write,
    reports: &[ProbeReport],
    summary: &Summary,
    color: bool,
) -> std::io::Result<()> {
    let style = Style::new(color);
    let widest = reports
        .iter()
        .map(|r| crate::cli::output::shown_width(&r.skill))
        .max()
        .unwrap_or(0);
    let names = crate::cli::output::Column::new(
        widest,
        0,
        NAME_WIDTH,
        crate::cli::output::stdout_is_terminal(),
    );
    for r in reports {
        let name = names.pad(&names.fit(&r.skill));
        match &r.verdict {
            Some(v) => {
                let word = paint_verdict(style, v, &format!("{:<14}", v.name()));
                let sandbox = match r.sandbox {
                    Some(m @ SandboxMode::ProcessGroup) => {
                        style.paint(Tone::Warn, &format!("{:<13}", m.name()))
                    }
                    Some(m) => format!("{:<13}", m.name()),
                    None => format!("{:<13}", "-"),
                };
                writeln!(
                    out,
                    "{word} {name}  {sandbox} {}",
                    crate::core::words::text::line(&detail(r, v))
                )?;
            }
            None if r.diagnostics.is_empty() => continue,
            None => {
                let word = style.paint(Tone::Faint, &format!("{:<14}", "scripts"));
                writeln!(out, "{word} {name}  not executable; scripts checked")?;
            }
        }
        for d in &r.diagnostics {
            let sev = style.severity(
                d.severity,
                Tone::Faint,
                &format!("{:<7}", d.severity.to_string()),
            );
            writeln!(
                out,
                "    {sev} {:<22} {}",
                d.rule,
                crate::core::words::text::line(&d.message)
            )?;
        }
    }
    let line = summary_line(reports, summary);
    writeln!(out, "{line}")?;
    let weaker: Vec<&ProbeReport> = reports
        .iter()
        .filter(|r| r.sandbox == Some(SandboxMode::ProcessGroup))
        .collect();
    if let Some(first) = weaker.first() {
        let why = first
            .sandbox_fallback
            .as_deref()
            .unwrap_or("namespaces unavailable");
        let text = format!(
            "sandbox: {} in the weaker process-group mode ({why}): {}",
            count_of(weaker.len(), "run", "runs"),
            crate::core::probe::WEAKER_MODE
        );
        writeln!(out, "{}", style.paint(Tone::Warn, &text))?;
    } else if reports
        .iter()
        .any(|r| r.sandbox == Some(SandboxMode::Namespaces))
    {
        writeln!(
            out,
            "sandbox: namespaces (no terminal, no network, only the system and the skill \
             readable, writes only in a private /tmp, limits; nothing outlives a probe)"
        )?;
    } else if reports
        .iter()
        .any(|r| r.sandbox == Some(SandboxMode::Seatbelt))
    {
        writeln!(
            out,
            "sandbox: seatbelt (no terminal, no network, only the system and the skill \
             readable, writes only in a private folder, CPU and file-size limits; processes \
             that leave the group survive)"
        )?;
    }
    Ok(())
}

/// The detail after the verdict: for a pass, what answered and what the schema weighs.
fn detail(r: &ProbeReport, v: &Verdict) -> String {
    let entry = r
        .entry
        .as_ref()
        .and_then(|e| e.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    let mut s = match (v, &entry) {
        (Verdict::Ok, Some(e)) => format!(
            "`{e}` answered in {} ms; schema {} bytes, {} tokens (part of L3)",
            thousands(r.elapsed_ms),
            thousands(r.schema_text.as_ref().map_or(0, String::len) as u64),
            thousands(u64::from(r.schema_tokens.unwrap_or(0)))
        ),
        _ => v.detail(),
    };
    match (v, r.killed_descendants) {
        (_, 0) => {}
        (Verdict::Timeout { .. } | Verdict::Cancelled, n) => {
            s.push_str(&format!(
                " ({} too)",
                count(n, "descendant process", "descendant processes")
            ));
        }
        (_, n) => s.push_str(&format!(
            "; killed {} it left running",
            count(n, "process", "processes")
        )),
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeout_accepts_fractions_and_refuses_nonsense() {
        assert_eq!(parse_secs("2").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_secs("0.5").unwrap(), Duration::from_millis(500));
        for bad in ["0", "-1", "nan", "inf", "ten", "1e9"] {
            assert!(parse_secs(bad).is_err(), "{bad}");
        }
    }
}
