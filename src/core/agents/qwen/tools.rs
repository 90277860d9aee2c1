//! The tools through which Qwen Code 0.24.4, GitHub Copilot CLI 1.0.102, Cline 3.0.65 and
//! OpenClaw 2026.9.6 load a skill, as each client declares it to an OpenAI-compatible model
//! (`tests/fixtures/agents/<client>@<version>/*/tool.json`, `NEW-AGENTS.md`): compact JSON, keys
//! in the client's order. Qwen Code's and Copilot's `skill` are fixed text; Cline's `skills` ends
//! its description with the listing itself; OpenClaw has no skill tool, its model `read`s the
//! SKILL.md, so its `read` tool is what a skill costs it every turn.

use serde_json::json;

/// Qwen Code's `skill` tool (`SKILL_TOOL_DESCRIPTION`, `SkillTool`): fixed text, naming no skill.
pub fn qwen_code_skill_tool() -> String {
    json!({
        "type": "function",
        "function": {
            "name": "skill",
            "description": QWEN_DESCRIPTION,
            "parameters": {
                "type": "object",
                "properties": {
                    "skill": {
                        "type": "string",
                        "description": "The skill or command name. E.g., \"pdf\" or \"xlsx\""
                    },
                    "args": {
                        "type": "string",
                        "description": "Optional arguments for model-invocable slash commands."
                    }
                },
                "required": ["skill"]
            }
        }
    })
    .to_string()
}

const QWEN_DESCRIPTION: &str = "Execute a skill within the main conversation\n\n<skills_instructions>\nWhen users ask you to perform tasks, check if any of the available skills can help complete the task more effectively. Skills provide specialized capabilities and domain knowledge.\n\nHow to invoke:\n- Use this tool with the skill name only (no arguments)\n- Name the skill exactly as it appears in the available-skills listing; do not shorten or guess a spelling.\n- Examples:\n  - `skill: \"pdf\"` - invoke the pdf skill\n  - `skill: \"xlsx\"` - invoke the xlsx skill\n  - `skill: \"ms-office-suite:pdf\"` - invoke the pdf skill owned by the ms-office-suite extension\n  - `skill: \"mcp-prompt\", args: \"topic\"` - invoke a model-invocable command with arguments\n\nImportant:\n- Available skills are listed in <system-reminder> messages in the conversation; only use skills listed there.\n- A skill provided by an extension is registered as `<extensionName>:<skillName>` (e.g. `ms-office-suite:pdf`), so two extensions offering the same authored name are two different skills. Personal, project, and bundled skills keep the single name their author wrote and are never prefixed.\n- When a skill is relevant, you must invoke this tool IMMEDIATELY as your first action\n- NEVER just announce or mention a skill in your text response without actually calling this tool\n- This is a BLOCKING REQUIREMENT: invoke the relevant Skill tool BEFORE generating any other response about the task\n- Do not invoke a skill that is already running\n- Do not use this tool for built-in CLI commands (like /help, /clear, etc.)\n- When executing scripts or loading referenced files, ALWAYS resolve absolute paths from skill's base directory. Examples:\n  - `bash scripts/init.sh` -> `bash /path/to/skill/scripts/init.sh`\n  - `python scripts/helper.py` -> `python /path/to/skill/scripts/helper.py`\n  - `reference.md` -> `/path/to/skill/reference.md`\n</skills_instructions>";

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

/// OpenClaw's `read` tool, through which its model loads a skill: fixed text.
pub fn openclaw_read_tool() -> String {
    json!({
        "type": "function",
        "function": {
            "name": "read",
            "description": "Read text/image file (jpg/png/gif/webp/bmp); images attach to model context. Text caps 2000 lines or 50KB. Continue with offset/limit, or cursor within a long line.",
            "parameters": {
                "type": "object",
                "required": ["path"],
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "File path; relative/absolute."
                    },
                    "offset": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "Start line; 1-based."
                    },
                    "limit": {
                        "type": "number",
                        "description": "Max lines."
                    },
                    "cursor": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "Character position within the start line; 0-based."
                    },
                    "optional": {
                        "type": "boolean",
                        "const": true,
                        "description": "Missing paths return structured not_found instead of failing."
                    }
                }
            }
        }
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn capture(client: &str, case: &str, file: &str) -> String {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/agents")
            .join(client)
            .join(case)
            .join(file);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// A captured tool as the client sent it: compact JSON, keys in their order.
    fn sent(client: &str, case: &str) -> String {
        let v: serde_json::Value =
            serde_json::from_str(&capture(client, case, "tool.json")).unwrap();
        v.to_string()
    }

    const CASES: [&str; 3] = ["mixed", "folders", "budget"];

    #[test]
    fn the_fixed_tools_are_the_captured_ones_in_every_case() {
        for case in CASES {
            assert_eq!(
                qwen_code_skill_tool(),
                sent("qwen-code@0.24.4", case),
                "{case}"
            );
            assert_eq!(
                copilot_skill_tool(),
                sent("copilot@1.0.102", case),
                "{case}"
            );
            assert_eq!(
                openclaw_read_tool(),
                sent("openclaw@2026.9.6", case),
                "{case}"
            );
        }
        assert_eq!(qwen_code_skill_tool().chars().count(), 2_253);
        assert_eq!(copilot_skill_tool().chars().count(), 833);
        assert_eq!(openclaw_read_tool().chars().count(), 722);
    }

    #[test]
    fn clines_tool_ends_with_each_captured_listing() {
        for (case, chars) in [("mixed", 1_405), ("folders", 1_049), ("budget", 3_325)] {
            let listing = capture("cline@3.0.65", case, "listing.txt");
            let got = cline_skills_tool(&listing);
            assert_eq!(got, sent("cline@3.0.65", case), "{case}");
            assert_eq!(got.chars().count(), chars, "{case}");
        }
        assert!(!cline_skills_tool("").contains("Available skills"));
    }
}
