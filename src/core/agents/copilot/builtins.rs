//! The built-in skills of GitHub Copilot CLI 1.0.102, as data of its model: each name and
//! description exactly as the client's capture lists it
//! (`tests/fixtures/agents/copilot@1.0.102/mixed/listing.txt`), unescaped. Nothing else of the
//! client is kept.

use crate::core::listing::BuiltinEntry;

/// Copilot's built-in skills (`builtin-skills/` of its unpacked package) listed in its offline
/// capture, last, as `builtin`: `discover-resources`, the third, was not listed there.
pub static COPILOT_BUILTINS: &[BuiltinEntry] = &[
    BuiltinEntry {
        name: "customize-cloud-agent",
        description: "Skill for customizing the Copilot cloud agent (formerly known as Copilot coding agent) environment, including copilot-setup-steps.yml configuration, preinstalling tools and dependencies, runners, and settings. Use when the user mentions copilot-setup-steps, copilot setup steps, or wants to configure the cloud agent environment.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "github-pr-media",
        description: "Upload an image or video to GitHub's user attachments API and embed it in a pull request description or comment. Use when asked to add screenshots, diagrams, recordings, or other media to a PR or GitHub comment.",
        fixed: true,
        location: "",
    },
];
