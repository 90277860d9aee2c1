//! Why a toggle could not be planned or written: the one error type every agent's editor returns.

use super::SwitchScope;
use crate::core::files::fsx::FsxError;
use crate::core::source::Agent;
use std::path::PathBuf;

/// Why a toggle could not be planned or written.
#[derive(Debug, thiserror::Error)]
pub enum ToggleError {
    #[error(
        "{file} is not valid {format} (line {line}, column {column}: {message}); fix it by hand first: skillscope never rewrites a file it cannot read"
    )]
    /// The settings file does not parse.
    Unparsable {
        /// The settings file.
        file: PathBuf,
        /// JSON or TOML.
        format: &'static str,
        /// 1-based line of the problem.
        line: u32,
        /// 1-based column.
        column: u32,
        /// The parser's message.
        message: String,
    },
    /// The file parses but is not shaped as the agent reads it.
    #[error("{file}: {what}; skillscope leaves it as it is")]
    Shape {
        /// The file.
        file: PathBuf,
        /// What is not as expected.
        what: Shape,
    },
    /// The file could not be read.
    #[error("cannot read {file}: {source}")]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is read-only.
    #[error("{file} is read-only; make it writable (chmod u+w) and toggle again")]
    ReadOnly {
        /// The file.
        file: PathBuf,
    },
    /// The file could not be written.
    #[error("cannot write {file}: {source}")]
    Write {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The change cannot be made without rewriting more than the switch.
    #[error("cannot change {file} without rewriting more than the switch; edit it by hand")]
    WouldReformat {
        /// The file.
        file: PathBuf,
    },
    /// The agent has no switch for skills at that scope.
    #[error("{agent} has no {scope}-scope switch for skills: {why}")]
    Unsupported {
        /// The agent.
        agent: Agent,
        /// The scope asked for.
        scope: SwitchScope,
        /// Why it has none.
        why: &'static str,
    },
    /// The agent is not installed here: a switch for it is written only when asked by name.
    #[error(
        "{agent} is not installed here (neither its settings folder nor its command was found): nothing is written for it; `skillscope toggle --agent {agent}` writes anyway"
    )]
    NotInstalled {
        /// The agent.
        agent: Agent,
    },
    /// The skill's name cannot be written safely in the agent's settings (opencode's
    /// `permission.skill` keys).
    #[error("{agent} cannot be switched for the skill {name:?}: {why}")]
    Name {
        /// The agent.
        agent: Agent,
        /// The skill's name.
        name: String,
        /// What the agent would read in it.
        why: super::opencode::names::UnsafeName,
    },
    /// The file could not be read or locked.
    #[error(transparent)]
    File(#[from] FsxError),
    /// A SKILL.md's frontmatter could not be written as it was read: another program changed
    /// the file meanwhile, it is gone, or it links out of its skill's folder.
    #[error(transparent)]
    Head(#[from] crate::core::files::head_edit::HeadError),
    /// A project's settings file that, through a link the project holds, is a file outside it.
    #[error(
        "{} leads out of the project {} (to {}, through a link the project holds): a project-scope switch is not written there",
        crate::core::words::escape::path(file),
        crate::core::words::escape::path(project),
        crate::core::words::escape::path(to)
    )]
    LeavesProject {
        /// The settings file as the project names it.
        file: PathBuf,
        /// The project folder.
        project: PathBuf,
        /// Where it leads.
        to: PathBuf,
    },
    #[error(
        "{file} does not hold the change after it was written ({what}); another program may have changed it: look at it and toggle again"
    )]
    /// The file does not hold the change once read back.
    NotPersisted {
        /// The file.
        file: PathBuf,
        /// What is missing.
        what: NotHeld,
    },
}

/// What a settings file (or a SKILL.md), read back after a toggle wrote it, does not hold.
#[derive(Debug, thiserror::Error)]
pub enum NotHeld {
    /// Its text is another than the one written.
    #[error("its text is not the one written")]
    OtherText,
    /// It cannot be read back.
    #[error("{0}")]
    Unreadable(Box<ToggleError>),
}

/// What of a settings file (or a SKILL.md a switch is written in) is not shaped as the agent
/// reads it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Shape {
    /// The file is gone.
    #[error("it is gone")]
    Gone,
    /// A JSON file's top level is not an object.
    #[error("the top level is not an object")]
    TopNotObject,
    /// The JSON key is not an object.
    #[error("`{0}` is not an object")]
    NotObject(&'static str),
    /// The JSON key holds neither a string nor an object.
    #[error("`{0}` is neither a string nor an object")]
    NeitherStringNorObject(&'static str),
    /// The TOML key is not a table.
    #[error("`{0}` is not a table")]
    NotTable(&'static str),
    /// The TOML key is not a list of tables.
    #[error("`{0}` is not a list of tables")]
    NotListOfTables(&'static str),
    /// The TOML list holds something other than tables.
    #[error("`{0}` holds something other than tables")]
    NotAllTables(&'static str),
    /// A SKILL.md's `auto_load` cannot be set without rewriting more of it.
    #[error(transparent)]
    AutoLoad(#[from] AutoLoadError),
}

/// Why `auto_load` cannot be set in a SKILL.md without rewriting more of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AutoLoadError {
    /// The file has no frontmatter.
    #[error("it has no frontmatter to hold `auto_load`")]
    NoFrontmatter,
    /// The frontmatter has no closing `---`.
    #[error("its frontmatter is never closed with `---`")]
    Unclosed,
    /// The inline `{…}` mapping has no closing brace.
    #[error("its inline frontmatter mapping is never closed with `}}`")]
    UnclosedFlow,
    /// `auto_load`'s value runs over several lines.
    #[error("its `auto_load` value spans several lines; edit it by hand")]
    SeveralLines,
    /// `auto_load`'s value in an inline mapping is not a plain word.
    #[error("its inline `auto_load` value is not a plain word; edit it by hand")]
    NotPlain,
    /// `auto_load` is there more than once.
    #[error("it has `auto_load` more than once")]
    Repeated,
    /// The edit would change how another value reads.
    #[error("setting `auto_load` cannot be done faithfully: {0}")]
    Unfaithful(crate::core::frontmatter::EditError),
}
