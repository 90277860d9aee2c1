//! The tiktoken encodings skillscope counts with, and what can go wrong counting.

use serde::Serialize;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use tiktoken_rs::CoreBPE;

/// What can go wrong counting tokens or keeping them.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// Not the name of an encoding skillscope counts with.
    #[error("unknown encoding `{0}`: use o200k_base or cl100k_base")]
    UnknownEncoding(String),
    /// The token cache could not be written.
    #[error("cannot write the token cache {path}: {source}")]
    CacheWrite {
        /// The cache file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The token cache's folder cannot be used.
    #[error("the token cache was not used: {0}")]
    CacheUnusable(String),
}

/// A tiktoken encoding. Every figure the tool shows names the one that produced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
pub enum Encoding {
    /// GPT-4o and later; the default.
    #[default]
    #[serde(rename = "o200k_base")]
    O200kBase,
    /// GPT-4 and GPT-3.5.
    #[serde(rename = "cl100k_base")]
    Cl100kBase,
}

impl Encoding {
    /// Every encoding, the default first.
    pub const ALL: [Encoding; 2] = [Encoding::O200kBase, Encoding::Cl100kBase];

    /// Its name, as tiktoken writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::O200kBase => "o200k_base",
            Encoding::Cl100kBase => "cl100k_base",
        }
    }

    /// Its place in per-encoding arrays (`[_; 2]`).
    pub fn slot(self) -> usize {
        match self {
            Encoding::O200kBase => 0,
            Encoding::Cl100kBase => 1,
        }
    }

    /// The encoding's number in the cache file; never reuse one.
    pub(super) fn id(self) -> u8 {
        match self {
            Encoding::O200kBase => 1,
            Encoding::Cl100kBase => 2,
        }
    }

    /// tiktoken-rs's encoder, built on first use (about 0.15 s and 50 MB for o200k_base) and
    /// shared afterwards. Only a cache miss gets here.
    pub(super) fn bpe(self) -> &'static CoreBPE {
        match self {
            Encoding::O200kBase => tiktoken_rs::o200k_base_singleton(),
            Encoding::Cl100kBase => tiktoken_rs::cl100k_base_singleton(),
        }
    }

    /// Builds the encoder now, so a later count does not wait for it. Call it on a worker.
    pub fn warm(self) {
        self.bpe();
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Encoding {
    type Err = TokenError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| TokenError::UnknownEncoding(s.to_string()))
    }
}
