//! The SkillContextProvider ADR's agent (design 002, the generic `.agents/skills` view) through
//! the real binary: no listing in its system prompt, `triggers:` known to its profile, and a
//! warning for a skill of its folder that no message can ever inject.

use crate::common::*;

fn home_with_two_skills() -> tempfile::TempDir {
    home_with_two_skills_in(".agents/skills")
}

/// The two skills in `folder` below a new home.
fn home_with_two_skills_in(folder: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let skills = t.path().join(folder);
    write(
        &skills.join("hello-extended/SKILL.md"),
        "---\nname: hello-extended\ndescription: Multi-language greeting tool. Use when the user wants to greet someone.\ntriggers:\n  - greet\n  - bonjour\n---\n# hello-extended\n\nThis skill provides multi-language greetings.\n",
    );
    write(
        &skills.join("calc/SKILL.md"),
        "---\nname: calc\ndescription: Calculate arithmetic expressions step by step. Use when the user asks to compute a number.\n---\n# calc\n",
    );
    t
}

fn findings(h: &std::path::Path) -> Vec<(String, String, String)> {
    let out = run(&["check", "--format", "json"], h);
    json(&out)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let path = d["path"].as_str().unwrap_or_default();
            let skill = path.rsplit('/').nth(1).unwrap_or_default().to_string();
            (
                skill,
                d["rule"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The ADR agent's warning is a view a user opts into: `.agents/skills` (and
/// `~/.config/agents/skills`, which Goose reads) are folders real clients list whatever a skill's
/// `triggers`, so plain `check`, even with `--warnings-as-errors`, never warns; asked for by name
/// (`--select triggers-missing`), it names the skill the ADR's agent can never inject.
#[test]
fn check_knows_triggers_and_warns_of_a_skill_that_can_never_be_injected() {
    for folder in [".agents/skills", ".config/agents/skills"] {
        let shared = home_with_two_skills_in(folder);
        let got = findings(shared.path());
        assert!(
            !got.iter().any(|(_, rule, _)| rule == "triggers-missing"),
            "{folder}, a folder real clients read: {got:?}"
        );
        let out = run(&["check", "--warnings-as-errors"], shared.path());
        assert_eq!(out.status.code(), Some(0), "{folder}");
    }
    let t = home_with_two_skills();
    let out = run(
        &["check", "--format", "json", "--select", "triggers-missing"],
        t.path(),
    );
    let got: Vec<(String, String, String)> = json(&out)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let path = d["path"].as_str().unwrap_or_default();
            let skill = path.rsplit('/').nth(1).unwrap_or_default().to_string();
            (
                skill,
                d["rule"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let missing: Vec<&(String, String, String)> = got
        .iter()
        .filter(|(_, r, _)| r == "triggers-missing")
        .collect();
    assert_eq!(
        missing,
        [&(
            "calc".to_string(),
            "triggers-missing".to_string(),
            "warning".to_string()
        )],
        "{got:?}"
    );
    let got = findings(t.path());
    assert!(
        !got.iter().any(|(_, rule, _)| rule == "unknown-field"),
        "triggers is the ADR's own field: {got:?}"
    );
}

#[test]
fn its_system_prompt_holds_no_listing_and_a_message_injects_by_triggers() {
    let t = home_with_two_skills();
    let h = t.path();
    let out = run(&["prompt", "--agent", "generic", "--fates"], h);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let fates = String::from_utf8_lossy(&out.stderr);
    assert!(fates.contains("2 dropped"), "{fates}");
    assert!(
        fates.contains("lists no skill in the system prompt"),
        "{fates}"
    );
    // Per request: the `## Available Skills` block of the skills whose triggers match.
    let out = run(
        &[
            "match",
            "please greet Alice",
            "--agent",
            "generic",
            "--inject",
            "--json",
        ],
        h,
    );
    let doc = json(&out);
    let inj = &doc["inject"][0];
    assert_eq!(
        inj["skills"],
        serde_json::json!(["hello-extended"]),
        "{doc}"
    );
    let text = inj["text"].as_str().unwrap();
    assert!(
        text.starts_with("\n\n## Available Skills\n\n# hello-extended\n"),
        "{text:?}"
    );
}

/// What the commands print of the triggers agent speaks of what it does, not of the documents
/// it comes from: no "design 002", no "SkillContextProvider", no "generic (.agents/skills)".
#[test]
fn its_messages_carry_no_design_document_jargon() {
    let t = home_with_two_skills();
    let h = t.path();
    let steps: &[&[&str]] = &[
        &["check", "--select", "triggers-missing"],
        &["prompt", "--agent", "generic", "--fates"],
        &["budget", "--agent", "generic"],
        &["list", "--agent", "generic"],
        &["match", "--agent", "generic", "greet my friend"],
        &["show", "calc"],
    ];
    let mut seen_triggers_agent = false;
    for args in steps {
        let out = run(args, h);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        for jargon in ["design 0", "SkillContextProvider", "generic (", "the ADR"] {
            assert!(!text.contains(jargon), "{args:?} says {jargon:?}:\n{text}");
        }
        seen_triggers_agent |= text.contains("triggers agent");
    }
    assert!(seen_triggers_agent, "the agent is named by what it does");
}
