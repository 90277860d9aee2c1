//! What a person reads: the one escaper, text helpers (numbers, widths, lines), the order names are
//! listed in, a skill's name and YAML scalars, namespaced ids.

pub(crate) mod collate;
pub(crate) mod escape;
pub mod namespace;
pub(crate) mod naming;
pub mod text;
