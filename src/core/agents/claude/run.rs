//! How `verify` runs Claude Code against its mock.

use crate::core::agents::run_recipe::{RUN_AS_GIVEN, RunArgs, RunRecipe, Wire, owned};
use crate::core::source::Agent;

/// Claude Code's run: `-p hello`, its Skill tool allowed, the model and folders chosen.
pub(crate) static RUN: RunRecipe = RunRecipe {
    agent: Agent::ClaudeCode,
    rank: 0,
    name: "Claude Code",
    command: "claude",
    package: "@anthropic-ai/claude-code",
    wire: Wire::Anthropic,
    skill_tool: "Skill",
    start: "The following skills are ",
    // What follows the listing, by release (as captured): the date (2.1.332), the token
    // count (2.1.270), auto mode's note (2.1.290, 2.1.300), the end of a reminder.
    ends: &[
        "\n\nToday's date is",
        "\n</system-reminder>",
        "\n\n<total_tokens>",
        "\n\nWhile auto mode is active:",
    ],
    include_end: false,
    tool_start: Some("Available skills:\n"),
    blank_line_ends: true,
    args,
    env,
    ..RUN_AS_GIVEN
};

fn args(r: &RunArgs) -> Vec<String> {
    let mut a = owned(&["-p", "hello", "--allowedTools", "Skill"]);
    if let Some(m) = r.model {
        a.extend(["--model".into(), m.to_string()]);
    }
    for d in r.add_dirs {
        a.extend(["--add-dir".into(), d.to_string_lossy().into_owned()]);
    }
    a
}

fn env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("ANTHROPIC_BASE_URL", base.to_string()),
        ("ANTHROPIC_API_KEY", "sk-ant-skillscope-verify".into()),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
        ("DISABLE_AUTOUPDATER", "1".into()),
        ("DISABLE_TELEMETRY", "1".into()),
        ("DISABLE_ERROR_REPORTING", "1".into()),
        ("CLAUDE_CODE_ENABLE_TELEMETRY", "0".into()),
    ]
}
