//! What OpenClaw 2026.9.6 adds to the conversation when its model reads a skill's file.

use crate::core::agents::loading::Block;
use crate::core::skill::Skill;

/// OpenClaw 2026.9.6 has no skill tool: the model `read`s the SKILL.md at its listed location,
/// and the result is the whole file, frontmatter included.
pub fn blocks(skill: &Skill) -> Vec<Block> {
    let text = crate::core::files::fsx::read_regular_up_to(&skill.skill_md, 64 << 20)
        .ok()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    vec![Block::new("tool", "tool_result", text)]
}
