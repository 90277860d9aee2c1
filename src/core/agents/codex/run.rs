//! How `verify` runs Codex against its mock.

use crate::core::agents::run_recipe::{RUN_AS_GIVEN, RunArgs, RunRecipe, Wire, owned};
use crate::core::source::Agent;

/// Codex's run: `codex exec` with a provider `skillscope` at the mock.
pub(crate) static RUN: RunRecipe = RunRecipe {
    agent: Agent::Codex,
    rank: 1,
    name: "Codex",
    command: "codex",
    package: "@openai/codex",
    wire: Wire::Responses,
    skill_tool: "",
    start: "<skills_instructions>",
    ends: &["</skills_instructions>"],
    args,
    env,
    ..RUN_AS_GIVEN
};

fn args(r: &RunArgs) -> Vec<String> {
    let base = r.base;
    let mut a = owned(&[
        "exec",
        "--skip-git-repo-check",
        "-c",
        "model_provider=\"skillscope\"",
        "-c",
    ]);
    a.push(format!(
        "model_providers.skillscope={{name=\"skillscope\",base_url=\"{base}/v1\",\
         wire_api=\"responses\",env_key=\"SKILLSCOPE_VERIFY_KEY\"}}"
    ));
    a.extend(owned(&["-c", "check_for_update_on_startup=false"]));
    // The model chosen for the run is Codex's too, as its `--model` (`-m`) takes it.
    if let Some(m) = r.model {
        a.extend(["-m".into(), m.to_string()]);
    }
    a.push("hello".into());
    a
}

fn env(_base: &str) -> Vec<(&'static str, String)> {
    vec![("SKILLSCOPE_VERIFY_KEY", "skillscope-verify".into())]
}
