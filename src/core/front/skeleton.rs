//! A new skill's SKILL.md for one agent: the frontmatter fields that agent's users need, a
//! description that says what and when, and a body skeleton to fill in (`skillscope new`).

use crate::core::source::Agent;
pub use crate::core::words::naming::{check_name, yaml_scalar};

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
    s.push_str(&(agent.home().new_skill_fields)(&words));
    s.push_str("---\n\n");
    s.push_str(&body(&words));
    s
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

#[cfg(test)]
mod tests {
    use super::*;

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
