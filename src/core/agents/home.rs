//! One agent's home as one record: its model (folders, format, profile, injection, budgets, its
//! client), how its client reads a SKILL.md, where its listing sits in a request, its release eras,
//! its skill tool and where its client's model is set. Each agent's folder holds its `HOME`;
//! [`Agent::home`](crate::core::source::Agent::home) (`registry.rs`) is the one place that
//! names them all, and every per-agent question is asked of the record.

use super::client::Client;
use super::configured::Origin;
use super::eras::{Chosen, Era};
use super::error::ToggleError;
use super::gemini::settings::GeminiSettings;
use super::loading::Loading;
use super::model::{AS_GIVEN, AgentModel};
use super::placement::Placement;
use super::places::Reach;
use super::planned::{Applied, TogglePlan};
use super::reading::Read;
use super::run_recipe::RunRecipe;
use super::scope::SwitchScope;
use super::tools::ToolDefinition;
use crate::core::library::Library;
use crate::core::skill::Skill;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

/// Where an agent's client is set to run a model: given its client, the home and project folders
/// and the environment, the model's name, where it was set and the context window set with it;
/// notes on what could not be read go to the last argument.
pub type ModelSetting = fn(
    &Client,
    Option<&Path>,
    Option<&Path>,
    &dyn Fn(&str) -> Option<String>,
    &mut Vec<String>,
) -> Option<(String, Origin, Option<usize>)>;

/// Everything skillscope knows of one agent; what an agent's `HOME` does not say is
/// [`Home::AS_GIVEN`]'s.
#[derive(Debug)]
pub struct Home {
    /// Its model: folders, listing format, profile, injection, budgets, its client.
    pub model: AgentModel,
    /// How its client reads a SKILL.md where that differs from skillscope's reading (`None`
    /// when it does not load the skill); `None` when it reads as skillscope does.
    pub read: Option<fn(&Skill) -> Option<Read>>,
    /// Where its client puts its listing when it runs a model (its default when `None`).
    pub placement: fn(Option<&str>) -> Option<Placement>,
    /// Its client's releases that listed differently, oldest first.
    pub eras: &'static [Era],
    /// The era its views use in this process, chosen once; `None` for an agent without eras.
    pub era_in_use: Option<&'static OnceLock<Option<Chosen>>>,
    /// The skill tool its client declares beside a listing of the names given, for a model.
    pub tool: fn(&[String], Option<&str>) -> Option<ToolDefinition>,
    /// A call of its skill tool names a skill without regard to case.
    pub calls_any_case: bool,
    /// Where its client is set to run a model, when its budget depends on the model.
    pub model_setting: Option<ModelSetting>,
    /// Folders (below a skills root, `.claude/skills`) of other agents it reads in a project
    /// only, never below the home folder (GitHub Copilot CLI's `.claude/skills`).
    pub project_only: &'static [&'static str],
    /// Another name its installers give it, which `--agent` takes too.
    pub alias: Option<&'static str>,
    /// How its client reads the folders it shares with other agents, where it reads them its
    /// own way (`reach.rs` asks it).
    pub reach: Option<&'static Reach>,
    /// How loading one skill reaches its client's conversation (`inject`).
    pub loading: Loading,
    /// Where its client reads its own skills its own way, apart from the shared view (Codex's).
    pub own_view: Option<OwnView>,
    /// Which skills laid out below its folders it reads, given its settings' trust (Gemini
    /// CLI: `SKILL.md` and `*/SKILL.md` below one of its folders, a project's only in a trusted
    /// workspace); `None`: every one its folders hold.
    pub layout: Option<fn(&Skill, &GeminiSettings) -> bool>,
    /// The place of the folder it read a skill from in its reading order, where the copy of a
    /// name in the later folder wins (Gemini CLI, opencode); `None`: its own folders first,
    /// then the user's before the project's. It reads only the skill's root and scope: the
    /// views ask it once per root.
    pub folder_rank: Option<fn(&Skill) -> u8>,
    /// It calls a skill of its own folders by its folder's name and reads only
    /// `skills/NAME/SKILL.md` there (Claude Code).
    pub calls_by_folder: bool,
    /// What its client decides as it runs, which skillscope cannot know.
    pub choices: ClientChoices,
    /// What its client needs of a file to load it, said when it does not load one (for a
    /// client that reads frontmatter its own way).
    pub unreadable: &'static str,
    /// Its settings can deny its skill tool (no listing) and switch its built-ins off
    /// (opencode's `permission.skill`).
    pub skill_tool_switch: bool,
    /// How `verify` runs its client against the mock, when it can.
    pub verify: Option<&'static RunRecipe>,
    /// Its client's command, whose presence says it is set up here; `None`: taken as set up.
    pub command: Option<&'static str>,
    /// Its client as installed, whose release `installed.rs` reads from its files (which may
    /// name another command than [`Home::command`]); `None`: none is read.
    pub release: Option<Release>,
    /// Why `toggle` cannot switch its skills, when it has no settings switch.
    pub no_switch: &'static str,
    /// Its one switch is in each skill's own frontmatter and decides every folder it scans, the
    /// folders given on the command line too: whether the skill is on (Lazy Skills' `auto_load`).
    pub frontmatter_switch: Option<fn(&Skill) -> bool>,
    /// Why its view leaves a skill out that its frontmatter switch has not opted in (Lazy
    /// Skills' `auto_load`), when it does.
    pub not_opted_in: Option<fn(&Skill) -> Option<String>>,
    /// How `toggle` plans and writes that frontmatter switch.
    pub frontmatter_toggle: Option<FrontmatterToggle>,
    /// Its view reads its settings' folder trust and skill lists (Gemini CLI's).
    pub trusts_folders: bool,
    /// Where its settings name a skill, which `remove` finds and cleans when asked.
    pub settings_entry: SettingsEntry,
    /// A switch in each skill's own frontmatter that its client reads and skillscope does not
    /// write (Cline's `` `disabled: true` ``).
    pub read_only_switch: Option<&'static str>,
    /// The frontmatter fields (and commented optional ones) `new` writes for its users beyond
    /// the name and the description, given the skill's name in words.
    pub new_skill_fields: fn(&str) -> String,
    /// What its token counts leave out, after the figures (Claude's own tokenizer).
    pub count_note: &'static str,
    /// Where a release of its client older than every modelled one put its listing, given the
    /// release's version: words after `verify`'s note, or none.
    pub older_release_note: fn(&str) -> &'static str,
    /// The same in a few words, said beside a figure on the app's Prompt screen (`""`: nothing
    /// to say).
    pub count_note_short: &'static str,
}

/// Where an agent's client is installed, for reading which release it is without running it.
#[derive(Debug, Clone, Copy)]
pub struct Release {
    /// The command whose installed release is read, looked for on `PATH`.
    pub command: &'static str,
    /// Its npm package, whose `package.json` says the release.
    pub package: &'static str,
    /// Where its own installers put the command off `PATH`, below the home folder, in the
    /// order looked in.
    pub off_path: &'static [&'static str],
    /// An npm install of its own below the home folder (its prefix, holding `node_modules` and
    /// the command), read when no command tells a release.
    pub local_npm: Option<&'static str>,
}

impl Release {
    /// The command `command` from the npm package `package`, looked for on `PATH` only.
    pub const fn npm(command: &'static str, package: &'static str) -> Release {
        Release {
            command,
            package,
            off_path: &[],
            local_npm: None,
        }
    }
}

/// How a client reads its own skills apart from the shared view (Codex's).
#[derive(Debug, Clone, Copy)]
pub struct OwnView {
    /// Whether it reads the skill at all, beyond its folders.
    pub reads: fn(&Skill) -> bool,
    /// Which skill of its view wins each one's name.
    pub shadowing: fn(&Library, &[bool]) -> Vec<Option<usize>>,
    /// Takes the skill as it reads it; says what it supplied, when anything.
    pub reading: fn(&mut Skill) -> Option<String>,
    /// Why it lists the skill only when the prompt names it, when it does.
    pub explicit_only: fn(&Skill) -> Option<&'static str>,
}

/// What a client decides as it runs about copies of one name, which skillscope cannot know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientChoices {
    /// Nothing: its precedence decides.
    Known,
    /// It loads its skills concurrently and keeps the copy of a name loaded last (opencode).
    LoadOrder,
    /// It lists a folder's skills in the order its glob returns them, which it does not sort,
    /// and keeps the copy of a name its glob gave last (Gemini CLI).
    GlobOrder,
}

/// How `toggle` plans and writes a switch kept in each skill's own frontmatter.
#[derive(Debug, Clone, Copy)]
pub struct FrontmatterToggle {
    /// The change that switches a skill on or off at a scope, given the home folder, as a diff,
    /// written nowhere.
    pub plan: fn(&Skill, SwitchScope, bool, &Path) -> Result<TogglePlan, ToggleError>,
    /// Writes a plan, waiting at most the given time for the file's lock.
    pub apply: ApplyToggle,
}

/// Writes a planned frontmatter toggle, waiting at most the given time for the file's lock;
/// returns the plan written and what was done.
pub type ApplyToggle =
    fn(&Skill, &TogglePlan, &Path, Duration) -> Result<(TogglePlan, Applied), ToggleError>;

/// Where an agent's settings files name a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsEntry {
    /// Nowhere `remove` cleans.
    None,
    /// A JSON object whose member of the skill's name is the entry, at these keys.
    Json(&'static [&'static str]),
    /// Codex's `[[skills.config]]` tables, naming a skill by `name` or `path`.
    CodexConfig,
}

fn no_placement(_model: Option<&str>) -> Option<Placement> {
    None
}

fn no_fields(_words: &str) -> String {
    String::new()
}

fn no_note(_version: &str) -> &'static str {
    ""
}

fn no_tool(_names: &[String], _model: Option<&str>) -> Option<ToolDefinition> {
    None
}

impl Home {
    /// Folders named on the command line and the demo library: read as given, by any agent
    /// (the model's [`AS_GIVEN`]); no reading of its own, no placement, no eras, no tool.
    pub const AS_GIVEN: Home = Home {
        model: AS_GIVEN,
        read: None,
        placement: no_placement,
        eras: &[],
        era_in_use: None,
        tool: no_tool,
        calls_any_case: false,
        model_setting: None,
        project_only: &[],
        alias: None,
        reach: None,
        loading: Loading::Unmodelled,
        own_view: None,
        layout: None,
        folder_rank: None,
        calls_by_folder: false,
        choices: ClientChoices::Known,
        unreadable: "",
        skill_tool_switch: false,
        verify: None,
        command: None,
        release: None,
        no_switch: "it has no per-skill switches",
        frontmatter_switch: None,
        not_opted_in: None,
        frontmatter_toggle: None,
        trusts_folders: false,
        settings_entry: SettingsEntry::None,
        read_only_switch: None,
        new_skill_fields: no_fields,
        count_note: "",
        older_release_note: no_note,
        count_note_short: "",
    };
}

/// [`Home::AS_GIVEN`] with an address, for the registry to lend.
pub(super) static AS_GIVEN_HOME: Home = Home::AS_GIVEN;
