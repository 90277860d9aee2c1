//! An agent's real client at the version its model was verified against: the models it runs
//! (where its listing budget depends on the model), its built-in entries, and the settings and
//! environment that change its budget. Checked byte for byte against captures of that client
//! (`tests/fixtures/agents/<client>@<version>/`, `tests/cli/ground_truth.rs`).

use crate::core::listing::BuiltinEntry;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use super::client_models::ClientModel;

/// An agent's client at one version.
#[derive(Debug)]
pub struct Client {
    /// The version the model was verified against, byte for byte.
    pub version: &'static str,
    /// The models whose budgets are known, the client's default first.
    pub models: &'static [ClientModel],
    /// The entries it lists after the library's, whatever the library holds.
    pub builtins: &'static [BuiltinEntry],
    /// The environment variable that sets the listing budget in characters outright.
    pub budget_env: Option<&'static str>,
    /// The settings key giving the listing's share of the window (a fraction, 0.01 by default).
    pub budget_setting: Option<&'static str>,
    /// Its settings files: below the home folder, then below the project (later ones win).
    pub settings_files: (&'static [&'static str], &'static [&'static str]),
    /// Where it is installed, for built-ins whose location is below that folder.
    pub install: Option<&'static Install>,
    /// Its models' other names and what it does with a model it does not know, where its budget
    /// depends on the model (`client_models.rs`).
    pub catalogue: Option<&'static super::client_models::Catalogue>,
}

/// A model name as a client takes it: the model its budget is made for, and whether the client
/// knows the name (a name it does not know runs on its fallback).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved {
    /// The model budgeted for: the named one, or the client's fallback.
    pub model: &'static ClientModel,
    /// The client knows the name (a model id, an alias, a dated id).
    pub known: bool,
    /// The client does not know the model but gives the name its suffix's window
    /// (`Catalogue::suffixed`: Claude Code's `[1m]`).
    pub by_suffix: bool,
}

/// How to find the folder an npm-installed client lives in (what the captures call `{CLIENT}`:
/// the folder holding its `node_modules`).
#[derive(Debug)]
pub struct Install {
    /// Its command, looked for on `PATH`.
    pub command: &'static str,
    /// Its package folder below the install folder (`node_modules/@google/gemini-cli`).
    pub package: &'static str,
    /// The install folder taken when the command is not found: npm's global one by default.
    pub default_dir: &'static str,
    /// The folder found, once per process.
    found: OnceLock<PathBuf>,
}

impl Install {
    /// An install of `command` from the package at `package`, `default_dir` when not found.
    pub const fn new(
        command: &'static str,
        package: &'static str,
        default_dir: &'static str,
    ) -> Self {
        Install {
            command,
            package,
            default_dir,
            found: OnceLock::new(),
        }
    }

    /// The install folder of the command found first on `path` (a `PATH` value): the command,
    /// its links resolved, lies inside `FOLDER/package`; `None` when no command on `path` does.
    pub fn find(&self, path: &OsStr) -> Option<PathBuf> {
        let package = Path::new(self.package);
        std::env::split_paths(path)
            .map(|d| d.join(self.command))
            .filter(|c| c.is_file())
            .filter_map(|c| std::fs::canonicalize(c).ok())
            .find_map(|real| {
                real.ancestors()
                    .find(|a| a.ends_with(package))
                    .and_then(|a| a.ancestors().nth(package.components().count()))
                    .map(Path::to_path_buf)
            })
    }

    /// The install folder: the command's on this process's `PATH`, else the default one (read
    /// once per process).
    pub fn dir(&'static self) -> &'static Path {
        self.found.get_or_init(|| {
            std::env::var_os("PATH")
                .and_then(|p| self.find(&p))
                .unwrap_or_else(|| PathBuf::from(self.default_dir))
        })
    }
}

/// A model the client does not know.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ClientError {
    /// Not one of the client's models.
    #[error("unknown model `{model}` for {agent} {version}: use {known}")]
    UnknownModel {
        /// What was asked for.
        model: String,
        /// The agent's name.
        agent: &'static str,
        /// The client version.
        version: &'static str,
        /// The models it knows, the default first.
        known: String,
    },
    /// The agent's listing does not depend on the model.
    #[error(
        "--model chooses the model where an agent's listing budget depends on it; {agent}'s does not (models are known for: {known})"
    )]
    NoModels {
        /// The agent's name.
        agent: &'static str,
        /// The agents whose models are known.
        known: String,
    },
}

impl Client {
    /// The model it runs when none is named.
    pub fn default_model(&self) -> Option<&'static ClientModel> {
        self.models.first()
    }

    /// The model `name` means to the client: a model id, an alias or a dated id of its catalogue
    /// (letter case aside; Claude Code's `[1m]` after any of them), else its fallback for a model
    /// it does not know (Claude Code: the million it gives any name holding `[1m]`). `None` when
    /// its budget does not depend on the model.
    pub fn resolve(&self, name: &str) -> Option<Resolved> {
        let cat = self.catalogue?;
        let wanted = name.trim().to_ascii_lowercase();
        let (base, suffix) = match cat.suffix {
            Some(sfx) => match wanted.strip_suffix(sfx) {
                Some(b) => (b.to_string(), Some(sfx)),
                None => (wanted.clone(), None),
            },
            None => (wanted.clone(), None),
        };
        let id = cat
            .aliases
            .iter()
            .find(|(a, _)| *a == base)
            .map_or(base.as_str(), |(_, id)| *id);
        let find = |id: &str| self.models.iter().find(|m| m.id == id);
        let found = match suffix {
            Some(sfx) => find(&format!("{id}{sfx}")).or_else(|| find(id)),
            None => find(id),
        };
        // The client tests a name it does not know for the suffix anywhere in it
        // (`/\[1m\]/i`), not only at its end.
        let suffixed = cat
            .suffixed
            .filter(|_| cat.suffix.is_some_and(|sfx| wanted.contains(sfx)));
        Some(match (found, suffixed) {
            (Some(model), _) => Resolved {
                model,
                known: true,
                by_suffix: false,
            },
            (None, Some(model)) => Resolved {
                model,
                known: false,
                by_suffix: true,
            },
            (None, None) => Resolved {
                model: cat.fallback,
                known: false,
                by_suffix: false,
            },
        })
    }

    /// The model named `id` (`agent` names the agent in the error).
    pub fn model(
        &self,
        id: &str,
        agent: &'static str,
    ) -> Result<&'static ClientModel, ClientError> {
        self.models
            .iter()
            .find(|m| m.id.eq_ignore_ascii_case(id.trim()))
            .or_else(|| self.resolve(id).filter(|r| r.known).map(|r| r.model))
            .ok_or_else(|| ClientError::UnknownModel {
                model: id.to_string(),
                agent,
                version: self.version,
                known: self.known(),
            })
    }

    /// The known models, for messages: `claude-opus-5-5 (default) or claude-sonnet-4-5`.
    pub fn known(&self) -> String {
        let ids: Vec<String> = self
            .models
            .iter()
            .enumerate()
            .map(|(i, m)| {
                if i == 0 {
                    format!("{} (default)", m.id)
                } else {
                    m.id.to_string()
                }
            })
            .collect();
        match ids.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => ids.join(""),
        }
    }
}

/// What the environment and the client's settings say of its listing budget.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BudgetOverrides {
    /// The budget in characters, set outright (the environment variable).
    pub chars: Option<usize>,
    /// The listing's share of the window (the settings key).
    pub fraction: Option<f64>,
}

impl BudgetOverrides {
    /// Reads the client's environment variable from this process's environment and its settings
    /// key from its settings files under `home` and `project` (a later file wins; a file that
    /// cannot be read or parsed says nothing here: its switches' reader reports it).
    pub fn read(client: &Client, home: Option<&Path>, project: Option<&Path>) -> BudgetOverrides {
        let chars = client
            .budget_env
            .and_then(std::env::var_os)
            .and_then(|v| v.to_str().and_then(|t| t.trim().parse::<usize>().ok()))
            .filter(|&n| n > 0);
        let mut fraction = None;
        if let Some(key) = client.budget_setting {
            let (user, proj) = client.settings_files;
            let files = home
                .into_iter()
                .flat_map(|h| user.iter().map(move |f| h.join(f)))
                .chain(
                    project
                        .into_iter()
                        .flat_map(|p| proj.iter().map(move |f| p.join(f))),
                );
            for file in files {
                // The one bounded reader: a FIFO or a link to a device is refused at once.
                let Ok(Some(bytes)) = crate::core::files::fsx::read_settings(&file) else {
                    continue;
                };
                let value: Option<f64> = serde_json::from_slice::<serde_json::Value>(&bytes)
                    .ok()
                    .and_then(|v| v.get(key).and_then(serde_json::Value::as_f64));
                if let Some(f) = value.filter(|f| f.is_finite() && *f > 0.0) {
                    fraction = Some(f);
                }
            }
        }
        BudgetOverrides { chars, fraction }
    }

    /// The budget in characters they set for a window of `window` tokens at `chars_per_token`:
    /// the variable's, else `max(1, floor(window × chars per token × fraction))`.
    pub fn budget(&self, window: usize, chars_per_token: usize) -> Option<usize> {
        self.chars.or_else(|| {
            self.fraction.map(|f| {
                // Windows and budgets stay far below 2^52, where f64 stops being exact.
                let b = (window as f64 * chars_per_token as f64 * f).floor();
                if b >= 1.0 { b as usize } else { 1 }
            })
        })
    }
}

/// Where Gemini CLI is installed: `gemini` on `PATH` is `…/node_modules/@google/gemini-cli/
/// bundle/gemini.js`; without it, npm's default global folder (`npm install -g` with the prefix
/// `/usr/local`).
static GEMINI_INSTALL: Install = Install::new(
    "gemini",
    "node_modules/@google/gemini-cli",
    "/usr/local/lib",
);

/// Gemini CLI 0.61.0 (npm `@google/gemini-cli`), as captured in
/// `tests/fixtures/agents/gemini-cli@0.61.0/`: no budget and no model in its listing; two
/// built-in skills, listed first, located below the folder it is installed in.
pub static GEMINI_CLI_0_61_0: Client = Client {
    version: "0.61.0",
    models: &[],
    builtins: super::gemini::builtins::GEMINI_BUILTINS,
    budget_env: None,
    budget_setting: None,
    settings_files: (&[".gemini/settings.json"], &[".gemini/settings.json"]),
    install: Some(&GEMINI_INSTALL),
    catalogue: None,
};

/// opencode 1.18.33 (npm `opencode-ai`), as captured in `tests/fixtures/agents/opencode@1.18.33/`:
/// no budget and no model in its listing; one built-in skill, located `<built-in>`.
pub static OPENCODE_1_18_33: Client = Client {
    version: "1.18.33",
    models: &[],
    builtins: super::opencode::builtins::OPENCODE_BUILTINS,
    budget_env: None,
    budget_setting: None,
    settings_files: (
        &[
            ".config/opencode/opencode.json",
            ".config/opencode/opencode.jsonc",
        ],
        &["opencode.json", "opencode.jsonc"],
    ),
    install: None,
    catalogue: None,
};

/// Qwen Code 0.24.4 (npm `@qwen-code/qwen-code`), as captured in
/// `tests/fixtures/agents/qwen-code@0.24.4/` and read in `tests/fixtures/agents/NEW-AGENTS.md`:
/// a fixed budget of 8,000 characters whatever the model; 14 bundled skills listed.
pub static QWEN_CODE_0_24_4: Client = Client {
    version: "0.24.4",
    models: &[],
    builtins: super::qwen::builtins::QWEN_CODE_BUILTINS,
    budget_env: None,
    budget_setting: None,
    settings_files: (&[".qwen/settings.json"], &[".qwen/settings.json"]),
    install: None,
    catalogue: None,
};

/// GitHub Copilot CLI 1.0.102 (npm `@github/copilot`), as captured in
/// `tests/fixtures/agents/copilot@1.0.102/`: a budget of about 15,000 characters whatever the
/// model; two built-in skills listed.
pub static COPILOT_1_0_102: Client = Client {
    version: "1.0.102",
    models: &[],
    builtins: super::copilot::builtins::COPILOT_BUILTINS,
    budget_env: None,
    budget_setting: None,
    settings_files: (
        &[".copilot/settings.json"],
        &[".github/copilot/settings.json"],
    ),
    install: None,
    catalogue: None,
};

/// Cline 3.0.65 (npm `cline`), as captured in `tests/fixtures/agents/cline@3.0.65/`: names
/// only, no budget, no built-in skill.
pub static CLINE_3_0_65: Client = Client {
    version: "3.0.65",
    models: &[],
    builtins: &[],
    budget_env: None,
    budget_setting: None,
    settings_files: (&[], &[]),
    install: None,
    catalogue: None,
};

/// OpenClaw 2026.9.6 (npm `openclaw`), as captured in `tests/fixtures/agents/openclaw@2026.9.6/`:
/// 150 skills and 18,000 characters; the bundled and plugin skills eligible on the capture
/// machine.
pub static OPENCLAW_2026_9_6: Client = Client {
    version: "2026.9.6",
    models: &[],
    builtins: crate::core::agents::openclaw::builtins::BUILTINS,
    budget_env: None,
    budget_setting: None,
    settings_files: (&[".openclaw/openclaw.json"], &[]),
    install: None,
    catalogue: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::claude::eras::CLAUDE_CODE_2_1_332;
    use crate::core::agents::codex::eras::CODEX_0_171_0;

    #[test]
    fn the_claude_code_budgets_are_the_captured_ones() {
        let c = &CLAUDE_CODE_2_1_332;
        let budget = |m: &ClientModel| m.context_window * m.chars_per_token / 100;
        assert_eq!(c.default_model().map(budget), Some(30_000));
        assert_eq!(
            c.model("claude-sonnet-4-5", "Claude Code").map(budget),
            Ok(8_000)
        );
        // Its aliases and dated ids as it takes them, `[1m]` after a name for a million tokens.
        let id = |name: &str| c.resolve(name).map(|r| (r.model.id, r.known));
        assert_eq!(id("Sonnet"), Some(("claude-sonnet-5-5", true)));
        assert_eq!(id("opusplan"), Some(("claude-sonnet-5-5", true)));
        assert_eq!(
            id("claude-sonnet-4-5-20250929"),
            Some(("claude-sonnet-4-5", true))
        );
        assert_eq!(
            c.resolve("claude-sonnet-4-5[1m]").map(|r| budget(r.model)),
            Some(40_000)
        );
        // A model it does not know: its fallback window (1,000,000 at 3 characters a token),
        // not an error.
        let r = c.resolve("gpt-5").unwrap();
        assert_eq!((r.known, budget(r.model)), (false, 30_000));
        let e = c.model("gpt-5", "Claude Code").unwrap_err().to_string();
        assert!(
            e.starts_with(
                "unknown model `gpt-5` for Claude Code 2.1.332: use claude-opus-5-5 (default), "
            ),
            "{e}"
        );
        assert_eq!(c.builtins.len(), 13);
        assert_eq!(c.builtins.iter().filter(|b| b.fixed).count(), 11);
    }

    #[test]
    fn an_install_is_found_through_the_links_of_its_command() {
        let t = tempfile::tempdir().unwrap();
        let prefix = t.path().join("prefix");
        let bundle = prefix.join("node_modules/@google/gemini-cli/bundle");
        std::fs::create_dir_all(&bundle).unwrap();
        std::fs::write(bundle.join("gemini.js"), "").unwrap();
        let bin = t.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let install = Install::new(
            "gemini",
            "node_modules/@google/gemini-cli",
            "/usr/local/lib",
        );
        let path = std::env::join_paths([t.path().join("empty"), bin.clone()]).unwrap();
        assert_eq!(install.find(&path), None);
        crate::core::files::fsx::test_link(bundle.join("gemini.js"), bin.join("gemini")).unwrap();
        assert_eq!(
            install.find(&path),
            Some(std::fs::canonicalize(&prefix).unwrap())
        );
        // A command that is not the package's is no install of it.
        std::fs::remove_file(bin.join("gemini")).unwrap();
        std::fs::write(bin.join("gemini"), "").unwrap();
        assert_eq!(install.find(&path), None);
        assert!(GEMINI_CLI_0_61_0.models.is_empty());
        assert_eq!(GEMINI_CLI_0_61_0.builtins.len(), 2);
        assert_eq!(OPENCODE_1_18_33.builtins.len(), 1);
    }

    #[test]
    fn the_codex_budget_is_the_captured_one() {
        let c = &CODEX_0_171_0;
        let m = c.default_model().unwrap();
        assert_eq!(m.id, "gpt-6.2-sol");
        assert_eq!(
            crate::core::listing::Format::Codex.budget(m.context_window),
            Some(crate::core::listing::Budget::tokens(10_000))
        );
        // Without a window Codex budgets 8,000 characters.
        assert_eq!(
            crate::core::listing::Format::Codex.budget(0),
            Some(crate::core::listing::Budget::chars(8_000))
        );
        // Every model of the list its binary embeds, by its slug; another one runs on Codex's
        // fallback metadata, a window of 272,000 tokens (`budget150-configured`).
        assert_eq!(c.models.len(), 14);
        let window = |name: &str| c.resolve(name).map(|r| (r.model.context_window, r.known));
        assert_eq!(window("gpt-6.2-astra"), Some((272_000, true)));
        assert_eq!(window("gpt-daybreak-red-latest"), Some((372_000, true)));
        assert_eq!(window("gpt-5.1-codex"), Some((272_000, false)));
        assert_eq!(
            crate::core::listing::Format::Codex.budget(272_000),
            Some(crate::core::listing::Budget::tokens(5_440))
        );
        assert!(c.model("gpt-5", "Codex").is_err());
        assert!(GEMINI_CLI_0_61_0.resolve("gemini-2.5-pro").is_none());
        assert!(c.builtins.is_empty());
    }

    #[test]
    fn settings_give_a_share_and_a_later_file_wins() {
        let t = tempfile::tempdir().unwrap();
        let (home, project) = (t.path().join("h"), t.path().join("p"));
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        std::fs::write(
            home.join(".claude/settings.json"),
            r#"{"skillListingBudgetFraction": 0.02}"#,
        )
        .unwrap();
        let mut c = Client {
            budget_env: None,
            ..CLAUDE_CODE_2_1_332
        };
        let o = BudgetOverrides::read(&c, Some(&home), Some(&project));
        assert_eq!(o.budget(200_000, 4), Some(16_000));
        std::fs::write(
            project.join(".claude/settings.local.json"),
            r#"{"skillListingBudgetFraction": 0.005}"#,
        )
        .unwrap();
        let o = BudgetOverrides::read(&c, Some(&home), Some(&project));
        assert_eq!(o.budget(200_000, 4), Some(4_000));
        c.budget_setting = None;
        assert_eq!(
            BudgetOverrides::read(&c, Some(&home), None).budget(1, 1),
            None
        );
    }
}
