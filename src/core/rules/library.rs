//! Library rules: the same name twice, copies an agent will never load, and descriptions that
//! are one template filled in with the name.

use super::Profile;
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::library::Library;
use rustc_hash::FxHashMap;

/// `shadowed`: when given, each skill's finding as the agents that read it resolve its name
/// (`core::agents::view::shadowed_findings`); else the library's own resolution.
pub fn check(
    lib: &Library,
    _profile: Profile,
    shadowed: Option<&[Option<Diagnostic>]>,
) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    let mut by_name: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (i, s) in lib.skills.iter().enumerate() {
        by_name.entry(s.name.as_str()).or_default().push(i);
    }
    for (i, s) in lib.skills.iter().enumerate() {
        if let Some(found) = shadowed {
            if let Some(d) = found.get(i).cloned().flatten() {
                out.push((i, d));
                continue;
            }
        } else if let Some(w) = s.shadowed_by {
            let winner = &lib.skills[w];
            out.push((
                i,
                Diagnostic::new(
                    RuleId::Shadowed,
                    Severity::Warning,
                    format!(
                        "shadowed by {} ({} {}): {} loads that copy, not this one; rename or remove one of them",
                        winner.dir.display(),
                        winner.agent,
                        winner.scope,
                        winner.agent
                    ),
                ),
            ));
            continue;
        }
        let others: Vec<_> = by_name[s.name.as_str()]
            .iter()
            .filter(|&&j| j != i && lib.skills[j].agent != s.agent)
            .map(|&j| format!("{} ({})", lib.skills[j].dir.display(), lib.skills[j].agent))
            .collect();
        if !others.is_empty() {
            out.push((
                i,
                Diagnostic::new(
                    RuleId::DuplicateName,
                    Severity::Info,
                    format!(
                        "the name `{}` is also used by {}: keep the copies in sync or rename one",
                        s.name,
                        others.join(", ")
                    ),
                ),
            ));
        }
    }
    out.extend(super::template::check(lib));
    out
}
