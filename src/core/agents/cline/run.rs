//! How `verify` runs Cline against its mock.

use crate::core::agents::run_recipe::{
    MockSettings, RUN_AS_GIVEN, RunArgs, RunRecipe, Wire, owned,
};
use crate::core::source::Agent;

/// Cline's run: one sentence as its prompt (one word reads as one of its commands), its
/// provider the mock. Its listing ends its `skills` tool's description.
pub(crate) static RUN: RunRecipe = RunRecipe {
    agent: Agent::Cline,
    rank: 6,
    name: "Cline",
    command: "cline",
    package: "cline",
    wire: Wire::Chat,
    skill_tool: "skills",
    start: "Available skills: ",
    ends: &[],
    include_end: false,
    args,
    env,
    // Cline keeps no switch in a settings file (a skill is switched off in its own
    // frontmatter), so nothing of the user's is lost.
    settings: Some(MockSettings {
        file: ".cline/data/settings/providers.json",
        ours: providers,
        merged: false,
    }),
    ..RUN_AS_GIVEN
};

fn args(_r: &RunArgs) -> Vec<String> {
    owned(&["Say hello."])
}

fn env(_base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("DO_NOT_TRACK", "1".into()),
        ("DISABLE_TELEMETRY", "1".into()),
    ]
}

/// Its provider, as `cline auth -p openai-compatible -k KEY -m MODEL -b URL` stores it
/// (`~/.cline/data/settings/providers.json`): the mock.
fn providers(base: &str) -> serde_json::Value {
    serde_json::json!({
        "version": 1,
        "lastUsedProvider": "openai-compatible",
        "modes": {},
        "providers": {"openai-compatible": {
            "settings": {
                "provider": "openai-compatible",
                "apiKey": "skillscope-verify",
                "model": "mock-model",
                "baseUrl": format!("{base}/v1"),
            },
            "updatedAt": "2026-01-01T00:00:00.000Z",
            "tokenSource": "manual",
        }},
    })
}
