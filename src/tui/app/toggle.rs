//! Switching skills: skillscope's own state, saved at once, and the write-through to the
//! agents' settings files after a confirmation that shows the exact diff.

use super::{App, Confirm, Overlay};
use crate::core::agents::{SwitchScope, TogglePlan};
use crate::core::source::Agent;
use crate::core::state::EnableState;
use crate::tui::jobs;
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
                "no configuration folder on this system: toggles are not saved (set SKILLSCOPE_CONFIG_DIR)",
                true,
            ),
        }
    }

    /// Switches the selected skill in skillscope's own state and saves at once.
    pub(super) fn toggle_selected(&mut self) {
        let Some(i) = self.screens.skills.list.selected_skill() else {
            return;
        };
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
        self.run_matchers();
        self.request_preview();
        match saved {
            Ok(()) => self.set_status(format!("{name} switched {word}"), false),
            Err(e) => self.set_status(
                format!("{name} switched {word} for this session only: {e}"),
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
