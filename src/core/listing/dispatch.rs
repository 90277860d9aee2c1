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
            Format::QwenCode => &crate::core::agents::qwen::listing::QWEN_CODE,
            Format::Copilot => &crate::core::agents::copilot::listing::COPILOT,
            Format::Cline => &crate::core::agents::cline::listing::CLINE,
            Format::Openclaw => &crate::core::agents::openclaw::listing::OPENCLAW,
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
        Format::QwenCode => crate::core::agents::qwen::listing::render(lib, enabled, opts),
        Format::Copilot => crate::core::agents::copilot::listing::render(lib, enabled, opts),
        Format::Cline => crate::core::agents::cline::listing::render(lib, enabled, opts),
        Format::Openclaw => crate::core::agents::openclaw::listing::render(lib, enabled, opts),
        _ => return None,
    })
}
