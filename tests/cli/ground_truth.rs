//! The real clients are the ground truth: for every captured case of Claude Code 2.1.332
//! (`tests/fixtures/agents/claude-code@2.1.332/<case>/`) and Codex 0.171.0
//! (`tests/fixtures/agents/codex@0.171.0/<case>/`), the fixture library is laid into a throwaway
//! home and project exactly as `scripts/capture-agents.sh` laid it for that client (Codex's own
//! system skills where Codex installs them), `skillscope prompt --agent AGENT` runs there with
//! the same model (and Claude Code's `--add-dir` folder), and its stdout must be `listing.txt`
//! byte for byte, with the same o200k_base token count. Offline: no npm, no client, no Python
//! (the 150-skill generator is ported below).

use crate::common;
use skillscope::core::tokens::{Encoding, TokenCache, count_text};
use std::path::{Path, PathBuf};

fn agents_fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents")
}

/// A captured client and how the capture script laid the library out for it.
struct Client {
    /// Its captures' folder below `tests/fixtures/agents`.
    dir: &'static str,
    /// `--agent` for it, and its overlays' folder name.
    agent: &'static str,
    /// Where the user skills and the project skills were copied (below the home, the project).
    user_skills: &'static str,
    project_skills: &'static str,
    /// The `mixed` cases gave it the extra folder with `--add-dir`.
    add_dir: bool,
    /// Skills the client installs itself on its first run: the fixture folder (below the
    /// library) and where below the home they go.
    system: Option<(&'static str, &'static str)>,
    /// Its npm package and command: the test installs a stand-in of that release on `PATH`,
    /// whose version picks the release's model.
    package: &'static str,
    command: &'static str,
}

const CLAUDE_CODE: Client = Client {
    dir: "claude-code@2.1.332",
    agent: "claude-code",
    user_skills: ".claude/skills",
    project_skills: ".claude/skills",
    add_dir: true,
    system: None,
    package: "@anthropic-ai/claude-code",
    command: "claude",
};

const CODEX: Client = Client {
    dir: "codex@0.171.0",
    agent: "codex",
    user_skills: ".agents/skills",
    project_skills: ".agents/skills",
    add_dir: false,
    system: Some(("system/codex", ".codex/skills/.system")),
    package: "@openai/codex",
    command: "codex",
};

/// Claude Code's release eras before 2.1.332, captured the same way.
const fn claude_code_at(dir: &'static str) -> Client {
    Client { dir, ..CLAUDE_CODE }
}
const CLAUDE_CODE_2_1_231: Client = claude_code_at("claude-code@2.1.231");
const CLAUDE_CODE_2_1_270: Client = claude_code_at("claude-code@2.1.270");
const CLAUDE_CODE_2_1_290: Client = claude_code_at("claude-code@2.1.290");
const CLAUDE_CODE_2_1_300: Client = claude_code_at("claude-code@2.1.300");

/// Codex's release eras before 0.171.0: their own system skills (the same five in both).
const fn codex_at(dir: &'static str) -> Client {
    Client {
        dir,
        system: Some(("system/codex@0.148.0", ".codex/skills/.system")),
        ..CODEX
    }
}
const CODEX_0_148_0: Client = codex_at("codex@0.148.0");
const CODEX_0_151_0: Client = codex_at("codex@0.151.0");

const fn default_model(client: &'static Client, name: &'static str, mixed: bool) -> Case {
    Case {
        client,
        name,
        model: None,
        mixed,
        settings: None,
    }
}

/// One captured case: its client, its folder, the model the client ran, and whether its library
/// is the `mixed` one or the generated `budget150` one.
struct Case {
    client: &'static Client,
    name: &'static str,
    model: Option<&'static str>,
    mixed: bool,
    /// A settings file the capture wrote below the home (the model chosen there, not with
    /// `--model`), and its text.
    settings: Option<(&'static str, &'static str)>,
}

const MIXED: Case = Case {
    client: &CLAUDE_CODE,
    name: "mixed",
    model: None,
    mixed: true,
    settings: None,
};
const MIXED_SONNET45: Case = Case {
    client: &CLAUDE_CODE,
    name: "mixed-sonnet45",
    model: Some("claude-sonnet-4-5"),
    mixed: true,
    settings: None,
};
const BUDGET150: Case = Case {
    client: &CLAUDE_CODE,
    name: "budget150",
    model: None,
    mixed: false,
    settings: None,
};
const BUDGET150_SONNET45: Case = Case {
    client: &CLAUDE_CODE,
    name: "budget150-sonnet45",
    model: Some("claude-sonnet-4-5"),
    mixed: false,
    settings: None,
};
const CODEX_MIXED: Case = Case {
    client: &CODEX,
    name: "mixed",
    model: None,
    mixed: true,
    settings: None,
};
const CODEX_BUDGET150: Case = Case {
    client: &CODEX,
    name: "budget150",
    model: None,
    mixed: false,
    settings: None,
};

const BUDGET150_CONFIGURED: Case = Case {
    client: &CLAUDE_CODE,
    name: "budget150-configured",
    model: None,
    mixed: false,
    settings: Some((
        ".claude/settings.json",
        "{\n  \"model\": \"claude-sonnet-4-5\"\n}\n",
    )),
};
const CODEX_BUDGET150_CONFIGURED: Case = Case {
    client: &CODEX,
    name: "budget150-configured",
    model: None,
    mixed: false,
    // As the capture wrote it: the model line before the configuration that reaches the mock.
    settings: Some((
        ".codex/config.toml",
        "model = \"gpt-5.1-codex\"\nmodel_provider = \"mock\"\ncheck_for_update_on_startup = false\n\n[model_providers.mock]\nname = \"mock\"\nbase_url = \"http://127.0.0.1:9/v1\"\nwire_api = \"responses\"\nenv_key = \"MOCK_API_KEY\"\n\n[analytics]\nenabled = false\n\n[feedback]\nenabled = false\n",
    )),
};

/// The throwaway folders of one run, as the capture script named them below its base folder.
struct Layout {
    _base: tempfile::TempDir,
    base: PathBuf,
    home: PathBuf,
    project: PathBuf,
    extra: PathBuf,
    /// `PATH` for the run: the stand-in client release's folder first.
    path: Option<std::ffi::OsString>,
}

impl Layout {
    fn new() -> Layout {
        // Named as the capture's `mktemp -d /tmp/skillscope-capture.XXXXXX`, so that paths are
        // as long as the client's were (Codex prices absolute paths).
        let t = tempfile::Builder::new()
            .prefix("skillscope-capture.")
            .rand_bytes(6)
            .tempdir()
            .unwrap();
        let base = t.path().to_path_buf();
        let l = Layout {
            home: base.join("home"),
            project: base.join("project"),
            extra: base.join("extra"),
            path: None,
            base,
            _base: t,
        };
        for d in [&l.home, &l.project, &l.extra] {
            std::fs::create_dir_all(d).unwrap();
        }
        l
    }

    /// The capture's placeholders for this run's folders, longest first.
    fn placeholders(&self) -> [(String, &'static str); 4] {
        let s = |p: &Path| p.to_string_lossy().into_owned();
        [
            (s(&self.home), "{HOME}"),
            (s(&self.project), "{PROJECT}"),
            (s(&self.extra), "{EXTRA}"),
            (s(&self.base), "{BASE}"),
        ]
    }

    /// `text` with this run's folders replaced by the capture's placeholders.
    fn placeheld(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (path, ph) in self.placeholders() {
            text = text.replace(&path, ph);
        }
        text
    }
}

/// `cp -R SRC/. DST/`, as the capture script's overlay does it for Claude Code: a `*.in` file
/// loses its suffix and gets `{HOME}`, `{PROJECT}` and `{EXTRA}` filled in (`{PORT}` names the
/// mock, which no Claude Code overlay uses).
fn copy_tree(src: &Path, dst: &Path, layout: &Layout) {
    if !src.is_dir() {
        return;
    }
    for entry in std::fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        let from = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&from, &dst.join(&name), layout);
            continue;
        }
        std::fs::create_dir_all(dst).unwrap();
        let plain = name.strip_suffix(".in").unwrap_or(&name);
        assert!(!dst.join(plain).exists(), "{plain} would be merged into");
        if plain.len() < name.len() {
            let mut text = std::fs::read_to_string(&from).unwrap();
            for (path, ph) in layout.placeholders() {
                text = text.replace(ph, &path);
            }
            std::fs::write(dst.join(plain), text).unwrap();
        } else {
            std::fs::copy(&from, dst.join(plain)).unwrap();
        }
    }
}

const WORDS: [&str; 26] = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "xray", "yankee", "zulu",
];
const VERBS: [&str; 21] = [
    "Analyse",
    "Build",
    "Check",
    "Convert",
    "Deploy",
    "Document",
    "Extract",
    "Format",
    "Generate",
    "Index",
    "Lint",
    "Migrate",
    "Normalise",
    "Optimise",
    "Package",
    "Query",
    "Refactor",
    "Summarise",
    "Test",
    "Upgrade",
    "Validate",
];
const OBJECTS: [&str; 18] = [
    "log files",
    "database schemas",
    "API clients",
    "spreadsheets",
    "release notes",
    "Docker images",
    "Terraform plans",
    "CSV exports",
    "PDF reports",
    "unit tests",
    "CI pipelines",
    "YAML manifests",
    "changelogs",
    "dependency trees",
    "screenshots",
    "SQL queries",
    "JSON payloads",
    "Markdown docs",
];

/// `description(i)` of `library/generate-budget.py`: 80 + (i × 37) mod 320 characters.
fn budget_description(i: usize) -> String {
    let target = 80 + (i * 37) % 320;
    let obj = OBJECTS[(i * 7) % OBJECTS.len()];
    let mut text = format!(
        "{} {obj} for project {}. Use when the user asks about {obj} or {}.",
        VERBS[i % VERBS.len()],
        WORDS[i % WORDS.len()],
        WORDS[(i * 3) % WORDS.len()],
    );
    let mut k = 0;
    while text.len() < target {
        text.push_str(&format!(
            " Also handles {} {} case {k}.",
            WORDS[(i + k) % WORDS.len()],
            OBJECTS[(i + k) % OBJECTS.len()],
        ));
        k += 1;
    }
    text.truncate(target);
    let mut text = text.trim_end().to_string();
    if !text.ends_with('.') {
        text = format!("{}.", text.trim_end_matches([',', ';', ':', ' ']));
    }
    text
}

/// `generate-budget.py OUT COUNT`, byte for byte (it is all ASCII).
fn generate_budget(out: &Path, count: usize) {
    for i in 1..=count {
        let name = format!("skill-{i:03}-{}", WORDS[i % WORDS.len()]);
        let dir = out.join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: {}\n---\n# {name}\n\nSteps for {name}.\n",
                budget_description(i)
            ),
        )
        .unwrap();
    }
}

/// `generate-controls.py OUT`: each skill of `library/controls.json`, its folder name and its
/// SKILL.md as the JSON strings hold them (control characters, bidi controls and all).
fn generate_controls(out: &Path) {
    let text = std::fs::read_to_string(agents_fixtures().join("library/controls.json")).unwrap();
    let lib: serde_json::Value = serde_json::from_str(&text).unwrap();
    for s in lib["skills"].as_array().unwrap() {
        let dir = out.join(s["folder"].as_str().unwrap());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), s["skill_md"].as_str().unwrap()).unwrap();
    }
}

/// The library laid out for `case`'s client, as `lay_library` in the capture script does, with
/// the client's own system skills where it installs them.
fn lay(case: &Case) -> Layout {
    let lib = agents_fixtures().join("library");
    let c = case.client;
    let l = Layout::new();
    copy_tree(&lib.join("project/files"), &l.project, &l);
    if case.mixed {
        copy_tree(&lib.join("user/skills"), &l.home.join(c.user_skills), &l);
        copy_tree(
            &lib.join("project/skills"),
            &l.project.join(c.project_skills),
            &l,
        );
        copy_tree(&lib.join("user/overlay").join(c.agent), &l.home, &l);
        copy_tree(&lib.join("project/overlay").join(c.agent), &l.project, &l);
        copy_tree(&lib.join("extra/overlay").join(c.agent), &l.extra, &l);
    } else if case.name == "controls" {
        generate_controls(&l.home.join(c.user_skills));
    } else {
        generate_budget(&l.home.join(c.user_skills), 150);
    }
    if let Some((from, to)) = c.system {
        copy_tree(&lib.join(from), &l.home.join(to), &l);
    }
    if let Some((file, text)) = case.settings {
        let path = l.home.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    // The capture made the project a git repository: its root is where project folders stop.
    std::fs::create_dir_all(l.project.join(".git")).unwrap();
    let mut l = l;
    l.path = Some(install_stand_in(c, &l.base.join("client")));
    l
}

/// An npm install of `c`'s release below `prefix` as `npm install --prefix` lays it out (its
/// package's `package.json` and its command linked from `bin/`; the command does nothing), and
/// the `PATH` that finds it first.
fn install_stand_in(c: &Client, prefix: &Path) -> std::ffi::OsString {
    let version = c.dir.rsplit_once('@').unwrap().1;
    let pkg = prefix.join("node_modules").join(c.package);
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        format!(r#"{{"name": "{}", "version": "{version}"}}"#, c.package),
    )
    .unwrap();
    let script = pkg.join("cli.js");
    std::fs::write(&script, "#!/bin/sh\nexit 1\n").unwrap();
    crate::common::set_mode(&script, 0o755);
    let bin = prefix.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    crate::common::symlink(&script, bin.join(c.command)).unwrap();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&rest))).unwrap()
}

/// The binary run the way the client ran, in `l`'s home and project.
fn run_in(l: &Layout, args: &[&str]) -> std::process::Output {
    let mut cmd = common::bin();
    if let Some(path) = &l.path {
        cmd.env("PATH", path);
    }
    cmd.args(args)
        .env("HOME", &l.home)
        .env("SKILLSCOPE_CONFIG_DIR", l.base.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", l.base.join("cache"))
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
        // The model comes from the laid-out settings only.
        .env_remove("ANTHROPIC_MODEL")
        .env_remove("CODEX_HOME")
        .current_dir(&l.project)
        .output()
        .expect("the binary runs")
}

/// The arguments of `prompt` (`extra` after them) for `case`, as its client ran.
fn prompt_args(case: &Case, l: &Layout, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec!["prompt".into(), "--agent".into(), case.client.agent.into()];
    if let Some(m) = case.model {
        args.extend(["--model".to_string(), m.to_string()]);
    }
    if case.mixed && case.client.add_dir {
        args.extend([
            "--add-dir".to_string(),
            l.extra.to_string_lossy().into_owned(),
        ]);
    }
    args.extend(extra.iter().map(ToString::to_string));
    args
}

/// skillscope's prediction for `case`: stdout of `prompt --agent AGENT` run the way the client
/// ran, the run's folders replaced by the capture's placeholders; and its stderr.
fn predict(case: &Case) -> (String, String) {
    let l = lay(case);
    let args = prompt_args(case, &l, &[]);
    let out = run_in(&l, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{}: {stderr}", case.name);
    let text = String::from_utf8(out.stdout).expect("the listing is UTF-8");
    (l.placeheld(&text), stderr)
}

fn captured(case: &Case) -> String {
    let p = agents_fixtures()
        .join(case.client.dir)
        .join(case.name)
        .join("listing.txt");
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn o200k(text: &str) -> u32 {
    count_text(text, Encoding::O200kBase, &TokenCache::in_memory())
}

/// Where two listings first differ, with both versions of that line.
fn first_difference(want: &str, got: &str) -> Option<String> {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.split('\n').collect(), got.split('\n').collect());
    (0..w.len().max(g.len())).find_map(|i| {
        let (a, b) = (w.get(i), g.get(i));
        (a != b).then(|| {
            format!(
                "line {} differs\n  real client: {}\n  skillscope:  {}",
                i + 1,
                a.map_or("(no such line)".to_string(), |s| format!("{s:?}")),
                b.map_or("(no such line)".to_string(), |s| format!("{s:?}")),
            )
        })
    })
}

/// The prediction for `case` is the captured listing, byte for byte, and costs as many tokens.
fn assert_identical(case: &Case) {
    let who = format!("{}/{}", case.client.dir, case.name);
    let want = captured(case);
    let (got, stderr) = predict(case);
    let (real, predicted) = (o200k(&want), o200k(&got));
    eprintln!("{who}: real {real} o200k tokens, skillscope {predicted}");
    if let Some(diff) = first_difference(&want, &got) {
        panic!(
            "{who}: skillscope's listing is not what the real client sent ({} bytes vs {}; \
             {real} vs {predicted} o200k tokens): {diff}\nstderr: {stderr}",
            want.len(),
            got.len(),
        );
    }
    assert_eq!(got.as_bytes(), want.as_bytes(), "{who}");
    assert_eq!(real, predicted, "{who}: o200k tokens");
}

#[test]
fn claude_code_budget150_on_its_default_model_is_byte_identical() {
    assert_identical(&BUDGET150);
}

#[test]
fn claude_code_budget150_on_sonnet_4_5_is_byte_identical() {
    assert_identical(&BUDGET150_SONNET45);
}

#[test]
fn claude_code_mixed_on_its_default_model_is_byte_identical() {
    assert_identical(&MIXED);
}

#[test]
fn claude_code_mixed_on_sonnet_4_5_is_byte_identical() {
    assert_identical(&MIXED_SONNET45);
}

/// The model set in Claude Code's own settings (`"model": "claude-sonnet-4-5"` in
/// `~/.claude/settings.json`), not given with `--model`, decides the budget: the listing is the
/// real client's byte for byte, and stderr says which model and where it was set.
#[test]
fn claude_code_budget150_with_its_model_in_its_settings_is_byte_identical() {
    assert_identical(&BUDGET150_CONFIGURED);
    let (_, stderr) = predict(&BUDGET150_CONFIGURED);
    assert!(
        stderr.contains("Claude Code: model claude-sonnet-4-5 (from ~/.claude/settings.json)"),
        "{stderr}"
    );
}

/// The model set in Codex's own config (`model = "gpt-5.1-codex"` in `~/.codex/config.toml`),
/// one Codex 0.171.0 does not know, decides the budget as Codex decides it (its fallback
/// window): the listing is the real client's byte for byte, with a note saying so.
#[test]
fn codex_budget150_with_its_model_in_its_config_is_byte_identical() {
    assert_identical(&CODEX_BUDGET150_CONFIGURED);
    let (_, stderr) = predict(&CODEX_BUDGET150_CONFIGURED);
    assert!(
        stderr.contains("Codex: model gpt-5.1-codex (from ~/.codex/config.toml)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Codex 0.171.0 does not know the model `gpt-5.1-codex`"),
        "{stderr}"
    );
}

/// `run_in` with one more variable set.
fn run_with(l: &Layout, args: &[&str], var: (&str, &str)) -> std::process::Output {
    common::bin()
        .args(args)
        .env("HOME", &l.home)
        .env("SKILLSCOPE_CONFIG_DIR", l.base.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", l.base.join("cache"))
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
        .env_remove("ANTHROPIC_MODEL")
        .env_remove("CODEX_HOME")
        .env(var.0, var.1)
        .current_dir(&l.project)
        .output()
        .expect("the binary runs")
}

/// Claude Code's precedence: `ANTHROPIC_MODEL` over its settings file, and `--model` over both;
/// each gives the listing the real client sent on that model (Opus: `budget150`), and JSON says
/// which model and where it was set.
#[test]
fn claude_code_takes_its_model_from_the_environment_before_its_settings() {
    let l = lay(&BUDGET150_CONFIGURED);
    let opus = captured(&BUDGET150);
    let sonnet = captured(&BUDGET150_CONFIGURED);
    assert_ne!(opus, sonnet);
    let listing = |out: std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        l.placeheld(&String::from_utf8(out.stdout).unwrap())
    };
    let env = run_with(
        &l,
        &["prompt", "--agent", "claude-code"],
        ("ANTHROPIC_MODEL", "opus"),
    );
    assert!(
        String::from_utf8_lossy(&env.stderr)
            .contains("Claude Code: model opus = claude-opus-5-5 (from ANTHROPIC_MODEL)"),
        "{}",
        String::from_utf8_lossy(&env.stderr)
    );
    assert_eq!(listing(env), opus);
    let chosen = run_in(
        &l,
        &[
            "prompt",
            "--agent",
            "claude-code",
            "--model",
            "claude-opus-5-5",
        ],
    );
    assert_eq!(listing(chosen), opus);
    let json = run_in(&l, &["prompt", "--agent", "claude-code", "--json"]);
    assert!(json.status.success());
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["model"], "claude-sonnet-4-5");
    assert_eq!(v["model_source"]["from"], "file");
    assert_eq!(v["model_source"]["known"], true);
    let path = v["model_source"]["path"].as_str().unwrap();
    assert!(path.ends_with("home/.claude/settings.json"), "{path}");
    assert_eq!(l.placeheld(v["listing"]["text"].as_str().unwrap()), sonnet);
}

/// Codex's model from its config in `budget`: the budget of its fallback window (5,440 tokens),
/// said in the text report and in JSON; `--model` of a model it knows wins over the config.
#[test]
fn codex_budget_says_the_model_of_its_config_and_its_fallback() {
    let l = lay(&CODEX_BUDGET150_CONFIGURED);
    let json = run_in(&l, &["budget", "--agent", "codex", "--format", "json"]);
    assert!(
        json.status.success(),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let m = &v["client_model"];
    assert_eq!(
        (m["id"].as_str(), m["from"].as_str()),
        (Some("gpt-5.1-codex"), Some("file"))
    );
    assert_eq!(
        (m["known"].as_bool(), m["context_window"].as_u64()),
        (Some(false), Some(272_000))
    );
    assert_eq!(v["listing"]["budget_tokens"], 5_440);
    assert!(
        String::from_utf8_lossy(&json.stderr).contains("fallback window of 272,000 tokens"),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    let text = run_in(&l, &["budget", "--agent", "codex"]);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(
        out.contains("budget for model gpt-5.1-codex (from ~/.codex/config.toml)"),
        "{out}"
    );
    let chosen = run_in(
        &l,
        &["prompt", "--agent", "codex", "--model", "gpt-6.2-sol"],
    );
    assert!(chosen.status.success());
    assert_eq!(
        l.placeheld(&String::from_utf8(chosen.stdout).unwrap()),
        captured(&CODEX_BUDGET150)
    );
}

#[test]
fn codex_mixed_on_its_default_model_is_byte_identical() {
    assert_identical(&CODEX_MIXED);
}

#[test]
fn codex_budget150_on_its_default_model_is_byte_identical() {
    assert_identical(&CODEX_BUDGET150);
}

/// Every release era's captures, predicted with the model its installed version picks.
/// Descriptions, `when_to_use`, names and folder names holding C0 and C1 controls, DEL, escape
/// sequences, bidi controls, zero-width characters and separators: the prediction holds what
/// the client sent (sequences removed, runs of hidden characters one space, the skills whose
/// folder names hold them not offered), byte for byte, not an escaped form.
#[test]
fn claude_code_controls_are_byte_identical() {
    assert_identical(&default_model(&CLAUDE_CODE, "controls", false));
    assert_identical(&default_model(&CLAUDE_CODE_2_1_300, "controls", false));
}

/// The controls a description held are not in the prediction, escaped or raw; `--fates` says
/// why the skills whose folder names hold them are not listed.
#[test]
fn claude_code_does_not_offer_skills_whose_folder_names_hold_controls() {
    let case = default_model(&CLAUDE_CODE, "controls", false);
    let (text, _) = predict(&case);
    assert!(!text.contains("\\u{"), "{text}");
    assert!(!text.contains("ctl-dir"), "{text}");
    let l = lay(&case);
    let out = run_in(&l, &["prompt", "--agent", "claude-code", "--fates"]);
    let fates = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        fates.matches("not offered by Claude Code").count(),
        3,
        "{fates}"
    );
}

#[test]
fn claude_code_2_1_300_is_byte_identical() {
    assert_identical(&default_model(&CLAUDE_CODE_2_1_300, "mixed", true));
    assert_identical(&default_model(&CLAUDE_CODE_2_1_300, "budget150", false));
}

#[test]
fn claude_code_2_1_290_is_byte_identical() {
    assert_identical(&default_model(&CLAUDE_CODE_2_1_290, "mixed", true));
    assert_identical(&default_model(&CLAUDE_CODE_2_1_290, "budget150", false));
}

#[test]
fn claude_code_2_1_270_is_byte_identical() {
    assert_identical(&default_model(&CLAUDE_CODE_2_1_270, "mixed", true));
    assert_identical(&default_model(&CLAUDE_CODE_2_1_270, "budget150", false));
}

#[test]
fn claude_code_2_1_231_is_byte_identical() {
    assert_identical(&default_model(&CLAUDE_CODE_2_1_231, "mixed", true));
    assert_identical(&default_model(&CLAUDE_CODE_2_1_231, "budget150", false));
}

#[test]
fn codex_0_151_0_is_byte_identical() {
    assert_identical(&default_model(&CODEX_0_151_0, "mixed", true));
    assert_identical(&default_model(&CODEX_0_151_0, "budget150", false));
}

#[test]
fn codex_0_148_0_is_byte_identical() {
    assert_identical(&default_model(&CODEX_0_148_0, "mixed", true));
    assert_identical(&default_model(&CODEX_0_148_0, "budget150", false));
}

/// A case captured with `codex exec -m MODEL`: `--model MODEL` here.
const fn codex_model(
    client: &'static Client,
    name: &'static str,
    model: &'static str,
    mixed: bool,
) -> Case {
    Case {
        model: Some(model),
        ..default_model(client, name, mixed)
    }
}

/// A model whose catalogue entry sets `include_skills_usage_instructions` is sent Codex's "How
/// to use skills" section after the entries, inside the listing's tags and outside its budget:
/// on 0.148.0 (`gpt-5.4`) worded for absolute paths (`mixed-gpt54`, uncut, so no roots table
/// before 0.151.0) and for short ones (`budget150-gpt54`); on 0.171.0 (`gpt-5.5`) for short
/// paths in both. The entries are those of the default model's listing at the same window.
#[test]
fn codex_models_sent_how_to_use_skills_are_byte_identical() {
    let cases = [
        codex_model(&CODEX_0_148_0, "mixed-gpt54", "gpt-5.4", true),
        codex_model(&CODEX_0_148_0, "budget150-gpt54", "gpt-5.4", false),
        codex_model(&CODEX, "mixed-gpt55", "gpt-5.5", true),
        codex_model(&CODEX, "budget150-gpt55", "gpt-5.5", false),
    ];
    for case in &cases {
        assert_identical(case);
        let (got, _) = predict(case);
        assert_eq!(
            got.matches("\n### How to use skills\n").count(),
            1,
            "{}",
            case.name
        );
        assert!(
            got.ends_with("and continue.\n</skills_instructions>"),
            "{}",
            case.name
        );
    }
    // The same library on 0.148.0's default model: the same entries, no such section.
    let (plain, _) = predict(&default_model(&CODEX_0_148_0, "budget150", false));
    let (usage, _) = predict(&cases[1]);
    assert!(!plain.contains("How to use skills"), "{plain}");
    let (head, _) = usage.split_once("### How to use skills").unwrap();
    assert_eq!(
        head,
        plain.strip_suffix("</skills_instructions>").unwrap(),
        "the section changes nothing before it"
    );
}

/// A release between two captured ones is predicted with the era it falls in, one newer than
/// every capture with the newest, and `prompt` says so on stderr.
#[test]
fn an_installed_release_between_or_after_the_captures_says_which_it_is_predicted_with() {
    static BETWEEN: Client = Client {
        dir: "claude-code@2.1.310",
        ..CLAUDE_CODE_2_1_300
    };
    let between = &BETWEEN;
    let case = default_model(between, "mixed", true);
    let mut l = lay(&case);
    // The captures of the era it falls in are what it is predicted as.
    let want =
        std::fs::read_to_string(agents_fixtures().join("claude-code@2.1.300/mixed/listing.txt"))
            .unwrap();
    let args = prompt_args(&case, &l, &[]);
    let out = run_in(&l, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(l.placeheld(&String::from_utf8_lossy(&out.stdout)), want);
    assert!(
        stderr.contains(
            "modelled on Claude Code 2.1.300; installed 2.1.310 (npm): predicted with the era it falls in"
        ),
        "{stderr}"
    );
    let newer = Client {
        dir: "claude-code@2.1.999",
        ..CLAUDE_CODE
    };
    l.path = Some(install_stand_in(&newer, &l.base.join("newer")));
    let out = run_in(&l, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("modelled on Claude Code 2.1.332; installed 2.1.999 (npm), newer than every modelled release: predicted with the nearest"),
        "{stderr}"
    );
    assert_eq!(
        l.placeheld(&String::from_utf8_lossy(&out.stdout)),
        captured(&MIXED)
    );
}

/// Claude Code's native installer keeps each release in `~/.local/share/claude/versions/` and
/// links `~/.local/bin/claude` to it, often not on `PATH`: that release is the one predicted.
#[test]
fn a_native_install_in_the_home_picks_its_era() {
    let case = default_model(&CLAUDE_CODE_2_1_270, "mixed", true);
    let mut l = lay(&case);
    let release = l.home.join(".local/share/claude/versions/2.1.270");
    std::fs::create_dir_all(release.parent().unwrap()).unwrap();
    std::fs::write(&release, "#!/bin/sh\nexit 1\n").unwrap();
    crate::common::set_mode(&release, 0o755);
    std::fs::create_dir_all(l.home.join(".local/bin")).unwrap();
    crate::common::symlink(&release, l.home.join(".local/bin/claude")).unwrap();
    let empty = l.base.join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    l.path = Some(empty.into_os_string());
    let args = prompt_args(&case, &l, &[]);
    let out = run_in(&l, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        l.placeheld(&String::from_utf8_lossy(&out.stdout)),
        captured(&case)
    );
    // Without it, the newest era: not 2.1.270's listing.
    std::fs::remove_file(l.home.join(".local/bin/claude")).unwrap();
    let out = run_in(&l, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        l.placeheld(&String::from_utf8_lossy(&out.stdout)),
        captured(&MIXED)
    );
}

/// Each entry of a captured Codex listing: its name, and whether it carries its whole
/// description, part of it, or none.
fn codex_captured_fates(listing: &str, whole: &dyn Fn(&str) -> String) -> [usize; 3] {
    let mut n = [0; 3];
    let entries = listing
        .split_once("### Available skills\n")
        .map_or("", |(_, e)| e)
        .lines()
        .filter(|l| l.starts_with("- "));
    for line in entries {
        let (name, rest) = line[2..].split_once(": ").unwrap_or_default();
        let (description, _) = rest.rsplit_once("(file: ").unwrap_or_default();
        let description = description.strip_suffix(' ').unwrap_or(description);
        if description.is_empty() {
            n[2] += 1;
        } else if description == whole(name) {
            n[0] += 1;
        } else {
            n[1] += 1;
        }
    }
    n
}

/// `budget --agent codex` (text and JSON) and `prompt --fates` report the fates the captured
/// listing shows: its entries with their whole description, part of it or none, and the skills
/// laid out that it left out; the budget in Codex's estimated tokens.
#[test]
fn codex_reports_the_fates_its_capture_shows() {
    let case = &CODEX_BUDGET150;
    let l = lay(case);
    // The whole descriptions: the generator's, and the system skills' as `mixed` lists them.
    let mixed = captured(&CODEX_MIXED);
    let whole = |name: &str| -> String {
        if let Some(i) = name
            .strip_prefix("skill-")
            .and_then(|r| r[..3].parse().ok())
        {
            return budget_description(i);
        }
        let head = format!("- {name}: ");
        mixed
            .lines()
            .find_map(|line| line.strip_prefix(&head))
            .and_then(|r| r.rsplit_once(" (file: "))
            .map_or_else(String::new, |(d, _)| d.to_string())
    };
    let [full, trimmed, name_only] = codex_captured_fates(&captured(case), &whole);
    let laid = 150
        + std::fs::read_dir(l.home.join(".codex/skills/.system"))
            .unwrap()
            .count();
    let dropped = laid - full - trimmed - name_only;
    assert!(trimmed > 0 && dropped > 0, "{full} {trimmed} {dropped}");

    let out = run_in(&l, &["budget", "--agent", "codex", "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = common::json(&out);
    let listing = &v["listing"];
    assert_eq!(
        listing["fates"],
        serde_json::json!({"full": full, "trimmed": trimmed, "name_only": name_only, "dropped": dropped}),
        "{listing}"
    );
    assert_eq!(listing["budget_tokens"], 10_000, "{listing}");
    assert_eq!(
        listing["budget_chars"],
        serde_json::Value::Null,
        "{listing}"
    );
    assert!(
        listing["used_tokens"].as_u64().is_some_and(|u| u <= 10_000),
        "{listing}"
    );

    let fates =
        format!("fates: {full} full, {trimmed} trimmed, {name_only} name only, {dropped} dropped");
    let args = prompt_args(case, &l, &["--fates"]);
    let out = run_in(&l, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&fates), "{err}");
    assert!(err.contains("10,000 tokens (estimated)"), "{err}");
    let out = run_in(&l, &["budget", "--agent", "codex"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "{full} full, {trimmed} trimmed, {name_only} name only, {dropped} dropped"
        )),
        "{text}"
    );
}

/// The port of the generator writes what `generate-budget.py` writes (checked where Python is).
#[test]
fn the_budget_generator_port_writes_what_the_python_generator_writes() {
    let ours = tempfile::tempdir().unwrap();
    let theirs = tempfile::tempdir().unwrap();
    generate_budget(ours.path(), 150);
    let ran = std::process::Command::new("python3")
        .arg(agents_fixtures().join("library/generate-budget.py"))
        .arg(theirs.path())
        .arg("150")
        .status();
    if !ran.is_ok_and(|s| s.success()) {
        eprintln!("skipping: python3 is not there to run generate-budget.py");
        return;
    }
    let mut n = 0;
    for e in std::fs::read_dir(theirs.path()).unwrap() {
        let dir = e.unwrap().file_name();
        let read = |root: &Path| std::fs::read(root.join(&dir).join("SKILL.md")).unwrap();
        assert_eq!(read(ours.path()), read(theirs.path()), "{dir:?}");
        n += 1;
    }
    assert_eq!(n, 150);
}

/// A model the client does not know is budgeted as the client budgets it, with a note (Claude
/// Code: a window of 1,000,000 at 3 characters a token, its default's 30,000 characters; Codex:
/// 272,000 tokens); an alias is the model the client means by it; an agent whose budget does not
/// depend on its model refuses any.
#[test]
fn an_unknown_model_gets_the_clients_fallback_with_a_note() {
    let l = lay(&BUDGET150);
    let out = run_in(
        &l,
        &["prompt", "--agent", "claude-code", "--model", "gpt-5"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("Claude Code 2.1.332 does not know the model `gpt-5`")
            && err.contains("fallback window of 1,000,000 tokens"),
        "{err}"
    );
    // As the client does: the same budget as its default's, so the default's listing.
    assert_eq!(
        l.placeheld(&String::from_utf8(out.stdout).unwrap()),
        captured(&BUDGET150)
    );
    // `sonnet` is Claude Code's alias for Sonnet 5.5 (1,000,000 at 3), `claude-sonnet-4-5-20250929`
    // the dated id of Sonnet 4.5 (the sonnet45 capture).
    let dated = run_in(
        &l,
        &[
            "prompt",
            "--agent",
            "claude-code",
            "--model",
            "claude-sonnet-4-5-20250929",
        ],
    );
    assert_eq!(
        l.placeheld(&String::from_utf8(dated.stdout).unwrap()),
        captured(&BUDGET150_SONNET45)
    );
    let out = run_in(
        &l,
        &[
            "budget",
            "--agent",
            "codex",
            "--model",
            "claude-sonnet-4-5",
            "--format",
            "json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Codex 0.171.0 does not know the model `claude-sonnet-4-5`"),
        "{err}"
    );
    assert_eq!(common::json(&out)["listing"]["budget_tokens"], 5_440);
    let out = run_in(
        &l,
        &[
            "prompt",
            "--agent",
            "opencode",
            "--model",
            "claude-sonnet-4-5",
        ],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("opencode's does not"), "{err}");
    // A name that is neither a family nor a model without an agent whose budget follows one.
    let out = run_in(&l, &["budget", "--model", "llama"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown model `llama`"));
    // budget --agent takes the client's models too, and prices the listing as prompt prints it.
    let out = run_in(
        &l,
        &[
            "budget",
            "--agent",
            "claude-code",
            "--model",
            "claude-sonnet-4-5",
            "--format",
            "json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = common::json(&out);
    assert_eq!(v["listing"]["budget_chars"], 8_000, "{v}");
    assert_eq!(v["model"]["name"], "claude", "{v}");
}

/// `inject --agent A NAME --json` in the laid-out `case` is the captured `inject-<stem>.json`:
/// the same blocks (role, kind, text byte for byte, error flag) in the same order. Blocks the
/// client added after the skill's own (Claude Code's "hasn't heard from you" nudge) are not the
/// skill's and are left out of the comparison.
fn assert_injection(case: &Case, name: &str, args: &str, stem: &str) {
    let l = lay(case);
    let mut argv = vec!["inject", "--agent", case.client.agent, name, "--json"];
    if !args.is_empty() {
        argv.extend(["--args", args]);
    }
    let out = run_in(&l, &argv);
    let got: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let path = agents_fixtures()
        .join(case.client.dir)
        .join(case.name)
        .join(format!("inject-{stem}.json"));
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let want = want["added"].as_array().unwrap();
    let got = got["blocks"].as_array().unwrap();
    assert!(
        !got.is_empty() && got.len() <= want.len(),
        "{got:?} vs {want:?}"
    );
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        let text = l.placeheld(g["text"].as_str().unwrap());
        assert_eq!(
            (w["role"].as_str(), w["type"].as_str()),
            (g["role"].as_str(), g["type"].as_str()),
            "{stem}: block {i}"
        );
        if let Some(diff) = first_difference(w["text"].as_str().unwrap(), &text) {
            panic!("{stem}: block {i} is not what the real client added: {diff}");
        }
        assert_eq!(
            w["is_error"].as_bool().unwrap_or(false),
            g["is_error"].as_bool().unwrap_or(false)
        );
        assert_eq!(
            g["tokens"].as_u64(),
            Some(u64::from(o200k(g["text"].as_str().unwrap())))
        );
    }
    // The text form is the blocks' texts, a blank line apart, and nothing else.
    let mut argv = vec!["inject", "--agent", case.client.agent, name];
    if !args.is_empty() {
        argv.extend(["--args", args]);
    }
    let out = run_in(&l, &argv);
    let joined: Vec<&str> = got.iter().map(|b| b["text"].as_str().unwrap()).collect();
    assert_eq!(String::from_utf8_lossy(&out.stdout), joined.join("\n\n"));
}

#[test]
fn claude_code_skill_tool_results_are_what_the_client_added() {
    assert_injection(&MIXED, "with-resources", "one two", "with-resources");
    assert_injection(&MIXED, "deploy", "staging", "deploy");
    assert_injection(&MIXED, "dup-shared", "", "dup-shared");
    assert_injection(&MIXED, "folder-differs", "", "folder-differs");
    assert_injection(&MIXED, "no-model-invocation", "", "no-model-invocation");
    // Sonnet 4.5's capture is the same but for the session's `<system-reminder>` (the tokens
    // left) that the client appends to the tool result: not the skill's.
}

#[test]
fn codex_mentions_are_what_the_client_added() {
    assert_injection(&CODEX_MIXED, "with-resources", "", "with-resources");
    assert_injection(&CODEX_MIXED, "no-implicit", "", "no-implicit");
}

// ---------------------------------------------------------------------------------------------
// Gemini CLI 0.61.0 and opencode 1.18.33: each captured case of
// `tests/fixtures/agents/{gemini-cli@0.61.0,opencode@1.18.33}/<case>/`, laid out as
// `scripts/capture-agents.sh` laid it for that client (its own user and project folders, its
// overlays), with `prompt --agent gemini|opencode` byte for byte and token for token. Their
// listings do not depend on the model, so no model is given.
// ---------------------------------------------------------------------------------------------

/// One captured case of a client other than Claude Code.
struct ClientCase {
    /// `client@version`, the fixture folder.
    client: &'static str,
    /// The case folder.
    name: &'static str,
    /// `--agent` of skillscope.
    agent: &'static str,
    /// The client's name in the capture script (its overlay folders).
    overlay: &'static str,
    /// Where the capture put the user's skills, below the home folder.
    user_skills: &'static str,
    /// Where it put the project's skills, below the project.
    project_skills: &'static str,
    /// The `mixed` library (else the generated `budget150` one).
    mixed: bool,
}

const GEMINI: &str = "gemini-cli@0.61.0";
const OPENCODE: &str = "opencode@1.18.33";

const fn gemini_case(name: &'static str, mixed: bool) -> ClientCase {
    ClientCase {
        client: GEMINI,
        name,
        agent: "gemini",
        overlay: "gemini-cli",
        user_skills: ".gemini/skills",
        project_skills: ".gemini/skills",
        mixed,
    }
}

const fn opencode_case(name: &'static str, mixed: bool) -> ClientCase {
    ClientCase {
        client: OPENCODE,
        name,
        agent: "opencode",
        overlay: "opencode",
        user_skills: ".config/opencode/skills",
        project_skills: ".opencode/skills",
        mixed,
    }
}

/// Where the fake Gemini CLI install lives below the run's base folder: what the capture calls
/// `{CLIENT}` (the `npm install --prefix` folder).
const CLIENT_DIR: &str = "client";

/// The library laid out for `case`'s client, as `lay_library` in the capture script does (the
/// run configuration that only points the client at the mock is left out: skillscope reads
/// nothing of it), and Gemini CLI "installed" below `{CLIENT}` with its command on a PATH folder.
fn lay_client(case: &ClientCase) -> Layout {
    let lib = agents_fixtures().join("library");
    let l = Layout::new();
    copy_tree(&lib.join("project/files"), &l.project, &l);
    if case.mixed {
        copy_tree(&lib.join("user/skills"), &l.home.join(case.user_skills), &l);
        copy_tree(
            &lib.join("project/skills"),
            &l.project.join(case.project_skills),
            &l,
        );
        copy_tree(&lib.join("user/overlay").join(case.overlay), &l.home, &l);
        copy_tree(
            &lib.join("project/overlay").join(case.overlay),
            &l.project,
            &l,
        );
        copy_tree(&lib.join("extra/overlay").join(case.overlay), &l.extra, &l);
    } else {
        generate_budget(&l.home.join(case.user_skills), 150);
    }
    std::fs::create_dir_all(l.project.join(".git")).unwrap();
    let package = l
        .base
        .join(CLIENT_DIR)
        .join("node_modules/@google/gemini-cli");
    std::fs::create_dir_all(package.join("bundle")).unwrap();
    std::fs::write(package.join("bundle/gemini.js"), "#!/usr/bin/env node\n").unwrap();
    std::fs::create_dir_all(l.base.join("bin")).unwrap();
    crate::common::symlink(package.join("bundle/gemini.js"), l.base.join("bin/gemini")).unwrap();
    l
}

/// skillscope run in `l`'s project with `args`, the way the captured client ran: the fake
/// Gemini CLI install's folder first on `PATH` (unless `path` replaces it), and
/// `GEMINI_CLI_TRUST_WORKSPACE` set to `trust` (removed when `None`). Its stdout with the run's
/// folders replaced by the capture's placeholders, and its stderr.
fn run_client(
    l: &Layout,
    args: &[&str],
    trust: Option<&str>,
    path: Option<&str>,
) -> (String, String) {
    let path =
        path.map_or_else(
            || {
                std::env::join_paths(std::iter::once(l.base.join("bin")).chain(
                    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
                ))
                .unwrap()
            },
            std::ffi::OsString::from,
        );
    let mut cmd = common::bin();
    cmd.args(args)
        .env("HOME", &l.home)
        .env("PATH", path)
        .env_remove("GEMINI_CLI_TRUST_WORKSPACE")
        .env_remove("GEMINI_RESTRICTED_MODE")
        .env_remove("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
        .env("SKILLSCOPE_CONFIG_DIR", l.base.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", l.base.join("cache"))
        .current_dir(&l.project);
    if let Some(t) = trust {
        cmd.env("GEMINI_CLI_TRUST_WORKSPACE", t);
    }
    let out = cmd.output().expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {stderr}");
    let mut text = String::from_utf8(out.stdout).expect("the output is UTF-8");
    let client = l.base.join(CLIENT_DIR).to_string_lossy().into_owned();
    text = text.replace(&client, "{CLIENT}");
    for (path, ph) in l.placeholders() {
        text = text.replace(&path, ph);
    }
    (text, stderr)
}

/// skillscope's prediction for `case`, run the way the client ran (`GEMINI_CLI_TRUST_WORKSPACE`
/// as the capture set it), the run's folders replaced by the capture's placeholders; its stderr.
fn predict_client(case: &ClientCase) -> (String, String) {
    let l = lay_client(case);
    run_client(&l, &["prompt", "--agent", case.agent], Some("true"), None)
}

/// A file of `case`'s capture.
fn read_capture(case: &ClientCase, file: &str) -> String {
    let p = agents_fixtures()
        .join(case.client)
        .join(case.name)
        .join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The prediction for `case` is the captured listing, byte for byte, and costs as many tokens.
fn assert_client_identical(case: &ClientCase) {
    assert_client_identical_to(case, "listing.txt");
}

/// The prediction for `case` is its capture's listing `file`, byte for byte, and costs as many
/// tokens.
fn assert_client_identical_to(case: &ClientCase, file: &str) {
    let want = read_capture(case, file);
    let (got, stderr) = predict_client(case);
    let (real, predicted) = (o200k(&want), o200k(&got));
    eprintln!(
        "{}/{}: real {real} o200k tokens, skillscope {predicted}",
        case.client, case.name
    );
    if let Some(diff) = first_difference(&want, &got) {
        panic!(
            "{}/{}: skillscope's listing is not what the real client sent ({} bytes vs {}; \
             {real} vs {predicted} o200k tokens): {diff}\nstderr: {stderr}",
            case.client,
            case.name,
            want.len(),
            got.len(),
        );
    }
    assert_eq!(got.as_bytes(), want.as_bytes(), "{}", case.name);
    assert_eq!(real, predicted, "{}: o200k tokens", case.name);
}

#[test]
fn gemini_cli_mixed_is_byte_identical() {
    assert_client_identical(&gemini_case("mixed", true));
}

/// The same library without `--approval-mode yolo`: the listing does not change (only the
/// `activate_skill` tool is not declared).
#[test]
fn gemini_cli_mixed_plain_is_byte_identical() {
    assert_client_identical(&gemini_case("mixed-plain", true));
}

/// Gemini CLI lists a folder in its glob's order, which is not stable between runs. skillscope
/// models the order the captures show, descending code points within a folder:
/// `listing.other-run.txt` of this case is exactly that, byte for byte; `listing.txt`, the other
/// run, has `skill-077-zulu` before `skill-078-alpha` and is otherwise the same, so against it
/// the entries are compared as a set, and the tokens exactly.
#[test]
fn gemini_cli_budget150_is_byte_identical() {
    let case = gemini_case("budget150", false);
    assert_client_identical_to(&case, "listing.other-run.txt");
    let want = read_capture(&case, "listing.txt");
    let (got, _) = predict_client(&case);
    assert_eq!(
        o200k(&got),
        o200k(&want),
        "o200k tokens against listing.txt"
    );
    let entries = |t: &str| {
        let mut e: Vec<String> = t.split("  <skill>\n").map(str::to_string).collect();
        e.sort();
        e
    };
    assert_eq!(entries(&got), entries(&want), "the entries of listing.txt");
    assert_ne!(got, want, "listing.txt is the run whose order differs");
}

#[test]
fn opencode_mixed_is_byte_identical() {
    assert_client_identical(&opencode_case("mixed", true));
}

#[test]
fn opencode_budget150_is_byte_identical() {
    assert_client_identical(&opencode_case("budget150", false));
}

/// `budget --agent` prices each client's skill tool beside the listing: Gemini CLI's
/// `activate_skill` (every listed name, twice) and opencode's fixed `skill`, as large as the
/// captured `tool.json`.
#[test]
fn budget_prices_the_captured_skill_tools() {
    for (case, chars) in [
        (gemini_case("mixed", true), 1_772),
        (gemini_case("budget150", false), 6_332),
        (opencode_case("mixed", true), 676),
    ] {
        let l = lay_client(&case);
        let (json, _) = run_client(
            &l,
            &["budget", "--agent", case.agent, "--format", "json"],
            Some("true"),
            None,
        );
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let tool = &v["tool_definition"];
        assert_eq!(
            tool["chars"], chars,
            "{}/{}: {tool}",
            case.client, case.name
        );
        assert!(tool["tokens"].as_u64().is_some_and(|n| n > 0), "{tool}");
        let (text, _) = run_client(&l, &["budget", "--agent", case.agent], Some("true"), None);
        let line = format!("tool definition ({}): ", tool["name"].as_str().unwrap());
        assert!(text.contains(&line), "{text}");
    }
}

/// Gemini CLI reads a project's skills only in a trusted folder: `GEMINI_CLI_TRUST_WORKSPACE`,
/// else a rule of `~/.gemini/trustedFolders.json`; and without `gemini` on `PATH` its built-ins
/// are located in npm's global folder.
#[test]
fn gemini_reads_project_skills_only_in_a_trusted_folder() {
    let l = lay_client(&gemini_case("mixed", true));
    let prompt = ["prompt", "--agent", "gemini"];
    let (untrusted, _) = run_client(&l, &prompt, None, None);
    assert!(
        untrusted.contains("{HOME}/.gemini/skills/alpha-basic/SKILL.md"),
        "{untrusted}"
    );
    assert!(!untrusted.contains("{PROJECT}"), "{untrusted}");
    // The user's copy of a shared name is listed when the project's is not read.
    assert!(
        untrusted.contains("{HOME}/.gemini/skills/dup-shared/"),
        "{untrusted}"
    );
    std::fs::write(
        l.home.join(".gemini/trustedFolders.json"),
        format!(
            "{{{:?}: \"TRUST_FOLDER\"}}",
            l.project.display().to_string()
        ),
    )
    .unwrap();
    let (trusted, _) = run_client(&l, &prompt, None, None);
    assert_eq!(trusted, run_client(&l, &prompt, Some("true"), None).0);
    let (distrusted, _) = run_client(&l, &prompt, Some("false"), None);
    assert_eq!(distrusted, untrusted);
    let (elsewhere, _) = run_client(&l, &prompt, Some("true"), Some(""));
    assert!(
        elsewhere.contains(
            "<location>/usr/local/lib/node_modules/@google/gemini-cli/bundle/builtin/skill-creator/SKILL.md</location>"
        ),
        "{elsewhere}"
    );
}

/// The clients' settings reach their built-ins and can silence the whole listing: Gemini CLI's
/// `skills.disabled` (without regard to case) and `skills.enabled: false`; opencode's
/// `permission.skill` for its built-in, and a last `*` rule denying the skill tool.
#[test]
fn client_settings_switch_off_built_ins_and_whole_listings() {
    let l = lay_client(&gemini_case("mixed", true));
    let gemini = ["prompt", "--agent", "gemini"];
    let settings = l.home.join(".gemini/settings.json");
    std::fs::write(
        &settings,
        r#"{"skills": {"disabled": ["Skill-Creator", "alpha-basic"]}}"#,
    )
    .unwrap();
    let (text, _) = run_client(&l, &gemini, Some("true"), None);
    assert!(!text.contains("<name>skill-creator</name>"), "{text}");
    assert!(!text.contains("<name>alpha-basic</name>"), "{text}");
    assert!(text.contains("<name>antigravity-support</name>"), "{text}");
    assert!(text.contains("<name>gemini-disabled</name>"), "{text}");
    std::fs::write(&settings, r#"{"skills": {"enabled": false}}"#).unwrap();
    assert_eq!(run_client(&l, &gemini, Some("true"), None).0, "");

    let l = lay_client(&opencode_case("mixed", true));
    let opencode = ["prompt", "--agent", "opencode"];
    let config = l.home.join(".config/opencode/opencode.json");
    std::fs::write(
        &config,
        r#"{"permission": {"skill": {"customize-opencode": "deny"}}}"#,
    )
    .unwrap();
    let (text, _) = run_client(&l, &opencode, None, None);
    assert!(!text.contains("customize-opencode"), "{text}");
    assert!(text.contains("<name>opencode-denied</name>"), "{text}");
    std::fs::write(
        &config,
        r#"{"permission": {"skill": {"*": "deny", "alpha-basic": "allow"}}}"#,
    )
    .unwrap();
    let (text, _) = run_client(&l, &opencode, None, None);
    assert!(
        text.contains("<name>alpha-basic</name>") && !text.contains("<name>aaa-first</name>"),
        "{text}"
    );
    std::fs::write(&config, r#"{"permission": {"skill": "deny"}}"#).unwrap();
    assert_eq!(run_client(&l, &opencode, None, None).0, "");
}

/// `inject --agent A NAME --json` in the laid-out `case` is the captured `inject-<name>.json`:
/// the same blocks (role, kind, text byte for byte), and the text form is their text alone.
fn assert_client_injection(case: &ClientCase, name: &str) {
    let l = lay_client(case);
    let (json, stderr) = run_client(
        &l,
        &["inject", "--agent", case.agent, name, "--json"],
        Some("true"),
        None,
    );
    let got: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json} {stderr}"));
    let want: serde_json::Value =
        serde_json::from_str(&read_capture(case, &format!("inject-{name}.json"))).unwrap();
    let want = want["added"].as_array().unwrap();
    let got = got["blocks"].as_array().unwrap();
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        assert_eq!(
            (w["role"].as_str(), w["type"].as_str()),
            (g["role"].as_str(), g["type"].as_str()),
            "{name}: block {i}"
        );
        let text = g["text"].as_str().unwrap();
        if let Some(diff) = first_difference(w["text"].as_str().unwrap(), text) {
            panic!("{name}: block {i} is not what the real client added: {diff}");
        }
        assert!(g["tokens"].as_u64().is_some_and(|t| t > 0), "{g}");
    }
    let (text, _) = run_client(
        &l,
        &["inject", "--agent", case.agent, name],
        Some("true"),
        None,
    );
    assert_eq!(text, read_capture(case, &format!("inject-{name}.txt")));
}

#[test]
fn gemini_cli_activations_are_what_the_client_added() {
    assert_client_injection(&gemini_case("mixed", true), "with-resources");
    assert_client_injection(&gemini_case("mixed", true), "dup-shared");
}

#[test]
fn opencode_skill_results_are_what_the_client_added() {
    assert_client_injection(&opencode_case("mixed", true), "with-resources");
    assert_client_injection(&opencode_case("mixed", true), "dup-shared");
}

/// Each client's skill tool, as `budget --agent` prices it and `prompt --json` names it, is the
/// captured `tool.json` byte for byte once written compactly (Claude Code's `Skill`, Gemini
/// CLI's `activate_skill`, opencode's `skill`).
#[test]
fn the_skill_tools_are_the_captured_definitions() {
    let compact = |text: &str| {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        serde_json::to_string(&v).unwrap()
    };
    let captured_tool = |dir: &str, case: &str| {
        let p = agents_fixtures().join(dir).join(case).join("tool.json");
        compact(&std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
    };
    // Worded after where the listing sits: a system message on Opus 5.5, a reminder on
    // Sonnet 4.5.
    for (case, model) in [
        ("mixed", None),
        ("budget150", Some("claude-opus-5-5")),
        ("mixed-sonnet45", Some("claude-sonnet-4-5")),
        ("budget150-sonnet45", Some("claude-sonnet-4-5")),
    ] {
        let ours = skillscope::core::agents::tools::definition(
            skillscope::core::Agent::ClaudeCode,
            &[],
            model,
        )
        .unwrap();
        assert_eq!(ours.json, captured_tool(CLAUDE_CODE.dir, case), "{case}");
    }
    let opencode =
        skillscope::core::agents::tools::definition(skillscope::core::Agent::Opencode, &[], None)
            .unwrap();
    assert_eq!(opencode.json, captured_tool(OPENCODE, "mixed"));
    // Claude Code's `budget --agent` prices it and sums the turn.
    let l = lay(&MIXED);
    let out = run_in(
        &l,
        &["budget", "--agent", "claude-code", "--format", "json"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tool_definition"]["name"], "Skill", "{v}");
    assert_eq!(v["tool_definition"]["chars"], 1_803, "{v}");
    let (listing, tool) = (
        v["listing"]["tokens"].as_u64().unwrap(),
        v["tool_definition"]["tokens"].as_u64().unwrap(),
    );
    assert_eq!(v["per_turn_tokens"].as_u64(), Some(listing + tool), "{v}");
}

/// `prompt --json` says where each client puts its listing, as each capture found it, and
/// carries the very bytes `prompt` prints; the client's own entries are priced apart.
#[test]
fn prompt_json_places_each_listing_where_its_capture_found_it() {
    let location = |dir: &str, case: &str| {
        let p = agents_fixtures()
            .join(dir)
            .join(case)
            .join("placement.json");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        v["listing"]["location"].as_str().unwrap().to_string()
    };
    let check = |json: &str, want: &str, listing: &str, what: &str, count: bool| {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        let ours = v["placement"]["location"].as_str().unwrap_or_default();
        let place = ours.split(':').next().unwrap_or_default();
        assert!(
            !place.is_empty() && want.starts_with(place),
            "{what}: captured at {want}, predicted at {ours}"
        );
        assert_eq!(v["listing"]["text"].as_str(), Some(listing), "{what}");
        if count {
            assert_eq!(
                v["listing"]["tokens"].as_u64(),
                Some(u64::from(o200k(listing))),
                "{what}"
            );
        }
    };
    for case in [&MIXED, &MIXED_SONNET45, &CODEX_MIXED] {
        let l = lay(case);
        let args = prompt_args(case, &l, &["--json"]);
        let out = run_in(&l, &args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let plain = run_in(
            &l,
            &prompt_args(case, &l, &[])
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        let listing = String::from_utf8(plain.stdout).unwrap();
        let json = String::from_utf8(out.stdout).unwrap();
        let what = format!("{}/{}", case.client.dir, case.name);
        check(
            &json,
            &location(case.client.dir, case.name),
            &listing,
            &what,
            true,
        );
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let own = v["builtins"]["entries"].as_u64().unwrap();
        // Claude Code's 13 bundled skills; the system skills Codex lists (its root's entries).
        let want = if case.client.agent == "codex" {
            let root = listing
                .lines()
                .find(|l| l.ends_with("/.codex/skills/.system`"))
                .and_then(|l| l.split('`').nth(1))
                .unwrap()
                .to_string();
            listing.matches(&format!("(file: {root}/")).count() as u64
        } else {
            13
        };
        assert_eq!(own, want, "{what}: {v}");
        assert!(v["builtins"]["tokens"].as_u64().unwrap() > 0, "{what}: {v}");
        tool_text_is_sent(&v, case.client.agent);
    }
    for case in [gemini_case("mixed", true), opencode_case("mixed", true)] {
        let l = lay_client(&case);
        let (json, _) = run_client(
            &l,
            &["prompt", "--agent", case.agent, "--json"],
            Some("true"),
            None,
        );
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        tool_text_is_sent(&v, case.agent);
        let (listing, _) = run_client(&l, &["prompt", "--agent", case.agent], Some("true"), None);
        // Both with the run's folders as placeholders: the tokens were counted on the real ones.
        let what = format!("{}/{}", case.client, case.name);
        check(
            &json,
            &location(case.client, case.name),
            &listing,
            &what,
            false,
        );
    }
}

/// `prompt --json`'s tool text: the skill tool's definition as the client sends it (compact
/// JSON naming the tool), its characters counted; Codex sends none (its model reads the SKILL.md,
/// a `$name` adds the file as a message).
fn tool_text_is_sent(v: &serde_json::Value, agent: &str) {
    let tool = &v["tool_definition"];
    if agent == "codex" {
        assert!(tool.is_null(), "{v}");
        return;
    }
    let text = tool["text"].as_str().unwrap_or_default();
    let sent: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let name = sent["name"].as_str().or(sent["function"]["name"].as_str());
    assert_eq!(name, tool["name"].as_str(), "{agent}: {v}");
    assert!(name.is_some(), "{agent}: {v}");
    assert_eq!(tool["chars"].as_u64(), Some(text.chars().count() as u64));
}

#[path = "ground_truth_new_agents.rs"]
mod new_agents;

/// `--model` is taken as the installed release takes it: each era's own models, aliases and
/// fallback. Claude Code 2.1.270 does not know Opus 5.5 (2.1.290 and later do): its fallback's
/// 200,000 tokens at 3 characters a token, and the note names the release that knows it; it
/// gives a model it knows but is told to run at most 200,000 tokens unless written `[1m]`, as
/// `verify --model` against the real 2.1.270 showed (2,348 tokens of listing for both, 7,206 for
/// `claude-opus-5[1m]`). Codex 0.148.0 knows `gpt-5.4` but not the Daybreak models 0.151.0 adds.
#[test]
fn the_model_is_taken_as_the_installed_release_takes_it() {
    let budget = |l: &Layout, agent: &str, model: &str| {
        let out = run_in(
            l,
            &[
                "budget", "--agent", agent, "--model", model, "--format", "json",
            ],
        );
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        let j = common::json(&out);
        (
            j["listing"].clone(),
            j["client_model"]["known"].clone(),
            err,
        )
    };
    let l = lay(&default_model(&CLAUDE_CODE_2_1_270, "budget150", false));
    let (listing, known, err) = budget(&l, "claude-code", "claude-opus-5-5");
    assert_eq!(listing["budget_chars"], 6_000);
    assert_eq!(known, false);
    assert!(
        err.contains(
            "Claude Code 2.1.270 does not know the model `claude-opus-5-5` (a model of Claude Code 2.1.290 and later)"
        ) && err.contains("fallback window of 200,000 tokens"),
        "{err}"
    );
    // A model only 2.1.270 and later know: known, named, so 200,000 tokens.
    let (listing, known, err) = budget(&l, "claude-code", "claude-fable-5-1");
    assert_eq!(
        (listing["budget_chars"].clone(), known),
        (6_000.into(), true.into())
    );
    assert!(
        err.contains("release 2.1.270 gives a model named for it"),
        "{err}"
    );
    let (listing, _, _) = budget(&l, "claude-code", "claude-opus-5[1m]");
    assert_eq!(listing["budget_chars"], 30_000);
    // Its default, named by nothing, keeps its million: the captured listing.
    let out = run_in(&l, &["prompt", "--agent", "claude-code"]);
    assert_eq!(
        l.placeheld(&String::from_utf8(out.stdout).unwrap()),
        captured(&default_model(&CLAUDE_CODE_2_1_270, "budget150", false))
    );
    // 2.1.231 does not know Fable 5.1 yet.
    let l = lay(&default_model(&CLAUDE_CODE_2_1_231, "budget150", false));
    let (_, known, err) = budget(&l, "claude-code", "claude-fable-5-1");
    assert_eq!(known, false);
    assert!(
        err.contains("(a model of Claude Code 2.1.270 and later)"),
        "{err}"
    );
    // 2.1.300 knows Haiku 5.5 (a million at 3 characters a token) and gives it its window.
    let l = lay(&default_model(&CLAUDE_CODE_2_1_300, "budget150", false));
    let (listing, known, err) = budget(&l, "claude-code", "haiku");
    assert_eq!(
        (listing["budget_chars"].clone(), known),
        (30_000.into(), true.into())
    );
    assert!(!err.contains("gives a model named"), "{err}");

    let l = lay(&default_model(&CODEX_0_148_0, "budget150", false));
    let (listing, known, _) = budget(&l, "codex", "gpt-5.4");
    assert_eq!(
        (listing["budget_tokens"].clone(), known),
        (5_440.into(), true.into())
    );
    let (listing, known, err) = budget(&l, "codex", "gpt-daybreak-red-latest");
    assert_eq!(
        (listing["budget_tokens"].clone(), known),
        (5_440.into(), false.into())
    );
    assert!(
        err.contains("Codex 0.148.0 does not know the model `gpt-daybreak-red-latest` (a model of Codex 0.151.0 and later)"),
        "{err}"
    );
    let l = lay(&default_model(&CODEX_0_151_0, "budget150", false));
    let (listing, known, _) = budget(&l, "codex", "gpt-daybreak-red-latest");
    assert_eq!(
        (listing["budget_tokens"].clone(), known),
        (7_440.into(), true.into())
    );
}
