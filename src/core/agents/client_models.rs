//! What a client's model catalogue is made of, for the clients whose listing budget depends on
//! the model: every model the client release knows, with the numbers its budget is made of
//! (context window, characters per token), the names it takes for them (aliases, dated ids) and
//! what it does with a model it does not know. Each client's catalogues, one per release era,
//! live in its home (`claude/models.rs`, `codex/models.rs`), read from the releases themselves by
//! `scripts/client-catalogue.py`:
//!
//! - Claude Code: the model catalogue baked into its code (`models`, `aliases`, `best`), its
//!   context-window function (a model's `context.window`; a known one without a window: 200,000;
//!   `[1m]` after a model that takes it: 1,000,000; a model it does not know: 200,000 before
//!   2.1.332, 1,000,000 from it on, and 1,000,000 in every release when its name holds `[1m]`)
//!   and its set of older models it takes 4 characters a token for
//!   (every other model 3);
//! - Codex: the `models` list its binary embeds (`slug`, `context_window`, `priority`,
//!   `include_skills_usage_instructions`); a model not in it runs on its fallback metadata (a
//!   window of 272,000 tokens, no usage instructions), as `budget150-configured` shows for
//!   `gpt-5.1-codex` on 0.171.0.

/// One model an agent's client runs, as its listing budget sees it.
#[derive(Debug, PartialEq, Eq)]
pub struct ClientModel {
    /// Its id, as the client's `--model` takes it.
    pub id: &'static str,
    /// Its name for people.
    pub name: &'static str,
    /// Its context window in tokens, as the client takes it.
    pub context_window: usize,
    /// How many characters the client takes a token for when it makes the window a budget.
    pub chars_per_token: usize,
    /// The family whose token estimate fits it (`core::pricing::model::PRESETS`).
    pub family: &'static str,
    /// Its client sends a section on how to use skills with the listing (Codex: the model's
    /// `include_skills_usage_instructions`, its "How to use skills").
    pub skills_usage: bool,
}

impl ClientModel {
    /// The same model, sent the client's "How to use skills" section with its listing.
    pub(crate) const fn with_skills_usage(self) -> ClientModel {
        ClientModel {
            skills_usage: true,
            ..self
        }
    }
}

/// What a client takes for the names of its models, and what it does with one it does not know.
#[derive(Debug)]
pub struct Catalogue {
    /// Other names for a model: an alias (`sonnet`) or a dated id, and the model id it means.
    pub aliases: &'static [(&'static str, &'static str)],
    /// A suffix that asks for another window (Claude Code's `[1m]`): the model `ID` written with
    /// it is the catalogue's `ID[1m]` entry where there is one, else the model itself (already
    /// that large).
    pub suffix: Option<&'static str>,
    /// The model the client budgets for when it does not know the one named.
    pub fallback: &'static ClientModel,
    /// What it budgets for a name holding the suffix when it does not know the model: Claude
    /// Code's context-window function tests the name for `[1m]` before anything else and gives
    /// any such name 1,000,000 tokens, a model it does not know too (at its fallback's
    /// characters per token). `None`: the fallback, suffix or not.
    pub suffixed: Option<&'static ClientModel>,
    /// The most a model named for the client (its `--model`, settings or environment) gets
    /// without the suffix: Claude Code before 2.1.290 gives a model its million only as its
    /// default, when nothing names one, or written `ID[1m]`; named, 200,000 (measured with
    /// `verify --model`). `None`: the model's own window.
    pub named_window: Option<usize>,
}

pub(crate) const fn claude(
    id: &'static str,
    name: &'static str,
    context_window: usize,
    chars_per_token: usize,
) -> ClientModel {
    ClientModel {
        id,
        name,
        context_window,
        chars_per_token,
        family: "claude",
        skills_usage: false,
    }
}

pub(crate) const fn gpt(
    id: &'static str,
    name: &'static str,
    context_window: usize,
) -> ClientModel {
    ClientModel {
        id,
        name,
        context_window,
        chars_per_token: 4,
        family: "gpt-4o",
        skills_usage: false,
    }
}

#[cfg(test)]
mod tests {
    use crate::core::agents::eras::eras;
    use crate::core::source::Agent;

    #[test]
    fn every_alias_names_a_model_of_its_catalogue() {
        for era in eras(Agent::ClaudeCode).iter().chain(eras(Agent::Codex)) {
            let (models, cat) = (era.client.models, era.client.catalogue.unwrap());
            let v = era.client.version;
            for (alias, id) in cat.aliases {
                assert!(models.iter().any(|m| m.id == *id), "{v}: {alias} → {id}");
                assert!(
                    !models.iter().any(|m| m.id == *alias),
                    "{v}: {alias} is a model"
                );
            }
            let mut ids: Vec<&str> = models.iter().map(|m| m.id).collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), models.len(), "{v}: a model listed twice");
            assert!(models.iter().all(|m| m.context_window > 0));
            assert!(cat.fallback.context_window > 0);
            // Each `[1m]` entry is a model of the catalogue with a window of a million.
            for m in models {
                if let Some(base) = m.id.strip_suffix("[1m]") {
                    let b = models.iter().find(|x| x.id == base);
                    assert_eq!(b.map(|b| b.chars_per_token), Some(m.chars_per_token));
                    assert_eq!(m.context_window, 1_000_000);
                }
            }
        }
    }
}
