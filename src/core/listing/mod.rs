//! The skill listing an agent's system prompt would hold: one catalog format, a tier chosen by
//! skill count and the agent's character budget, rendered to text with the fate of every skill.
//! A skill's entry in a format is `entry.rs`; the listing, its tiers and its fitting in a budget
//! `render.rs`; the formats' data below them.

mod claude_text;
pub(crate) mod cline;
mod codex;
pub(crate) mod copilot;
mod dialect;
mod dispatch;
mod entry;
pub(crate) mod format;
pub(crate) mod formats;
mod gemini_opencode;
pub(crate) mod openclaw;
pub(crate) mod own;
pub(crate) mod qwen;
pub(crate) mod record;
mod render;
pub use cline::folder_rank as cline_folder_rank;
pub use copilot::folder_rank as copilot_folder_rank;
pub use dialect::Dialect;
pub use format::{
    Budget, BudgetUnit, BuiltinEntry, CHARS_PER_TOKEN, CLAUDE_CODE_ENTRY_CAP,
    CLAUDE_CODE_FALLBACK_MAX, CLIENT_DIR, CODEX_DESCRIPTION_CAP, CODEX_UNKNOWN_WINDOW_CHARS,
    EntryCap, Format, ListingError, claude_body_description, estimated_tokens, utf16_len,
};
pub use formats::{
    CLAUDE_CODE, CODEX, Fit, FormatSpec, Frame, GEMINI, MARKDOWN, OPENCODE, Order, XML,
};
pub use gemini_opencode::{gemini_folder, gemini_name};

pub use entry::{EntryMaker, entries, entry, entry_maker};
pub use record::{
    COMPACT_DESCRIPTION_CHARS, COMPACT_TIER_MAX, DEFAULT_CONTEXT_WINDOW, FULL_DESCRIPTION_CHARS,
    FULL_TIER_MAX, Fate, ListedBuiltin, ListedSkill, Listing, ListingOptions,
    MIN_TRIMMED_DESCRIPTION, Tier,
};
pub use render::render;
