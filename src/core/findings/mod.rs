//! Findings: the rule catalogue (`RuleId`, profiles, severities) and a finding with its place.

pub mod catalogue;
pub(crate) mod diagnostic;
