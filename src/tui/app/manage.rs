//! The app's managing flows: the Add flow's fetch and install on workers, removing the selected
//! skill to the trash (after a confirmation) with undo, and updates checked on demand.

use super::{App, Overlay, Removal};
use crate::core::manage::{self, Plan, Target, update};
use crate::tui::event::{Event, JobEvent};
use crate::tui::screens::add::{AddFlow, Preview, Step};

impl App {
    /// The user said yes to the removal waiting for it.
    pub(super) fn remove_confirmed(&mut self) {
        match self.overlay.take() {
            Some(Overlay::Remove(r)) => self.remove_now(r.skill),
            other => self.overlay = other,
        }
    }

    /// The Add flow, when it is open.
    fn adding(&mut self) -> Option<&mut AddFlow> {
        match &mut self.overlay {
            Some(Overlay::Add(f)) => Some(f),
            _ => None,
        }
    }

    /// Closes the Add flow, when it is open.
    fn close_adding(&mut self) {
        if self.adding().is_some() {
            self.overlay = None;
        }
    }

    fn home_and_project(&self) -> Option<(std::path::PathBuf, Option<std::path::PathBuf>)> {
        let home = self.switches.home.clone()?;
        let cwd = std::env::current_dir().ok()?;
        let project = crate::core::agents::project_root(&cwd, Some(&home));
        Some((home, project))
    }

    fn add_target(&self) -> Result<Target, String> {
        let (home, project) = self
            .home_and_project()
            .ok_or_else(|| "no home folder: nothing can be added".to_string())?;
        Target::resolve(
            self.manage.agent,
            self.manage.scope,
            &home,
            project.as_deref(),
        )
        .map_err(|e| e.to_string())
    }

    /// `claude-code user (~/.claude/skills)`.
    pub fn add_target_label(&self) -> String {
        match (self.add_target(), &self.switches.home) {
            (Ok(t), Some(home)) => format!(
                "{} {} ({})",
                t.agent,
                t.scope,
                crate::core::agents::show_path(&t.dir, home)
            ),
            (Err(e), _) => e,
            (Ok(t), None) => t.dir.display().to_string(),
        }
    }

    /// The Add flow's next agent, or its other scope.
    pub(super) fn cycle_add_target(&mut self, agent: bool) {
        use crate::core::source::Scope;
        if agent {
            let all = manage::TARGET_AGENTS;
            let i = all
                .iter()
                .position(|a| *a == self.manage.agent)
                .unwrap_or(0);
            self.manage.agent = all[(i + 1) % all.len()];
        } else {
            self.manage.scope = match self.manage.scope {
                Scope::User => Scope::Project,
                _ => Scope::User,
            };
        }
        let target = self.add_target_label();
        if let Some(f) = self.adding() {
            f.target = target;
        }
    }

    pub(super) fn fetch_source(&mut self, source: String) {
        let Some(id) = self.adding().map(|f| f.id) else {
            return;
        };
        let target = match self.add_target() {
            Ok(t) => t,
            Err(e) => {
                self.close_adding();
                self.set_status(e, true);
                return;
            }
        };
        let tx = self.tx.clone();
        let base = self.manage.data_dir.join("tmp");
        std::thread::spawn(move || {
            let plan = Plan::make(&source, &target, &base)
                .map(Box::new)
                .map_err(|e| e.to_string());
            let _ = tx.send(Event::Job(JobEvent::AddPlanned(id, plan)));
        });
    }

    pub(super) fn install_checked(&mut self) {
        let Some(flow) = self.adding() else {
            return;
        };
        let id = flow.id;
        let Step::Preview(p) = std::mem::replace(&mut flow.step, Step::Installing) else {
            return;
        };
        let chosen: Vec<String> = p.chosen().into_iter().map(str::to_string).collect();
        let trash = self.manage.trash.clone();
        let tx = self.tx.clone();
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

    /// A fetched and priced source; dropped (its temporary copy with it) when its flow was
    /// closed meanwhile.
    pub(super) fn on_add_planned(&mut self, id: u64, plan: Result<Box<Plan>, String>) {
        let Some(flow) = self.adding().filter(|f| f.id == id) else {
            return;
        };
        match plan {
            Ok(plan) => flow.step = Step::Preview(Box::new(Preview::new(*plan))),
            Err(e) => {
                flow.step = Step::Source;
                self.set_status(e, true);
            }
        }
    }

    /// An install's result, said even when its flow was closed meanwhile; a newer flow stays
    /// open.
    pub(super) fn on_add_installed(&mut self, id: u64, done: Result<Vec<String>, String>) {
        if self.adding().is_some_and(|f| f.id == id) {
            self.overlay = None;
        }
        match done {
            Ok(names) => {
                let text = format!("added {} to {}", names.join(", "), self.add_target_label());
                self.set_status(text, false);
                self.request_rescan();
            }
            Err(e) => self.set_status(e, true),
        }
    }

    pub(super) fn ask_remove(&mut self) {
        let Some(i) = self.screens.skills.list.selected_skill() else {
            return;
        };
        let Some(s) = self.lib.skills.get(i) else {
            return;
        };
        if *s.root == *s.dir {
            self.set_status(
                "a folder given on the command line is not removed from here",
                true,
            );
            return;
        }
        let refs = match self.home_and_project() {
            Some((home, project)) => manage::settings::references(
                &s.name,
                &s.dir,
                &home,
                project.as_deref(),
            )
            .iter()
            .map(|r| {
                format!(
                    "named in {}: {} (left as it is; skillscope remove --clean-settings cleans it)",
                    crate::core::agents::show_path(&r.file, &home),
                    r.entries.join(", ")
                )
            })
            .collect(),
            None => Vec::new(),
        };
        self.overlay = Some(Overlay::Remove(Removal { skill: i, refs }));
    }

    fn remove_now(&mut self, i: usize) {
        let Some(s) = self.lib.skills.get(i) else {
            return;
        };
        let name = s.name.clone();
        let places: Vec<std::path::PathBuf> = s.linked.iter().map(|p| p.dir.clone()).collect();
        match manage::remove_skill(&self.manage.trash, &s.dir, &name, &places) {
            Ok(removed) => {
                self.manage.last_removed = Some(removed.entry);
                let said = match removed.problems.first() {
                    Some(p) => format!("{name} is in the trash ({p}); u puts it back"),
                    None => format!("{name} is in the trash; u puts it back"),
                };
                self.set_status(said, !removed.problems.is_empty());
                self.request_rescan();
            }
            Err(e) => self.set_status(e.to_string(), true),
        }
    }

    pub(super) fn undo_remove(&mut self) {
        let Some(e) = self.manage.last_removed.take() else {
            self.set_status("nothing removed to put back", false);
            return;
        };
        match manage::restore_skill(&self.manage.trash, &e) {
            Ok(back) => {
                match back.problems.first() {
                    Some(p) => self.set_status(format!("{} is back ({p})", e.name), true),
                    None => self.set_status(format!("{} is back", e.name), false),
                }
                self.request_rescan();
            }
            Err(err) => self.set_status(err.to_string(), true),
        }
    }

    /// Fetches the sources of every added skill on a worker: only when asked, never at start-up.
    pub(super) fn check_updates(&mut self) {
        let Some((home, project)) = self.home_and_project() else {
            return;
        };
        self.set_status("checking the sources of added skills …", false);
        let tx = self.tx.clone();
        let base = self.manage.data_dir.join("tmp");
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
    }

    pub(super) fn on_updates_checked(&mut self, r: Result<Vec<String>, String>) {
        match r {
            Ok(v) if v.is_empty() => {
                self.set_status("every added skill is as its source has it", false);
            }
            Ok(v) => self.set_status(
                format!("updates: {} (skillscope update applies them)", v.join(", ")),
                false,
            ),
            Err(e) => self.set_status(e, true),
        }
    }
}
