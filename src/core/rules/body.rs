//! Body rules: length in lines and tokens, links to missing files, references nested too deep.

use super::Profile;
use crate::core::diagnostic::{Diagnostic, Severity};
use crate::core::library::read_body;
use crate::core::skill::Skill;
use std::path::{Path, PathBuf};

pub const MAX_LINES: usize = 500;
pub const MAX_TOKENS: usize = 5_000;

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
                "body-unreadable",
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
                "body-too-long",
                Severity::Warning,
                format!(
                    "the body is {lines} lines: keep SKILL.md under {MAX_LINES} lines and move detail into reference files"
                ),
            )
            .at(skill.body_line, 1),
        );
    } else if let Some(count) = count_tokens {
        // A token is at least one byte, so short bodies cannot be over the limit.
        if body.len() > MAX_TOKENS {
            let n = count(&body);
            if n > MAX_TOKENS {
                out.push(
                    Diagnostic::new(
                        "body-too-long",
                        Severity::Warning,
                        format!(
                            "the body is {n} tokens: keep it under {MAX_TOKENS} and move detail into reference files"
                        ),
                    )
                    .at(skill.body_line, 1),
                );
            }
        }
    }
    for link in local_links(&body) {
        let target = skill.dir.join(&link.target);
        if !target.exists() {
            out.push(
                Diagnostic::new(
                    "body-broken-link",
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
                        "body-nested-reference",
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
    }
    out
}

fn is_markdown(p: &Path) -> bool {
    p.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"))
}

/// The first local markdown file that a reference file links to, if any.
fn nested_reference(skill_dir: &Path, reference: &Path) -> Option<PathBuf> {
    let text = crate::core::library::read_text(reference).ok()?;
    let base = reference.parent()?;
    local_links(&text).into_iter().find_map(|l| {
        let p = base.join(&l.target);
        (is_markdown(&p) && p.is_file() && p != reference).then(|| {
            p.strip_prefix(skill_dir)
                .map(Path::to_path_buf)
                .unwrap_or(p)
        })
    })
}

#[derive(Debug, PartialEq, Eq)]
pub struct Link {
    pub target: String,
    /// 1-based line and column within the text given.
    pub line: u32,
    pub column: u32,
}

/// Inline markdown links `[text](target)` to local files, outside code blocks and code spans.
pub fn local_links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
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
        let mut j = 0;
        while j < bytes.len() {
            match bytes[j] {
                b'`' => in_code = !in_code,
                b']' if !in_code && bytes.get(j + 1) == Some(&b'(') => {
                    if let Some(end) = line[j + 2..].find(')') {
                        let raw = &line[j + 2..j + 2 + end];
                        if let Some(target) = clean_target(raw) {
                            out.push(Link {
                                target,
                                line: i as u32 + 1,
                                column: line[..j + 2].chars().count() as u32 + 1,
                            });
                        }
                        j += 2 + end;
                    }
                }
                _ => {}
            }
            j += 1;
        }
    }
    out
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
