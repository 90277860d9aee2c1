//! The tool through which GitHub Copilot CLI 1.0.102 loads a skill, as the client declares it to
//! an OpenAI-compatible model (`tests/fixtures/agents/copilot@1.0.102/*/tool.json`): compact
//! JSON, keys in the client's order; fixed text.

use serde_json::json;

/// GitHub Copilot CLI's `skill` tool: fixed text, naming no skill.
pub fn copilot_skill_tool() -> String {
    json!({
        "type": "function",
        "function": {
            "name": "skill",
            "description": "Load a skill into the main conversation\n\n<skills_instructions>\nBefore acting on a task, check current or previously listed <available_skills>. If a skill matches, invoking it is mandatory and must be your first action, before any response; never merely announce it.\n\nCall this tool with only the skill name (for example `skill: \"pdf\"` or `skill: \"xlsx\"`). Use only listed skills unless the user explicitly requests an unlisted skill by name, in which case invoke it. Do not reinvoke a running skill or use this tool for built-in CLI commands such as /help or /clear.\n</skills_instructions>",
            "parameters": {
                "type": "object",
                "properties": {
                    "skill": {
                        "type": "string",
                        "description": "The skill name to invoke. E.g., \"pdf\" or \"code-reviewer\""
                    }
                },
                "required": ["skill"]
            }
        }
    })
    .to_string()
}
