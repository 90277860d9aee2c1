//! Each agent's listing of a library, priced: what one turn costs every agent modelled, each in
//! its own view (the folders it reads, its precedence and fallbacks), its own listing format and
//! its own budget.

use super::client::{BudgetOverrides, ClientModel};
use super::model::models;
use super::switches::AgentSwitches;
use super::view::agent_view;
use crate::core::library::Library;
use crate::core::listing::{self, Budget, Fate, Tier};
use crate::core::source::{Agent, Scope};
use crate::core::tokens::{self, Encoding, TokenCache};

/// What one agent's listing holds and costs per turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentBudget {
    /// The agent whose listing this is.
    pub agent: Agent,
    /// Skills the agent reads (its view), switched on or not.
    pub skills: usize,
    /// Entries in its listing (offered and not dropped).
    pub listed: usize,
    /// Entries listed whole.
    pub full: usize,
    /// Entries whose description was shortened for the budget.
    pub trimmed: usize,
    /// Entries listed by name only (for the budget, or by the agent's own switch).
    pub name_only: usize,
    /// Entries left out of its listing for the budget.
    pub dropped: usize,
    /// The context window it was priced for, in tokens (its client model's, where its budget
    /// depends on the model).
    pub window: usize,
    /// Tokens of its listing, every turn.
    pub tokens: u32,
    /// Its budget, for agents that limit their listing.
    pub budget: Option<Budget>,
    /// What the budget is charged with, in its unit.
    pub used: usize,
    /// What the client adds to the listing of its own accord, within [`AgentBudget::tokens`].
    pub builtins: Supplied,
    /// The skill tool its client declares beside the listing every turn, if it has one.
    pub tool: Option<ToolCost>,
}

/// The entries a client lists whatever the library holds — its built-in skills, and the system
/// skills it installs itself (Codex's `~/.codex/skills/.system`) — and what they add to its
/// listing every turn: the listing's tokens with them less its tokens without them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Supplied {
    /// How many of its entries the client supplied (listed, not dropped).
    pub entries: usize,
    /// The tokens they add to the listing.
    pub tokens: u32,
}

/// A skill tool's definition and what it costs every turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCost {
    /// The tool's name (`Skill`, `activate_skill`, `skill`).
    pub name: &'static str,
    /// Its definition's tokens.
    pub tokens: u32,
    /// Its definition's length, in characters of compact JSON.
    pub chars: usize,
    /// The listing is inside the definition (Cline's names at the end of its description), not
    /// beside it.
    pub holds_listing: bool,
}

/// What the client supplies in `listing` (rendered from `view` with `on` and `opts`, costing
/// `tokens`): its built-in entries and system skills, priced as the difference they make.
pub fn supplied(
    view: &Library,
    on: &dyn Fn(usize) -> bool,
    opts: &listing::ListingOptions,
    listed: (&listing::Listing, u32),
    enc: Encoding,
    cache: &TokenCache,
) -> Supplied {
    let (l, tokens) = listed;
    let system = |i: usize| view.skills.get(i).is_some_and(|s| s.scope == Scope::System);
    let entries = l
        .builtins
        .iter()
        .filter(|b| b.fate != Fate::Dropped)
        .count()
        + l.entries
            .iter()
            .filter(|e| e.fate != Fate::Dropped && system(e.index))
            .count();
    if entries == 0 {
        return Supplied::default();
    }
    let bare = listing::ListingOptions {
        builtins: &[],
        ..*opts
    };
    let without = listing::render(view, &|i| on(i) && !system(i), &bare);
    let rest = if without.text.is_empty() {
        0
    } else {
        tokens::count_listing(view, &without.text, enc, cache)
    };
    Supplied {
        entries,
        tokens: tokens.saturating_sub(rest),
    }
}

/// The skill tool `agent`'s client declares beside a listing naming `names` when it runs
/// `model` (its default when `None`), priced in `enc`.
pub fn tool_cost(
    agent: Agent,
    names: &[String],
    model: Option<&str>,
    enc: Encoding,
    cache: &TokenCache,
) -> Option<ToolCost> {
    super::tools::definition(agent, names, model).map(|d| ToolCost {
        name: d.name,
        tokens: tokens::count_text(&d.json, enc, cache),
        chars: d.json.chars().count(),
        holds_listing: d.holds_listing,
    })
}

impl AgentBudget {
    /// The listing's share of a context window of `window` tokens.
    pub fn window_share(&self, window: u64) -> f64 {
        if window == 0 {
            return 0.0;
        }
        f64::from(self.tokens) / window as f64
    }

    /// Entries shortened or left out for the budget (trimmed, name only, dropped).
    pub fn cut(&self) -> usize {
        self.trimmed + self.name_only + self.dropped
    }

    /// Its fates in words: `12 full, 3 trimmed, 0 name only, 1 dropped`.
    pub fn fates(&self) -> String {
        format!(
            "{} full, {} trimmed, {} name only, {} dropped",
            self.full, self.trimmed, self.name_only, self.dropped
        )
    }

    /// Everything the agent adds every turn: its listing (built-ins included) and its skill
    /// tool's definition.
    pub fn per_turn(&self) -> u32 {
        match &self.tool {
            // Cline's listing is inside its tool's description: counted once.
            Some(t) if t.holds_listing => t.tokens,
            Some(t) => self.tokens + t.tokens,
            None => self.tokens,
        }
    }

    /// The listing's share of its budget, for agents that have one.
    pub fn budget_share(&self) -> Option<f64> {
        self.budget
            .filter(|b| b.limit > 0)
            .map(|b| self.used as f64 / b.limit as f64)
    }
}

/// What the agents' listings are priced at: a tier, a context window, and the model chosen for
/// the agents whose budget depends on their client's model (the others run their default).
#[derive(Debug, Clone)]
pub struct At {
    /// How much of each entry is listed.
    pub tier: Tier,
    /// The context window in tokens, for the agents whose budget does not follow a model.
    pub window: usize,
    /// Agents' client models, chosen (or set in their settings) instead of their defaults.
    pub chosen: Vec<(Agent, &'static ClientModel)>,
}

impl At {
    /// At `tier` and `window`, every client on its default model.
    pub fn new(tier: Tier, window: usize) -> At {
        At {
            tier,
            window,
            chosen: Vec::new(),
        }
    }
}

/// Every modelled agent's listing of `lib` with the skills `enabled` switches on (by library
/// index), at `at`'s tier for its context window (an agent whose budget depends on its client's
/// model: that model's window, the default's unless `at` chose one), counted in `enc`.
pub fn per_agent(
    lib: &Library,
    switches: Option<&AgentSwitches>,
    enabled: &dyn Fn(usize) -> bool,
    at: At,
    enc: Encoding,
    cache: &TokenCache,
) -> Vec<AgentBudget> {
    let (tier, window) = (at.tier, at.window);
    let chosen_for = |a: Agent| at.chosen.iter().find(|(x, _)| *x == a).map(|(_, cm)| *cm);
    models()
        .map(|m| {
            let chosen = chosen_for(m.agent);
            let (view, keep) = agent_view(lib, m.agent, &[], switches);
            // An agent whose budget depends on its client's model is priced on that model's own
            // window; `window` is the others'.
            let opts = m.listing_options(
                m.format,
                tier,
                m.client
                    .is_none_or(|c| c.models.is_empty())
                    .then_some(window),
                chosen,
                &BudgetOverrides::default(),
            );
            // A client's built-ins located in its install folder are priced as installed in
            // its default folder, so that the figures do not depend on this machine's PATH.
            let opts = listing::ListingOptions {
                client_dir: m
                    .client
                    .and_then(|c| c.install)
                    .map(|i| std::path::Path::new(i.default_dir)),
                ..opts
            };
            // An agent with switches of its own obeys only those, applied in its view.
            let on = |i: usize| {
                keep.get(i).is_some_and(|&k| {
                    super::own_switch(m.agent, &lib.skills[k]).unwrap_or_else(|| enabled(k))
                })
            };
            let l = listing::render(&view, &on, &opts);
            let tokens = if l.text.is_empty() {
                0
            } else {
                tokens::count_listing(&view, &l.text, enc, cache)
            };
            let builtins = supplied(&view, &on, &opts, (&l, tokens), enc, cache);
            let runs = chosen.or_else(|| {
                m.client_in_use()
                    .and_then(super::client::Client::default_model)
            });
            let tool = tool_cost(m.agent, &l.names, runs.map(|cm| cm.id), enc, cache);
            AgentBudget {
                agent: m.agent,
                skills: keep.len(),
                listed: l.entries.len() - l.count(Fate::Dropped),
                full: l.count(Fate::Full),
                trimmed: l.count(Fate::Trimmed),
                name_only: l.count(Fate::NameOnly),
                dropped: l.count(Fate::Dropped),
                window: opts.context_window,
                tokens,
                budget: l.budget,
                used: l.used,
                builtins,
                tool,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Root, Scope};

    fn skill(root: &std::path::Path, name: &str, desc: &str) {
        let d = root.join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {desc}\n---\nBody.\n"),
        )
        .unwrap();
    }

    #[test]
    fn each_agent_lists_its_own_skills_in_its_own_format() {
        let home = tempfile::tempdir().unwrap();
        let claude = home.path().join(".claude/skills");
        let codex = home.path().join(".codex/skills");
        skill(&claude, "alpha", "Alpha things. Use when alpha comes up.");
        skill(&claude, "beta", "Beta things. Use when beta comes up.");
        skill(&codex, "gamma", "Gamma things. Use when gamma comes up.");
        let lib = Library::load(
            vec![
                Root::new(&claude, Agent::ClaudeCode, Scope::User),
                Root::new(&codex, Agent::Codex, Scope::User),
            ],
            &ScanOptions::default(),
        );
        let cache = TokenCache::in_memory();
        let all = per_agent(
            &lib,
            None,
            &|_| true,
            At::new(Tier::Auto, 200_000),
            Encoding::default(),
            &cache,
        );
        assert_eq!(all.len(), models().count());
        let get = |a: Agent| all.iter().find(|b| b.agent == a).unwrap();
        // Claude Code reads its folder (opencode and Goose read it too); Codex its own.
        assert_eq!(
            (get(Agent::ClaudeCode).skills, get(Agent::ClaudeCode).listed),
            (2, 2)
        );
        assert_eq!((get(Agent::Codex).skills, get(Agent::Codex).listed), (1, 1));
        assert_eq!(get(Agent::Opencode).skills, 2);
        assert_eq!(get(Agent::LazySkills).skills, 0);
        assert_eq!(get(Agent::LazySkills).tokens, 0);
        // Claude Code's budget is 1% of its default model's window (Opus 5.5: 1,000,000 tokens),
        // in characters (3 per token).
        assert_eq!(get(Agent::ClaudeCode).budget, Some(Budget::chars(30_000)));
        // Its 13 built-in entries take about a fifth of it.
        let share = get(Agent::ClaudeCode).budget_share().unwrap();
        assert!((0.2..0.25).contains(&share), "{share}");
        assert_eq!(get(Agent::Opencode).budget, None);
        assert!(get(Agent::ClaudeCode).tokens > get(Agent::Codex).tokens / 3);
        // A skill switched off in Claude Code's own settings leaves Claude Code's listing…
        std::fs::write(
            home.path().join(".claude/settings.json"),
            r#"{"skillOverrides": {"alpha": "off"}}"#,
        )
        .unwrap();
        let (switches, diags) = crate::core::agents::AgentSwitches::load(home.path(), None);
        assert!(diags.is_empty(), "{diags:?}");
        let off = per_agent(
            &lib,
            Some(&switches),
            &|_| true,
            At::new(Tier::Auto, 200_000),
            Encoding::default(),
            &cache,
        );
        let c = off.iter().find(|b| b.agent == Agent::ClaudeCode).unwrap();
        assert_eq!((c.skills, c.listed), (2, 1));
        assert!(c.tokens < get(Agent::ClaudeCode).tokens);
        // …while skillscope's own store switches nothing for an agent that has switches.
        let own = per_agent(
            &lib,
            None,
            &|i| lib.skills[i].name != "alpha",
            At::new(Tier::Auto, 200_000),
            Encoding::default(),
            &cache,
        );
        let c = own.iter().find(|b| b.agent == Agent::ClaudeCode).unwrap();
        assert_eq!((c.skills, c.listed), (2, 2));
        // Claude Code's and Codex's budgets follow their models, not the window: Codex's is 2% of
        // gpt-6.2-sol's 500,000 tokens, in its own token estimate.
        let tight = per_agent(
            &lib,
            None,
            &|_| true,
            At::new(Tier::Auto, 1_000),
            Encoding::default(),
            &cache,
        );
        let c = tight.iter().find(|b| b.agent == Agent::Codex).unwrap();
        assert_eq!(c.budget, Some(Budget::tokens(10_000)));
        assert_eq!((c.cut(), c.dropped), (0, 0), "{c:?}");
        assert_eq!(c.full + c.trimmed + c.name_only, c.listed, "{c:?}");
        let c = tight.iter().find(|b| b.agent == Agent::ClaudeCode).unwrap();
        assert_eq!(c.budget, Some(Budget::chars(30_000)));
    }
}
