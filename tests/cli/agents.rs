//! Every agent's view of one home holding skills for five agents side by side: each agent's
//! listing, budget and match hold exactly the skills it reads, with its own defaults,
//! fallbacks and injection — and the design documents' own examples come out as they say.

use crate::common::{json, run, write};
use std::collections::BTreeSet;
use std::path::Path;

fn skill(dir: &Path, frontmatter: &str, body: &str) {
    write(
        &dir.join("SKILL.md"),
        &format!("---\n{frontmatter}\n---\n{body}"),
    );
}

fn plain(root: &Path, name: &str, description: &str) {
    skill(
        &root.join(name),
        &format!("name: {name}\ndescription: {description}"),
        &format!("# {name}\n\nHow to use {name}.\n"),
    );
}

/// A home with Claude Code, Codex, opencode, Lazy Skills and generic (`.agents/skills`)
/// skills, plus Claude Code's fallback and conditional cases and the Lazy Skills design's own
/// example library.
fn home() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let h = t.path();
    let claude = h.join(".claude/skills");
    plain(
        &claude,
        "claude-pdf",
        "Fill PDF forms for Claude Code users.",
    );
    plain(&claude, "claude-review", "Review pull requests.");
    skill(
        &claude.join("nameless"),
        "description: A skill without a name.",
        "x\n",
    );
    skill(
        &claude.join("undescribed"),
        "name: undescribed",
        "# Undescribed\n\nRotates the logs of a service\nwhen they grow.\n\nMore text.\n",
    );
    skill(
        &claude.join("rust-helper"),
        "name: rust-helper\ndescription: Explain Rust compiler errors.\npaths: [\"src/**/*.rs\"]",
        "x\n",
    );
    let plugin = h.join(".claude/plugins/cache/market/helper/1.0.0");
    write(
        &plugin.join(".claude-plugin/plugin.json"),
        r#"{"name": "helper", "version": "1.0.0"}"#,
    );
    plain(&plugin.join("skills"), "lint", "Lint the code base.");
    plain(
        &h.join(".codex/skills"),
        "codex-only",
        "Only Codex reads this one.",
    );
    plain(
        &h.join(".config/opencode/skills"),
        "opencode-only",
        "Only opencode reads this one.",
    );
    plain(
        &h.join(".agents/skills"),
        "shared-agents",
        "Every agent that reads .agents/skills.",
    );
    let lazy = h.join(".config/cli-agent/skills");
    skill(
        &lazy.join("web_scraper"),
        "name: web_scraper\ndescription: Extract content from websites using headless browser\ntype: executable\nauto_load: true\ndependencies: [playwright, beautifulsoup4]",
        "# Web Scraper Skill\n\n## Overview\nThis skill uses Playwright to load JavaScript-heavy pages.\n",
    );
    write(&lazy.join("web_scraper/execute.py"), "print('{}')\n");
    skill(
        &lazy.join("code_reviewer"),
        "name: code_reviewer\ndescription: Review code for style and bugs",
        "# Code Reviewer\n",
    );
    write(&lazy.join("code_reviewer/execute.py"), "print('{}')\n");
    skill(
        &lazy.join("my_skill"),
        "name: my_custom_tool\ndescription: Does something amazing\ntype: executable\nauto_load: true",
        "# My Custom Tool\n\nUsage instructions here...\n",
    );
    write(&lazy.join("my_skill/execute.py"), "print('{}')\n");
    t
}

/// The names in an agent's `prompt --mode all` listing (JSON of its fates would need more: the
/// listing text itself is what the agent sees).
fn listed(h: &Path, agent: &str, extra: &[&str]) -> (String, String) {
    let mut args = vec!["prompt", "--agent", agent, "--mode", "all", "--fates"];
    args.extend_from_slice(extra);
    let out = run(&args, h);
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

const EVERY_NAME: [&str; 12] = [
    "helper:lint",
    "claude-pdf",
    "claude-review",
    "nameless",
    "undescribed",
    "rust-helper",
    "codex-only",
    "opencode-only",
    "shared-agents",
    "web_scraper",
    "code_reviewer",
    "my_custom_tool",
];

fn names_in(text: &str) -> BTreeSet<&'static str> {
    EVERY_NAME
        .into_iter()
        .filter(|n| {
            text.contains(&format!("- {n}:"))
                || text.contains(&format!("- {n} "))
                || text.contains(&format!("\n{n}\n"))
                || text.contains(&format!("<name>{n}</name>"))
        })
        .collect()
}

#[test]
fn each_agents_listing_holds_exactly_the_skills_it_reads() {
    let t = home();
    let h = t.path();
    let want: [(&str, &[&str]); 5] = [
        (
            "claude-code",
            &[
                "claude-pdf",
                "claude-review",
                "nameless",
                "undescribed",
                "helper:lint",
            ],
        ),
        ("codex", &["codex-only", "shared-agents"]),
        (
            "opencode",
            &[
                "claude-pdf",
                "claude-review",
                "rust-helper",
                "opencode-only",
                "shared-agents",
            ],
        ),
        (
            "lazy-skills",
            &["web_scraper", "code_reviewer", "my_custom_tool"],
        ),
        // The SkillContextProvider lists nothing: it injects per request (design 002).
        ("generic", &[]),
    ];
    for (agent, names) in want {
        let (text, _) = listed(h, agent, &[]);
        let want: BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(names_in(&text), want, "{agent}:\n{text}");
    }
    // An agent's own format picks the agent: no Codex skill in Claude Code's listing.
    let out = run(&["prompt", "--format", "claude-code"], h);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("- claude-pdf:"), "{text}");
    assert!(
        !text.contains("codex-only") && !text.contains("shared-agents"),
        "{text}"
    );
}

#[test]
fn each_agents_budget_and_match_hold_exactly_its_skills() {
    let t = home();
    let h = t.path();
    let out = run(&["budget", "--agent", "codex", "--format", "json"], h);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = json(&out);
    let names: BTreeSet<String> = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        ["codex-only", "shared-agents"].map(String::from).into(),
        "{doc}"
    );
    // "Only … reads this one" matches the Codex skill for Codex and never for Claude Code.
    let found = |agent: &str| {
        let out = run(
            &[
                "match",
                "only codex reads this one",
                "--agent",
                agent,
                "--json",
                "--matcher",
                "bm25",
            ],
            h,
        );
        let doc = json(&out);
        doc["results"]["bm25"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(found("codex").contains(&"codex-only".to_string()));
    let claude = found("claude-code");
    assert!(
        !claude
            .iter()
            .any(|n| n == "codex-only" || n == "opencode-only"),
        "{claude:?}"
    );
}

#[test]
fn lazy_skills_enables_only_what_opts_in_and_judges_by_its_own_profile() {
    let t = home();
    let h = t.path();
    // Enabled mode: code_reviewer has no `auto_load: true`, so it is off.
    let out = run(&["prompt", "--agent", "lazy-skills"], h);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("Enabled skills:\n"), "{text}");
    assert_eq!(
        names_in(&text),
        ["web_scraper", "my_custom_tool"].into(),
        "{text}"
    );
    // Its skills are judged by the lazy-skills profile: its fields are known and its
    // snake_case names are fine; the untyped execute.py is a warning, not a reclassification.
    let out = run(&["check", "--format", "json"], h);
    let doc = json(&out);
    let lazy: Vec<&serde_json::Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["path"].as_str().unwrap().contains("cli-agent"))
        .collect();
    let rules: BTreeSet<&str> = lazy.iter().map(|d| d["rule"].as_str().unwrap()).collect();
    for bad in ["unknown-field", "name-format"] {
        assert!(!rules.contains(bad), "{bad}: {lazy:?}");
    }
    assert!(
        lazy.iter().any(|d| d["rule"] == "entry-untyped"
            && d["path"].as_str().unwrap().contains("code_reviewer")),
        "{lazy:?}"
    );
    let out = run(&["list", "--json"], h);
    let doc = json(&out);
    let kind = |name: &str| {
        doc.as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .map(|s| s["type"].as_str().unwrap().to_string())
    };
    assert_eq!(kind("code_reviewer").as_deref(), Some("contextual"));
    assert_eq!(kind("web_scraper").as_deref(), Some("executable"));
}

#[test]
fn claude_code_lists_by_its_fallbacks_and_says_so() {
    let t = home();
    let (text, fates) = listed(t.path(), "claude-code", &[]);
    assert!(
        text.contains("- nameless: A skill without a name."),
        "{text}"
    );
    // Claude Code 2.1.332 takes the body's first non-blank line, a heading's text without `#`.
    assert!(text.contains("- undescribed: Undescribed\n"), "{text}");
    assert!(fates.contains("listed with its folder's name"), "{fates}");
    assert!(fates.contains("first line of its body"), "{fates}");
}

#[test]
fn a_conditional_skill_is_listed_only_for_matching_files() {
    let t = home();
    let (text, fates) = listed(t.path(), "claude-code", &[]);
    assert!(!text.contains("rust-helper"), "{text}");
    assert!(
        fates.contains("conditional (paths: src/**/*.rs)"),
        "{fates}"
    );
    let (text, _) = listed(t.path(), "claude-code", &["--files", "docs/readme.md"]);
    assert!(!text.contains("rust-helper"), "{text}");
    let (text, _) = listed(t.path(), "claude-code", &["--files", "src/core/lib.rs"]);
    assert!(
        text.contains("- rust-helper: Explain Rust compiler errors."),
        "{text}"
    );
}

#[test]
fn a_conditional_skill_is_matched_only_while_a_file_activates_it() {
    let t = home();
    let found = |extra: &[&str]| {
        let mut args = vec![
            "match",
            "explain this rust compiler error",
            "--agent",
            "claude-code",
            "--matcher",
            "bm25",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = run(&args, t.path());
        String::from_utf8_lossy(&out.stdout).contains("rust-helper")
    };
    assert!(!found(&[]), "not listed, so the model cannot pick it");
    assert!(found(&["--files", "src/core/lib.rs"]));
}

#[test]
fn inject_shows_each_agents_framing_with_its_tokens() {
    let t = home();
    let h = t.path();
    let out = run(
        &[
            "match",
            // Design 000's rule: the skill's whole name in the message.
            "Use the web_scraper on the pricing table of example.com",
            "--agent",
            "lazy-skills",
            "--inject",
            "--json",
        ],
        h,
    );
    let doc = json(&out);
    let inj = &doc["inject"][0];
    assert_eq!(inj["agent"], "lazy-skills", "{doc}");
    assert_eq!(inj["skills"], serde_json::json!(["web_scraper"]), "{doc}");
    let text = inj["text"].as_str().unwrap();
    assert!(text.starts_with("# SKILL LOADED: web_scraper\n"), "{text}");
    assert!(text.contains("This skill uses Playwright"), "{text}");
    assert!(inj["tokens"].as_u64().unwrap() > 20, "{inj}");
    // The ADR's provider: the `## Available Skills` block of the skills whose triggers match.
    let lib = h.join("adr");
    skill(
        &lib.join("hello-extended"),
        "name: hello-extended\ndescription: Multi-language greeting tool\ntriggers: [\"greet\", \"hello\", \"bonjour\", \"hola\", \"greeting\"]",
        "# hello-extended\n\nThis skill provides multi-language greetings.\n",
    );
    let out = run(
        &[
            "match",
            "Say bonjour to Alice",
            "--agent",
            "generic",
            "--inject",
            "--json",
            lib.to_str().unwrap(),
        ],
        h,
    );
    let doc = json(&out);
    let text = doc["inject"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("\n\n## Available Skills\n\n# hello-extended\n"),
        "{doc}"
    );
}

#[test]
fn claude_code_reads_its_commands_and_managed_skills_each_labelled() {
    let t = tempfile::tempdir().unwrap();
    let h = t.path();
    let commands = h.join(".claude/commands");
    write(
        &commands.join("deploy.md"),
        "Deploy the current branch to staging.\n\nSteps…\n",
    );
    write(
        &commands.join("frontend/component.md"),
        "---\ndescription: Make a React component.\nargument-hint: NAME\n---\nMake $ARGUMENTS.\n",
    );
    // A skill of the same name wins over the command.
    write(&commands.join("review.md"), "Review as a command.\n");
    plain(
        &h.join(".claude/skills"),
        "review",
        "Review pull requests as a skill.",
    );
    let managed = h.join("managed");
    plain(
        &managed.join(".claude/skills"),
        "ops-policy",
        "Company rules for production changes.",
    );
    let run_here = |args: &[&str]| {
        crate::common::bin()
            .args(args)
            .env("SKILLSCOPE_CONFIG_DIR", h.join("config"))
            .env("SKILLSCOPE_CACHE_DIR", h.join("cache"))
            .env("SKILLSCOPE_MANAGED_DIR", &managed)
            .env("HOME", h)
            .current_dir(h)
            .output()
            .unwrap()
    };
    let out = run_here(&[
        "prompt",
        "--agent",
        "claude-code",
        "--mode",
        "all",
        "--fates",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let fates = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("- deploy: Deploy the current branch to staging."),
        "{text}"
    );
    assert!(
        text.contains("- frontend:component: Make a React component."),
        "{text}"
    );
    assert!(
        text.contains("- review: Review pull requests as a skill."),
        "{text}"
    );
    assert!(!text.contains("Review as a command"), "{text}");
    assert!(text.contains("- ops-policy: Company rules"), "{text}");
    assert!(fates.contains("first line of the command"), "{fates}");
    // Labelled in the list; no other agent reads them.
    let list = run_here(&["list"]);
    let listed = String::from_utf8_lossy(&list.stdout);
    assert!(listed.contains("claude/user-cmd"), "{listed}");
    assert!(listed.contains("claude/managed"), "{listed}");
    let codex = run_here(&["prompt", "--agent", "opencode", "--mode", "all"]);
    let codex = String::from_utf8_lossy(&codex.stdout);
    assert!(
        !codex.contains("ops-policy") && !codex.contains("deploy"),
        "{codex}"
    );
    // Commands need no `name` and no frontmatter: check finds nothing to say about them.
    let check = run_here(&["check", "--profile", "claude-code", "--format", "json"]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(
        !report.contains("name-missing") && !report.contains("frontmatter-missing"),
        "{report}"
    );
}

/// Where the client decides as it runs, `prompt --fates` and `prompt --json` say so, entry by
/// entry: opencode keeps the copy of a name it loaded last (a top-level skill and a nested one
/// of one name, both copies marked), Gemini CLI lists a folder's skills in its file system's
/// order (each of them marked, a skill alone in its folder not); Claude Code decides neither.
#[test]
fn prompt_marks_what_the_client_orders_or_picks_itself() {
    let t = tempfile::tempdir().unwrap();
    let h = t.path();
    let opencode = h.join(".config/opencode/skills");
    plain(&opencode, "alpha", "The top-level alpha.");
    skill(
        &opencode.join("group/alpha"),
        "name: alpha\ndescription: The nested alpha.",
        "x\n",
    );
    plain(&opencode, "beta", "Beta alone.");
    let gemini = h.join(".gemini/skills");
    plain(&gemini, "g-one", "One.");
    plain(&gemini, "g-two", "Two.");
    plain(&h.join(".agents/skills"), "lonely", "Alone in its folder.");
    plain(&h.join(".claude/skills"), "claude-one", "One.");
    plain(&h.join(".claude/skills"), "claude-two", "Two.");

    let fates = |agent: &str| {
        let out = run(&["prompt", "--agent", agent, "--fates"], h);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let line = |table: &str, name: &str| -> Vec<String> {
        table
            .lines()
            .filter(|l| l.split_whitespace().nth(1) == Some(name))
            .map(str::to_string)
            .collect()
    };
    let copy = "either copy: the client picks by load order";
    let order = "order: the client's file-system order";

    let table = fates("opencode");
    let alphas = line(&table, "alpha");
    assert_eq!(alphas.len(), 2, "{table}");
    assert!(alphas.iter().all(|l| l.contains(copy)), "{table}");
    assert!(!line(&table, "beta")[0].contains("client"), "{table}");
    let v = json(&run(&["prompt", "--agent", "opencode", "--json"], h));
    let marked = v["listing"]["client_choice"].as_array().unwrap();
    let mut paths: Vec<&str> = marked.iter().map(|m| m["path"].as_str().unwrap()).collect();
    paths.sort_unstable();
    assert_eq!(marked.len(), 2, "{marked:?}");
    assert!(
        marked
            .iter()
            .all(|m| m["name"] == "alpha" && m["choice"] == copy)
    );
    let top = opencode.join("alpha/SKILL.md");
    let nested = opencode.join("group/alpha/SKILL.md");
    let mut want = vec![top.to_str().unwrap(), nested.to_str().unwrap()];
    want.sort_unstable();
    assert_eq!(paths, want);

    let table = fates("gemini");
    for name in ["g-one", "g-two"] {
        assert!(line(&table, name)[0].ends_with(order), "{table}");
    }
    assert!(!line(&table, "lonely")[0].contains(order), "{table}");
    let v = json(&run(&["prompt", "--agent", "gemini", "--json"], h));
    assert_eq!(
        v["listing"]["client_choice"].as_array().unwrap().len(),
        2,
        "{v}"
    );

    let table = fates("claude-code");
    assert!(!table.contains("the client"), "{table}");
    let v = json(&run(&["prompt", "--agent", "claude-code", "--json"], h));
    assert_eq!(v["listing"]["client_choice"], serde_json::json!([]));
}
