//! What a draw reads: a view of the app's shared state, built by the app for each frame
//! (`App::view`), with what the screens' draws need of one another's state (the agent in view,
//! the window, the Test box's message) copied in. A screen draws from its own state and this,
//! never from the app, so the screens sit below it.

use crate::core::Library;
use crate::core::agents::client::ClientModel;
use crate::core::agents::has_switches;
use crate::core::agents::view::Seen;
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::pricing::budget;
use crate::core::rules::Profile;
use crate::core::source::Agent;
use crate::core::tokens::{Encoding, SkillTokens};
use crate::tui::action::Screen;
use crate::tui::state::parts::{
    ConfigInfo, Findings, Footer, Keys, Models, Switches, Usage, VerifyInfo,
};
use crate::tui::state::work::{Counting, Embedding, PreviewJob, Rescan};
use crate::tui::theme::Theme;
use ratatui::layout::Rect;
use std::sync::Arc;

/// The shared state as a draw (or a question about it) reads it.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub theme: &'a Theme,
    pub lib: &'a Arc<Library>,
    /// The library's generation: 0 until the first scan is in.
    pub generation: u64,
    /// The screen shown.
    pub screen: Screen,
    /// Each skill's token figures per level, as far as counted.
    pub costs: &'a [SkillTokens],
    pub counting: &'a Counting,
    pub usage: &'a Usage,
    pub findings: &'a Findings,
    pub switches: &'a Switches,
    pub models: &'a Models,
    pub keys: &'a Keys,
    pub config: &'a ConfigInfo,
    pub preview: &'a PreviewJob,
    pub footer: &'a Footer,
    pub rescan: &'a Rescan,
    /// The encoding of every figure shown.
    pub encoding: Encoding,
    /// The terminal's size.
    pub size: Rect,
    pub ticks: u64,
    /// The agent every screen shows; `None` only for a library of folders given on the command
    /// line.
    pub agent: Option<Agent>,
    /// Whose view every screen shows: the agent, its model, the files open, the settings read.
    pub in_view: &'a crate::tui::state::in_view::InView,
    /// The listing format L1 is counted in (the Prompt screen's, by its place in `FORMATS`).
    pub format: usize,
    /// The context window of the preview, in tokens.
    pub window: u64,
    /// The model the agent in view runs, where its listing budget depends on it.
    pub client_model: Option<&'static ClientModel>,
    /// What `skillscope verify` found.
    pub verify: &'a VerifyInfo,
    /// The Test box's message.
    pub message: &'a str,
    /// The Test box can answer: the index it needs is in.
    pub test_ready: bool,
    /// The semantic matchers' vectors.
    pub embedding: &'a Embedding,
    /// The semantic columns wait for the answer to the message shown.
    pub meaning_pending: bool,
}

impl<'a> View<'a> {
    /// A library has arrived (the first scan is done).
    pub fn loaded(&self) -> bool {
        self.generation > 0
    }

    /// The agent every screen shows.
    pub fn view_agent(&self) -> Option<Agent> {
        self.agent
    }

    /// Which model the agent in view runs and where it was set, in words (`model
    /// claude-sonnet-4-5 (from ~/.claude/settings.json)`), where its budget depends on it: the
    /// one its settings set, else the one `m` chose.
    pub fn client_model_text(&self) -> Option<String> {
        let agent = self.view_agent()?;
        let m = crate::core::agents::model::model(agent);
        let client = m.client_in_use().filter(|c| c.catalogue.is_some())?;
        let cm = self.client_model?;
        let configured = self
            .in_view
            .settings()
            .configured(agent)
            .filter(|c| std::ptr::eq(c.resolved.model, cm));
        let text = match configured {
            Some(c) => {
                let mut text = c.describe(m.name, self.switches.home.as_deref());
                let newer = crate::core::agents::eras::known_from(agent, client.version, &c.name);
                if let Some(note) = c.unknown_note(m.name, client.version, newer) {
                    text = format!("{text}; {note}");
                }
                text
            }
            None => format!("model {} (chosen with m)", cm.id),
        };
        Some(crate::core::words::text::line(&text).into_owned())
    }

    /// The encoding of every figure shown.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The context window of the preview, in tokens.
    pub fn window(&self) -> u64 {
        self.window
    }

    /// `" ≈ 1,419 (claude)"` after a figure, when a model is chosen.
    pub fn beside(&self, tokens: u64) -> String {
        self.models.chosen.as_ref().map_or_else(String::new, |m| {
            format!(" {}", m.label(tokens, self.encoding))
        })
    }

    /// A skill's figures (nothing known for an index out of range).
    pub fn costs_of(&self, skill: usize) -> &'a SkillTokens {
        static UNKNOWN: SkillTokens = SkillTokens::UNKNOWN;
        self.costs.get(skill).unwrap_or(&UNKNOWN)
    }

    /// The profile a skill (by library index) is judged by: the one picked with `P`, else its
    /// agent's, as `check` and `list` judge it.
    pub fn profile_of(&self, skill: usize) -> Profile {
        let opts = crate::core::rules::CheckOptions {
            per_agent: self.findings.per_agent && !self.findings.chosen,
            profile: self.findings.profile,
            ..Default::default()
        };
        self.lib
            .skills
            .get(skill)
            .map_or(self.findings.profile, |s| opts.profile_of(s))
    }

    /// The label of the rules in use: the profile picked, else "per-agent".
    pub fn rules_label(&self) -> String {
        if self.findings.per_agent && !self.findings.chosen {
            "per-agent".to_string()
        } else {
            self.findings.profile.to_string()
        }
    }

    /// The diagnostics shown for a skill (by library index).
    pub fn diagnostics(&self, skill: usize) -> &'a [Diagnostic] {
        self.findings.diags.get(skill).map_or(&[], Vec::as_slice)
    }

    pub fn enabled_count(&self) -> usize {
        self.switches.on.iter().filter(|e| **e).count()
    }

    /// The L1 total of the skills an agent would list — switched on and not shadowed — and how
    /// many of them are still uncounted.
    pub fn enabled_l1(&self) -> (u64, usize) {
        let l1 = self.summary().l1;
        (l1.tokens, l1.pending)
    }

    /// The skills the agent in view lists: its own view (shadowing, conditions and switches
    /// applied); with no agent in view, every switched-on skill not shadowed.
    pub fn listed_mask(&self) -> Vec<bool> {
        if self.agent.is_some() {
            self.switches.on.clone()
        } else {
            let listed = budget::listed(self.lib, &self.switches.on);
            (0..self.lib.len()).map(listed).collect()
        }
    }

    /// The totals of the skills an agent would list, as far as counted.
    pub fn summary(&self) -> budget::Summary {
        let listed = self.listed_mask();
        let include = |i: usize| listed.get(i).copied().unwrap_or(false);
        budget::summarize(self.costs, &include, self.counting.done)
    }

    /// What the agent in view does with skill `i`; for an agent without switches of its own,
    /// skillscope's own switch decides whether a skill it reads is on. With no agent in view,
    /// skillscope's own switch alone.
    pub fn seen(&self, i: usize) -> Seen {
        let private = self.switches.enabled.get(i).copied().unwrap_or(false);
        match (self.agent, self.switches.seen.get(i)) {
            (Some(a), Some(s)) if s.listed() && !self.obeys_own_switches(a, i) && !private => {
                Seen::Off(format!(
                    "off in skillscope's own switches ({})",
                    self.why_private(a, i)
                ))
            }
            (Some(_), Some(s)) => s.clone(),
            _ if private => Seen::On,
            _ => Seen::Off("off in skillscope's own switches".to_string()),
        }
    }

    /// Whether `agent`'s own settings decide skill `i`: it has per-skill switches and the skill
    /// is installed in an agent's folder (folders named on the command line and the demo are
    /// no agent's: skillscope's own switch decides for them).
    pub fn obeys_own_switches(&self, agent: Agent, i: usize) -> bool {
        self.lib
            .skills
            .get(i)
            .is_some_and(|s| crate::core::agents::obeys_own_switches(agent, s))
    }

    /// Why skillscope's own switch decides skill `i` for `agent`.
    pub fn why_private(&self, agent: Agent, i: usize) -> String {
        let name = crate::core::agents::model::model(agent).name;
        if has_switches(agent) && !self.obeys_own_switches(agent, i) {
            "a folder given, which no agent's settings name".to_string()
        } else {
            format!("{name} has none of its own")
        }
    }
}
