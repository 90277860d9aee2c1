//! What Claude Code 2.1.332's `Skill` tool adds to the conversation when its model calls a skill
//! (captured: `tests/fixtures/agents/claude-code@2.1.332/*/inject-*.json`).

use crate::core::agents::loading::{Block, forks};
use crate::core::library::{LibraryError, read_body};
use crate::core::skill::Skill;

/// Claude Code 2.1.332's `Skill` tool called for `skill` (`called`: the name the model called it
/// by, its folder's name for a skill of Claude Code's folders) with `args`: a `tool_result`
/// `Launching skill: NAME`, then the body (the file after its frontmatter, as written) with
/// `$ARGUMENTS` and `$ARGUMENTS[N]` filled in, after `Base directory for this skill: DIR` for a
/// skill (a command has none). A skill closed to the model (`disable-model-invocation`) gets the
/// client's error instead.
pub fn blocks(skill: &Skill, called: &str, args: &str) -> Result<Vec<Block>, LibraryError> {
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
