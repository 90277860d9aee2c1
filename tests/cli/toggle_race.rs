//! Parallel toggles lose nothing: 20 `skillscope toggle` processes at once against skillscope's
//! own state and each agent's settings file, and a lock that is not free is a clear failure.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

const N: usize = 20;

/// A home whose skills `s00`…`s19` live in `skills_dir` (relative to the home), a project folder
/// (a repository root, so the home is never taken for the project) and a config folder.
struct World {
    tmp: tempfile::TempDir,
}

impl World {
    fn new(skills_dir: &str) -> World {
        let tmp = tempfile::tempdir().unwrap();
        let w = World { tmp };
        for i in 0..N {
            let dir = w.home().join(skills_dir).join(name(i));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join("SKILL.md"),
                format!(
                    "---\nname: {}\ndescription: Skill number {i}. Use when asked for it.\n---\nBody.\n",
                    name(i)
                ),
            )
            .unwrap();
        }
        std::fs::create_dir_all(w.project().join(".git")).unwrap();
        w
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

    fn seed(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.home().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skillscope"));
        c.args(["toggle", "--yes"])
            .args(args)
            .current_dir(self.project())
            .env("HOME", self.home())
            .env("SKILLSCOPE_CONFIG_DIR", self.config())
            .env("SKILLSCOPE_CACHE_DIR", self.tmp.path().join("cache"))
            .env("NO_COLOR", "1")
            .env_remove("XDG_CONFIG_HOME")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    /// Starts `toggle sNN --off --agent <agent>` for every skill at once and waits for all.
    fn toggle_all_off(&self, agent: &str) -> Vec<Output> {
        // The race is the point, not the default wait: a generous wait keeps a loaded machine
        // from turning into a failure the test is not about.
        let children: Vec<Child> = (0..N)
            .map(|i| {
                self.command(&[&name(i), "--off", "--agent", agent])
                    .env("SKILLSCOPE_LOCK_TIMEOUT_MS", "60000")
                    .spawn()
                    .unwrap()
            })
            .collect();
        children.into_iter().map(wait_guarded).collect()
    }
}

fn name(i: usize) -> String {
    format!("s{i:02}")
}

/// Waits for a toggle, killing it (and failing) if it hangs.
fn wait_guarded(child: Child) -> Output {
    crate::common::wait_guarded(child, 120, "a toggle")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Every run succeeded and said it wrote (`written`: the words an agent's success prints).
fn assert_all_written(outs: &[Output], written: &str) {
    for (i, o) in outs.iter().enumerate() {
        assert!(
            o.status.success(),
            "toggle {} failed: {}{}",
            name(i),
            text(&o.stdout),
            text(&o.stderr)
        );
        assert!(
            text(&o.stdout).contains(written),
            "toggle {} did not say {written:?}: {}",
            name(i),
            text(&o.stdout)
        );
    }
}

/// Each comment of `seed` is in `now` as often as in `seed`.
fn assert_comments_kept(seed: &str, now: &str, comments: &[&str]) {
    for c in comments {
        assert_eq!(seed.matches(c).count(), 1, "the seed holds {c:?} once");
        assert_eq!(
            now.matches(c).count(),
            1,
            "{c:?} is gone or doubled:\n{now}"
        );
    }
}

fn jsonc(text: &str) -> serde_json::Value {
    jsonc_parser::parse_to_serde_value::<serde_json::Value>(
        text,
        &jsonc_parser::ParseOptions::default(),
    )
    .unwrap_or_else(|e| panic!("does not parse ({e}):\n{text}"))
}

#[test]
fn twenty_parallel_toggles_all_land_in_state_json() {
    let w = World::new(".claude/skills");
    let state = w.config().join("state.json");
    std::fs::create_dir_all(w.config()).unwrap();
    let seed = r#"{"version": 1, "theme": "dark", "skills": {"/elsewhere/x": {"enabled": false, "note": "keep"}}}"#;
    std::fs::write(&state, seed).unwrap();
    let outs = w.toggle_all_off("skillscope");
    assert_all_written(&outs, "skillscope: on → off");
    let now: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let skills = now["skills"].as_object().unwrap();
    assert_eq!(skills.len(), N + 1, "{now:#}");
    for i in 0..N {
        let key = w.home().join(".claude/skills").join(name(i));
        assert_eq!(
            skills[key.to_str().unwrap()]["enabled"],
            false,
            "{} lost: {now:#}",
            name(i)
        );
    }
    assert_eq!(now["theme"], "dark");
    assert_eq!(now["version"], 1);
    assert_eq!(
        skills["/elsewhere/x"],
        serde_json::json!({"enabled": false, "note": "keep"})
    );
}

#[test]
fn twenty_parallel_toggles_all_land_in_claude_settings() {
    let w = World::new(".claude/skills");
    let seed = "// Claude Code settings, kept by hand\n{\n  \"model\": \"opus\", // the model\n  /* what may run */\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"skillOverrides\": {\n    \"keep\": \"name-only\" // pinned\n  },\n  \"env\": {\"A\": \"1\"}\n}\n";
    let file = w.seed(".claude/settings.json", seed);
    let outs = w.toggle_all_off("claude-code");
    assert_all_written(&outs, "claude-code: written ~/.claude/settings.json");
    let now = std::fs::read_to_string(&file).unwrap();
    let (mut got, mut want) = (jsonc(&now), jsonc(seed));
    let overrides = got
        .as_object_mut()
        .unwrap()
        .shift_remove("skillOverrides")
        .unwrap();
    let mut want_overrides = want
        .as_object_mut()
        .unwrap()
        .shift_remove("skillOverrides")
        .unwrap();
    for i in 0..N {
        want_overrides[name(i)] = "off".into();
    }
    assert_eq!(got, want, "a key other than skillOverrides changed:\n{now}");
    let mut overrides = overrides.as_object().unwrap().clone();
    overrides.sort_keys();
    let mut want_overrides = want_overrides.as_object().unwrap().clone();
    want_overrides.sort_keys();
    assert_eq!(overrides, want_overrides, "{now}");
    assert_comments_kept(
        seed,
        &now,
        &[
            "// Claude Code settings, kept by hand",
            "// the model",
            "/* what may run */",
            "// pinned",
        ],
    );
}

#[test]
fn twenty_parallel_toggles_all_land_in_codex_config() {
    let w = World::new(".agents/skills");
    let seed = "# Codex config, kept by hand\nmodel = \"gpt-5\" # the model\n\n[[skills.config]]\nname = \"keep\" # pinned\nenabled = false\n\n[mcp_servers.docs]\ncommand = \"docs\" # the server\n";
    let file = w.seed(".codex/config.toml", seed);
    let outs = w.toggle_all_off("codex");
    assert_all_written(&outs, "codex: written ~/.codex/config.toml");
    let now = std::fs::read_to_string(&file).unwrap();
    let doc: toml_edit::DocumentMut = now
        .parse()
        .unwrap_or_else(|e| panic!("does not parse ({e}):\n{now}"));
    assert_eq!(doc["model"].as_str(), Some("gpt-5"));
    assert_eq!(doc["mcp_servers"]["docs"]["command"].as_str(), Some("docs"));
    let entries = doc["skills"]["config"].as_array_of_tables().unwrap();
    assert_eq!(entries.len(), N + 1, "{now}");
    let first = entries.get(0).unwrap();
    assert_eq!(first["name"].as_str(), Some("keep"));
    assert_eq!(first["enabled"].as_bool(), Some(false));
    for i in 0..N {
        let md = w
            .home()
            .join(".agents/skills")
            .join(name(i))
            .join("SKILL.md");
        let hits: Vec<_> = entries
            .iter()
            .filter(|t| t.get("path").and_then(|p| p.as_str()) == md.to_str())
            .collect();
        assert_eq!(hits.len(), 1, "{} lost or doubled:\n{now}", name(i));
        assert_eq!(hits[0]["enabled"].as_bool(), Some(false));
    }
    assert_comments_kept(
        seed,
        &now,
        &[
            "# Codex config, kept by hand",
            "# the model",
            "# pinned",
            "# the server",
        ],
    );
}

#[test]
fn twenty_parallel_toggles_all_land_in_opencode_json() {
    let w = World::new(".config/opencode/skills");
    let seed = "// opencode, kept by hand\n{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"theme\": \"dark\", // dark\n  \"permission\": {\n    \"bash\": \"ask\",\n    \"skill\": {\n      \"*\": \"allow\" // the rest\n    }\n  },\n}\n";
    let file = w.seed(".config/opencode/opencode.json", seed);
    let outs = w.toggle_all_off("opencode");
    assert_all_written(&outs, "opencode: written ~/.config/opencode/opencode.json");
    let now = std::fs::read_to_string(&file).unwrap();
    let (mut got, mut want) = (jsonc(&now), jsonc(seed));
    let rules = got["permission"]
        .as_object_mut()
        .unwrap()
        .shift_remove("skill")
        .unwrap();
    want["permission"]
        .as_object_mut()
        .unwrap()
        .shift_remove("skill");
    assert_eq!(
        got, want,
        "a key other than permission.skill changed:\n{now}"
    );
    let rules = rules.as_object().unwrap();
    assert_eq!(rules.len(), N + 1, "{now}");
    assert_eq!(
        rules.keys().next().map(String::as_str),
        Some("*"),
        "the catch-all rule stays first, so the deny rules after it win:\n{now}"
    );
    for i in 0..N {
        assert_eq!(rules[&name(i)], "deny", "{} lost:\n{now}", name(i));
    }
    assert_comments_kept(
        seed,
        &now,
        &["// opencode, kept by hand", "// dark", "// the rest"],
    );
}

/// Holds the sidecar lock of `target` the way any other skillscope would.
fn hold_lock(target: &Path) -> std::fs::File {
    let lock = target.with_file_name(format!(
        ".{}.lock",
        target.file_name().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let f = std::fs::File::create(&lock).unwrap();
    f.lock().unwrap();
    f
}

#[test]
fn a_lock_that_stays_taken_fails_the_toggle_with_a_clear_message() {
    let w = World::new(".claude/skills");
    let state = w.config().join("state.json");
    let claude = w.seed(".claude/settings.json", "{\"model\": \"opus\"}\n");

    let held = hold_lock(&state);
    let out = wait_guarded(
        w.command(&["s00", "--off", "--agent", "skillscope"])
            .env("SKILLSCOPE_LOCK_TIMEOUT_MS", "200")
            .spawn()
            .unwrap(),
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&state.display().to_string()) && err.contains("another skillscope"),
        "{err}"
    );
    assert!(
        text(&out.stdout).contains("skillscope: not written"),
        "{}",
        text(&out.stdout)
    );
    assert!(!state.exists(), "nothing was written");
    drop(held);

    let held = hold_lock(&claude);
    let out = wait_guarded(
        w.command(&["s00", "--off", "--agent", "claude-code"])
            .env("SKILLSCOPE_LOCK_TIMEOUT_MS", "200")
            .spawn()
            .unwrap(),
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(".claude/settings.json") && err.contains("another skillscope"),
        "{err}"
    );
    assert!(
        text(&out.stdout).contains("claude-code: not written"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        std::fs::read_to_string(&claude).unwrap(),
        "{\"model\": \"opus\"}\n"
    );
    drop(held);

    // Once the lock is free, the same toggle goes through.
    let out = wait_guarded(
        w.command(&["s00", "--off", "--agent", "claude-code"])
            .spawn()
            .unwrap(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        std::fs::read_to_string(&claude)
            .unwrap()
            .contains("\"s00\": \"off\"")
    );
}
