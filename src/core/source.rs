//! Where skills live: each agent's folders per scope, the roots given on the command line, and the
//! precedence that decides which of two same-named skills an agent loads.

use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// An agent whose skill folders skillscope reads, or where a root came from otherwise. Its
/// variants, in order, are [`Agent::ALL`]; its name (`as_str`, `Display`, `FromStr`) is the
/// variant's in kebab case unless given.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    strum::VariantArray,
    strum::IntoStaticStr,
    strum::Display,
    strum::EnumString,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Agent {
    /// Claude Code.
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// opencode.
    Opencode,
    /// Gemini CLI (`gemini-cli`, as `npx skills` calls it).
    #[strum(to_string = "gemini", serialize = "gemini-cli")]
    Gemini,
    /// Goose.
    Goose,
    /// OpenClaw (`openclaw`).
    Openclaw,
    /// GitHub Copilot CLI (`@github/copilot`); its installers call it `copilot`.
    #[serde(rename = "github-copilot")]
    #[strum(to_string = "github-copilot", serialize = "copilot")]
    Copilot,
    /// Cline (`cline`).
    Cline,
    /// Qwen Code (`@qwen-code/qwen-code`).
    QwenCode,
    /// The Lazy Skills agent (`~/.config/cli-agent/skills`).
    LazySkills,
    /// The triggers agent of the skill-context design (its folders `.agents/skills`, which
    /// several agents read, and `~/.config/agents/skills`): `triggers` to people, `generic` in
    /// JSON and as the name it had first, still accepted.
    #[strum(to_string = "generic", serialize = "triggers")]
    Generic,
    /// A folder given on the command line.
    Path,
    /// The demo library bundled with skillscope.
    Demo,
}

impl Agent {
    /// Every agent, in the order they are shown (the enum's order); the folders given and the
    /// demo last (the lists of agents with views and folders are this one without them).
    pub const ALL: &'static [Agent] = <Agent as strum::VariantArray>::VARIANTS;

    /// The agent named `name` on the command line: its name, or another name its installers
    /// give it (`copilot` for GitHub Copilot CLI).
    pub fn named(name: &str) -> Option<Agent> {
        name.parse().ok()
    }

    /// Its name on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Its name in text people read (the app's rows, `--to` targets, messages): its command-line
    /// name, but `triggers` for the triggers agent, whose name in JSON is `generic`.
    pub fn shown(self) -> &'static str {
        match self {
            Agent::Generic => "triggers",
            a => a.as_str(),
        }
    }

    /// Whether the agent tells skills in different nested folders apart by their namespaced id
    /// (`web.scraper`): the Lazy Skills model and skillscope's own reading of folders given to
    /// it do; the agents that key skills by name alone do not.
    pub fn namespaces_folders(self) -> bool {
        matches!(
            self,
            Agent::LazySkills | Agent::Generic | Agent::Path | Agent::Demo
        )
    }

    /// Whether the agent's folders take a skill's kind from its `type` alone, so that a default
    /// entry script does not make a skill executable (Lazy Skills reads
    /// `metadata.get("type", "contextual")`).
    pub fn kind_from_type_alone(self) -> bool {
        matches!(self, Agent::LazySkills)
    }

    /// Whether the agent is one the design documents describe and no released client runs (Lazy
    /// Skills, the SkillContextProvider ADR's agent): a view a user opts into, which never judges,
    /// prices or warns about a folder a real client reads.
    pub fn from_design_documents(self) -> bool {
        matches!(self, Agent::LazySkills | Agent::Generic)
    }

    /// The folders (their last components) whose skills the agent reads, wherever they are:
    /// what its model's `folders` are, and what the installed layout asks of every agent without
    /// asking the agents' models (`core::layout`). None for the folders given and the demo.
    pub const fn skill_folders(self) -> &'static [&'static [&'static str]] {
        match self {
            Agent::ClaudeCode => &[&[".claude", "skills"], &[".claude", "plugins", "cache"]],
            Agent::Codex => &[&[".codex", "skills"], &[".agents", "skills"]],
            Agent::Opencode => &[
                &[".opencode", "skill"],
                &[".opencode", "skills"],
                &[".config", "opencode", "skill"],
                &[".config", "opencode", "skills"],
                &[".claude", "skills"],
                &[".agents", "skills"],
            ],
            Agent::Gemini => &[&[".gemini", "skills"], &[".agents", "skills"]],
            Agent::Goose => &[
                &[".config", "goose", "skills"],
                &[".goose", "skills"],
                &[".config", "agents", "skills"],
                &[".agents", "skills"],
                &[".claude", "skills"],
            ],
            Agent::Openclaw => &[&[".openclaw", "skills"], &[".agents", "skills"]],
            Agent::Copilot => &[
                &[".github", "skills"],
                &[".copilot", "skills"],
                &[".agents", "skills"],
                &[".claude", "skills"],
            ],
            Agent::Cline => &[
                &[".clinerules", "skills"],
                &[".cline", "skills"],
                &[".agents", "skills"],
            ],
            Agent::QwenCode => &[&[".qwen", "skills"], &[".agents", "skills"]],
            Agent::LazySkills => &[&[".config", "cli-agent", "skills"]],
            Agent::Generic => &[&[".agents", "skills"], &[".config", "agents", "skills"]],
            Agent::Path | Agent::Demo => &[],
        }
    }

    /// A short badge for narrow columns.
    pub fn badge(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude",
            Agent::Codex => "codex",
            Agent::Opencode => "opencode",
            Agent::Gemini => "gemini",
            Agent::Goose => "goose",
            Agent::Openclaw => "openclaw",
            Agent::Copilot => "copilot",
            Agent::Cline => "cline",
            Agent::QwenCode => "qwen",
            Agent::LazySkills => "lazy",
            Agent::Generic => "agents",
            Agent::Path => "path",
            Agent::Demo => "demo",
        }
    }
}

/// Whose folder a root is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Scope {
    /// Skills an administrator deployed for every user (Claude Code's managed folder).
    Managed,
    /// The user's own folder (under the home folder).
    User,
    /// The project's folder (under the current repository).
    Project,
    /// A folder Claude Code was given with `--add-dir` (its `.claude/skills`).
    #[serde(rename = "add-dir")]
    #[strum(to_string = "add-dir")]
    AddDir,
    /// Skills the agent's client installs itself (Codex's `~/.codex/skills/.system`).
    System,
    /// An installed plugin's skills (Claude Code's `~/.claude/plugins/cache`).
    Plugin,
    /// Given on the command line.
    Path,
    /// The bundled demo library.
    Demo,
}

impl Scope {
    /// Its name on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl Scope {
    /// Lower wins a shared name: Claude Code's order, managed > user > project > `--add-dir`,
    /// then a client's own skills, plugins (which Claude Code namespaces), folders given by hand
    /// and the demo.
    pub fn rank(self) -> u8 {
        match self {
            Scope::Managed => 0,
            Scope::User => 1,
            Scope::Project => 2,
            Scope::AddDir => 3,
            Scope::System => 4,
            Scope::Plugin => 5,
            Scope::Path => 6,
            Scope::Demo => 7,
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A folder that holds skills, tagged with the agent that reads it and its scope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Root {
    /// The folder.
    pub path: PathBuf,
    /// The agent that reads it.
    pub agent: Agent,
    /// Whose folder it is.
    pub scope: Scope,
    /// A folder of Claude Code's custom commands (`*.md` files, each a skill), not of skill
    /// folders.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub commands: bool,
}

impl Root {
    /// A root at `path`.
    pub fn new(path: impl Into<PathBuf>, agent: Agent, scope: Scope) -> Self {
        Root {
            path: path.into(),
            agent,
            scope,
            commands: false,
        }
    }

    /// A folder of Claude Code's custom commands.
    pub fn commands(path: impl Into<PathBuf>, scope: Scope) -> Self {
        Root {
            commands: true,
            ..Root::new(path, Agent::ClaudeCode, scope)
        }
    }

    /// Lower ranks win when two skills share a name. User skills shadow project skills (Claude
    /// Code's order: enterprise > user > project); among agents, the order of [`Agent::ALL`].
    pub fn precedence(&self) -> (u8, u8) {
        (self.agent as u8, self.scope.rank())
    }
}

/// Each folder is tagged with the agent whose folder it is; which agents read it (several read
/// `.agents/skills` and `.claude/skills`) is each agent's model (`core::agents::model`).
const USER_ROOTS: &[(Agent, &str)] = &[
    (Agent::ClaudeCode, ".claude/skills"),
    (Agent::Codex, ".codex/skills"),
    (Agent::Generic, ".agents/skills"),
    (Agent::Opencode, ".config/opencode/skill"),
    (Agent::Opencode, ".config/opencode/skills"),
    (Agent::Opencode, ".opencode/skill"),
    (Agent::Opencode, ".opencode/skills"),
    (Agent::Gemini, ".gemini/skills"),
    (Agent::Goose, ".config/goose/skills"),
    (Agent::Generic, ".config/agents/skills"),
    (Agent::LazySkills, ".config/cli-agent/skills"),
    (Agent::Openclaw, ".openclaw/skills"),
    (Agent::Copilot, ".copilot/skills"),
    (Agent::Cline, ".cline/skills"),
    (Agent::QwenCode, ".qwen/skills"),
];

/// Skills an agent's client installs itself below the home folder: Codex writes its system
/// skills into `~/.codex/skills/.system` on its first run. Read before the user folders, so that
/// they are this root's and not `~/.codex/skills`'s.
const SYSTEM_ROOTS: &[(Agent, &str)] = &[(Agent::Codex, ".codex/skills/.system")];

/// Where Claude Code keeps the plugins it installed.
const PLUGIN_CACHE: &str = ".claude/plugins/cache";

/// Claude Code's custom commands, in the home and in a project.
const COMMANDS: &str = ".claude/commands";

/// Claude Code's managed skills: the `.claude/skills` folder below its managed-settings folder
/// (`/etc/claude-code` on Linux, `/Library/Application Support/ClaudeCode` on macOS,
/// `C:\Program Files\ClaudeCode` on Windows, or `%ProgramData%\ClaudeCode` where older versions
/// put it and the newer one is missing), or below `$SKILLSCOPE_MANAGED_DIR` when set.
pub fn managed_skills_dir() -> Option<PathBuf> {
    let base = match std::env::var_os("SKILLSCOPE_MANAGED_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => managed_settings_dir(
            std::env::consts::OS,
            std::env::var_os("ProgramFiles").map(PathBuf::from),
            std::env::var_os("ProgramData").map(PathBuf::from),
        )?,
    };
    Some(base.join(".claude").join("skills"))
}

/// Claude Code's managed-settings folder on the system `os` (as [`std::env::consts::OS`] names
/// it), given Windows' `%ProgramFiles%` and `%ProgramData%`; `None` on a system Claude Code
/// does not name one for.
fn managed_settings_dir(
    os: &str,
    program_files: Option<PathBuf>,
    program_data: Option<PathBuf>,
) -> Option<PathBuf> {
    match os {
        "macos" => Some(PathBuf::from("/Library/Application Support/ClaudeCode")),
        "linux" => Some(PathBuf::from("/etc/claude-code")),
        "windows" => Some(windows_managed_dir(program_files, program_data)),
        _ => None,
    }
}

/// Claude Code's managed-settings folder on Windows: `ClaudeCode` in `%ProgramFiles%`
/// (`C:\Program Files`), else in `%ProgramData%` when only that one exists.
fn windows_managed_dir(program_files: Option<PathBuf>, program_data: Option<PathBuf>) -> PathBuf {
    let current = program_files
        .unwrap_or_else(|| PathBuf::from(r"C:\Program Files"))
        .join("ClaudeCode");
    match program_data.map(|d| d.join("ClaudeCode")) {
        Some(older) if !current.is_dir() && older.is_dir() => older,
        _ => current,
    }
}

const PROJECT_ROOTS: &[(Agent, &str)] = &[
    (Agent::ClaudeCode, ".claude/skills"),
    (Agent::Codex, ".codex/skills"),
    (Agent::Generic, ".agents/skills"),
    (Agent::Opencode, ".opencode/skill"),
    (Agent::Opencode, ".opencode/skills"),
    (Agent::Gemini, ".gemini/skills"),
    (Agent::Goose, ".goose/skills"),
    (Agent::Copilot, ".github/skills"),
    (Agent::Cline, ".clinerules/skills"),
    (Agent::Cline, ".cline/skills"),
    (Agent::QwenCode, ".qwen/skills"),
];

/// The folders (relative to the home folder for the user scope, to the project folder for the
/// project scope) where `agent` reads skills at `scope`, in the order they are read.
pub fn folders(agent: Agent, scope: Scope) -> Vec<&'static str> {
    let table = match scope {
        Scope::User => USER_ROOTS,
        Scope::Project => PROJECT_ROOTS,
        _ => return Vec::new(),
    };
    table
        .iter()
        .filter(|(a, _)| *a == agent)
        .map(|(_, rel)| *rel)
        .collect()
}

/// Every folder, relative to a project, where some agent reads the project's skills, in the order
/// of the agents' folder table: where a repository keeps skills for agents.
pub fn project_folders() -> impl Iterator<Item = &'static str> {
    PROJECT_ROOTS.iter().map(|(_, rel)| *rel)
}

/// The project's roots that exist: every agent's project folders in `cwd` and each parent up to
/// the repository root (the first folder holding `.git`), never the home folder itself.
pub fn project_roots(home: Option<&Path>, cwd: &Path) -> Vec<Root> {
    let mut roots: Vec<Root> = Vec::new();
    for dir in cwd.ancestors() {
        if Some(dir) == home {
            break;
        }
        for (agent, rel) in PROJECT_ROOTS {
            let p = dir.join(rel);
            if p.is_dir() && !roots.iter().any(|r| r.path == p) {
                roots.push(Root::new(p, *agent, Scope::Project));
            }
        }
        let p = dir.join(COMMANDS);
        if p.is_dir() && !roots.iter().any(|r| r.path == p) {
            roots.push(Root::commands(p, Scope::Project));
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    roots
}

/// Every default root that exists: user scope under `home`, project scope in `cwd` and each parent
/// up to the repository root (the first folder holding `.git`), never the home folder itself.
pub fn default_roots(home: Option<&Path>, cwd: &Path) -> Vec<Root> {
    let mut roots = Vec::new();
    if let Some(managed) = managed_skills_dir().filter(|d| d.is_dir()) {
        roots.push(Root::new(managed, Agent::ClaudeCode, Scope::Managed));
    }
    if let Some(home) = home {
        for (agent, rel) in SYSTEM_ROOTS {
            let p = home.join(rel);
            if p.is_dir() {
                roots.push(Root::new(p, *agent, Scope::System));
            }
        }
        for (agent, rel) in USER_ROOTS {
            let p = home.join(rel);
            if p.is_dir() {
                roots.push(Root::new(p, *agent, Scope::User));
            }
        }
        // Installed plugins' skills (`cache/<marketplace>/<plugin>/<version>/skills/…`), which
        // Claude Code namespaces `plugin:skill`.
        let plugins = home.join(PLUGIN_CACHE);
        if plugins.is_dir() {
            roots.push(Root::new(plugins, Agent::ClaudeCode, Scope::Plugin));
        }
        let commands = home.join(COMMANDS);
        if commands.is_dir() {
            roots.push(Root::commands(commands, Scope::User));
        }
    }
    for r in project_roots(home, cwd) {
        if !roots.iter().any(|x: &Root| x.path == r.path) {
            roots.push(r);
        }
    }
    if let Some(home) = home {
        for (agent, p) in openclaw_workspace_folders(home) {
            if p.is_dir() && !roots.iter().any(|r: &Root| r.path == p) {
                roots.push(Root::new(p, agent, Scope::Project));
            }
        }
    }
    roots
}

/// OpenClaw's configuration file below the home folder.
pub const OPENCLAW_CONFIG: &str = ".openclaw/openclaw.json";

/// OpenClaw's workspace: `agents.defaults.workspace` of `~/.openclaw/openclaw.json` (JSON5;
/// `~` is the home folder, a relative path is taken from the home folder), else its default
/// `~/.openclaw/workspace`. OpenClaw reads the workspace's skills wherever the session runs.
/// The file is read as every settings file is ([`fsx::read_settings`](crate::core::files::fsx::read_settings)):
/// one that cannot be read gives the default, and [`openclaw_config_problem`] says why.
pub fn openclaw_workspace(home: &Path) -> PathBuf {
    let configured = read_openclaw_config(home).ok().flatten().and_then(|v| {
        v.pointer("/agents/defaults/workspace")
            .and_then(serde_json::Value::as_str)
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .map(str::to_string)
    });
    match configured {
        Some(w) if w == "~" => home.to_path_buf(),
        Some(w) => match w.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None => home.join(w),
        },
        None => home.join(".openclaw/workspace"),
    }
}

/// `~/.openclaw/openclaw.json`'s value; `None` when it is not there or does not parse (its
/// switches' reader reports that), the error when it is no regular file of a settings file's
/// size.
fn read_openclaw_config(
    home: &Path,
) -> Result<Option<serde_json::Value>, crate::core::files::fsx::FsxError> {
    let Some(bytes) = crate::core::files::fsx::read_settings(&home.join(OPENCLAW_CONFIG))? else {
        return Ok(None);
    };
    Ok(jsonc_parser::parse_to_serde_value(
        &String::from_utf8_lossy(&bytes),
        &jsonc_parser::ParseOptions::default(),
    )
    .ok()
    .flatten())
}

/// Why OpenClaw's workspace is taken as its default although `~/.openclaw/openclaw.json` is
/// there: the file is no regular file (a FIFO, a device, a link to one) or too large to read.
/// Every view's library holds the workspace's skills, so this is said whichever agent is in view.
pub fn openclaw_config_problem(home: &Path) -> Option<String> {
    read_openclaw_config(home).err().map(|e| {
        format!(
            "{e}; OpenClaw's workspace is taken as {}",
            home.join(".openclaw/workspace").display()
        )
    })
}

/// The workspace folders OpenClaw reads (`<workspace>/skills`, its own; `<workspace>/.agents/
/// skills`, the shared folder, the generic agent's), highest precedence first.
pub fn openclaw_workspace_folders(home: &Path) -> [(Agent, PathBuf); 2] {
    let ws = openclaw_workspace(home);
    [
        (Agent::Openclaw, ws.join("skills")),
        (Agent::Generic, ws.join(".agents/skills")),
    ]
}

/// Claude Code's skills of the folders given to it with `--add-dir` (each folder's
/// `.claude/skills`, when it exists).
pub fn add_dir_roots(dirs: &[PathBuf]) -> Vec<Root> {
    dirs.iter()
        .map(|d| d.join(".claude/skills"))
        .filter(|p| p.is_dir())
        .map(|p| Root::new(p, Agent::ClaudeCode, Scope::AddDir))
        .collect()
}

/// Roots for paths given on the command line.
pub fn path_roots(paths: &[PathBuf]) -> Vec<Root> {
    paths
        .iter()
        .map(|p| Root::new(p.clone(), Agent::Path, Scope::Path))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_codes_managed_folder_is_each_systems_own() {
        let files = Some(PathBuf::from(r"D:\Programs"));
        assert_eq!(
            managed_settings_dir("linux", files.clone(), None),
            Some(PathBuf::from("/etc/claude-code"))
        );
        assert_eq!(
            managed_settings_dir("macos", files.clone(), None),
            Some(PathBuf::from("/Library/Application Support/ClaudeCode"))
        );
        assert_eq!(
            managed_settings_dir("windows", files, None),
            Some(PathBuf::from(r"D:\Programs").join("ClaudeCode"))
        );
        assert_eq!(managed_settings_dir("freebsd", None, None), None);
    }

    #[test]
    fn claude_codes_windows_managed_folder_is_program_files_else_the_older_program_data() {
        let t = tempfile::tempdir().unwrap();
        let (files, data) = (t.path().join("Program Files"), t.path().join("ProgramData"));
        let dir = |f: &PathBuf, d: &PathBuf| windows_managed_dir(Some(f.clone()), Some(d.clone()));
        // Neither there: the current place.
        assert_eq!(dir(&files, &data), files.join("ClaudeCode"));
        // Only the older one there: that one.
        std::fs::create_dir_all(data.join("ClaudeCode")).unwrap();
        assert_eq!(dir(&files, &data), data.join("ClaudeCode"));
        // Both: the current one wins.
        std::fs::create_dir_all(files.join("ClaudeCode")).unwrap();
        assert_eq!(dir(&files, &data), files.join("ClaudeCode"));
        // No variables: C:\Program Files.
        assert_eq!(
            windows_managed_dir(None, None),
            PathBuf::from(r"C:\Program Files").join("ClaudeCode")
        );
    }

    /// The derived names are the ones the CLI, JSON and the config took before they were
    /// derived, and JSON writes each as its name.
    #[test]
    fn derived_names_are_the_written_ones() {
        use crate::core::findings::catalogue::{Family, Severity};
        use crate::core::library::ResourceGroup;
        use crate::core::listing::{Fate, Tier};
        use crate::core::matching::Matcher;
        use crate::core::pricing::modes::ListingMode;
        fn names<T: Copy + Into<&'static str>>(all: &[T]) -> Vec<&'static str> {
            all.iter().map(|&t| t.into()).collect()
        }
        fn json<T: Serialize>(all: &[T]) -> Vec<String> {
            all.iter()
                .map(|t| {
                    serde_json::to_value(t)
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .to_string()
                })
                .collect()
        }
        let scopes = [
            Scope::Managed,
            Scope::User,
            Scope::Project,
            Scope::AddDir,
            Scope::System,
            Scope::Plugin,
            Scope::Path,
            Scope::Demo,
        ];
        let scope_names = [
            "managed", "user", "project", "add-dir", "system", "plugin", "path", "demo",
        ];
        assert_eq!(names(&scopes), scope_names);
        assert_eq!(json(&scopes), scope_names);
        assert_eq!(names(Tier::ALL), ["auto", "full", "compact", "names"]);
        assert_eq!(json(Tier::ALL), names(Tier::ALL));
        assert_eq!(
            names(Fate::ALL),
            ["full", "trimmed", "name only", "dropped"]
        );
        assert_eq!(names(ListingMode::ALL), ["enabled", "all", "auto"]);
        assert_eq!(json(ListingMode::ALL), names(ListingMode::ALL));
        let matchers = ["keyword", "triggers", "bm25", "fuzzy", "semantic", "hybrid"];
        assert_eq!(names(Matcher::ALL), matchers);
        assert_eq!(json(Matcher::ALL), matchers);
        let severities = [Severity::Info, Severity::Warning, Severity::Error];
        assert_eq!(names(&severities), ["info", "warning", "error"]);
        assert_eq!(json(&severities), names(&severities));
        assert_eq!(
            names(ResourceGroup::ALL),
            ["scripts", "references", "assets", "other"]
        );
        assert_eq!(json(ResourceGroup::ALL), names(ResourceGroup::ALL));
        assert_eq!(
            names(&[Family::File, Family::Frontmatter, Family::Dependencies]),
            ["file", "frontmatter", "dependencies"]
        );
        use crate::core::matching::HitField;
        use crate::core::pricing::baseline::Fate as Kept;
        let kept = [
            Kept::Listed,
            Kept::Trimmed,
            Kept::NameOnly,
            Kept::Dropped,
            Kept::Off,
        ];
        assert_eq!(
            names(&kept),
            ["listed", "trimmed", "name-only", "dropped", "off"]
        );
        assert_eq!(json(&kept), names(&kept));
        assert_eq!(
            names(&[HitField::WhenToUse, HitField::ExecutableVerb]),
            ["when_to_use", "executable-verb"]
        );
    }

    #[test]
    fn finds_user_and_project_roots_and_stops_at_repo_root() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        std::fs::create_dir_all(home.join(".claude/skills")).unwrap();
        std::fs::create_dir_all(home.join(".config/opencode/skills")).unwrap();
        let outer = tmp.path().join("outer");
        let repo = outer.join("repo");
        let sub = repo.join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join(".agents/skills")).unwrap();
        std::fs::create_dir_all(outer.join(".claude/skills")).unwrap();
        let roots = default_roots(Some(&home), &sub);
        let got: Vec<_> = roots
            .iter()
            .map(|r| {
                (
                    r.agent,
                    r.scope,
                    r.path.strip_prefix(tmp.path()).unwrap().to_path_buf(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    Agent::ClaudeCode,
                    Scope::User,
                    PathBuf::from("home/.claude/skills")
                ),
                (
                    Agent::Opencode,
                    Scope::User,
                    PathBuf::from("home/.config/opencode/skills")
                ),
                (
                    Agent::Generic,
                    Scope::Project,
                    PathBuf::from("outer/repo/.agents/skills")
                ),
            ]
        );
    }
}
