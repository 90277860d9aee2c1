//! Integration tests of the command line: every subcommand run as a real process over fixture
//! libraries (and the corpus, when present).
// A test walks a whole scenario in one function.
#![allow(clippy::too_many_lines)]

#[path = "../common/mod.rs"]
mod common;
#[path = "../tui_common/mod.rs"]
mod tui_common;

mod agents;
mod baseline;
mod bounded_memory;
mod budget_used;
mod check;
mod ci_example;
mod ci_formats;
mod ci_hooks;
mod context_provider;
mod everyday;
mod exit_codes;
// FIFOs.
#[cfg(unix)]
mod fifo;
mod fix_trust;
mod ground_truth;
mod hostile_output;
// A FIFO and a link to /dev/zero planted as settings files.
#[cfg(unix)]
mod hostile_settings;
mod installers;
mod lazy_design;
mod lazy_profile;
mod manage;
mod manage_trust;
mod matching;
#[cfg(feature = "semantic")]
mod model;
mod namespaces;
#[cfg(not(feature = "semantic"))]
mod not_built_in;
mod odd_files;
mod one_home;
mod one_state;
#[cfg(feature = "semantic")]
mod overlap_meaning;
// File modes (0600 in 0700 folders).
#[cfg(unix)]
mod private_files;
mod prompt_modes;
mod prompt_parity;
mod release;
mod resources;
mod rule_selection;
#[cfg(feature = "semantic")]
mod semantic;
mod shell;
mod show;
mod skill_json;
mod small_things;
// The ctime and inode a file is trusted by.
#[cfg(unix)]
mod stamps;
mod text_output;
mod toggle;
mod toggle_race;
mod tokens;
// verify runs the clients in the sandbox, which Unix systems have.
#[cfg(unix)]
mod verify;
