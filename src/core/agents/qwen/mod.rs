//! Qwen Code: its listing, its built-in skills, its switch and its skill tool.

pub(crate) mod builtins;
pub(crate) mod listing;
pub(crate) mod switches;
pub(crate) mod tools;
