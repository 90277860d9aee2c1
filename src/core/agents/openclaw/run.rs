//! How `verify` runs OpenClaw against its mock.

use crate::core::agents::run_recipe::{
    MockSettings, RUN_AS_GIVEN, RunArgs, RunRecipe, Wire, owned,
};
use crate::core::source::{Agent, OPENCLAW_CONFIG};

/// OpenClaw's run: one local turn of its main agent, a provider `skillscope` at the mock, its
/// model the agents' default. It has no skill tool: its listing tells the model to `read` a
/// SKILL.md.
pub(crate) static RUN: RunRecipe = RunRecipe {
    agent: Agent::Openclaw,
    rank: 7,
    name: "OpenClaw",
    command: "openclaw",
    package: "openclaw",
    wire: Wire::Chat,
    skill_tool: "read",
    // Its catalog: the note it puts first when it truncates or compacts, its intro, the
    // `<available_skills>` block (the section's rules before it name the block too).
    start: "The following skills provide specialized instructions",
    lead: Some("\u{26a0}\u{fe0f} Skills "),
    ends: &["</available_skills>"],
    min_node: Some((24, 16)),
    args,
    env,
    settings: Some(MockSettings {
        file: OPENCLAW_CONFIG,
        ours: settings,
        merged: true,
    }),
    ..RUN_AS_GIVEN
};

fn args(_r: &RunArgs) -> Vec<String> {
    owned(&["agent", "--local", "--agent", "main", "--message", "hello"])
}

fn env(_base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("DO_NOT_TRACK", "1".into()),
        ("DISABLE_TELEMETRY", "1".into()),
    ]
}

fn settings(base: &str) -> serde_json::Value {
    serde_json::json!({
        "agents": {"defaults": {"model": {"primary": "skillscope/mock-model"}}},
        "models": {"mode": "merge", "providers": {"skillscope": {
            "baseUrl": format!("{base}/v1"),
            "apiKey": "skillscope-verify",
            "api": "openai-completions",
            "models": [{"id": "mock-model", "name": "Mock", "reasoning": false,
                        "input": ["text"],
                        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
                        "contextWindow": 200_000, "maxTokens": 8192}],
        }}},
    })
}
