//! Where each client puts its listing in what it sends the model, as captured
//! (`tests/fixtures/agents/<client>@<version>/*/placement.json`; the rules are in
//! `tests/fixtures/agents/FINDINGS.md`, "Placement").

use crate::core::source::Agent;
use serde::Serialize;

/// Where a listing sits in a client's request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// The role of the message (or the field) that carries it.
    pub role: &'static str,
    /// Where in the request, as the capture found it.
    pub location: &'static str,
    /// What surrounds it there.
    pub wrapper: &'static str,
    /// How often it is sent.
    pub sent: &'static str,
}

/// Where `agent`'s client puts its listing when it runs `model` (its default when `None`), for
/// the clients whose requests were captured.
pub fn placement(agent: Agent, model: Option<&str>) -> Option<Placement> {
    let every = "in every request of the session (it stays in the history)";
    Some(match agent {
        // Claude Code 2.1.332: a system message on Opus 5.5, a reminder in the first user
        // message on Sonnet 4.5.
        Agent::ClaudeCode if model.is_some_and(|m| m.eq_ignore_ascii_case("claude-sonnet-4-5")) => {
            Placement {
                role: "user",
                location: "messages[0].content[4]: a text block of the first user message",
                wrapper: "<system-reminder>\\n … \\n</system-reminder>",
                sent: every,
            }
        }
        Agent::ClaudeCode => Placement {
            role: "system",
            location: "messages[1]: a paragraph of the system-role message after the first user message",
            wrapper: "none: paragraphs joined by \\n\\n (environment before it, today's date after it)",
            sent: every,
        },
        Agent::Codex => Placement {
            role: "developer",
            location: "input[2].content[0]: the first part of the developer message",
            wrapper: "<skills_instructions>\\n … \\n</skills_instructions>",
            sent: every,
        },
        Agent::Gemini => Placement {
            role: "system",
            location: "systemInstruction.parts[0]: a section of the system instruction",
            wrapper: "none: after the sub-agents section, before # Hook Context",
            sent: "in every request",
        },
        Agent::Opencode => Placement {
            role: "system",
            location: "system[0]: the end of the first system text block",
            wrapper: "none: right after the </env> block",
            sent: "in every request",
        },
        // Qwen Code 0.24.4 (`qwen-code@0.24.4/mixed/placement.json`).
        Agent::QwenCode => Placement {
            role: "user",
            location: "messages[1].content[0]: the first text part of the first user message",
            wrapper: "<system-reminder>\\nThe following skills are available for use with the Skill tool. … invoke a skill by passing its name to the Skill tool.\\n\\n … \\n</system-reminder>",
            sent: every,
        },
        // GitHub Copilot CLI 1.0.102 (`copilot@1.0.102/mixed/placement.json`).
        Agent::Copilot => Placement {
            role: "system",
            location: "messages[0]: the tool-instructions section of the system message named after its skill tool",
            wrapper: "<skill>\\n … \\n</skill>: after the </fetch_copilot_cli_documentation> section, before <sql>",
            sent: "in every request",
        },
        // Cline 3.0.65 (`cline@3.0.65/mixed/placement.json`).
        Agent::Cline => Placement {
            role: "tool",
            location: "tools[0].function.description: the end of its `skills` tool's description",
            wrapper: "none: `Available skills: A, B.` after the tool's own text",
            sent: "in every request",
        },
        // OpenClaw 2026.9.6 (`openclaw@2026.9.6/mixed/placement.json`).
        Agent::Openclaw => Placement {
            role: "system",
            location: "messages[0]: the `## Skills` section of the system message",
            wrapper: "none: after the section's rules, its note when truncated or compact and its intro (\\n\\n before), before ## Skill Workshop",
            sent: "in every request",
        },
        Agent::Goose | Agent::LazySkills | Agent::Generic | Agent::Path | Agent::Demo => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_places_its_listing_by_model() {
        assert_eq!(
            placement(Agent::ClaudeCode, None).map(|p| p.role),
            Some("system")
        );
        assert_eq!(
            placement(Agent::ClaudeCode, Some("claude-sonnet-4-5")).map(|p| p.role),
            Some("user")
        );
        assert_eq!(
            placement(Agent::Codex, None).map(|p| p.role),
            Some("developer")
        );
        for (agent, role) in [
            (Agent::QwenCode, "user"),
            (Agent::Copilot, "system"),
            (Agent::Cline, "tool"),
            (Agent::Openclaw, "system"),
        ] {
            assert_eq!(placement(agent, None).map(|p| p.role), Some(role));
        }
        assert_eq!(placement(Agent::Goose, None), None);
    }
}
