//! Reading one skill: its file's head, its frontmatter, or its record restored from the index.

use super::{
    options::{Found, HEAD_BYTES, HEAD_CAP},
    resources::{Listing, Wanted, resources},
};
use crate::core::files::fsx::Stamp;
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::frontmatter;
use crate::core::index::SkillRecord;
use crate::core::skill::{KindSource, Skill, SkillKind};
use crate::core::source::Root;
use std::io::Read;
use std::path::Path;

/// Diagnostics about the folder's skill files (their names, duplicates) rather than one file's
/// contents: made again on every scan, never taken from the index.
/// A link's destination is judged again too (`core::layout`).
pub(super) const FOLDER_RULES: [RuleId; 3] = [
    RuleId::SkillFileName,
    RuleId::SkillFileDuplicate,
    RuleId::LinkLeavesLibrary,
];

/// A skill whose file kept its stat, as the index remembered it: its frontmatter, findings,
/// body facts and counts.
pub(super) fn restore(skill: &mut Skill, r: SkillRecord, stamp: Stamp) {
    skill.stamp = stamp;
    skill.frontmatter = r.frontmatter;
    skill.parse_diagnostics = r.parse_diagnostics;
    skill
        .parse_diagnostics
        .retain(|d| !FOLDER_RULES.contains(&d.rule));
    skill.body_line = r.body_line;
    skill.body_offset = r.body_offset;
    if let Some(b) = r.body {
        let _ = skill.facts.body.set(b);
    }
    for (slot, n) in skill.facts.body_tokens.iter().zip(r.body_tokens) {
        if let Some(n) = n {
            let _ = slot.set(n);
        }
    }
    *skill
        .facts
        .l1_tokens
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = r.l1_tokens;
    *skill
        .facts
        .rules_unread
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(r.rules);
    for (slot, n) in skill.facts.l2_tokens.iter().zip(r.l2_tokens) {
        if let Some(n) = n {
            let _ = slot.set(n);
        }
    }
    skill.facts.readings.fill_from(r.readings);
}

/// Reads one skill (or takes it from its index record when its skill file kept its stat), with its
/// resources stat'ed afresh. The flag says whether the skill file was read and parsed.
pub(super) fn read_skill(
    f: &Found,
    roots: &[Root],
    root_dir: &crate::core::files::fsx::Dir,
    manifests: &crate::core::words::namespace::Manifests,
    record: Option<Box<SkillRecord>>,
    listing: Listing,
    want: Wanted,
) -> (Skill, bool) {
    let root = &roots[f.root];
    let mut skill = Skill::new(root, f.dir.clone(), f.file.clone());
    let mut record = record.filter(|r| r.file.as_os_str() == f.file.as_os_str());
    let remembered = record.as_mut().map(|r| std::mem::take(&mut r.resources));
    // The skill file and the resources are stat'ed from the root, held open: the kernel walks only
    // the path below it, and no folder is opened per skill.
    let dir = super::relative::within(root_dir, &root.path, &f.dir);
    let meta = match super::relative::below(&f.file, &f.dir) {
        Some(rel) if !rel.as_os_str().is_empty() => dir.stat(rel),
        _ => crate::core::files::fsx::stat_path(&f.file).map(|(st, regular)| regular.then_some(st)),
    };
    // A pipe, socket or device is never opened (opening some devices acts on them); a file that
    // cannot be stat'ed is tried, so that the error says why.
    let regular = meta.as_ref().map_or(true, Option::is_some);
    let fresh = meta.ok().flatten();
    let reuse = match (&fresh, record) {
        (Some(stamp), Some(r)) if r.stamp.vouches_for(stamp) => Some((r, *stamp)),
        _ => None,
    };
    let parsed = reuse.is_none();
    match reuse {
        Some((r, stamp)) => restore(&mut skill, *r, stamp),
        None => match if regular {
            read_head(&f.file)
        } else {
            Err(crate::core::files::fsx::not_regular())
        } {
            Ok((head, stamp, complete)) => {
                skill.stamp = stamp;
                let parsed = frontmatter::parse(&head, complete);
                skill.frontmatter = parsed.frontmatter;
                skill.parse_diagnostics = parsed.diagnostics;
                skill.body_line = parsed.layout.body_line;
                skill.body_offset = parsed.layout.body_offset as u64;
            }
            Err(e) if crate::core::files::fsx::is_not_regular(&e) => skill.parse_diagnostics.push(
                Diagnostic::new(
                    RuleId::SkillFileNotRegular,
                    Severity::Error,
                    "this SKILL.md is not a regular file (a pipe, socket, device or folder): it was not opened; replace it with a text file",
                ),
            ),
            Err(e) => skill.parse_diagnostics.push(
                Diagnostic::new(
                    RuleId::FileUnreadable,
                    Severity::Error,
                    format!("cannot read SKILL.md: {e}; check its permissions"),
                )
                .at(1, 1),
            ),
        },
    }
    let file_name = f.file.file_name().map(|n| n.to_string_lossy().into_owned());
    if let Some(n) = file_name.filter(|n| n != "SKILL.md" && n != "skill.md") {
        skill.parse_diagnostics.push(Diagnostic::new(
            RuleId::SkillFileName,
            Severity::Error,
            format!(
                "the file is named `{n}`: agents look for `SKILL.md` on case-sensitive file systems; rename it"
            ),
        ));
    }
    for other in &f.others {
        skill.parse_diagnostics.push(Diagnostic::new(
            RuleId::SkillFileDuplicate,
            Severity::Warning,
            format!(
                "the folder also holds {}: agents read only {}; remove one",
                other.file_name().unwrap_or_default().to_string_lossy(),
                f.file.file_name().unwrap_or_default().to_string_lossy()
            ),
        ));
    }
    skill.name = skill
        .frontmatter
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| skill.dir_name().into_owned(), str::to_string);
    skill.resources = resources(f, &dir, remembered, listing, want);
    // Without `type:` or `entry:`, the default entry script makes a skill executable. Taken from
    // the resources as this load found them (stat'ed, or named by a walk the index vouches for;
    // a record keeps only what the skill file says), so adding or removing the script counts
    // even when the skill file kept its stat. A link named so that
    // leads out of the folder is not a resource, and not an entry script either.
    // The Lazy Skills agent reads `type` alone (`metadata.get("type", "contextual")`): its
    // skills stay contextual, and the rules say why the script is not used.
    if skill.frontmatter.kind_source == KindSource::Default
        && !root.agent.kind_from_type_alone()
        && skill
            .resources
            .iter()
            .any(|r| r.rel == crate::core::skill::DEFAULT_ENTRY)
    {
        skill.frontmatter.kind = SkillKind::Executable;
        skill.frontmatter.kind_source = KindSource::EntryScript;
    }
    let placed =
        crate::core::words::namespace::place_in(&root.path, &skill.dir, &skill.name, manifests);
    skill.id = placed.id;
    skill.namespace = placed.namespace;
    skill.plugin = placed.plugin;
    (skill, parsed)
}

/// Reads a SKILL.md's first bytes: through the frontmatter's end when there is one, at most
/// `HEAD_CAP`. Returns the bytes, the file's stamp (taken before the read) and whether the bytes
/// are the whole file. Only a regular file is read, and opening never blocks.
pub fn read_head(path: &Path) -> std::io::Result<(Vec<u8>, Stamp, bool)> {
    let (mut file, meta) = crate::core::files::fsx::open_regular(path)?;
    let stamp = Stamp::of(&meta);
    let len = stamp.len;
    let mut buf = Vec::with_capacity((len as usize).min(HEAD_BYTES));
    let mut want = HEAD_BYTES;
    loop {
        let got = (&mut file)
            .take((want - buf.len()) as u64)
            .read_to_end(&mut buf)?;
        let complete = buf.len() as u64 >= len || got == 0;
        // A read may stop inside a line (`----x` cut after `---`): judge only whole lines.
        let whole = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if complete || frontmatter::frontmatter_end(&buf[..whole]).is_some() || want >= HEAD_CAP {
            return Ok((buf, stamp, complete));
        }
        want = (want * 4).min(HEAD_CAP);
    }
}
