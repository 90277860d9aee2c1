//! The skill library core: discovery, parsing, rules, tokens, listings. No terminal code here.

pub mod agents;
pub(crate) mod commands;
pub mod files;
pub mod findings;
pub mod front;
pub(crate) mod frontmatter;
pub mod index;
pub(crate) mod installers;
pub(crate) mod layout;
pub mod library;
pub mod listing;
pub mod manage;
pub mod matching;
pub mod pricing;
pub mod probe;
pub(crate) mod resource;
pub mod rules;
pub mod scan;
pub(crate) mod skill;
pub mod source;
pub mod tokens;
pub mod verify;
pub mod words;

pub use findings::diagnostic::{Diagnostic, Severity};
pub use library::Library;
pub use skill::{Skill, SkillKind};
pub use source::{Agent, Root, Scope};
