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
if sys.argv[1:] == ["--version"]:
    print("2.1.332 (Claude Code)")
    sys.exit(0)
here = os.path.dirname(os.path.realpath(__file__))
listing = open(os.path.join(here, "listing.txt"), encoding="utf-8").read()
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
        let child = common::bin()
            .args(args)
            .env("HOME", &self.home)
            .env("PATH", path)
            .env("SKILLSCOPE_CONFIG_DIR", self.base.join("config"))
            .env("SKILLSCOPE_CACHE_DIR", self.base.join("cache"))
            .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
            .current_dir(&self.project)
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
    let mut args = vec!["verify", "--agent", agent, "--timeout", "60"];
    args.extend_from_slice(extra);
    let out = w.run(&args, true);
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
