//! The Add flow: a prompt for a source, then a preview of the skills it holds (checkboxes,
//! verdicts under the target agent's profile, tokens, what they carry that could run) and the
//! change to the agent's listing; Enter installs the checked ones.

use super::screen::{Cmd, Outcome, Overlay};
use crate::core::manage::preview::ListingChange;
use crate::core::manage::{self, Plan, update};
use crate::core::words::text::{line, thousands};
use crate::tui::action::Action;
use crate::tui::event::{Event, JobEvent};
use crate::tui::keymap::{self, Context};
use crate::tui::state::parts::{Manage, home_and_project};
use crate::tui::state::view::View;
use crate::tui::view::truncate;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use std::path::Path;
use std::sync::mpsc::Sender;

/// Where the flow is.
pub enum Step {
    /// Typing the source.
    Source,
    /// The source is being fetched and priced on a worker.
    Fetching,
    /// The skills found, priced.
    Preview(Box<Preview>),
    /// The checked skills are being installed.
    Installing,
}

/// A priced source and the user's choice.
pub struct Preview {
    pub plan: Plan,
    pub checked: Vec<bool>,
    pub cursor: usize,
    pub listing: ListingChange,
}

impl Preview {
    /// Skills with errors under the agent's profile, and those whose folder is taken, start
    /// unchecked.
    pub fn new(plan: Plan) -> Preview {
        let checked: Vec<bool> = plan
            .priced
            .iter()
            .map(|p| !crate::core::manage::preview::left_out_unpicked(p) && p.clash.is_none())
            .collect();
        let mut p = Preview {
            listing: plan.pricing.listing_change(&[]).0,
            plan,
            checked,
            cursor: 0,
        };
        p.reprice();
        p
    }

    pub fn chosen(&self) -> Vec<&str> {
        self.plan
            .priced
            .iter()
            .zip(&self.checked)
            .filter(|(_, c)| **c)
            .map(|(p, _)| p.folder.as_str())
            .collect()
    }

    fn reprice(&mut self) {
        let chosen: Vec<String> = self.chosen().into_iter().map(str::to_string).collect();
        let chosen: Vec<&str> = chosen.iter().map(String::as_str).collect();
        self.listing = self.plan.pricing.listing_change(&chosen).0;
    }
}

pub struct AddFlow {
    /// Which flow this is: a worker's answer carries it, so an answer for a flow closed since
    /// (Esc while fetching or installing) never lands in a newer one.
    pub id: u64,
    /// The source typed.
    pub text: String,
    pub step: Step,
    /// Where it installs, in words: `claude-code user (~/.claude/skills)`.
    pub target: String,
}

static NEXT_FLOW: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl AddFlow {
    /// A flow installing into `target` (in words).
    pub fn new(target: String) -> AddFlow {
        AddFlow {
            id: NEXT_FLOW.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            text: String::new(),
            step: Step::Source,
            target,
        }
    }

    /// The key context of the step.
    pub fn context(&self) -> Context {
        match self.step {
            Step::Source => Context::AddSource,
            _ => Context::AddPreview,
        }
    }

    pub fn type_char(&mut self, c: char) {
        if matches!(self.step, Step::Source) && !c.is_control() {
            self.text.push(c);
        }
    }

    pub fn handle(&mut self, action: Action) -> Outcome {
        match (&mut self.step, action) {
            (Step::Installing, Action::Close) => Outcome::Then(Cmd::CloseOverlay(Some(
                "the install goes on in the background; its result follows",
            ))),
            (_, Action::Close) => Outcome::Then(Cmd::CloseOverlay(Some("nothing was added"))),
            (Step::Source, Action::CycleAgent) => Outcome::Then(Cmd::CycleAddTarget(true)),
            (Step::Source, Action::CycleScope) => Outcome::Then(Cmd::CycleAddTarget(false)),
            (Step::Source, Action::Backspace) => {
                self.text.pop();
                Outcome::Done
            }
            (Step::Source, Action::Confirm) if !self.text.trim().is_empty() => {
                self.step = Step::Fetching;
                Outcome::Then(Cmd::FetchSource(self.text.trim().to_string()))
            }
            (Step::Preview(p), Action::Toggle) => {
                if let Some(c) = p.checked.get_mut(p.cursor) {
                    *c = !*c;
                }
                p.reprice();
                Outcome::Done
            }
            (Step::Preview(p), Action::Down) => {
                p.cursor = (p.cursor + 1).min(p.checked.len().saturating_sub(1));
                Outcome::Done
            }
            (Step::Preview(p), Action::Up) => {
                p.cursor = p.cursor.saturating_sub(1);
                Outcome::Done
            }
            (Step::Preview(p), Action::Confirm) => {
                if p.chosen().is_empty() {
                    return Outcome::status("nothing is checked");
                }
                Outcome::Then(Cmd::InstallChecked)
            }
            (_, Action::Quit) => Outcome::Then(Cmd::Quit),
            _ => Outcome::Done,
        }
    }
}

/// What the Add flow's jobs need of the app: where it installs, the home folder, and the way
/// its workers answer.
pub struct AddCx<'a> {
    pub manage: &'a mut Manage,
    pub home: Option<&'a Path>,
    pub tx: &'a Sender<Event>,
}

impl AddFlow {
    /// Carries out what the flow asked for ([`Cmd::CycleAddTarget`], [`Cmd::FetchSource`],
    /// [`Cmd::InstallChecked`]): the effects the app carries out after.
    pub fn run(&mut self, cmd: Cmd, cx: &mut AddCx) -> Vec<Cmd> {
        match cmd {
            Cmd::CycleAddTarget(agent) => {
                cx.manage.cycle_target(agent);
                self.target = cx.manage.target_label(cx.home);
            }
            Cmd::FetchSource(source) => return self.fetch(source, cx),
            Cmd::InstallChecked => self.install(cx),
            other => return vec![other],
        }
        Vec::new()
    }

    /// Fetches and prices `source` on a worker.
    fn fetch(&self, source: String, cx: &AddCx) -> Vec<Cmd> {
        let target = match cx.manage.target(cx.home) {
            Ok(t) => t,
            Err(e) => return vec![Cmd::CloseOverlay(None), Cmd::Status(e, true)],
        };
        let (id, tx) = (self.id, cx.tx.clone());
        let base = cx.manage.data_dir.join("tmp");
        std::thread::spawn(move || {
            let plan = Plan::make(&source, &target, &base)
                .map(Box::new)
                .map_err(|e| e.to_string());
            let _ = tx.send(Event::Job(JobEvent::AddPlanned(id, plan)));
        });
        Vec::new()
    }

    /// Installs the checked skills on a worker.
    fn install(&mut self, cx: &AddCx) {
        let Step::Preview(p) = std::mem::replace(&mut self.step, Step::Installing) else {
            return;
        };
        let chosen: Vec<String> = p.chosen().into_iter().map(str::to_string).collect();
        let (id, trash, tx) = (self.id, cx.manage.trash.clone(), cx.tx.clone());
        std::thread::spawn(move || {
            let refs: Vec<&str> = chosen.iter().map(String::as_str).collect();
            let done = p
                .plan
                .install(&refs, &trash)
                .map(|v| v.into_iter().map(|i| i.folder).collect())
                .map_err(|e| e.to_string());
            drop(p);
            let _ = tx.send(Event::Job(JobEvent::AddInstalled(id, done)));
        });
    }
}

/// A worker's answer for the Add flow (`open`, when it is open) or the updates check; the event
/// back when it is none of theirs.
pub fn on_job(open: Option<&mut AddFlow>, job: JobEvent, cx: &AddCx) -> Result<Vec<Cmd>, JobEvent> {
    Ok(match job {
        // A fetched and priced source; dropped (its temporary copy with it) when its flow was
        // closed meanwhile.
        JobEvent::AddPlanned(id, plan) => match (open.filter(|f| f.id == id), plan) {
            (Some(flow), Ok(plan)) => {
                flow.step = Step::Preview(Box::new(Preview::new(*plan)));
                Vec::new()
            }
            (Some(flow), Err(e)) => {
                flow.step = Step::Source;
                vec![Cmd::Status(e, true)]
            }
            (None, _) => Vec::new(),
        },
        // An install's result, said even when its flow was closed meanwhile; a newer flow
        // stays open.
        JobEvent::AddInstalled(id, done) => {
            let mut out = Vec::new();
            if open.is_some_and(|f| f.id == id) {
                out.push(Cmd::CloseOverlay(None));
            }
            match done {
                Ok(names) => {
                    let text = format!(
                        "added {} to {}",
                        names.join(", "),
                        cx.manage.target_label(cx.home)
                    );
                    out.extend([Cmd::Status(text, false), Cmd::Rescan]);
                }
                Err(e) => out.push(Cmd::Status(e, true)),
            }
            out
        }
        JobEvent::UpdatesChecked(r) => vec![match r {
            Ok(v) if v.is_empty() => Cmd::Status(
                "every added skill is as its source has it".to_string(),
                false,
            ),
            Ok(v) => Cmd::Status(
                format!("updates: {} (skillscope update applies them)", v.join(", ")),
                false,
            ),
            Err(e) => Cmd::Status(e, true),
        }],
        other => return Err(other),
    })
}

/// Fetches the sources of every added skill on a worker: only when asked, never at start-up.
pub fn check_updates(cx: &AddCx) -> Vec<Cmd> {
    let Some((home, project)) = home_and_project(cx.home) else {
        return Vec::new();
    };
    let tx = cx.tx.clone();
    let base = cx.manage.data_dir.join("tmp");
    std::thread::spawn(move || {
        let targets = manage::installed_targets(&home, project.as_deref());
        let (added, _) = update::added(&targets);
        let result = (|| {
            let work = manage::work_dir(&base).map_err(|e| e.to_string())?;
            Ok(update::check(&added, work.path())
                .into_iter()
                .filter(|c| c.status == update::Status::Changed)
                .map(|c| c.folder)
                .collect())
        })();
        let _ = tx.send(Event::Job(JobEvent::UpdatesChecked(result)));
    });
    vec![Cmd::Status(
        "checking the sources of added skills …".to_string(),
        false,
    )]
}

impl Overlay for AddFlow {
    fn contexts(&self) -> Vec<Context> {
        vec![self.context(), Context::Global]
    }

    fn handle(&mut self, action: Action, _view: &View<'_>, _area: Rect) -> Outcome {
        AddFlow::handle(self, action)
    }

    fn type_char(&mut self, c: char) -> bool {
        AddFlow::type_char(self, c);
        true
    }

    fn draw(&self, view: &View<'_>, frame: &mut Frame, area: Rect) {
        draw(frame, area, view, self, &self.target);
    }
}

fn popup(area: Rect) -> Rect {
    let w = area.width.saturating_sub(4).min(110);
    let h = area.height.saturating_sub(2);
    crate::tui::view::parts::centered(area, w, h)
}

fn num(n: Option<u32>) -> String {
    n.map_or_else(|| "-".to_string(), |n| thousands(u64::from(n)))
}

fn signed(n: i64) -> String {
    match n {
        0 => "±0".to_string(),
        n if n > 0 => format!("+{}", thousands(n.unsigned_abs())),
        n => format!("-{}", thousands(n.unsigned_abs())),
    }
}

/// The lines of the flow's box, `width` columns wide.
/// `target`: where the flow installs, as the user reads it.
pub fn lines(view: &View<'_>, f: &AddFlow, target: &str, width: usize) -> Vec<Line<'static>> {
    let t = &view.theme;
    let mut out = Vec::new();
    match &f.step {
        Step::Source => {
            out.push(Line::from(vec![
                Span::styled("Source: ", t.title()),
                Span::raw(format!("{}█", line(&f.text))),
            ]));
            out.push(Line::from(""));
            // The help wraps at the box's width: a narrow terminal cuts no sentence.
            let help = [
                "A git URL (https://…, git@host:path, file://…), a folder, or a .zip / .tar.gz archive.".to_string(),
                format!("Skills go to {target}; Tab: next agent, S-Tab: user or project. Nothing from the source runs."),
            ];
            for l in help
                .iter()
                .flat_map(|h| crate::tui::view::parts::wrap(h, width))
            {
                out.push(Line::from(Span::styled(l, t.dim())));
            }
        }
        Step::Fetching => {
            out.push(Line::from(format!("Fetching {} …", line(&f.text))));
            for l in crate::tui::view::parts::wrap(
                "cloned bare and shallow with hooks off, or unpacked without unsafe entries; nothing runs",
                width,
            ) {
                out.push(Line::from(Span::styled(l, t.dim())));
            }
        }
        Step::Installing => out.push(Line::from("Installing …")),
        Step::Preview(p) => preview_lines(&mut out, p, target, width, view),
    }
    out
}

/// The priced source: every skill with its verdict and figures, the listing's change, and the
/// selected skill's description and notes.
fn preview_lines(
    out: &mut Vec<Line<'static>>,
    p: &Preview,
    target: &str,
    width: usize,
    view: &View<'_>,
) {
    let t = &view.theme;
    let commit = p
        .plan
        .commit
        .as_deref()
        .map(|c| format!(" at {}", &c[..c.len().min(12)]))
        .unwrap_or_default();
    out.push(Line::from(Span::styled(
        truncate(
            &format!("from {}{commit} → {target}", line(&p.plan.origin.shown())),
            width,
        ),
        t.dim(),
    )));
    out.push(Line::from(Span::styled(
        format!(
            "    {:<26} {:<18} {:>6} {:>7} {:>7}  runs (never run here)",
            "skill", "verdict", "L1", "L2", "L3"
        ),
        t.title(),
    )));
    for (i, (s, c)) in p.plan.priced.iter().zip(&p.checked).enumerate() {
        let mark = if *c { "[x]" } else { "[ ]" };
        let runs = if s.executables.is_empty() {
            "-".to_string()
        } else {
            s.executables.join(", ")
        };
        let text = format!(
            "{mark} {:<26} {:<18} {:>6} {:>7} {:>7}  {}",
            truncate(&s.folder, 26),
            s.verdict.label(),
            num(s.tokens.l1),
            num(s.tokens.l2),
            num(s.tokens.l3),
            line(&runs)
        );
        let style = if i == p.cursor {
            t.selected()
        } else if crate::core::manage::preview::left_out_unpicked(s) || s.clash.is_some() {
            t.warning()
        } else {
            t.base()
        };
        out.push(Line::from(Span::styled(truncate(&text, width), style)));
    }
    out.push(Line::from(""));
    let l = &p.listing;
    out.push(Line::from(format!(
        "Listing ({}): {} → {} tokens per turn ({}), {} → {}, tier {}",
        l.format,
        thousands(l.per_turn.before),
        thousands(l.per_turn.after),
        signed(l.per_turn.delta()),
        l.skills.before,
        crate::core::words::text::count(l.skills.after, "skill", "skills"),
        l.tier_after
    )));
    for fc in l.fates.iter().filter(|x| x.before.is_some()) {
        out.push(Line::from(Span::styled(
            truncate(
                &format!(
                    "  {} {} → {}",
                    line(&fc.name),
                    fc.before.map_or("-".into(), |x| x.to_string()),
                    fc.after.map_or("-".into(), |x| x.to_string())
                ),
                width,
            ),
            t.warning(),
        )));
    }
    if let Some(s) = p.plan.priced.get(p.cursor) {
        out.push(Line::from(""));
        for l in crate::tui::view::parts::wrap(&s.description, width) {
            out.push(Line::from(Span::styled(l, t.dim())));
        }
        let mut notes: Vec<String> = s.verdict.findings.clone();
        notes.extend(s.notes.iter().cloned());
        if let Some(c) = &s.clash {
            notes.push(format!("{} is already there", c.display()));
        }
        for n in notes {
            out.push(Line::from(Span::styled(
                truncate(&line(&n), width),
                t.warning(),
            )));
        }
    }
    for n in &p.plan.notes {
        out.push(Line::from(Span::styled(truncate(&line(n), width), t.dim())));
    }
}

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, f: &AddFlow, target: &str) {
    let popup = popup(area);
    let keys: Vec<String> = view
        .keys
        .map
        .footer(&[f.context()])
        .iter()
        .map(|b| format!("{} {}", keymap::keys_label(b, false), b.short))
        .collect();
    let inner_width = usize::from(popup.width.saturating_sub(2));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines(view, f, target, inner_width)).block(
            Block::bordered()
                .title(Span::styled(" Add skills ", view.theme.title()))
                .title_bottom(format!(" {} ", keys.join(" · "))),
        ),
        popup,
    );
}
