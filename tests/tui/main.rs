//! Integration tests of the terminal app: snapshots of every screen over ratatui's TestBackend,
//! live updates, toggles, the config file, and the real binary in a pseudo-terminal.

#[path = "../tui_common/mod.rs"]
mod tui_common;

mod agent_view;
mod config;
mod detail_fields;
mod everyday;
mod keys;
mod lazy;
mod live;
mod manage;
mod narrow;
mod outside;
#[cfg(feature = "semantic")]
mod overlap_meaning;
mod pty;
mod screens;
mod toggle;
