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
