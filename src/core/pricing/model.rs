//! Per-model token estimates: tiktoken figures are exact for OpenAI models and an estimate for
//! the others, corrected by a documented factor per model family.

use crate::core::tokens::Encoding;
use std::fmt;
use std::str::FromStr;

/// A `--model` value that names no model.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ModelError {
    #[error(
        "unknown model `{0}`: use claude, gemini, gpt-4o or gpt-4, or NAME=FACTOR (e.g. claude-opus=1.2)"
    )]
    /// No preset has this name.
    Unknown(String),
    /// The factor of `NAME=FACTOR` is not a number in range.
    #[error("model factor `{0}` must be a number between 0.1 and 10")]
    BadFactor(String),
}

/// A model family and how its token counts relate to the tiktoken figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Its name as shown beside the figures.
    pub name: String,
    /// The model's count ≈ the tiktoken figure × factor.
    pub factor: f64,
    /// The tiktoken encoding that *is* the model's tokenizer, when there is one.
    pub exact: Option<Encoding>,
}

/// One preset: name, aliases, factor, exact encoding, and where the factor comes from.
pub struct Preset {
    /// Its name.
    pub name: &'static str,
    /// Other names it answers to.
    pub aliases: &'static [&'static str],
    /// The model's count ≈ the tiktoken figure × factor.
    pub factor: f64,
    /// The tiktoken encoding that is the model's tokenizer, when there is one.
    pub exact: Option<Encoding>,
    /// Where the factor comes from.
    pub why: &'static str,
}

/// The families offered by `--model` and the app's model key, in cycle order.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "claude",
        aliases: &["anthropic", "claude-code"],
        factor: 1.15,
        exact: None,
        why: "Anthropic publishes no tokenizer; its count_tokens endpoint counts 10-20% more than \
              tiktoken on English prose and code, so the middle of that range",
    },
    Preset {
        name: "gemini",
        aliases: &["google"],
        factor: 1.05,
        exact: None,
        why: "Gemini's SentencePiece vocabulary lands close to o200k_base on English text; a small \
              margin, no offline tokenizer to check it against",
    },
    Preset {
        name: "gpt-4o",
        aliases: &["gpt", "gpt-4.1", "gpt-5", "o1", "o3", "o4-mini", "codex"],
        factor: 1.0,
        exact: Some(Encoding::O200kBase),
        why: "o200k_base is the model's own tokenizer: the figure is exact",
    },
    Preset {
        name: "gpt-4",
        aliases: &["gpt-3.5", "gpt-4-turbo"],
        factor: 1.0,
        exact: Some(Encoding::Cl100kBase),
        why: "cl100k_base is the model's own tokenizer: the figure is exact",
    },
];

impl Model {
    /// Every preset, in cycle order.
    pub fn presets() -> Vec<Model> {
        PRESETS.iter().map(Model::from_preset).collect()
    }

    fn from_preset(p: &Preset) -> Model {
        Model {
            name: p.name.to_string(),
            factor: p.factor,
            exact: p.exact,
        }
    }

    /// The model's estimate for a tiktoken figure.
    pub fn estimate(&self, tiktoken: u64) -> u64 {
        // Figures stay far below 2^52, where f64 stops being exact.
        (tiktoken as f64 * self.factor).round() as u64
    }

    /// Whether figures in `enc` are the model's own counts.
    pub fn is_exact_with(&self, enc: Encoding) -> bool {
        self.exact == Some(enc)
    }

    /// A word for stderr when the encoding is not the model's own tokenizer.
    pub fn mismatch(&self, enc: Encoding) -> Option<String> {
        match self.exact {
            Some(own) if own != enc => Some(format!(
                "{} counts with {own}; these figures are {enc}, so the estimate is not exact \
                 (pass --encoding {own})",
                self.name
            )),
            _ => None,
        }
    }

    /// `≈ 1,419 (claude)`, or `= 1,234 (gpt-4o, exact)` when the encoding is the model's own.
    pub fn label(&self, tiktoken: u64, enc: Encoding) -> String {
        let n = crate::core::words::text::thousands(self.estimate(tiktoken));
        if self.is_exact_with(enc) {
            format!("= {n} ({}, exact)", self.name)
        } else {
            format!("≈ {n} ({})", self.name)
        }
    }
}

/// What `--model` and the config's `model` take: a model, or `none` for no estimate (which
/// also turns off a model the config file set).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelChoice(pub Option<Model>);

impl FromStr for ModelChoice {
    type Err = ModelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("none") {
            Ok(ModelChoice(None))
        } else {
            s.parse().map(|m| ModelChoice(Some(m)))
        }
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl FromStr for Model {
    type Err = ModelError;

    /// A preset by name or alias (case-insensitive), or `NAME=FACTOR` for a family of one's own.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Some((name, factor)) = s.split_once('=') {
            let f: f64 = factor
                .trim()
                .parse()
                .map_err(|_| ModelError::BadFactor(factor.to_string()))?;
            let name = name.trim();
            if !(0.1..=10.0).contains(&f) {
                return Err(ModelError::BadFactor(factor.to_string()));
            }
            if name.is_empty() || name.chars().any(|c| c.is_control() || c.is_whitespace()) {
                return Err(ModelError::Unknown(s.to_string()));
            }
            return Ok(Model {
                name: name.to_string(),
                factor: f,
                exact: None,
            });
        }
        let lower = s.to_ascii_lowercase();
        PRESETS
            .iter()
            .find(|p| p.name == lower || p.aliases.contains(&lower.as_str()))
            .map(Model::from_preset)
            .ok_or_else(|| ModelError::Unknown(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_aliases_parse_and_estimate() {
        let c: Model = "Claude".parse().unwrap();
        assert_eq!(c.name, "claude");
        assert_eq!(c.estimate(1000), 1150);
        assert_eq!(c.label(1234, Encoding::O200kBase), "≈ 1,419 (claude)");
        let g: Model = "gpt".parse().unwrap();
        assert_eq!(g.name, "gpt-4o");
        assert_eq!(
            g.label(1234, Encoding::O200kBase),
            "= 1,234 (gpt-4o, exact)"
        );
        assert_eq!(g.label(1234, Encoding::Cl100kBase), "≈ 1,234 (gpt-4o)");
        assert!(g.mismatch(Encoding::Cl100kBase).is_some());
        assert!(g.mismatch(Encoding::O200kBase).is_none());
        for p in PRESETS {
            assert_eq!(p.name.parse::<Model>().unwrap().factor, p.factor);
        }
    }

    #[test]
    fn own_factors_are_bounded() {
        let m: Model = "claude-opus=1.2".parse().unwrap();
        assert_eq!((m.name.as_str(), m.factor), ("claude-opus", 1.2));
        assert_eq!(m.estimate(100), 120);
        assert!(matches!(
            "x=0".parse::<Model>(),
            Err(ModelError::BadFactor(_))
        ));
        assert!(matches!(
            "x=abc".parse::<Model>(),
            Err(ModelError::BadFactor(_))
        ));
        assert!(matches!(
            "x=NaN".parse::<Model>(),
            Err(ModelError::BadFactor(_))
        ));
        assert!(matches!(
            "=1.1".parse::<Model>(),
            Err(ModelError::Unknown(_))
        ));
        assert!(matches!(
            "llama".parse::<Model>(),
            Err(ModelError::Unknown(_))
        ));
    }
}
