//! Integration tests of probes: verdicts, the sandbox's promises under hostile skills, dependency
//! checks, and probes started from the app.
// Probes run in the sandbox, which Unix systems have; on others they refuse.
#![cfg(unix)]
// A test walks a whole scenario in one function.
#![allow(clippy::too_many_lines)]

#[path = "../common/mod.rs"]
mod common;
#[path = "../tui_common/mod.rs"]
mod tui_common;

mod deps;
mod sandbox;
mod trust;
mod tui;
mod verdicts;
