//! Gemini CLI: what its settings say of its skills (trust, `skills.disabled`, `skills.enabled`), its
//! switch as `toggle` writes it and its built-in entries.

pub(crate) mod builtins;
pub(crate) mod settings;
pub(crate) mod switches;
