//! One notion of "on": each agent's own switches (Claude Code `skillOverrides`, Codex
//! `[[skills.config]]`, opencode `permission.skill`, Lazy Skills `auto_load`) decide what that
//! agent lists, matches and pays for, and `prompt`, `match` and `budget` agree with each other.

use crate::common::{json, run, write};

use std::path::Path;

fn skill(root: &Path, name: &str, extra: &str, description: &str) {
    write(
        &root.join(name).join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: {description}\n{extra}---\n# {name}\n\nSteps.\n"),
    );
}

/// A home with skills for four agents and each agent's switches set in its own files.
fn home() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let h = t.path();
    let claude = h.join(".claude/skills");
    skill(
        &claude,
        "brainstorming",
        "",
        "Brainstorm ideas for a product with the user.",
    );
    skill(
        &claude,
        "tersely",
        "",
        "Summarize meeting notes into action items.",
    );
    skill(
        &claude,
        "hidden-from-model",
        "",
        "Format release notes for the changelog.",
    );
    skill(
        &claude,
        "plain-claude",
        "",
        "Review Rust pull requests for unsafe code.",
    );
    write(
        &h.join(".claude/settings.json"),
        r#"{
  "skillOverrides": {
    "brainstorming": "off",
    "tersely": "name-only",
    "hidden-from-model": "user-invocable-only"
  }
}
"#,
    );
    let codex = h.join(".codex/skills");
    skill(
        &codex,
        "codex-off",
        "",
        "Translate documents between languages.",
    );
    skill(
        &codex,
        "codex-on",
        "",
        "Generate SQL migrations from a schema diff.",
    );
    write(
        &h.join(".codex/config.toml"),
        "[[skills.config]]\nname = \"codex-off\"\nenabled = false\n",
    );
    let opencode = h.join(".config/opencode/skills");
    skill(
        &opencode,
        "op-denied",
        "",
        "Deploy the staging cluster with kubectl.",
    );
    skill(
        &opencode,
        "op-allowed",
        "",
        "Write unit tests for TypeScript modules.",
    );
    write(
        &h.join(".config/opencode/opencode.json"),
        r#"{"permission": {"skill": {"*": "allow", "op-denied": "deny"}}}"#,
    );
    let lazy = h.join(".config/cli-agent/skills");
    skill(
        &lazy,
        "lazy-on",
        "auto_load: true\n",
        "Convert images between formats.",
    );
    skill(
        &lazy,
        "lazy-off",
        "",
        "Compress log files older than a week.",
    );
    t
}

/// The listing `prompt --agent` prints on stdout, and the fates it reports on stderr.
fn listing(h: &Path, agent: &str) -> (String, String) {
    let out = run(&["prompt", "--agent", agent, "--fates"], h);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The skills `match --agent` returns for `message` with any matcher.
fn matched(h: &Path, agent: &str, message: &str) -> Vec<String> {
    let out = run(
        &[
            "match",
            message,
            "--agent",
            agent,
            "--matcher",
            "bm25",
            "--json",
        ],
        h,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let mut names = Vec::new();
    collect_names(&v, &mut names);
    names
}

fn collect_names(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            if let Some(n) = m.get("name").and_then(|n| n.as_str()) {
                out.push(n.to_string());
            }
            for x in m.values() {
                collect_names(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect_names(x, out)),
        _ => {}
    }
}

/// How many skills `budget --agent` prices in the agent's listing (full, trimmed or by name).
fn budget_listed(h: &Path, agent: &str) -> u64 {
    let out = run(&["budget", "--agent", agent, "--format", "json"], h);
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let f = &v["listing"]["fates"];
    ["full", "trimmed", "name_only"]
        .iter()
        .map(|k| f[k].as_u64().unwrap_or_else(|| panic!("no {k} in {v}")))
        .sum()
}

/// What `list --agent` says the agent does with each skill it reads: name → state.
fn list_states(h: &Path, agent: &str) -> std::collections::BTreeMap<String, String> {
    let out = run(&["list", "--agent", agent, "--json"], h);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            assert_eq!(s["agent_state"]["agent"], agent, "{s}");
            (
                s["name"].as_str().unwrap().to_string(),
                s["agent_state"]["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// How many skills `list --agent` says the agent lists (in full or by name).
fn list_listed(states: &std::collections::BTreeMap<String, String>) -> u64 {
    states
        .values()
        .filter(|s| matches!(s.as_str(), "on" | "name-only"))
        .count() as u64
}

/// How many skills `prompt --fates` says the listing holds.
fn prompt_listed(fates: &str) -> u64 {
    let line = fates
        .lines()
        .find_map(|l| l.strip_prefix("fates: "))
        .unwrap_or_else(|| panic!("no fates line: {fates}"));
    line.split(", ")
        .filter(|p| !p.ends_with("dropped"))
        .filter_map(|p| p.split(' ').next()?.parse::<u64>().ok())
        .sum()
}

#[test]
fn claude_codes_skill_overrides_decide_its_listing_matching_and_budget() {
    let t = home();
    let h = t.path();
    let (text, fates) = listing(h, "claude-code");
    assert!(text.contains("- plain-claude: Review Rust"), "{text}");
    assert!(!text.contains("brainstorming"), "off is not listed: {text}");
    assert!(
        !text.contains("hidden-from-model"),
        "user-invocable-only is not listed: {text}"
    );
    assert!(
        text.lines().any(|l| l.trim_end() == "- tersely"),
        "name-only is listed by its name alone: {text}"
    );
    assert!(!text.contains("Summarize meeting notes"), "{text}");
    assert!(fates.contains("off in Claude Code"), "{fates}");
    assert!(fates.contains("name only in Claude Code"), "{fates}");
    // The model is never offered what it was not shown.
    let got = matched(h, "claude-code", "brainstorm product ideas with me");
    assert!(!got.iter().any(|n| n == "brainstorming"), "{got:?}");
    let got = matched(
        h,
        "claude-code",
        "format the release notes for the changelog",
    );
    assert!(!got.iter().any(|n| n == "hidden-from-model"), "{got:?}");
    let got = matched(
        h,
        "claude-code",
        "review this rust pull request for unsafe code",
    );
    assert!(got.iter().any(|n| n == "plain-claude"), "{got:?}");
    // The budget prices the same listing, and the list says the same of every skill.
    assert_eq!(
        budget_listed(h, "claude-code"),
        prompt_listed(&fates),
        "{fates}"
    );
    let states = list_states(h, "claude-code");
    assert_eq!(states["brainstorming"], "off", "{states:?}");
    assert_eq!(states["hidden-from-model"], "off", "{states:?}");
    assert_eq!(states["tersely"], "name-only", "{states:?}");
    assert_eq!(states["plain-claude"], "on", "{states:?}");
    assert_eq!(
        list_listed(&states),
        prompt_listed(&fates),
        "{states:?} {fates}"
    );
}

#[test]
fn codex_opencode_and_lazy_skills_obey_their_own_switches() {
    let t = home();
    let h = t.path();
    for (agent, off, on, message, on_message) in [
        (
            "codex",
            "codex-off",
            "codex-on",
            "translate this document into French",
            "generate sql migrations from the schema diff",
        ),
        (
            "opencode",
            "op-denied",
            "op-allowed",
            "deploy the staging cluster with kubectl",
            "write unit tests for these typescript modules",
        ),
        (
            "lazy-skills",
            "lazy-off",
            "lazy-on",
            "compress the old log files",
            "convert these images between formats",
        ),
    ] {
        let (text, fates) = listing(h, agent);
        assert!(text.contains(on), "{agent}: {text}");
        assert!(!text.contains(off), "{agent} lists {off}: {text}");
        let got = matched(h, agent, message);
        assert!(
            !got.iter().any(|n| n == off),
            "{agent} matches {off}: {got:?}"
        );
        let got = matched(h, agent, on_message);
        assert!(
            got.iter().any(|n| n == on),
            "{agent} does not match {on}: {got:?}"
        );
        assert_eq!(
            budget_listed(h, agent),
            prompt_listed(&fates),
            "{agent}: {fates}"
        );
        let states = list_states(h, agent);
        assert_eq!(states[off], "off", "{agent}: {states:?}");
        assert_eq!(states[on], "on", "{agent}: {states:?}");
        assert_eq!(
            list_listed(&states),
            prompt_listed(&fates),
            "{agent}: {states:?} {fates}"
        );
    }
}

/// skillscope's own store switches nothing for an agent that has switches of its own.
#[test]
fn skillscopes_own_state_does_not_switch_an_agent_that_has_its_own() {
    let t = home();
    let h = t.path();
    let out = run(
        &[
            "toggle",
            "--yes",
            "plain-claude",
            "--off",
            "--agent",
            "skillscope",
        ],
        h,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (text, _) = listing(h, "claude-code");
    assert!(
        text.contains("plain-claude"),
        "Claude Code reads no skillscope state: {text}"
    );
    // Lazy Skills' switch is `auto_load` in the skill's own frontmatter (design 000): its
    // client never reads skillscope's store, so the store does not switch it either.
    let out = run(
        &[
            "toggle",
            "--yes",
            "lazy-on",
            "--off",
            "--agent",
            "skillscope",
        ],
        h,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (text, _) = listing(h, "lazy-skills");
    assert!(text.contains("lazy-on"), "{text}");
    let out = run(
        &[
            "toggle",
            "--yes",
            "lazy-on",
            "--off",
            "--agent",
            "lazy-skills",
        ],
        h,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (text, _) = listing(h, "lazy-skills");
    assert!(!text.contains("lazy-on"), "{text}");
}

/// Every (file, rule, severity) a report holds.
fn findings_of(
    items: impl Iterator<Item = serde_json::Value>,
) -> std::collections::BTreeSet<String> {
    items
        .map(|d| {
            format!(
                "{} {} {}",
                d["path"].as_str().unwrap_or_default(),
                d["rule"].as_str().unwrap_or_default(),
                d["severity"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

/// `check` and `list` judge each skill by its agent's profile, also in a named agent folder: a
/// Claude Code skill with `paths:` passes, and a nameless one that Claude Code lists by its
/// folder is a warning, not an error.
#[test]
fn check_and_list_give_the_same_findings_with_each_agents_rules() {
    let t = home();
    let h = t.path();
    skill(
        &h.join(".claude/skills"),
        "rust-errors",
        "paths: [\"src/**/*.rs\"]\n",
        "Explain Rust compiler errors when the user pastes one.",
    );
    write(
        &h.join(".claude/skills/nameless/SKILL.md"),
        "---\ndescription: Rotate the logs of a service when they grow too large.\n---\n# Logs\n",
    );
    let check = run(&["check", "--format", "json"], h);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let check = json(&check);
    let list = json(&run(&["list", "--json"], h));
    let from_list = findings_of(list.as_array().unwrap().iter().flat_map(|s| {
        let path = s["skill_md"].clone();
        s["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(move |mut d| {
                d["path"] = path.clone();
                d
            })
    }));
    let from_check = findings_of(check["diagnostics"].as_array().unwrap().iter().cloned());
    assert_eq!(from_check, from_list);
    assert!(
        from_check
            .iter()
            .any(|f| f.ends_with("nameless/SKILL.md name-missing warning")),
        "{from_check:?}"
    );
    // The folder named on the command line is Claude Code's: its rules, as docs/ci.md runs it.
    let named = run(&["check", ".claude/skills", "--format", "json"], h);
    let v = json(&named);
    assert_eq!(named.status.code(), Some(0), "{v}");
    assert_eq!(v["errors"], 0, "{v}");
    assert!(
        !v.to_string()
            .contains("rust-errors/SKILL.md\",\"rule\":\"unknown-field"),
        "{v}"
    );
}

/// One skill installed for Claude Code and for Codex (as `copy` makes it) is one skill: the
/// overlap rule does not call it its own competitor, and `match` tells its rows apart by agent.
#[test]
fn copies_for_two_agents_are_one_skill_and_their_rows_say_whose() {
    let t = tempfile::tempdir().unwrap();
    let h = t.path();
    for folder in [".claude/skills", ".codex/skills"] {
        skill(
            &h.join(folder),
            "brainstorming",
            "",
            "Brainstorm product ideas with the user. Use when they ask for ideas.",
        );
    }
    let check = json(&run(&["check", "--format", "json"], h));
    let overlaps: Vec<&serde_json::Value> = check["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "overlap")
        .collect();
    assert!(
        overlaps.is_empty(),
        "a copy for another agent is no competitor: {overlaps:?}"
    );
    let out = run(
        &[
            "match",
            "brainstorming product ideas",
            "--matcher",
            "keyword",
        ],
        h,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("brainstorming (claude-code·"), "{text}");
    assert!(text.contains("brainstorming (codex·"), "{text}");
}

/// `add --agent codex` prices everything Codex reads: its own folder and `~/.agents/skills`,
/// which it also reads; a Claude Code add prices `~/.claude/skills` without the other agents'.
#[test]
fn add_prices_the_target_agents_whole_view() {
    let w = crate::manage::World::new();
    let home = w.home();
    for name in ["shared-one", "shared-two", "shared-three"] {
        crate::common::write(
            &home.join(".agents/skills").join(name).join("SKILL.md"),
            &crate::manage::skill_md(
                name,
                &format!("Does {name} things. Use when {name} comes up."),
            ),
        );
    }
    crate::common::write(
        &home.join(".codex/skills/codex-own/SKILL.md"),
        &crate::manage::skill_md(
            "codex-own",
            "Codex's own skill. Use when codex-own comes up.",
        ),
    );
    let src = w.root.join("src/new-skill");
    crate::common::write(
        &src.join("SKILL.md"),
        &crate::manage::skill_md("new-skill", "A new skill. Use when new-skill comes up."),
    );
    let src = src.to_string_lossy().into_owned();
    let v = crate::common::json(&w.run(&["add", &src, "--agent", "codex", "--dry-run", "--json"]));
    let before = v["preview"]["listing"]["skills"]["before"].as_u64();
    assert_eq!(
        before,
        Some(4),
        "Codex's own skill and the three of ~/.agents/skills: {v}"
    );
    assert_eq!(
        v["preview"]["listing"]["skills"]["after"].as_u64(),
        Some(5),
        "{v}"
    );
    // Claude Code reads none of those folders.
    let v = crate::common::json(&w.run(&[
        "add",
        &src,
        "--agent",
        "claude-code",
        "--dry-run",
        "--json",
    ]));
    assert_eq!(
        v["preview"]["listing"]["skills"]["before"].as_u64(),
        Some(0),
        "{v}"
    );
}

/// Plain `list` (no `--agent`) says a skill is on when some agent that reads it has it on, as
/// each `list --agent` says: `~/.codex/skills/codex-off`, which only Codex reads and Codex has
/// off, is off; a skill only Lazy Skills reads is on as its `auto_load` says.
#[test]
fn plain_list_says_on_as_the_agents_that_read_each_skill_have_it() {
    let t = home();
    let h = t.path();
    let plain: std::collections::BTreeMap<String, bool> = json(&run(&["list", "--json"], h))
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["enabled"].as_bool().unwrap(),
            )
        })
        .collect();
    let mut by_clients = std::collections::BTreeMap::<String, bool>::default();
    for agent in [
        "claude-code",
        "codex",
        "opencode",
        "gemini",
        "goose",
        "openclaw",
        "github-copilot",
        "cline",
        "qwen-code",
    ] {
        for (name, state) in list_states(h, agent) {
            *by_clients.entry(name).or_default() |= state == "on" || state == "name-only";
        }
    }
    let lazy = list_states(h, "lazy-skills");
    let expected: std::collections::BTreeMap<String, bool> = plain
        .keys()
        .map(|name| {
            let on = by_clients.get(name).copied().unwrap_or_else(|| {
                lazy.get(name)
                    .is_some_and(|s| s == "on" || s == "name-only")
            });
            (name.clone(), on)
        })
        .collect();
    assert_eq!(plain, expected);
    assert_eq!(plain.get("codex-off"), Some(&false), "{plain:?}");
    assert_eq!(plain.get("codex-on"), Some(&true), "{plain:?}");
    assert_eq!(plain.get("lazy-off"), Some(&false), "{plain:?}");
    assert_eq!(plain.get("lazy-on"), Some(&true), "{plain:?}");
}

/// `prompt --fates` names a skill skillscope's own switches keep out of the listing, with the
/// switch that does it, rather than leaving it out without a word.
#[test]
fn prompt_fates_name_a_skill_switched_off_in_skillscopes_own_state() {
    let t = home();
    let h = t.path();
    let goose = h.join(".config/goose/skills");
    skill(
        &goose,
        "goose-notes",
        "",
        "Keep a running log of decisions when the user asks to note one.",
    );
    let out = run(
        &[
            "toggle",
            "--yes",
            "goose-notes",
            "--off",
            "--agent",
            "skillscope",
        ],
        h,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (text, fates) = listing(h, "goose");
    assert!(!text.contains("goose-notes"), "{text}");
    assert!(fates.contains("switched off: 1"), "{fates}");
    let line = fates
        .lines()
        .find(|l| l.contains("goose-notes"))
        .unwrap_or_else(|| panic!("goose-notes is not named: {fates}"));
    assert!(
        line.starts_with("off") && line.contains("skillscope's own switches"),
        "{line}"
    );
}

/// What Claude Code lists is no error under its profile: a SKILL.md without frontmatter (listed
/// under its folder's name) and a description over the spec's 1,024 characters (listed in full)
/// are warnings there, errors under the spec.
#[test]
fn claude_codes_profile_does_not_call_an_error_what_claude_code_lists() {
    let t = tempfile::tempdir().unwrap();
    let h = t.path();
    let claude = h.join(".claude/skills");
    write(
        &claude.join("bare-notes/SKILL.md"),
        "Turn raw meeting notes into decisions and owners when the user pastes notes.\n",
    );
    let long = "Explain a stack trace step by step when the user pastes one. ".repeat(20);
    skill(&claude, "long-trace", "", long.trim_end());
    let (text, _) = listing(h, "claude-code");
    assert!(text.contains("- bare-notes:"), "{text}");
    assert!(text.contains("- long-trace:"), "{text}");
    let severity = |profile: &str, rule: &str| {
        let out = run(&["check", "--profile", profile, "--format", "json"], h);
        json(&out)["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["rule"] == rule)
            .map(|d| d["severity"].as_str().unwrap().to_string())
    };
    for rule in ["frontmatter-missing", "description-too-long"] {
        assert_eq!(
            severity("claude-code", rule).as_deref(),
            Some("warning"),
            "{rule}"
        );
        assert_eq!(severity("spec", rule).as_deref(), Some("error"), "{rule}");
    }
}
