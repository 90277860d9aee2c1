//! What Cline 3.0.65's `skills` tool adds to the conversation when its model calls a skill
//! (captured: `tests/fixtures/agents/cline@3.0.65/*/inject-*.txt`).

use crate::core::agents::loading::Block;
use crate::core::library::{LibraryError, read_body};
use crate::core::skill::Skill;

/// Cline 3.0.65's `skills` tool result: the command name, the description when there is one
/// (its final line breaks trimmed), then the body after the frontmatter, trimmed (no base
/// directory, no files); a result over [`RESULT_MAX`] characters cut as Cline cuts every
/// long tool result ([`cut`]).
pub fn blocks(skill: &Skill, args: Option<&str>) -> Result<Vec<Block>, LibraryError> {
    let body = read_body(skill)?;
    Ok(vec![Block::new(
        "tool",
        "tool_result",
        cut(&text(
            skill.frontmatter.name.as_deref().unwrap_or(&skill.name),
            skill.frontmatter.description(),
            args,
            &body,
        )),
    )])
}

/// The longest tool result Cline hands the model whole (`wide/inject-long-body.txt`: a result
/// of 11,045 characters became 8,000).
pub const RESULT_MAX: usize = 8000;
/// The characters kept at each end of a longer one.
const RESULT_END: usize = 3984;

/// A tool result as Cline passes it on: whole up to [`RESULT_MAX`] characters; longer,
/// its first and last 3,984 characters around `\n\n...[truncated N chars]...\n\n`, N the
/// characters left out.
pub fn cut(text: &str) -> String {
    let n = text.chars().count();
    if n <= RESULT_MAX {
        return text.to_string();
    }
    let head: String = text.chars().take(RESULT_END).collect();
    let tail: String = text.chars().skip(n - RESULT_END).collect();
    format!(
        "{head}\n\n...[truncated {} chars]...\n\n{tail}",
        n - 2 * RESULT_END
    )
}

fn text(name: &str, description: Option<&str>, args: Option<&str>, body: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::agents::tools::testing::{WITH_RESOURCES_BODY as BODY, fixture as capture};

    #[test]
    fn cline_cuts_a_long_result_around_what_it_leaves_out() {
        let short = "x".repeat(RESULT_MAX);
        assert_eq!(cut(&short), short);
        let long = format!(
            "{}{}{}",
            "a".repeat(3984),
            "m".repeat(3077),
            "z".repeat(3984)
        );
        let got = cut(&long);
        assert_eq!(
            got,
            format!(
                "{}\n\n...[truncated 3077 chars]...\n\n{}",
                "a".repeat(3984),
                "z".repeat(3984)
            )
        );
        assert_eq!(got.chars().count(), 8000);
        // Characters, not bytes: a multi-byte character is never split.
        let wide = "é".repeat(9000);
        let got = cut(&wide);
        assert!(got.starts_with(&"é".repeat(3984)) && got.contains("[truncated 1032 chars]"));
    }

    #[test]
    fn cline_trims_a_block_descriptions_final_line_break() {
        let t = text(
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
    fn cline_injects_the_command_name_description_and_body() {
        assert_eq!(
            text(
                "with-resources",
                Some("Skill that ships scripts, references and assets next to its SKILL.md."),
                None,
                BODY
            ),
            capture("cline@3.0.65/mixed/inject-with-resources.txt")
        );
    }
}
