//! How `verify` runs opencode against its mock.

use crate::core::agents::run_recipe::{RUN_AS_GIVEN, RunArgs, RunRecipe, Wire, owned};
use crate::core::source::Agent;

/// opencode's run: `opencode run hello`, its Anthropic provider at the mock.
pub(crate) static RUN: RunRecipe = RunRecipe {
    agent: Agent::Opencode,
    rank: 3,
    name: "opencode",
    command: "opencode",
    package: "opencode-ai",
    wire: Wire::Anthropic,
    skill_tool: "skill",
    start: "Skills provide specialized instructions",
    ends: &["</available_skills>", "No skills are currently available."],
    args,
    env,
    ..RUN_AS_GIVEN
};

fn args(_r: &RunArgs) -> Vec<String> {
    owned(&["run", "hello"])
}

fn env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("OPENCODE_DISABLE_AUTOUPDATE", "1".into()),
        ("OPENCODE_DISABLE_MODELS_FETCH", "1".into()),
        ("OPENCODE_DISABLE_LSP_DOWNLOAD", "1".into()),
        ("OPENCODE_DISABLE_SHARE", "1".into()),
        (
            "OPENCODE_CONFIG_CONTENT",
            serde_json::json!({
                "model": "anthropic/claude-sonnet-4-5",
                "small_model": "anthropic/claude-haiku-4-5",
                "autoupdate": false,
                "share": "disabled",
                "provider": {"anthropic": {"options": {
                    "baseURL": format!("{base}/v1"), "apiKey": "skillscope-verify"}}},
            })
            .to_string(),
        ),
    ]
}
