//! One home, every command: skills for Claude Code and Codex and a project laid out by
//! `npx skills` (`.agents/skills` with links from `.claude/skills`), each agent's switches set in
//! its own files, a name installed twice, a skill with body-rule warnings and one with a
//! description over 1,024 characters. Every command that shows a skill's state or findings —
//! `list`, `list --agent`, `check`, `prompt --fates`, `budget`, `match`, the `add` and `move`
//! previews and the app — must say the same thing of the same skill.

use crate::common::{bin, json, write};
use crate::tui_common;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;

/// The home (`dir`) and the project inside it (a git work tree, where the commands run).
struct Home {
    _t: tempfile::TempDir,
    dir: PathBuf,
    proj: PathBuf,
}

/// A skill's SKILL.md with the spec's two fields and `body`.
fn skill(dir: &Path, name: &str, description: &str, body: &str) {
    write(
        &dir.join(name).join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\n{body}\n"),
    );
}

/// Each skill's description, unique, so a listing shows which copy it holds.
const CLAUDE: &[(&str, &str, &str)] = &[
    (
        "brainstorming",
        "Brainstorm product ideas with the user before any design starts.",
        "Ask questions one at a time.",
    ),
    (
        "dup-name",
        "Review Rust pull requests for unsafe code and unchecked indexing.",
        "Read the diff.",
    ),
    (
        "body-warn",
        "Explain Rust compiler errors when the user pastes one into the chat.",
        "Read [the guide](references/missing.md) and [the table](tables/errors.md) first.",
    ),
];

const PROJECT_DUP: &str = "Audit Go services for data races and goroutine leaks.";
const SHARED: &str = "Format release notes for the changelog from merged pull requests.";
const CODEX: &[(&str, &str)] = &[
    (
        "writing-plans",
        "Write implementation plans with milestones before touching code.",
    ),
    (
        "codex-on",
        "Generate SQL migrations from a diff of two database schemas.",
    ),
];

fn long_description() -> String {
    "Explain a Python stack trace frame by frame when the user pastes one. ".repeat(16)
}

impl Home {
    fn new() -> Home {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().canonicalize().unwrap().join("home");
        let proj = home.join("proj");
        let claude = home.join(".claude/skills");
        for (name, description, body) in CLAUDE {
            skill(&claude, name, description, body);
        }
        skill(
            &claude,
            "long-desc",
            long_description().trim_end(),
            "Steps.",
        );
        write(
            &home.join(".claude/settings.json"),
            r#"{"skillOverrides": {"brainstorming": "off"}}"#,
        );
        let codex = home.join(".codex/skills");
        for (name, description) in CODEX {
            skill(&codex, name, description, "Steps.");
        }
        write(
            &home.join(".codex/config.toml"),
            "[[skills.config]]\nname = \"writing-plans\"\nenabled = false\n",
        );
        // The project as `npx skills` lays it out: the skill in .agents/skills, a link to it
        // from .claude/skills, its record in skills-lock.json.
        std::fs::create_dir_all(proj.join(".git")).unwrap();
        skill(&proj.join(".agents/skills"), "shared-x", SHARED, "Steps.");
        std::fs::create_dir_all(proj.join(".claude/skills")).unwrap();
        crate::common::symlink(
            "../../.agents/skills/shared-x",
            proj.join(".claude/skills/shared-x"),
        )
        .unwrap();
        // The same name in the project's Claude Code folder: the user's copy is Claude Code's.
        skill(
            &proj.join(".claude/skills"),
            "dup-name",
            PROJECT_DUP,
            "Steps.",
        );
        Home {
            _t: t,
            dir: home,
            proj,
        }
    }

    /// `skillscope ARGS` run in the project with this home.
    fn run(&self, args: &[&str]) -> Output {
        let out = bin()
            .args(args)
            .env("HOME", &self.dir)
            .env("SKILLSCOPE_CONFIG_DIR", self.dir.join(".config/skillscope"))
            .env("SKILLSCOPE_CACHE_DIR", self.dir.join(".cache/skillscope"))
            .env(
                "SKILLSCOPE_DATA_DIR",
                self.dir.join(".local/share/skillscope"),
            )
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("XDG_CACHE_HOME")
            .current_dir(&self.proj)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "skillscope {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn json(&self, args: &[&str]) -> serde_json::Value {
        json(&self.run(args))
    }

    /// A file the commands name, by where it is (a link's target: Claude Code reads the shared
    /// skill through `.claude/skills`), relative to the home.
    fn rel(&self, p: &str) -> String {
        let p = std::fs::canonicalize(p).unwrap_or_else(|_| PathBuf::from(p));
        p.strip_prefix(&self.dir)
            .unwrap_or(&p)
            .to_string_lossy()
            .into_owned()
    }
}

/// Every (SKILL.md, rule, severity) a command reports, each as often as it reports it.
type Findings = Vec<(String, String, String)>;

/// `found` sorted, so two commands' findings compare whatever their order.
fn sorted(mut found: Findings) -> Findings {
    found.sort();
    found
}

fn finding(path: String, d: &serde_json::Value) -> (String, String, String) {
    (
        path,
        d["rule"].as_str().unwrap_or_default().to_string(),
        d["severity"].as_str().unwrap_or_default().to_string(),
    )
}

/// `check`'s findings, by SKILL.md.
fn check_findings(h: &Home, extra: &[&str]) -> Findings {
    let mut args = vec!["check", "--format", "json"];
    args.extend(extra);
    let v = h.json(&args);
    sorted(
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| finding(h.rel(d["path"].as_str().unwrap_or_default()), d))
            .collect(),
    )
}

/// `list`'s findings, by SKILL.md.
fn list_findings(list: &serde_json::Value, h: &Home) -> Findings {
    sorted(
        list.as_array()
            .unwrap()
            .iter()
            .flat_map(|s| {
                let path = h.rel(s["skill_md"].as_str().unwrap());
                s["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .map(move |d| finding(path.clone(), &d))
            })
            .collect(),
    )
}

/// What `list --agent` says the agent does with each SKILL.md it reads.
fn list_states(h: &Home, agent: &str) -> BTreeMap<String, String> {
    h.json(&["list", "--agent", agent, "--json"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                h.rel(s["skill_md"].as_str().unwrap()),
                s["agent_state"]["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The SKILL.md of each description the home holds, and the name the agents call it by.
fn descriptions(h: &Home) -> Vec<(String, &'static str, String)> {
    let mut out: Vec<(String, &'static str, String)> = CLAUDE
        .iter()
        .map(|(n, d, _)| (format!(".claude/skills/{n}/SKILL.md"), *n, (*d).to_string()))
        .collect();
    out.push((
        ".claude/skills/long-desc/SKILL.md".into(),
        "long-desc",
        long_description().trim_end().to_string(),
    ));
    out.extend(
        CODEX
            .iter()
            .map(|(n, d)| (format!(".codex/skills/{n}/SKILL.md"), *n, (*d).to_string())),
    );
    out.push((
        "proj/.agents/skills/shared-x/SKILL.md".into(),
        "shared-x",
        SHARED.into(),
    ));
    out.push((
        "proj/.claude/skills/dup-name/SKILL.md".into(),
        "dup-name",
        PROJECT_DUP.into(),
    ));
    let _ = h;
    out
}

/// The agents compared: the two whose folders hold skills, and two that read Claude Code's and
/// the shared folder with another precedence (opencode: the project's copy first).
const AGENTS: [&str; 4] = ["claude-code", "codex", "opencode", "goose"];

/// Whether a `list --agent` state means the agent lists the skill.
fn listed(state: &str) -> bool {
    matches!(state, "on" | "name-only")
}

/// The first words of a description, as a listing that does not cut it shows them.
fn head(d: &str) -> String {
    d.split_whitespace().take(8).collect::<Vec<_>>().join(" ")
}

/// Every command says the same of each skill's state for each agent: `list --agent`,
/// `prompt --agent` (the listing and `--fates`), `budget --agent` and `match --agent`; plain
/// `list` says a skill is on when an agent that reads it lists it, and shadowed only when no
/// agent that reads it lists it.
#[test]
fn every_command_gives_each_skill_the_same_state_for_each_agent() {
    let h = Home::new();
    let mut listed_by_some: BTreeMap<String, bool> = BTreeMap::new();
    for agent in AGENTS {
        let states = list_states(&h, agent);
        let prompt = h.run(&["prompt", "--agent", agent, "--fates"]);
        let text = String::from_utf8_lossy(&prompt.stdout).into_owned();
        let budget = h.json(&["budget", "--agent", agent, "--format", "json"]);
        let fates: BTreeMap<String, String> = budget["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    h.rel(s["skill_md"].as_str().unwrap()),
                    s["fate"].as_str().unwrap_or("off").to_string(),
                )
            })
            .collect();
        for (md, name, description) in descriptions(&h) {
            let Some(state) = states.get(&md) else {
                // Not read by this agent: no command of its view shows it.
                assert!(!text.contains(&head(&description)), "{agent} {md}:\n{text}");
                assert!(
                    fates.get(&md).is_none_or(|f| f == "off"),
                    "{agent} {md}: {fates:?}"
                );
                continue;
            };
            let on = listed(state);
            *listed_by_some.entry(md.clone()).or_default() |= on;
            assert_eq!(
                text.contains(&head(&description)),
                on,
                "prompt --agent {agent} and list --agent ({state}) disagree on {md}:\n{text}"
            );
            let fate = fates.get(&md).map_or("off", String::as_str);
            assert_eq!(
                matches!(fate, "full" | "trimmed" | "name-only"),
                on,
                "budget --agent {agent} ({fate}) and list --agent ({state}) disagree on {md}"
            );
            let matched = h.json(&[
                "match",
                &description,
                "--agent",
                agent,
                "--matcher",
                "bm25",
                "--json",
            ]);
            let hit = matched["results"]
                .as_object()
                .unwrap()
                .values()
                .flat_map(|rows| rows.as_array().cloned().unwrap_or_default())
                .any(|r| r["path"].as_str().is_some_and(|p| h.rel(p) == md));
            assert_eq!(
                hit, on,
                "match --agent {agent} and list --agent ({state}) disagree on {md} ({name}): {matched}"
            );
        }
    }
    // Plain list: on when some agent that reads the skill lists it.
    let list = h.json(&["list", "--json"]);
    for s in list.as_array().unwrap() {
        let md = h.rel(s["skill_md"].as_str().unwrap());
        if let Some(on) = listed_by_some.get(&md) {
            assert_eq!(s["enabled"].as_bool(), Some(*on), "plain list on {md}: {s}");
        }
    }
    // A copy is shadowed for exactly the agents whose view passes it over, and check's and
    // list's finding names them.
    let check = h.json(&["check", "--format", "json"]);
    let said: BTreeMap<String, String> = check["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "shadowed")
        .map(|d| {
            (
                h.rel(d["path"].as_str().unwrap()),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let said_by_list: BTreeMap<String, String> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| {
            let d = s["diagnostics"]
                .as_array()?
                .iter()
                .find(|d| d["rule"] == "shadowed")?;
            Some((
                h.rel(s["skill_md"].as_str().unwrap()),
                d["message"].as_str().unwrap().to_string(),
            ))
        })
        .collect();
    assert_eq!(said, said_by_list, "check and list on shadowed copies");
    let mut passed_over: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for agent in AGENTS {
        for (md, state) in list_states(&h, agent) {
            if state == "shadowed" {
                passed_over.entry(md).or_default().insert(agent);
            }
        }
    }
    assert_eq!(
        passed_over.keys().collect::<Vec<_>>(),
        said.keys().collect::<Vec<_>>(),
        "{said:#?}"
    );
    for (md, agents) in &passed_over {
        let message = &said[md];
        // `shadowed by DIR (AGENT SCOPE): AGENTS load that copy, …`: the agents that pass it over.
        let (_, named) = message.split_once("): ").unwrap();
        let (named, _) = named.split_once(" that copy").unwrap();
        for agent in AGENTS {
            assert_eq!(
                named.contains(agent),
                agents.contains(agent),
                "{agent} on {md}: {message}"
            );
        }
    }
    // The facts themselves: each agent's switch, Claude Code's user copy over the project's and
    // opencode's project copy over the user's.
    let claude = list_states(&h, "claude-code");
    assert_eq!(claude[".claude/skills/brainstorming/SKILL.md"], "off");
    assert_eq!(claude[".claude/skills/dup-name/SKILL.md"], "on");
    assert_eq!(claude["proj/.claude/skills/dup-name/SKILL.md"], "shadowed");
    assert_eq!(claude["proj/.agents/skills/shared-x/SKILL.md"], "on");
    let codex = list_states(&h, "codex");
    assert_eq!(codex[".codex/skills/writing-plans/SKILL.md"], "off");
    assert_eq!(codex[".codex/skills/codex-on/SKILL.md"], "on");
    assert_eq!(codex["proj/.agents/skills/shared-x/SKILL.md"], "on");
    let opencode = list_states(&h, "opencode");
    assert_eq!(opencode[".claude/skills/dup-name/SKILL.md"], "shadowed");
    assert_eq!(opencode["proj/.claude/skills/dup-name/SKILL.md"], "on");
}

/// Every command that shows findings gives the same (rule, severity) for the same skill: `check`,
/// plain `list`, `list --agent`, the `add` and `move` previews (priced by the target agent's
/// profile) and the app.
#[test]
fn every_command_gives_each_skill_the_same_findings() {
    let h = Home::new();
    let check = check_findings(&h, &[]);
    let body = ".claude/skills/body-warn/SKILL.md";
    let long = ".claude/skills/long-desc/SKILL.md";
    let of = |f: &Findings, md: &str| -> Vec<(String, String)> {
        // One file's findings, in the order of `f` (sorted).
        f.iter()
            .filter(|(p, _, _)| p == md)
            .map(|(_, r, s)| (r.clone(), s.clone()))
            .collect()
    };
    assert_eq!(
        of(&check, body)
            .iter()
            .filter(|(r, _)| r == "body-broken-link")
            .count(),
        2,
        "{check:?}"
    );
    assert!(
        of(&check, long).contains(&("description-too-long".into(), "warning".into())),
        "{check:?}"
    );
    let list = list_findings(&h.json(&["list", "--json"]), &h);
    assert_eq!(check, list, "check and list");
    for agent in ["claude-code", "codex"] {
        let shown = list_findings(&h.json(&["list", "--agent", agent, "--json"]), &h);
        let read: BTreeSet<String> = list_states(&h, agent).into_keys().collect();
        let expected: Findings = check
            .iter()
            .filter(|(p, _, _)| read.contains(p))
            .cloned()
            .collect();
        let expected = sorted(expected);
        assert_eq!(expected, shown, "check and list --agent {agent}");
    }
    // The add preview judges a copy of body-warn by Claude Code's profile, as check does.
    let src = h.dir.join("incoming");
    std::fs::create_dir_all(&src).unwrap();
    let copy = src.join("body-warn-copy");
    std::fs::create_dir_all(&copy).unwrap();
    let text = std::fs::read_to_string(h.dir.join(body))
        .unwrap()
        .replace("name: body-warn", "name: body-warn-copy");
    write(&copy.join("SKILL.md"), &text);
    let add = h.json(&[
        "add",
        &src.display().to_string(),
        "--agent",
        "claude-code",
        "--dry-run",
        "--json",
    ]);
    let verdict = &add["preview"]["skills"][0]["verdict"];
    let expected = of(&check, body);
    let count = |sev: &str| expected.iter().filter(|(_, s)| s == sev).count() as u64;
    assert_eq!(verdict["errors"].as_u64(), Some(count("error")), "{add:#}");
    assert_eq!(
        verdict["warnings"].as_u64(),
        Some(count("warning")),
        "{add:#}"
    );
    // The move preview to Codex judges body-warn as check --profile codex does.
    let moved = h.json(&[
        "move",
        "body-warn",
        "--to",
        "codex:user",
        "--dry-run",
        "--json",
    ]);
    let verdict = &moved["preview"]["skills"][0]["verdict"];
    let codex = check_findings(&h, &["--profile", "codex"]);
    let expected = of(&codex, body);
    let count = |sev: &str| expected.iter().filter(|(_, s)| s == sev).count() as u64;
    assert_eq!(
        verdict["errors"].as_u64(),
        Some(count("error")),
        "{moved:#}"
    );
    assert_eq!(
        verdict["warnings"].as_u64(),
        Some(count("warning")),
        "{moved:#}"
    );
    // The app over the same folders, with the same agents' settings.
    let app = app_findings(&h);
    assert_eq!(check, app, "check and the app");
}

/// The app's findings once its checks (with the body rules) are done, by SKILL.md.
fn app_findings(h: &Home) -> Findings {
    let roots = skillscope::core::source::default_roots(Some(&h.dir), &h.proj);
    let mut harness = tui_common::harness_of_home(roots, &h.dir, 120, 40);
    harness.settle();
    let app = &harness.app;
    let mut out = Findings::new();
    for (s, ds) in app.lib.skills.iter().zip(&app.findings.diags) {
        for d in ds {
            let path = d.path.as_deref().unwrap_or(&s.skill_md);
            out.push((
                h.rel(&path.display().to_string()),
                d.rule.as_str().to_string(),
                d.severity.to_string(),
            ));
        }
    }
    sorted(out)
}

/// A SKILL.md without frontmatter that Claude Code lists (under its folder's name, its body's
/// first line the description): under Claude Code's profile `check` says so, as `prompt` shows
/// it, rather than telling the user to add a block for Claude Code's sake.
#[test]
fn claude_codes_profile_says_claude_code_lists_a_skill_without_frontmatter() {
    let h = Home::new();
    write(
        &h.dir.join(".claude/skills/bare-notes/SKILL.md"),
        "Turn raw meeting notes into decisions and owners when the user pastes notes.\n",
    );
    let listing = h.run(&["prompt", "--agent", "claude-code"]);
    assert!(
        String::from_utf8_lossy(&listing.stdout)
            .contains("- bare-notes: Turn raw meeting notes into decisions"),
        "{}",
        String::from_utf8_lossy(&listing.stdout)
    );
    for args in [
        &["check", "--profile", "claude-code", "--format", "json"][..],
        &["check", "--format", "json"][..],
    ] {
        let v = h.json(args);
        let d = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["rule"] == "frontmatter-missing")
            .unwrap_or_else(|| panic!("{v:#}"));
        assert_eq!(d["severity"], "warning", "{args:?}: {d}");
        let message = d["message"].as_str().unwrap();
        assert!(
            message.contains("Claude Code lists it under its folder's name"),
            "{args:?}: {message}"
        );
    }
    // Under the spec, which every agent must read, it is still an error and says what to add.
    let v = h.json(&["check", "--profile", "spec", "--format", "json"]);
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "frontmatter-missing")
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(d["severity"], "error", "{d}");
    assert!(
        !d["message"].as_str().unwrap().contains("Claude Code"),
        "{d}"
    );
}
