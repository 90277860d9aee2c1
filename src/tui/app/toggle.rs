//! Switching skills: skillscope's own state, saved at once, and the write-through to the
//! agents' settings files after a confirmation that shows the exact diff.

use super::{App, Confirm, Overlay};
use crate::core::agents::view::Seen;
use crate::core::agents::{SwitchScope, has_switches};
use crate::core::source::Agent;
use crate::tui::state::in_view::ViewChange;

impl App {
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
            let own = if a.home().frontmatter_switch.is_some() {
                "space: the skill's own auto_load"
            } else if has_switches(a) {
                "space: its own settings"
            } else {
                "space: skillscope's switches (it has none)"
            };
            self.set_status(format!("viewing {}; {own}", m.name), false);
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
            Some(a) if self.view().obeys_own_switches(a, i) => {
                let (lib, on) = (&self.lib, !self.switches.is_on(i));
                match Confirm::for_view(lib, i, a, self.switches.agents.as_deref(), on) {
                    Ok(Some(c)) => self.overlay = Some(Overlay::Confirm(c)),
                    Ok(None) => {}
                    Err(e) => self.set_status(e, true),
                }
            }
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
        match Confirm::for_readers(&self.lib, i, &switches, scope, on) {
            Ok(c) => self.overlay = Some(Overlay::Confirm(c)),
            Err(e) => self.set_status(e, true),
        }
    }
}
