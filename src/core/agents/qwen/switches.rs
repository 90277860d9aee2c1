//! Qwen Code's per-skill switch: the names its settings list as disabled.

use crate::core::agents::SwitchScope;
use crate::core::agents::name_list::NameList;
use crate::core::source::Agent;

/// Qwen Code 0.24.4: `skills.disabled`, the union of every settings scope, without regard to
/// case (`Config.isSkillEnabled`).
pub static QWEN_CODE: NameList = NameList {
    agent: Agent::QwenCode,
    letter: 'Q',
    files: &[
        (SwitchScope::User, true, ".qwen/settings.json"),
        (SwitchScope::Project, false, ".qwen/settings.json"),
    ],
    key: &["skills", "disabled"],
    any_case: true,
};
