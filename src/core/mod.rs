//! The skill library core: discovery, parsing, rules, tokens, listings. No terminal code here.

pub mod agents;
pub mod baseline;
pub mod budget;
pub mod catalogue;
pub mod codec;
pub mod collate;
pub mod commands;
// Its hand parser is being replaced by the reference PEP 440/508 crates; documented then.
#[allow(missing_docs)]
pub mod deps;
pub mod diagnostic;
pub mod escape;
pub mod frontmatter;
pub mod fsx;
pub mod gitref;
pub mod index;
pub mod inject;
pub mod installers;
pub mod layout;
pub mod library;
pub mod listing;
pub mod load;
pub mod manage;
pub mod matching;
pub mod model;
pub mod modes;
pub mod namespace;
pub mod paths;
pub mod probe;
pub mod resource;
pub mod rules;
pub mod scan;
pub mod skeleton;
pub mod skill;
pub mod source;
pub mod state;
pub mod text;
pub mod tokens;
pub mod usage;
pub mod verify;
pub mod watch;

pub use diagnostic::{Diagnostic, Severity};
pub use library::Library;
pub use skill::{Skill, SkillKind};
pub use source::{Agent, Root, Scope};
