//! GitHub Copilot CLI's per-skill switch: the names its settings list as disabled.

use crate::core::agents::SwitchScope;
use crate::core::agents::name_list::NameList;
use crate::core::source::Agent;

/// GitHub Copilot CLI 1.0.102: `disabledSkills` (`copilot skill disable NAME` writes the
/// user's); the repository's `.github/copilot/settings.json` and `settings.local.json` too.
pub static COPILOT: NameList = NameList {
    agent: Agent::Copilot,
    letter: 'H',
    files: &[
        (SwitchScope::User, true, ".copilot/settings.json"),
        (SwitchScope::Project, false, ".github/copilot/settings.json"),
        (
            SwitchScope::Local,
            false,
            ".github/copilot/settings.local.json",
        ),
    ],
    key: &["disabledSkills"],
    any_case: false,
};
