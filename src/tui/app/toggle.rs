//! Switching skills: skillscope's own state, saved at once, and the write-through to the
//! agents' settings files after a confirmation that shows the exact diff.

use super::{App, Confirm, Overlay};
use crate::core::agents::view::Seen;
use crate::core::agents::{SwitchScope, TogglePlan, has_switches};
use crate::core::source::Agent;
use crate::core::state::EnableState;
use crate::tui::jobs;
use crate::tui::state::in_view::{AGENTS, ViewChange};
use std::path::PathBuf;

impl App {
    /// Reads skillscope's own state file; a bad one is kept aside by the state module and
    /// reported here.
    pub(super) fn load_state(&mut self, path: Option<PathBuf>) {
        match path {
            Some(path) => {
                let (st, diags) = EnableState::load(&path);
                if let Some(d) = diags.first() {
                    self.set_status(d.message.clone(), true);
                }
                self.switches.state = Some(st);
            }
            None => self.set_status(
                "no config folder: toggles are not saved (set SKILLSCOPE_CONFIG_DIR)",
                true,
            ),
        }
    }

    /// Changes whose view every screen shows, and carries out what follows from the change
    /// ([`Follows`](crate::tui::state::in_view::Follows)): the Prompt screen's format and every
    /// L1 for another agent, what the agent does with each skill, the Test box, the preview and
    /// every agent's prices.
    pub fn set_view(&mut self, change: ViewChange) {
        let follows = self.in_view.change(change);
        if follows.agent {
            self.screens.prompt.follow_agent(self.in_view.agent());
        }
        if follows.seen {
            self.refresh_seen();
        }
        if follows.agent {
            self.recount_l1();
        }
        if follows.matchers {
            self.run_matchers();
        }
        if follows.listing {
            self.request_preview();
        }
    }

    /// Views the next agent: the list's switches, the Prompt, Test and Budget screens follow.
    pub(super) fn cycle_view_agent(&mut self) {
        let every = !self.findings.per_agent;
        let roots = &self.lib.roots;
        let offered = |a: Agent| crate::core::agents::model::offered_unasked(a, roots);
        let next = self.in_view.next_agent(every, &offered);
        self.set_view(ViewChange::Agent(next));
        if let Some(a) = self.in_view.agent() {
            let m = crate::core::agents::model::model(a);
            let own = if a == Agent::LazySkills {
                "space: the skill's own auto_load"
            } else if has_switches(a) {
                "space: its own settings"
            } else {
                "space: skillscope's switches (it has none)"
            };
            self.set_status(format!("viewing {}; {own}", m.name), false);
        }
    }

    /// A library of the agents' own folders is seen through one agent: the first of them that
    /// reads a skill of it, unless one is in view already.
    pub(super) fn choose_view_agent(&mut self) {
        if !self.findings.per_agent || self.in_view.agent().is_some() {
            return;
        }
        let readers: std::collections::HashSet<Agent> = self
            .lib
            .skills
            .iter()
            .flat_map(crate::core::agents::model::readers)
            .collect();
        let roots = &self.lib.roots;
        let first = AGENTS
            .iter()
            .flatten()
            .find(|&&a| {
                readers.contains(&a) && crate::core::agents::model::offered_unasked(a, roots)
            })
            .or_else(|| AGENTS.iter().flatten().next())
            .copied();
        if let Some(a) = first {
            // The new library's own start works out everything that follows.
            let _ = self.in_view.change(ViewChange::Agent(Some(a)));
            self.screens.prompt.follow_agent(Some(a));
        }
    }

    /// Works out again what the agent in view does with each skill (after a new library, a new
    /// reading of the settings files, another agent or other open files).
    pub(super) fn refresh_seen(&mut self) {
        self.switches.seen = match self.in_view.agent() {
            Some(a) => crate::core::agents::view::seen(
                &self.lib,
                a,
                self.in_view.files(),
                self.switches.agents.as_deref(),
            ),
            None => Vec::new(),
        };
        self.refresh_on();
    }

    /// Works out again which skills the agent in view lists (after a switch changed).
    pub(super) fn refresh_on(&mut self) {
        let view = self.view();
        let on = (0..self.lib.len()).map(|i| view.seen(i).listed()).collect();
        self.switches.on = on;
    }

    /// Switches the selected skill for the agent in view: in that agent's own settings file
    /// (after a confirmation showing the exact change) when it has per-skill switches, else in
    /// skillscope's own state, saved at once and labelled as such.
    pub(super) fn toggle_selected(&mut self) {
        let Some(i) = self.screens.skills.list.selected_skill() else {
            return;
        };
        match self.in_view.agent() {
            Some(a) if self.view().obeys_own_switches(a, i) => self.plan_view_toggle(i, a),
            Some(a) if matches!(self.view().seen(i), Seen::NotRead) => {
                let name = crate::core::agents::model::model(a).name;
                self.set_status(
                    format!("{name} does not read this folder (v: another agent)"),
                    true,
                );
            }
            _ => self.toggle_private(i),
        }
    }

    /// The switch of skill `i` in the viewed agent's own settings, shown before it is written.
    fn plan_view_toggle(&mut self, i: usize, agent: Agent) {
        let Some(switches) = self.switches.agents.clone() else {
            self.set_status("the agents' settings are still being read", true);
            return;
        };
        let Some(skill) = self.lib.skills.get(i) else {
            return;
        };
        let name = crate::core::agents::model::model(agent).name;
        // Lazy Skills' switch is in the skill's own file, whatever folder it is in.
        if agent != Agent::LazySkills && !switches.readers(skill).contains(&agent) {
            self.set_status(
                format!("{name} does not read this folder (v: another agent)"),
                true,
            );
            return;
        }
        let on = !self.switches.is_on(i);
        let plan = if switches.installed(agent) {
            switches
                .plan(skill, agent, SwitchScope::User, on)
                .map_err(|e| e.to_string())
        } else {
            Err(crate::core::agents::ToggleError::NotInstalled { agent }.to_string())
        };
        self.overlay = Some(Overlay::Confirm(Confirm {
            skill: i,
            on,
            scope: SwitchScope::User,
            plans: vec![(agent, plan)],
            scroll: 0,
        }));
    }

    /// Switches skill `i` in skillscope's own state and saves at once: what an agent without
    /// per-skill switches is shown with.
    fn toggle_private(&mut self, i: usize) {
        let Some(skill) = self.lib.skills.get(i) else {
            return;
        };
        let on = !self.switches.enabled.get(i).copied().unwrap_or(false);
        let name = skill.name.clone();
        let word = if on { "on" } else { "off" };
        let saved = match &mut self.switches.state {
            Some(st) => {
                st.set(skill, on);
                st.save().map_err(|e| e.to_string())
            }
            None => Err("no configuration folder: not saved".to_string()),
        };
        if let Some(e) = self.switches.enabled.get_mut(i) {
            *e = on;
        }
        self.refresh_on();
        self.run_matchers();
        self.request_preview();
        // Why skillscope's switch decides is in the row's state; the message stays short.
        let whose = " in skillscope's own switches";
        match saved {
            Ok(()) => self.set_status(format!("{name} switched {word}{whose}"), false),
            Err(e) => self.set_status(
                format!("{name} switched {word}{whose}, this session only: {e}"),
                true,
            ),
        }
    }

    /// Prepares the write-through of the selected skill to every agent that reads its folder:
    /// off when any of them loads it now, else on. Nothing is written before the user says yes.
    pub(super) fn plan_agent_toggle(&mut self, scope: SwitchScope, on: Option<bool>) {
        let Some(i) = self.screens.skills.list.selected_skill() else {
            return;
        };
        let Some(switches) = self.switches.agents.clone() else {
            self.set_status("the agents' settings are still being read", true);
            return;
        };
        let skill = &self.lib.skills[i];
        let on = on.unwrap_or_else(|| {
            !switches
                .badges(skill)
                .iter()
                .any(crate::core::agents::Badge::loads)
        });
        let plans: Vec<(Agent, Result<TogglePlan, String>)> = switches
            .plan_readers(skill, scope, on)
            .into_iter()
            .map(|(a, p)| (a, p.map_err(|e| e.to_string())))
            .collect();
        if plans.is_empty() {
            let dir = skill.dir.display().to_string();
            self.set_status(
                format!("no agent with per-skill switches reads {dir}"),
                true,
            );
            return;
        }
        self.overlay = Some(Overlay::Confirm(Confirm {
            skill: i,
            on,
            scope,
            plans,
            scroll: 0,
        }));
    }

    /// Writes every planned change (each file atomically, with a backup), then reads the
    /// agents' settings again.
    pub(super) fn apply_agent_toggle(&mut self) {
        let c = match self.overlay.take() {
            Some(Overlay::Confirm(c)) => c,
            other => {
                self.overlay = other;
                return;
            }
        };
        let mut written = Vec::new();
        // Only a file that existed has a backup: a new settings file has nothing to keep.
        let mut backed_up = 0;
        let mut failed = Vec::new();
        let switches = self.switches.agents.clone();
        let skill = self.lib.skills.get(c.skill);
        for (agent, plan) in &c.plans {
            let Ok(plan) = plan else {
                continue;
            };
            if plan.changes_nothing() {
                continue;
            }
            let (Some(switches), Some(skill)) = (&switches, skill) else {
                failed.push(
                    "the agents' settings are being read again; nothing was written".to_string(),
                );
                break;
            };
            match switches.apply(skill, plan) {
                Ok((_, a)) if a.written => {
                    written.push(agent.as_str());
                    backed_up += usize::from(a.backup.is_some());
                }
                Ok(_) => {}
                Err(e) => failed.push(e.to_string()),
            }
        }
        let name = self
            .lib
            .skills
            .get(c.skill)
            .map_or("", |s| s.name.as_str())
            .to_string();
        let word = if c.on { "on" } else { "off" };
        if let Some(e) = failed.first() {
            self.set_status(e.clone(), true);
        } else if written.is_empty() {
            self.set_status(format!("{name}: nothing to change"), false);
        } else {
            let kept = match backed_up {
                0 => "",
                1 => " (backup kept)",
                _ => " (backups kept)",
            };
            self.set_status(
                format!("{name} switched {word} for {}{kept}", written.join(", ")),
                false,
            );
        }
        jobs::load_switches(self.switches.home.clone(), self.tx.clone());
    }
}
