//! Body rules: length in lines and tokens, links to missing files, references nested too deep.

use super::Profile;
use crate::core::catalogue::RuleId;
use crate::core::diagnostic::{Diagnostic, Severity};
use crate::core::library::read_body;
use crate::core::skill::Skill;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

pub const MAX_LINES: usize = 500;
pub const MAX_TOKENS: usize = 5_000;
/// Links of one body checked at most; real bodies hold tens.
const MAX_LINKS: usize = 10_000;
/// Broken links reported at most per body.
const MAX_BROKEN: usize = 100;

pub fn check(
    skill: &Skill,
    _profile: Profile,
    count_tokens: Option<&(dyn Fn(&str) -> usize + Sync)>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if !skill.frontmatter.parsed {
        return out;
    }
    let body = match read_body(skill) {
        Ok(b) => b,
        Err(e) => {
            out.push(Diagnostic::new(
                RuleId::BodyUnreadable,
                Severity::Error,
                format!("{e}; check the file's permissions"),
            ));
            return out;
        }
    };
    let lines = body.lines().count();
    if lines > MAX_LINES {
        out.push(
            Diagnostic::new(
                RuleId::BodyTooLong,
                Severity::Warning,
                format!(
                    "the body is {lines} lines: keep SKILL.md under {MAX_LINES} lines and move detail into reference files"
                ),
            )
            .at(skill.body_line, 1),
        );
    } else if let Some(count) = count_tokens
        && let Some((n, whole)) = over_limit(&body, count)
    {
        let is = if whole { "is" } else { "is over" };
        out.push(
            Diagnostic::new(
                RuleId::BodyTooLong,
                Severity::Warning,
                format!(
                    "the body {is} {n} tokens: keep it under {MAX_TOKENS} and move detail into reference files"
                ),
            )
            .at(skill.body_line, 1),
        );
    }
    // A body of a million links must not cost a million diagnostics: each target is looked up
    // once, and the links past the first `MAX_LINKS` are not checked (saying so).
    let mut exists: HashMap<String, bool> = HashMap::new();
    let mut seen = 0usize;
    let mut broken = 0usize;
    for_each_link(&body, |link| {
        seen += 1;
        if seen > MAX_LINKS || broken >= MAX_BROKEN {
            return ControlFlow::Break(());
        }
        let target = skill.dir.join(&link.target);
        let found = *exists
            .entry(link.target.clone())
            .or_insert_with(|| target.exists());
        if !found {
            broken += 1;
            out.push(
                Diagnostic::new(
                    RuleId::BodyBrokenLink,
                    Severity::Warning,
                    format!(
                        "the link to `{}` points to no file: fix the path or add the file",
                        link.target
                    ),
                )
                .at(skill.body_line + link.line - 1, link.column),
            );
        } else if is_markdown(&target)
            && target.is_file()
            && let Some(next) = nested_reference(&skill.dir, &target)
        {
            out.push(
                Diagnostic::new(
                    RuleId::BodyNestedReference,
                    Severity::Warning,
                    format!(
                        "`{}` links on to `{}`: agents may read only part of a nested reference; link every reference from SKILL.md directly",
                        link.target,
                        next.display()
                    ),
                )
                .at(skill.body_line + link.line - 1, link.column),
            );
        }
        ControlFlow::Continue(())
    });
    if seen > MAX_LINKS || broken >= MAX_BROKEN {
        let why = if broken >= MAX_BROKEN {
            format!("{MAX_BROKEN} broken links reported")
        } else {
            format!("{MAX_LINKS} links checked")
        };
        out.push(
            Diagnostic::new(
                RuleId::BodyBrokenLink,
                Severity::Info,
                format!("{why}; the links after them were not checked"),
            )
            .at(skill.body_line, 1),
        );
    }
    out
}

/// The first prefix counted; each next one is four times longer.
const FIRST_PREFIX: usize = 64 * 1024;

/// The body's token count when it is over [`MAX_TOKENS`], and whether that is the whole body's
/// count. Only "over the limit" matters, so growing prefixes are counted until one is over it:
/// a 20 MB body costs the count of a few hundred KB, a body under the limit one count of itself.
fn over_limit(body: &str, count: &(dyn Fn(&str) -> usize + Sync)) -> Option<(usize, bool)> {
    // A token is at least one byte, so short bodies cannot be over the limit.
    if body.len() <= MAX_TOKENS {
        return None;
    }
    let mut size = FIRST_PREFIX;
    loop {
        if size >= body.len() {
            let n = count(body);
            return (n > MAX_TOKENS).then_some((n, true));
        }
        let n = count(prefix(body, size));
        if n > MAX_TOKENS {
            return Some((n, false));
        }
        size = size.saturating_mul(4);
    }
}

/// At most `max` bytes of `s`, cut before a white space when there is one in the last quarter
/// (where tokens split anyway, so the prefix's count is not inflated by a cut word), else at a
/// character boundary.
fn prefix(s: &str, max: usize) -> &str {
    let mut cut = max.min(s.len());
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = &s[..cut];
    match head.rfind(char::is_whitespace) {
        Some(i) if i >= cut - cut / 4 => &head[..i],
        _ => head,
    }
}

fn is_markdown(p: &Path) -> bool {
    p.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"))
}

/// The first local markdown file that a reference file links to, if any.
fn nested_reference(skill_dir: &Path, reference: &Path) -> Option<PathBuf> {
    let text = crate::core::library::read_text(reference).ok()?;
    let base = reference.parent()?;
    let mut found = None;
    let mut seen = 0usize;
    for_each_link(&text, |l| {
        seen += 1;
        let p = base.join(&l.target);
        if is_markdown(&p) && p.is_file() && p != reference {
            found = Some(
                p.strip_prefix(skill_dir)
                    .map(Path::to_path_buf)
                    .unwrap_or(p),
            );
            return ControlFlow::Break(());
        }
        if seen >= MAX_LINKS {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    found
}

#[derive(Debug, PartialEq, Eq)]
pub struct Link {
    pub target: String,
    /// 1-based line and column within the text given.
    pub line: u32,
    pub column: u32,
}

/// Inline markdown links `[text](target)` to local files, outside code blocks and code spans.
#[cfg(test)]
fn local_links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    for_each_link(text, |l| {
        out.push(l);
        ControlFlow::Continue(())
    });
    out
}

/// [`local_links`] one at a time, until `f` breaks.
pub fn for_each_link(text: &str, mut f: impl FnMut(Link) -> ControlFlow<()>) {
    let mut fence: Option<&str> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(&t[..3]);
            continue;
        }
        let mut in_code = false;
        let bytes = line.as_bytes();
        // Characters before byte `j`, kept as `j` moves: a line of a million links must not
        // count its start again for each one.
        let (mut chars_before, mut counted_to) = (0usize, 0usize);
        let mut j = 0;
        while j < bytes.len() {
            match bytes[j] {
                b'`' => in_code = !in_code,
                b']' if !in_code && bytes.get(j + 1) == Some(&b'(') => {
                    // No `)` after this one means none after any later one either.
                    let Some(end) = line[j + 2..].find(')') else {
                        break;
                    };
                    let raw = &line[j + 2..j + 2 + end];
                    if let Some(target) = clean_target(raw) {
                        chars_before += line[counted_to..j + 2].chars().count();
                        counted_to = j + 2;
                        let link = Link {
                            target,
                            line: i as u32 + 1,
                            column: chars_before as u32 + 1,
                        };
                        if f(link).is_break() {
                            return;
                        }
                    }
                    j += 2 + end;
                }
                _ => {}
            }
            j += 1;
        }
    }
}

fn clean_target(raw: &str) -> Option<String> {
    let raw = raw.trim();
    let raw = match raw.strip_prefix('<') {
        Some(r) => r.split_once('>').map_or(r, |(p, _)| p),
        None => raw.split_once(' ').map_or(raw, |(p, _)| p),
    };
    let path = raw.split('#').next().unwrap_or("");
    let path = path.split('?').next().unwrap_or("");
    if path.is_empty()
        || path.contains("://")
        || path.starts_with("mailto:")
        || path.starts_with('/')
        || path.starts_with('~')
        || path.contains(['{', '}', '$', '*'])
        || path.starts_with("data:")
        || path.starts_with("tel:")
    {
        return None;
    }
    Some(path.replace("%20", " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_limit_needs_only_a_prefix_of_a_huge_body() {
        let counted = std::sync::Mutex::new(Vec::new());
        let count = |t: &str| {
            counted.lock().unwrap().push(t.len());
            t.split_whitespace().count()
        };
        let huge = "word ".repeat(4_000_000);
        assert_eq!(over_limit(&huge, &count), Some((13_107, false)));
        assert_eq!(*counted.lock().unwrap(), vec![65_534]);
        counted.lock().unwrap().clear();
        let small = "word ".repeat(4_000);
        assert_eq!(over_limit(&small, &count), None);
        let just_over = "word ".repeat(5_001);
        assert_eq!(over_limit(&just_over, &count), Some((5_001, true)));
        assert_eq!(prefix("abcdefghi jk", 11), "abcdefghi");
        assert_eq!(
            prefix("ab cd", 4),
            "ab c",
            "no white space near the end: cut there"
        );
        assert_eq!(prefix("ééé", 3), "é");
    }

    #[test]
    fn a_line_of_hostile_link_syntax_is_read_in_one_pass() {
        let line = "](".repeat(200_000);
        assert!(local_links(&line).is_empty());
        let links = "[a](x.md)".repeat(50_000);
        let got = local_links(&links);
        assert_eq!(got.len(), 50_000);
        assert_eq!(got[49_999].column, 49_999 * 9 + 5);
    }

    #[test]
    fn a_body_of_many_broken_links_gets_a_bounded_report() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("s");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("ok.md"), "# ok\n").unwrap();
        let links: String = (0..5_000)
            .map(|i| format!("[a](gone-{i}.md) [b](ok.md) "))
            .collect();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: s\ndescription: d\n---\n{links}\n"),
        )
        .unwrap();
        let lib = crate::core::Library::load(
            vec![crate::core::Root::new(
                &dir,
                crate::core::Agent::Path,
                crate::core::Scope::Path,
            )],
            &crate::core::scan::ScanOptions::default(),
        );
        let d = check(&lib.skills[0], Profile::Spec, None);
        let broken: Vec<_> = d.iter().filter(|d| d.rule == "body-broken-link").collect();
        assert_eq!(broken.len(), MAX_BROKEN + 1);
        assert!(broken[0].message.contains("gone-0.md"));
        assert_eq!(broken[MAX_BROKEN].severity, Severity::Info);
        assert!(broken[MAX_BROKEN].message.contains("were not checked"));
    }

    #[test]
    fn finds_local_links_only() {
        let text = "See [a](references/a.md) and [web](https://x.io) and [top](#top).\n```\n[no](code.md)\n```\n`[no](span.md)` [b](<b c.md> \"t\") [d](d.md#sec)\n";
        let got: Vec<_> = local_links(text)
            .into_iter()
            .map(|l| (l.target, l.line, l.column))
            .collect();
        assert_eq!(
            got,
            vec![
                ("references/a.md".to_string(), 1, 9),
                ("b c.md".to_string(), 5, 21),
                ("d.md".to_string(), 5, 39)
            ]
        );
    }
}
