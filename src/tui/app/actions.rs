//! What the keys ask for: an action offered to the open overlay, the current screen, the
//! screen that owns it, then the app; the shared effects the screens ask for ([`Cmd`]); the
//! detail pane's scrolling and the screen shown.

use super::{App, Help, Overlay, Removal};
use crate::core::rules::Profile;
use crate::tui::action::{Action, Screen};
use crate::tui::jobs;
use crate::tui::screens::add::{AddCx, AddFlow};
use crate::tui::screens::{self, Cmd, Outcome};
use crate::tui::state::in_view::ViewChange;

/// Where the detail pane scrolls ([`App::detail`]).
#[derive(Debug, Clone, Copy)]
pub(super) enum Detail {
    /// By this many lines.
    Scroll(isize),
    /// To the selected resource.
    Resource,
    /// To the selected skill's diagnostic `k`.
    Diagnostic(usize),
}

impl App {
    pub fn apply(&mut self, action: Action) {
        let out = if let Some(out) = self.overlay_action(action) {
            out
        } else if action == Action::CycleAgent {
            // One agent is in view for every screen: each screen's agent key cycles that one.
            self.cycle_view_agent();
            Outcome::Done
        } else {
            let mut out = self.dispatch(self.screen, action);
            if out == Outcome::Ignored
                && let Some(owner) = screens::owner(action)
                && owner != self.screen
            {
                out = self.dispatch(owner, action);
            }
            if out == Outcome::Ignored {
                self.apply_global(action);
            }
            out
        };
        if let Outcome::Then(cmd) = out {
            self.run(cmd);
        }
        self.start_jobs();
    }

    /// The open overlay's answer to an action: it takes every key while it is open.
    pub(super) fn overlay_action(&mut self, action: Action) -> Option<Outcome> {
        // How far an overlay scrolls depends on what it shows, which is drawn from the app: it
        // is taken out while it answers, for the view to borrow the rest.
        let mut open = self.overlay.take()?;
        let out = open.get_mut().handle(action, &self.view(), self.size);
        self.overlay = Some(open);
        Some(out)
    }

    /// Offers an action to a screen, with what it may read of the shared state.
    pub(super) fn dispatch(&mut self, screen: Screen, action: Action) -> Outcome {
        let (screens, cx) = self.parts();
        screens.get_mut(screen).handle(action, &cx)
    }

    /// Carries out a screen's shared effect.
    pub(super) fn run(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Status(text, error) => self.set_status(text, error),
            Cmd::Quit => self.requests.quit = true,
            Cmd::CloseOverlay(status) => {
                self.overlay = None;
                if let Some(text) = status {
                    self.set_status(text, false);
                }
            }
            Cmd::PlanAgentToggle(scope, on) => self.plan_agent_toggle(scope, on),
            Cmd::WriteAgentToggle => match self.overlay.take() {
                Some(Overlay::Confirm(c)) => {
                    let (text, error) = c.write(&self.lib, self.switches.agents.as_deref());
                    self.set_status(text, error);
                    jobs::load_switches(self.switches.home.clone(), self.tx.clone());
                }
                other => self.overlay = other,
            },
            Cmd::RunMatchers => self.run_matchers(),
            Cmd::ToggleSelected => self.toggle_selected(),
            Cmd::RevealResource => self.detail(Detail::Resource),
            Cmd::ScrollDetail(delta) => self.detail(Detail::Scroll(delta)),
            Cmd::Preview => self.request_preview(),
            cmd @ (Cmd::FetchSource(_) | Cmd::InstallChecked | Cmd::CycleAddTarget(_)) => {
                self.adding(|flow, cx| flow.map_or_else(Vec::new, |f| f.run(cmd, cx)));
            }
            Cmd::RemoveConfirmed => match self.overlay.take() {
                Some(Overlay::Remove(r)) => {
                    for cmd in r.remove(&self.lib, &mut self.manage) {
                        self.run(cmd);
                    }
                }
                other => self.overlay = other,
            },
            Cmd::Rescan => self.request_rescan(),
            Cmd::RecountL1 => self.recount_l1(),
            Cmd::SetFiles(files) => self.set_view(ViewChange::Files(files)),
            Cmd::FreshPreview => {
                if self.view().loaded()
                    && (self.preview.job.is_stale() || self.preview.shown.is_none())
                {
                    self.request_preview();
                }
            }
            Cmd::NeedIndex => self.with_test(|t, cx| {
                t.ensure_index(cx);
                t.ensure_agent_view(cx);
            }),
        }
    }

    /// Lends the Add flow (when it is open) and what its jobs need to `f`, then carries out the
    /// effects `f` asks for.
    pub(super) fn adding(&mut self, f: impl FnOnce(Option<&mut AddFlow>, &mut AddCx) -> Vec<Cmd>) {
        let flow = match &mut self.overlay {
            Some(Overlay::Add(f)) => Some(f),
            _ => None,
        };
        let mut cx = AddCx {
            manage: &mut self.manage,
            home: self.switches.home.as_deref(),
            tx: &self.tx,
        };
        for cmd in f(flow, &mut cx) {
            self.run(cmd);
        }
    }

    /// The actions no screen took: the app's own (quit, help, screens, rescans, the model).
    pub(super) fn apply_global(&mut self, action: Action) {
        match action {
            Action::Quit => self.requests.quit = true,
            Action::Help => self.overlay = Some(Overlay::Help(Help::default())),
            Action::NextScreen => {
                self.show(Screen::ALL[(self.screen.index() + 1) % Screen::ALL.len()]);
            }
            Action::PrevScreen => {
                let n = Screen::ALL.len();
                self.show(Screen::ALL[(self.screen.index() + n - 1) % n]);
            }
            Action::Show(s) => self.show(s),
            Action::CycleProfile => {
                let all = Profile::ALL;
                let i = all
                    .iter()
                    .position(|p| *p == self.findings.profile)
                    .unwrap_or(0);
                self.findings.profile = all[(i + 1) % all.len()];
                self.findings.chosen = true;
                self.findings.checked = false;
                self.run_checks(true);
            }
            Action::CycleModel
                if matches!(self.screen, Screen::Prompt | Screen::Budget)
                    && self.cycle_client_model() => {}
            Action::CycleModel => {
                self.models.cycle();
                let text = match &self.models.chosen {
                    Some(m) if m.is_exact_with(self.cache.encoding) => {
                        format!(
                            "model {m}: {} is its own tokenizer, figures are exact",
                            self.cache.encoding
                        )
                    }
                    Some(m) => format!(
                        "model {m}: ≈ figures are {} × {}, an estimate",
                        self.cache.encoding, m.factor
                    ),
                    None => format!(
                        "no model estimate: figures are {} counts",
                        self.cache.encoding
                    ),
                };
                self.set_status(text, false);
            }
            Action::Redraw => self.requests.redraw = true,
            Action::Rescan => {
                self.request_rescan();
                jobs::load_switches(self.switches.home.clone(), self.tx.clone());
            }
            Action::AddSkills => {
                let target = self.manage.target_label(self.switches.home.as_deref());
                self.overlay = Some(Overlay::Add(AddFlow::new(target)));
            }
            Action::RemoveSkill => {
                let selected = self.screens.skills.list.selected_skill();
                match Removal::ask(&self.lib, selected, self.switches.home.as_deref()) {
                    Ok(r) => self.overlay = Some(Overlay::Remove(r)),
                    Err(cmds) => cmds.into_iter().for_each(|cmd| self.run(cmd)),
                }
            }
            Action::UndoRemove => {
                for cmd in screens::remove::undo(&mut self.manage) {
                    self.run(cmd);
                }
            }
            Action::CheckUpdates => self.adding(|_, cx| screens::add::check_updates(cx)),
            Action::Edit => match self.edit_target() {
                Some(req) => self.requests.edit = Some(req),
                None => {
                    self.set_status("nothing to edit here: select a skill or open a file", true);
                }
            },
            Action::CopyName | Action::CopyPath | Action::CopyListing => self.copy(action),
            Action::NextDiagnostic => self.move_diagnostic_cursor(1),
            Action::PrevDiagnostic => self.move_diagnostic_cursor(-1),
            // The scroll keys on a screen with nothing to scroll (Budget), the confirmation's
            // keys outside it, and the screens' own actions, which the screens took.
            _ => {}
        }
    }

    /// Scrolls the detail pane: by lines, no further than its last line at the bottom of the
    /// pane, or to the selected resource or diagnostic, whose line depends on everything the
    /// pane shows above it.
    pub(super) fn detail(&mut self, what: Detail) {
        let areas = self.areas(self.size);
        let (Some(area), Some(skill)) = (areas.detail, self.screens.skills.selected(&self.lib))
        else {
            return;
        };
        let inner = ratatui::widgets::Block::bordered().inner(area);
        let width = usize::from(inner.width);
        let (view, skills) = (&self.view(), &self.screens.skills);
        let line = match what {
            Detail::Scroll(delta) => {
                let lines = screens::skills::pane::line_count(view, skills, skill, width);
                let max = lines.saturating_sub(usize::from(inner.height));
                self.screens.skills.scroll_detail(delta, max);
                return;
            }
            Detail::Resource => skills
                .resource_cursor
                .and_then(|k| screens::skills::pane::resource_line(view, skills, skill, width, k)),
            Detail::Diagnostic(k) => {
                screens::skills::pane::diagnostic_line(view, skills, skill, width, k)
            }
        };
        if let Some(line) = line {
            self.screens
                .skills
                .reveal_detail_line(line, usize::from(inner.height));
        }
    }

    pub(super) fn show(&mut self, s: Screen) {
        if s != self.screen {
            // A message is about the screen it was said on.
            self.footer.status = None;
        }
        self.screen = s;
        if let Some(cmd) = self.screens.get_mut(s).shown() {
            self.run(cmd);
        }
        for other in Screen::ALL {
            if other != s {
                self.screens.get_mut(other).hidden();
            }
        }
        self.after_move();
    }

    /// After the selection or the layout changed: keep the list's selection on screen and the
    /// detail pane's data for the selected skill.
    pub(super) fn after_move(&mut self) {
        self.screens.skills.after_move(&self.lib, self.size);
    }
}
