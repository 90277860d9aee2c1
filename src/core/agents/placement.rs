//! Where each client puts its listing in what it sends the model, as captured
//! (`tests/fixtures/agents/<client>@<version>/*/placement.json`; the rules are in
//! `tests/fixtures/agents/FINDINGS.md`, "Placement").

use crate::core::source::Agent;
use serde::Serialize;

/// Where a listing sits in a client's request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// The role of the message (or the field) that carries it.
    pub role: &'static str,
    /// Where in the request, as the capture found it.
    pub location: &'static str,
    /// What surrounds it there.
    pub wrapper: &'static str,
    /// How often it is sent.
    pub sent: &'static str,
}

/// Where `agent`'s client puts its listing when it runs `model` (its default when `None`), for
/// the clients whose requests were captured.
pub fn placement(agent: Agent, model: Option<&str>) -> Option<Placement> {
    (agent.home().placement)(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_places_its_listing_by_model() {
        assert_eq!(
            placement(Agent::ClaudeCode, None).map(|p| p.role),
            Some("system")
        );
        assert_eq!(
            placement(Agent::ClaudeCode, Some("claude-sonnet-4-5")).map(|p| p.role),
            Some("user")
        );
        assert_eq!(
            placement(Agent::Codex, None).map(|p| p.role),
            Some("developer")
        );
        for (agent, role) in [
            (Agent::QwenCode, "user"),
            (Agent::Copilot, "system"),
            (Agent::Cline, "tool"),
            (Agent::Openclaw, "system"),
        ] {
            assert_eq!(placement(agent, None).map(|p| p.role), Some(role));
        }
        assert_eq!(placement(Agent::Goose, None), None);
    }
}
