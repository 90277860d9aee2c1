//! What the detail pane needs beyond the scan, read on demand for the selected skill only:
//! its body and its resources. Nothing of other skills is kept.

use crate::core::Skill;
use crate::core::library::{self, Resource};
use std::path::PathBuf;

/// Bodies larger than this are not previewed: reading them would stall the UI.
pub const MAX_PREVIEW_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct Detail {
    pub dir: PathBuf,
    /// The mtime of SKILL.md when read, so an edit is noticed.
    pub mtime_ns: u128,
    pub body: Result<String, String>,
    pub body_lines: usize,
    pub resources: Vec<Resource>,
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
        Detail {
            dir: skill.dir.clone(),
            mtime_ns: skill.mtime_ns(),
            body,
            body_lines,
            resources: skill.resources.clone(),
        }
    }

    pub fn is_for(&self, skill: &Skill) -> bool {
        self.dir == skill.dir && self.mtime_ns == skill.mtime_ns()
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
    pub text: Result<String, String>,
    pub lines: usize,
    /// Its tokens, when L3 is counted.
    pub tokens: Option<u32>,
    pub scroll: u16,
}

impl ResourceView {
    pub fn open(skill: &Skill, rel: &str, tokens: Option<u32>) -> ResourceView {
        let text = crate::core::resource::read_inside(&skill.dir, rel, MAX_PREVIEW_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|t| {
                if t.contains('\0') {
                    Err(format!("`{rel}` is a binary file: only text is shown"))
                } else {
                    Ok(crate::core::resource::escape_controls(&t))
                }
            });
        ResourceView {
            dir: skill.dir.clone(),
            title: format!("{} / {rel}", skill.id),
            lines: text.as_ref().map_or(0, |t| t.lines().count()),
            text,
            tokens,
            scroll: 0,
        }
    }
}
