//! Which settings file of an agent a switch is written to.

use serde::Serialize;
use std::fmt;

/// Which settings file of an agent a toggle goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SwitchScope {
    /// The user's own settings (`~/.claude/settings.json`, `~/.codex/config.toml`,
    /// `~/.config/opencode/opencode.json`).
    User,
    /// The project's shared settings (`.claude/settings.json`, `opencode.json`).
    Project,
    /// The project's personal settings (`.claude/settings.local.json`; Claude Code only).
    Local,
}

impl SwitchScope {
    /// Its name in settings, JSON and `toggle --scope`: `user`, `project`, `local`.
    pub fn as_str(self) -> &'static str {
        match self {
            SwitchScope::User => "user",
            SwitchScope::Project => "project",
            SwitchScope::Local => "local",
        }
    }
}

impl fmt::Display for SwitchScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
