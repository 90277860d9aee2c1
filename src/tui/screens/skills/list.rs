//! The skills list as shown: which skills pass the filter, in which order, which one is
//! selected and which window of rows is on screen (a ratatui `TableState`).

use crate::core::Library;
use crate::core::findings::diagnostic::Counts;
use crate::core::matching::fuzzy::NameFilter;
use crate::core::tokens::SkillTokens;
use crate::core::words::namespace;
use crate::tui::screens::screen;
use ratatui::widgets::TableState;
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

/// One listed row: the skill's index in the library and its filter score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub skill: usize,
    pub score: i64,
}

#[derive(Debug, Default)]
pub struct SkillList {
    pub rows: Vec<Row>,
    /// The selected row and the first row on screen.
    pub table: TableState,
    pub filter: String,
    pub sort: Sort,
    /// The sort order turned around (`S`): cheapest first, fewest diagnostics first, z to a.
    pub reversed: bool,
    /// The longest id among the rows, in characters: the name column's natural width.
    pub longest_id: usize,
    /// The last filter and the skills it matched: a longer filter can only match fewer, so
    /// typing narrows this set instead of matching the whole library again.
    narrowed: Option<(String, Vec<usize>)>,
}

impl SkillList {
    /// Recomputes rows after the filter, the sort, the library or the costs changed. The
    /// selection stays on the same skill folder when it is still listed.
    pub fn refresh(&mut self, lib: &Library, costs: &[SkillTokens], diags: &[Counts]) {
        let keep = self.selected_dir(lib);
        let matcher = NameFilter::new();
        let pattern = self.filter.trim().to_string();
        let mut rows: Vec<Row> = if namespace::is_glob(&pattern) {
            // `web.*` selects a namespace: the whole id must match.
            self.narrowed = None;
            (0..lib.skills.len())
                .filter(|&i| namespace::glob(&pattern, &lib.skills[i].id))
                .map(|skill| Row { skill, score: 0 })
                .collect()
        } else if pattern.is_empty() {
            self.narrowed = None;
            (0..lib.skills.len())
                .map(|skill| Row { skill, score: 0 })
                .collect()
        } else {
            let candidates: Vec<usize> = match self.narrowed.take() {
                Some((prev, matched)) if pattern.starts_with(&prev) => matched,
                _ => (0..lib.skills.len()).collect(),
            };
            let rows: Vec<Row> = candidates
                .into_iter()
                .filter_map(|skill| {
                    let name = &lib.skills.get(skill)?.id;
                    matcher
                        .rank(name, &pattern)
                        .map(|score| Row { skill, score })
                })
                .collect();
            self.narrowed = Some((pattern.clone(), rows.iter().map(|r| r.skill).collect()));
            rows
        };
        // Skills of one namespace stay together, the top of the roots first.
        let name = |r: &Row| {
            let s = &lib.skills[r.skill];
            (s.namespace.as_str(), s.name.as_str())
        };
        let dir = |r: &Row| lib.skills[r.skill].dir.as_path();
        let total = |r: &Row| costs.get(r.skill).map_or(0, SkillTokens::known_total);
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
            let order = by_key
                .then_with(|| name(a).cmp(&name(b)))
                .then_with(|| dir(a).cmp(dir(b)));
            by_score.then(if self.reversed {
                order.reverse()
            } else {
                order
            })
        });
        self.longest_id = rows
            .iter()
            .map(|r| {
                crate::core::words::text::line(&lib.skills[r.skill].id)
                    .chars()
                    .count()
            })
            .max()
            .unwrap_or(0);
        self.rows = rows;
        self.select_dir(lib, keep.as_deref());
    }

    /// Forgets what the last filter matched (the library changed).
    pub fn invalidate(&mut self) {
        self.narrowed = None;
    }

    /// The selected row.
    pub fn selected(&self) -> usize {
        self.table.selected().unwrap_or(0)
    }

    /// The first row on screen.
    pub fn offset(&self) -> usize {
        self.table.offset()
    }

    pub fn selected_skill(&self) -> Option<usize> {
        self.rows.get(self.selected()).map(|r| r.skill)
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
        let row = found.unwrap_or(self.selected().min(self.rows.len().saturating_sub(1)));
        self.table.select(Some(row));
    }

    pub fn move_by(&mut self, delta: isize) {
        screen::move_selection(&mut self.table, self.rows.len(), delta);
    }

    pub fn select(&mut self, row: usize) {
        self.table
            .select(Some(row.min(self.rows.len().saturating_sub(1))));
    }

    /// Scrolls so the selection is on screen, keeping a row of context above and below when
    /// there is room.
    pub fn scroll_into_view(&mut self, height: usize) {
        screen::reveal(&mut self.table, self.rows.len(), height, margin(height));
    }

    /// Scrolls the window without moving the selection off screen (mouse wheel); the selection
    /// keeps the same context margin as [`SkillList::scroll_into_view`], so the two agree.
    pub fn scroll_by(&mut self, delta: isize, height: usize) {
        let max_offset = self.rows.len().saturating_sub(height);
        let offset = self.offset().saturating_add_signed(delta).min(max_offset);
        *self.table.offset_mut() = offset;
        let margin = margin(height);
        let last = self.rows.len().saturating_sub(1);
        let low = if offset == 0 { 0 } else { offset + margin };
        let high = if offset == max_offset {
            last
        } else {
            (offset + height).saturating_sub(1 + margin)
        };
        self.select(self.selected().clamp(low.min(high), high).min(last));
    }
}

/// Rows of context kept above and below the selection in a window `height` rows high.
fn margin(height: usize) -> usize {
    usize::from(height > 4)
}

/// The positions (in chars) of the characters of `name` that `pattern` matched, for
/// highlighting the rows on screen.
pub fn hits(name: &str, pattern: &str) -> Vec<usize> {
    let pattern = pattern.trim();
    if pattern.is_empty() || namespace::is_glob(pattern) {
        return Vec::new();
    }
    NameFilter::new()
        .score(name, pattern)
        .map(|m| m.indices)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};

    #[test]
    fn typing_narrows_and_erasing_widens_the_filter() {
        let t = tempfile::tempdir().unwrap();
        for n in ["pdf-tools", "pdf-forms", "docx", "spreadsheet"] {
            let d = t.path().join(n);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(
                d.join("SKILL.md"),
                format!("---\nname: {n}\ndescription: d\n---\n"),
            )
            .unwrap();
        }
        let lib = Library::load(
            vec![Root::new(t.path(), Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        let mut list = SkillList::default();
        let names = |l: &SkillList| -> Vec<String> {
            let mut v: Vec<String> = l
                .rows
                .iter()
                .map(|r| lib.skills[r.skill].name.clone())
                .collect();
            v.sort();
            v
        };
        for (filter, want) in [
            ("p", vec!["pdf-forms", "pdf-tools", "spreadsheet"]),
            ("pdf", vec!["pdf-forms", "pdf-tools"]),
            ("pdft", vec!["pdf-tools"]),
            ("pd", vec!["pdf-forms", "pdf-tools", "spreadsheet"]),
            ("PDF", vec![]),
            ("", vec!["docx", "pdf-forms", "pdf-tools", "spreadsheet"]),
        ] {
            list.filter = filter.to_string();
            list.refresh(&lib, &[], &[]);
            assert_eq!(names(&list), want, "filter {filter:?}");
        }
        assert_eq!(hits("pdf-tools", "ptl"), vec![0, 4, 7]);
    }

    #[test]
    fn the_wheel_and_the_keys_agree_on_the_window() {
        for len in [0, 1, 3, 10, 50] {
            for height in [1, 3, 5, 10, 20] {
                for start in (0..len.max(1)).step_by(3) {
                    for delta in [-7, -3, 3, 7] {
                        let mut l = SkillList {
                            rows: (0..len).map(|skill| Row { skill, score: 0 }).collect(),
                            ..SkillList::default()
                        };
                        l.select(start);
                        l.scroll_into_view(height);
                        l.scroll_by(delta, height);
                        let wheel = l.offset();
                        // What the app does after every move: the wheel's window stays.
                        l.scroll_into_view(height);
                        let at = format!("len {len} height {height} start {start} by {delta}");
                        assert_eq!(l.offset(), wheel, "{at}");
                        assert!(
                            l.offset() <= l.selected() && l.selected() < l.offset() + height,
                            "{at}"
                        );
                    }
                }
            }
        }
    }
}
