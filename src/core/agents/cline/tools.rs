//! The tool through which Cline 3.0.65 loads a skill, as the client declares it to an
//! OpenAI-compatible model (`tests/fixtures/agents/cline@3.0.65/*/tool.json`): compact JSON,
//! keys in the client's order; its `skills` ends its description with the listing itself.

use serde_json::json;

/// What Cline's `skills` tool says before its listing.
const CLINE_DESCRIPTION: &str = "Execute a skill within the main conversation. When users ask you to perform tasks, check if any available skills match. When users reference a slash command, invoke it with this tool. Input: `skill` (required) and optional `args`. Example: `skill: \"pdf\"`, `skill: \"commit\", args: \"-m \\\"Fix bug\\\"\"`, `skill: \"review-pr\", args: \"123\"`, `skill: \"ms-office-suite:pdf\"`. When a skill matches the user's request, invoking this tool is a blocking requirement before any other response. Never mention a skill without invoking this tool.";

/// Cline's `skills` tool with `listing` (its format's text, `Available skills: a, b.`) closing
/// its description, a space after the fixed text. With nothing listed the fixed text stands
/// alone (not captured).
pub fn cline_skills_tool(listing: &str) -> String {
    let description = if listing.is_empty() {
        CLINE_DESCRIPTION.to_string()
    } else {
        format!("{CLINE_DESCRIPTION} {listing}")
    };
    json!({
        "type": "function",
        "function": {
            "name": "skills",
            "description": description,
            "parameters": {
                "type": "object",
                "properties": {
                    "skill": {
                        "type": "string",
                        "minLength": 1,
                        "description": "Name of the skill to execute."
                    },
                    "args": {
                        "description": "Arguments for the skill; use null when omitted",
                        "anyOf": [{"type": "string"}, {"type": "null"}]
                    }
                },
                "required": ["skill"],
                "additionalProperties": false
            }
        }
    })
    .to_string()
}
