//! `skillscope toggle` and the agent-switch API on fixture homes (copied to a temporary folder
//! first; the fixtures themselves are never written).

use skillscope::core::Library;
use skillscope::core::agents::{AgentState, AgentSwitches, SwitchScope};
use skillscope::core::scan::ScanOptions;
use skillscope::core::source::{self, Agent};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/homes")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), &dst).unwrap();
        }
    }
}

/// A home copied from a fixture, a project folder (a repository root) and a config folder.
struct World {
    tmp: tempfile::TempDir,
    fixture: PathBuf,
}

impl World {
    fn new(home_fixture: &str) -> World {
        let tmp = tempfile::tempdir().unwrap();
        copy_dir(&fixtures().join(home_fixture), &tmp.path().join("home"));
        copy_dir(&fixtures().join("project"), &tmp.path().join("project"));
        std::fs::create_dir_all(tmp.path().join("project/.git")).unwrap();
        World {
            tmp,
            fixture: fixtures().join(home_fixture),
        }
    }

    fn home(&self) -> PathBuf {
        self.tmp.path().join("home")
    }

    fn project(&self) -> PathBuf {
        self.tmp.path().join("project")
    }

    fn config(&self) -> PathBuf {
        self.tmp.path().join("config")
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.home().join(rel)).unwrap()
    }

    fn original(&self, rel: &str) -> String {
        std::fs::read_to_string(self.fixture.join(rel)).unwrap()
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .args(["toggle", "--yes"])
            .args(args)
            .current_dir(self.project())
            .env("HOME", self.home())
            .env("SKILLSCOPE_CONFIG_DIR", self.config())
            .env("NO_COLOR", "1")
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .unwrap()
    }

    fn library(&self) -> Library {
        Library::load(
            source::default_roots(Some(&self.home()), &self.project()),
            &ScanOptions::default(),
        )
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const CLAUDE: &str = ".claude/settings.json";
const CODEX: &str = ".codex/config.toml";
const OPENCODE: &str = ".config/opencode/opencode.json";

#[test]
fn status_says_what_each_agent_does_and_why() {
    let w = World::new("alice");
    let out = w.run(&["docx", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &v[0];
    assert_eq!(row["name"], "docx");
    assert_eq!(row["skillscope"]["enabled"], true);
    assert_eq!(row["skillscope"]["source"], "default");
    let agents = row["agents"].as_array().unwrap();
    assert_eq!(agents[0]["agent"], "claude-code");
    assert_eq!(agents[0]["reads"], true);
    assert_eq!(agents[0]["effective"]["state"], "name-only");
    assert_eq!(
        agents[0]["effective"]["source"],
        "~/.claude/settings.json skillOverrides.docx"
    );
    // Codex has an entry for docx but does not read ~/.claude/skills.
    assert_eq!(agents[1]["agent"], "codex");
    assert_eq!(agents[1]["reads"], false);
    assert_eq!(agents[1]["effective"]["state"], "off");
    assert_eq!(agents[2]["agent"], "opencode");
    assert_eq!(agents[2]["reads"], true);
    assert_eq!(agents[2]["effective"]["state"], "on");
    assert_eq!(
        agents[2]["effective"]["source"],
        "~/.config/opencode/opencode.json permission.skill.\"*\" = allow"
    );

    let out = w.run(&["deploy"]);
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == [
                    "claude-code",
                    "yes",
                    "user-invocable-only",
                    "frontmatter",
                    "disable-model-invocation"
                ]),
        "{text}"
    );
    let out = w.run(&["internal-notes"]);
    let text = stdout(&out);
    assert!(text.contains("opencode     yes    off"), "{text}");
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let w = World::new("alice");
    let out = w.run(&["pdf", "--off", "--dry-run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("--- ~/.claude/settings.json\n+++ ~/.claude/settings.json\n"),
        "{text}"
    );
    assert!(text.contains("-        \"legacy-tool\": \"off\"\n+        \"legacy-tool\": \"off\",\n+        \"pdf\": \"off\"\n"), "{text}");
    assert!(text.contains("+\t\t\t\"pdf\": \"deny\"\n"), "{text}");
    assert!(text.contains("claude-code: on → off"), "{text}");
    assert!(text.contains("dry run: nothing was written"), "{text}");
    for f in [CLAUDE, CODEX, OPENCODE] {
        assert_eq!(w.read(f), w.original(f), "{f} was written");
        assert!(!w.home().join(format!("{f}.skillscope.bak")).exists());
    }
    assert!(!w.config().join("state.json").exists());
}

#[test]
fn toggle_off_writes_each_agent_file_keeps_the_rest_and_a_second_run_changes_nothing() {
    let w = World::new("alice");
    let out = w.run(&["pdf", "--off"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("claude-code: written ~/.claude/settings.json (backup: ~/.claude/settings.json.skillscope.bak)"), "{text}");

    // Only the new entry differs; unusual spacing, escapes and key order stay as they were.
    let claude = w.original(CLAUDE).replace(
        "        \"legacy-tool\": \"off\"\n",
        "        \"legacy-tool\": \"off\",\n        \"pdf\": \"off\"\n",
    );
    assert_eq!(w.read(CLAUDE), claude);
    let opencode = w.original(OPENCODE).replace(
        "\t\t\t\"internal-*\": \"deny\"\n",
        "\t\t\t\"internal-*\": \"deny\",\n\t\t\t\"pdf\": \"deny\"\n",
    );
    assert_eq!(w.read(OPENCODE), opencode);
    // Codex does not read ~/.claude/skills: its file is not touched.
    assert_eq!(w.read(CODEX), w.original(CODEX));
    assert_eq!(
        w.read(&format!("{CLAUDE}.skillscope.bak")),
        w.original(CLAUDE)
    );
    assert_eq!(
        w.read(&format!("{OPENCODE}.skillscope.bak")),
        w.original(OPENCODE)
    );
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(w.config().join("state.json")).unwrap())
            .unwrap();
    let key = w.home().join(".claude/skills/pdf");
    assert_eq!(state["skills"][key.to_str().unwrap()]["enabled"], false);

    // What the agents now see.
    let out = w.run(&["pdf", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["skillscope"]["enabled"], false);
    assert_eq!(v[0]["agents"][0]["effective"]["state"], "off");
    assert_eq!(v[0]["agents"][2]["effective"]["state"], "off");

    let again = w.run(&["pdf", "--off"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let text = stdout(&again);
    assert!(
        text.contains("skillscope: already off; nothing to change"),
        "{text}"
    );
    assert!(text.contains("claude-code: already off (~/.claude/settings.json skillOverrides.pdf); nothing to change"), "{text}");
    assert!(text.ends_with("nothing to change\n"), "{text}");
    assert_eq!(w.read(CLAUDE), claude);
    assert_eq!(w.read(OPENCODE), opencode);
}

#[test]
fn toggle_on_after_off_gives_back_the_original_files() {
    let w = World::new("alice");
    assert!(w.run(&["pdf", "--off"]).status.success());
    let out = w.run(&["pdf", "--on"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(w.read(CLAUDE), w.original(CLAUDE));
    assert_eq!(w.read(OPENCODE), w.original(OPENCODE));
    let out = w.run(&["pdf", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["skillscope"]["enabled"], true);
    assert_eq!(v[0]["agents"][0]["effective"]["state"], "on");
}

#[test]
fn codex_toggle_keeps_comments_and_other_tables() {
    let w = World::new("alice");
    let out = w.run(&["review", "--off", "--agent", "codex"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let md = w.home().join(".agents/skills/review/SKILL.md");
    let entry = format!(
        "[[skills.config]]\npath = {:?}\nenabled = false\n\n",
        md.to_str().unwrap()
    );
    let want = w
        .original(CODEX)
        .replace("[projects.", &format!("{entry}[projects."));
    assert_eq!(w.read(CODEX), want);
    // --agent codex leaves skillscope's own state and the other agents alone.
    assert!(!w.config().join("state.json").exists());
    assert_eq!(w.read(OPENCODE), w.original(OPENCODE));

    let out = w.run(&["review", "--on", "--agent", "codex"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        w.read(CODEX),
        want.replace(
            &format!("path = {:?}\nenabled = false", md.to_str().unwrap()),
            &format!("path = {:?}\nenabled = true", md.to_str().unwrap()),
        )
    );
    assert_eq!(
        w.read(&format!("{CODEX}.skillscope.bak")),
        want,
        "the backup is the file as it was before the last toggle"
    );
}

#[test]
fn codex_has_no_project_scope_and_says_so() {
    let w = World::new("alice");
    let out = w.run(&["review", "--off", "--agent", "codex", "--scope", "project"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("only from ~/.codex/config.toml"),
        "{}",
        stderr(&out)
    );
    // Asked of every agent at once, the agent without that scope is skipped, not a failure.
    let out = w.run(&["review", "--off", "--scope", "project", "--dry-run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("codex: skipped:"), "{}", stdout(&out));
    assert!(stdout(&out).contains("+++ "), "{}", stdout(&out));
}

#[test]
fn project_and_local_scopes_write_the_project_files() {
    let w = World::new("alice");
    let out = w.run(&[
        "pdf",
        "--off",
        "--agent",
        "claude-code",
        "--scope",
        "project",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(w.project().join(".claude/settings.json")).unwrap(),
        "{\n  \"skillOverrides\": {\n    \"team-style\": \"user-invocable-only\",\n    \"pdf\": \"off\"\n  }\n}\n"
    );
    assert_eq!(w.read(CLAUDE), w.original(CLAUDE));
    let out = w.run(&[
        "team-style",
        "--on",
        "--agent",
        "claude-code",
        "--scope",
        "local",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(w.project().join(".claude/settings.local.json")).unwrap(),
        "{\n  \"skillOverrides\": {\n    \"team-style\": \"on\"\n  }\n}\n"
    );
}

#[test]
fn agent_skillscope_changes_only_skillscopes_own_state() {
    let w = World::new("alice");
    let out = w.run(&["pdf", "--off", "--agent", "skillscope"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("skillscope: on → off"),
        "{}",
        stdout(&out)
    );
    assert!(w.config().join("state.json").exists());
    for f in [CLAUDE, CODEX, OPENCODE] {
        assert_eq!(w.read(f), w.original(f));
    }
}

#[test]
fn a_file_that_does_not_parse_is_refused_and_left_as_it_was() {
    let w = World::new("broken");
    let out = w.run(&["pdf", "--off", "--agent", "claude-code"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("settings.json is not valid JSON (line 4, column 2"),
        "{err}"
    );
    assert!(
        err.contains("never rewrites a file it cannot read"),
        "{err}"
    );
    assert_eq!(w.read(CLAUDE), w.original(CLAUDE));
    assert!(!w.home().join(format!("{CLAUDE}.skillscope.bak")).exists());

    let out = w.run(&["review", "--off", "--agent", "codex"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("config.toml is not valid TOML (line 2"),
        "{}",
        stderr(&out)
    );
    assert_eq!(w.read(CODEX), w.original(CODEX));
    // Reading the switches reports both files instead of failing.
    let out = w.run(&["pdf"]);
    assert!(out.status.success());
    assert_eq!(
        stderr(&out).matches("warning: ").count(),
        2,
        "{}",
        stderr(&out)
    );
}

#[cfg(unix)]
#[test]
fn a_read_only_file_gets_a_clear_error_even_for_root() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new("alice");
    let file = w.home().join(CLAUDE);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = w.run(&["pdf", "--off", "--agent", "claude-code"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("settings.json is read-only; make it writable"),
        "{}",
        stderr(&out)
    );
    assert_eq!(w.read(CLAUDE), w.original(CLAUDE));
}

#[test]
fn an_unknown_skill_is_an_error() {
    let w = World::new("alice");
    let out = w.run(&["no-such-skill", "--off"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no skill named \"no-such-skill\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_file_edited_between_plan_and_apply_keeps_the_edit_and_gets_the_toggle() {
    let w = World::new("alice");
    let lib = w.library();
    let pdf = &lib.skills[lib.find("pdf").unwrap()];
    let (switches, diags) = AgentSwitches::load(&w.home(), Some(&w.project()));
    assert!(diags.is_empty(), "{diags:?}");
    let plan = switches
        .plan(pdf, Agent::ClaudeCode, SwitchScope::User, false)
        .unwrap();
    assert_eq!(plan.before_state.state, AgentState::On);
    assert_eq!(plan.after_state.state, AgentState::Off);
    // The user's editor saves a change meanwhile.
    let edited = w.read(CLAUDE).replace("\"opus\"", "\"sonnet\"");
    assert_ne!(edited, w.read(CLAUDE));
    std::fs::write(w.home().join(CLAUDE), &edited).unwrap();
    // Applying reads the file again under its lock and puts the change on top of the edit.
    let (written, applied) = switches.apply(pdf, &plan).unwrap();
    assert!(applied.written);
    assert_eq!(written.before, edited);
    let now = w.read(CLAUDE);
    assert_eq!(now, written.after);
    assert!(
        now.contains("\"sonnet\"") && now.contains("\"pdf\": \"off\""),
        "{now}"
    );
}

#[test]
fn badges_for_every_skill_of_the_fixture_home() {
    let w = World::new("alice");
    let lib = w.library();
    let (switches, _) = AgentSwitches::load(&w.home(), Some(&w.project()));
    let mut got: Vec<(String, Vec<&str>)> = lib
        .skills
        .iter()
        .map(|s| {
            let loads = switches
                .badges(s)
                .into_iter()
                .filter(skillscope::core::agents::Badge::loads)
                .map(|b| b.agent.as_str())
                .collect();
            (s.name.clone(), loads)
        })
        .collect();
    got.sort();
    let want: Vec<(String, Vec<&str>)> = vec![
        // Hidden from Claude's model by its frontmatter; opencode ignores that field.
        ("deploy".into(), vec!["opencode"]),
        // name-only is still listed.
        ("docx".into(), vec!["claude-code", "opencode"]),
        // `.agents/skills` is read by OpenClaw, Copilot, Qwen Code and Gemini CLI too (all
        // switchable).
        (
            "internal-notes".into(),
            vec!["codex", "openclaw", "github-copilot", "qwen-code", "gemini"],
        ),
        ("pdf".into(), vec!["claude-code", "opencode"]),
        (
            "review".into(),
            vec![
                "codex",
                "opencode",
                "openclaw",
                "github-copilot",
                "qwen-code",
                "gemini",
            ],
        ),
        // Copilot reads a project's `.claude/skills`, never the home's.
        ("team-style".into(), vec!["opencode", "github-copilot"]),
    ];
    assert_eq!(got, want);
}

#[test]
fn a_skill_named_star_switches_off_nothing_else() {
    let w = World::new("alice");
    // Claude Code knows a skill of its folder by the folder's name: the folder is named `*` too.
    let star = w.home().join(".claude/skills/*");
    std::fs::create_dir_all(&star).unwrap();
    std::fs::write(
        star.join("SKILL.md"),
        "---\nname: \"*\"\ndescription: A skill whose name is a wildcard.\n---\n",
    )
    .unwrap();
    let out = w.run(&["*", "--off"]);
    let (text, err) = (stdout(&out), stderr(&out));
    // Claude Code's keys are names, not patterns: the entry is written as is.
    assert!(
        text.contains("claude-code: written ~/.claude/settings.json"),
        "{text}"
    );
    assert!(
        w.read(CLAUDE).contains("\"*\": \"off\""),
        "{}",
        w.read(CLAUDE)
    );
    // opencode would read it as "every skill": refused, with the reason, and the file untouched.
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    assert!(
        err.contains("opencode cannot be switched for the skill \"*\"")
            && err.contains("no way to escape"),
        "{err}"
    );
    assert_eq!(w.read(OPENCODE), w.original(OPENCODE));
    // Every other skill is as it was for every agent.
    let out = w.run(&["pdf", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for badge in v[0]["agents"].as_array().unwrap() {
        assert_eq!(badge["effective"]["state"], "on", "{badge}");
    }
    let out = w.run(&["*", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["agents"][0]["effective"]["state"], "off");
}

/// Gemini CLI's switch is `skills.disabled` in its settings (what `gemini skills disable NAME`
/// writes): `toggle --agent gemini` writes it keeping the rest of the file, its listing then
/// leaves the skill out, and `--on` takes the name back out of the list.
#[test]
fn toggle_writes_gemini_clis_skills_disabled_and_its_listing_follows() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    for name in ["alpha", "beta"] {
        let dir = home.join(".gemini/skills").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: The {name} skill does {name} things.\n---\nBody\n"
            ),
        )
        .unwrap();
    }
    let settings = home.join(".gemini/settings.json");
    std::fs::write(&settings, "{\n  \"theme\": \"dark\"\n}\n").unwrap();
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .env("SKILLSCOPE_CONFIG_DIR", tmp.path().join("config"))
            .env("NO_COLOR", "1")
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .unwrap()
    };
    let listing = stdout(&run(&["prompt", "--agent", "gemini"]));
    assert!(
        listing.contains("<name>alpha</name>") || listing.contains("alpha"),
        "{listing}"
    );

    let out = run(&["toggle", "--yes", "alpha", "--off", "--agent", "gemini"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(v["skills"]["disabled"], serde_json::json!(["alpha"]));
    assert_eq!(v["theme"], "dark");
    let listing = stdout(&run(&["prompt", "--agent", "gemini"]));
    assert!(
        !listing.contains("alpha") && listing.contains("beta"),
        "{listing}"
    );

    let out = run(&["toggle", "--yes", "alpha", "--on", "--agent", "gemini"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(v["skills"]["disabled"], serde_json::json!([]));
    let listing = stdout(&run(&["prompt", "--agent", "gemini"]));
    assert!(listing.contains("alpha"), "{listing}");
}

impl World {
    /// `skillscope ARGS` as a plain (non-terminal) child, without the `--yes` of [`World::run`].
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skillscope"));
        c.args(args)
            .current_dir(self.project())
            .env("HOME", self.home())
            .env("SKILLSCOPE_CONFIG_DIR", self.config())
            .env("NO_COLOR", "1")
            .env_remove("XDG_CONFIG_HOME");
        c
    }
}

#[test]
fn without_a_terminal_and_without_yes_toggle_refuses_and_writes_nothing() {
    let w = World::new("alice");
    let out = w
        .command(&["toggle", "pdf", "--off"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no terminal to ask on") && err.contains("--yes"),
        "{err}"
    );
    // The change is still shown, so the user sees what --yes would write.
    assert!(
        stdout(&out).contains("claude-code: on → off"),
        "{}",
        stdout(&out)
    );
    for f in [CLAUDE, CODEX, OPENCODE] {
        assert_eq!(w.read(f), w.original(f), "{f} was written");
    }
    assert!(!w.config().join("state.json").exists());
}

/// Runs `skillscope ARGS` on a pseudo-terminal, typing `answer` once the question shows;
/// returns the exit code and all it wrote there.
#[cfg(unix)]
fn on_terminal(w: &World, args: &[&str], answer: &str) -> (u32, String) {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    use std::io::{Read, Write};
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 50,
            cols: 200,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_skillscope"));
    cmd.args(args);
    cmd.cwd(w.project());
    cmd.env("NO_COLOR", "1");
    cmd.env("HOME", w.home());
    cmd.env("SKILLSCOPE_CONFIG_DIR", w.config());
    cmd.env_remove("XDG_CONFIG_HOME");
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let mut writer = pty.master.take_writer().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        // The read ends with an error once the child is gone and the terminal closed.
        while let Ok(n) = reader.read(&mut chunk) {
            if n == 0 || tx.send(chunk[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let mut answered = false;
    let status = loop {
        while let Ok(bytes) = rx.recv_timeout(std::time::Duration::from_millis(50)) {
            seen.extend_from_slice(&bytes);
        }
        if !answered && String::from_utf8_lossy(&seen).contains("[y/N]") {
            writer.write_all(answer.as_bytes()).unwrap();
            writer.flush().unwrap();
            answered = true;
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(seen.len() < 1 << 20, "{}", String::from_utf8_lossy(&seen));
    };
    drop(writer);
    drop(pty.master);
    while let Ok(bytes) = rx.recv_timeout(std::time::Duration::from_millis(200)) {
        seen.extend_from_slice(&bytes);
    }
    assert!(
        answered,
        "no question asked:\n{}",
        String::from_utf8_lossy(&seen)
    );
    (
        status.exit_code(),
        String::from_utf8_lossy(&seen).into_owned(),
    )
}

#[cfg(unix)]
#[test]
fn on_a_terminal_toggle_asks_first_and_writes_only_on_yes() {
    let w = World::new("alice");
    let (code, text) = on_terminal(&w, &["toggle", "pdf", "--off"], "n\r");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("claude-code: on → off") && text.contains("Switch pdf off? [y/N]"),
        "the change is shown before the question:\n{text}"
    );
    for f in [CLAUDE, CODEX, OPENCODE] {
        assert_eq!(w.read(f), w.original(f), "{f} was written after a no");
    }
    assert!(!w.config().join("state.json").exists());

    let (code, text) = on_terminal(&w, &["toggle", "pdf", "--off"], "y\r");
    assert_eq!(code, 0, "{text}");
    assert!(w.read(CLAUDE).contains("\"pdf\": \"off\""), "{text}");
    assert!(w.config().join("state.json").exists(), "{text}");
    assert!(
        text.contains("claude-code: written ~/.claude/settings.json"),
        "{text}"
    );
}

#[test]
fn without_agent_toggle_creates_no_settings_file_for_an_agent_not_set_up() {
    let w = World::new("alice");
    // No opencode here: neither its folder nor its command.
    std::fs::remove_dir_all(w.home().join(".config/opencode")).unwrap();
    let bin = w.tmp.path().join("empty-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let out = w
        .command(&["toggle", "pdf", "--off", "--yes"])
        .env("PATH", &bin)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        !w.home().join(OPENCODE).exists() && !w.home().join(".config/opencode").exists(),
        "{text}"
    );
    assert!(
        text.contains("opencode: skipped: opencode is not set up here"),
        "{text}"
    );
    // The agent that is set up still gets the switch.
    assert!(w.read(CLAUDE).contains("\"pdf\": \"off\""), "{text}");

    // Named, it is written even so.
    let out = w
        .command(&["toggle", "pdf", "--off", "--yes", "--agent", "opencode"])
        .env("PATH", &bin)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(w.home().join(OPENCODE).exists(), "{}", stdout(&out));
}
