//! The skills table: toggle, name, agent/scope badge, costs per level and a diagnostics badge,
//! building only the rows on screen.

use super::{Mode, Skills, list};
use crate::core::Skill;
use crate::core::agents::view::Seen;
use crate::core::pricing::budget::badge;
use crate::core::source::Scope;
use crate::tui::state::view::View;
use crate::tui::view::parts::cost_in;
use crate::tui::view::{thousands, truncate};
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table};

/// The widest agent·scope badge (`opencode·project` is cut to it).
const BADGE_W: u16 = 12;
/// The agent·scope column gives way to the names down to this.
const BADGE_MIN: u16 = 6;
/// The most a name column takes while a description column fits beside it.
const NAME_MAX: u16 = 40;
/// A description column narrower than this is not worth showing.
const DESCRIPTION_MIN: u16 = 20;
const NUM_W: u16 = 6;
const DIAG_W: u16 = 7;

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, skills: &Skills) {
    let t = &view.theme;
    let lib = &view.lib;
    let block = frame_block(view, skills);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if lib.skills.is_empty() {
        empty(frame, inner, view);
        return;
    }
    // The rows under the column titles.
    let height = usize::from(inner.height.saturating_sub(1));
    // The agents column only when some skill sits in a folder an agent with switches reads.
    let agents_w = if view.switches.agent_readers {
        agents_width()
    } else {
        0
    };
    let cols = columns(inner.width, skills.list.longest_id, agents_w);
    // Only the rows on screen are built; the table state, kept by the handler so the selection
    // is on screen, says which. Should the selection be off them after all, ratatui scrolls to
    // it: those rows are built too, so nothing is drawn blank.
    let (offset, selected) = (skills.list.offset(), skills.list.selected());
    let shown = offset.min(selected)..(offset + height).max(selected + 1);
    let rows: Vec<Row> = skills
        .list
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if shown.contains(&i) {
                row(view, skills, r.skill, i == selected, cols, agents_w)
            } else {
                Row::default()
            }
        })
        .collect();
    let header = header(cols, agents_w).style(t.dim());
    let table = Table::new(rows, cols.constraints(agents_w))
        .header(header)
        .column_spacing(1);
    frame.render_stateful_widget(table, inner, &mut skills.list.table.clone());
}

/// The list's frame: the enabled count and L1 total on top, the sort, the rules and the
/// filter below.
fn frame_block(view: &View<'_>, skills: &Skills) -> Block<'static> {
    let t = &view.theme;
    let lib = &view.lib;
    let (l1, pending) = view.enabled_l1();
    let l1_text = match (l1, pending) {
        (0, p) if p > 0 => "…".to_string(),
        (n, p) if p > 0 => format!("{}+…", thousands(n)),
        (n, _) => format!("{}{}", thousands(n), view.beside(n)),
    };
    let summary = if view.loaded() {
        // L1 is the listing entry, so it depends on the format chosen in the prompt preview.
        format!(
            "{}/{} enabled · L1 {} tok ({}) ",
            view.enabled_count(),
            lib.skills.len(),
            l1_text,
            crate::tui::screens::prompt::FORMATS[view.format].as_str()
        )
    } else {
        "… ".to_string()
    };
    let title = Line::from(vec![
        Span::styled(" Skills ", t.title()),
        Span::raw(summary),
    ]);
    let checking = if view.findings.checked { "" } else { "…" };
    let arrow = if skills.list.reversed {
        " reversed"
    } else {
        ""
    };
    let mut bottom = vec![Span::raw(format!(
        " sort: {}{arrow} · rules: {}{checking} ",
        skills.list.sort.label(),
        view.rules_label()
    ))];
    if skills.mode == Mode::Filter || !skills.list.filter.is_empty() {
        let cursor = if skills.mode == Mode::Filter {
            "▏"
        } else {
            ""
        };
        bottom.push(Span::styled(
            format!(
                " /{}{cursor} ",
                crate::core::words::text::line(&skills.list.filter)
            ),
            t.hit(),
        ));
        bottom.push(Span::raw(format!(" {} match ", skills.list.rows.len())));
    }
    Block::bordered()
        .title(title)
        .title_bottom(Line::from(bottom))
}

/// One column per agent with switches, so that each one's letter shows (the help's legend).
fn agents_width() -> u16 {
    u16::try_from(crate::core::agents::REGISTRY.len()).unwrap_or(u16::MAX)
}

/// The column titles.
fn header(cols: Columns, agents_w: u16) -> Row<'static> {
    let mut header = vec![
        Cell::from(""),
        Cell::from("name"),
        Cell::from(truncate("agent·scope", usize::from(cols.badge))),
        Cell::from(Line::from("L1").alignment(Alignment::Right)),
        Cell::from(Line::from("L2").alignment(Alignment::Right)),
        Cell::from(Line::from("L3").alignment(Alignment::Right)),
    ];
    if agents_w > 0 {
        header.push(Cell::from("agt"));
    }
    header.push(Cell::from("diag"));
    if cols.description > 0 {
        header.push(Cell::from("description"));
    }
    Row::new(header)
}

/// The row of the skill at `index` in the library.
fn row(
    view: &View<'_>,
    skills: &Skills,
    index: usize,
    selected: bool,
    cols: Columns,
    agents_w: u16,
) -> Row<'static> {
    let t = &view.theme;
    let lib = &view.lib;
    let name_w = cols.name;
    let skill = &lib.skills[index];
    let seen = view.seen(index);
    let on = seen.listed();
    let costs = view.costs_of(index);
    let diag = view.findings.counts.get(index).copied().unwrap_or_default();
    let dim = skill.shadowed_by.is_some() || !on;
    let base = if dim { t.dim() } else { t.base() };
    // The id: the name with its namespace (`web.scraper`, `plugin:skill`).
    let hits = list::hits(&skill.id, &skills.list.filter);
    let mut name = highlighted(&skill.id, &hits, usize::from(name_w), base, t.hit());
    if let Some(w) = skill.shadowed_by.and_then(|w| lib.skills.get(w)) {
        let used: usize = name.spans.iter().map(|s| s.content.chars().count()).sum();
        let room = usize::from(name_w).saturating_sub(used + 3);
        // " < " takes three columns; the rest names the winner. Plain ASCII: arrows are
        // drawn one or two columns wide depending on the terminal.
        if room > 2 {
            let note = format!(
                " < {}",
                crate::core::words::text::fit_left(&winner_label(w, skill), room)
            );
            name.spans.push(Span::styled(note, t.dim()));
        }
    }
    // What the agent in view does with it: listed (●), by name only (◐), kept out (○), or
    // not read at all (·).
    let toggle = match seen {
        Seen::On => Span::styled("●", t.on()),
        Seen::NameOnly(_) => Span::styled("◐", t.on()),
        Seen::NotRead => Span::styled("·", t.dim()),
        Seen::Off(_) | Seen::Shadowed | Seen::Dormant => Span::styled("○", t.dim()),
    };
    let badge = fit_badge(skill, usize::from(cols.badge));
    let diag_cell = diag_badge(diag.errors, diag.warnings, view);
    let mut cells = vec![
        Cell::from(toggle),
        Cell::from(name),
        Cell::from(Span::styled(badge, t.badge())),
        num(costs.l1, view.counting.done[0]),
        num(costs.l2, view.counting.done[1]),
        num(costs.l3_with_schema(), view.counting.done[2]),
    ];
    if agents_w > 0 {
        cells.push(Cell::from(agent_badges(view, skill)));
    }
    cells.push(Cell::from(diag_cell));
    if cols.description > 0 {
        let d = skill.frontmatter.description().unwrap_or_default();
        let d = d.split_whitespace().collect::<Vec<_>>().join(" ");
        cells.push(Cell::from(Span::styled(
            truncate(&d, usize::from(cols.description)),
            t.dim(),
        )));
    }
    let row = Row::new(cells);
    // A row style, not the table's highlight, so the hits and badges keep their colours.
    if selected {
        row.style(t.selected())
    } else {
        row
    }
}

/// The agent·scope badge in `width` columns: whole when it fits, else with the scope as its
/// first letter (`claude·p`), the agent cut before the scope is.
pub fn fit_badge(skill: &Skill, width: usize) -> String {
    let full = badge(skill);
    if full.chars().count() <= width || matches!(skill.scope, Scope::Path | Scope::Demo) {
        return truncate(&full, width);
    }
    let scope = skill.scope.as_str().chars().next().unwrap_or('?');
    let tail = if skill.command {
        format!("·{scope}·c")
    } else {
        format!("·{scope}")
    };
    let agent = skill.agent.badge();
    let room = width.saturating_sub(tail.chars().count());
    if room == 0 {
        return truncate(&full, width);
    }
    format!("{}{tail}", agent.chars().take(room).collect::<String>())
}

/// The widths of the columns that change with the terminal: the name, the agent·scope badge and
/// the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns {
    pub name: u16,
    pub badge: u16,
    /// 0: no description column.
    pub description: u16,
}

impl Columns {
    fn constraints(self, agents_w: u16) -> Vec<Constraint> {
        let mut c = vec![
            Constraint::Length(1),
            Constraint::Length(self.name),
            Constraint::Length(self.badge),
            Constraint::Length(NUM_W),
            Constraint::Length(NUM_W),
            Constraint::Length(NUM_W),
        ];
        if agents_w > 0 {
            c.push(Constraint::Length(agents_w));
        }
        c.push(Constraint::Length(DIAG_W));
        if self.description > 0 {
            c.push(Constraint::Length(self.description));
        }
        c
    }
}

/// How a table `width` columns wide is shared out when the longest name is `longest` long:
/// the names get what they need (up to [`NAME_MAX`]) and a description column takes the rest when
/// it is wide enough; without one, the names take the spare room. When room is short the badge
/// gives way first, down to [`BADGE_MIN`].
pub fn columns(width: u16, longest: usize, agents_w: u16) -> Columns {
    let fixed = 1 + 3 * NUM_W + agents_w + DIAG_W;
    let count = 7 + u16::from(agents_w > 0);
    let avail = width.saturating_sub(fixed + (count - 1));
    let want = u16::try_from(longest)
        .unwrap_or(u16::MAX)
        .clamp(8, NAME_MAX);
    if avail >= want + BADGE_W + 1 + DESCRIPTION_MIN {
        return Columns {
            name: want,
            badge: BADGE_W,
            description: avail - want - BADGE_W - 1,
        };
    }
    let badge = avail.saturating_sub(want).clamp(BADGE_MIN, BADGE_W);
    Columns {
        name: avail.saturating_sub(badge),
        badge,
        description: 0,
    }
}

/// How to name the copy `w` that wins over `loser`: its agent and scope when those differ,
/// else where it is — its folder relative to the root (which the loser shares, for folders given
/// on the command line).
pub fn winner_label(w: &Skill, loser: &Skill) -> String {
    let differs = (w.agent, w.scope) != (loser.agent, loser.scope);
    if differs && !matches!(w.scope, Scope::Path | Scope::Demo) {
        return badge(w);
    }
    let rel = w.dir.strip_prefix(&w.root).unwrap_or(&w.dir);
    let rel = rel.display().to_string();
    if w.root == loser.root || rel.is_empty() {
        let root_name = w.root.file_name().map(|n| n.to_string_lossy().into_owned());
        if rel.is_empty() {
            root_name.unwrap_or_default()
        } else {
            rel
        }
    } else {
        let root_name = w
            .root
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        format!("{root_name}/{rel}")
    }
}

/// One letter per agent with switches (the registry's badge letters) that reads the skill's
/// folder: the letter when the agent lists the skill, `-` when its settings keep it out.
pub fn agent_badges(view: &View<'_>, skill: &Skill) -> Line<'static> {
    let t = &view.theme;
    let Some(switches) = &view.switches.agents else {
        return Line::from(Span::styled("…", t.dim()));
    };
    let spans: Vec<Span> = switches
        .badges(skill)
        .iter()
        .map(|b| {
            let letter = switches
                .plugin(b.agent)
                .map_or('?', crate::core::agents::AgentPlugin::badge_letter)
                .to_string();
            match (b.reads, b.loads()) {
                (false, _) => Span::raw(" "),
                (true, true) => Span::styled(letter, t.on()),
                (true, false) => Span::styled("-", t.error()),
            }
        })
        .collect();
    Line::from(spans)
}

fn num(n: Option<u32>, counted: bool) -> Cell<'static> {
    Cell::from(Line::from(cost_in(n, counted, usize::from(NUM_W))).alignment(Alignment::Right))
}

/// `2E 1W`, or nothing when the skill is clean.
fn diag_badge(errors: usize, warnings: usize, view: &View<'_>) -> Line<'static> {
    let t = &view.theme;
    let mut spans = Vec::new();
    if errors > 0 {
        spans.push(Span::styled(format!("{errors}E"), t.error()));
    }
    if warnings > 0 {
        if !spans.is_empty() {
            spans.push(Span::raw(" "));
        }
        spans.push(Span::styled(format!("{warnings}W"), t.warning()));
    }
    Line::from(spans)
}

/// The name, escaped and cut to `width`, with the filter's matched characters (indices into
/// `name`'s characters) in `hit` style.
pub fn highlighted(
    name: &str,
    hits: &[usize],
    width: usize,
    base: Style,
    hit: Style,
) -> Line<'static> {
    // Each character of the name as shown (a hazard becomes its escape, never a hit), so that
    // hit indices still point at the right characters.
    let mut shown_chars: Vec<(char, bool)> = Vec::new();
    let mut buf = [0u8; 4];
    for (i, c) in name.chars().enumerate() {
        let piece = crate::core::words::text::line(c.encode_utf8(&mut buf));
        let escaped = piece.len() != c.len_utf8();
        shown_chars.extend(piece.chars().map(|p| (p, !escaped && hits.contains(&i))));
    }
    if shown_chars.len() > width {
        shown_chars.truncate(width.saturating_sub(1));
        if width > 0 {
            shown_chars.push(('…', false));
        }
    }
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut run = String::new();
    let mut run_hit = false;
    for (c, is_hit) in shown_chars {
        if is_hit != run_hit && !run.is_empty() {
            spans.push(Span::styled(
                std::mem::take(&mut run),
                if run_hit { hit } else { base },
            ));
        }
        run_hit = is_hit;
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(Span::styled(run, if run_hit { hit } else { base }));
    }
    Line::from(spans)
}

fn empty(frame: &mut Frame, area: Rect, view: &View<'_>) {
    let t = &view.theme;
    if !view.loaded() {
        let paths: Vec<String> = view
            .rescan
            .spec
            .paths
            .iter()
            .map(|p| crate::core::words::text::path(p))
            .collect();
        let from = if paths.is_empty() {
            "every agent's skill folders".to_string()
        } else {
            paths.join(", ")
        };
        let lines = vec![
            Line::from(""),
            Line::from(Span::styled(
                format!("  Reading skills from {from}…"),
                t.dim(),
            )),
        ];
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    let mut lines = vec![
        Line::from(""),
        Line::from(Span::styled("  No skills found.", t.title())),
        Line::from(""),
        Line::from("  A skill is a folder holding a SKILL.md. Looked in:"),
    ];
    for r in &view.lib.roots {
        lines.push(Line::from(Span::styled(
            format!("    {}", crate::core::words::text::path(&r.path)),
            t.dim(),
        )));
    }
    for p in &view.lib.problems {
        lines.push(Line::from(Span::styled(
            format!(
                "  {}: {}",
                p.rule,
                crate::core::words::text::line(&p.message)
            ),
            t.error(),
        )));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_narrow_badge_keeps_the_scope() {
        use crate::core::source::{Agent, Root};
        let root = Root::new("/p/.claude/skills", Agent::ClaudeCode, Scope::Project);
        let dir = std::path::PathBuf::from("/p/.claude/skills/pdf");
        let skill = Skill::new(&root, dir.clone(), dir.join("SKILL.md"));
        assert_eq!(fit_badge(&skill, 20), "claude·project");
        assert_eq!(fit_badge(&skill, 12), "claude·p");
        assert_eq!(fit_badge(&skill, usize::from(BADGE_MIN)), "clau·p");
        let opencode = Root::new("/h/.config/opencode/skills", Agent::Opencode, Scope::User);
        let skill = Skill::new(&opencode, dir.clone(), dir.join("SKILL.md"));
        assert_eq!(fit_badge(&skill, 10), "opencode·u");
    }

    #[test]
    fn names_get_what_they_need_and_a_description_the_rest() {
        // 160 columns, names up to 24: a description column takes the spare room.
        let c = columns(158, 24, 0);
        assert_eq!((c.name, c.badge), (24, BADGE_W));
        assert!(c.description >= 80, "{c:?}");
        // Very long names are cut at NAME_MAX while a description fits beside them.
        assert_eq!(columns(158, 90, 3).name, NAME_MAX);
        // No room for a description: the names take the spare room.
        let c = columns(70, 24, 0);
        assert_eq!(c.description, 0);
        assert!(c.name > 24, "{c:?}");
        // At 60 columns the badge gives way before the names do.
        let c = columns(58, 40, 0);
        assert_eq!(c.badge, BADGE_MIN);
        assert!(c.name > 10, "{c:?}");
        let c = columns(58, 12, 0);
        assert_eq!((c.name, c.badge), (14, BADGE_W));
        // Every column adds up to the width given.
        for (w, longest, agents) in [(58, 40, 0), (78, 11, 0), (100, 30, 3), (158, 24, 3)] {
            let c = columns(w, longest, agents);
            let n = 7 + u16::from(agents > 0) + u16::from(c.description > 0);
            let sum: u16 = c
                .constraints(agents)
                .iter()
                .map(|k| match k {
                    Constraint::Length(n) => *n,
                    _ => 0,
                })
                .sum();
            assert_eq!(sum + n - 1, w, "{w} {longest} {agents}: {c:?}");
        }
    }
}
