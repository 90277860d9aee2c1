//! skillscope: see a library of Agent Skills the way each agent sees it.
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod cli;
pub mod color;
pub mod config;
#[warn(missing_docs)]
pub mod core;
pub mod tui;
