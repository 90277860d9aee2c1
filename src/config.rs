//! The user's config file, `<config_dir>/skillscope/config.toml`: defaults for the CLI and the
//! app, extra library roots, and key bindings. Every key it does not know and every bad value is
//! reported with its line; nothing is ignored silently.

use crate::core::listing::{Format, Tier};
use crate::core::model::Model;
use crate::core::rules::Profile;
use crate::core::rules::select::{Level, Levels, PathLevels, RuleConfig, Selector};
use crate::core::tokens::Encoding;
use crate::tui::action::Action;
use crate::tui::keymap::{Context, Key, Keymap};
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
        "spec, claude-code, codex, opencode or lazy-skills",
    ),
    ("listing", "xml, markdown, claude-code or codex"),
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
    /// The default key map with the file's `[keys]` merged over it.
    pub keymap: Keymap,
    /// `[rules]`: levels per rule or family, everywhere and per path glob.
    pub rules: RuleConfig,
    pub problems: Vec<Problem>,
    /// What the bindings did besides what they say: keys moved from another action. Not
    /// problems (the file asked for it), so shown in the app's help only.
    pub notes: Vec<Problem>,
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
        _ => crate::core::paths::config_root().join("config.toml"),
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
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return c,
            Err(e) => {
                c.path = Some(path.to_path_buf());
                c.problem(None, format!("cannot read it: {e}"));
                return c;
            }
        };
        c.path = Some(path.to_path_buf());
        // A FIFO or a device would hang the read or never end.
        if !meta.is_file() {
            c.problem(None, "it is not a regular file; it is ignored".to_string());
            return c;
        }
        if meta.len() > MAX_BYTES {
            c.problem(
                None,
                format!(
                    "it holds {} bytes, more than a config file's 1 MiB; it is ignored",
                    meta.len()
                ),
            );
            return c;
        }
        match std::fs::read_to_string(path) {
            Ok(text) => c.parse(&text, path.parent()),
            Err(e) => c.problem(None, format!("cannot read it: {e}; it is ignored")),
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
        for (key, item) in root.iter() {
            let line = key_line(text, root, key);
            match key {
                "profile" => self.profile = self.value(text, line, key, item),
                "listing" => self.listing = self.value(text, line, key, item),
                "tier" => self.tier = self.value(text, line, key, item),
                "encoding" => self.encoding = self.value(text, line, key, item),
                "model" => {
                    self.model = self
                        .value::<crate::core::model::ModelChoice>(text, line, key, item)
                        .and_then(|c| c.0)
                }
                "context_window" => match item.as_integer() {
                    Some(n) if (1_000..=100_000_000).contains(&n) => {
                        self.context_window = usize::try_from(n).ok()
                    }
                    _ => self.problem(
                        line,
                        "`context_window` must be a number of tokens between 1000 and 100000000"
                            .to_string(),
                    ),
                },
                "roots" => self.roots(line, item, dir),
                "keys" => match item.as_table_like() {
                    Some(t) => self.keys(text, None, t),
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
                        format!("unknown key {other:?}; the keys are {}", known.join(", ")),
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
        match item.as_str() {
            Some(s) => match s.parse() {
                Ok(v) => Some(v),
                Err(_) => {
                    self.problem(line, format!("`{key}` cannot be {s:?}: use {takes}"));
                    None
                }
            },
            None => {
                self.problem(line, format!("`{key}` must be a string: {takes}"));
                None
            }
        }
    }

    fn roots(&mut self, line: Option<u32>, item: &Item, dir: Option<&Path>) {
        let Some(list) = item.as_array() else {
            self.problem(line, "`roots` must be a list of folders".to_string());
            return;
        };
        for v in list.iter() {
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
                .and_then(|k| k.span())
                .map(|s| line_of(text, s.start));
            if key == "per-path" {
                match item.as_array_of_tables() {
                    Some(list) => {
                        for t in list.iter() {
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
        for (key, item) in table.iter() {
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
    /// `[keys.<context>]` of bindings for one context.
    fn keys(&mut self, text: &str, context: Option<Context>, table: &dyn TableLike) {
        for (name, item) in table.iter() {
            let line = table
                .key(name)
                .and_then(|k| k.span())
                .map(|s| line_of(text, s.start));
            if context.is_none()
                && let Some(sub) = item.as_table_like()
            {
                match Context::from_name(name) {
                    Some(c) => self.keys(text, Some(c), sub),
                    None => {
                        let names: Vec<&str> = Context::ALL.iter().map(|c| c.name()).collect();
                        self.problem(
                            line,
                            format!(
                                "unknown key context {name:?} in [keys]; contexts are {}",
                                names.join(", ")
                            ),
                        );
                    }
                }
                continue;
            }
            let Some(action) = Action::from_name(name) else {
                self.problem(
                    line,
                    format!(
                        "unknown action {name:?} in [keys]; actions are {}",
                        Action::NAMED
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                continue;
            };
            let specs: Vec<&str> = match item.as_value() {
                Some(Value::String(s)) => vec![s.value().as_str()],
                Some(Value::Array(a)) => {
                    let all: Option<Vec<&str>> = a.iter().map(|v| v.as_str()).collect();
                    match all {
                        Some(v) => v,
                        None => {
                            self.problem(line, format!("`{name}`: every key must be a string"));
                            continue;
                        }
                    }
                }
                _ => {
                    self.problem(
                        line,
                        format!(
                            "`{name}` must be a key (\"x\") or a list of keys ([\"x\", \"ctrl-x\"])"
                        ),
                    );
                    continue;
                }
            };
            let mut keys = Vec::new();
            let mut bad = false;
            for spec in specs {
                match Key::parse(spec) {
                    Ok(k) if !keys.contains(&k) => keys.push(k),
                    Ok(_) => {}
                    Err(e) => {
                        self.problem(line, format!("`{name}`: {e}"));
                        bad = true;
                    }
                }
            }
            if bad {
                continue;
            }
            match self.keymap.rebind(context, action, &keys) {
                Ok(notes) => {
                    for message in notes {
                        self.notes.push(Problem { line, message });
                    }
                }
                Err(e) => self.problem(line, format!("`{name}`: {e}")),
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

impl Config {
    /// The clap definition with this file's settings as the defaults of every subcommand that
    /// takes them, so `--help` shows the defaults in force and a flag still wins.
    pub fn apply_defaults(&self, cmd: clap::Command) -> clap::Command {
        let context_window = self.context_window.map(|n| {
            // clap keeps defaults for the life of the process; this one string is made once.
            &*String::leak(n.to_string())
        });
        let model = self.model.as_ref().map(|m| {
            if crate::core::model::PRESETS.iter().any(|p| p.name == m.name) {
                &*String::leak(m.name.clone())
            } else {
                &*String::leak(format!("{}={}", m.name, m.factor))
            }
        });
        let settings: [(&str, Option<&'static str>); 6] = [
            ("profile", self.profile.map(Profile::as_str)),
            ("listing", self.listing.map(Format::as_str)),
            ("tier", self.tier.map(Tier::as_str)),
            ("encoding", self.encoding.map(Encoding::as_str)),
            ("context_window", context_window),
            ("model", model),
        ];
        let names: Vec<String> = cmd
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .collect();
        let mut cmd = cmd;
        for name in names {
            cmd = cmd.mut_subcommand(name.as_str(), |mut sub| {
                for (id, value) in settings {
                    let Some(value) = value else { continue };
                    // `prompt --format` is the listing format; elsewhere `--format` is output.
                    let id = if name == "prompt" && id == "listing" {
                        "format"
                    } else {
                        id
                    };
                    if sub.get_arguments().any(|a| a.get_id() == id) {
                        sub = sub.mut_arg(id, |a| a.default_value(value));
                    }
                }
                sub
            });
        }
        cmd
    }

    /// The app's starting options: this file's settings over the defaults.
    pub fn tui_options(&self) -> crate::tui::app::Options {
        let d = crate::tui::app::Options::default();
        crate::tui::app::Options {
            format: self.listing.unwrap_or(d.format),
            profile: self.profile.or(d.profile),
            tier: self.tier.unwrap_or(d.tier),
            context_window: self.context_window.map_or(d.context_window, |n| n as u64),
            encoding: self.encoding.unwrap_or(d.encoding),
            model: self.model.clone(),
            keymap: self.keymap.clone(),
            config_notes: self.problems.iter().map(Problem::to_string).collect(),
            config_info: self.notes.iter().map(Problem::to_string).collect(),
            config_path: self.path.clone(),
            ..d
        }
    }
}

fn line_of(text: &str, pos: usize) -> u32 {
    crate::core::frontmatter::line_col(text.as_bytes(), pos).0
}

fn key_line(text: &str, table: &Table, key: &str) -> Option<u32> {
    table
        .key(key)
        .and_then(|k| k.span())
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

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

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
        let ev = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        let km = &c.keymap;
        assert_eq!(
            km.lookup(&[Context::Budget, Context::Global], &ev('M')),
            Some(Action::CycleModel)
        );
        assert_eq!(
            km.lookup(&[Context::Budget, Context::Global], &ev('m')),
            None
        );
        assert_eq!(
            km.lookup(&[Context::List, Context::Global], &ev('x')),
            Some(Action::Toggle)
        );
        assert_eq!(
            km.lookup(&[Context::List, Context::Global], &ev(' ')),
            Some(Action::Toggle)
        );
        // The detail pane keeps its own toggle key: only [keys.list] was changed.
        assert_eq!(
            km.lookup(&[Context::Detail, Context::Global], &ev('x')),
            None
        );
    }

    #[test]
    fn every_problem_has_its_line() {
        let text = "profile = \"claud\"\nfoo = 1\ncontext_window = 12\n[keys]\nfly = \"f\"\ntoggle = \"ctrl-\"\n[keys.nowhere]\nquit = \"q\"\n[keys.filter]\naccept_filter = \"k\"\n";
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
                (Some(5), "unknown"),
                (Some(6), "`toggle`:"),
                (Some(7), "unknown"),
                (Some(10), "`accept_filter`:"),
            ],
            "{:?}",
            c.problems
        );
        assert!(c.problems[1].message.contains("\"foo\""));
        assert!(c.profile.is_none());
    }

    #[test]
    fn rules_levels_and_per_path_entries_are_read_with_their_lines() {
        use crate::core::catalogue::RuleId;
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
    fn a_taken_key_moves_and_the_move_is_reported() {
        let c = Config::parse_text("[keys.list]\ntoggle = \"s\"\n", None);
        assert!(c.problems.is_empty(), "{:?}", c.problems);
        assert_eq!(c.notes.len(), 1, "{:?}", c.notes);
        assert_eq!(c.notes[0].line, Some(2));
        assert!(c.notes[0].message.contains("cycle_sort"), "{:?}", c.notes);
        let s = KeyEvent::new(KeyCode::Char('s'), KeyModifiers::NONE);
        assert_eq!(
            c.keymap.lookup(&[Context::List, Context::Global], &s),
            Some(Action::Toggle)
        );
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
