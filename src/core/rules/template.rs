//! The `description-template` rule: descriptions that differ from others only by the skill's
//! name ("Automate Strava tasks via …", "Automate Xero tasks via …"). Routing by meaning cannot
//! tell such skills apart: only a message that names the skill finds it.

use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::library::Library;
use crate::core::words::text::{count_of, thousands};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// The description's text with the words of the skill's name put as `<name>`, lowercased, in
/// single spaces; `None` when the description does not hold a word of the name (it is then no
/// template filled in with the name) or is too short to be one.
///
/// Every skill's description passes through here on every check: the words are lowercased into
/// one buffer, and a word is stemmed only when its first two bytes are those of a word of the
/// name (a stem keeps a word's first two bytes, see `stems_keep_the_first_two_bytes`).
pub fn template(description: &str, name: &str) -> Option<String> {
    let stem = |w: &str| crate::core::matching::text::stem(&w.to_lowercase());
    let own: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(stem)
        .collect();
    if own.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(description.len());
    let (mut between, mut lower) = (String::new(), String::new());
    let (mut named, mut words) = (false, 0);
    let mut rest = description;
    loop {
        let start = rest.find(char::is_alphanumeric).unwrap_or(rest.len());
        // What stands between two words, with its white space made one space.
        let gap = &rest[..start];
        between.clear();
        if gap.starts_with(char::is_whitespace) {
            between.push(' ');
        }
        for (k, part) in gap.split_whitespace().enumerate() {
            if k > 0 {
                between.push(' ');
            }
            between.push_str(part);
        }
        if gap.ends_with(char::is_whitespace) && start > 0 && !between.ends_with(' ') {
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
        lower.clear();
        if word.is_ascii() {
            lower.push_str(word);
            lower.make_ascii_lowercase();
        } else {
            lower.push_str(&word.to_lowercase());
        }
        let may_be_own = own
            .iter()
            .any(|o| o.as_bytes().get(..2) == lower.as_bytes().get(..2));
        if may_be_own && own.contains(&crate::core::matching::text::stem(&lower)) {
            named = true;
            // Name words in a row ("Google Sheets") are one `<name>`.
            if !(out.ends_with("<name>") && between.trim().is_empty()) {
                out.push_str(&between);
                out.push_str("<name>");
            }
        } else {
            words += 1;
            out.push_str(&between);
            out.push_str(&lower);
        }
    }
    (named && words >= 3).then(|| out.trim().to_string())
}

/// The template's first clause — up to the first `:`, `;`, ` - `, ` — ` or sentence end — when
/// the name stands in it with at least four other words: what a family of skills built from one
/// template shares even when each goes on to list its own items ("Automate Linear tasks via Rube
/// MCP (Composio): issues, projects, …").
pub fn head(template: &str) -> Option<&str> {
    const SEPARATORS: [&[u8]; 5] = [b": ", b"; ", b" - ", " — ".as_bytes(), b". "];
    // Every separator starts with an ASCII byte, so where one starts is a character boundary.
    let bytes = template.as_bytes();
    let first = (0..bytes.len()).find(|&i| {
        matches!(bytes[i], b':' | b';' | b' ' | b'.')
            && SEPARATORS.iter().any(|sep| bytes[i..].starts_with(sep))
    });
    let cut = first
        .into_iter()
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
/// another name, and another description. Remembered in the library index by the hash of what
/// it reads (each skill's name, description and its line, whether it is shadowed), so that an
/// unchanged library is not judged again.
pub fn check(lib: &Library) -> Vec<(usize, Diagnostic)> {
    let Some(key) = input_key(lib) else {
        return judge(lib);
    };
    if let Some(found) = lib.remembered(&key) {
        return found;
    }
    let found = judge(lib);
    lib.remember(key, &found);
    found
}

/// The hash of what [`judge`] reads, with this program's identity (`None` without one).
pub(crate) fn input_key(lib: &Library) -> Option<[u8; 32]> {
    // Gathered into a buffer and hashed 64 KiB at a time, as the overlap rule's key is.
    const STAGE: usize = 64 * 1024;
    let program = crate::core::files::fsx::program_key()?;
    let mut h = blake3::Hasher::new();
    let mut buf: Vec<u8> = Vec::with_capacity(STAGE);
    buf.extend_from_slice(b"description-template 1\0");
    buf.extend_from_slice(program);
    buf.extend_from_slice(&(lib.skills.len() as u64).to_le_bytes());
    for s in &lib.skills {
        buf.push(u8::from(s.shadowed_by.is_some()));
        buf.push(u8::from(s.frontmatter.description().is_some()));
        buf.extend_from_slice(
            &s.frontmatter
                .line_of("description")
                .map_or(0, |l| u64::from(l) + 1)
                .to_le_bytes(),
        );
        for t in [s.name.as_str(), s.description()] {
            buf.extend_from_slice(&(t.len() as u64).to_le_bytes());
            buf.extend_from_slice(t.as_bytes());
        }
        if buf.len() >= STAGE {
            h.update(&buf);
            buf.clear();
        }
    }
    h.update(&buf);
    Some(*h.finalize().as_bytes())
}

/// [`check`], judged afresh.
fn judge(lib: &Library) -> Vec<(usize, Diagnostic)> {
    // Each description's template on every core; the groups in the skills' order.
    let keys: Vec<Option<String>> = lib
        .skills
        .par_iter()
        .map(|s| {
            if s.shadowed_by.is_some() {
                return None;
            }
            let t = template(s.frontmatter.description()?, &s.name)?;
            Some(match head(&t) {
                Some(h) => h.to_string(),
                None => t,
            })
        })
        .collect();
    let mut groups: FxHashMap<String, Vec<usize>> = FxHashMap::default();
    for (i, key) in keys.into_iter().enumerate() {
        if let Some(key) = key {
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
        let shown = crate::core::words::text::fit(t, 70);
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

    /// The template as first written: every word lowercased and stemmed, and the separators
    /// searched one by one. The one in use must give the same text for every description.
    fn template_as_written(description: &str, name: &str) -> Option<String> {
        let stem = |w: &str| crate::core::matching::text::stem(&w.to_lowercase());
        let own: Vec<String> = name
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 2)
            .map(stem)
            .collect();
        let mut out = String::new();
        let (mut named, mut words) = (false, 0);
        let mut rest = description;
        loop {
            let start = rest.find(char::is_alphanumeric).unwrap_or(rest.len());
            let mut between = rest[..start]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            if rest[..start].starts_with(char::is_whitespace) {
                between.insert(0, ' ');
            }
            if rest[..start].ends_with(char::is_whitespace) && start > 0 && !between.ends_with(' ')
            {
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

    fn head_as_written(template: &str) -> Option<&str> {
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

    #[test]
    fn stems_keep_the_first_two_bytes() {
        use crate::core::matching::text::stem;
        for w in [
            "sses",
            "asses",
            "ties",
            "flies",
            "skies",
            "runs",
            "running",
            "stopped",
            "hopping",
            "bed",
            "ing",
            "sing",
            "user",
            "folder",
            "runner",
            "bigger",
            "ie",
            "a",
            "ab",
            "abc",
            "xyzzies",
            "tasks",
            "make",
            "automated",
            "éclairs",
            "Émile",
            "straße",
            "ıi",
            "日本語",
        ] {
            let lower = w.to_lowercase();
            let s = stem(&lower);
            assert_eq!(s.as_bytes().get(..2), lower.as_bytes().get(..2), "{w}: {s}");
            assert_eq!(s.len() < 2, lower.len() < 2, "{w}: {s}");
        }
    }

    #[test]
    fn the_template_is_the_one_first_written_on_odd_text() {
        let names = [
            "strava-automation",
            "google-sheets-automation",
            "pdf",
            "x",
            "Émile-Tasks",
            "straße",
            "run-runners",
            "ties",
            "",
        ];
        let descriptions = [
            "Automate Strava tasks via Rube MCP (Composio): activities, routes.",
            "Automate Google Sheets tasks via Rube MCP (Composio): activities; routes - more — end. Next",
            "  leading\tand trailing white space around Strava tasks and runners, running ties  ",
            "\u{a0}non-breaking\u{2003}spaces around Émile tasks, emile's TASKS and more words",
            "Straße STRASSE strasse: Unicode case ÉMILE émile; the run-runners ran runs",
            "pdf PDF pdfs Pdf, the pdf tool for pdf files:; .. — -",
            "Ties tied tying tie: x X xx the ties with words",
            "",
            "   ",
            "!!! ??? ...",
            "Google  Sheets\n\nGoogle\tSheets google-sheets for sheets in Google",
        ];
        for name in names {
            for d in descriptions {
                let t = template(d, name);
                assert_eq!(t, template_as_written(d, name), "{name:?} {d:?}");
                if let Some(t) = t {
                    assert_eq!(head(&t), head_as_written(&t), "{t:?}");
                }
            }
        }
        for t in [
            "<name> a b c d: e",
            "a b c d <name>; e",
            "a b c d <name> - e — f",
            "a — b <name> c d e f. g",
            "<name> a b c d.",
            "<name>:a b c d",
            "",
        ] {
            assert_eq!(head(t), head_as_written(t), "{t:?}");
        }
    }

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
