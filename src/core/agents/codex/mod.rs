//! Codex: its switches (`[[skills.config]]`) and how it reads the skills of its folders.

pub(crate) mod reading;
pub(crate) mod switches;
