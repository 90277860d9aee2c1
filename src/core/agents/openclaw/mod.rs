//! OpenClaw: its listing and its bundled skills.

pub(crate) mod builtins;
pub(crate) mod listing;
