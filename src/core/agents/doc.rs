//! docs/agents.md's table of every agent, made from the models (`models()`, their clients and the
//! switches' registry) so that it cannot say something the code does not do. A test compares the
//! file with it; `SKILLSCOPE_WRITE_DOCS=1 cargo test --lib agents_doc` writes it again.

use super::model::{AgentModel, EnableDefault, Injection, models};
use super::switches::REGISTRY;
use crate::core::listing::BudgetUnit;
use std::path::Path;

/// The marker before the table in docs/agents.md.
pub const BEGIN: &str =
    "<!-- agents:table (generated from src/core/agents/model.rs; do not edit) -->";
/// The marker after it.
pub const END: &str = "<!-- /agents:table -->";

/// The table, one row per agent in `models()`' order.
pub fn table() -> String {
    let mut out = String::from(
        "| agent (`--agent`) | verified against | folders it reads | listing format | listing budget | \
         client's own entries | a used skill reaches the model as | its own switches | skills on unless | profile |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for m in models() {
        out.push_str(&row(m));
        out.push('\n');
    }
    out
}

fn row(m: &AgentModel) -> String {
    let verified = match m.client {
        Some(c) => format!("{} **{}** (captures)", m.name, c.version),
        None => format!("not verified; follows {}", m.source),
    };
    let folders = m
        .folders
        .iter()
        .map(|f| format!("`{}`", f.join("/")))
        .collect::<Vec<_>>()
        .join(", ");
    let builtins = m.client.map_or(0, |c| c.builtins.len());
    let cells = [
        format!("{} (`{}`)", m.name, m.agent.shown()),
        verified,
        folders,
        format!("`{}`", m.format.as_str()),
        budget(m),
        builtins.to_string(),
        injection(m.injection).to_string(),
        switches(m),
        match m.enable_default {
            EnableDefault::OptOut => "switched off".to_string(),
            EnableDefault::OptIn => "`auto_load: true` opts in".to_string(),
        },
        format!("`{}`", m.profile.as_str()),
    ];
    format!("| {} |", cells.join(" | "))
}

/// The listing's budget as the client sets it on its default model.
fn budget(m: &AgentModel) -> String {
    let model = m.client.and_then(super::client::Client::default_model);
    let (window, cpt, on) = model.map_or(
        (0, crate::core::listing::CHARS_PER_TOKEN, String::new()),
        |d| {
            (
                d.context_window,
                d.chars_per_token,
                format!(" ({})", d.name),
            )
        },
    );
    let Some(b) = m.format.budget_at(window, cpt) else {
        return "none".to_string();
    };
    let share = m
        .format
        .budget_percent()
        .map_or(String::new(), |p| format!("{p} % of the window: "));
    let unit = match b.unit {
        BudgetUnit::Chars => "characters",
        BudgetUnit::Tokens => "tokens",
    };
    format!(
        "{share}{} {unit}{on}",
        crate::core::words::text::thousands(b.limit as u64)
    )
}

fn injection(i: Injection) -> &'static str {
    match i {
        Injection::SkillTool => "its Skill tool's result",
        Injection::ActivateSkill => "`activate_skill`'s response",
        Injection::SkillContent => "its `skill` tool's `<skill_content>`",
        Injection::ReadFile => "the model reading SKILL.md",
        Injection::SkillLoaded => "a `# SKILL LOADED` system message",
        Injection::AvailableSkills => "an `## Available Skills` block (≤ 3)",
    }
}

/// The settings files its switches live in, as `toggle --agent` writes them.
fn switches(m: &AgentModel) -> String {
    let Some(p) = REGISTRY.iter().find(|p| p.id() == m.agent) else {
        return match (m.enable_default, m.agent.home().read_only_switch) {
            // Design 000 has no settings file: `toggle` writes the skill's own `auto_load`.
            (EnableDefault::OptIn, _) => "`auto_load` in each skill's SKILL.md".to_string(),
            (_, Some(switch)) => format!("{switch} in each skill's SKILL.md (read, not written)"),
            (_, None) => "none".to_string(),
        };
    };
    p.settings_paths(Path::new("~"), Some(Path::new(".")))
        .iter()
        .map(|(_, path)| format!("`{}`", path.display()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_doc_matches_the_models() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/agents.md");
        let have = std::fs::read_to_string(&path).unwrap();
        let (Some(b), Some(e)) = (have.find(BEGIN), have.find(END)) else {
            panic!("docs/agents.md lacks the {BEGIN} … {END} markers");
        };
        let want = format!("{}{BEGIN}\n{}{}", &have[..b], table(), &have[e..]);
        if std::env::var_os("SKILLSCOPE_WRITE_DOCS").is_some() {
            std::fs::write(&path, &want).unwrap();
            return;
        }
        assert!(
            have == want,
            "docs/agents.md's agent table differs from the models: regenerate it with \
             `SKILLSCOPE_WRITE_DOCS=1 cargo test --lib agents_doc`"
        );
    }

    #[test]
    fn every_agent_has_a_row_naming_its_verified_version() {
        let t = table();
        for m in models() {
            let line = t
                .lines()
                .find(|l| l.contains(&format!("(`{}`)", m.agent.shown())))
                .unwrap_or_else(|| panic!("no row for {}", m.agent.shown()));
            if let Some(c) = m.client {
                assert!(line.contains(c.version), "{line}");
            } else {
                assert!(line.contains("not verified"), "{line}");
            }
        }
    }
}
