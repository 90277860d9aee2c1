//! The detail pane of the selected skill: frontmatter, diagnostics, resources, costs and the
//! body with line numbers. Only the lines on screen are built, so a long body costs nothing.
//! What it needs beyond the scan is read on demand for the selected skill only: its body and
//! its resources. Nothing of other skills is kept.

use crate::core::library::{self, ResourceGroup};
use crate::core::resource::Resource;
use crate::core::skill::Skill;
use crate::tui::wrapped::WrapCache;
use std::path::PathBuf;

/// Bodies larger than this are not previewed: reading them would stall the UI.
pub const MAX_PREVIEW_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct Detail {
    pub dir: PathBuf,
    /// The stat of SKILL.md when read, so an edit is noticed.
    pub stamp: crate::core::files::fsx::Stamp,
    pub body: Result<String, String>,
    pub body_lines: usize,
    /// The skill's files by Conjure's groups (scripts, references, assets, other), each group
    /// in path order: the order the pane shows them and the resource cursor counts them in.
    pub resources: Vec<Resource>,
    /// Where `skillscope add` took the skill from (its `skills.lock` entry), if it did.
    pub source: Option<crate::core::manage::manifest::Entry>,
    /// The body wrapped to the pane's width.
    pub wrap: WrapCache,
}

impl Detail {
    /// How wide the body's text is in a pane `width` columns wide, after its line numbers.
    pub(super) fn text_width(&self, skill: &Skill, width: usize) -> usize {
        width.saturating_sub(number_width(skill, self.body_lines) + 3)
    }

    /// How many screen rows the body takes in a pane `width` columns wide.
    pub fn body_rows(&self, skill: &Skill, width: usize) -> usize {
        match &self.body {
            Ok(b) => self.wrap.get(b, self.text_width(skill, width)).rows(),
            Err(_) => 0,
        }
    }
}

/// The width of the body's line numbers: those of the file, the body starting after the
/// frontmatter.
pub(super) fn number_width(skill: &Skill, body_lines: usize) -> usize {
    (u64::from(skill.body_line) + body_lines as u64)
        .to_string()
        .len()
}

impl Detail {
    pub fn load(skill: &Skill) -> Detail {
        let body = if skill.file_len() > MAX_PREVIEW_BYTES {
            Err(format!(
                "SKILL.md is {} — too large to preview here",
                human_bytes(skill.file_len())
            ))
        } else {
            library::read_body(skill).map_err(|e| e.to_string())
        };
        let body_lines = body.as_ref().map_or(0, |b| b.lines().count());
        let mut resources = skill.resources.clone();
        resources.sort_by_key(|r| ResourceGroup::of(&r.rel));
        Detail {
            dir: skill.dir.clone(),
            stamp: skill.stamp,
            body,
            body_lines,
            resources,
            source: crate::core::manage::manifest::lookup(&skill.dir),
            wrap: WrapCache::default(),
        }
    }

    pub fn is_for(&self, skill: &Skill) -> bool {
        self.dir == skill.dir && self.stamp == skill.stamp
    }
}

pub fn human_bytes(n: u64) -> String {
    const KIB: f64 = 1024.0;
    let f = n as f64;
    if f < KIB {
        format!("{n} B")
    } else if f < KIB * KIB {
        format!("{:.1} KiB", f / KIB)
    } else {
        format!("{:.1} MiB", f / KIB / KIB)
    }
}

/// A resource of a skill opened from the detail pane, read by its path inside the skill folder
/// (the same rule as `skillscope show`).
#[derive(Debug, Clone)]
pub struct ResourceView {
    /// The skill's folder, so a rescan that removes the skill can be noticed.
    pub dir: PathBuf,
    /// `id / rel`.
    pub title: String,
    /// The file, for the editor and the clipboard.
    pub path: PathBuf,
    pub text: Result<String, String>,
    pub lines: usize,
    /// Its tokens, when L3 is counted.
    pub tokens: Option<u32>,
    /// The first screen row shown (lines wrap).
    pub scroll: u16,
    /// The text wrapped to the viewer's width.
    pub wrap: WrapCache,
}

impl ResourceView {
    /// How wide the text is in a viewer `width` columns wide inside, after its line numbers.
    pub fn text_width(&self, width: usize) -> usize {
        width.saturating_sub(self.lines.max(1).to_string().len() + 3)
    }

    /// How many screen rows the text takes in a viewer `width` columns wide inside.
    pub fn rows(&self, width: usize) -> usize {
        match &self.text {
            Ok(t) => self.wrap.get(t, self.text_width(width)).rows(),
            Err(_) => 0,
        }
    }

    /// The line (1-based) at the top of the viewer.
    pub fn first_line(&self, width: usize) -> u32 {
        let line = match &self.text {
            Ok(t) => {
                self.wrap
                    .get(t, self.text_width(width))
                    .line_at(usize::from(self.scroll))
                    .0
            }
            Err(_) => 0,
        };
        u32::try_from(line + 1).unwrap_or(u32::MAX)
    }
}

impl ResourceView {
    pub fn open(skill: &Skill, rel: &str, tokens: Option<u32>) -> ResourceView {
        let text = crate::core::resource::read_inside(&skill.dir, rel, MAX_PREVIEW_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|t| {
                if t.contains('\0') {
                    Err(format!("`{rel}` is a binary file: only text is shown"))
                } else {
                    Ok(crate::core::words::escape::text(&t).into_owned())
                }
            });
        ResourceView {
            dir: skill.dir.clone(),
            title: format!("{} / {rel}", skill.id),
            path: skill.dir.join(rel),
            lines: text.as_ref().map_or(0, |t| t.lines().count()),
            text,
            tokens,
            scroll: 0,
            wrap: WrapCache::default(),
        }
    }
}

/// Fields some agent or the spec defines; the rest are shown as extras.
pub const KNOWN_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "when_to_use",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "context",
    "agent",
    "hooks",
    "paths",
    "argument-hint",
    "version",
    "type",
    "auto_load",
    "dependencies",
    "triggers",
    "entry",
];
