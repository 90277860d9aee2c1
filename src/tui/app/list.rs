//! The skills list as shown: which skills pass the filter, in which order, which one is
//! selected and which window of rows is on screen.

use crate::core::Library;
use crate::core::diagnostic::Counts;
use crate::tui::app::Costs;
use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    #[default]
    Name,
    /// Most tokens first (L1 + L2 + L3 as far as known).
    Cost,
    Agent,
    /// Most errors, then most warnings, first.
    Diagnostics,
}

impl Sort {
    pub fn next(self) -> Sort {
        match self {
            Sort::Name => Sort::Cost,
            Sort::Cost => Sort::Agent,
            Sort::Agent => Sort::Diagnostics,
            Sort::Diagnostics => Sort::Name,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Sort::Name => "name",
            Sort::Cost => "cost",
            Sort::Agent => "agent",
            Sort::Diagnostics => "diagnostics",
        }
    }
}

/// One visible row: the skill's index in the library and, under a filter, the positions (in
/// chars) of the name's matched characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub skill: usize,
    pub score: i64,
    pub hits: Vec<usize>,
}

#[derive(Debug, Default)]
pub struct SkillList {
    pub rows: Vec<Row>,
    pub selected: usize,
    /// First row on screen.
    pub offset: usize,
    pub filter: String,
    pub sort: Sort,
}

impl SkillList {
    /// Recomputes rows after the filter, the sort, the library or the costs changed. The
    /// selection stays on the same skill folder when it is still listed.
    pub fn refresh(&mut self, lib: &Library, costs: &[Costs], diags: &[Counts]) {
        let keep = self.selected_dir(lib);
        let matcher = SkimMatcherV2::default();
        let pattern = self.filter.trim();
        let mut rows: Vec<Row> = if pattern.is_empty() {
            (0..lib.skills.len())
                .map(|skill| Row {
                    skill,
                    score: 0,
                    hits: Vec::new(),
                })
                .collect()
        } else {
            lib.skills
                .iter()
                .enumerate()
                .filter_map(|(skill, s)| {
                    matcher
                        .fuzzy_indices(&s.name, pattern)
                        .map(|(score, hits)| Row { skill, score, hits })
                })
                .collect()
        };
        let name = |r: &Row| lib.skills[r.skill].name.as_str();
        let dir = |r: &Row| lib.skills[r.skill].dir.as_path();
        let total = |r: &Row| costs.get(r.skill).map_or(0, Costs::known_total);
        rows.sort_by(|a, b| {
            // Under a filter the best match comes first; the sort key breaks ties.
            let by_score = b.score.cmp(&a.score);
            let by_key = match self.sort {
                Sort::Name => std::cmp::Ordering::Equal,
                Sort::Cost => total(b).cmp(&total(a)),
                Sort::Agent => {
                    let (sa, sb) = (&lib.skills[a.skill], &lib.skills[b.skill]);
                    (sa.agent, sa.scope).cmp(&(sb.agent, sb.scope))
                }
                Sort::Diagnostics => {
                    let da = diags.get(a.skill).copied().unwrap_or_default();
                    let db = diags.get(b.skill).copied().unwrap_or_default();
                    (db.errors, db.warnings).cmp(&(da.errors, da.warnings))
                }
            };
            by_score
                .then(by_key)
                .then_with(|| name(a).cmp(name(b)))
                .then_with(|| dir(a).cmp(dir(b)))
        });
        self.rows = rows;
        self.select_dir(lib, keep.as_deref());
    }

    pub fn selected_skill(&self) -> Option<usize> {
        self.rows.get(self.selected).map(|r| r.skill)
    }

    pub fn selected_dir(&self, lib: &Library) -> Option<PathBuf> {
        self.selected_skill()
            .and_then(|i| lib.skills.get(i))
            .map(|s| s.dir.clone())
    }

    /// Selects the row of the skill in `dir`, or keeps the row number within bounds.
    pub fn select_dir(&mut self, lib: &Library, dir: Option<&std::path::Path>) {
        let found = dir.and_then(|d| {
            self.rows
                .iter()
                .position(|r| lib.skills.get(r.skill).is_some_and(|s| s.dir == d))
        });
        self.selected = found.unwrap_or(self.selected.min(self.rows.len().saturating_sub(1)));
    }

    pub fn move_by(&mut self, delta: isize) {
        if self.rows.is_empty() {
            self.selected = 0;
            return;
        }
        let last = self.rows.len() - 1;
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }

    pub fn select(&mut self, row: usize) {
        self.selected = row.min(self.rows.len().saturating_sub(1));
    }

    /// Scrolls so the selection is on screen, keeping a row of context above and below when
    /// there is room.
    pub fn scroll_into_view(&mut self, height: usize) {
        if height == 0 {
            return;
        }
        let margin = if height > 4 { 1 } else { 0 };
        if self.selected < self.offset + margin {
            self.offset = self.selected.saturating_sub(margin);
        } else if self.selected + margin >= self.offset + height {
            self.offset = (self.selected + margin + 1).saturating_sub(height);
        }
        let max_offset = self.rows.len().saturating_sub(height);
        self.offset = self.offset.min(max_offset);
    }

    /// Scrolls the window without moving the selection off screen (mouse wheel).
    pub fn scroll_by(&mut self, delta: isize, height: usize) {
        let max_offset = self.rows.len().saturating_sub(height);
        self.offset = self.offset.saturating_add_signed(delta).min(max_offset);
        if self.selected < self.offset {
            self.selected = self.offset;
        } else if height > 0 && self.selected >= self.offset + height {
            self.selected = self.offset + height - 1;
        }
    }
}
