//! Gemini CLI: what its settings say of its skills (trust, `skills.disabled`, `skills.enabled`).

pub(crate) mod builtins;
pub(crate) mod settings;
