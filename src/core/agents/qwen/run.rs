//! How `verify` runs Qwen Code against its mock.

use crate::core::agents::run_recipe::{
    MockSettings, RUN_AS_GIVEN, RunArgs, RunRecipe, Wire, owned,
};
use crate::core::source::Agent;

/// Qwen Code's run: OpenAI Chat Completions to the mock; no usage statistics, telemetry or
/// update check. Its listing is cut out as `scripts/capture-more-agents.sh` cut the captures.
pub(crate) static RUN: RunRecipe = RunRecipe {
    agent: Agent::QwenCode,
    rank: 4,
    name: "Qwen Code",
    command: "qwen",
    package: "@qwen-code/qwen-code",
    wire: Wire::Chat,
    skill_tool: "skill",
    start: "<available_skills>",
    ends: &["</available_skills>"],
    min_node: Some((22, 0)),
    args,
    env,
    settings: Some(MockSettings {
        file: ".qwen/settings.json",
        ours: settings,
        merged: true,
    }),
    ..RUN_AS_GIVEN
};

fn args(_r: &RunArgs) -> Vec<String> {
    owned(&["--auth-type", "openai", "-m", "mock-model", "hello"])
}

fn env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("OPENAI_API_KEY", "skillscope-verify".into()),
        ("OPENAI_BASE_URL", format!("{base}/v1")),
        ("OPENAI_MODEL", "mock-model".into()),
        ("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1".into()),
    ]
}

fn settings(_base: &str) -> serde_json::Value {
    serde_json::json!({
        "privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false},
        "general": {"disableAutoUpdate": true},
    })
}
