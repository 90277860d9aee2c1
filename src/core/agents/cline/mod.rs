//! Cline: its listing and its skill tool.

pub(crate) mod listing;
pub(crate) mod tools;
