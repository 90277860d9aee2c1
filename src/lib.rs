//! skillscope: see a library of Agent Skills the way each agent sees it.
#![forbid(unsafe_code)]

pub mod cli;
pub mod core;
pub mod tui;
