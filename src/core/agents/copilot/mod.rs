//! GitHub Copilot CLI: its listing.

pub(crate) mod listing;
