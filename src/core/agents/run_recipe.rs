//! How `verify` runs an agent's client against its mock model server: the command and package,
//! the API it speaks, how its listing is cut out of its request, and its run recipe (command
//! line, environment, the files written into its private home, release-specific switches). Each
//! client's home holds its record ([`Home::verify`](super::home::Home::verify)); `core::verify`
//! reads it.

use crate::core::source::Agent;
use std::path::PathBuf;

/// The API a client speaks to its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Responses.
    Responses,
    /// Gemini's `generateContent`.
    Gemini,
    /// OpenAI Chat Completions (`/v1/chat/completions`): the OpenAI-compatible providers the
    /// newer clients are pointed at.
    Chat,
}

/// What a client's command line for one turn is made from.
#[derive(Debug, Clone, Copy)]
pub struct RunArgs<'a> {
    /// The mock's base URL (`http://127.0.0.1:PORT`).
    pub base: &'a str,
    /// The model chosen for the run.
    pub model: Option<&'a str>,
    /// Folders added to what the client reads (Claude Code's `--add-dir`).
    pub add_dirs: &'a [PathBuf],
    /// The version of the release that runs, when its files tell.
    pub installed: Option<&'a str>,
}

/// A settings file written into the client's private home before it starts.
#[derive(Debug, Clone, Copy)]
pub struct MockSettings {
    /// Its path below the home folder.
    pub file: &'static str,
    /// What points the client at the mock, given the mock's base URL.
    pub ours: fn(&str) -> serde_json::Value,
    /// Merged into the user's own file of that name (so their switches stay as they set them);
    /// else written whole.
    pub merged: bool,
}

/// A client `verify` can run, how its listing is cut out of its request, and how it runs.
#[derive(Debug)]
pub struct RunRecipe {
    /// The agent it is.
    pub agent: Agent,
    /// Its place in `verify`'s list of clients (lower first).
    pub rank: u8,
    /// Its name for people.
    pub name: &'static str,
    /// Its command, looked for on `PATH`.
    pub command: &'static str,
    /// Its npm package (`npm install -g PACKAGE`).
    pub package: &'static str,
    /// The API it speaks.
    pub wire: Wire,
    /// The tool that marks its turns carrying the skills.
    pub skill_tool: &'static str,
    /// The listing's opening words.
    pub start: &'static str,
    /// How a line the client may put before the listing begins (OpenClaw's note when it
    /// truncates or compacts its catalog, two blank lines between): taken into the listing
    /// when it stands there.
    pub lead: Option<&'static str>,
    /// Where it ends: the first of these after the start.
    pub ends: &'static [&'static str],
    /// Whether the end marker belongs to the listing.
    pub include_end: bool,
    /// Where the listing starts in the skill tool's description, for releases that put it
    /// there (Claude Code before 2.1.0), when no text of the request holds it.
    pub tool_start: Option<&'static str>,
    /// The oldest Node.js the client starts on (major, minor), for a client run by `node`.
    pub min_node: Option<(u32, u32)>,
    /// Where it writes every entry on one line, the first blank line after the entries' start
    /// ends the listing, whatever paragraph follows (Claude Code from 2.1.300 on).
    pub blank_line_ends: bool,
    /// Its arguments for one non-interactive turn saying "hello".
    pub args: fn(&RunArgs) -> Vec<String>,
    /// The environment that points it at the mock (given the mock's base URL) and keeps it from
    /// updating or reporting.
    pub env: fn(&str) -> Vec<(&'static str, String)>,
    /// The settings file written into its private home, if any.
    pub settings: Option<MockSettings>,
    /// Files below the home, other than its settings, that change what it lists: shown to it.
    pub other_files: &'static [&'static str],
    /// A variable that makes it trust the project folder: the user's value passed as it is,
    /// else set to `true` for the sandboxed run alone.
    pub trust_env: Option<&'static str>,
    /// Every variable of its folder trust ([`Self::trust_env`] among them): the sandboxed run
    /// sees only what verify gives it of these, so its prediction reads them so too.
    pub trust_variables: &'static [&'static str],
    /// What its failed start says it needs done outside the sandbox first, given its name, its
    /// command and its last words.
    pub first_start_hint: fn(&str, &str, &str) -> Option<String>,
}

/// No hint from a failed start.
pub fn no_hint(_name: &str, _command: &str, _stderr: &str) -> Option<String> {
    None
}

/// No variables of its own.
pub fn no_env(_base: &str) -> Vec<(&'static str, String)> {
    Vec::new()
}

/// The fields a client's record does not set: no lead, end marker taken in, no tool start, no
/// Node.js floor, no blank-line end, no settings, other files, trust or hint.
pub const RUN_AS_GIVEN: RunRecipe = RunRecipe {
    agent: Agent::Path,
    rank: u8::MAX,
    name: "",
    command: "",
    package: "",
    wire: Wire::Chat,
    skill_tool: "",
    start: "",
    lead: None,
    ends: &[],
    include_end: true,
    tool_start: None,
    min_node: None,
    blank_line_ends: false,
    args: |_| Vec::new(),
    env: no_env,
    settings: None,
    other_files: &[],
    trust_env: None,
    trust_variables: &[],
    first_start_hint: no_hint,
};

/// The words of `words` as owned strings.
pub fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_string()).collect()
}
