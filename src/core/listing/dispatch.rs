//! Which value each format is ([`Format::spec`]), and the formats whose listing their own module
//! builds whole (Qwen Code, Copilot, Cline, OpenClaw): above every format's module, so that
//! none of them needs another's.

use super::format::Format;

impl Format {
    /// The format's behaviour.
    pub fn spec(self) -> &'static super::formats::FormatSpec {
        match self {
            Format::Xml => &super::formats::XML,
            Format::Markdown => &super::formats::MARKDOWN,
            Format::ClaudeCode => &super::formats::CLAUDE_CODE,
            Format::Codex => &super::formats::CODEX,
            Format::LazySkills => &super::formats::LAZY_SKILLS,
            Format::Gemini => &super::formats::GEMINI,
            Format::Opencode => &super::formats::OPENCODE,
            Format::QwenCode => &super::qwen::QWEN_CODE,
            Format::Copilot => &super::copilot::COPILOT,
            Format::Cline => &super::cline::CLINE,
            Format::Openclaw => &super::openclaw::OPENCLAW,
        }
    }
}

/// The listing of `opts.format` when it is one of these agents' formats.
pub(super) fn render(
    lib: &crate::core::library::Library,
    enabled: &dyn Fn(usize) -> bool,
    opts: &super::record::ListingOptions,
) -> Option<super::record::Listing> {
    Some(match opts.format {
        Format::QwenCode => super::qwen::render(lib, enabled, opts),
        Format::Copilot => super::copilot::render(lib, enabled, opts),
        Format::Cline => super::cline::render(lib, enabled, opts),
        Format::Openclaw => super::openclaw::render(lib, enabled, opts),
        _ => return None,
    })
}
