//! The tool through which GitHub Copilot CLI 1.0.102 (and 1.0.83, worded otherwise) loads a skill, as the client declares it to
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

/// GitHub Copilot CLI 1.0.83's `skill` tool (`tests/fixtures/agents/copilot@1.0.83/*/tool.json`):
/// the same parameters, its description worded otherwise (1.0.92 words it as 1.0.102).
pub fn copilot_1_0_83_skill_tool() -> String {
    json!({
        "type": "function",
        "function": {
            "name": "skill",
            "description": "Execute a skill within the main conversation\n\n<skills_instructions>\nWhen users ask you to perform tasks, check if any of the <available_skills> can help complete the task more effectively.\n\nHow to invoke:\n- Use this tool with the skill name only (no arguments)\n- Examples:\n  - skill: \"pdf\" - invoke the pdf skill\n  - skill: \"xlsx\" - invoke the xlsx skill\n\nImportant:\n- Available skills are listed in <available_skills> blocks in the conversation.\n- When a skill is relevant, you must invoke this tool IMMEDIATELY as your first action\n- When a skill matches the user's request, this is a BLOCKING REQUIREMENT: invoke the relevant Skill tool BEFORE generating any other response about the task\n- NEVER just announce or mention a skill in your text response without actually calling this tool\n- Only use skills from <available_skills> blocks unless the user explicitly requests a skill by name. Previously listed skills remain available.\n- If the user explicitly asks to invoke a skill by name that is not listed, invoke it anyway\n- Do not invoke a skill that is already running\n- Do not use this tool for built-in CLI commands (like /help, /clear, etc.)\n</skills_instructions>",
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
