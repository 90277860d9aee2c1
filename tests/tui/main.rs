//! Integration tests of the terminal app: snapshots of every screen over ratatui's TestBackend,
//! live updates, toggles, the config file, and the real binary in a pseudo-terminal.

#[path = "../tui_common/mod.rs"]
mod tui_common;

mod agent_view;
mod config;
mod detail_fields;
mod everyday;
// The real binary in a pseudo-terminal: the driver reads the terminal by its Unix file
// descriptor and stops the app by signals.
#[cfg(unix)]
mod keys;
mod lazy;
mod live;
mod manage;
mod narrow;
#[cfg(unix)]
mod outside;
#[cfg(feature = "semantic")]
mod overlap_meaning;
#[cfg(unix)]
mod pty;
mod screens;
mod toggle;
