//! The skill library core: discovery, parsing, rules, tokens, listings. No terminal code here.

pub mod agents;
pub(crate) mod baseline;
pub mod budget;
pub mod catalogue;
pub mod codec;
pub(crate) mod collate;
pub(crate) mod commands;
// Its hand parser is being replaced by the reference PEP 440/508 crates; documented then.
#[allow(missing_docs)]
pub mod deps;
pub(crate) mod diagnostic;
pub(crate) mod escape;
pub(crate) mod frontmatter;
pub mod fsx;
pub(crate) mod gitref;
pub(crate) mod head_edit;
pub mod index;
pub(crate) mod inject;
pub(crate) mod installers;
pub(crate) mod layout;
pub mod library;
pub mod listing;
pub mod load;
pub mod manage;
pub mod matching;
pub mod model;
pub mod modes;
pub mod namespace;
pub(crate) mod naming;
pub(crate) mod on_path;
pub(crate) mod paths;
pub mod probe;
pub mod request;
pub(crate) mod resource;
pub mod rules;
pub mod scan;
pub(crate) mod skeleton;
pub(crate) mod skill;
pub mod source;
pub mod state;
pub mod text;
pub mod tokens;
pub(crate) mod usage;
pub mod verify;
pub(crate) mod watch;

pub use diagnostic::{Diagnostic, Severity};
pub use library::Library;
pub use skill::{Skill, SkillKind};
pub use source::{Agent, Root, Scope};
