//! Cline: its listing.

pub(crate) mod listing;
