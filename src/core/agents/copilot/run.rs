//! How `verify` runs GitHub Copilot CLI against its mock.

use crate::core::agents::run_recipe::{RUN_AS_GIVEN, RunArgs, RunRecipe, Wire, owned};
use crate::core::source::Agent;

/// GitHub Copilot CLI's run: OpenAI Chat Completions to the mock. Its npm loader would start a
/// newer package it keeps unpacked in `~/.cache/copilot/pkg` instead of its own:
/// `COPILOT_AUTO_UPDATE=false` (its loader's own switch, as `--no-auto-update`) makes it start
/// the release installed.
pub(crate) static RUN: RunRecipe = RunRecipe {
    agent: Agent::Copilot,
    rank: 5,
    name: "GitHub Copilot CLI",
    command: "copilot",
    package: "@github/copilot",
    wire: Wire::Chat,
    skill_tool: "skill",
    start: "<available_skills>",
    ends: &["</available_skills>"],
    args,
    env,
    // Where it unpacked its own code on its first start (some 235 MB, more than the private
    // home holds): shown read-only, it starts from there.
    other_files: PKG,
    first_start_hint,
    ..RUN_AS_GIVEN
};

/// The folders below the home GitHub Copilot CLI looks for its unpacked code in (its loader's
/// list, without the variables that move them).
const PKG: &[&str] = &[".cache/copilot/pkg", ".copilot/pkg"];

/// The first GitHub Copilot CLI release known to take `--disable-client-telemetry` (the one
/// modelled); 1.0.92 does not, and refuses to start when given it.
const TELEMETRY_SWITCH_SINCE: &str = "1.0.102";

/// Whether GitHub Copilot CLI's release `installed` takes `--disable-client-telemetry`: every
/// release from [`TELEMETRY_SWITCH_SINCE`] on, and one whose version is unknown.
pub(crate) fn takes_telemetry_switch(installed: Option<&str>) -> bool {
    use crate::core::agents::installed::numbers;
    installed.is_none_or(|v| numbers(v) >= numbers(TELEMETRY_SWITCH_SINCE))
}

fn args(r: &RunArgs) -> Vec<String> {
    let mut a = owned(&["-p", "hello", "--allow-all-tools"]);
    if takes_telemetry_switch(r.installed) {
        a.push("--disable-client-telemetry".into());
    }
    a.push("-s".into());
    a
}

fn env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("COPILOT_AUTO_UPDATE", "false".into()),
        ("COPILOT_OFFLINE", "true".into()),
        ("COPILOT_PROVIDER_BASE_URL", format!("{base}/v1")),
        ("COPILOT_PROVIDER_TYPE", "openai".into()),
        ("COPILOT_PROVIDER_API_KEY", "skillscope-verify".into()),
        ("COPILOT_MODEL", "mock-model".into()),
    ]
}

/// Its first start unpacks its code where the sandbox lets it write too little.
fn first_start_hint(name: &str, command: &str, stderr: &str) -> Option<String> {
    (stderr.contains("Package extraction") && stderr.contains("EFBIG")).then(|| {
        format!(
            "{name} unpacks its code (some 235 MB) into ~/.cache/copilot/pkg on its first start, \
             more than the sandbox lets it write: run `COPILOT_AUTO_UPDATE=false {command} --version` \
             once (so that the release installed unpacks its own, not a newer one it keeps), then \
             verify again"
        )
    })
}
