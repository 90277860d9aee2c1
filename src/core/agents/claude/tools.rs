//! Claude Code 2.1.332's `Skill` tool as the client declares it (captured:
//! `tests/fixtures/agents/claude-code@2.1.332/*/tool.json`).

use serde_json::json;

/// Claude Code 2.1.332's `Skill` tool, compact JSON: naming no skill, and saying where the
/// listing is — "a listing from the system" (a system message, Opus 5.5), or "a
/// system-reminder listing" when `reminder` (in the first user message, Sonnet 4.5). Captured:
/// `tests/fixtures/agents/claude-code@2.1.332/*/tool.json`.
pub fn skill_tool(reminder: bool) -> String {
    let place = if reminder {
        "a system-reminder listing"
    } else {
        "a listing from the system"
    };
    json!({
        "name": "Skill",
        "description": format!("Invoke a skill.\n\nA skill is a packaged set of instructions the user or project has set up for a particular kind of task (deploy steps, a review checklist, a repo-specific workflow). Available skills appear in {place} with one-line descriptions. When the task at hand is one a listed skill covers, call this tool first — the skill's instructions load into the turn for you to follow in place of your default approach; some skills instead run in a subagent and return the finished result. A skill that runs in the background returns only the agent's name — its result arrives later as a task notification, so don't wait on it or invoke it again in the meantime. Users may also ask for one by name (`/<name>`, or \"slash command\"); that's a request to invoke it.\n\n- `skill`: exact name from the listing, no leading slash. Plugin skills use `plugin:skill`. Directory-scoped skills are listed with a path prefix (`apps/web:deploy`); when both scoped and unscoped variants of a name exist, pick the one whose directory contains the files you're working on (most specific wins; unscoped otherwise).\n- `args`: optional arguments to pass through.\n\nOnly names from the listing (or that the user typed explicitly) are valid. Built-in CLI commands (`/help`, `/clear`, …) aren't skills. If a `<command-name>` block is already present this turn, the skill is loaded — follow it directly rather than calling again.\n"),
        "input_schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "skill": {
                    "description": "The name of a skill from the available-skills list. Do not guess names.",
                    "type": "string"
                },
                "args": {
                    "description": "Optional arguments for the skill",
                    "type": "string"
                }
            },
            "required": ["skill"],
            "additionalProperties": false
        }
    })
    .to_string()
}
