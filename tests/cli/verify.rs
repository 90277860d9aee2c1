//! `skillscope verify` with fake clients on PATH: a `claude` and a `codex` (Python scripts) that
//! answer `--version` and otherwise send one request to the mock at the address their run was
//! given, carrying a listing the test prepared (skillscope's own prediction, or a changed one).
//! Proves the mock, the extraction, identical/differs/missing and their exit codes, and that the
//! run writes nothing outside its sandbox. The sandboxed part is skipped, saying why, where the
//! kernel refuses namespaces. No npm, no real client, no network.

use crate::common;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The fake Claude Code: posts an Anthropic Messages request holding `listing.txt` (next to the
/// script) the way Claude Code carries it, then tries to write where it must not be able to.
const FAKE_CLAUDE: &str = r#"#!/usr/bin/env python3
import json, os, sys, urllib.request
here = os.path.dirname(os.path.realpath(__file__))
if sys.argv[1:] == ["--version"]:
    try:
        sys.stdout.write(open(os.path.join(here, "version.txt"), encoding="utf-8").read())
    except OSError:
        print("2.1.332 (Claude Code)")
    sys.exit(0)
listing = open(os.path.join(here, "listing.txt"), encoding="utf-8").read()
# Whatever of the home it can see that holds a secret goes into its listing: a leak differs.
for root, dirs, files in os.walk(os.environ["HOME"]):
    for f in sorted(files):
        try:
            text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read(4096)
        except OSError:
            continue
        if "TOP" + "SECRET" in text:
            listing += "\nLEAKED " + os.path.join(root, f) + ": " + text.strip()
body = {"model": "m", "stream": True, "tools": [{"name": "Skill"}],
        "system": [{"type": "text", "text": "You are a fake."}],
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "<system-reminder>\n" + listing + "\n</system-reminder>"},
            {"type": "text", "text": " ".join(sys.argv[1:])}]}]}
url = os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages?beta=true"
req = urllib.request.Request(url, data=json.dumps(body).encode(),
                             headers={"content-type": "application/json"})
print(urllib.request.urlopen(req, timeout=30).read().decode()[:200])
home = os.environ["HOME"]
for target in (os.path.join(home, ".claude.json"), os.path.join(home, ".claude/skills/planted/SKILL.md"),
               os.path.join(here, "planted"), os.path.join(os.getcwd(), "planted")):
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "w").write("written by the client")
    except OSError as e:
        print("cannot write", target, e, file=sys.stderr)
"#;

/// The fake Codex: its mock address is in its `-c model_providers…base_url=…` argument.
const FAKE_CODEX: &str = r#"#!/usr/bin/env python3
import json, os, re, sys, urllib.request
if sys.argv[1:] == ["--version"]:
    print("codex-cli 0.171.0")
    sys.exit(0)
here = os.path.dirname(os.path.realpath(__file__))
listing = open(os.path.join(here, "listing.txt"), encoding="utf-8").read()
base = next(m.group(1) for a in sys.argv for m in [re.search(r'base_url="([^"]+)"', a)] if m)
body = {"model": "m", "stream": True, "instructions": "You are a fake.",
        "input": [{"type": "message", "role": "developer",
                   "content": [{"type": "input_text", "text": listing}]},
                  {"type": "message", "role": "user",
                   "content": [{"type": "input_text", "text": sys.argv[-1]}]}]}
req = urllib.request.Request(base + "/responses", data=json.dumps(body).encode(),
                             headers={"content-type": "application/json"})
print(urllib.request.urlopen(req, timeout=30).read().decode()[:200])
"#;

/// The fake opencode: its mock address is in the provider of `OPENCODE_CONFIG_CONTENT`; it
/// carries its listing in the system prompt of an Anthropic Messages request, as opencode does.
const FAKE_OPENCODE: &str = r#"#!/usr/bin/env python3
import json, os, sys, urllib.request
if sys.argv[1:] == ["--version"]:
    print("1.18.33")
    sys.exit(0)
here = os.path.dirname(os.path.realpath(__file__))
listing = open(os.path.join(here, "listing.txt"), encoding="utf-8").read()
config = json.loads(os.environ["OPENCODE_CONFIG_CONTENT"])
base = config["provider"]["anthropic"]["options"]["baseURL"]
body = {"model": "m", "stream": True, "tools": [{"name": "skill", "description": "Load a skill"}],
        "system": [{"type": "text", "text": "You are a fake.\n" + listing}],
        "messages": [{"role": "user", "content": sys.argv[-1]}]}
req = urllib.request.Request(base + "/messages", data=json.dumps(body).encode(),
                             headers={"content-type": "application/json"})
print(urllib.request.urlopen(req, timeout=30).read().decode()[:200])
"#;

/// The fake Gemini CLI: `generateContent` at `GOOGLE_GEMINI_BASE_URL`, its listing in the
/// system instruction, `activate_skill` among its tools.
const FAKE_GEMINI: &str = r#"#!/usr/bin/env python3
import json, os, sys, urllib.request
if sys.argv[1:] == ["--version"]:
    print("0.61.0")
    sys.exit(0)
here = os.path.dirname(os.path.realpath(__file__))
listing = open(os.path.join(here, "listing.txt"), encoding="utf-8").read()
body = {"systemInstruction": {"parts": [{"text": "You are a fake.\n" + listing}]},
        "tools": [{"functionDeclarations": [{"name": "activate_skill"}]}],
        "contents": [{"role": "user", "parts": [{"text": sys.argv[-1]}]}]}
url = os.environ["GOOGLE_GEMINI_BASE_URL"] + "/v1beta/models/m:generateContent"
req = urllib.request.Request(url, data=json.dumps(body).encode(),
                             headers={"content-type": "application/json"})
print(urllib.request.urlopen(req, timeout=30).read().decode()[:200])
"#;

/// The fake Qwen Code, GitHub Copilot CLI, Cline and OpenClaw (one script, by the name it is
/// called by): each finds the mock where verify pointed that client (Qwen Code's and Copilot's
/// variables, Cline's stored provider, OpenClaw's configured provider) and posts one Chat
/// Completions request carrying `listing.txt` where that client carries its listing (Cline: the
/// end of its `skills` tool's description; the others: a user message), declaring the client's
/// own skill tool.
const FAKE_CHAT: &str = r#"#!/usr/bin/env python3
import json, os, sys, urllib.request
me = os.path.basename(sys.argv[0])
here = os.path.dirname(os.path.realpath(__file__))
versions = {"qwen": "0.24.4", "copilot": "GitHub Copilot CLI 1.0.102.\nRun 'copilot update'.",
            "cline": "3.0.65", "openclaw": "OpenClaw 2026.9.6 (2b1c0de)"}
if sys.argv[1:] == ["--version"]:
    print(versions[me])
    sys.exit(0)
home = os.environ["HOME"]
if me == "qwen":
    base = os.environ["OPENAI_BASE_URL"]
elif me == "copilot":
    base = os.environ["COPILOT_PROVIDER_BASE_URL"]
elif me == "cline":
    p = json.load(open(os.path.join(home, ".cline/data/settings/providers.json")))
    base = p["providers"][p["lastUsedProvider"]]["settings"]["baseUrl"]
else:
    c = json.load(open(os.path.join(home, ".openclaw/openclaw.json")))
    provider = c["agents"]["defaults"]["model"]["primary"].split("/")[0]
    base = c["models"]["providers"][provider]["baseUrl"]
listing = open(os.path.join(here, "listing.txt"), encoding="utf-8").read()
tool = {"qwen": "skill", "copilot": "skill", "cline": "skills", "openclaw": "read"}[me]
description = "Loads a skill."
messages = [{"role": "system", "content": "You are a fake."}]
if me == "cline":
    description += " Never mention a skill without invoking this tool. " + listing
    messages.append({"role": "user", "content": sys.argv[-1]})
else:
    messages.append({"role": "user", "content": [
        {"type": "text", "text": "<system-reminder>\n" + listing + "\n</system-reminder>"},
        {"type": "text", "text": sys.argv[-1]}]})
body = {"model": "mock-model", "stream": True, "stream_options": {"include_usage": True},
        "messages": messages,
        "tools": [{"type": "function", "function": {"name": "bash", "description": "Runs."}},
                  {"type": "function", "function": {"name": tool, "description": description}}]}
req = urllib.request.Request(base + "/chat/completions", data=json.dumps(body).encode(),
                             headers={"content-type": "application/json"})
answer = urllib.request.urlopen(req, timeout=30).read().decode()
assert answer.rstrip().endswith("data: [DONE]"), answer
print(answer[:200])
"#;

/// A home with a few skills for the agent, a project, and a folder for the fake client.
struct World {
    _t: tempfile::TempDir,
    base: PathBuf,
    home: PathBuf,
    project: PathBuf,
    bin: PathBuf,
}

impl World {
    fn new(skills: &str) -> World {
        let t = tempfile::tempdir().unwrap();
        let base = t.path().to_path_buf();
        let (home, project) = (base.join("home"), base.join("project"));
        let bin = base.join("fake/bin");
        for d in [&home, &project, &bin] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::create_dir_all(project.join(".git")).unwrap();
        for (name, description) in [("alpha", "Does alpha things."), ("beta", "Does beta.")] {
            let dir = home.join(skills).join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join("SKILL.md"),
                format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n"),
            )
            .unwrap();
        }
        World {
            _t: t,
            base,
            home,
            project,
            bin,
        }
    }

    fn fake(&self, command: &str, script: &str) {
        use std::os::unix::fs::PermissionsExt;
        let p = self.bin.join(command);
        std::fs::write(&p, script).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn run(&self, args: &[&str], with_fake: bool) -> Output {
        let path = if with_fake {
            format!("{}:/usr/bin:/bin", self.bin.display())
        } else {
            "/usr/bin:/bin".to_string()
        };
        self.run_in(args, &path, &self.project)
    }

    /// skillscope with `PATH` and the current folder given.
    fn run_in(&self, args: &[&str], path: &str, cwd: &Path) -> Output {
        self.run_with(args, path, cwd, &[])
    }

    /// [`World::run_in`] with variables set (Gemini CLI's trust variables are unset unless
    /// given here).
    fn run_with(&self, args: &[&str], path: &str, cwd: &Path, vars: &[(&str, &str)]) -> Output {
        let mut cmd = common::bin();
        cmd.env_remove("GEMINI_CLI_TRUST_WORKSPACE")
            .env_remove("GEMINI_RESTRICTED_MODE")
            .env_remove("GEMINI_CLI_TRUSTED_FOLDERS_PATH");
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let child = cmd
            .args(args)
            .env("HOME", &self.home)
            .env("PATH", path)
            .env("SKILLSCOPE_CONFIG_DIR", self.base.join("config"))
            .env("SKILLSCOPE_CACHE_DIR", self.base.join("cache"))
            .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
            .current_dir(cwd)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        common::wait_guarded(child, 120, &format!("skillscope {args:?}"))
    }

    /// skillscope's prediction, as the fake client's listing.
    fn predict(&self, agent: &str) -> String {
        let out = self.run(&["prompt", "--agent", agent], false);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn give_listing(&self, listing: &str) {
        std::fs::write(self.bin.join("listing.txt"), listing).unwrap();
    }
}

/// Every file and folder below `dir`, with its size and modification time.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let m = e.path().symlink_metadata().unwrap();
            out.insert(e.path(), (m.len(), m.modified().unwrap()));
            if m.is_dir() {
                stack.push(e.path());
            }
        }
    }
    out
}

/// The verify run, or `None` (said on stderr) where the kernel refuses the sandbox it needs.
fn verify(w: &World, agent: &str, extra: &[&str]) -> Option<(Output, String)> {
    verify_on(
        w,
        &format!("{}:/usr/bin:/bin", w.bin.display()),
        agent,
        extra,
    )
}

/// [`verify`] with the client looked for on `path`.
fn verify_on(w: &World, path: &str, agent: &str, extra: &[&str]) -> Option<(Output, String)> {
    let mut args = vec!["verify", "--agent", agent, "--timeout", "60"];
    args.extend_from_slice(extra);
    let out = w.run_in(&args, path, &w.project);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.code() == Some(2) && stdout.contains("without the sandbox") {
        eprintln!("SKIPPED verify (namespaces refused here): {stdout}");
        return None;
    }
    Some((out, stdout))
}

#[test]
fn the_fake_claude_sending_the_prediction_is_identical_and_writes_nothing() {
    let w = World::new(".claude/skills");
    w.fake("claude", FAKE_CLAUDE);
    let predicted = w.predict("claude-code");
    assert!(predicted.contains("alpha"), "{predicted}");
    w.give_listing(&predicted);
    let (home, project, fake) = (snapshot(&w.home), snapshot(&w.project), snapshot(&w.bin));
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("Claude Code 2.1.332"), "{stdout}");
    assert!(stdout.contains("identical ("), "{stdout}");
    assert!(stdout.contains("tokens, o200k)"), "{stdout}");
    // The client wrote its state, a planted skill and files next to itself and in the
    // project: none of it is outside.
    assert_eq!(snapshot(&w.home), home, "the home changed");
    assert_eq!(snapshot(&w.project), project, "the project changed");
    assert_eq!(snapshot(&w.bin), fake, "the client's folder changed");
    // The result is remembered for the app.
    let kept = std::fs::read_to_string(w.base.join("cache/verify.json")).unwrap();
    assert!(kept.contains("\"identical\": true"), "{kept}");
}

#[test]
fn a_changed_listing_differs_with_both_counts_and_the_first_line() {
    let w = World::new(".claude/skills");
    w.fake("claude", FAKE_CLAUDE);
    let predicted = w.predict("claude-code");
    let changed = predicted.replace("Does beta.", "Does beta, and much more than that.");
    assert_ne!(changed, predicted);
    w.give_listing(&changed);
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = predicted
        .split('\n')
        .position(|l| l.contains("Does beta."))
        .unwrap()
        + 1;
    assert!(
        stdout.contains(&format!("differs from line {line}:")),
        "{stdout}"
    );
    // Client first: its line is the removed one, skillscope's the added one.
    assert!(
        stdout.contains("\n-- beta: Does beta, and much more than that.\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\n+- beta: Does beta.\n"), "{stdout}");
    let Some((out, _)) = verify(&w, "claude-code", &["--json"]) else {
        return;
    };
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "differs");
    assert_eq!(v["exit_code"], 1);
    assert_eq!(v["first_difference"], line);
    let (real, ours) = (
        v["client_tokens"].as_u64().unwrap(),
        v["predicted_tokens"].as_u64().unwrap(),
    );
    assert!(real > ours, "{real} vs {ours}");
    assert_eq!(v["listing"].as_str(), Some(changed.as_str()));
}

#[test]
fn the_fake_codex_is_compared_on_its_own_wire() {
    let w = World::new(".agents/skills");
    w.fake("codex", FAKE_CODEX);
    let predicted = w.predict("codex");
    assert!(predicted.contains("<skills_instructions>"), "{predicted}");
    w.give_listing(&predicted);
    let Some((out, stdout)) = verify(&w, "codex", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("Codex 0.171.0") && stdout.contains("identical ("),
        "{stdout}"
    );
}

/// A `node` on the fake's `PATH` that says `version` (the clients run on Node need one).
fn fake_node(w: &World, version: &str) {
    w.fake("node", &format!("#!/bin/sh\necho v{version}\n"));
}

#[test]
fn the_four_newer_clients_are_compared_on_the_chat_wire() {
    for (agent, command, folder, version) in [
        ("qwen-code", "qwen", ".qwen/skills", "Qwen Code 0.24.4"),
        (
            "github-copilot",
            "copilot",
            ".copilot/skills",
            "GitHub Copilot CLI 1.0.102 (",
        ),
        ("cline", "cline", ".cline/skills", "Cline 3.0.65"),
        (
            "openclaw",
            "openclaw",
            ".openclaw/skills",
            "OpenClaw 2026.9.6",
        ),
    ] {
        let w = World::new(folder);
        w.fake(command, FAKE_CHAT);
        fake_node(&w, "24.21.0");
        let predicted = w.predict(agent);
        assert!(predicted.contains("alpha"), "{agent}: {predicted}");
        w.give_listing(&predicted);
        let Some((out, stdout)) = verify(&w, agent, &[]) else {
            return;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{agent}: {stdout}\n{stderr}");
        assert!(stdout.contains(version), "{agent}: {stdout}");
        assert!(stdout.contains("identical ("), "{agent}: {stdout}");
        // The installed version is the modelled one: no note (Copilot's sentence-ending full
        // stop is not part of its version).
        assert!(!stdout.contains("note: modelled on"), "{agent}: {stdout}");
        // A changed listing differs, on the same wire.
        w.give_listing(&predicted.replace("alpha", "alpha-changed"));
        let Some((out, stdout)) = verify(&w, agent, &[]) else {
            return;
        };
        assert_eq!(out.status.code(), Some(1), "{agent}: {stdout}");
        assert!(stdout.contains("differs from line"), "{agent}: {stdout}");
    }
}

#[test]
fn openclaw_on_a_node_older_than_24_16_is_refused_saying_so() {
    let w = World::new(".openclaw/skills");
    w.fake("openclaw", FAKE_CHAT);
    w.give_listing(&w.predict("openclaw"));
    for old in ["20.20.2", "24.15.1"] {
        fake_node(&w, old);
        let Some((out, stdout)) = verify(&w, "openclaw", &[]) else {
            return;
        };
        assert_eq!(out.status.code(), Some(2), "{stdout}");
        let node = w.bin.join("node");
        assert!(
            stdout.contains(&format!(
                "OpenClaw runs on Node.js 24.16 or newer; the `node` on PATH ({}) is {old}: \
                 put a newer Node.js first on PATH",
                node.display()
            )),
            "{stdout}"
        );
    }
    // No node at all on the PATH the client is given.
    std::fs::remove_file(w.bin.join("node")).unwrap();
    let Some((out, stdout)) = verify_on(&w, &w.bin.display().to_string(), "openclaw", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("OpenClaw runs on Node.js 24.16 or newer, and there is no `node` on PATH"),
        "{stdout}"
    );
}

#[test]
fn a_missing_client_is_exit_2_with_how_to_install_it() {
    let w = World::new(".claude/skills");
    let out = w.run(&["verify", "--agent", "claude-code"], false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains(
            "`claude` is not on PATH; install it with `npm install -g @anthropic-ai/claude-code`"
        ),
        "{stdout}"
    );
    let out = w.run(&["verify"], false);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no client is on PATH"));
}

#[test]
fn a_client_that_sends_no_turn_is_exit_2_with_its_last_words() {
    let w = World::new(".claude/skills");
    w.fake(
        "claude",
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo '2.1.400 (Claude Code)'; exit 0; }\necho 'cannot log in' >&2\nexit 3\n",
    );
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("exited with 3: cannot log in"), "{stdout}");
    // Another version than the model's: said.
    assert!(
        stdout.contains("modelled on Claude Code 2.1.332; installed 2.1.400"),
        "{stdout}"
    );
}

/// A client that never sends its turn is stopped at verify's time limit, which
/// `SKILLSCOPE_VERIFY_TIMEOUT` sets when `--timeout` is not given; the message names the limit,
/// where it came from and both ways to raise it. `--timeout` wins over the variable.
#[test]
fn a_client_stopped_at_the_time_limit_names_it_and_how_to_raise_it() {
    let w = World::new(".claude/skills");
    w.fake(
        "claude",
        "#!/bin/sh
[ \"$1\" = --version ] && { echo '2.1.332 (Claude Code)'; exit 0; }
exec sleep 600
",
    );
    let path = format!("{}:/usr/bin:/bin", w.bin.display());
    let run = |args: &[&str]| {
        let out = w.run_with(
            args,
            &path,
            &w.project,
            &[("SKILLSCOPE_VERIFY_TIMEOUT", "1")],
        );
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, stdout) = run(&["verify", "--agent", "claude-code"]);
    if code == Some(2) && stdout.contains("without the sandbox") {
        eprintln!("SKIPPED verify (namespaces refused here): {stdout}");
        return;
    }
    assert_eq!(code, Some(2), "{stdout}");
    assert!(
        stdout.contains(
            "it did not finish within verify's time limit of 1 s (SKILLSCOPE_VERIFY_TIMEOUT=1); \
             a loaded machine or a slow first start may need more: give it with --timeout SECS \
             or SKILLSCOPE_VERIFY_TIMEOUT=SECS"
        ),
        "{stdout}"
    );
    let (code, stdout) = run(&["verify", "--agent", "claude-code", "--timeout", "2"]);
    assert_eq!(code, Some(2), "{stdout}");
    assert!(
        stdout.contains("time limit of 2 s (--timeout 2)"),
        "{stdout}"
    );
}

#[test]
fn every_view_of_an_agent_says_when_the_installed_client_is_not_the_modelled_version() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new(".claude/skills");
    // npm's layout: the command on PATH links into node_modules/PACKAGE.
    let package = w
        .base
        .join("fake/lib/node_modules/@anthropic-ai/claude-code");
    std::fs::create_dir_all(package.join("bin")).unwrap();
    std::fs::write(package.join("package.json"), r#"{"version": "2.1.400"}"#).unwrap();
    let exe = package.join("bin/claude.exe");
    std::fs::write(&exe, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink(&exe, w.bin.join("claude")).unwrap();
    // Every view of the agent says so: its listing, budget, matches, list and injection.
    let views: [&[&str]; 5] = [
        &["prompt", "--agent", "claude-code"],
        &["budget", "--agent", "claude-code"],
        &["match", "--agent", "claude-code", "anything at all"],
        &["list", "--agent", "claude-code"],
        &["inject", "--agent", "claude-code", "no-such-skill"],
    ];
    for args in views {
        let out = w.run(args, true);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("modelled on Claude Code 2.1.332; installed 2.1.400"),
            "{args:?}: {stderr}"
        );
    }
    let out = w.run(&["prompt", "--agent", "claude-code"], true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(package.join("package.json"), r#"{"version": "2.1.332"}"#).unwrap();
    for args in views {
        let out = w.run(args, true);
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("modelled on"),
            "{args:?}"
        );
    }
}

fn write_file(path: &Path, text: &str, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Fake secrets where a home keeps them: Claude Code's OAuth token and a transcript, a keyring,
/// skillscope's own trash, an SSH key.
fn plant_secrets(home: &Path) {
    for (file, what) in [
        (".claude/.credentials.json", "oauth token"),
        (".claude/projects/p/session.jsonl", "transcript"),
        (".local/share/keyrings/login.keyring", "keyring"),
        (".local/share/skillscope/trash/old/SKILL.md", "trash"),
        (".ssh/id_ed25519", "ssh key"),
    ] {
        write_file(&home.join(file), &format!("TOPSECRET {what}\n"), 0o600);
    }
}

/// The fake client installed as an npm package in `node_modules` (`cli.js`, with the listing
/// beside it); returns the package folder.
fn npm_package(node_modules: &Path, listing: &str, run_bit: bool) -> PathBuf {
    let package = node_modules.join("@anthropic-ai/claude-code");
    write_file(
        &package.join("cli.js"),
        FAKE_CLAUDE,
        if run_bit { 0o755 } else { 0o644 },
    );
    write_file(&package.join("listing.txt"), listing, 0o644);
    package
}

/// Runs verify with the client on `path`; asserts that it ran, sent the prediction untouched
/// (nothing of the home leaked into it) and that no secret shows anywhere.
fn assert_nothing_leaks(w: &World, path: &str) {
    let Some((out, stdout)) = verify_on(w, path, "claude-code", &["--json"]) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stdout.contains("TOPSECRET") && !stdout.contains("LEAKED"),
        "a secret of the home was visible to the client: {stdout}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    assert_eq!(v["status"], "identical", "{stdout}\n{stderr}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_wrapper_in_claude_codes_local_install_shows_nothing_else_of_dot_claude() {
    // Claude Code's own local install: `~/.claude/local/claude`, a shell wrapper that runs the
    // package in `~/.claude/local/node_modules`, beside the OAuth token and the transcripts.
    let w = World::new(".claude/skills");
    plant_secrets(&w.home);
    let local = w.home.join(".claude/local");
    let package = npm_package(&local.join("node_modules"), &w.predict("claude-code"), true);
    std::fs::create_dir_all(local.join("node_modules/.bin")).unwrap();
    std::os::unix::fs::symlink(
        "../@anthropic-ai/claude-code/cli.js",
        local.join("node_modules/.bin/claude"),
    )
    .unwrap();
    write_file(
        &local.join("claude"),
        &format!(
            "#!/bin/bash\nexec \"{}/node_modules/.bin/claude\" \"$@\"\n",
            local.display()
        ),
        0o755,
    );
    assert!(package.join("cli.js").is_file());
    assert_nothing_leaks(&w, &format!("{}:/usr/bin:/bin", local.display()));
}

#[test]
fn a_wrapper_in_dot_local_bin_shows_nothing_else_of_dot_local() {
    // `~/.local/bin/claude`, a wrapper script running an npm package installed with the prefix
    // `~/.local`, beside keyrings and skillscope's own trash.
    let w = World::new(".claude/skills");
    plant_secrets(&w.home);
    npm_package(
        &w.home.join(".local/lib/node_modules"),
        &w.predict("claude-code"),
        true,
    );
    write_file(
        &w.home.join(".local/bin/claude"),
        "#!/bin/sh\nexec \"$HOME/.local/lib/node_modules/@anthropic-ai/claude-code/cli.js\" \"$@\"\n",
        0o755,
    );
    let bin = w.home.join(".local/bin");
    assert_nothing_leaks(&w, &format!("{}:/usr/bin:/bin", bin.display()));
}

#[test]
fn a_pnpm_shim_in_dot_local_share_shows_nothing_else_of_it() {
    // pnpm's global shim `~/.local/share/pnpm/claude`: it runs its package through `$basedir`
    // (here with python3 for node), and the package lies in pnpm's `.pnpm` store, linked.
    let w = World::new(".claude/skills");
    plant_secrets(&w.home);
    let pnpm = w.home.join(".local/share/pnpm");
    let modules = pnpm.join("global/5/node_modules");
    let store = modules.join(".pnpm/@anthropic-ai+claude-code@2.1.332/node_modules");
    npm_package(&store, &w.predict("claude-code"), false);
    std::fs::create_dir_all(modules.join("@anthropic-ai")).unwrap();
    std::os::unix::fs::symlink(
        "../.pnpm/@anthropic-ai+claude-code@2.1.332/node_modules/@anthropic-ai/claude-code",
        modules.join("@anthropic-ai/claude-code"),
    )
    .unwrap();
    write_file(
        &pnpm.join("claude"),
        r#"#!/bin/sh
basedir=$(dirname "$(echo "$0" | sed -e 's,\\,/,g')")

case `uname` in
    *CYGWIN*) basedir=`cygpath -w "$basedir"`;;
esac

if [ -x "$basedir/python3" ]; then
  exec "$basedir/python3"  "$basedir/global/5/node_modules/@anthropic-ai/claude-code/cli.js" "$@"
else
  exec python3  "$basedir/global/5/node_modules/@anthropic-ai/claude-code/cli.js" "$@"
fi
"#,
        0o755,
    );
    assert_nothing_leaks(&w, &format!("{}:/usr/bin:/bin", pnpm.display()));
}

#[test]
fn an_npm_folder_reached_through_a_link_starts() {
    // `PATH` names the npm folder by a link (`npm -> real-npm`); the command is npm's own link
    // into `lib/node_modules`, relative.
    let w = World::new(".claude/skills");
    let real = w.base.join("real-npm");
    npm_package(
        &real.join("lib/node_modules"),
        &w.predict("claude-code"),
        true,
    );
    std::fs::create_dir_all(real.join("bin")).unwrap();
    std::os::unix::fs::symlink(
        "../lib/node_modules/@anthropic-ai/claude-code/cli.js",
        real.join("bin/claude"),
    )
    .unwrap();
    std::os::unix::fs::symlink("real-npm", w.base.join("npm")).unwrap();
    let path = format!("{}:/usr/bin:/bin", w.base.join("npm/bin").display());
    let Some((out, stdout)) = verify_on(&w, &path, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("identical ("), "{stdout}");
}

#[test]
fn verify_from_the_home_folder_says_so_instead_of_blaming_the_kernel() {
    let w = World::new(".claude/skills");
    w.fake("claude", FAKE_CLAUDE);
    let path = format!("{}:/usr/bin:/bin", w.bin.display());
    let out = w.run_in(&["verify", "--agent", "claude-code"], &path, &w.home);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("which is your home folder or holds it")
            && stdout.contains("run verify from a project folder"),
        "{stdout}"
    );
    assert!(!stdout.contains("kernel"), "{stdout}");
}

#[test]
fn a_hostile_version_reaches_the_terminal_escaped() {
    let w = World::new(".claude/skills");
    w.fake("claude", FAKE_CLAUDE);
    w.give_listing(&w.predict("claude-code"));
    // Clipboard (OSC 52), title (OSC 0), clear screen, and a C1 CSI.
    std::fs::write(
        w.bin.join("version.txt"),
        "2.1.332\x1b]52;c;cHduZWQ=\x07 (Claude Code)\x1b]0;pwned\x07\x1b[2J\u{9b}2J\n",
    )
    .unwrap();
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let raw = |s: &str| s.chars().any(|c| matches!(c, '\x1b' | '\x07' | '\u{9b}'));
    assert!(!raw(&stdout), "{stdout:?}");
    assert!(!raw(&String::from_utf8_lossy(&out.stderr)));
    assert!(stdout.contains("Claude Code 2.1.332 ("), "{stdout}");
    let Some((out, _)) = verify(&w, "claude-code", &["--json"]) else {
        return;
    };
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], "2.1.332");
}

/// A fake Claude Code that posts `count` bodies of `size` bytes (not JSON) before its turn
/// (sent only when `listing` is true), as `huge.json` beside it says.
const HUGE_CLAUDE: &str = r#"#!/usr/bin/env python3
import json, os, sys, urllib.request
if sys.argv[1:] == ["--version"]:
    print("2.1.332 (Claude Code)")
    sys.exit(0)
here = os.path.dirname(os.path.realpath(__file__))
plan = json.load(open(os.path.join(here, "huge.json")))
base = os.environ["ANTHROPIC_BASE_URL"]
blob = b"x" * plan["size"]
for i in range(plan["count"]):
    req = urllib.request.Request(base + "/v1/messages", data=blob,
                                 headers={"content-type": "application/json"})
    try:
        urllib.request.urlopen(req, timeout=60).read()
    except Exception as e:
        print("post", i, "failed:", e, file=sys.stderr)
if not plan["listing"]:
    sys.exit(4)
listing = open(os.path.join(here, "listing.txt"), encoding="utf-8").read()
body = {"model": "m", "stream": True, "tools": [{"name": "Skill"}],
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "<system-reminder>\n" + listing + "\n</system-reminder>"}]}]}
req = urllib.request.Request(base + "/v1/messages?beta=true", data=json.dumps(body).encode(),
                             headers={"content-type": "application/json"})
urllib.request.urlopen(req, timeout=60).read()
"#;

#[test]
fn many_huge_request_bodies_are_not_kept_and_the_turn_is_still_found() {
    let w = World::new(".claude/skills");
    w.fake("claude", HUGE_CLAUDE);
    w.give_listing(&w.predict("claude-code"));
    // 12 bodies of 30 MB: each under the cap on one body, 360 MB in all.
    std::fs::write(
        w.bin.join("huge.json"),
        r#"{"count": 12, "size": 30000000, "listing": true}"#,
    )
    .unwrap();
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("identical ("), "{stdout}");
}

#[test]
fn a_body_over_the_mocks_cap_is_named_when_no_turn_came() {
    let w = World::new(".claude/skills");
    w.fake("claude", HUGE_CLAUDE);
    std::fs::write(
        w.bin.join("huge.json"),
        r#"{"count": 1, "size": 40000000, "listing": false}"#,
    )
    .unwrap();
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains(
            "the mock did not read 1 of its request bodies (the listing may have been in one): \
             POST /v1/messages: its body of 40,000,000 bytes is over the 32 MiB a request body may have"
        ),
        "{stdout}"
    );
}

#[test]
fn a_sandboxed_run_that_dies_says_how() {
    // The client kills the stage that runs it and the mock (its parent, in the sandbox).
    let w = World::new(".claude/skills");
    w.fake(
        "claude",
        "#!/usr/bin/env python3\nimport os, sys, time\nif sys.argv[1:] == ['--version']:\n    print('2.1.332 (Claude Code)')\n    sys.exit(0)\nos.kill(os.getppid(), 9)\ntime.sleep(30)\n",
    );
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("the sandboxed run gave no report: it was killed by SIGKILL (sent by the kernel when memory runs out"),
        "{stdout}"
    );
}

/// The fake Claude Code installed as npm installs it, at `version` (its `package.json` and what
/// `--version` prints), sending `listing`.
fn npm_claude(w: &World, version: &str, listing: &str) {
    let package = w
        .base
        .join("fake/lib/node_modules/@anthropic-ai/claude-code");
    write_file(&package.join("cli.js"), FAKE_CLAUDE, 0o755);
    write_file(
        &package.join("package.json"),
        &format!(r#"{{"version": "{version}"}}"#),
        0o644,
    );
    write_file(
        &package.join("version.txt"),
        &format!("{version} (Claude Code)\n"),
        0o644,
    );
    write_file(&package.join("listing.txt"), listing, 0o644);
    let link = w.bin.join("claude");
    if link.symlink_metadata().is_err() {
        std::os::unix::fs::symlink(package.join("cli.js"), link).unwrap();
    }
}

/// `prompt --agent claude-code` with the fake client on PATH: its listing and what it said.
fn prompt_with_client(w: &World) -> (String, String) {
    let out = w.run(&["prompt", "--agent", "claude-code"], true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The day in `stderr` after "calibrated against your Claude Code VERSION on ".
fn calibrated_day(stderr: &str, version: &str) -> Option<String> {
    let head = format!("calibrated against your Claude Code {version} on ");
    let at = stderr.find(&head)? + head.len();
    let day: String = stderr[at..].chars().take(10).collect();
    let shape = day.len() == 10
        && day.chars().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == '-'
            } else {
                c.is_ascii_digit()
            }
        });
    shape.then_some(day)
}

#[test]
fn verify_on_a_release_without_captures_calibrates_every_view_of_the_agent() {
    let w = World::new(".claude/skills");
    npm_claude(&w, "2.1.340", "");
    // Before: the nearest era's listing, said to be so.
    let (before, stderr) = prompt_with_client(&w);
    assert!(
        stderr.contains("modelled on Claude Code 2.1.332; installed 2.1.340"),
        "{stderr}"
    );
    assert!(before.contains("\n- run: Launch and drive"), "{before}");
    // That release's own built-ins: one text changed, one new, one gone.
    let gone = before
        .split('\n')
        .find(|l| l.starts_with("- plugin-authoring: "))
        .unwrap()
        .to_string();
    let client = before
        .replace("\n- run: Launch and drive", "\n- run: Start and drive")
        .replace(&format!("\n{gone}"), "")
        .replace(
            "\n- init",
            "\n- brand-new: Bundled from 2.1.340 on.\n- init",
        );
    assert_ne!(client, before);
    npm_claude(&w, "2.1.340", &client);
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("differs from line"), "{stdout}");
    assert!(
        stdout.contains("calibrated against Claude Code 2.1.340: its 13 built-ins (1 new: brand-new; 1 changed: run; 1 gone: plugin-authoring)"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("its budget for claude-opus-5-5 (a window of 1,000,000 tokens, as modelled)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the calibrated prediction is the client's listing byte for byte"),
        "{stdout}"
    );
    assert!(w.base.join("cache/calibration.json").is_file());
    // After: every view of the agent uses it and says so.
    let (after, stderr) = prompt_with_client(&w);
    assert_eq!(after, client);
    let day = calibrated_day(&stderr, "2.1.340");
    assert!(day.is_some(), "{stderr}");
    assert!(!stderr.contains("modelled on"), "{stderr}");
    for args in [
        &["budget", "--agent", "claude-code"][..],
        &["list", "--agent", "claude-code"],
        &["inject", "--agent", "claude-code", "alpha"],
    ] {
        let out = w.run(args, true);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            calibrated_day(&stderr, "2.1.340"),
            day,
            "{args:?}: {stderr}"
        );
    }
    let out = w.run(&["prompt", "--agent", "claude-code", "--json"], true);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["client"], "2.1.340", "{v}");
    // The same release again: identical.
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("identical ("), "{stdout}");
    // Another release installed: the calibration is not used, and that is said.
    npm_claude(&w, "2.1.341", &before);
    let (other, stderr) = prompt_with_client(&w);
    assert_eq!(other, before);
    assert!(
        stderr.contains("the calibration against Claude Code 2.1.340 of ")
            && stderr.contains("is not used: Claude Code 2.1.341 is installed"),
        "{stderr}"
    );
    // verify finds the client changed and calibrates again.
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("calibrated against Claude Code 2.1.341: its 13 built-ins (as modelled)"),
        "{stdout}"
    );
    let (_, stderr) = prompt_with_client(&w);
    assert!(calibrated_day(&stderr, "2.1.341").is_some(), "{stderr}");
}

#[test]
fn a_release_with_captures_is_not_calibrated() {
    let w = World::new(".claude/skills");
    npm_claude(&w, "2.1.332", "");
    let (predicted, _) = prompt_with_client(&w);
    npm_claude(
        &w,
        "2.1.332",
        &predicted.replace("Does beta.", "Does beta, more."),
    );
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(!stdout.contains("calibrated"), "{stdout}");
    assert!(!w.base.join("cache/calibration.json").exists());
}

#[test]
fn a_hostile_calibration_file_is_named_and_the_prediction_made_without_it() {
    let w = World::new(".claude/skills");
    npm_claude(&w, "2.1.340", "");
    let (uncalibrated, _) = prompt_with_client(&w);
    let file = w.base.join("cache/calibration.json");
    let hostile = [
        // A terminal escape in a built-in's name.
        r#"{"claude-code": {"agent": "claude-code", "version": "2.1.340", "at": 1, "builtins": [{"name": "x\u001b]52;c;aGk=\u0007", "description": "", "fixed": true}], "model": null, "window": null, "reproduced": true}}"#.to_string(),
        // A window no model has.
        r#"{"claude-code": {"agent": "claude-code", "version": "2.1.340", "at": 1, "builtins": null, "model": "claude-opus-5-5", "window": 18446744073709551615, "reproduced": true}}"#.to_string(),
        // Not JSON, and too large to read.
        "{\"claude-code\": [".repeat(10),
        " ".repeat(2 << 20),
    ];
    for text in &hostile {
        write_file(&file, text, 0o600);
        let (listing, stderr) = prompt_with_client(&w);
        assert_eq!(listing, uncalibrated, "{text:.80}");
        assert!(stderr.contains("predicted without it"), "{stderr}");
        assert!(stderr.contains("calibration file"), "{stderr}");
        assert!(!stderr.contains('\u{1b}'), "{stderr}");
        assert!(!stderr.contains("calibrated against"), "{stderr}");
    }
    // A FIFO there: refused at once, not waited on.
    std::fs::remove_file(&file).unwrap();
    nix::unistd::mkfifo(&file, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let (listing, stderr) = prompt_with_client(&w);
    assert_eq!(listing, uncalibrated);
    assert!(stderr.contains("not a regular file"), "{stderr}");
}

/// opencode loads its skills concurrently and keeps the copy of a name loaded last: the
/// project's most often, the user's in some runs. A client that lists the user's copy differs
/// from the prediction only by its own choice: exit 0, said so; any other difference beside it
/// is still a difference.
#[test]
fn opencode_listing_the_other_copy_is_its_own_choice() {
    let w = World::new(".config/opencode/skills");
    let project = w.project.join(".opencode/skills/alpha");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("SKILL.md"),
        "---\nname: alpha\ndescription: The project's alpha.\n---\n# alpha\n",
    )
    .unwrap();
    w.fake("opencode", FAKE_OPENCODE);
    let predicted = w.predict("opencode");
    let user_md = w.home.join(".config/opencode/skills/alpha/SKILL.md");
    let project_md = project.join("SKILL.md");
    assert!(
        predicted.contains("The project's alpha.")
            && predicted.contains(&project_md.display().to_string()),
        "{predicted}"
    );
    // The user's copy, in the project's place.
    let other = predicted
        .replace("The project's alpha.", "Does alpha things.")
        .replace(
            &project_md.display().to_string(),
            &user_md.display().to_string(),
        );
    w.give_listing(&other);
    let Some((out, stdout)) = verify(&w, "opencode", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("the client's own choice: 1 entry placed or picked otherwise (alpha)"),
        "{stdout}"
    );
    let Some((out, _)) = verify(&w, "opencode", &["--json"]) else {
        return;
    };
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "own_choice");
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["own_choice"], serde_json::json!(["alpha"]));
    // Another skill changed beside it: that is no choice of the client's.
    w.give_listing(&other.replace("Does beta.", "Does beta, and more."));
    let Some((out, stdout)) = verify(&w, "opencode", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("differs from line"), "{stdout}");
    // A copy no folder holds is not one the client could pick.
    w.give_listing(&predicted.replace("The project's alpha.", "Someone else's alpha."));
    let Some((out, stdout)) = verify(&w, "opencode", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{stdout}");
}

/// Gemini CLI lists a folder's skills in the order its glob returns them, unsorted: the same
/// skills in another order within their folder are its own choice; the prediction's order is
/// identical.
#[test]
fn gemini_listing_a_folder_in_another_order_is_its_own_choice() {
    let w = World::new(".gemini/skills");
    w.fake("gemini", FAKE_GEMINI);
    let predicted = w.predict("gemini");
    let block = |name: &str| {
        let start = predicted
            .find(&format!("  <skill>\n    <name>{name}</name>"))
            .unwrap();
        let len = predicted[start..].find("</skill>").unwrap() + "</skill>".len();
        predicted[start..start + len].to_string()
    };
    let (alpha, beta) = (block("alpha"), block("beta"));
    let (a, b) = (
        predicted.find(&alpha).unwrap(),
        predicted.find(&beta).unwrap(),
    );
    let (first, second) = if a < b {
        (&alpha, &beta)
    } else {
        (&beta, &alpha)
    };
    let joined = format!("{first}\n{second}");
    assert!(predicted.contains(&joined), "{predicted}");
    let swapped = predicted.replace(&joined, &format!("{second}\n{first}"));
    assert_ne!(swapped, predicted);
    w.give_listing(&swapped);
    let Some((out, stdout)) = verify(&w, "gemini", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(
            "the client's own choice: 2 entries placed or picked otherwise (alpha, beta)"
        ),
        "{stdout}"
    );
    // A built-in moved among them is not the folder's order.
    let builtin = block("skill-creator");
    let moved = predicted
        .replace(&format!("{builtin}\n"), "")
        .replace(&joined, &format!("{first}\n{builtin}\n{second}"));
    assert_ne!(moved, predicted);
    w.give_listing(&moved);
    let Some((out, stdout)) = verify(&w, "gemini", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    w.give_listing(&predicted);
    let Some((out, stdout)) = verify(&w, "gemini", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("identical ("), "{stdout}");
}

/// Claude Code 2.0 (before every modelled release) is said to be not modelled, with where it
/// lists its skills, and nothing of it is calibrated into the cache.
#[test]
fn a_release_older_than_every_modelled_one_says_so_and_is_not_calibrated() {
    let w = World::new(".claude/skills");
    w.fake("claude", FAKE_CLAUDE);
    std::fs::write(w.bin.join("version.txt"), "2.0.77 (Claude Code)\n").unwrap();
    w.give_listing(&w.predict("claude-code"));
    let Some((out, stdout)) = verify(&w, "claude-code", &[]) else {
        return;
    };
    assert!(out.status.code().is_some(), "{stdout}");
    assert!(
        stdout.contains("note: Claude Code releases before 2.1.231 are not modelled (before 2.1 it listed the skills at the end of its Skill tool's description"),
        "{stdout}"
    );
    assert!(
        stdout.contains("not calibrated: nothing calibrated: Claude Code 2.0.77 is older than every release skillscope models"),
        "{stdout}"
    );
    assert!(!w.base.join("cache/calibration.json").exists());
}

/// Gemini CLI in a folder the user has not trusted: verify runs it trusted (it refuses to run
/// headless otherwise), so the project's skills are in its listing; verify compares that with
/// the prediction for the trusted run, not with the user's untrusted view, and says that the
/// user's own client leaves them out until the folder is trusted. A trust variable the user set
/// is the run's too: nothing is said, and the prediction is the user's.
#[test]
fn gemini_in_an_untrusted_folder_is_compared_as_it_runs_trusted_saying_so() {
    let w = World::new(".gemini/skills");
    w.fake("gemini", FAKE_GEMINI);
    let dir = w.project.join(".gemini/skills/gamma");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: gamma\ndescription: The project's own skill.\n---\n# gamma\n",
    )
    .unwrap();
    let no_fake = "/usr/bin:/bin";
    let prompt = |vars: &[(&str, &str)]| {
        let out = w.run_with(&["prompt", "--agent", "gemini"], no_fake, &w.project, vars);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let untrusted = prompt(&[]);
    let trusted = prompt(&[("GEMINI_CLI_TRUST_WORKSPACE", "true")]);
    assert!(!untrusted.contains("<name>gamma</name>"), "{untrusted}");
    assert!(trusted.contains("<name>gamma</name>"), "{trusted}");
    assert!(untrusted.contains("<name>alpha</name>"), "{untrusted}");
    let note = "note: your Gemini CLI does not trust this folder: its project skills are listed \
                only once you trust it; compared as trusted";
    // The client trusted for its run lists the project's skill: identical, said why.
    w.give_listing(&trusted);
    let Some((out, stdout)) = verify(&w, "gemini", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("identical ("), "{stdout}");
    assert!(stdout.contains(note), "{stdout}");
    let Some((_, json)) = verify(&w, "gemini", &["--json"]) else {
        return;
    };
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["status"], "identical", "{json}");
    assert!(
        v["trust_note"]
            .as_str()
            .is_some_and(|n| n.starts_with("your Gemini CLI does not trust this folder")),
        "{json}"
    );
    // Trusted by the user (a rule of their trusted folders): the same run, nothing to say.
    std::fs::write(
        w.home.join(".gemini/trustedFolders.json"),
        serde_json::json!({ w.project.to_string_lossy(): "TRUST_FOLDER" }).to_string(),
    )
    .unwrap();
    let Some((out, stdout)) = verify(&w, "gemini", &[]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("does not trust"), "{stdout}");
    std::fs::remove_file(w.home.join(".gemini/trustedFolders.json")).unwrap();
    // The user's own `false` is passed to the run: the prediction leaves the project's skill
    // out as the run does, and nothing is said of trust.
    w.give_listing(&untrusted);
    let path = format!("{}:{no_fake}", w.bin.display());
    let out = w.run_with(
        &["verify", "--agent", "gemini", "--timeout", "60"],
        &path,
        &w.project,
        &[("GEMINI_CLI_TRUST_WORKSPACE", "false")],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("identical ("), "{stdout}");
    assert!(!stdout.contains("does not trust"), "{stdout}");
}
