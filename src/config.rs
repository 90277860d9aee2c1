//! The user's config file, `<config_dir>/skillscope/config.toml`: defaults for the CLI and the
//! app, extra library roots, and key bindings. Every key it does not know and every bad value is
//! reported with its line; nothing is ignored silently. Plain data: the CLI applies it to its
//! arguments (`cli::defaults`) and the app builds its options and keymap from it
//! (`tui::settings`), which also judges the key bindings' names.

use crate::core::listing::{Format, Tier};
use crate::core::pricing::model::Model;
use crate::core::rules::Profile;
use crate::core::rules::select::{Level, Levels, PathLevels, RuleConfig, Selector};
use crate::core::tokens::Encoding;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use toml_edit::{Item, Table, TableLike, Value};

/// A config file larger than this is not a config file.
const MAX_BYTES: u64 = 1 << 20;

/// The keys a config file may hold at its top level, with what they take.
pub const KEYS: &[(&str, &str)] = &[
    (
        "profile",
        "spec, claude-code, codex, opencode, lazy-skills, qwen-code, github-copilot, cline or openclaw",
    ),
    (
        "listing",
        "xml, markdown, claude-code, codex, lazy-skills, gemini, opencode, qwen-code, copilot, cline or openclaw",
    ),
    ("tier", "auto, full, compact or names"),
    ("encoding", "o200k_base or cl100k_base"),
    ("context_window", "a number of tokens, e.g. 200000"),
    (
        "model",
        "claude, gemini, gpt-4o, gpt-4, NAME=FACTOR (e.g. \"claude-opus=1.2\") or none",
    ),
    ("roots", "a list of folders read with the agents' own"),
    (
        "keys",
        "a table: action = \"key\" or [\"key\", …]; [keys.<context>] for one context",
    ),
    (
        "rules",
        "a table: rule or family = \"off\", \"info\", \"warning\" or \"error\"; [[rules.per-path]] with paths = [\"glob\", …] and levels for the skills there",
    ),
];

/// One problem with the file, at a line when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: Option<u32>,
    pub message: String,
}

/// The config file as read: each setting `None` when the file does not set it (or sets it
/// wrongly, which `problems` then says).
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The file read; `None` when there is none.
    pub path: Option<PathBuf>,
    pub profile: Option<Profile>,
    pub listing: Option<Format>,
    pub tier: Option<Tier>,
    pub encoding: Option<Encoding>,
    pub context_window: Option<usize>,
    pub model: Option<Model>,
    /// Extra library roots, absolute (relative ones are taken from the config file's folder).
    pub roots: Vec<PathBuf>,
    /// `[keys]` as written, for the app to read over its default keymap.
    pub keys: Vec<KeyTable>,
    /// How many of `problems` come before the `[keys]` table's: the app's own problems with
    /// the bindings go there, so every problem is said in the file's order.
    pub keys_at: usize,
    /// `[rules]`: levels per rule or family, everywhere and per path glob.
    pub rules: RuleConfig,
    pub problems: Vec<Problem>,
}

/// `[keys]` (`context` `None`) or one `[keys.<context>]` table: its bindings as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyTable {
    pub context: Option<String>,
    /// The table's line (a context's name is judged there).
    pub line: Option<u32>,
    pub bindings: Vec<KeyBinding>,
}

/// `action = "key"` or `action = ["key", …]`, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyBinding {
    pub action: String,
    pub keys: KeySpecs,
    pub line: Option<u32>,
}

/// A binding's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySpecs {
    Keys(Vec<String>),
    /// A list with something other than a string in it.
    NotAllStrings,
    /// Neither a string nor a list.
    NotKeys,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Where the config file is: `$SKILLSCOPE_CONFIG`, else `config.toml` in skillscope's config
/// folder (`$SKILLSCOPE_CONFIG_DIR`, else `<config_dir>/skillscope`, which honours
/// `XDG_CONFIG_HOME`).
pub fn default_path() -> PathBuf {
    match std::env::var_os("SKILLSCOPE_CONFIG") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => crate::core::files::paths::config_root().join("config.toml"),
    }
}

static ACTIVE: OnceLock<Config> = OnceLock::new();

/// Makes `config` the one the process runs with (its extra roots join every default library).
/// Only the first call counts.
pub fn activate(config: Config) -> &'static Config {
    ACTIVE.get_or_init(|| config)
}

/// The config the process runs with; empty when none was activated (library use, tests).
pub fn active() -> Option<&'static Config> {
    ACTIVE.get()
}

impl Config {
    /// Reads the file at [`default_path`].
    pub fn load() -> Config {
        Config::load_from(&default_path())
    }

    /// Reads `path`. A missing file is no problem; anything else wrong with it is one.
    pub fn load_from(path: &Path) -> Config {
        let mut c = Config::default();
        // The one bounded reader of settings files: a FIFO or a device (a link to one too) would
        // hang the read or never end, and is refused at once; so is a file past the cap.
        match crate::core::files::fsx::read_capped(path, MAX_BYTES) {
            Ok(None) => {}
            Ok(Some(bytes)) => {
                c.path = Some(path.to_path_buf());
                match String::from_utf8(bytes) {
                    Ok(text) => c.parse(&text, path.parent()),
                    Err(_) => c.problem(None, "it is not UTF-8 text; it is ignored".to_string()),
                }
            }
            Err(e) => {
                c.path = Some(path.to_path_buf());
                c.problem(None, format!("{}; it is ignored", e.reason()));
            }
        }
        c
    }

    /// Reads config text; `dir` resolves relative roots.
    pub fn parse_text(text: &str, dir: Option<&Path>) -> Config {
        let mut c = Config::default();
        c.parse(text, dir);
        c
    }

    fn problem(&mut self, line: Option<u32>, message: String) {
        self.problems.push(Problem { line, message });
    }

    fn parse(&mut self, text: &str, dir: Option<&Path>) {
        let doc = match toml_edit::Document::parse(text) {
            Ok(d) => d,
            Err(e) => {
                let line = e.span().map(|s| line_of(text, s.start));
                let msg = e.message().trim().to_string();
                self.problem(
                    line,
                    format!("not valid TOML: {msg}; the whole file is ignored"),
                );
                return;
            }
        };
        let root = doc.as_table();
        for (key, item) in root {
            let line = key_line(text, root, key);
            match key {
                "profile" => self.profile = self.value(text, line, key, item),
                "listing" => self.listing = self.value(text, line, key, item),
                "tier" => self.tier = self.value(text, line, key, item),
                "encoding" => self.encoding = self.value(text, line, key, item),
                "model" => {
                    self.model = self
                        .value::<crate::core::pricing::model::ModelChoice>(text, line, key, item)
                        .and_then(|c| c.0);
                }
                "context_window" => match item.as_integer() {
                    Some(n) if (1_000..=100_000_000).contains(&n) => {
                        self.context_window = usize::try_from(n).ok();
                    }
                    _ => self.problem(
                        line,
                        "`context_window` must be a number of tokens between 1000 and 100000000"
                            .to_string(),
                    ),
                },
                "roots" => self.roots(line, item, dir),
                "keys" => match item.as_table_like() {
                    Some(t) => {
                        self.keys_at = self.problems.len();
                        self.keys(text, None, line, t);
                    }
                    None => self.problem(line, "`keys` must be a table of bindings".to_string()),
                },
                "rules" => match item.as_table_like() {
                    Some(t) => self.rules(text, t),
                    None => self.problem(
                        line,
                        "`rules` must be a table: rule or family = level".to_string(),
                    ),
                },
                other => {
                    let known: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
                    self.problem(
                        line,
                        format!(
                            "unknown key {other:?}{}; the keys are {}",
                            meant(other, known.iter().copied()),
                            known.join(", ")
                        ),
                    );
                }
            }
        }
    }

    /// A string setting parsed by its type; a bad one is reported with the values it takes.
    fn value<T: std::str::FromStr>(
        &mut self,
        _text: &str,
        line: Option<u32>,
        key: &str,
        item: &Item,
    ) -> Option<T> {
        let takes = KEYS.iter().find(|(k, _)| *k == key).map_or("", |(_, t)| t);
        if let Some(s) = item.as_str() {
            if let Ok(v) = s.parse() {
                Some(v)
            } else {
                self.problem(line, format!("`{key}` cannot be {s:?}: use {takes}"));
                None
            }
        } else {
            self.problem(line, format!("`{key}` must be a string: {takes}"));
            None
        }
    }

    fn roots(&mut self, line: Option<u32>, item: &Item, dir: Option<&Path>) {
        let Some(list) = item.as_array() else {
            self.problem(line, "`roots` must be a list of folders".to_string());
            return;
        };
        for v in list {
            match v.as_str() {
                Some(s) if !s.is_empty() => self.roots.push(expand(s, dir)),
                _ => self.problem(
                    line,
                    "every entry of `roots` must be a folder path".to_string(),
                ),
            }
        }
    }

    /// `[rules]`: `rule = "level"` (a rule id or a family), and `[[rules.per-path]]` tables of
    /// `paths` and levels for the skills below those globs.
    fn rules(&mut self, text: &str, table: &dyn TableLike) {
        for (key, item) in table.iter() {
            let line = table
                .key(key)
                .and_then(toml_edit::Key::span)
                .map(|s| line_of(text, s.start));
            if key == "per-path" {
                match item.as_array_of_tables() {
                    Some(list) => {
                        for t in list {
                            let header = t.span().map(|s| line_of(text, s.start)).or(line);
                            self.per_path(text, header, t);
                        }
                    }
                    None => self.problem(
                        line,
                        "write each entry as a [[rules.per-path]] table with `paths = [\"glob\", …]` and levels".to_string(),
                    ),
                }
                continue;
            }
            if let Some(level) = self.level(line, key, item) {
                self.rules.levels.0.push(level);
            }
        }
    }

    /// One `rule = "level"` of `[rules]`.
    fn level(&mut self, line: Option<u32>, key: &str, item: &Item) -> Option<(Selector, Level)> {
        let selector = match key.parse::<Selector>() {
            Ok(s) => s,
            Err(e) => {
                self.problem(line, format!("[rules]: {e}"));
                return None;
            }
        };
        match item.as_str().map(str::parse::<Level>) {
            Some(Ok(level)) => Some((selector, level)),
            Some(Err(e)) => {
                self.problem(line, format!("`{key}`: {e}"));
                None
            }
            None => {
                self.problem(line, format!("`{key}` must be a level: {}", Level::NAMES));
                None
            }
        }
    }

    /// One `[[rules.per-path]]` entry.
    fn per_path(&mut self, text: &str, header: Option<u32>, table: &Table) {
        let mut globs = Vec::new();
        let mut levels = Levels::default();
        let mut paths_line = header;
        for (key, item) in table {
            let line = key_line(text, table, key).or(header);
            if key == "paths" {
                paths_line = line;
                let list: Option<Vec<String>> = match item.as_value() {
                    Some(Value::String(s)) => Some(vec![s.value().clone()]),
                    Some(Value::Array(a)) => {
                        a.iter().map(|v| v.as_str().map(str::to_string)).collect()
                    }
                    _ => None,
                };
                match list {
                    Some(l) => globs.extend(l.into_iter().filter(|g| !g.is_empty())),
                    None => self.problem(
                        line,
                        "`paths` must be a list of globs, e.g. [\"vendor/**\"]".to_string(),
                    ),
                }
                continue;
            }
            if let Some(level) = self.level(line, key, item) {
                levels.0.push(level);
            }
        }
        if globs.is_empty() {
            self.problem(
                paths_line,
                "a [[rules.per-path]] entry needs `paths = [\"glob\", …]`; it is ignored"
                    .to_string(),
            );
            return;
        }
        match PathLevels::new(globs, levels) {
            Ok(p) => self.rules.per_path.push(p),
            Err(e) => self.problem(paths_line, format!("`paths`: {e}; the entry is ignored")),
        }
    }

    /// `[keys]`: `action = keys` for every context that binds the action, or a table
    /// `[keys.<context>]` of bindings for one context; kept as written, in the file's order
    /// (a binding of `[keys]` after a context's table starts a new run of `[keys]`).
    fn keys(
        &mut self,
        text: &str,
        context: Option<String>,
        line: Option<u32>,
        table: &dyn TableLike,
    ) {
        self.keys.push(KeyTable {
            context: context.clone(),
            line,
            bindings: Vec::new(),
        });
        for (name, item) in table.iter() {
            let line = table
                .key(name)
                .and_then(toml_edit::Key::span)
                .map(|s| line_of(text, s.start));
            if context.is_none()
                && let Some(sub) = item.as_table_like()
            {
                self.keys(text, Some(name.to_string()), line, sub);
                continue;
            }
            let keys = match item.as_value() {
                Some(Value::String(s)) => KeySpecs::Keys(vec![s.value().clone()]),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|v| v.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .map_or(KeySpecs::NotAllStrings, KeySpecs::Keys),
                _ => KeySpecs::NotKeys,
            };
            if self.keys.last().is_none_or(|t| t.context != context) {
                self.keys.push(KeyTable {
                    context: context.clone(),
                    line: None,
                    bindings: Vec::new(),
                });
            }
            if let Some(t) = self.keys.last_mut() {
                t.bindings.push(KeyBinding {
                    action: name.to_string(),
                    keys,
                    line,
                });
            }
        }
    }

    /// Lines for stderr: `skillscope: config.toml:3: unknown key …`.
    pub fn warnings(&self) -> Vec<String> {
        let shown = self
            .path
            .as_ref()
            .map_or_else(|| "config".to_string(), |p| p.display().to_string());
        self.problems
            .iter()
            .map(|p| match p.line {
                Some(l) => format!("{shown}:{l}: {}", p.message),
                None => format!("{shown}: {}", p.message),
            })
            .collect()
    }
}

fn line_of(text: &str, pos: usize) -> u32 {
    crate::core::frontmatter::line_col(text.as_bytes(), pos).0
}

fn key_line(text: &str, table: &Table, key: &str) -> Option<u32> {
    table
        .key(key)
        .and_then(toml_edit::Key::span)
        .map(|s| line_of(text, s.start))
}

/// `~/x` from the home folder, a relative path from the config file's folder.
fn expand(s: &str, dir: Option<&Path>) -> PathBuf {
    if let Some(rest) = s.strip_prefix("~/")
        && let Some(home) = dirs::home_dir()
    {
        return home.join(rest);
    }
    let p = PathBuf::from(s);
    match dir {
        Some(d) if p.is_relative() => d.join(p),
        _ => p,
    }
}

/// ` (did you mean "encoding"?)` for a key that is none of `known`, when one is close.
pub fn meant<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    crate::core::words::text::closest(wanted, known)
        .map_or_else(String::new, |m| format!(" (did you mean {m:?}?)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the config says the profile and listing take is every profile's and format's name
    /// (the lists are constants, so a new one must be named here too).
    #[test]
    fn the_keys_name_every_profile_and_format() {
        let takes = |key: &str| KEYS.iter().find(|(k, _)| *k == key).map(|(_, t)| *t);
        assert_eq!(takes("profile"), Some(Profile::names().as_str()));
        assert_eq!(takes("listing"), Some(Format::ids().as_str()));
    }

    #[test]
    fn settings_and_keys_are_read() {
        let c = Config::parse_text(
            "profile = \"claude-code\"\nlisting = \"codex\"\ntier = \"compact\"\nencoding = \"cl100k_base\"\ncontext_window = 1000000\nmodel = \"claude\"\nroots = [\"lib\", \"/abs\"]\n\n[keys]\ncycle_model = \"M\"\n\n[keys.list]\ntoggle = [\"x\", \"space\"]\n",
            Some(Path::new("/cfg")),
        );
        assert_eq!(c.problems, vec![]);
        assert_eq!(c.profile, Some(Profile::ClaudeCode));
        assert_eq!(c.listing, Some(Format::Codex));
        assert_eq!(c.tier, Some(Tier::Compact));
        assert_eq!(c.encoding, Some(Encoding::Cl100kBase));
        assert_eq!(c.context_window, Some(1_000_000));
        assert_eq!(c.model.as_ref().map(|m| m.name.as_str()), Some("claude"));
        assert_eq!(c.roots, [PathBuf::from("/cfg/lib"), PathBuf::from("/abs")]);
        // The bindings as written, for the app to judge.
        assert_eq!(
            c.keys,
            [
                KeyTable {
                    context: None,
                    line: Some(9),
                    bindings: vec![KeyBinding {
                        action: "cycle_model".into(),
                        keys: KeySpecs::Keys(vec!["M".into()]),
                        line: Some(10),
                    }],
                },
                KeyTable {
                    context: Some("list".into()),
                    line: Some(12),
                    bindings: vec![KeyBinding {
                        action: "toggle".into(),
                        keys: KeySpecs::Keys(vec!["x".into(), "space".into()]),
                        line: Some(13),
                    }],
                },
            ]
        );
    }

    #[test]
    fn every_problem_has_its_line() {
        // The bindings' own problems are the app's to find (`tui::settings`).
        let text = "profile = \"claud\"\nfoo = 1\ncontext_window = 12\n[keys]\nfly = 3\n[rules]\nnope = \"off\"\n";
        let c = Config::parse_text(text, None);
        let got: Vec<(Option<u32>, &str)> = c
            .problems
            .iter()
            .map(|p| (p.line, p.message.split(' ').next().unwrap_or("")))
            .collect();
        assert_eq!(
            got,
            vec![
                (Some(1), "`profile`"),
                (Some(2), "unknown"),
                (Some(3), "`context_window`"),
                (Some(7), "[rules]:"),
            ],
            "{:?}",
            c.problems
        );
        assert!(c.problems[1].message.contains("\"foo\""));
        assert!(c.profile.is_none());
        assert_eq!(c.keys_at, 3, "the bindings' problems go after line 3's");
        assert_eq!(c.keys[0].bindings[0].keys, KeySpecs::NotKeys);
    }

    #[test]
    fn a_mistyped_key_names_the_one_meant() {
        let c = Config::parse_text("encodng = \"o200k_base\"\nzzzzzz = 1\n", None);
        assert!(
            c.problems[0]
                .message
                .starts_with("unknown key \"encodng\" (did you mean \"encoding\"?);"),
            "{:?}",
            c.problems
        );
        assert!(!c.problems[1].message.contains("did you mean"));
    }

    #[test]
    fn rules_levels_and_per_path_entries_are_read_with_their_lines() {
        use crate::core::findings::catalogue::RuleId;
        let text = "[rules]\nunknown-field = \"warning\"\ndescription = \"off\"\nname-nope = \"off\"\nbody = \"loud\"\n\n[[rules.per-path]]\npaths = [\"vendor/**\"]\nunknown-field = \"off\"\n\n[[rules.per-path]]\nname = \"error\"\n\n[[rules.per-path]]\npaths = \"a/[\"\n";
        let c = Config::parse_text(text, None);
        let lines: Vec<Option<u32>> = c.problems.iter().map(|p| p.line).collect();
        assert_eq!(
            lines,
            [Some(4), Some(5), Some(11), Some(15)],
            "{:?}",
            c.problems
        );
        assert!(
            c.problems[0].message.contains("name-nope"),
            "{:?}",
            c.problems
        );
        assert!(c.problems[1].message.contains("loud"), "{:?}", c.problems);
        assert!(
            c.problems[2].message.contains("needs `paths"),
            "{:?}",
            c.problems
        );
        assert_eq!(
            c.rules.levels.level(RuleId::UnknownField),
            Some(Level::Warning)
        );
        assert_eq!(
            c.rules.levels.level(RuleId::DescriptionGeneric),
            Some(Level::Off)
        );
        assert_eq!(c.rules.levels.level(RuleId::NameFormat), None);
        assert_eq!(c.rules.per_path.len(), 1, "the bad entries are left out");
        assert_eq!(c.rules.per_path[0].globs, ["vendor/**"]);
        assert_eq!(
            c.rules.per_path[0].levels.level(RuleId::UnknownField),
            Some(Level::Off)
        );
        let c = Config::parse_text("rules = 3\n", None);
        assert_eq!(c.problems.len(), 1);
    }

    #[test]
    fn broken_toml_is_reported_with_its_line_and_control_characters_are_escaped() {
        let c = Config::parse_text("tier = \"full\"\nlisting = [\n", None);
        assert_eq!(c.problems.len(), 1);
        assert!(
            c.problems[0].line.is_some_and(|l| l >= 2),
            "{:?}",
            c.problems
        );
        assert!(c.tier.is_none(), "a broken file is ignored whole");
        let c = Config::parse_text("\"bad\\u001b[31m\" = 1\n", None);
        assert!(!c.problems[0].message.contains('\x1b'), "{:?}", c.problems);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_hanging() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("config.toml");
        nix::unistd::mkfifo(&p, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let c = Config::load_from(&p);
        assert_eq!(c.problems.len(), 1);
        assert!(c.problems[0].message.contains("not a regular file"));
        let none = Config::load_from(&t.path().join("absent.toml"));
        assert!(none.problems.is_empty() && none.path.is_none());
    }
}
