//! The file system: regular-file reads and locks (`fsx`), skillscope's folders and atomic writes
//! (`paths`), the byte codec of the caches, folders copied out of git, commands on `PATH`, the
//! watcher and SKILL.md heads written in place.

pub mod codec;
pub mod fsx;
pub(crate) mod gitref;
pub(crate) mod head_edit;
pub(crate) mod on_path;
pub(crate) mod paths;
pub(crate) mod watch;
