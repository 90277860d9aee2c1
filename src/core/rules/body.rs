//! Body rules: length in lines and tokens, links to missing files, references nested too deep.
//! What they need from a body (its length, its links, its token count) and from a reference (its
//! links) is read once and kept with the skill, and in the library index while the files keep
//! their stat: an unchanged skill is checked without reading its body again.

use super::Profile;
use crate::core::files::fsx::Stamp;
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::library::read_body_up_to;
use crate::core::resource::Resource;
use crate::core::skill::{BodyFacts, Link, Skill};
use crate::core::tokens::{self, Encoding, TokenCache};
use crate::core::words::text::thousands;
use rustc_hash::FxHashMap;
use std::path::{Component, Path, PathBuf};

pub const MAX_LINES: usize = 500;
pub const MAX_TOKENS: usize = 5_000;
/// The most bytes of a body read to tell whether it is over [`MAX_TOKENS`]: far more than that
/// many tokens of any text.
const COUNTED_BYTES: u64 = 4 << 20;
/// Broken links reported at most per body.
const MAX_BROKEN: usize = 100;

/// The body findings of one skill, and whether anything was learned that the index should keep.
/// With `tokens`, a body of fewer than [`MAX_LINES`] lines is also held to [`MAX_TOKENS`] tokens
/// (counted no further than that).
pub fn check(
    skill: &Skill,
    _profile: Profile,
    tokens: Option<(Encoding, &TokenCache)>,
) -> (Vec<Diagnostic>, bool) {
    let mut out = Vec::new();
    if !skill.frontmatter.parsed {
        return (out, false);
    }
    let (facts, mut learned) = match facts_of(skill) {
        Ok(f) => f,
        Err(d) => return (vec![d], false),
    };
    match too_long(skill, facts, tokens) {
        Ok((found, new)) => {
            learned |= new;
            out.extend(found);
        }
        Err(d) => {
            out.push(d);
            return (out, learned);
        }
    }
    learned |= links(skill, facts, &mut out);
    (out, learned)
}

/// The error of a body that cannot be read.
fn unreadable(e: crate::core::library::LibraryError) -> Diagnostic {
    Diagnostic::new(
        RuleId::BodyUnreadable,
        Severity::Error,
        format!("{e}; check the file's permissions"),
    )
}

/// The body's facts (lines, bytes, links), read once and kept; `true` when read now.
fn facts_of(skill: &Skill) -> Result<(&BodyFacts, bool), Diagnostic> {
    if let Some(f) = skill.facts.body.get() {
        return Ok((f, false));
    }
    let facts = file_facts(&skill.skill_md, skill.body_offset).map_err(|source| {
        unreadable(crate::core::library::LibraryError::Read {
            path: skill.skill_md.clone(),
            source,
        })
    })?;
    Ok((skill.facts.body.get_or_init(|| facts), true))
}

/// `body-too-long`: over [`MAX_LINES`] lines, or (with `tokens`) over [`MAX_TOKENS`] tokens;
/// and whether a count was learned. `Err`: the body could not be read to count it.
fn too_long(
    skill: &Skill,
    facts: &BodyFacts,
    tokens: Option<(Encoding, &TokenCache)>,
) -> Result<(Option<Diagnostic>, bool), Diagnostic> {
    let lines = facts.lines as usize;
    if lines > MAX_LINES {
        return Ok((
            Some(
                Diagnostic::new(
                    RuleId::BodyTooLong,
                    Severity::Warning,
                    format!(
                        "the body is {} lines: keep SKILL.md under {MAX_LINES} lines and move detail into reference files",
                        thousands(lines as u64)
                    ),
                )
                .at(skill.body_line, 1),
            ),
            false,
        ));
    }
    // A token is at least one byte, so short bodies cannot be over the limit.
    let Some((enc, cache)) = tokens.filter(|_| facts.bytes > MAX_TOKENS as u64) else {
        return Ok((None, false));
    };
    let slot = &skill.facts.body_tokens[enc.slot()];
    let (n, learned) = if let Some(n) = slot.get() {
        (*n as usize, false)
    } else {
        // Counted no further than the limit: a body's first bytes tell, and a huge one is
        // not read whole.
        let text = read_body_up_to(skill, COUNTED_BYTES).map_err(unreadable)?;
        let n = tokens::count_text_up_to(&text, enc, cache, MAX_TOKENS);
        let n = *slot.get_or_init(|| u32::try_from(n).unwrap_or(u32::MAX)) as usize;
        (n, true)
    };
    let found = (n > MAX_TOKENS).then(|| {
        Diagnostic::new(
            RuleId::BodyTooLong,
            Severity::Warning,
            format!(
                "the body is over {} tokens: keep it under {} and move detail into reference files",
                thousands(MAX_TOKENS as u64),
                thousands(MAX_TOKENS as u64)
            ),
        )
        .at(skill.body_line, 1)
    });
    Ok((found, learned))
}

/// `body-broken-link` and `body-nested-reference` over the body's links; whether a nested
/// reference's facts were learned. A file linked many times is looked at once; a body of a
/// million links must not cost a million findings: at most `MAX_LINKS` links are checked and
/// `MAX_BROKEN` reported.
fn links(skill: &Skill, facts: &BodyFacts, out: &mut Vec<Diagnostic>) -> bool {
    let mut learned = false;
    // By the link's text (the same text is the same file below the same folder), hashed by Fx:
    // most bodies have a few links, and a map keyed by the joined path hashed every component.
    let mut nested: FxHashMap<&str, Option<PathBuf>> = FxHashMap::default();
    let mut looked: FxHashMap<&str, (bool, bool)> = FxHashMap::default();
    let mut broken = 0usize;
    for link in facts.links.iter().take(MAX_LINKS) {
        if broken >= MAX_BROKEN {
            break;
        }
        let target = skill.dir.join(&link.target);
        let resource = match plain_rel(&link.target) {
            Some(rel) => resource_named(skill, rel),
            None => resource_at(skill, &target),
        };
        let (exists, is_file) = match resource {
            Some(_) => (true, true),
            None => *looked.entry(link.target.as_str()).or_insert_with(|| {
                std::fs::metadata(&target).map_or((false, false), |m| (true, m.is_file()))
            }),
        };
        if !exists {
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
            && is_file
            && let Some(next) = nested.entry(link.target.as_str()).or_insert_with(|| {
                let (next, new) = nested_reference(skill, &target, resource);
                learned |= new;
                next
            })
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
    }
    if facts.links.len() > MAX_LINKS || broken >= MAX_BROKEN {
        let why = if broken >= MAX_BROKEN {
            format!("{MAX_BROKEN} broken links reported")
        } else {
            format!("{} links checked", thousands(MAX_LINKS as u64))
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
    learned
}

fn is_markdown(p: &Path) -> bool {
    p.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"))
}

/// A link's text that names a path below the folder as it is written: names joined by single
/// `/`s, none of them `.` or `..`, nothing a system reads as a root, a drive or another
/// separator. Such a text is the resource's `rel` itself ([`resource_at`] of the joined path
/// would build the same text from its components); `None` for every other text.
fn plain_rel(target: &str) -> Option<&str> {
    let plain = !target.is_empty()
        && !target.contains(['\\', ':'])
        && target
            .split('/')
            .all(|name| !name.is_empty() && name != "." && name != "..");
    plain.then_some(target)
}

/// The resource of `skill` whose path inside its folder is `rel`.
fn resource_named<'a>(skill: &'a Skill, rel: &str) -> Option<&'a Resource> {
    let i = skill
        .resources
        .binary_search_by(|r| r.rel.as_str().cmp(rel))
        .ok()?;
    skill.resources.get(i)
}

/// The resource of `skill` at `path`, when `path` names one inside its folder. A resource is a
/// regular file the scan stat'ed, so no further stat is needed to know it is there.
fn resource_at<'a>(skill: &'a Skill, path: &Path) -> Option<&'a Resource> {
    let rest = crate::core::files::paths::strip_prefix(path, &skill.dir)?;
    let mut rel = String::new();
    for c in rest.components() {
        match c {
            Component::CurDir => {}
            Component::Normal(n) => {
                if !rel.is_empty() {
                    rel.push('/');
                }
                rel.push_str(n.to_str()?);
            }
            // `..` may leave the folder through a link; such paths are stat'ed instead.
            _ => return None,
        }
    }
    resource_named(skill, &rel)
}

/// The first local markdown file that a reference file links to, if any, and whether the
/// reference's links were read now (and are new for the index).
fn nested_reference(
    skill: &Skill,
    reference: &Path,
    resource: Option<&Resource>,
) -> (Option<PathBuf>, bool) {
    let read_links = || {
        file_facts(reference, 0)
            .map(|f| f.links.into_iter().map(|l| l.target).collect())
            .unwrap_or_default()
    };
    let mut new = false;
    let owned: Vec<String>;
    // The links go in the index with the resource's stamp, so they are kept only when the file
    // has that stamp: one taken by name (not stat'ed by this load) is stat'ed first, and read
    // without keeping when it changed.
    let links: &[String] = match resource {
        Some(r) if r.fresh || still_stamped(r, reference) => r.links.get_or_init(|| {
            new = true;
            read_links()
        }),
        _ => {
            owned = read_links();
            &owned
        }
    };
    let Some(base) = reference.parent() else {
        return (None, new);
    };
    let next = links.iter().find_map(|l| {
        let p = base.join(l);
        let is_file = resource_at(skill, &p).is_some() || p.is_file();
        (is_markdown(&p) && is_file && p != reference).then(|| {
            p.strip_prefix(&skill.dir)
                .map(Path::to_path_buf)
                .unwrap_or(p)
        })
    });
    (next, new)
}

/// Whether the file at `path` still has the stamp `r` holds.
fn still_stamped(r: &Resource, path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| r.stamp().vouches_for(&Stamp::of(&m)))
}

/// The most links of one text that are looked at: past it a hostile file (millions of links on
/// one line) would cost a stat and a finding each.
pub const MAX_LINKS: usize = 10_000;

/// Inline markdown links `[text](target)` to local files, outside code blocks and code spans, at
/// most one past [`MAX_LINKS`] (so that a reader can tell that some were left out). Linear in
/// the text's length, however its links are laid out. Files are read by [`file_facts`], which
/// finds the same links piece by piece.
#[cfg(test)]
fn local_links(text: &str) -> Vec<Link> {
    let mut scan = LinkScanner::default();
    for (i, line) in text.lines().enumerate() {
        if !scan.line(i, line, 0, false) {
            break;
        }
    }
    scan.out
}

/// [`local_links`] fed one line (or one piece of a long line) at a time.
#[derive(Default)]
struct LinkScanner {
    /// The fence character (`` ` `` or `~`) of the code block the text is in.
    fence: Option<char>,
    out: Vec<Link>,
}

impl LinkScanner {
    /// Reads line `i` (0-based); `line` starts at character `first_col` of it, and `continued`
    /// says it is not the line's beginning. False once enough links were found.
    fn line(&mut self, i: usize, line: &str, first_col: usize, continued: bool) -> bool {
        if !continued {
            let t = line.trim_start();
            if let Some(f) = self.fence {
                if t.starts_with([f; 3]) {
                    self.fence = None;
                }
                return true;
            }
            if t.starts_with("```") || t.starts_with("~~~") {
                self.fence = t.chars().next();
                return true;
            }
        } else if self.fence.is_some() {
            return true;
        }
        let mut in_code = false;
        let bytes = line.as_bytes();
        // Characters before `counted`, so that columns cost one pass over the line in all.
        let (mut counted, mut chars) = (0usize, first_col);
        let mut j = 0;
        while j < bytes.len() {
            match bytes[j] {
                b'`' => in_code = !in_code,
                b']' if !in_code && bytes.get(j + 1) == Some(&b'(') => {
                    // No `)` in the rest of the line: no later `](` can close either.
                    let Some(end) = line[j + 2..].find(')') else {
                        break;
                    };
                    let raw = &line[j + 2..j + 2 + end];
                    if let Some(target) = clean_target(raw) {
                        chars += line[counted..j + 2].chars().count();
                        counted = j + 2;
                        self.out.push(Link {
                            target,
                            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                            column: u32::try_from(chars + 1).unwrap_or(u32::MAX),
                        });
                        if self.out.len() > MAX_LINKS {
                            return false;
                        }
                    }
                    j += 2 + end;
                }
                _ => {}
            }
            j += 1;
        }
        true
    }
}

/// A line longer than this is read in pieces of this size (a link across two pieces is not
/// seen): a one-line file of any size costs bounded memory.
const PIECE: usize = 1 << 20;

/// The facts of the file at `path` from byte `offset` on (its lines, bytes and local links, as
/// [`local_links`] finds them), read in pieces: memory stays bounded whatever the file's size.
pub(crate) fn file_facts(path: &Path, offset: u64) -> std::io::Result<BodyFacts> {
    use std::io::{BufRead, Seek};
    let (mut file, _) = crate::core::files::fsx::open_regular(path)?;
    file.seek(std::io::SeekFrom::Start(offset))?;
    let mut reader = std::io::BufReader::with_capacity(64 << 10, file);
    let mut facts = BodyFacts::default();
    let mut scan = LinkScanner::default();
    let mut more = true;
    let (mut line, mut lines, mut col) = (Vec::new(), 0usize, 0usize);
    let mut feed = |piece: &[u8], i: usize, col: &mut usize, facts: &mut BodyFacts| {
        let text = crate::core::files::paths::lossy_bytes(piece);
        facts.bytes += text.len() as u64;
        if more {
            more = scan.line(i, &text, *col, *col > 0);
        }
        *col += text.chars().count();
    };
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let (take, ended) = match memchr(buf) {
            Some(n) => (n + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..take]);
        reader.consume(take);
        if ended {
            let mut text = &line[..line.len() - 1];
            facts.bytes += 1;
            if let Some(t) = text.strip_suffix(b"\r") {
                text = t;
                facts.bytes += 1;
            }
            feed(text, lines, &mut col, &mut facts);
            lines += 1;
            col = 0;
            line.clear();
        } else if line.len() >= PIECE {
            // Cut at a character's start, so no character is split.
            let cut = (1..=PIECE)
                .rev()
                .find(|&k| line.get(k).is_none_or(|b| b & 0xC0 != 0x80))
                .unwrap_or(PIECE);
            feed(&line[..cut], lines, &mut col, &mut facts);
            line.drain(..cut);
        }
    }
    if !line.is_empty() {
        feed(&line, lines, &mut col, &mut facts);
        lines += 1;
    }
    facts.lines = u32::try_from(lines).unwrap_or(u32::MAX);
    facts.links = scan.out;
    Ok(facts)
}

/// The position of the first newline in `buf`.
fn memchr(buf: &[u8]) -> Option<usize> {
    buf.iter().position(|b| *b == b'\n')
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

    /// A link's plain text names the resource that the joined path names ([`resource_at`]), and
    /// every text it does not take as plain is left to [`resource_at`].
    #[test]
    fn a_plain_link_text_names_the_resource_its_joined_path_names() {
        use crate::core::source::{Agent, Root, Scope};
        let root = Root::new("/r", Agent::Path, Scope::Path);
        let mut skill = Skill::new(&root, "/r/s".into(), "/r/s/SKILL.md".into());
        let mut rels = [
            "a.md",
            "b c.md",
            "refs/guide.md",
            "refs/deep/x.md",
            "é/ü.md",
            "refs/..md",
            "...",
        ];
        rels.sort_unstable();
        skill.resources = rels
            .iter()
            .map(|r| Resource::new((*r).to_string(), Stamp::default(), true))
            .collect();
        // Every resource's own path, then texts that name one another way, or none.
        let targets = rels
            .iter()
            .copied()
            .chain([
                "missing.md",
                "refs",
                "./a.md",
                "refs/./guide.md",
                "refs//guide.md",
                "refs/../a.md",
                "../s/a.md",
                "/r/s/a.md",
                "a.md/",
                "",
                ".",
                "refs\\guide.md",
                "C:a.md",
            ])
            .collect::<Vec<&str>>();
        let mut plain = 0;
        for &t in &targets {
            let slow = resource_at(&skill, &skill.dir.join(t)).map(|r| r.rel.as_str());
            if let Some(rel) = plain_rel(t) {
                plain += 1;
                assert_eq!(rel, t);
                assert_eq!(
                    resource_named(&skill, rel).map(|r| r.rel.as_str()),
                    slow,
                    "{t}"
                );
            }
        }
        assert_eq!(plain, 9);
        assert_eq!(
            targets.iter().filter(|t| plain_rel(t).is_none()).count(),
            targets.len() - 9
        );
    }

    #[test]
    fn a_file_read_in_pieces_has_the_facts_of_its_whole_text() {
        let t = tempfile::tempdir().unwrap();
        let long = format!("{}[x](far.md) é", "y".repeat(PIECE + 10));
        let texts = [
            String::new(),
            "one line, no newline [a](a.md)".to_string(),
            "---\nname: x\n---\r\n[a](a.md)\r\n```\n[b](b.md)\n```\n`[c](c.md)` [d](d.md)\n\n"
                .to_string(),
            format!("head\n{long}\n[e](e.md)\n"),
            "bad \u{FFFD} bytes\n~~~\n[f](f.md)\n~~~\n[g](g.md)".to_string(),
        ];
        for (n, text) in texts.iter().enumerate() {
            let p = t.path().join(format!("{n}.md"));
            std::fs::write(&p, text).unwrap();
            let got = file_facts(&p, 0).unwrap();
            assert_eq!(got.lines as usize, text.lines().count(), "{n}");
            assert_eq!(got.bytes, text.len() as u64, "{n}");
            assert_eq!(got.links, local_links(text), "{n}");
        }
        // From an offset, as a body after its frontmatter.
        let p = t.path().join("2.md");
        let got = file_facts(&p, 12).unwrap();
        assert_eq!(got.links, local_links(&texts[2][12..]));
        // A line longer than a piece is read in pieces, with its columns kept.
        let p = t.path().join("3.md");
        let got = file_facts(&p, 0).unwrap();
        let far = got.links.iter().find(|l| l.target == "far.md").unwrap();
        assert_eq!(
            (far.line, far.column),
            (2, u32::try_from(PIECE + 15).unwrap())
        );
    }

    #[test]
    fn hostile_link_layouts_cost_linear_time_and_bounded_links() {
        // Millions of `](` with no `)`: each used to search the rest of the line.
        let opens = "[a](".repeat(2_000_000);
        assert!(local_links(&opens).is_empty());
        // Millions of links on one line: columns stay right, and the list stops at the cap.
        let many = "[a](x.md) ".repeat(1_000_000);
        let links = local_links(&many);
        assert_eq!(links.len(), MAX_LINKS + 1);
        assert_eq!((links[0].line, links[0].column), (1, 5));
        assert_eq!(links[3].column, 35);
        let wide = format!("é€ [a](b.md) {}[c](d.md)", "ü".repeat(7));
        let cols: Vec<u32> = local_links(&wide).iter().map(|l| l.column).collect();
        assert_eq!(cols, vec![8, 25]);
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
        let (d, _) = check(&lib.skills[0], Profile::Spec, None);
        let broken: Vec<_> = d
            .iter()
            .filter(|d| d.rule == RuleId::BodyBrokenLink)
            .collect();
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
