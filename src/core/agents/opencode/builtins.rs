//! The built-in entry of opencode 1.18.33, as its listing holds it (captured:
//! `tests/fixtures/agents/opencode@1.18.33/mixed/listing.txt`). Data of the model, nothing else of
//! the client.

use crate::core::listing::BuiltinEntry;

/// opencode's one built-in skill, sorted in among the library's by name; its location is the
/// text `<built-in>`.
pub static OPENCODE_BUILTINS: &[BuiltinEntry] = &[BuiltinEntry {
    name: "customize-opencode",
    description: "Use ONLY when the user is editing or creating opencode's own configuration: opencode.json, opencode.jsonc, files under .opencode/, or files under ~/.config/opencode/. Also use when creating or fixing opencode agents, subagents, skills, plugins, MCP servers, or permission rules. Do not use for the user's own application code, or for any project that is not configuring opencode itself.",
    fixed: true,
    location: "<built-in>",
}];
