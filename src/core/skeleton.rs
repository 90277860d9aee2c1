//! A new skill's SKILL.md for one agent: the frontmatter fields that agent's users need, a
//! description that says what and when, and a body skeleton to fill in (`skillscope new`).

use crate::core::source::Agent;

/// Why a name cannot be a new skill's.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NameError {
    /// Not lowercase ASCII letters, digits and single hyphens, or too long.
    #[error("`{given}` cannot be a skill's name: use lowercase letters, digits and single hyphens, at most 64 characters{}", .meant.as_ref().map_or_else(String::new, |m| format!(" (`{m}`)")))]
    Invalid {
        /// The name as given.
        given: String,
        /// The nearest valid name, if there is one.
        meant: Option<String>,
    },
}

/// The longest name every agent takes.
const MAX_NAME: usize = 64;

/// Whether `name` is a valid name for every agent: `[a-z0-9-]`, 1–64 characters, no leading,
/// trailing or double hyphen. The suggestion is the name made so.
pub fn check_name(name: &str) -> Result<(), NameError> {
    let valid = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    if valid {
        return Ok(());
    }
    let kebab: String = crate::core::rules::fields::kebab(name)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(MAX_NAME)
        .collect();
    let kebab = kebab.trim_matches('-').to_string();
    Err(NameError::Invalid {
        given: crate::core::text::line(name).into_owned(),
        meant: (!kebab.is_empty() && kebab != name).then_some(kebab),
    })
}

/// The words of the description `new` writes when given none (kept beside the rule that
/// recognises them).
pub use crate::core::rules::fields::PLACEHOLDER;

/// The SKILL.md of a new skill `name` (already checked) for `agent`, with `description` or,
/// without one, a sentence to replace that already says what and when.
pub fn skill_md(name: &str, agent: Agent, description: Option<&str>) -> String {
    let words = name.replace('-', " ");
    let description = description.map_or_else(
        || {
            format!(
                "Handles {words} tasks; {PLACEHOLDER} and the files, tools or services it works \
                 with. Use when the user asks about {words}."
            )
        },
        str::to_string,
    );
    let mut s = format!(
        "---\nname: {name}\ndescription: {}\n",
        yaml_scalar(&description)
    );
    s.push_str(&agent_fields(agent, &words));
    s.push_str("---\n\n");
    s.push_str(&body(&words));
    s
}

/// The fields (and commented optional ones) an agent's users need beyond the name and the
/// description.
fn agent_fields(agent: Agent, words: &str) -> String {
    match agent {
        Agent::ClaudeCode => "# Optional for Claude Code:\n\
             # allowed-tools: Read, Grep, Bash(git status:*)\n\
             # disable-model-invocation: true   (only /name runs it)\n\
             # argument-hint: \"[file]\"\n"
            .to_string(),
        Agent::Codex => "# Optional for Codex:\n\
             # metadata:\n\
             #   short-description: a shorter line for the skills menu\n"
            .to_string(),
        Agent::Opencode => "compatibility: opencode\n".to_string(),
        Agent::LazySkills => format!(
            "type: contextual\n\
             when_to_use: {}\n\
             triggers:\n  - {}\n\
             auto_load: true\n",
            yaml_scalar(&format!("The user asks about {words}.")),
            yaml_scalar(words)
        ),
        Agent::Gemini
        | Agent::Goose
        | Agent::Openclaw
        | Agent::Copilot
        | Agent::Cline
        | Agent::QwenCode
        | Agent::Generic
        | Agent::Path
        | Agent::Demo => String::new(),
    }
}

/// The body: a title and the sections a reader of the skill looks for.
fn body(words: &str) -> String {
    let mut title = String::new();
    for (i, w) in words.split(' ').filter(|w| !w.is_empty()).enumerate() {
        if i > 0 {
            title.push(' ');
        }
        let mut cs = w.chars();
        if let Some(c) = cs.next() {
            title.extend(c.to_uppercase());
            title.push_str(cs.as_str());
        }
    }
    format!(
        "# {title}\n\n\
         What this skill does, in two or three sentences, and what it needs (tools, files, \
         credentials).\n\n\
         ## When to use\n\n\
         - The user asks to …\n\
         - Not when …\n\n\
         ## Steps\n\n\
         1. …\n\
         2. …\n\n\
         ## Examples\n\n\
         - \"…\" → …\n"
    )
}

/// A YAML scalar holding `s` exactly: plain when YAML would read it back as the same string,
/// else double-quoted (a JSON string is a valid double-quoted YAML scalar).
pub fn yaml_scalar(s: &str) -> String {
    // YAML 1.1 reads these as booleans and null, and some agents' parsers still do.
    const WORDS: &[&str] = &["y", "n", "yes", "no", "on", "off", "true", "false", "null"];
    let plain = s.starts_with(char::is_alphabetic)
        && s == s.trim()
        && !WORDS.iter().any(|w| w.eq_ignore_ascii_case(s))
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.chars().any(char::is_control)
        && crate::core::frontmatter::parse_yaml_value::<String>(s).as_deref() == Ok(s);
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_every_agent_takes_and_the_nearest_for_others() {
        assert_eq!(check_name("pdf-tools"), Ok(()));
        assert_eq!(check_name("a1"), Ok(()));
        for (bad, meant) in [
            ("PDF Tools", Some("pdf-tools")),
            ("-x", Some("x")),
            ("a--b", Some("a-b")),
            ("", None),
            ("___", None),
        ] {
            match check_name(bad) {
                Err(NameError::Invalid { meant: m, .. }) => {
                    assert_eq!(m.as_deref(), meant, "{bad}");
                }
                Ok(()) => panic!("{bad} passed"),
            }
        }
        assert!(check_name(&"a".repeat(65)).is_err());
    }

    #[test]
    fn a_description_that_yaml_would_misread_is_quoted() {
        assert_eq!(yaml_scalar("Fills PDF forms."), "Fills PDF forms.");
        for s in [
            "Forms: fill them",
            "yes",
            "12",
            "- item",
            "a # b",
            "line\nbreak",
            "",
        ] {
            let y = yaml_scalar(s);
            assert_eq!(
                crate::core::frontmatter::parse_yaml_value::<String>(&y).as_deref(),
                Ok(s),
                "{y}"
            );
            assert_ne!(y, s, "{s:?} kept plain");
        }
    }

    #[test]
    fn each_agent_gets_its_fields_and_the_frontmatter_reads_back() {
        for agent in [
            Agent::ClaudeCode,
            Agent::Codex,
            Agent::Opencode,
            Agent::LazySkills,
            Agent::Gemini,
        ] {
            let text = skill_md("pdf-tools", agent, Some("Fills forms: PDF ones"));
            let p = crate::core::frontmatter::parse(text.as_bytes(), true);
            assert!(p.diagnostics.is_empty(), "{agent:?}: {:?}", p.diagnostics);
            assert_eq!(p.frontmatter.name.as_deref(), Some("pdf-tools"));
            assert_eq!(p.frontmatter.description(), Some("Fills forms: PDF ones"));
            assert!(text.contains("\n# Pdf Tools\n"), "{text}");
        }
        let lazy = skill_md("pdf-tools", Agent::LazySkills, None);
        assert!(lazy.contains("\ntype: contextual\n") && lazy.contains("\nauto_load: true\n"));
        assert!(skill_md("x", Agent::Opencode, None).contains("\ncompatibility: opencode\n"));
    }
}
