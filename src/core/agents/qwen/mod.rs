//! Qwen Code: its listing, its built-in skills and the tool through which it loads a skill.

pub(crate) mod builtins;
pub(crate) mod listing;
pub(crate) mod tools;
