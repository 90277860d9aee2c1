//! The verify run, skillscope's side: what the sandbox gets (the client found on `PATH`, the
//! folders it may read, its environment pointing at the mock) and what comes back.

use super::clients::Client;
use super::stage::{STAGE_ARG, StageReport, StageSpec};
use crate::core::Library;
use crate::core::agents::run_recipe::RunArgs;
use crate::core::probe::sandbox::{self, Isolated, Preference, RunSpec};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The port the mock listens on inside the sandbox's own network namespace (nothing else is
/// there, so any port would do).
pub const PORT: u16 = 41_414;
/// Most bytes of the stage's report read.
const REPORT_CAP: usize = 256 << 20;
/// Folders every process sees anyway: nothing of them needs revealing.
const SYSTEM: [&str; 6] = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/nix"];

/// What a client's failed start says it needs done outside the sandbox first, when its last
/// words tell.
pub fn first_start_hint(client: &Client, stderr: &str) -> Option<String> {
    (client.first_start_hint)(client.name, client.command, stderr)
}

/// The variables of the user's environment that change what the client lists, passed to it
/// as they are (skillscope's prediction reads them too).
pub fn passed_variables(client: &Client) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = crate::core::agents::model::model(client.agent)
        .client
        .and_then(|c| c.budget_env)
        .into_iter()
        .collect();
    v.extend(client.trust_env);
    v
}

/// Files the client needs written into its private home before it starts (its record's
/// [`MockSettings`](crate::core::agents::run_recipe::MockSettings)): the user's settings file
/// of the client (JSON with comments; JSON5's comments and trailing commas too) with what points
/// it at the mock merged in, so its switches stay as the user set them; or a file of the
/// client's own written whole.
fn client_files(client: &Client, home: &Path) -> Vec<(PathBuf, String)> {
    let base = format!("http://127.0.0.1:{PORT}");
    let Some(file) = &client.settings else {
        return Vec::new();
    };
    let path = home.join(file.file);
    let ours = (file.ours)(&base);
    let settings = if file.merged {
        let mut settings = read_json_settings(&path);
        merge(&mut settings, &ours);
        settings
    } else {
        ours
    };
    vec![(path, format!("{settings:#}\n"))]
}

/// The user's settings file at `path` as a JSON object (through the bounded settings reader);
/// `{}` when it is missing, unreadable or not an object.
fn read_json_settings(path: &Path) -> serde_json::Value {
    crate::core::files::fsx::read_settings(path)
        .ok()
        .flatten()
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|t| {
            jsonc_parser::parse_to_serde_value(&t, &jsonc_parser::ParseOptions::default()).ok()
        })
        .flatten()
        .filter(serde_json::Value::is_object)
        .unwrap_or_else(|| serde_json::json!({}))
}

/// Deep-merges `from` into `into` (objects key by key, anything else replaced).
fn merge(into: &mut serde_json::Value, from: &serde_json::Value) {
    match (into, from) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

/// Why a verify run could not say anything about the listing.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The client's command is not on `PATH`.
    #[error("`{command}` is not on PATH; install it with `npm install -g {package}`")]
    NotOnPath {
        /// Its command.
        command: &'static str,
        /// Its npm package.
        package: &'static str,
    },
    /// There is no home folder to put the private one at.
    #[error("no home folder: verify gives the client a private one at its place")]
    NoHome,
    /// The namespaces sandbox cannot run here; the client did not run.
    #[error("refusing to run the client without the sandbox: {0}")]
    NoSandbox(String),
    /// The sandbox could not be started.
    #[error("the sandbox could not start: {0}")]
    Start(std::io::Error),
    /// The client would run in the home folder, or a folder holding it: its private home goes
    /// there, so that folder cannot also be its project.
    #[error(
        "verify runs the client in the current folder, {0}, which is your home folder or holds \
         it: the client gets an empty private home in its place, so it cannot also be shown as \
         the project; run verify from a project folder"
    )]
    HomeAsProject(String),
    /// The stage printed no report.
    #[error("the sandboxed run gave no report: {0}")]
    NoReport(String),
    /// The stage printed no report, stopped at its time limit (the client's, with the time its
    /// start and the sandbox around it are given).
    #[error("the sandboxed run gave no report: {0}")]
    TimedOut(String),
}

/// Where and how the client runs.
#[derive(Debug)]
pub struct Plan {
    /// The client run.
    pub client: &'static Client,
    /// The command found on `PATH`.
    pub command: PathBuf,
    /// The project folder it runs in.
    pub cwd: PathBuf,
    /// The user's home folder, where the private one is mounted.
    pub home: PathBuf,
    /// The client's arguments for its one turn.
    pub args: Vec<String>,
    /// What the sandbox shows it and lets it do.
    pub isolated: Isolated,
    /// How long its turn may take.
    pub timeout: Duration,
    /// Files written into the private home before the client starts.
    pub files: Vec<(PathBuf, String)>,
}

/// What the plan is made from.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The `PATH` the client is looked for on (and runs with).
    pub path: OsString,
    /// The user's home folder.
    pub home: Option<PathBuf>,
    /// The folder the client runs in.
    pub cwd: PathBuf,
    /// The model chosen for the run: Claude Code's and Codex's `--model`.
    pub model: Option<String>,
    /// Claude Code's `--add-dir` folders.
    pub add_dirs: Vec<PathBuf>,
    /// How long its turn may take.
    pub timeout: Duration,
    /// Variables of the user's environment that change the listing (the budget variable).
    pub passed: Vec<(OsString, OsString)>,
}

/// Plans the run of `client` on the library `lib` (that agent's view).
pub fn plan(client: &'static Client, lib: &Library, setup: &Setup) -> Result<Plan, VerifyError> {
    let command = client.find(&setup.path).ok_or(VerifyError::NotOnPath {
        command: client.command,
        package: client.package,
    })?;
    let home = setup.home.clone().ok_or(VerifyError::NoHome)?;
    let real_home = std::fs::canonicalize(&home).unwrap_or_else(|_| home.clone());
    let real_cwd = std::fs::canonicalize(&setup.cwd).unwrap_or_else(|_| setup.cwd.clone());
    if home.starts_with(&setup.cwd) || real_home.starts_with(&real_cwd) {
        return Err(VerifyError::HomeAsProject(
            crate::core::words::escape::path(&setup.cwd),
        ));
    }
    let installed =
        crate::core::agents::installed::of_command(client.agent, &command).map(|i| i.version);
    let mut program = Program::default();
    program.add(&command, &home, true);
    if let Some(node) = std::env::split_paths(&setup.path)
        .filter(|d| d.is_absolute())
        .map(|d| d.join("node"))
        .find(|n| n.is_file())
    {
        program.add(&node, &home, true);
    }
    let Program { mut reveal, links } = program;
    reveal.extend(lib.roots.iter().map(|r| r.path.clone()));
    for s in &lib.skills {
        if let Ok(real) = std::fs::canonicalize(&s.dir)
            && !real.starts_with(&*s.root)
        {
            reveal.push(real);
        }
    }
    let files = client_files(client, &home);
    if let Some(c) = crate::core::agents::model::model(client.agent).client {
        // A settings file verify writes a copy of is not the user's to show.
        reveal.extend(
            c.settings_files
                .0
                .iter()
                .chain(client.other_files)
                .map(|f| home.join(f))
                .filter(|f| !files.iter().any(|(p, _)| p == f)),
        );
    }
    let project = crate::core::agents::project_root(&setup.cwd, Some(&home));
    reveal.extend(project.iter().cloned());
    reveal.extend(setup.add_dirs.iter().cloned());
    reveal.retain(|p| {
        p.is_absolute()
            && std::fs::symlink_metadata(p).is_ok()
            && !home.starts_with(p)
            && !real_home.starts_with(p)
            && !SYSTEM.iter().any(|s| p.starts_with(s))
    });
    reveal.sort();
    reveal.dedup();
    let mut env: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), setup.path.clone()),
        ("TERM".into(), "dumb".into()),
        ("NO_COLOR".into(), "1".into()),
    ];
    env.extend(setup.passed.iter().cloned());
    env.extend(
        client_env(client)
            .into_iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v))),
    );
    env.extend(trust(client, &setup.passed));
    Ok(Plan {
        client,
        command,
        cwd: setup.cwd.clone(),
        args: client_args(client, setup, installed.as_deref()),
        isolated: Isolated {
            home: home.clone(),
            reveal,
            env,
            port: PORT,
            layered: project,
            links,
        },
        home,
        timeout: setup.timeout,
        files,
    })
}

/// What the sandbox shows of a program so that it starts by the name `PATH` gives it: its real
/// file and installation ([`sandbox::installation`]), the symbolic links on the way to it (made
/// again inside, so no folder around a link is shown), and for a shell wrapper the same for the
/// programs it names — never the folder around the wrapper.
#[derive(Debug, Default)]
struct Program {
    reveal: Vec<PathBuf>,
    links: Vec<(PathBuf, PathBuf)>,
}

/// Most bytes of a shell wrapper read to find the programs it starts.
const WRAPPER_CAP: u64 = 64 << 10;
/// Most symbolic links followed from one name.
const MAX_LINKS: usize = 40;

impl Program {
    /// Adds what `path` needs; `wrapper`: also look into it when it is a shell wrapper.
    fn add(&mut self, path: &Path, home: &Path, wrapper: bool) {
        let Some(real) = resolve(path, &mut self.links) else {
            return;
        };
        if !std::fs::metadata(&real).is_ok_and(|m| m.is_file()) {
            return;
        }
        self.reveal.extend(sandbox::installation(&real, Some(home)));
        self.reveal.push(real.clone());
        if wrapper {
            for target in wrapper_targets(path, &real, home) {
                self.add(&target, home, false);
            }
        }
    }
}

/// `path` with every symbolic link on the way resolved, as the kernel does, noting each link
/// met (its place, its target as written); `None` when a part is missing or the links loop.
fn resolve(path: &Path, links: &mut Vec<(PathBuf, PathBuf)>) -> Option<PathBuf> {
    use std::collections::VecDeque;
    use std::path::Component;
    if !path.is_absolute() {
        return None;
    }
    let mut todo: VecDeque<std::ffi::OsString> = VecDeque::new();
    let push_parts = |todo: &mut VecDeque<std::ffi::OsString>, p: &Path| {
        for c in p.components().rev() {
            match c {
                Component::Normal(n) => todo.push_front(n.to_os_string()),
                Component::ParentDir => todo.push_front("..".into()),
                Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
            }
        }
    };
    push_parts(&mut todo, path);
    let mut cur = PathBuf::from("/");
    let mut hops = 0;
    while let Some(part) = todo.pop_front() {
        if part == ".." {
            cur.pop();
            continue;
        }
        let next = cur.join(&part);
        if std::fs::symlink_metadata(&next)
            .ok()?
            .file_type()
            .is_symlink()
        {
            hops += 1;
            if hops > MAX_LINKS {
                return None;
            }
            let target = std::fs::read_link(&next).ok()?;
            if target.is_absolute() {
                cur = PathBuf::from("/");
            }
            push_parts(&mut todo, &target);
            if !links.iter().any(|(l, _)| *l == next) {
                links.push((next, target));
            }
        } else {
            cur = next;
        }
    }
    Some(cur)
}

/// The programs a shell wrapper (a short script run by a shell: Claude Code's own
/// `~/.claude/local/claude`, a pnpm or npm shim) starts: the absolute paths it holds and those
/// below `$basedir` (the shims' name for the wrapper's folder, as called) or `$HOME`, each when
/// it is a file that can run (its run bit set, or inside a `node_modules` folder, which a shim
/// hands to `node`). Nothing else of the wrapper's folder is looked at.
fn wrapper_targets(called: &Path, real: &Path, home: &Path) -> Vec<PathBuf> {
    // A regular file only (a pipe there would never end), and no more than a wrapper holds.
    let Ok(Some(text)) = crate::core::files::fsx::read_regular_up_to(real, WRAPPER_CAP) else {
        return Vec::new();
    };
    if !text.starts_with(b"#!") {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&text);
    let shebang = text.lines().next().unwrap_or("");
    let shells = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash"];
    let by_shell = shebang[2..]
        .split_whitespace()
        .take(2)
        .any(|w| shells.contains(&w.rsplit('/').next().unwrap_or(w)));
    if !by_shell {
        return Vec::new();
    }
    let basedir = called.parent().unwrap_or(Path::new("/"));
    let mut out: Vec<PathBuf> = Vec::new();
    let words = text
        .lines()
        .skip(1)
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| l.split(|c: char| c.is_whitespace() || "\"'`;()|&<>=".contains(c)));
    for word in words {
        let path = if let Some(rest) = ["$basedir/", "${basedir}/"]
            .iter()
            .find_map(|p| word.strip_prefix(p))
        {
            basedir.join(rest)
        } else if let Some(rest) = ["$HOME/", "${HOME}/", "~/"]
            .iter()
            .find_map(|p| word.strip_prefix(p))
        {
            home.join(rest)
        } else if word.starts_with('/') {
            PathBuf::from(word)
        } else {
            continue;
        };
        if path.as_os_str().as_encoded_bytes().contains(&b'$') || out.contains(&path) {
            continue;
        }
        let Ok(target) = std::fs::canonicalize(&path) else {
            continue;
        };
        let runs = std::fs::metadata(&target)
            .is_ok_and(|m| m.is_file() && crate::core::files::fsx::runnable(&target, &m));
        let packaged = target
            .ancestors()
            .any(|a| a.file_name() == Some(OsStr::new("node_modules")));
        if target != real && (runs || (packaged && target.is_file())) {
            out.push(path);
        }
    }
    out
}

/// The client's arguments for one non-interactive turn saying "hello"; `installed`: the
/// version of the release that runs, when its files tell.
fn client_args(client: &Client, setup: &Setup, installed: Option<&str>) -> Vec<String> {
    let base = format!("http://127.0.0.1:{PORT}");
    (client.args)(&RunArgs {
        base: &base,
        model: setup.model.as_deref(),
        add_dirs: &setup.add_dirs,
        installed,
    })
}

/// The variable that makes the client trust the project folder (Gemini CLI's), set to `true`
/// for this sandboxed run alone — nothing is written to the user's trusted folders. A value the
/// user set is passed as it is instead.
fn trust(client: &Client, passed: &[(OsString, OsString)]) -> Option<(OsString, OsString)> {
    let name = client.trust_env?;
    (!passed.iter().any(|(k, _)| k == name)).then(|| (name.into(), "true".into()))
}

/// The environment as the client's run has it, for the prediction to be made for that run:
/// the variables verify decides for it (Gemini CLI's folder trust: trusted, unless the user set
/// the variable, `passed`) as the run gets them; every other one from this process.
pub fn as_run(
    client: &Client,
    passed: &[(OsString, OsString)],
) -> impl Fn(&str) -> Option<String> + use<> {
    // The variables of the client's folder trust: the run sees only the one it is given
    // ([`trust`]), never the user's others (its sandbox starts from an empty environment).
    let decided: Vec<(String, Option<String>)> = if client.trust_env.is_some() {
        let given: Vec<(OsString, OsString)> = passed
            .iter()
            .cloned()
            .chain(trust(client, passed))
            .collect();
        client
            .trust_variables
            .iter()
            .map(|&k| {
                let v = given
                    .iter()
                    .find(|(n, _)| n == k)
                    .map(|(_, v)| v.to_string_lossy().into_owned());
                (k.to_string(), v)
            })
            .collect()
    } else {
        Vec::new()
    };
    move |k: &str| match decided.iter().find(|(n, _)| n == k) {
        Some((_, v)) => v.clone(),
        None => std::env::var(k).ok(),
    }
}

/// What the user's own Gemini CLI would list otherwise than verify's run of it: in a folder it
/// does not trust (by the user's own environment and trusted folders), its project skills,
/// which the run trusted to start at all lists; `None` when the folder is trusted, for another
/// client, or when the user set the trust variable (the run has it as the user does).
pub fn untrusted_note(
    client: &Client,
    home: &Path,
    project: Option<&Path>,
    passed: &[(OsString, OsString)],
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<String> {
    trust(client, passed)?;
    let (own, _) =
        crate::core::agents::AgentSwitches::load_for_in(client.agent, home, project, env);
    (!own.gemini().trusted).then(|| {
        format!(
            "your {} does not trust this folder: its project skills are listed only once you \
             trust it; compared as trusted",
            client.name
        )
    })
}

/// The environment that points the client at the mock and keeps it from updating or reporting.
fn client_env(client: &Client) -> Vec<(&'static str, String)> {
    let base = format!("http://127.0.0.1:{PORT}");
    (client.env)(&base)
}

/// Runs the plan in the sandbox, through `stage_program` (the skillscope binary).
pub fn run(plan: &Plan, stage_program: &Path) -> Result<StageReport, VerifyError> {
    let spec = StageSpec {
        agent: plan.client.agent.as_str().to_string(),
        program: plan.command.clone(),
        args: plan.args.clone(),
        port: PORT,
        timeout_ms: u64::try_from(plan.timeout.as_millis()).unwrap_or(u64::MAX),
        files: plan.files.clone(),
        user_home: Some(plan.home.clone()),
    };
    let spec = serde_json::to_string(&spec).map_err(|e| VerifyError::NoReport(e.to_string()))?;
    sandbox::set_stage_program(stage_program);
    let run = RunSpec {
        program: stage_program.to_path_buf(),
        args: vec![STAGE_ARG.into(), spec.into()],
        cwd: plan.cwd.clone(),
        // The version, the client's start, its turn, and the sandbox around them.
        timeout: plan.timeout + Duration::from_secs(45),
        output_cap: REPORT_CAP,
        sandbox: Preference::from_env(),
        isolated: Some(plan.isolated.clone()),
    };
    let out = match sandbox::run(&run, None) {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {
            return Err(VerifyError::NoSandbox(e.to_string()));
        }
        Err(e) => return Err(VerifyError::Start(e)),
    };
    serde_json::from_slice(&out.stdout.bytes).map_err(|e| {
        let why = no_report(&out, &run, &e);
        if out.ending == sandbox::Ending::TimedOut {
            VerifyError::TimedOut(why)
        } else {
            VerifyError::NoReport(why)
        }
    })
}

/// Why the sandboxed stage printed no report: how it ended (a timeout, a signal and what sends
/// it, an exit code, a limit), a report over the cap or not JSON, and the end of its stderr.
fn no_report(out: &sandbox::Outcome, run: &RunSpec, error: &serde_json::Error) -> String {
    use sandbox::Ending;
    let mut why = match (out.ending, out.signal(), out.exit_code()) {
        (Ending::TimedOut, _, _) => {
            format!(
                "it did not finish within {} s and was killed",
                run.timeout.as_secs()
            )
        }
        (Ending::Cancelled, _, _) => "it was cancelled".to_string(),
        (_, Some(sig), _) => {
            #[cfg(unix)]
            let name = nix::sys::signal::Signal::try_from(sig)
                .map_or_else(|_| format!("signal {sig}"), |s| s.as_str().to_string());
            #[cfg(not(unix))]
            let name = format!("signal {sig}");
            let hint = match name.as_str() {
                "SIGKILL" => {
                    " (sent by the kernel when memory runs out, among others: \
                     the client or the mock may have used too much)"
                }
                "SIGXCPU" => " (its CPU time ran out)",
                _ => "",
            };
            format!("it was killed by {name}{hint}")
        }
        (_, None, Some(code)) => format!("it exited with {code}"),
        (_, None, None) => "its end could not be observed".to_string(),
    };
    if out.limit == Some(sandbox::Limit::Processes) {
        why.push_str(&format!(
            "; it had more than {} processes at once",
            sandbox::MAX_PROCESSES
        ));
    }
    if out.stdout.truncated() {
        why.push_str(&format!(
            "; its report ({} bytes) was over the {} MiB read of it",
            crate::core::words::text::thousands(out.stdout.total),
            REPORT_CAP >> 20
        ));
    } else if out.stdout.total > 0 {
        why.push_str(&format!("; its report is not JSON ({error})"));
    }
    let err = String::from_utf8_lossy(&out.stderr.bytes);
    let tail: Vec<&str> = err
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let tail = &tail[tail.len().saturating_sub(3)..];
    if !tail.is_empty() {
        why.push_str(&format!(
            "; its stderr ends: {}",
            crate::core::words::text::line(&tail.join(" / "))
        ));
    }
    why
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// The plan of one client's run in a throwaway home and project, its command a stub on PATH.
    fn planned(
        agent: crate::core::Agent,
        passed: Vec<(OsString, OsString)>,
    ) -> (tempfile::TempDir, Plan) {
        planned_at(agent, passed, None)
    }

    /// As [`planned`]; with `version`, the command is npm's link into the client's package of
    /// that version (`lib/node_modules/PACKAGE`), as `npm install -g` leaves it.
    fn planned_at(
        agent: crate::core::Agent,
        passed: Vec<(OsString, OsString)>,
        version: Option<&str>,
    ) -> (tempfile::TempDir, Plan) {
        let t = tempfile::tempdir().unwrap();
        let base = t.path().to_path_buf();
        let (bin, home, project) = (base.join("bin"), base.join("home"), base.join("project"));
        for d in [&bin, &home, &project] {
            std::fs::create_dir_all(d).unwrap();
        }
        let client = super::super::clients::client(agent).unwrap();
        let command = bin.join(client.command);
        let file = match version {
            Some(v) => {
                let pkg = base.join("lib/node_modules").join(client.package);
                std::fs::create_dir_all(&pkg).unwrap();
                std::fs::write(
                    pkg.join("package.json"),
                    serde_json::json!({"name": client.package, "version": v}).to_string(),
                )
                .unwrap();
                crate::core::files::fsx::test_link(pkg.join("index.js"), &command).unwrap();
                pkg.join("index.js")
            }
            None => command.clone(),
        };
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(
            &file,
            <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
        )
        .unwrap();
        let setup = Setup {
            path: std::env::join_paths([&bin]).unwrap(),
            home: Some(home),
            cwd: project,
            model: None,
            add_dirs: Vec::new(),
            timeout: Duration::from_secs(1),
            passed,
        };
        (t, plan(client, &Library::default(), &setup).unwrap())
    }

    fn var<'a>(plan: &'a Plan, name: &str) -> Vec<&'a OsString> {
        plan.isolated
            .env
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v)
            .collect()
    }

    /// Gemini CLI runs trusted in verify's sandbox (its own variable, nothing written), headless
    /// with one prompt; a value of the user's own is passed instead of verify's.
    #[test]
    fn gemini_runs_trusted_unless_the_user_says_otherwise() {
        let (_t, p) = planned(crate::core::Agent::Gemini, Vec::new());
        assert_eq!(p.args, ["-p", "hello"]);
        assert_eq!(
            var(&p, "GEMINI_CLI_TRUST_WORKSPACE"),
            [&OsString::from("true")]
        );
        assert!(
            !p.files
                .iter()
                .any(|(f, _)| f.ends_with("trustedFolders.json"))
        );
        let theirs = vec![("GEMINI_CLI_TRUST_WORKSPACE".into(), "false".into())];
        let (_u, p) = planned(crate::core::Agent::Gemini, theirs);
        assert_eq!(
            var(&p, "GEMINI_CLI_TRUST_WORKSPACE"),
            [&OsString::from("false")]
        );
        // No other client is given Gemini CLI's trust.
        let (_v, p) = planned(crate::core::Agent::Opencode, Vec::new());
        assert!(var(&p, "GEMINI_CLI_TRUST_WORKSPACE").is_empty());
    }

    /// The prediction is made for the run verify makes: Gemini CLI trusted (its variable
    /// `true`) unless the user set the variable, whose value the run gets; the user's other
    /// trust variables are not the run's; no other client's environment is touched.
    #[test]
    fn the_prediction_reads_gemini_clis_trust_as_the_run_has_it() {
        let gemini = super::super::clients::client(crate::core::Agent::Gemini).unwrap();
        let env = as_run(gemini, &[]);
        assert_eq!(env("GEMINI_CLI_TRUST_WORKSPACE").as_deref(), Some("true"));
        assert_eq!(env("GEMINI_RESTRICTED_MODE"), None);
        assert_eq!(env("GEMINI_CLI_TRUSTED_FOLDERS_PATH"), None);
        let theirs = [("GEMINI_CLI_TRUST_WORKSPACE".into(), "false".into())];
        let env = as_run(gemini, &theirs);
        assert_eq!(env("GEMINI_CLI_TRUST_WORKSPACE").as_deref(), Some("false"));
        let codex = super::super::clients::client(crate::core::Agent::Codex).unwrap();
        let env = as_run(codex, &[]);
        assert_eq!(
            env("GEMINI_CLI_TRUST_WORKSPACE"),
            std::env::var("GEMINI_CLI_TRUST_WORKSPACE").ok()
        );
    }

    /// The note is said only when the user's own Gemini CLI does not trust the folder and the
    /// run was trusted by verify.
    #[test]
    fn an_untrusted_folder_is_said_only_when_the_run_was_trusted_for_it() {
        let t = tempfile::tempdir().unwrap();
        let (home, project) = (t.path().join("home"), t.path().join("project"));
        std::fs::create_dir_all(home.join(".gemini")).unwrap();
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let gemini = super::super::clients::client(crate::core::Agent::Gemini).unwrap();
        let none = |_: &str| None;
        let note = untrusted_note(gemini, &home, Some(&project), &[], &none).unwrap();
        assert!(
            note.starts_with("your Gemini CLI does not trust this folder"),
            "{note}"
        );
        assert!(note.ends_with("compared as trusted"), "{note}");
        // The user's own variable is the run's: nothing differs.
        let theirs = [("GEMINI_CLI_TRUST_WORKSPACE".into(), "false".into())];
        assert_eq!(
            untrusted_note(gemini, &home, Some(&project), &theirs, &none),
            None
        );
        // Another client has no folder trust.
        let codex = super::super::clients::client(crate::core::Agent::Codex).unwrap();
        assert_eq!(
            untrusted_note(codex, &home, Some(&project), &[], &none),
            None
        );
        // The folder trusted by the user: nothing to say.
        std::fs::write(
            home.join(".gemini/trustedFolders.json"),
            serde_json::json!({ project.to_string_lossy(): "TRUST_FOLDER" }).to_string(),
        )
        .unwrap();
        assert_eq!(
            untrusted_note(gemini, &home, Some(&project), &[], &none),
            None
        );
    }

    /// GitHub Copilot CLI's loader is kept from starting a newer cached package.
    #[test]
    fn copilot_starts_the_release_installed() {
        let (_t, p) = planned(crate::core::Agent::Copilot, Vec::new());
        assert_eq!(var(&p, "COPILOT_AUTO_UPDATE"), [&OsString::from("false")]);
        assert_eq!(p.args[..2], ["-p", "hello"]);
    }

    /// `--disable-client-telemetry` goes only to a Copilot release that takes it: 1.0.92
    /// refuses to start when given it; 1.0.102 and newer take it, and so does a release whose
    /// files tell no version (as before).
    #[test]
    fn copilot_gets_the_telemetry_switch_only_from_the_release_that_takes_it() {
        let switch = "--disable-client-telemetry";
        let (_t, old) = planned_at(crate::core::Agent::Copilot, Vec::new(), Some("1.0.92"));
        assert_eq!(old.args, ["-p", "hello", "--allow-all-tools", "-s"]);
        for v in ["1.0.102", "1.0.110", "1.1.0"] {
            let (_t, p) = planned_at(crate::core::Agent::Copilot, Vec::new(), Some(v));
            assert_eq!(
                p.args,
                ["-p", "hello", "--allow-all-tools", switch, "-s"],
                "{v}"
            );
        }
        let (_u, unknown) = planned(crate::core::Agent::Copilot, Vec::new());
        assert!(unknown.args.iter().any(|a| a == switch));
        let takes = crate::core::agents::copilot::run::takes_telemetry_switch;
        assert!(takes(None));
        assert!(!takes(Some("1.0.101")));
    }
}

#[cfg(test)]
mod model_tests {
    use super::*;

    #[test]
    fn the_model_chosen_for_the_run_is_given_to_claude_code_and_codex() {
        let setup = |model: Option<&str>| Setup {
            path: OsString::new(),
            home: None,
            cwd: PathBuf::from("/p"),
            model: model.map(str::to_string),
            add_dirs: Vec::new(),
            timeout: Duration::from_secs(1),
            passed: Vec::new(),
        };
        let args = |agent, model| {
            let client = crate::core::verify::clients::client(agent).unwrap();
            client_args(client, &setup(model), None)
        };
        // Codex's own `-m`, before its prompt; none when no model is chosen.
        let codex = args(crate::core::Agent::Codex, Some("gpt-5.4"));
        let at = codex.iter().position(|a| a == "-m").unwrap();
        assert_eq!(codex[at + 1], "gpt-5.4");
        assert_eq!(codex.last().map(String::as_str), Some("hello"));
        assert!(!args(crate::core::Agent::Codex, None).contains(&"-m".to_string()));
        let claude = args(crate::core::Agent::ClaudeCode, Some("opus"));
        let at = claude.iter().position(|a| a == "--model").unwrap();
        assert_eq!(claude[at + 1], "opus");
    }
}
