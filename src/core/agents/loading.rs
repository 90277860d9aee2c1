//! What loading one skill adds to the conversation, block by block, as every agent's client
//! shares it: a block's role, kind and text, how an agent's home says loading reaches its
//! conversation, and the errors a client answers with instead. Each client's own blocks
//! (verified against the captures in `tests/fixtures/agents/<client>@<version>/`, the
//! `inject-*.json` files) are in its home (`agents/<agent>/loading.rs`).

pub use super::codex::mention::MentionError;
use crate::core::library::{Library, LibraryError};
use crate::core::skill::Skill;
use serde::Serialize;

/// One block the client adds to the conversation when a skill is loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Block {
    /// The message's role: `user`, `system`, `developer`.
    pub role: &'static str,
    /// The block's kind as the client's API names it: `tool_result`, `text`, `input_text`,
    /// `functionResponse`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Its text, byte for byte.
    pub text: String,
    /// The client answers the model's call with an error instead of the skill.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// The block opens a forked sub-conversation (Claude Code's `context: fork`): it is the
    /// sub-agent's prompt, not a part of the main conversation.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub forked: bool,
}

/// How loading one skill reaches an agent's conversation (`inject`): its home's record.
#[derive(Debug, Clone, Copy)]
pub enum Loading {
    /// Not modelled: what loading adds is not verified for its client.
    Unmodelled,
    /// The model calls the skill by its name or id (Claude Code's `Skill` tool): the blocks
    /// given the skill, the name it was called by and what the model passes along.
    Called(Blocks),
    /// The user names the skill in a message (Codex's `$name`): what naming it adds, given the
    /// agent's view and the name.
    Mention(Mention),
    /// The model calls the agent's skill tool, which finds the name as the agent's view does:
    /// the blocks given the skill, the name and what the model passes along, and what the
    /// client answers for a skill its own switch turned off.
    Tool(Blocks, WhenOff),
}

/// What naming a skill `name` in a message adds, given the agent's view: the text of the
/// message the client adds, or why it adds nothing.
pub type Mention = fn(&Library, &str) -> Result<String, MentionError>;

/// What loading `skill` called as `name` with `args` adds.
pub type Blocks = fn(&Skill, &str, &str) -> Result<Vec<Block>, LibraryError>;

/// What a client answers when the model calls a skill its own switch turned off.
#[derive(Debug, Clone, Copy)]
pub enum WhenOff {
    /// Not known: the skill is not offered.
    Unknown,
    /// An error, given the name called (Qwen Code's, Cline's).
    Error(fn(&str) -> String),
    /// An error naming the skills it has, given the name called and the names its listing
    /// offers (GitHub Copilot CLI's: the skill is not found).
    NotFound(fn(&str, &[String]) -> String),
    /// The skill itself, as when it is on (OpenClaw's model reads the file, which no switch
    /// hides).
    Loaded,
}

impl Block {
    /// A client's error answer holding `text`.
    pub fn error(text: String) -> Block {
        Block {
            is_error: true,
            ..Block::new("tool", "tool_result", text)
        }
    }

    /// A block of `role` and `kind` holding `text`.
    pub(crate) fn new(role: &'static str, kind: &'static str, text: String) -> Block {
        Block {
            role,
            kind,
            text,
            is_error: false,
            forked: false,
        }
    }
}

/// Whether `skill` asks Claude Code to run it in a forked sub-agent (`context: fork`): its body
/// then becomes the sub-agent's task, in a context window of its own, and the main conversation
/// gets only the sub-agent's result (Claude Code's skills documentation, "context: fork").
pub fn forks(skill: &Skill) -> bool {
    skill
        .frontmatter
        .get("context")
        .is_some_and(|f| f.value.as_str() == Some("fork"))
}

/// The blocks' texts as one text, a blank line between blocks (as the captures' `.txt` files
/// hold them).
pub fn joined(blocks: &[Block]) -> String {
    blocks
        .iter()
        .map(|b| b.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}
