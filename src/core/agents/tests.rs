use super::*;
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::frontmatter::Frontmatter;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use crate::core::source::Scope;

fn skill_at(dir: &Path, fm: Frontmatter) -> Skill {
    let root = crate::core::source::Root::new(dir.parent().unwrap(), Agent::Path, Scope::Path);
    Skill {
        frontmatter: fm,
        ..Skill::new(&root, dir.to_path_buf(), dir.join("SKILL.md"))
    }
}

fn skill(dir: &Path) -> Skill {
    skill_at(dir, Frontmatter::default())
}

/// A skill of a user folder `root`, as the scan of the home folder finds it: whether an agent
/// reads a folder can depend on its being the user's (Copilot reads a project's `.claude/skills`,
/// never `~/.claude/skills`).
fn user_skill(root: &Path, agent: Agent, name: &str) -> Skill {
    let root = crate::core::source::Root::new(root, agent, Scope::User);
    let dir = root.path.join(name);
    Skill::new(&root, dir.clone(), dir.join("SKILL.md"))
}

fn write(p: &Path, s: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, s).unwrap();
}

struct Fixture {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    Fixture {
        _tmp: tmp,
        home,
        project,
    }
}

impl Fixture {
    fn load(&self) -> (AgentSwitches, Vec<Diagnostic>) {
        AgentSwitches::load(&self.home, Some(&self.project))
    }

    /// A skill of `~/.claude/skills`, tagged as the scan tags it (the user's, Claude Code's).
    fn claude_skill(&self, name: &str) -> Skill {
        user_skill(&self.home.join(".claude/skills"), Agent::ClaudeCode, name)
    }

    /// A skill of `~/.agents/skills`, tagged as the scan tags it (the user's, generic).
    fn agents_skill(&self, name: &str) -> Skill {
        user_skill(&self.home.join(".agents/skills"), Agent::Generic, name)
    }
}

#[test]
fn readers_follow_the_folder_a_skill_is_in() {
    let f = fixture();
    assert_eq!(
        readers(&f.claude_skill("pdf")),
        vec![Agent::ClaudeCode, Agent::Opencode]
    );
    // The agents with switches that read the folder; how deep each reads it (Qwen Code only its
    // direct children) is its view's business (`reach.rs`).
    assert_eq!(
        readers(&skill(&f.project.join(".agents/skills/group/pdf"))),
        vec![
            Agent::Codex,
            Agent::Opencode,
            Agent::Openclaw,
            Agent::Copilot,
            Agent::QwenCode,
            Agent::Gemini
        ]
    );
    assert_eq!(
        readers(&skill(&f.home.join(".codex/skills/pdf"))),
        vec![Agent::Codex]
    );
    assert_eq!(
        readers(&skill(&f.home.join(".config/opencode/skill/pdf"))),
        vec![Agent::Opencode]
    );
    assert_eq!(
        readers(&skill(&f.project.join(".opencode/skills/pdf"))),
        vec![Agent::Opencode]
    );
    assert!(readers(&skill(&f.project.join("library/pdf"))).is_empty());
}

#[test]
fn later_claude_settings_win_and_frontmatter_holds_back() {
    let f = fixture();
    write(
        &f.home.join(".claude/settings.json"),
        r#"{"skillOverrides": {"pdf": "off", "docx": "off", "manual": "on", "gone": "off"}}"#,
    );
    write(
        &f.project.join(".claude/settings.json"),
        r#"{"skillOverrides": {"pdf": "on"}}"#,
    );
    write(
        &f.project.join(".claude/settings.local.json"),
        r#"{"skillOverrides": {"pdf": "name-only", "gone": "user-invocable-only"}}"#,
    );
    let (sw, diags) = f.load();
    assert!(diags.is_empty(), "{diags:?}");
    let e = sw.effective(&f.claude_skill("pdf"), Agent::ClaudeCode);
    assert_eq!(e.state, AgentState::NameOnly);
    assert!(
        e.source
            .ends_with(".claude/settings.local.json skillOverrides.pdf"),
        "{}",
        e.source
    );
    assert_eq!(
        e.file.as_deref(),
        Some(f.project.join(".claude/settings.local.json").as_path())
    );
    let e = sw.effective(&f.claude_skill("docx"), Agent::ClaudeCode);
    assert_eq!(
        (e.state, e.source.as_str()),
        (
            AgentState::Off,
            "~/.claude/settings.json skillOverrides.docx"
        )
    );
    let manual = skill_at(
        &f.home.join(".claude/skills/manual"),
        Frontmatter {
            disable_model_invocation: true,
            ..Frontmatter::default()
        },
    );
    let e = sw.effective(&manual, Agent::ClaudeCode);
    assert_eq!(
        (e.state, e.source.as_str()),
        (
            AgentState::UserInvocableOnly,
            "frontmatter disable-model-invocation"
        )
    );
    let e = sw.effective(&f.claude_skill("other"), Agent::ClaudeCode);
    assert_eq!((e.state, e.source.as_str()), (AgentState::On, "default"));
}

#[test]
fn bad_claude_values_are_reported_and_ignored() {
    let f = fixture();
    write(
        &f.home.join(".claude/settings.json"),
        "{\n  \"skillOverrides\": {\n    \"pdf\": \"disabled\",\n    \"docx\": \"off\"\n  }\n}\n",
    );
    let (sw, diags) = f.load();
    assert_eq!(diags.len(), 1);
    assert_eq!((diags[0].line, diags[0].column), (Some(3), Some(12)));
    assert!(
        diags[0].message.contains("\"disabled\""),
        "{}",
        diags[0].message
    );
    assert_eq!(
        sw.effective(&f.claude_skill("pdf"), Agent::ClaudeCode)
            .state,
        AgentState::On
    );
    assert_eq!(
        sw.effective(&f.claude_skill("docx"), Agent::ClaudeCode)
            .state,
        AgentState::Off
    );
}

#[test]
fn codex_entries_match_by_name_or_path_and_the_last_wins() {
    let f = fixture();
    write(
        &f.home.join(".codex/config.toml"),
        r#"model = "gpt-5"

[[skills.config]]
name = "pdf"
enabled = false

[[skills.config]]
path = "~/.agents/skills/pdf/SKILL.md"
enabled = true

[[skills.config]]
path = "~/.agents/skills/docx"
enabled = false
"#,
    );
    let (sw, diags) = f.load();
    assert!(diags.is_empty(), "{diags:?}");
    let pdf = sw.effective(&f.agents_skill("pdf"), Agent::Codex);
    assert_eq!(pdf.state, AgentState::On);
    assert!(pdf.source.contains("skills.config[1]"), "{}", pdf.source);
    // The same name in another folder is matched by the name entry only.
    let other_pdf = skill(&f.home.join(".codex/skills/pdf"));
    assert_eq!(
        sw.effective(&other_pdf, Agent::Codex).state,
        AgentState::Off
    );
    let docx = sw.effective(&f.agents_skill("docx"), Agent::Codex);
    assert_eq!(docx.state, AgentState::Off);
    assert_eq!(
        docx.source,
        "~/.codex/config.toml skills.config[2] (path = \"~/.agents/skills/docx\", enabled = false)"
    );
}

#[cfg(unix)]
#[test]
fn codex_path_entries_match_through_links() {
    let f = fixture();
    let real = f.home.join("library/pdf");
    write(
        &real.join("SKILL.md"),
        "---\nname: pdf\ndescription: d\n---\n",
    );
    std::fs::create_dir_all(f.home.join(".agents/skills")).unwrap();
    crate::core::files::fsx::test_link(&real, f.home.join(".agents/skills/pdf")).unwrap();
    write(
        &f.home.join(".codex/config.toml"),
        &format!(
            "[[skills.config]]\npath = {:?}\nenabled = false\n",
            real.join("SKILL.md")
        ),
    );
    let (sw, _) = f.load();
    assert_eq!(
        sw.effective(&f.agents_skill("pdf"), Agent::Codex).state,
        AgentState::Off
    );
}

#[test]
fn codex_inline_array_form_is_read() {
    let f = fixture();
    write(
        &f.home.join(".codex/config.toml"),
        "[skills]\nconfig = [{ name = \"pdf\", enabled = false }]\n",
    );
    let (sw, diags) = f.load();
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        sw.effective(&f.agents_skill("pdf"), Agent::Codex).state,
        AgentState::Off
    );
}

#[test]
fn opencode_last_matching_rule_wins_across_files() {
    let f = fixture();
    write(
        &f.home.join(".config/opencode/opencode.json"),
        r#"{"permission": {"bash": "ask", "skill": {"*": "allow", "internal-*": "deny", "internal-ok": "ask"}}}"#,
    );
    write(
        &f.project.join("opencode.json"),
        r#"{"permission": {"skill": {"pdf": "deny"}}}"#,
    );
    let (sw, diags) = f.load();
    assert!(diags.is_empty(), "{diags:?}");
    let state = |n: &str| sw.effective(&f.agents_skill(n), Agent::Opencode);
    assert_eq!(state("internal-notes").state, AgentState::Off);
    assert_eq!(
        state("internal-notes").source,
        "~/.config/opencode/opencode.json permission.skill.\"internal-*\" = deny"
    );
    assert_eq!(state("internal-ok").state, AgentState::On);
    assert!(state("internal-ok").source.ends_with("= ask"));
    assert_eq!(state("pdf").state, AgentState::Off);
    assert_eq!(state("docx").state, AgentState::On);
}

#[test]
fn opencode_rules_written_as_one_string_cover_every_skill() {
    let f = fixture();
    write(
        &f.home.join(".config/opencode/opencode.json"),
        r#"{"permission": "deny"}"#,
    );
    let (sw, _) = f.load();
    assert_eq!(
        sw.effective(&f.agents_skill("pdf"), Agent::Opencode).state,
        AgentState::Off
    );
    write(
        &f.home.join(".config/opencode/opencode.json"),
        r#"{"permission": {"skill": {"pdf": "deny"}, "*": "allow"}}"#,
    );
    let (sw, _) = f.load();
    // The `*` key comes after `skill`, so its rule is the last that matches.
    assert_eq!(
        sw.effective(&f.agents_skill("pdf"), Agent::Opencode).state,
        AgentState::On
    );
}

#[test]
fn badges_say_who_reads_and_who_loads() {
    let f = fixture();
    write(
        &f.home.join(".claude/settings.json"),
        r#"{"skillOverrides": {"pdf": "off"}}"#,
    );
    let (sw, _) = f.load();
    let badges = sw.badges(&f.claude_skill("pdf"));
    let got: Vec<_> = badges
        .iter()
        .map(|b| (b.agent, b.reads, b.loads()))
        .collect();
    assert_eq!(
        got,
        vec![
            (Agent::ClaudeCode, true, false),
            (Agent::Codex, false, false),
            (Agent::Opencode, true, true),
            (Agent::Openclaw, false, false),
            (Agent::Copilot, false, false),
            (Agent::QwenCode, false, false),
            (Agent::Gemini, false, false),
        ]
    );
}

#[test]
fn a_skill_linked_into_claudes_folder_is_read_and_switched_by_claude_too() {
    // `npx skills`' layout: the copy in `.agents/skills`, a link in `.claude/skills`.
    let f = fixture();
    write(
        &f.home.join(".claude/settings.json"),
        r#"{"skillOverrides": {"pdf": "off"}}"#,
    );
    let mut pdf = f.agents_skill("pdf");
    assert!(!readers(&pdf).contains(&Agent::ClaudeCode));
    let claude = f.claude_skill("pdf");
    pdf.linked.push(claude.place());
    assert_eq!(
        readers(&pdf),
        vec![
            Agent::Codex,
            Agent::Opencode,
            Agent::Openclaw,
            Agent::Copilot,
            Agent::QwenCode,
            Agent::Gemini,
            Agent::ClaudeCode
        ]
    );
    assert!(crate::core::agents::model::readers(&pdf).contains(&Agent::ClaudeCode));
    let (sw, _) = f.load();
    let got: Vec<_> = sw
        .badges(&pdf)
        .iter()
        .map(|b| (b.agent, b.reads, b.loads()))
        .collect();
    assert_eq!(
        got,
        vec![
            (Agent::ClaudeCode, true, false),
            (Agent::Codex, true, true),
            (Agent::Opencode, true, true),
            (Agent::Openclaw, true, true),
            (Agent::Copilot, true, true),
            (Agent::QwenCode, true, true),
            (Agent::Gemini, true, true),
        ]
    );
}

#[test]
fn claude_off_then_on_round_trips_to_the_original_text() {
    let f = fixture();
    let settings = f.home.join(".claude/settings.json");
    let original = "{\n    \"model\": \"opus\",\n    \"env\": {\"A\": \"1\"}\n}\n";
    write(&settings, original);
    let pdf = f.claude_skill("pdf");
    let (sw, _) = f.load();
    let plan = sw
        .plan(&pdf, Agent::ClaudeCode, SwitchScope::User, false)
        .unwrap();
    assert_eq!(
        plan.after,
        "{\n    \"model\": \"opus\",\n    \"env\": {\"A\": \"1\"},\n    \"skillOverrides\": {\n        \"pdf\": \"off\"\n    }\n}\n"
    );
    assert_eq!(plan.after_state.state, AgentState::Off);
    assert!(plan.note.is_none(), "{:?}", plan.note);
    let (written, applied) = sw.apply(&pdf, &plan).unwrap();
    assert!(applied.written);
    assert_eq!(
        written, plan,
        "nothing changed meanwhile: the plan is written as it is"
    );
    assert_eq!(
        std::fs::read_to_string(backup_path(&settings)).unwrap(),
        original
    );
    let (sw, _) = f.load();
    let plan = sw
        .plan(&pdf, Agent::ClaudeCode, SwitchScope::User, true)
        .unwrap();
    sw.apply(&pdf, &plan).unwrap();
    // Back on, the entry goes and the object that held it stays, empty.
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\n    \"model\": \"opus\",\n    \"env\": {\"A\": \"1\"},\n    \"skillOverrides\": {}\n}\n"
    );
}

#[test]
fn claude_on_writes_an_explicit_on_when_a_lower_file_switches_off() {
    let f = fixture();
    write(
        &f.home.join(".claude/settings.json"),
        r#"{"skillOverrides": {"pdf": "off"}}"#,
    );
    write(&f.project.join(".claude/settings.local.json"), "{}\n");
    let (sw, _) = f.load();
    let plan = sw
        .plan(
            &f.claude_skill("pdf"),
            Agent::ClaudeCode,
            SwitchScope::Local,
            true,
        )
        .unwrap();
    assert_eq!(
        plan.after,
        "{\n  \"skillOverrides\": {\n    \"pdf\": \"on\"\n  }\n}\n"
    );
    assert_eq!(plan.after_state.state, AgentState::On);
}

#[test]
fn a_change_a_higher_file_overrides_is_planned_with_a_note() {
    let f = fixture();
    write(
        &f.project.join(".claude/settings.json"),
        r#"{"skillOverrides": {"pdf": "on"}}"#,
    );
    let (sw, _) = f.load();
    let plan = sw
        .plan(
            &f.claude_skill("pdf"),
            Agent::ClaudeCode,
            SwitchScope::User,
            false,
        )
        .unwrap();
    assert!(
        plan.changes_nothing(),
        "a change that does nothing is not written"
    );
    let note = plan.note.unwrap();
    assert!(note.contains("still treat it as on"), "{note}");
    assert!(
        note.contains("project/.claude/settings.json skillOverrides.pdf"),
        "{note}"
    );
}

#[test]
fn a_missing_settings_file_is_created() {
    let f = fixture();
    let (sw, _) = f.load();
    let pdf = f.claude_skill("pdf");
    let plan = sw
        .plan(&pdf, Agent::ClaudeCode, SwitchScope::User, false)
        .unwrap();
    assert!(!plan.existed);
    assert!(
        plan.diff
            .starts_with("--- /dev/null\n+++ ~/.claude/settings.json\n"),
        "{}",
        plan.diff
    );
    let (_, applied) = sw.apply(&pdf, &plan).unwrap();
    assert_eq!(applied.backup, None);
    let text = std::fs::read_to_string(f.home.join(".claude/settings.json")).unwrap();
    assert_eq!(
        text,
        "{\n  \"skillOverrides\": {\n    \"pdf\": \"off\"\n  }\n}\n"
    );
}

#[test]
fn codex_toggle_keeps_comments_and_flips_existing_entries() {
    let f = fixture();
    let config = f.home.join(".codex/config.toml");
    let original = "# my codex\nmodel = \"gpt-5\" # the model\n\n[[skills.config]]\nname = \"pdf\"\nenabled = false # off for now\n\n[mcp_servers.docs]\ncommand = \"docs\"\n";
    write(&config, original);
    let (sw, _) = f.load();
    let plan = sw
        .plan(
            &f.agents_skill("pdf"),
            Agent::Codex,
            SwitchScope::User,
            true,
        )
        .unwrap();
    assert_eq!(
        plan.after,
        original.replace("enabled = false # off", "enabled = true # off")
    );
    let docx = f.agents_skill("docx");
    let plan = sw
        .plan(&docx, Agent::Codex, SwitchScope::User, false)
        .unwrap();
    let md = std::path::absolute(&docx.skill_md).unwrap();
    // The new entry joins its siblings, before the next table.
    let added = format!(
        "[[skills.config]]\npath = {:?}\nenabled = false\n\n",
        md.to_str().unwrap()
    );
    let want = original.replace("[mcp_servers.docs]", &format!("{added}[mcp_servers.docs]"));
    assert_eq!(plan.after, want);
    assert_eq!(plan.after_state.state, AgentState::Off);
    // Switching on a skill no entry names changes nothing: on is the default.
    let plan = sw
        .plan(
            &f.agents_skill("xlsx"),
            Agent::Codex,
            SwitchScope::User,
            true,
        )
        .unwrap();
    assert!(plan.already());
}

#[test]
fn codex_toggle_into_an_inline_array() {
    let f = fixture();
    write(
        &f.home.join(".codex/config.toml"),
        "[skills]\nconfig = [{ name = \"pdf\", enabled = false }]\n",
    );
    let (sw, _) = f.load();
    let plan = sw
        .plan(
            &f.agents_skill("docx"),
            Agent::Codex,
            SwitchScope::User,
            false,
        )
        .unwrap();
    assert_eq!(plan.after_state.state, AgentState::Off);
    assert!(
        plan.after
            .starts_with("[skills]\nconfig = [{ name = \"pdf\", enabled = false }, { path = "),
        "{}",
        plan.after
    );
}

#[test]
fn codex_has_no_project_switch() {
    let f = fixture();
    let (sw, _) = f.load();
    let err = sw
        .plan(
            &f.agents_skill("pdf"),
            Agent::Codex,
            SwitchScope::Project,
            false,
        )
        .unwrap_err();
    assert!(matches!(err, ToggleError::Unsupported { .. }), "{err}");
}

#[test]
fn opencode_toggle_beats_an_earlier_pattern() {
    let f = fixture();
    let config = f.home.join(".config/opencode/opencode.json");
    write(
        &config,
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"permission\": {\n    \"skill\": {\n      \"internal-*\": \"deny\"\n    }\n  }\n}\n",
    );
    let (sw, _) = f.load();
    let plan = sw
        .plan(
            &f.agents_skill("internal-notes"),
            Agent::Opencode,
            SwitchScope::User,
            true,
        )
        .unwrap();
    assert_eq!(
        plan.after,
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"permission\": {\n    \"skill\": {\n      \"internal-*\": \"deny\",\n      \"internal-notes\": \"allow\"\n    }\n  }\n}\n"
    );
    assert_eq!(plan.after_state.state, AgentState::On);
}

#[test]
fn opencode_toggle_turns_a_blanket_rule_into_an_object() {
    let f = fixture();
    write(
        &f.home.join(".config/opencode/opencode.json"),
        "{\n  \"permission\": \"allow\"\n}\n",
    );
    let (sw, _) = f.load();
    let plan = sw
        .plan(
            &f.agents_skill("pdf"),
            Agent::Opencode,
            SwitchScope::User,
            false,
        )
        .unwrap();
    assert_eq!(
        plan.after,
        "{\n  \"permission\": {\n    \"*\": \"allow\",\n    \"skill\": {\n      \"pdf\": \"deny\"\n    }\n  }\n}\n"
    );
    let plan = sw
        .plan(
            &f.agents_skill("docx"),
            Agent::Opencode,
            SwitchScope::User,
            true,
        )
        .unwrap();
    assert!(plan.already());
}

#[test]
fn opencode_writes_to_the_jsonc_file_when_that_is_the_one_there() {
    let f = fixture();
    let jsonc = f.home.join(".config/opencode/opencode.jsonc");
    write(&jsonc, "// mine\n{\n  \"theme\": \"dark\", // dark\n}\n");
    let (sw, _) = f.load();
    let plan = sw
        .plan(
            &f.agents_skill("pdf"),
            Agent::Opencode,
            SwitchScope::User,
            false,
        )
        .unwrap();
    assert_eq!(plan.file, jsonc);
    assert_eq!(
        plan.after,
        "// mine\n{\n  \"theme\": \"dark\", // dark\n  \"permission\": {\n    \"skill\": {\n      \"pdf\": \"deny\"\n    }\n  },\n}\n"
    );
}

#[test]
fn a_file_that_does_not_parse_is_refused_and_left_alone() {
    let f = fixture();
    let settings = f.home.join(".claude/settings.json");
    let broken = "{\n  \"model\": \"opus\",\n  \"skillOverrides\": {\"pdf\": \"off\"\n";
    write(&settings, broken);
    let (sw, diags) = f.load();
    assert_eq!(
        diags.len(),
        1,
        "the broken file is reported once: {diags:?}"
    );
    let err = sw
        .plan(
            &f.claude_skill("docx"),
            Agent::ClaudeCode,
            SwitchScope::User,
            false,
        )
        .unwrap_err();
    // The object that is never closed opens on line 3.
    assert!(
        matches!(err, ToggleError::Unparsable { line: 3, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("never rewrites"), "{err}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), broken);
    let toml = f.home.join(".codex/config.toml");
    write(&toml, "[skills\nname = 1\n");
    let (sw, _) = f.load();
    let err = sw
        .plan(
            &f.agents_skill("pdf"),
            Agent::Codex,
            SwitchScope::User,
            false,
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            ToggleError::Unparsable {
                format: "TOML",
                line: 1,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_change_made_after_the_plan_is_kept_and_the_toggle_goes_on_top() {
    let f = fixture();
    let settings = f.home.join(".claude/settings.json");
    write(&settings, "{}\n");
    let (sw, _) = f.load();
    let pdf = f.claude_skill("pdf");
    let plan = sw
        .plan(&pdf, Agent::ClaudeCode, SwitchScope::User, false)
        .unwrap();
    write(&settings, "{\"model\": \"sonnet\"}\n");
    let (written, applied) = sw.apply(&pdf, &plan).unwrap();
    assert!(applied.written);
    let now = std::fs::read_to_string(&settings).unwrap();
    assert_eq!(
        now,
        "{\"model\": \"sonnet\", \"skillOverrides\": {\"pdf\": \"off\"}}\n"
    );
    assert_eq!(written.after, now, "the plan returned is the one written");
    assert_eq!(written.before, "{\"model\": \"sonnet\"}\n");
    assert_eq!(
        std::fs::read_to_string(backup_path(&settings)).unwrap(),
        "{\"model\": \"sonnet\"}\n",
        "the backup is the file as it was right before the write"
    );
    // A file created after a plan that expected none keeps what it holds too.
    let local = f.project.join(".claude/settings.local.json");
    let plan = sw
        .plan(&pdf, Agent::ClaudeCode, SwitchScope::Local, false)
        .unwrap();
    assert!(!plan.existed);
    write(&local, "{\"mine\": true}\n");
    sw.apply(&pdf, &plan).unwrap();
    assert_eq!(
        std::fs::read_to_string(&local).unwrap(),
        "{\"mine\": true, \"skillOverrides\": {\"pdf\": \"off\"}}\n"
    );
}

#[test]
fn a_file_broken_after_the_plan_is_refused_and_left_alone() {
    let f = fixture();
    let settings = f.home.join(".claude/settings.json");
    write(&settings, "{}\n");
    let (sw, _) = f.load();
    let pdf = f.claude_skill("pdf");
    let plan = sw
        .plan(&pdf, Agent::ClaudeCode, SwitchScope::User, false)
        .unwrap();
    write(&settings, "{\"model\": \n");
    let err = sw.apply(&pdf, &plan).unwrap_err();
    assert!(matches!(err, ToggleError::Unparsable { .. }), "{err}");
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\"model\": \n"
    );
    assert!(!backup_path(&settings).exists());
}

#[test]
fn a_held_lock_is_waited_for_then_reported_and_nothing_is_written() {
    let f = fixture();
    let settings = f.home.join(".claude/settings.json");
    write(&settings, "{}\n");
    let (sw, _) = f.load();
    let pdf = f.claude_skill("pdf");
    let plan = sw
        .plan(&pdf, Agent::ClaudeCode, SwitchScope::User, false)
        .unwrap();
    let held = crate::core::files::fsx::lock(&settings, std::time::Duration::ZERO).unwrap();
    let err = plan::apply(&sw, &pdf, &plan, std::time::Duration::from_millis(50)).unwrap_err();
    assert!(
        matches!(
            err,
            ToggleError::File(crate::core::files::fsx::FsxError::Busy { .. })
        ),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{}\n");
    drop(held);
    let (_, applied) = sw.apply(&pdf, &plan).unwrap();
    assert!(applied.written);
}

#[cfg(unix)]
#[test]
fn a_read_only_file_is_refused_by_its_permission_bits() {
    use std::os::unix::fs::PermissionsExt;
    let f = fixture();
    let settings = f.home.join(".claude/settings.json");
    write(&settings, "{}\n");
    std::fs::set_permissions(&settings, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (sw, _) = f.load();
    let plan = sw
        .plan(
            &f.claude_skill("pdf"),
            Agent::ClaudeCode,
            SwitchScope::User,
            false,
        )
        .unwrap();
    let err = sw.apply(&f.claude_skill("pdf"), &plan).unwrap_err();
    assert!(matches!(err, ToggleError::ReadOnly { .. }), "{err}");
    assert!(err.to_string().contains("read-only"));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{}\n");
    assert!(!backup_path(&settings).exists());
}

#[cfg(unix)]
#[test]
fn the_written_file_keeps_its_permissions_and_links_stay_links() {
    use std::os::unix::fs::PermissionsExt;
    let f = fixture();
    let real = f.home.join("dotfiles/claude-settings.json");
    write(&real, "{\"model\": \"opus\"}\n");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::create_dir_all(f.home.join(".claude")).unwrap();
    let link = f.home.join(".claude/settings.json");
    crate::core::files::fsx::test_link(&real, &link).unwrap();
    let (sw, _) = f.load();
    let plan = sw
        .plan(
            &f.claude_skill("pdf"),
            Agent::ClaudeCode,
            SwitchScope::User,
            false,
        )
        .unwrap();
    let (_, applied) = sw.apply(&f.claude_skill("pdf"), &plan).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("\"pdf\": \"off\"")
    );
    assert_eq!(
        std::fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let backup = applied.backup.unwrap();
    assert_eq!(backup, f.home.join(".claude/settings.json.skillscope.bak"));
    assert_eq!(
        std::fs::metadata(&backup).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn project_root_is_the_repository_root_and_never_home() {
    let f = fixture();
    let repo = f.project.join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("a/b")).unwrap();
    assert_eq!(
        project_root(&repo.join("a/b"), Some(&f.home)),
        Some(repo.clone())
    );
    assert_eq!(
        project_root(&f.project, Some(&f.home)),
        Some(f.project.clone())
    );
    assert_eq!(project_root(&f.home, Some(&f.home)), None);
}

#[test]
fn plan_readers_covers_the_agents_that_read_the_folder() {
    let f = fixture();
    for installed in [
        ".codex",
        ".config/opencode",
        ".openclaw",
        ".copilot",
        ".qwen",
    ] {
        std::fs::create_dir_all(f.home.join(installed)).unwrap();
    }
    let (sw, _) = f.load();
    let plans = sw.plan_readers(&f.agents_skill("pdf"), SwitchScope::User, false);
    let agents: Vec<Agent> = plans.iter().map(|(a, _)| *a).collect();
    assert_eq!(
        agents,
        vec![
            Agent::Codex,
            Agent::Opencode,
            Agent::Openclaw,
            Agent::Copilot,
            Agent::QwenCode,
            Agent::Gemini
        ]
    );
    for (agent, plan) in plans {
        let plan = plan.unwrap();
        assert_eq!(plan.after_state.state, AgentState::Off, "{agent}");
        assert!(!plan.diff.is_empty(), "{agent}");
    }
    // An agent that is not installed here gets nothing written for it.
    std::fs::remove_dir_all(f.home.join(".codex")).unwrap();
    let (sw, _) = f.load();
    let plans = sw.plan_readers(&f.agents_skill("pdf"), SwitchScope::User, false);
    let codex = plans.iter().find(|(a, _)| *a == Agent::Codex).unwrap();
    assert!(
        matches!(&codex.1, Err(ToggleError::NotInstalled { .. })),
        "{:?}",
        codex.1
    );
}

#[test]
fn settings_of_an_unexpected_shape_are_refused_not_replaced() {
    let f = fixture();
    let settings = f.home.join(".claude/settings.json");
    write(&settings, "{\"skillOverrides\": [\"pdf\"]}\n");
    let opencode = f.home.join(".config/opencode/opencode.json");
    write(&opencode, "{\"permission\": {\"skill\": 3}}\n");
    let (sw, diags) = f.load();
    assert_eq!(diags.len(), 2, "{diags:?}");
    let err = sw
        .plan(
            &f.claude_skill("pdf"),
            Agent::ClaudeCode,
            SwitchScope::User,
            false,
        )
        .unwrap_err();
    assert!(matches!(err, ToggleError::Shape { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("`skillOverrides` is not an object"),
        "{err}"
    );
    let err = sw
        .plan(
            &f.claude_skill("pdf"),
            Agent::Opencode,
            SwitchScope::User,
            false,
        )
        .unwrap_err();
    assert!(
        err.to_string().contains("`permission.skill` is neither"),
        "{err}"
    );
    let toml = f.home.join(".codex/config.toml");
    write(&toml, "skills = 3\n");
    let (sw, _) = f.load();
    let err = sw
        .plan(
            &f.agents_skill("pdf"),
            Agent::Codex,
            SwitchScope::User,
            false,
        )
        .unwrap_err();
    assert!(err.to_string().contains("`skills` is not a table"), "{err}");
}

fn named(dir: &Path, name: &str) -> Skill {
    let mut s = skill(dir);
    s.name = name.to_string();
    s
}

#[test]
fn opencode_refuses_a_name_it_would_read_as_a_pattern() {
    let f = fixture();
    let config = f.home.join(".config/opencode/opencode.json");
    let original = "{\n  \"permission\": {\"skill\": {\"pdf\": \"allow\"}}\n}\n";
    write(&config, original);
    let (sw, _) = f.load();
    for name in ["*", "pdf*", "p?f", "a\\b", "~/x"] {
        let star = named(&f.home.join(".agents/skills/odd"), name);
        let err = sw
            .plan(&star, Agent::Opencode, SwitchScope::User, false)
            .unwrap_err();
        assert!(matches!(err, ToggleError::Name { .. }), "{name}: {err}");
        assert!(err.to_string().contains("opencode"), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&config).unwrap(), original);
}

#[test]
fn opencode_brackets_and_braces_are_literal_and_touch_no_other_skill() {
    let f = fixture();
    let (sw, _) = f.load();
    let odd = named(&f.home.join(".agents/skills/odd"), "[a]{b}");
    let plan = sw
        .plan(&odd, Agent::Opencode, SwitchScope::User, false)
        .unwrap();
    assert!(
        plan.after.contains("\"[a]{b}\": \"deny\""),
        "{}",
        plan.after
    );
    let after = sw.with_text(&plan.file, &plan.after);
    assert_eq!(
        after.effective(&odd, Agent::Opencode).state,
        AgentState::Off
    );
    for other in ["a", "b", "ab", "[a]", "pdf"] {
        let s = named(&f.home.join(".agents/skills").join(other), other);
        assert_eq!(
            after.effective(&s, Agent::Opencode).state,
            AgentState::On,
            "{other}"
        );
    }
}

#[test]
fn opencode_integer_like_names_are_evaluated_first_as_opencode_does() {
    let f = fixture();
    write(
        &f.home.join(".config/opencode/opencode.json"),
        "{\"permission\": {\"skill\": {\"*\": \"allow\"}}}\n",
    );
    let (sw, _) = f.load();
    let n42 = named(&f.home.join(".agents/skills/n42"), "42");
    let plan = sw
        .plan(&n42, Agent::Opencode, SwitchScope::User, false)
        .unwrap();
    // `"42": "deny"` written after `"*"` is still read before it: the catch-all wins.
    assert_eq!(plan.after_state.state, AgentState::On, "{}", plan.after);
    let note = plan.note.unwrap_or_default();
    assert!(note.contains("still treat it as on"), "{note}");
}

#[test]
fn claude_and_codex_write_the_name_as_data_and_touch_no_other_skill() {
    let f = fixture();
    let (sw, _) = f.load();
    let pdf = f.claude_skill("pdf");
    for name in ["*", "pdf*", "we\"ird\\name", "[x]"] {
        let odd = named(&f.home.join(".claude/skills/odd"), name);
        let plan = sw
            .plan(&odd, Agent::ClaudeCode, SwitchScope::User, false)
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&plan.after).unwrap();
        assert_eq!(v["skillOverrides"][name], "off", "{}", plan.after);
        assert_eq!(v["skillOverrides"].as_object().unwrap().len(), 1);
        let after = sw.with_text(&plan.file, &plan.after);
        assert_eq!(
            after.effective(&odd, Agent::ClaudeCode).state,
            AgentState::Off
        );
        assert_eq!(
            after.effective(&pdf, Agent::ClaudeCode).state,
            AgentState::On,
            "{name} switched pdf off"
        );

        let odd = named(&f.home.join(".agents/skills/odd"), name);
        let plan = sw
            .plan(&odd, Agent::Codex, SwitchScope::User, false)
            .unwrap();
        // Codex entries name the skill by its SKILL.md path, never by a pattern.
        let doc: toml_edit::DocumentMut = plan.after.parse().unwrap();
        let entries = doc["skills"]["config"].as_array_of_tables().unwrap();
        assert_eq!(entries.len(), 1);
        assert!(
            entries.get(0).unwrap().get("name").is_none(),
            "{}",
            plan.after
        );
        let after = sw.with_text(&plan.file, &plan.after);
        assert_eq!(after.effective(&odd, Agent::Codex).state, AgentState::Off);
        let agents_pdf = f.agents_skill("pdf");
        assert_eq!(
            after.effective(&agents_pdf, Agent::Codex).state,
            AgentState::On,
            "{name} switched pdf off"
        );
    }
}

/// An agent that exists only in this test: skills in `.gemini/skills`, switched off by listing
/// their names, one a line, in `~/.gemini/skills-off`.
#[derive(Debug)]
struct FakeGemini;

#[derive(Debug)]
struct OffList(Vec<(String, PathBuf)>);

impl SkillSwitches for OffList {
    fn effective(&self, skill: &Skill, _paths: &PathCache) -> Effective {
        match self.0.iter().rev().find(|(n, _)| *n == skill.name) {
            Some((n, file)) => Effective {
                state: AgentState::Off,
                source: format!("skills-off: {n}"),
                file: Some(file.clone()),
            },
            None => Effective::default_on(),
        }
    }
}

impl AgentPlugin for FakeGemini {
    fn id(&self) -> Agent {
        Agent::Gemini
    }
    fn display_name(&self) -> &'static str {
        "Gemini CLI"
    }
    fn badge_letter(&self) -> char {
        'G'
    }
    fn skill_folders(&self) -> &'static [&'static [&'static str]] {
        &[&[".gemini", "skills"]]
    }
    fn settings_paths(&self, home: &Path, _project: Option<&Path>) -> Vec<(SwitchScope, PathBuf)> {
        vec![(SwitchScope::User, home.join(".gemini/skills-off"))]
    }
    fn unsupported_scope(&self, scope: SwitchScope) -> Option<&'static str> {
        (scope != SwitchScope::User).then_some("only the user's list")
    }
    fn read(
        &self,
        files: &[SettingsText<'_>],
        _home: &Path,
        _diags: &mut Vec<Diagnostic>,
    ) -> Box<dyn SkillSwitches> {
        Box::new(OffList(
            files
                .iter()
                .flat_map(|f| {
                    f.text
                        .lines()
                        .map(|l| (l.trim().to_string(), f.path.to_path_buf()))
                })
                .filter(|(n, _)| !n.is_empty())
                .collect(),
        ))
    }
    fn candidates(
        &self,
        _file: &Path,
        before: &str,
        skill: &Skill,
        on: bool,
        _home: &Path,
    ) -> Result<Vec<String>, ToggleError> {
        let mut lines: Vec<&str> = before.lines().filter(|l| l.trim() != skill.name).collect();
        if !on {
            lines.push(&skill.name);
        }
        Ok(vec![lines.iter().map(|l| format!("{l}\n")).collect()])
    }
}

static WITH_GEMINI: Registry = &[&claude::switches::ClaudeCode, &FakeGemini];

#[test]
fn an_agent_registered_in_a_registry_is_read_shown_and_switched() {
    let f = fixture();
    write(&f.home.join(".gemini/skills-off"), "docx\n");
    let (sw, diags) = AgentSwitches::load_with(WITH_GEMINI, &f.home, Some(&f.project));
    assert!(diags.is_empty(), "{diags:?}");
    let pdf = skill(&f.home.join(".gemini/skills/pdf"));
    let docx = skill(&f.home.join(".gemini/skills/docx"));
    // Who reads the folder and what each agent of the registry does with the skill.
    assert_eq!(sw.readers(&pdf), vec![Agent::Gemini]);
    let got: Vec<_> = sw
        .badges(&docx)
        .iter()
        .map(|b| (b.agent, b.reads, b.effective.state))
        .collect();
    assert_eq!(
        got,
        vec![
            (Agent::ClaudeCode, false, AgentState::On),
            (Agent::Gemini, true, AgentState::Off),
        ]
    );
    assert_eq!(
        sw.effective(&docx, Agent::Gemini).source,
        "skills-off: docx"
    );
    // Agents outside the registry have no switches.
    assert!(
        sw.plan(&pdf, Agent::Codex, SwitchScope::User, false)
            .is_err()
    );
    assert!(matches!(
        sw.plan(&pdf, Agent::Gemini, SwitchScope::Project, false),
        Err(ToggleError::Unsupported {
            why: "only the user's list",
            ..
        })
    ));
    // A toggle through the registry: planned, written under the lock, read back.
    let plan = sw
        .plan(&pdf, Agent::Gemini, SwitchScope::User, false)
        .unwrap();
    assert_eq!(plan.after, "docx\npdf\n");
    assert_eq!(plan.after_state.state, AgentState::Off);
    let (_, applied) = sw.apply(&pdf, &plan).unwrap();
    assert!(applied.written);
    let (sw, _) = AgentSwitches::load_with(WITH_GEMINI, &f.home, Some(&f.project));
    assert_eq!(sw.effective(&pdf, Agent::Gemini).state, AgentState::Off);
    // The legend and the badge letters come from the registry too.
    assert_eq!(legend(WITH_GEMINI), "C Claude Code, G Gemini CLI");
    assert_eq!(
        legend(REGISTRY),
        "C Claude Code, X Codex, O opencode, W OpenClaw, H GitHub Copilot CLI, Q Qwen Code, G Gemini CLI"
    );
    assert_eq!(
        sw.plugin(Agent::Gemini)
            .map(super::plugin::AgentPlugin::badge_letter),
        Some('G')
    );
}

#[test]
fn claude_codes_overrides_know_a_skill_by_its_folder_not_its_frontmatter_name() {
    let f = fixture();
    write(
        &f.home.join(".claude/settings.json"),
        r#"{"skillOverrides": {"folder-x": "off", "other-y": "off"}}"#,
    );
    let (sw, _) = f.load();
    // `folder-x/SKILL.md` says `name: other-x`: the folder's entry switches it off.
    let mut x = f.claude_skill("folder-x");
    x.name = "other-x".to_string();
    assert_eq!(sw.effective(&x, Agent::ClaudeCode).state, AgentState::Off);
    // `folder-y/SKILL.md` says `name: other-y`: an entry under the frontmatter name does nothing.
    let mut y = f.claude_skill("folder-y");
    y.name = "other-y".to_string();
    assert_eq!(sw.effective(&y, Agent::ClaudeCode).state, AgentState::On);
    // Switching it writes the folder's name.
    let plan = sw
        .plan(&y, Agent::ClaudeCode, SwitchScope::User, false)
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&plan.after).unwrap();
    assert_eq!(v["skillOverrides"]["folder-y"], "off", "{}", plan.after);
}
