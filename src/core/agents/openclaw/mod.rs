//! OpenClaw: its listing, its bundled skills, its switch and its `read` tool.

pub(crate) mod builtins;
pub(crate) mod listing;
pub(crate) mod switches;
pub(crate) mod tools;
