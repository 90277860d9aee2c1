//! The state of the Checks screen: which executable skills there are, what their probes said,
//! and the run in progress.

use crate::core::probe::ProbeReport;
use crate::core::probe::dependencies::DepsReport;
use crate::core::{Library, SkillKind};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Debug, Default)]
pub struct Checks {
    /// Library indices of the executable skills, by name.
    pub rows: Vec<usize>,
    pub selected: usize,
    /// The latest report per skill folder; kept across rescans.
    pub reports: HashMap<PathBuf, ProbeReport>,
    /// The latest dependency check per skill folder; kept across rescans.
    pub deps: HashMap<PathBuf, DepsReport>,
    pub run: Option<Run>,
}

/// A probe run in progress.
#[derive(Debug)]
pub struct Run {
    pub total: usize,
    pub done: usize,
    pub cancel: Arc<AtomicBool>,
    /// The run checks declared dependencies rather than `--help-json`.
    pub deps: bool,
}

impl Checks {
    pub fn refresh(&mut self, lib: &Library) {
        let keep = self
            .rows
            .get(self.selected)
            .and_then(|i| lib.skills.get(*i))
            .map(|s| s.dir.clone());
        let mut rows: Vec<usize> = lib
            .skills
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.kind() == SkillKind::Executable
                    || s.frontmatter.get("dependencies").is_some()
                    || self.deps.contains_key(&s.dir)
            })
            .map(|(i, _)| i)
            .collect();
        rows.sort_by(|a, b| {
            (&lib.skills[*a].name, &lib.skills[*a].dir)
                .cmp(&(&lib.skills[*b].name, &lib.skills[*b].dir))
        });
        self.rows = rows;
        self.selected = keep
            .and_then(|d| self.rows.iter().position(|i| lib.skills[*i].dir == d))
            .unwrap_or(0);
    }

    pub fn running(&self) -> bool {
        self.run.is_some()
    }

    pub fn cancel(&self) {
        if let Some(r) = &self.run {
            r.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Adds a skill whose dependencies were checked to the rows (a `requirements.txt` is only
    /// found by the check), keeping the order by name.
    pub fn add_row(&mut self, lib: &Library, skill: usize) {
        if self.rows.contains(&skill) || skill >= lib.skills.len() {
            return;
        }
        let keep = self.rows.get(self.selected).copied();
        self.rows.push(skill);
        self.rows.sort_by(|a, b| {
            (&lib.skills[*a].name, &lib.skills[*a].dir)
                .cmp(&(&lib.skills[*b].name, &lib.skills[*b].dir))
        });
        if let Some(k) = keep.and_then(|k| self.rows.iter().position(|r| *r == k)) {
            self.selected = k;
        }
    }

    pub fn deps_for(&self, lib: &Library, skill: usize) -> Option<&DepsReport> {
        lib.skills.get(skill).and_then(|s| self.deps.get(&s.dir))
    }

    pub fn report_for(&self, lib: &Library, skill: usize) -> Option<&ProbeReport> {
        lib.skills.get(skill).and_then(|s| self.reports.get(&s.dir))
    }

    pub fn move_by(&mut self, delta: isize) {
        let last = self.rows.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }
}
