//! How one client release writes a listing where its releases differ, beside the format's own
//! rules (`formats.rs`): Claude Code's escaping, line breaks and name forms, Codex's roots table
//! and intro, OpenClaw's entry versions, GitHub Copilot CLI's order. The default is the newest modelled release of each client; an older release's
//! model (`core::agents::eras`) gives its own.

/// What a client release does differently in its listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    /// Claude Code writes `<` and `>` as `&lt;` and `&gt;` (2.1.300 on; raw before).
    pub escape_angles: bool,
    /// Claude Code makes each run of line breaks and each tab one space (2.1.300 on); before,
    /// a description keeps its line breaks and tabs, only its ends trimmed.
    pub one_line: bool,
    /// Claude Code shows a differing frontmatter name beside the folder's, `folder (name)`
    /// (2.1.290 on; `folder` alone before).
    pub name_beside_folder: bool,
    /// Codex uses its roots table whenever it lists as much or more for no more (0.151.0 on);
    /// before, only when the listing with absolute paths had to cut something.
    pub roots_when_cheaper: bool,
    /// Codex's intro before entries with absolute paths, when the release has its own.
    pub codex_plain_intro: Option<&'static str>,
    /// Codex's "How to use skills" text before absolute paths, when the release has its own
    /// (0.148.0 and 0.151.0 name orchestrator packages; 0.171.0 cloud packages).
    pub codex_plain_usage: Option<&'static str>,
    /// OpenClaw gives each entry its `<version>` (`sha256:` and the first 16 hex digits of its
    /// SKILL.md's SHA-256), says so in its intro, and its compact form is names only
    /// (2026.7); from 2026.9 no version, and the compact form shortens descriptions.
    pub openclaw_versions: bool,
    /// GitHub Copilot CLI lists a folder's skills by the path of their SKILL.md in byte order
    /// (`codex-disabled-by-path/SKILL.md` before `codex-disabled/SKILL.md`) and the project's
    /// folders one after the other (before 1.0.102); from 1.0.102 by name, and the project's
    /// three folders of one level by name across them.
    pub copilot_path_order: bool,
}

impl Dialect {
    /// The newest modelled releases' ways (Claude Code 2.1.332, Codex 0.171.0).
    pub const CURRENT: Dialect = Dialect {
        escape_angles: true,
        one_line: true,
        name_beside_folder: true,
        roots_when_cheaper: true,
        codex_plain_intro: None,
        codex_plain_usage: None,
        openclaw_versions: false,
        copilot_path_order: false,
    };
}

impl Default for Dialect {
    fn default() -> Self {
        Dialect::CURRENT
    }
}
