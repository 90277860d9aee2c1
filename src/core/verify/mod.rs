//! `skillscope verify`: the user's own client as the oracle. The installed client runs once,
//! sandboxed (fresh namespaces, no network but its own loopback, a private home holding
//! read-only views of the user's skill folders and settings), against a mock of its model API
//! ([`mock`]) that answers "ok"; the listing is cut out of the request it sent ([`extract`]) and
//! compared with skillscope's prediction. Nothing of the user's is written, no model is called.

pub mod calibrate;
pub mod choice;
pub(crate) mod clients;
pub(crate) mod extract;
pub(crate) mod mock;
mod run;
mod stage;
pub mod store;

pub use clients::{Client, Installed, Wire, agents, client};

pub use run::{
    Plan, Setup, VerifyError, as_run, first_start_hint, passed_variables, plan, run, untrusted_note,
};
pub use stage::{STAGE_ARG, StageReport, stage};

use serde::Serialize;

pub use clients::version_in;

/// The comparison of the client's listing with skillscope's.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// Byte for byte the same.
    pub identical: bool,
    /// The client's listing's tokens and skillscope's (o200k_base).
    pub client_tokens: u32,
    /// skillscope's listing's tokens.
    pub predicted_tokens: u32,
    /// The first line that differs (1-based), when one does.
    pub first_difference: Option<usize>,
    /// A unified diff, client first ("" when identical).
    pub diff: String,
    /// When the listings differ only where the client decides as it runs (the order of a
    /// folder's entries, which copy of a name it keeps): the entries it placed or picked
    /// otherwise, by name ([`choice::own_choice`]).
    pub own_choice: Option<Vec<String>>,
}

impl Comparison {
    /// Nothing differs but what the client chooses itself.
    pub fn holds(&self) -> bool {
        self.identical || self.own_choice.is_some()
    }
}

/// Compares `real` (the client's listing) with `predicted`.
pub fn compare(real: &str, predicted: &str, label: &str) -> Comparison {
    let cache = crate::core::tokens::TokenCache::in_memory();
    let count = |t: &str| {
        crate::core::tokens::count_text(t, crate::core::tokens::Encoding::O200kBase, &cache)
    };
    let identical = real == predicted;
    let first_difference = (!identical).then(|| {
        let (a, b): (Vec<&str>, Vec<&str>) =
            (real.split('\n').collect(), predicted.split('\n').collect());
        (0..a.len().max(b.len()))
            .find(|&i| a.get(i) != b.get(i))
            .map_or(1, |i| i + 1)
    });
    let diff = if identical {
        String::new()
    } else {
        similar::TextDiff::from_lines(real, predicted)
            .unified_diff()
            .context_radius(3)
            .header(label, "skillscope")
            .to_string()
    };
    Comparison {
        identical,
        client_tokens: count(real),
        predicted_tokens: count(predicted),
        first_difference,
        diff,
        own_choice: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::source::Agent;

    #[test]
    fn versions_are_read_from_what_clients_print() {
        assert_eq!(
            version_in("2.1.332 (Claude Code)").as_deref(),
            Some("2.1.332")
        );
        assert_eq!(version_in("codex-cli 0.171.0").as_deref(), Some("0.171.0"));
        assert_eq!(version_in("v1.2.3\n").as_deref(), Some("1.2.3"));
        assert_eq!(version_in("no version"), None);
        assert_eq!(
            version_in("GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check.").as_deref(),
            Some("1.0.102")
        );
        // What follows the version in the same word (a terminal escape) is not part of it.
        assert_eq!(
            version_in("2.1.332\x1b]52;c;aGk=\x07 (Claude Code)").as_deref(),
            Some("2.1.332")
        );
        assert_eq!(version_in("\x1b[2J9.9\x1b]0;t\x07"), None);
    }

    #[test]
    fn the_note_names_both_versions_only_when_they_differ() {
        let c = client(Agent::ClaudeCode).unwrap();
        let modelled = c.modelled().unwrap();
        assert_eq!(c.version_note(modelled), None);
        assert_eq!(
            c.version_note("9.9.9").unwrap(),
            format!("modelled on Claude Code {modelled}; installed 9.9.9")
        );
    }

    #[test]
    fn a_difference_names_its_first_line_and_both_counts() {
        let c = compare("a\nb\nc", "a\nB\nc", "claude");
        assert!(!c.identical);
        assert_eq!(c.first_difference, Some(2));
        assert!(c.diff.contains("-b\n+B"), "{}", c.diff);
        let same = compare("a\nb", "a\nb", "claude");
        assert!(same.identical && same.diff.is_empty());
        assert_eq!(same.client_tokens, same.predicted_tokens);
    }
}
