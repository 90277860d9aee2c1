//! What the front ends ask of the core: the loader (`LibrarySpec`), one view request, skillscope's
//! own state, injection of a skill and `new`'s skeleton.

pub(crate) mod inject;
pub mod load;
pub mod request;
pub(crate) mod skeleton;
pub mod state;
