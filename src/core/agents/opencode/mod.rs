//! opencode: its switches (`permission.skill` rules) and its built-in entry.

pub(crate) mod builtins;
pub(crate) mod switches;
