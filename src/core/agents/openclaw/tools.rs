//! The tool through which OpenClaw 2026.9.6's model loads a skill: it has no skill tool, its
//! model `read`s the SKILL.md, so its `read` tool (`tests/fixtures/agents/openclaw@2026.9.6/*/tool.json`)
//! is what a skill costs it every turn: compact JSON, keys in the client's order.

use serde_json::json;

/// OpenClaw's `read` tool, through which its model loads a skill: fixed text.
pub fn openclaw_read_tool() -> String {
    json!({
        "type": "function",
        "function": {
            "name": "read",
            "description": "Read text/image file (jpg/png/gif/webp/bmp); images attach to model context. Text caps 2000 lines or 50KB. Continue with offset/limit, or cursor within a long line.",
            "parameters": {
                "type": "object",
                "required": ["path"],
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "File path; relative/absolute."
                    },
                    "offset": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "Start line; 1-based."
                    },
                    "limit": {
                        "type": "number",
                        "description": "Max lines."
                    },
                    "cursor": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "Character position within the start line; 0-based."
                    },
                    "optional": {
                        "type": "boolean",
                        "const": true,
                        "description": "Missing paths return structured not_found instead of failing."
                    }
                }
            }
        }
    })
    .to_string()
}

/// OpenClaw 2026.7's `read` tool (`tests/fixtures/agents/openclaw@2026.7.35/*/tool.json`).
pub fn openclaw_2026_7_read_tool() -> String {
    json!({
        "type": "function",
        "function": {
            "name": "read",
            "description": "Read the contents of a file. Supports text files and images (jpg, png, gif, webp, bmp). Images are sent as attachments. For text files, output is truncated to 2000 lines or 50KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.",
            "parameters": {
                "type": "object",
                "required": ["path"],
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "Path to the file to read (relative or absolute)"
                    },
                    "offset": {
                        "type": "number",
                        "description": "Line number to start reading from (1-indexed)"
                    },
                    "limit": {
                        "type": "number",
                        "description": "Maximum number of lines to read"
                    }
                }
            }
        }
    })
    .to_string()
}
