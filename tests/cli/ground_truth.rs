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
}

const CLAUDE_CODE: Client = Client {
    dir: "claude-code@2.1.332",
    agent: "claude-code",
    user_skills: ".claude/skills",
    project_skills: ".claude/skills",
    add_dir: true,
    system: None,
};

const CODEX: Client = Client {
    dir: "codex@0.171.0",
    agent: "codex",
    user_skills: ".agents/skills",
    project_skills: ".agents/skills",
    add_dir: false,
    system: Some(("system/codex", ".codex/skills/.system")),
};

/// One captured case: its client, its folder, the model the client ran, and whether its library
/// is the `mixed` one or the generated `budget150` one.
struct Case {
    client: &'static Client,
    name: &'static str,
    model: Option<&'static str>,
    mixed: bool,
}

const MIXED: Case = Case {
    client: &CLAUDE_CODE,
    name: "mixed",
    model: None,
    mixed: true,
};
const MIXED_SONNET45: Case = Case {
    client: &CLAUDE_CODE,
    name: "mixed-sonnet45",
    model: Some("claude-sonnet-4-5"),
    mixed: true,
};
const BUDGET150: Case = Case {
    client: &CLAUDE_CODE,
    name: "budget150",
    model: None,
    mixed: false,
};
const BUDGET150_SONNET45: Case = Case {
    client: &CLAUDE_CODE,
    name: "budget150-sonnet45",
    model: Some("claude-sonnet-4-5"),
    mixed: false,
};
const CODEX_MIXED: Case = Case {
    client: &CODEX,
    name: "mixed",
    model: None,
    mixed: true,
};
const CODEX_BUDGET150: Case = Case {
    client: &CODEX,
    name: "budget150",
    model: None,
    mixed: false,
};

/// The throwaway folders of one run, as the capture script named them below its base folder.
struct Layout {
    _base: tempfile::TempDir,
    base: PathBuf,
    home: PathBuf,
    project: PathBuf,
    extra: PathBuf,
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
    } else {
        generate_budget(&l.home.join(c.user_skills), 150);
    }
    if let Some((from, to)) = c.system {
        copy_tree(&lib.join(from), &l.home.join(to), &l);
    }
    // The capture made the project a git repository: its root is where project folders stop.
    std::fs::create_dir_all(l.project.join(".git")).unwrap();
    l
}

/// The binary run the way the client ran, in `l`'s home and project.
fn run_in(l: &Layout, args: &[&str]) -> std::process::Output {
    common::bin()
        .args(args)
        .env("HOME", &l.home)
        .env("SKILLSCOPE_CONFIG_DIR", l.base.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", l.base.join("cache"))
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
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

#[test]
fn codex_mixed_on_its_default_model_is_byte_identical() {
    assert_identical(&CODEX_MIXED);
}

#[test]
fn codex_budget150_on_its_default_model_is_byte_identical() {
    assert_identical(&CODEX_BUDGET150);
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

/// An unknown model is refused with the models known; an agent whose budget does not depend on
/// its model refuses any.
#[test]
fn an_unknown_model_is_refused_naming_the_known_ones() {
    let l = lay(&BUDGET150);
    let out = run_in(
        &l,
        &["prompt", "--agent", "claude-code", "--model", "gpt-5"],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "unknown model `gpt-5` for Claude Code 2.1.332: use claude-opus-5-5 (default) or claude-sonnet-4-5"
        ),
        "{err}"
    );
    let out = run_in(
        &l,
        &["prompt", "--agent", "codex", "--model", "claude-sonnet-4-5"],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "unknown model `claude-sonnet-4-5` for Codex 0.171.0: use gpt-6.2-sol (default)"
        ),
        "{err}"
    );
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

#[path = "ground_truth_new_agents.rs"]
mod new_agents;
