//! What each agent will really do with a skill: the agents' own switches (Claude Code
//! `skillOverrides`, Codex `[[skills.config]]`, opencode `permission.skill`) read per skill with
//! their source, and toggles written through to those files.

pub mod budget;
pub mod calibration;
pub(crate) mod claude;
pub(crate) mod client;
pub(crate) mod client_models;
pub(crate) mod cline;
pub(crate) mod codex;
pub mod configured;
pub(crate) mod copilot;
pub mod doc;
mod edit;
pub mod eras;
mod error;
pub(crate) mod gemini;
mod generic;
mod goose;
pub mod home;
pub mod installed;
pub(crate) mod json;
mod lazy;
pub mod loading;
pub mod model;
mod name_list;
pub(crate) mod openclaw;
mod opencode;
mod options;
pub(crate) mod placement;
pub mod places;
mod plan;
mod planned;
mod plugin;
pub(crate) mod qwen;
mod reach;
pub(crate) mod reading;
mod registry;
pub mod run_recipe;
mod scope;
mod switches;
pub mod tools;
pub mod view;

pub use error::{NotHeld, ToggleError};
pub use opencode::names::UnsafeName;
pub use plan::backup_path;
pub use planned::{Applied, TogglePlan};
pub use plugin::{
    AgentPlugin, AgentState, Badge, Effective, PathCache, Registry, SettingsText, SkillSwitches,
    show_path,
};
pub use scope::SwitchScope;
pub use switches::{
    AgentSwitches, REGISTRY, has_switches, legend, obeys_own_switches, own_switch, readers,
};

use std::path::{Path, PathBuf};

/// The project folder agents take their project settings from: the repository root above
/// `cwd` (the first folder holding `.git`), else `cwd` itself; never the home folder.
pub fn project_root(cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    for dir in cwd.ancestors() {
        if Some(dir) == home {
            break;
        }
        if dir.join(".git").exists() {
            return Some(dir.to_path_buf());
        }
    }
    if Some(cwd) == home {
        None
    } else {
        Some(cwd.to_path_buf())
    }
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
