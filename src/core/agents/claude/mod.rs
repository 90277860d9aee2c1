//! Claude Code: its switches (`skillOverrides`, `disable-model-invocation`) and its built-in
//! entries per release.

pub(crate) mod builtins;
pub(crate) mod builtins_eras;
pub(crate) mod switches;
