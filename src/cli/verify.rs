//! `skillscope verify`: runs the agent's own client, installed on `PATH`, once in the sandbox
//! against skillscope's loopback mock, and compares the listing it sent with `prompt --agent`'s.
//! Exit 0 identical, 1 differs, 2 the client is missing or could not be run (with why).

use crate::cli::args::LibraryArgs;
use crate::core::Agent;
use crate::core::verify::calibrate::{Learned, WindowFit};
use crate::core::verify::{self, Client, Comparison, extract::Found};
use crate::core::words::text::thousands;
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::time::Duration;

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The agent whose client to run: claude-code, codex, gemini, opencode, qwen-code,
    /// github-copilot, cline or openclaw [default: each of them whose client is on PATH].
    #[arg(long, value_parser = parse_client)]
    pub agent: Option<Agent>,
    /// The model the client runs, as `prompt --model` takes it [default: the one its own
    /// settings set, which the client reads too].
    #[arg(long = "model", value_name = "MODEL")]
    pub client_model: Option<String>,
    /// Seconds the client may take for its start and its turn [default: 300, or
    /// $SKILLSCOPE_VERIFY_TIMEOUT].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The variable that sets verify's time limit when `--timeout` is not given.
pub const TIMEOUT_ENV: &str = "SKILLSCOPE_VERIFY_TIMEOUT";
/// The time limit without `--timeout` or the variable: OpenClaw 2026.9.6 took 143 s on a loaded
/// machine (two cores, load 12), over the 120 s this was before.
const DEFAULT_TIMEOUT: u64 = 300;

/// The seconds the client may take: `--timeout`, else `$SKILLSCOPE_VERIFY_TIMEOUT` (a positive
/// whole number; anything else is said and the default used), else 300; and where it came from,
/// for the message when it is hit.
fn time_limit(given: Option<u64>, env: Option<&str>) -> (u64, String) {
    if let Some(t) = given {
        return (t, format!("--timeout {t}"));
    }
    if let Some(v) = env {
        match v.trim().parse::<u64>() {
            Ok(t) if t > 0 => return (t, format!("{TIMEOUT_ENV}={t}")),
            _ => crate::cli::output::warn(format_args!(
                "{TIMEOUT_ENV}={:?} is not a positive number of seconds; using {DEFAULT_TIMEOUT}",
                crate::core::words::text::line(v)
            )),
        }
    }
    (DEFAULT_TIMEOUT, "the default".to_string())
}

fn parse_client(s: &str) -> Result<Agent, String> {
    verify::agents().find(|a| a.as_str() == s).ok_or_else(|| {
        let names: Vec<&str> = verify::agents().map(Agent::as_str).collect();
        format!("verify runs the clients of {}, not `{s}`", names.join(", "))
    })
}

/// What one agent's verify came to.
struct Outcome {
    client: &'static Client,
    command: Option<std::path::PathBuf>,
    /// The version the client that ran told (`--version` in the sandbox, as it ran).
    version: Option<String>,
    /// The version its installed files tell (its npm package), read without running it.
    installed: Option<String>,
    /// The comparison, or why there is none.
    result: Result<(Comparison, String, String), String>,
    /// What was learned from a release skillscope has no captures of, and where it was kept;
    /// or why nothing was. `None`: no calibration was made (a captured release, an agent
    /// without release eras).
    calibration: Option<Result<(Learned, std::path::PathBuf), String>>,
    /// When the user's own client would list otherwise than the run compared (Gemini CLI in a
    /// folder it does not trust, run trusted): what differs for them.
    trust_note: Option<String>,
}

impl Outcome {
    fn code(&self) -> i32 {
        match &self.result {
            Ok((c, _, _)) => i32::from(!c.holds()),
            Err(_) => 2,
        }
    }
}

pub fn run(args: VerifyArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    if !crate::core::probe::HAS_SANDBOX {
        anyhow::bail!("{}", crate::core::probe::NO_SANDBOX);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let agents: Vec<Agent> = if let Some(a) = args.agent {
        vec![a]
    } else {
        let found: Vec<Agent> = verify::agents()
            .filter(|&a| verify::client(a).is_some_and(|c| c.find(&path).is_some()))
            .collect();
        if found.is_empty() {
            crate::cli::output::warn(
                "no client is on PATH: install one (`npm install -g @anthropic-ai/claude-code`, \
                 `@openai/codex`, `@google/gemini-cli`, `opencode-ai`, `@qwen-code/qwen-code`, \
                 `@github/copilot`, `cline` or `openclaw`) or name it with --agent",
            );
            return Ok(2);
        }
        found
    };
    let mut outcomes = Vec::new();
    for agent in agents {
        let client = verify::client(agent)
            .ok_or_else(|| anyhow::anyhow!("verify cannot run {}'s client", agent.as_str()))?;
        outcomes.push(one(client, &args, &library, &path)?);
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let all: Vec<serde_json::Value> = outcomes.iter().map(json_of).collect();
        let v = if all.len() == 1 {
            all.into_iter().next().unwrap_or_default()
        } else {
            serde_json::Value::Array(all)
        };
        crate::cli::output::write_json(&mut out, &v)?;
        writeln!(out)?;
    } else {
        for o in &outcomes {
            out.write_all(text_of(o).as_bytes())?;
        }
    }
    out.flush()?;
    Ok(outcomes.iter().map(Outcome::code).max().unwrap_or(2))
}

/// Runs one client and compares.
fn one(
    client: &'static Client,
    args: &VerifyArgs,
    library: &LibraryArgs,
    path: &std::ffi::OsStr,
) -> anyhow::Result<Outcome> {
    let mut outcome = Outcome {
        client,
        command: client.find(path),
        version: None,
        installed: client.installed(path).map(|i| i.version),
        result: Err(String::new()),
        calibration: None,
        trust_note: None,
    };
    let passed: Vec<(std::ffi::OsString, std::ffi::OsString)> = verify::passed_variables(client)
        .into_iter()
        .filter_map(|v| std::env::var_os(v).map(|x| (v.into(), x)))
        .collect();
    // The prediction for the run verify makes (Gemini CLI trusted, as it runs), and what the
    // user's own client would list otherwise.
    let as_run = verify::as_run(client, &passed);
    let prediction = crate::cli::prompt::predicted_in(
        client.agent,
        args.client_model.as_deref(),
        library,
        &as_run,
    )?;
    let trust_note = crate::cli::args::places().ok().and_then(|(home, project)| {
        verify::untrusted_note(client, &home, project.as_deref(), &passed, &|k| {
            std::env::var(k).ok()
        })
    });
    let (lib, predicted) = (&prediction.lib, &prediction.text);
    let limit = time_limit(args.timeout, std::env::var(TIMEOUT_ENV).ok().as_deref());
    let setup = verify::Setup {
        path: path.to_os_string(),
        home: dirs::home_dir(),
        cwd: std::env::current_dir()?,
        model: args.client_model.clone(),
        add_dirs: library.add_dir.clone(),
        timeout: Duration::from_secs(limit.0),
        passed,
    };
    let report = verify::plan(client, lib, &setup).and_then(|plan| {
        let me = std::env::current_exe()
            .map_err(|e| verify::VerifyError::NoSandbox(format!("no skillscope binary: {e}")))?;
        verify::run(&plan, &me)
    });
    let report = match report {
        Ok(r) => r,
        Err(verify::VerifyError::TimedOut(why)) => {
            outcome.result = Err(format!(
                "the sandboxed run gave no report: {}; {why}",
                timed_out(&limit)
            ));
            return Ok(outcome);
        }
        Err(e) => {
            outcome.result = Err(e.to_string());
            return Ok(outcome);
        }
    };
    if std::env::var_os("SKILLSCOPE_VERIFY_DEBUG").is_some() {
        // What the client sent and printed is its own: escaped like every other output.
        eprintln!(
            "{}",
            crate::core::words::text::text(&serde_json::to_string_pretty(&report)?)
        );
    }
    outcome.version = verify::version_in(&report.version.stdout);
    if let Some(e) = report.error {
        outcome.result = Err(e);
        return Ok(outcome);
    }
    let real = match verify::extract::listing(client, &report.requests) {
        // A private home at another place than the user's (macOS): its paths are the user's.
        Found::Listing(l) => match (&report.home, &setup.home) {
            (Some(private), Some(user)) => {
                l.replace(&*private.to_string_lossy(), &user.to_string_lossy())
            }
            _ => l,
        },
        Found::NoTurn => {
            outcome.result = Err(unusable(client, &report, &limit));
            return Ok(outcome);
        }
    };
    let label = format!(
        "{} {}",
        client.command,
        outcome.version.as_deref().unwrap_or("(version unknown)")
    );
    let mut cmp = verify::compare(&real, predicted, &label);
    if !cmp.identical {
        let on = |i: usize| prediction.on.get(i).copied().unwrap_or(false);
        cmp.own_choice = verify::choice::own_choice(lib, &on, &prediction.opts, &real);
    }
    remember(client, outcome.version.as_deref(), predicted, &cmp);
    outcome.calibration = calibrate(client, outcome.version.as_deref(), &prediction, &real);
    outcome.trust_note = trust_note;
    outcome.result = Ok((cmp, real, prediction.text));
    Ok(outcome)
}

/// Learns from the listing `real` of a client release skillscope has no captures of (its
/// built-ins, the window its budget shows) and keeps it in the cache, where every view of the
/// agent finds it; `None` for a captured release or an agent without release eras.
fn calibrate(
    client: &Client,
    version: Option<&str>,
    p: &crate::cli::prompt::Prediction,
    real: &str,
) -> Option<Result<(Learned, std::path::PathBuf), String>> {
    use crate::core::agents::{calibration, eras};
    let agent = client.agent;
    if eras::eras(agent).is_empty() {
        return None;
    }
    let Some(version) = version else {
        return Some(Err(
            "the client did not tell its version: nothing calibrated".to_string(),
        ));
    };
    let (_, standing) = eras::era_for(agent, version)?;
    if standing == eras::Standing::Captured {
        return None;
    }
    if standing == eras::Standing::Older {
        // What it would learn belongs to another era's wording and placement: kept, it would
        // make every view of the agent wrong in another way.
        return Some(Err(format!(
            "nothing calibrated: {} {version} is older than every release skillscope models",
            client.name
        )));
    }
    if !matches!(
        p.opts.format,
        crate::core::listing::Format::ClaudeCode | crate::core::listing::Format::Codex
    ) {
        // Only Claude Code's built-ins and Claude Code's and Codex's budgets are learned from a
        // listing; another agent's eras hold its built-ins as data of their captures.
        return Some(Err(format!(
            "nothing calibrated: skillscope learns nothing from {}'s listing yet (its releases \
             are modelled from captures)",
            client.name
        )));
    }
    let at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let on = |i: usize| p.on.get(i).copied().unwrap_or(false);
    let learned = verify::calibrate::learn(
        (agent.as_str(), version, at),
        &p.lib,
        &on,
        p.opts,
        p.model,
        real,
    );
    if let Err(why) = learned.calibration.check(agent.as_str()) {
        return Some(Err(format!("nothing calibrated: {why}")));
    }
    let path = calibration::file();
    Some(
        calibration::write(&path, &learned.calibration)
            .map(|()| (learned, path))
            .map_err(|e| e.to_string()),
    )
}

/// What the calibration says: what was kept, where, and whether it makes the client's listing.
fn calibration_text(o: &Outcome) -> String {
    let Some(c) = &o.calibration else {
        return String::new();
    };
    let (l, path) = match c {
        Ok(x) => x,
        Err(why) => return format!("not calibrated: {}\n", crate::core::words::text::line(why)),
    };
    let cal = &l.calibration;
    let name = o.client.name;
    let mut what = Vec::new();
    if let Some(b) = &cal.builtins {
        let mut changes = Vec::new();
        for (label, names) in [
            ("new", &l.new_builtins),
            ("changed", &l.changed_builtins),
            ("gone", &l.gone_builtins),
        ] {
            if !names.is_empty() {
                changes.push(format!("{} {label}: {}", names.len(), names.join(", ")));
            }
        }
        let changes = if changes.is_empty() {
            " (as modelled)".to_string()
        } else {
            format!(" ({})", changes.join("; "))
        };
        what.push(format!(
            "its {}{changes}",
            crate::core::words::text::count_of(b.len(), "built-in", "built-ins")
        ));
    }
    let model = l.model.unwrap_or("its model");
    what.push(match &l.window {
        WindowFit::Held(w) => format!(
            "its budget for {model} (a window of {} tokens, as modelled)",
            thousands(*w as u64)
        ),
        WindowFit::Fitted { from, to } => format!(
            "its budget for {model} (fitted: a window of {} tokens where the model has {})",
            thousands(*to as u64),
            thousands(*from as u64)
        ),
        WindowFit::NotFitted(why) => format!("not its budget: {why}"),
    });
    let mut s = format!(
        "calibrated against {name} {}: {}; kept in {}, every view of {} uses it while {name} {} is installed\n",
        crate::core::words::text::line(&cal.version),
        crate::core::words::text::line(&what.join("; ")),
        crate::core::words::text::path(path),
        o.client.agent.as_str(),
        crate::core::words::text::line(&cal.version),
    );
    match l.first_difference {
        None => s.push_str("the calibrated prediction is the client's listing byte for byte\n"),
        Some(n) => s.push_str(&format!(
            "the calibrated prediction still differs from line {n}\n"
        )),
    }
    s
}

fn calibration_json(o: &Outcome) -> serde_json::Value {
    match &o.calibration {
        None => serde_json::Value::Null,
        Some(Err(why)) => json!({ "error": why }),
        Some(Ok((l, path))) => {
            let (held, fitted, not) = match &l.window {
                WindowFit::Held(w) => (Some(*w), None, None),
                WindowFit::Fitted { to, .. } => (None, Some(*to), None),
                WindowFit::NotFitted(why) => (None, None, Some(*why)),
            };
            json!({
                "file": path,
                "version": l.calibration.version,
                "at": l.calibration.at,
                "builtins": l.calibration.builtins.as_ref().map(Vec::len),
                "new_builtins": l.new_builtins,
                "changed_builtins": l.changed_builtins,
                "gone_builtins": l.gone_builtins,
                "model": l.model,
                "window": l.calibration.window,
                "window_as_modelled": held,
                "window_fitted": fitted,
                "window_not_fitted": not,
                "reproduced": l.calibration.reproduced,
                "first_difference": l.first_difference,
            })
        }
    }
}

/// Why the client's run gave no turn to compare: its exit, its last words.
fn unusable(client: &Client, report: &verify::StageReport, limit: &(u64, String)) -> String {
    let run = &report.run;
    let how = if let Some(e) = &run.error {
        e.clone()
    } else if run.timed_out {
        timed_out(limit)
    } else {
        match run.code {
            Some(c) => format!("it exited with {c}"),
            None => "a signal ended it".to_string(),
        }
    };
    let last = run
        .stderr
        .lines()
        .chain(run.stdout.lines())
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| format!(": {}", crate::core::words::text::line(l.trim())))
        .unwrap_or_default();
    let unread: Vec<String> = report
        .requests
        .iter()
        .filter_map(|r| {
            r.unread.as_ref().map(|why| {
                format!(
                    "{} {}: {why}",
                    crate::core::words::text::line(&r.method),
                    crate::core::words::text::line(&r.path)
                )
            })
        })
        .collect();
    let unread = match unread.as_slice() {
        [] => String::new(),
        [first, ..] => format!(
            "; the mock did not read {} of its request bodies (the listing may have been in one): {first}",
            unread.len()
        ),
    };
    let hint = verify::first_start_hint(client, &run.stderr)
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    format!(
        "{} sent no turn to the mock ({} requests): {how}{last}{unread}{hint}",
        client.name,
        report.requests.len()
    )
}

/// What verify says when the client's run hits its time limit: the limit, where it came from,
/// and how to give it more.
fn timed_out((secs, from): &(u64, String)) -> String {
    format!(
        "it did not finish within verify's time limit of {secs} s ({from}); a loaded machine or \
         a slow first start may need more: give it with --timeout SECS or {TIMEOUT_ENV}=SECS"
    )
}

/// Keeps the result in the cache for the app's Prompt screen.
fn remember(client: &Client, version: Option<&str>, predicted: &str, cmp: &Comparison) {
    let mut store = verify::store::VerifyStore::open();
    store.record(verify::store::Verified {
        agent: client.agent.as_str().to_string(),
        version: version.unwrap_or("unknown").to_string(),
        listing: verify::store::fingerprint(predicted),
        identical: cmp.identical,
        client_tokens: cmp.client_tokens,
        predicted_tokens: cmp.predicted_tokens,
        diff: cmp.diff.clone(),
        at: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    });
    if let Err(e) = store.save() {
        crate::cli::output::warn(format_args!("cannot remember the verify result: {e}"));
    }
}

fn version_note(o: &Outcome) -> Option<String> {
    o.version.as_deref().and_then(|v| o.client.version_note(v))
}

/// When the release that ran is not the one installed (GitHub Copilot CLI's loader starts a
/// newer package it keeps unpacked when let): which ran, so that no release's result is shown
/// under another's name.
fn ran_note(o: &Outcome) -> Option<String> {
    let (ran, installed) = (o.version.as_deref()?, o.installed.as_deref()?);
    (ran != installed).then(|| {
        format!(
            "{} {installed} is installed, but {ran} ran (its loader started another release it \
             keeps): the result is {ran}'s",
            o.client.name
        )
    })
}

/// What a release older than every modelled one means for the comparison: its differences are
/// that release's, not the library's.
fn older_note(o: &Outcome) -> Option<String> {
    use crate::core::agents::eras;
    let v = o.version.as_deref()?;
    let (first, standing) = eras::era_for(o.client.agent, v)?;
    if standing != eras::Standing::Older {
        return None;
    }
    let name = o.client.name;
    let how = (o.client.agent.home().older_release_note)(v);
    Some(format!(
        "{name} releases before {} are not modelled{how}: the prediction is {name} {}'s, so \
         what differs is the release, not your library",
        first.client.version, first.client.version
    ))
}

fn text_of(o: &Outcome) -> String {
    let c = o.client;
    let ran = if o.result.is_ok() {
        ", sandboxed against skillscope's mock"
    } else {
        ""
    };
    let mut s = match (&o.command, &o.version) {
        (Some(cmd), Some(v)) => format!(
            "{} {} ({}){ran}\n",
            c.name,
            crate::core::words::text::line(v),
            crate::core::words::text::path(cmd)
        ),
        (Some(cmd), None) => format!(
            "{} ({}){ran}\n",
            c.name,
            crate::core::words::text::path(cmd)
        ),
        (None, _) => format!("{}\n", c.name),
    };
    if let Some(n) = ran_note(o) {
        s.push_str(&format!("note: {}\n", crate::core::words::text::line(&n)));
    }
    if let Some(n) = version_note(o) {
        s.push_str(&format!("note: {}\n", crate::core::words::text::line(&n)));
    }
    if let Some(n) = older_note(o) {
        s.push_str(&format!("note: {}\n", crate::core::words::text::line(&n)));
    }
    if let Some(n) = &o.trust_note {
        s.push_str(&format!("note: {}\n", crate::core::words::text::line(n)));
    }
    match &o.result {
        Ok((cmp, _, _)) if cmp.identical => s.push_str(&format!(
            "identical ({} tokens, o200k)\n",
            thousands(u64::from(cmp.client_tokens))
        )),
        Ok((cmp, _, _)) if cmp.own_choice.is_some() => {
            let names: Vec<String> = cmp
                .own_choice
                .iter()
                .flatten()
                .map(|n| crate::core::words::text::line(n).into_owned())
                .collect();
            s.push_str(&format!(
                "the client's own choice: {} placed or picked otherwise ({}), which {} decides as it \
                 runs; everything else identical ({} {} tokens, skillscope {} tokens, o200k)\n",
                crate::core::words::text::count_of(names.len(), "entry", "entries"),
                names.join(", "),
                c.name,
                c.command,
                thousands(u64::from(cmp.client_tokens)),
                thousands(u64::from(cmp.predicted_tokens)),
            ));
            s.push_str(&crate::core::words::text::text(&cmp.diff));
            if !cmp.diff.ends_with('\n') {
                s.push('\n');
            }
        }
        Ok((cmp, _, _)) => {
            s.push_str(&format!(
                "differs from line {}: {} {} tokens, skillscope {} tokens (o200k)\n",
                cmp.first_difference.unwrap_or(1),
                c.command,
                thousands(u64::from(cmp.client_tokens)),
                thousands(u64::from(cmp.predicted_tokens)),
            ));
            s.push_str(&crate::core::words::text::text(&cmp.diff));
            if !cmp.diff.ends_with('\n') {
                s.push('\n');
            }
        }
        Err(why) => s.push_str(&format!(
            "unusable: {}\n",
            crate::core::words::text::line(why)
        )),
    }
    s.push_str(&calibration_text(o));
    s
}

fn json_of(o: &Outcome) -> serde_json::Value {
    let (status, reason, cmp, real, predicted) = match &o.result {
        Ok((c, r, p)) => (
            if c.identical {
                "identical"
            } else if c.own_choice.is_some() {
                "own_choice"
            } else {
                "differs"
            },
            None,
            Some(c),
            Some(r),
            Some(p),
        ),
        Err(why) => ("unusable", Some(why), None, None, None),
    };
    json!({
        "agent": o.client.agent.as_str(),
        "client": o.client.name,
        "command": o.command,
        "version": o.version,
        "installed": o.installed,
        "ran_note": ran_note(o),
        "modelled": o.client.modelled(),
        "version_note": version_note(o),
        "not_modelled": older_note(o),
        "trust_note": o.trust_note,
        "status": status,
        "exit_code": o.code(),
        "reason": reason,
        "client_tokens": cmp.map(|c| c.client_tokens),
        "predicted_tokens": cmp.map(|c| c.predicted_tokens),
        "first_difference": cmp.and_then(|c| c.first_difference),
        "diff": cmp.map(|c| c.diff.as_str()),
        "own_choice": cmp.and_then(|c| c.own_choice.as_ref()),
        "listing": real,
        "predicted": predicted,
        "calibration": calibration_json(o),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--timeout` first, then the variable, then 300 s; each named as where the limit came
    /// from, and the message when it is hit names the limit and both ways to raise it.
    #[test]
    fn the_time_limit_comes_from_the_option_then_the_variable() {
        assert_eq!(
            time_limit(Some(30), Some("900")),
            (30, "--timeout 30".to_string())
        );
        assert_eq!(
            time_limit(None, Some(" 900 ")),
            (900, "SKILLSCOPE_VERIFY_TIMEOUT=900".to_string())
        );
        assert_eq!(time_limit(None, None), (300, "the default".to_string()));
        assert_eq!(time_limit(None, Some("soon")).0, 300);
        assert_eq!(time_limit(None, Some("0")).0, 300);
        let said = timed_out(&time_limit(None, Some("300")));
        assert!(
            said.starts_with(
                "it did not finish within verify's time limit of 300 s (SKILLSCOPE_VERIFY_TIMEOUT=300)"
            ),
            "{said}"
        );
        assert!(
            said.contains("--timeout SECS or SKILLSCOPE_VERIFY_TIMEOUT=SECS"),
            "{said}"
        );
    }
}
