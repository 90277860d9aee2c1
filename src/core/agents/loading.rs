//! What loading one skill adds to the conversation, block by block, exactly as each agent's
//! client sends it (verified against the captures in `tests/fixtures/agents/<client>@<version>/`,
//! the `inject-*.json` files): the blocks' roles, kinds and texts, and the errors a client
//! answers with instead.

use crate::core::library::{LibraryError, read_body};
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
    /// The user names the skill in a message (Codex's `$name`): `core::front::inject`'s mention.
    Mention,
    /// The model calls the agent's skill tool, which finds the name as the agent's view does:
    /// the blocks given the skill, the name and what the model passes along, and what the
    /// client answers for a skill its own switch turned off.
    Tool(Blocks, WhenOff),
}

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

    fn new(role: &'static str, kind: &'static str, text: String) -> Block {
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

/// Claude Code 2.1.332's `Skill` tool called for `skill` (`called`: the name the model called it
/// by, its folder's name for a skill of Claude Code's folders) with `args`: a `tool_result`
/// `Launching skill: NAME`, then the body (the file after its frontmatter, as written) with
/// `$ARGUMENTS` and `$ARGUMENTS[N]` filled in, after `Base directory for this skill: DIR` for a
/// skill (a command has none). A skill closed to the model (`disable-model-invocation`) gets the
/// client's error instead.
pub fn claude_code(skill: &Skill, called: &str, args: &str) -> Result<Vec<Block>, LibraryError> {
    if skill.frontmatter.disable_model_invocation {
        let mut b = Block::new(
            "user",
            "tool_result",
            format!(
                "<tool_use_error>Skill {called} cannot be used with Skill tool due to \
                 disable-model-invocation. Ask the user to run /{called} themselves — it cannot be \
                 invoked via the Skill tool. Do not replicate this skill's workflow by other means \
                 — it is reserved for explicit user invocation.</tool_use_error>"
            ),
        );
        b.is_error = true;
        return Ok(vec![b]);
    }
    let body = with_arguments(&read_body(skill)?, args);
    let text = if skill.command {
        body
    } else {
        format!(
            "Base directory for this skill: {}\n\n{body}",
            skill.dir.display()
        )
    };
    let mut body = Block::new("user", "text", text);
    body.forked = forks(skill);
    Ok(vec![
        Block::new("user", "tool_result", format!("Launching skill: {called}")),
        body,
    ])
}

/// Gemini CLI 0.61.0's `activate_skill` called with `called` for `skill`: one
/// `functionResponse`, `<activated_skill>` with the body and the skill folder's tree
/// ([`super::tools::gemini_activation`]).
pub fn gemini(skill: &Skill, called: &str) -> Vec<Block> {
    vec![Block::new(
        "user",
        "functionResponse",
        super::tools::gemini_activation(skill, called),
    )]
}

/// opencode 1.18.33's `skill` tool called for `skill`: one `tool_result`, `<skill_content>` with
/// the body, the base directory and some of the skill's files
/// ([`super::tools::opencode_skill_content`]).
pub fn opencode(skill: &Skill) -> Vec<Block> {
    vec![Block::new(
        "user",
        "tool_result",
        super::tools::opencode_skill_content(skill),
    )]
}

/// Claude Code's placeholders: `$ARGUMENTS[N]` is the N-th word of `args` (empty past the
/// last), `$ARGUMENTS` all of them; `$1` and the like are left as written.
fn with_arguments(body: &str, args: &str) -> String {
    let words: Vec<&str> = args.split_whitespace().collect();
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find("$ARGUMENTS") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "$ARGUMENTS".len()..];
        let indexed = rest.strip_prefix('[').and_then(|r| {
            let end = r.find(']')?;
            let n: usize = r[..end].parse().ok()?;
            Some((n, &r[end + 1..]))
        });
        match indexed {
            Some((n, after)) => {
                out.push_str(words.get(n).copied().unwrap_or(""));
                rest = after;
            }
            None => out.push_str(args),
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_fill_whole_and_indexed_placeholders_and_leave_numbered_ones() {
        assert_eq!(
            with_arguments(
                "Deploy to $ARGUMENTS now.\n$1 $ARGUMENTS[0] $ARGUMENTS[5].",
                "staging eu"
            ),
            "Deploy to staging eu now.\n$1 staging ."
        );
        assert_eq!(with_arguments("no placeholder", "x"), "no placeholder");
        assert_eq!(with_arguments("$ARGUMENTS[x]", "a"), "a[x]");
    }
}

/// Qwen Code 0.24.4's `skill` tool result (`buildSkillLlmContent`): the base directory, the line
/// telling the model to resolve paths from it, then the body after the frontmatter, trimmed.
pub fn qwen_code(skill: &Skill) -> Result<Vec<Block>, LibraryError> {
    let body = read_body(skill)?;
    Ok(vec![Block::new(
        "tool",
        "tool_result",
        qwen_code_text(
            &crate::core::files::paths::absolute(&skill.dir)
                .display()
                .to_string(),
            &body,
        ),
    )])
}

fn qwen_code_text(dir: &str, body: &str) -> String {
    format!(
        "Base directory for this skill: {dir}\nImportant: ALWAYS resolve absolute paths from this base directory when working with skills.\n\n{}\n",
        body.trim()
    )
}

/// GitHub Copilot CLI 1.0.102's `skill` tool: a result saying the skill loaded, then a user
/// message `<skill-context>` with the base directory, every other file of the skill (sorted,
/// absolute) and the body after the frontmatter.
pub fn copilot(skill: &Skill) -> Result<Vec<Block>, LibraryError> {
    let body = read_body(skill)?;
    let dir = crate::core::files::paths::absolute(&skill.dir)
        .display()
        .to_string();
    let mut files: Vec<String> = skill
        .resources
        .iter()
        .map(|r| format!("{dir}/{}", r.rel))
        .collect();
    files.sort();
    Ok(copilot_blocks(
        skill.frontmatter.name.as_deref().unwrap_or(&skill.name),
        &dir,
        &files,
        &body,
    ))
}

/// GitHub Copilot CLI's `skill` tool result for a name it does not offer (a skill its own
/// switch turned off among them): the name, and every name its listing offers, in listing order
/// (`copilot@1.0.102/switch-off/inject-switch-off.txt`).
pub fn copilot_not_found(name: &str, offered: &[String]) -> String {
    format!(
        "Skill \"{name}\" not found. Available skills: {}",
        offered.join(", ")
    )
}

fn copilot_blocks(name: &str, dir: &str, files: &[String], body: &str) -> Vec<Block> {
    let mut ctx =
        format!("<skill-context name=\"{name}\">\nBase directory for this skill: {dir}\n\n");
    if !files.is_empty() {
        ctx.push_str("Related files (use view tool to read):\n");
        for f in files {
            ctx.push_str(&format!("  - {f}\n"));
        }
        ctx.push('\n');
    }
    ctx.push_str(body.trim());
    ctx.push_str("\n\n</skill-context>");
    vec![
        Block::new(
            "tool",
            "tool_result",
            format!(
                "Skill \"{name}\" loaded successfully. Follow the instructions in the skill context."
            ),
        ),
        Block::new("user", "text", ctx),
    ]
}

/// Cline 3.0.65's `skills` tool result: the command name, the description when there is one
/// (its final line breaks trimmed), then the body after the frontmatter, trimmed (no base
/// directory, no files); a result over [`CLINE_RESULT_MAX`] characters cut as Cline cuts every
/// long tool result ([`cline_cut`]).
pub fn cline(skill: &Skill, args: Option<&str>) -> Result<Vec<Block>, LibraryError> {
    let body = read_body(skill)?;
    Ok(vec![Block::new(
        "tool",
        "tool_result",
        cline_cut(&cline_text(
            skill.frontmatter.name.as_deref().unwrap_or(&skill.name),
            skill.frontmatter.description(),
            args,
            &body,
        )),
    )])
}

/// The longest tool result Cline hands the model whole (`wide/inject-long-body.txt`: a result
/// of 11,045 characters became 8,000).
pub const CLINE_RESULT_MAX: usize = 8000;
/// The characters kept at each end of a longer one.
const CLINE_RESULT_END: usize = 3984;

/// A tool result as Cline passes it on: whole up to [`CLINE_RESULT_MAX`] characters; longer,
/// its first and last 3,984 characters around `\n\n...[truncated N chars]...\n\n`, N the
/// characters left out.
pub fn cline_cut(text: &str) -> String {
    let n = text.chars().count();
    if n <= CLINE_RESULT_MAX {
        return text.to_string();
    }
    let head: String = text.chars().take(CLINE_RESULT_END).collect();
    let tail: String = text.chars().skip(n - CLINE_RESULT_END).collect();
    format!(
        "{head}\n\n...[truncated {} chars]...\n\n{tail}",
        n - 2 * CLINE_RESULT_END
    )
}

fn cline_text(name: &str, description: Option<&str>, args: Option<&str>, body: &str) -> String {
    let mut t = format!("<command-name>{name}</command-name>\n");
    if let Some(a) = args {
        t.push_str(&format!("<command-args>{a}</command-args>\n"));
    }
    t.push_str("<command-instructions>\n");
    if let Some(d) = description.filter(|d| !d.trim().is_empty()) {
        t.push_str(&format!(
            "Description: {}\n\n",
            d.trim_end_matches(['\n', '\r'])
        ));
    }
    t.push_str(body.trim());
    t.push_str("\n</command-instructions>");
    t
}

/// OpenClaw 2026.9.6 has no skill tool: the model `read`s the SKILL.md at its listed location,
/// and the result is the whole file, frontmatter included.
pub fn openclaw(skill: &Skill) -> Result<Vec<Block>, LibraryError> {
    let text = crate::core::files::fsx::read_regular_up_to(&skill.skill_md, 64 << 20)
        .ok()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    Ok(vec![Block::new("tool", "tool_result", text)])
}

#[cfg(test)]
mod newcomer_tests {
    use super::*;

    fn capture(rel: &str) -> String {
        std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/agents")
                .join(rel),
        )
        .unwrap()
    }

    const BODY: &str = "# With resources\n\nRun `scripts/run.sh` and read `references/guide.md` first.\n\nArguments given: $ARGUMENTS\n";

    #[test]
    fn cline_cuts_a_long_result_around_what_it_leaves_out() {
        let short = "x".repeat(CLINE_RESULT_MAX);
        assert_eq!(cline_cut(&short), short);
        let long = format!(
            "{}{}{}",
            "a".repeat(3984),
            "m".repeat(3077),
            "z".repeat(3984)
        );
        let cut = cline_cut(&long);
        assert_eq!(
            cut,
            format!(
                "{}\n\n...[truncated 3077 chars]...\n\n{}",
                "a".repeat(3984),
                "z".repeat(3984)
            )
        );
        assert_eq!(cut.chars().count(), 8000);
        // Characters, not bytes: a multi-byte character is never split.
        let wide = "é".repeat(9000);
        let cut = cline_cut(&wide);
        assert!(cut.starts_with(&"é".repeat(3984)) && cut.contains("[truncated 1032 chars]"));
    }

    #[test]
    fn cline_trims_a_block_descriptions_final_line_break() {
        let t = cline_text(
            "pipe-desc",
            Some("A literal block.\nIts second line.\n"),
            None,
            "Body.",
        );
        assert_eq!(
            t,
            "<command-name>pipe-desc</command-name>\n<command-instructions>\nDescription: A literal block.\nIts second line.\n\nBody.\n</command-instructions>"
        );
    }

    #[test]
    fn qwen_code_injects_its_base_directory_lines_and_the_body() {
        assert_eq!(
            qwen_code_text("{HOME}/.qwen/skills/with-resources", BODY),
            capture("qwen-code@0.24.4/mixed/inject-with-resources.txt")
        );
    }

    #[test]
    fn copilot_injects_a_result_and_a_skill_context_with_the_files() {
        let dir = "{HOME}/.copilot/skills/with-resources";
        let files: Vec<String> = [
            "assets/template.txt",
            "references/guide.md",
            "scripts/run.sh",
        ]
        .iter()
        .map(|f| format!("{dir}/{f}"))
        .collect();
        let blocks = copilot_blocks("with-resources", dir, &files, BODY);
        assert_eq!(
            blocks[0].text,
            capture("copilot@1.0.102/mixed/inject-with-resources.txt")
        );
        let after: serde_json::Value = serde_json::from_str(&capture(
            "copilot@1.0.102/mixed/inject-with-resources.after.json",
        ))
        .unwrap();
        assert_eq!(after[0]["content"].as_str(), Some(blocks[1].text.as_str()));
    }

    #[test]
    fn cline_injects_the_command_name_description_and_body() {
        assert_eq!(
            cline_text(
                "with-resources",
                Some("Skill that ships scripts, references and assets next to its SKILL.md."),
                None,
                BODY
            ),
            capture("cline@3.0.65/mixed/inject-with-resources.txt")
        );
    }
}
