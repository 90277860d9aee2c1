//! How `verify` runs Gemini CLI against its mock.

use super::settings::{RESTRICTED_ENV, TRUST_ENV, TRUSTED_FOLDERS_ENV};
use crate::core::agents::run_recipe::{
    MockSettings, RUN_AS_GIVEN, RunArgs, RunRecipe, Wire, owned,
};
use crate::core::source::Agent;

/// Gemini CLI's run: headless with one prompt, the API key chosen as its way in (its base URL
/// alone makes it a "gateway", which it refuses without a login, and it skips system settings
/// below a folder others may write to, as the sandbox's `/tmp` is). Headless, it refuses a
/// folder it does not trust (exit 55): its own switch, `GEMINI_CLI_TRUST_WORKSPACE=true` (every
/// release takes it; `--skip-trust` only the newer ones and sets the same), is given to the
/// sandboxed run alone — nothing is written to the user's trusted folders.
pub(crate) static RUN: RunRecipe = RunRecipe {
    agent: Agent::Gemini,
    rank: 2,
    name: "Gemini CLI",
    command: "gemini",
    package: "@google/gemini-cli",
    wire: Wire::Gemini,
    skill_tool: "activate_skill",
    start: "# Available Agent Skills",
    ends: &["</available_skills>"],
    args,
    env,
    settings: Some(MockSettings {
        file: ".gemini/settings.json",
        ours: settings,
        merged: true,
    }),
    // The folders the user trusts: only in one are the project's skills listed.
    other_files: &[".gemini/trustedFolders.json"],
    trust_env: Some(TRUST_ENV),
    trust_variables: &[TRUST_ENV, RESTRICTED_ENV, TRUSTED_FOLDERS_ENV],
    ..RUN_AS_GIVEN
};

fn args(_r: &RunArgs) -> Vec<String> {
    owned(&["-p", "hello"])
}

fn env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("GEMINI_API_KEY", "skillscope-verify".into()),
        ("GOOGLE_GEMINI_BASE_URL", base.to_string()),
        ("GEMINI_TELEMETRY_ENABLED", "false".into()),
    ]
}

fn settings(_base: &str) -> serde_json::Value {
    serde_json::json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false},
        "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
    })
}
