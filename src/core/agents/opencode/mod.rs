//! opencode: its switches (`permission.skill` rules).

pub(crate) mod switches;
