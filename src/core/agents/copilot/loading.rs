//! What GitHub Copilot CLI 1.0.102's `skill` tool adds to the conversation when its model calls
//! a skill, and what it answers for one it does not offer (captured:
//! `tests/fixtures/agents/copilot@1.0.102/*/inject-*`).

use crate::core::agents::loading::Block;
use crate::core::library::{LibraryError, read_body};
use crate::core::skill::Skill;

/// GitHub Copilot CLI 1.0.102's `skill` tool: a result saying the skill loaded, then a user
/// message `<skill-context>` with the base directory, every other file of the skill (sorted,
/// absolute) and the body after the frontmatter.
pub fn blocks(skill: &Skill) -> Result<Vec<Block>, LibraryError> {
    let body = read_body(skill)?;
    let dir = crate::core::files::paths::absolute(&skill.dir)
        .display()
        .to_string();
    let mut files: Vec<String> = skill
        .resources
        .iter()
        .map(|r| format!("{dir}/{}", r.rel))
        .collect();
    files.sort();
    Ok(context_blocks(
        skill.frontmatter.name.as_deref().unwrap_or(&skill.name),
        &dir,
        &files,
        &body,
    ))
}

/// GitHub Copilot CLI's `skill` tool result for a name it does not offer (a skill its own
/// switch turned off among them): the name, and every name its listing offers, in listing order
/// (`copilot@1.0.102/switch-off/inject-switch-off.txt`).
pub fn not_found(name: &str, offered: &[String]) -> String {
    format!(
        "Skill \"{name}\" not found. Available skills: {}",
        offered.join(", ")
    )
}

fn context_blocks(name: &str, dir: &str, files: &[String], body: &str) -> Vec<Block> {
    let mut ctx =
        format!("<skill-context name=\"{name}\">\nBase directory for this skill: {dir}\n\n");
    if !files.is_empty() {
        ctx.push_str("Related files (use view tool to read):\n");
        for f in files {
            ctx.push_str(&format!("  - {f}\n"));
        }
        ctx.push('\n');
    }
    ctx.push_str(body.trim());
    ctx.push_str("\n\n</skill-context>");
    vec![
        Block::new(
            "tool",
            "tool_result",
            format!(
                "Skill \"{name}\" loaded successfully. Follow the instructions in the skill context."
            ),
        ),
        Block::new("user", "text", ctx),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::agents::tools::testing::{WITH_RESOURCES_BODY as BODY, fixture as capture};

    #[test]
    fn copilot_injects_a_result_and_a_skill_context_with_the_files() {
        let dir = "{HOME}/.copilot/skills/with-resources";
        let files: Vec<String> = [
            "assets/template.txt",
            "references/guide.md",
            "scripts/run.sh",
        ]
        .iter()
        .map(|f| format!("{dir}/{f}"))
        .collect();
        let blocks = context_blocks("with-resources", dir, &files, BODY);
        assert_eq!(
            blocks[0].text,
            capture("copilot@1.0.102/mixed/inject-with-resources.txt")
        );
        let after: serde_json::Value = serde_json::from_str(&capture(
            "copilot@1.0.102/mixed/inject-with-resources.after.json",
        ))
        .unwrap();
        assert_eq!(after[0]["content"].as_str(), Some(blocks[1].text.as_str()));
    }
}
