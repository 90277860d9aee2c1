//! The last verify result of each agent, kept in skillscope's cache folder (`verify.json`),
//! keyed by agent, client version and the fingerprint of the predicted listing: a result holds
//! only while the library still lists what it listed.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One remembered result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verified {
    /// The agent's name (`claude-code`).
    pub agent: String,
    /// The client's version that ran.
    pub version: String,
    /// The fingerprint of skillscope's listing ([`fingerprint`]).
    pub listing: String,
    /// The client's listing was skillscope's, byte for byte.
    pub identical: bool,
    /// The client's listing's tokens (o200k_base).
    pub client_tokens: u32,
    /// skillscope's listing's tokens (o200k_base).
    pub predicted_tokens: u32,
    /// The unified diff, client first ("" when identical).
    pub diff: String,
    /// When, in seconds since the epoch.
    pub at: u64,
}

/// The fingerprint of a listing: its BLAKE3 hash.
pub fn fingerprint(listing: &str) -> String {
    blake3::hash(listing.as_bytes()).to_hex().to_string()
}

/// The remembered results, by `agent/version/fingerprint`.
#[derive(Debug, Default)]
pub struct VerifyStore {
    path: Option<PathBuf>,
    records: BTreeMap<String, Verified>,
}

impl VerifyStore {
    /// `verify.json` in skillscope's cache folder; missing or unreadable is empty.
    pub fn open() -> VerifyStore {
        VerifyStore::at(crate::core::files::paths::cache_root().join("verify.json"))
    }

    /// The store kept in `path`.
    pub fn at(path: impl Into<PathBuf>) -> VerifyStore {
        let path = path.into();
        let records = crate::core::files::fsx::read_regular(&path)
            .ok()
            .flatten()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        VerifyStore {
            path: Some(path),
            records,
        }
    }

    /// Keeps `v`, replacing a result for the same agent, version and listing.
    pub fn record(&mut self, v: Verified) {
        let key = format!("{}/{}/{}", v.agent, v.version, v.listing);
        self.records.insert(key, v);
    }

    /// The latest result for `agent` whose listing was `listing` (any client version).
    pub fn latest(&self, agent: &str, listing: &str) -> Option<&Verified> {
        let print = fingerprint(listing);
        self.records
            .values()
            .filter(|v| v.agent == agent && v.listing == print)
            .max_by_key(|v| v.at)
    }

    /// Writes the store atomically.
    pub fn save(&self) -> std::io::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let bytes = serde_json::to_vec_pretty(&self.records).map_err(std::io::Error::other)?;
        crate::core::files::paths::write_private(
            path,
            &bytes,
            crate::core::files::paths::Durability::Durable,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_is_found_again_only_for_the_same_listing() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("verify.json");
        let mut s = VerifyStore::at(&path);
        s.record(Verified {
            agent: "codex".into(),
            version: "0.171.0".into(),
            listing: fingerprint("a"),
            identical: true,
            client_tokens: 1,
            predicted_tokens: 1,
            diff: String::new(),
            at: 5,
        });
        s.save().unwrap();
        let again = VerifyStore::at(&path);
        assert_eq!(again.latest("codex", "a").map(|v| v.at), Some(5));
        assert!(again.latest("codex", "b").is_none());
        assert!(again.latest("claude-code", "a").is_none());
    }
}
