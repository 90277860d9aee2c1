//! The `description-template` rule: descriptions that differ from others only by the skill's
//! name ("Automate Strava tasks via …", "Automate Xero tasks via …"). Routing by meaning cannot
//! tell such skills apart: only a message that names the skill finds it.

use crate::core::catalogue::RuleId;
use crate::core::diagnostic::{Diagnostic, Severity};
use crate::core::library::Library;
use crate::core::text::{count_of, thousands};
use std::collections::HashMap;

/// The description's text with the words of the skill's name put as `<name>`, lowercased, in
/// single spaces; `None` when the description does not hold a word of the name (it is then no
/// template filled in with the name) or is too short to be one.
pub fn template(description: &str, name: &str) -> Option<String> {
    let stem = |w: &str| crate::core::matching::text::stem(&w.to_lowercase());
    let own: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(stem)
        .collect();
    let mut out = String::with_capacity(description.len());
    let (mut named, mut words) = (false, 0);
    let mut rest = description;
    loop {
        let start = rest.find(char::is_alphanumeric).unwrap_or(rest.len());
        // What stands between two words, with its white space made one space.
        let mut between = rest[..start]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if rest[..start].starts_with(char::is_whitespace) {
            between.insert(0, ' ');
        }
        if rest[..start].ends_with(char::is_whitespace) && start > 0 && !between.ends_with(' ') {
            between.push(' ');
        }
        rest = &rest[start..];
        let len = rest
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len());
        let word = &rest[..len];
        rest = &rest[len..];
        if word.is_empty() {
            out.push_str(between.trim_end());
            break;
        }
        if own.contains(&stem(word)) {
            named = true;
            // Name words in a row ("Google Sheets") are one `<name>`.
            if !(out.ends_with("<name>") && between.trim().is_empty()) {
                out.push_str(&between);
                out.push_str("<name>");
            }
        } else {
            words += 1;
            out.push_str(&between);
            out.push_str(&word.to_lowercase());
        }
    }
    let out = out.trim().to_string();
    (named && words >= 3).then_some(out)
}

/// The template's first clause — up to the first `:`, `;`, ` - `, ` — ` or sentence end — when
/// the name stands in it with at least four other words: what a family of skills built from one
/// template shares even when each goes on to list its own items ("Automate Linear tasks via Rube
/// MCP (Composio): issues, projects, …").
pub fn head(template: &str) -> Option<&str> {
    let cut = [": ", "; ", " - ", " — ", ". "]
        .iter()
        .filter_map(|sep| template.find(sep))
        .chain(
            template
                .ends_with(['.', ':', ';'])
                .then(|| template.len() - 1),
        )
        .min()
        .unwrap_or(template.len());
    let head = template[..cut].trim();
    let others = head
        .split(|c: char| !c.is_alphanumeric() && c != '<' && c != '>')
        .filter(|w| !w.is_empty() && *w != "<name>")
        .count();
    (head.contains("<name>") && others >= 4).then_some(head)
}

/// A finding on every skill whose description is one template with at least one other skill of
/// another name, and another description.
pub fn check(lib: &Library) -> Vec<(usize, Diagnostic)> {
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, s) in lib.skills.iter().enumerate() {
        if s.shadowed_by.is_some() {
            continue;
        }
        if let Some(t) = s
            .frontmatter
            .description()
            .and_then(|d| template(d, &s.name))
        {
            let key = head(&t).map_or(t.clone(), str::to_string);
            groups.entry(key).or_default().push(i);
        }
    }
    groups.retain(|_, members| {
        let first = &lib.skills[members[0]];
        members.iter().any(|&j| {
            let s = &lib.skills[j];
            s.name != first.name && s.description() != first.description()
        })
    });
    let affected: usize = groups.values().map(Vec::len).sum();
    let total = lib.skills.len().max(1);
    let share = format!(
        "{} of the library's {} ({:.0} %) have a description that is a template filled in with their name",
        thousands(affected as u64),
        count_of(total, "skill", "skills"),
        affected as f64 * 100.0 / total as f64
    );
    let mut out = Vec::new();
    for (t, members) in &groups {
        let shown = crate::core::text::fit(t, 70);
        for &i in members {
            let s = &lib.skills[i];
            out.push((
                i,
                Diagnostic::new(
                    RuleId::DescriptionTemplate,
                    Severity::Warning,
                    format!(
                        "the description is `{shown}` with the name filled in, as for {}: routing by meaning cannot tell them apart, so only a message that names the skill finds it; say what this one does that the others do not ({share})",
                        count_of(members.len() - 1, "other skill", "other skills")
                    ),
                )
                .at_line(s.frontmatter.line_of("description")),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_taken_out_of_the_description() {
        assert_eq!(
            template(
                "Automate Strava tasks via Rube MCP (Composio): activities, routes.",
                "strava-automation"
            )
            .as_deref(),
            Some("automate <name> tasks via rube mcp (composio): activities, routes.")
        );
        // Two words of a name in a row are one.
        assert_eq!(
            template(
                "Automate Google Sheets tasks via Rube MCP (Composio): activities, routes.",
                "google-sheets-automation"
            ),
            template(
                "Automate Xero tasks via Rube MCP (Composio): activities, routes.",
                "xero-automation"
            )
        );
        assert_eq!(template("Extracts text from PDF files.", "docx"), None);
        // One template's family shares its first clause, whatever items each lists after it.
        let linear = template(
            "Automate Linear tasks via Rube MCP (Composio): issues, cycles. Always search first.",
            "linear-automation",
        )
        .unwrap();
        let jira = template(
            "Automate Jira tasks via Rube MCP (Composio): issues, sprints, boards.",
            "jira-automation",
        )
        .unwrap();
        assert_ne!(linear, jira);
        assert_eq!(
            head(&linear),
            Some("automate <name> tasks via rube mcp (composio)")
        );
        assert_eq!(head(&linear), head(&jira));
        // A short clause with the name is no family: "Guide for <name>" says too little.
        let guide = template("Guide for Kafka: topics, consumers and lag.", "kafka").unwrap();
        assert_eq!(head(&guide), None);
        assert_eq!(template("Pdf tools.", "pdf"), None, "too short");
    }
}
