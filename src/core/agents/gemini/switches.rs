//! Gemini CLI's per-skill switch as `toggle` writes it: the names its settings list as disabled.

use crate::core::agents::SwitchScope;
use crate::core::agents::name_list::NameList;
use crate::core::source::Agent;

/// Gemini CLI 0.61.0: `skills.disabled` (what `gemini skills disable NAME` writes), the user's
/// settings and the project's, names without regard to case. Its view reads the same lists with
/// the folder-trust rule (a project's settings count only in a trusted folder, see `gemini/settings.rs`);
/// this entry is what `toggle` writes and what the app's switch shows.
pub static GEMINI: NameList = NameList {
    agent: Agent::Gemini,
    letter: 'G',
    files: &[
        (SwitchScope::User, true, ".gemini/settings.json"),
        (SwitchScope::Project, false, ".gemini/settings.json"),
    ],
    key: &["skills", "disabled"],
    any_case: true,
};
