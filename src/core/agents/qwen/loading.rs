//! What Qwen Code 0.24.4's `skill` tool adds to the conversation when its model calls a skill
//! (captured: `tests/fixtures/agents/qwen-code@0.24.4/*/inject-*.txt`).

use crate::core::agents::loading::Block;
use crate::core::library::{LibraryError, read_body};
use crate::core::skill::Skill;

/// Qwen Code 0.24.4's `skill` tool result (`buildSkillLlmContent`): the base directory, the line
/// telling the model to resolve paths from it, then the body after the frontmatter, trimmed.
pub fn blocks(skill: &Skill) -> Result<Vec<Block>, LibraryError> {
    let body = read_body(skill)?;
    Ok(vec![Block::new(
        "tool",
        "tool_result",
        text(
            &crate::core::files::paths::absolute(&skill.dir)
                .display()
                .to_string(),
            &body,
        ),
    )])
}

fn text(dir: &str, body: &str) -> String {
    format!(
        "Base directory for this skill: {dir}\nImportant: ALWAYS resolve absolute paths from this base directory when working with skills.\n\n{}\n",
        body.trim()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::agents::tools::testing::{WITH_RESOURCES_BODY as BODY, fixture as capture};

    #[test]
    fn qwen_code_injects_its_base_directory_lines_and_the_body() {
        assert_eq!(
            text("{HOME}/.qwen/skills/with-resources", BODY),
            capture("qwen-code@0.24.4/mixed/inject-with-resources.txt")
        );
    }
}
