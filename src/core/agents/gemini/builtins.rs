//! The built-in entries of Gemini CLI 0.61.0, as its listing holds them (captured:
//! `tests/fixtures/agents/gemini-cli@0.61.0/mixed/listing.txt`). Data of the model, nothing else
//! of the client.

use crate::core::listing::BuiltinEntry;

/// Gemini CLI's skills in its `bundle/builtin` folder, in the order it lists them, before the
/// library's; their locations are below the folder it is installed in.
pub static GEMINI_BUILTINS: &[BuiltinEntry] = &[
    BuiltinEntry {
        name: "skill-creator",
        description: "Guide for creating effective skills. This skill should be used when users want to create a new skill (or update an existing skill) that extends Gemini CLI's capabilities with specialized knowledge, workflows, or tool integrations.",
        fixed: true,
        location: "{CLIENT}/node_modules/@google/gemini-cli/bundle/builtin/skill-creator/SKILL.md",
    },
    BuiltinEntry {
        name: "antigravity-support",
        description: "Use when the user asks questions, seeks help, or requests instructions related to installing, setting up, or migrating to Antigravity CLI. This skill provides the latest up to date details, requirements, and commands sourced from the official Antigravity CLI documentation.",
        fixed: true,
        location: "{CLIENT}/node_modules/@google/gemini-cli/bundle/builtin/antigravity-support/SKILL.md",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_locations_are_below_the_client_folder() {
        for b in GEMINI_BUILTINS {
            let rest = b
                .location
                .strip_prefix(crate::core::listing::CLIENT_DIR)
                .unwrap();
            assert!(
                rest.ends_with(&format!("/builtin/{}/SKILL.md", b.name)),
                "{rest}"
            );
        }
    }
}
