//! opencode 1.18.33's `skill` tool as the client declares it (captured:
//! `tests/fixtures/agents/opencode@1.18.33/*/tool.json`).

use serde_json::json;

/// opencode's `skill` tool as sent to an Anthropic model, compact JSON: fixed text, naming no
/// skill.
pub fn skill_tool() -> String {
    json!({
        "name": "skill",
        "description": "Load a specialized skill when the task at hand matches one of the skills listed in the system prompt.\n\nUse this tool to inject the skill's instructions and resources into current conversation. The output may contain detailed workflow guidance as well as references to scripts, files, etc in the same directory as the skill.\n\nThe skill name must match one of the skills listed in your system prompt.\n",
        "input_schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "description": "The name of the skill from available_skills"
                }
            },
            "required": ["name"]
        },
        "eager_input_streaming": true
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::tools::testing::sent;
    use crate::core::source::Agent;

    #[test]
    fn opencodes_skill_tool_is_fixed_text_as_captured() {
        for case in ["mixed", "budget150"] {
            assert_eq!(skill_tool(), sent("opencode@1.18.33", case), "{case}");
        }
        assert_eq!(skill_tool().chars().count(), 676);
        assert_eq!(
            crate::core::agents::tools::definition(Agent::Opencode, &[], None).map(|d| d.name),
            Some("skill")
        );
        assert_eq!(
            crate::core::agents::tools::definition(Agent::Codex, &[], None),
            None
        );
    }
}
