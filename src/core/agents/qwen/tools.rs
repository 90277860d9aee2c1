//! The tool through which Qwen Code 0.24.4 loads a skill, as the client declares it to an
//! OpenAI-compatible model (`tests/fixtures/agents/qwen-code@0.24.4/*/tool.json`,
//! `NEW-AGENTS.md`): compact JSON, keys in the client's order; fixed text.

use serde_json::json;

/// Qwen Code's `skill` tool (`SKILL_TOOL_DESCRIPTION`, `SkillTool`): fixed text, naming no skill.
pub fn qwen_code_skill_tool() -> String {
    skill_tool(QWEN_DESCRIPTION)
}

/// The `skill` tool of Qwen Code before 0.24 (0.21.10 and 0.23.0 send the same text).
pub fn qwen_code_0_21_skill_tool() -> String {
    skill_tool(QWEN_0_21_DESCRIPTION)
}

fn skill_tool(description: &str) -> String {
    json!({
        "type": "function",
        "function": {
            "name": "skill",
            "description": description,
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

const QWEN_0_21_DESCRIPTION: &str = "Execute a skill within the main conversation\n\n<skills_instructions>\nWhen users ask you to perform tasks, check if any of the available skills can help complete the task more effectively. Skills provide specialized capabilities and domain knowledge.\n\nHow to invoke:\n- Use this tool with the skill name only (no arguments)\n- Examples:\n  - `skill: \"pdf\"` - invoke the pdf skill\n  - `skill: \"xlsx\"` - invoke the xlsx skill\n  - `skill: \"ms-office-suite:pdf\"` - invoke using fully qualified name\n  - `skill: \"mcp-prompt\", args: \"topic\"` - invoke a model-invocable command with arguments\n\nImportant:\n- Available skills are listed in <system-reminder> messages in the conversation; only use skills listed there.\n- When a skill is relevant, you must invoke this tool IMMEDIATELY as your first action\n- NEVER just announce or mention a skill in your text response without actually calling this tool\n- This is a BLOCKING REQUIREMENT: invoke the relevant Skill tool BEFORE generating any other response about the task\n- Do not invoke a skill that is already running\n- Do not use this tool for built-in CLI commands (like /help, /clear, etc.)\n- When executing scripts or loading referenced files, ALWAYS resolve absolute paths from skill's base directory. Examples:\n  - `bash scripts/init.sh` -> `bash /path/to/skill/scripts/init.sh`\n  - `python scripts/helper.py` -> `python /path/to/skill/scripts/helper.py`\n  - `reference.md` -> `/path/to/skill/reference.md`\n</skills_instructions>";

/// The four newer clients' tools against their captures, side by side.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::cline::tools::cline_skills_tool;
    use crate::core::agents::copilot::tools::copilot_skill_tool;
    use crate::core::agents::openclaw::tools::openclaw_read_tool;
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
        // Qwen Code before 0.24 (0.21.10, 0.23.0), in every case of the four.
        for v in ["0.21.10", "0.23.0"] {
            for case in ["mixed", "folders", "budget", "wide"] {
                let dir = format!("qwen-code@{v}");
                assert_eq!(
                    qwen_code_0_21_skill_tool(),
                    sent(&dir, case),
                    "{dir}/{case}"
                );
            }
        }
        assert_ne!(qwen_code_0_21_skill_tool(), qwen_code_skill_tool());
        for case in ["mixed", "folders", "budget", "wide"] {
            assert_eq!(
                crate::core::agents::openclaw::tools::openclaw_2026_7_read_tool(),
                sent("openclaw@2026.7.35", case),
                "{case}"
            );
        }
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
