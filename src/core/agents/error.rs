//! Why a toggle could not be planned or written: the one error type every agent's editor returns.

use super::SwitchScope;
use crate::core::fsx::FsxError;
use crate::core::source::Agent;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ToggleError {
    #[error(
        "{file} is not valid {format} (line {line}, column {column}: {message}); fix it by hand first: skillscope never rewrites a file it cannot read"
    )]
    Unparsable {
        file: PathBuf,
        format: &'static str,
        line: u32,
        column: u32,
        message: String,
    },
    #[error("{file}: {what}; skillscope leaves it as it is")]
    Shape { file: PathBuf, what: String },
    #[error("cannot read {file}: {source}")]
    Read {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{file} is read-only; make it writable (chmod u+w) and toggle again")]
    ReadOnly { file: PathBuf },
    #[error("cannot write {file}: {source}")]
    Write {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot change {file} without rewriting more than the switch; edit it by hand")]
    WouldReformat { file: PathBuf },
    #[error("{agent} has no {scope}-scope switch for skills: {why}")]
    Unsupported {
        agent: Agent,
        scope: SwitchScope,
        why: &'static str,
    },
    #[error("{agent} cannot be switched for the skill {name:?}: {why}")]
    Name {
        agent: Agent,
        name: String,
        why: String,
    },
    #[error(transparent)]
    File(#[from] FsxError),
    #[error(
        "{file} does not hold the change after it was written ({what}); another program may have changed it: look at it and toggle again"
    )]
    NotPersisted { file: PathBuf, what: String },
}
