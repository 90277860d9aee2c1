//! Dynamic shell completion (clap_complete's engine): the values each option takes, and the
//! names of the installed skills for `show` and `toggle`, asked of the binary at each <Tab>.

use clap_complete::engine::CompletionCandidate;
use std::ffi::OsStr;

/// The variable the shell sets when it asks the binary for completions.
pub const VAR: &str = "COMPLETE";

fn each<T: std::fmt::Display>(values: impl IntoIterator<Item = T>) -> Vec<CompletionCandidate> {
    values
        .into_iter()
        .map(|v| CompletionCandidate::new(v.to_string()))
        .collect()
}

pub fn profiles() -> Vec<CompletionCandidate> {
    each(crate::core::rules::Profile::ALL)
}

pub fn listings() -> Vec<CompletionCandidate> {
    each(crate::core::listing::Format::ALL)
}

pub fn tiers() -> Vec<CompletionCandidate> {
    each(crate::core::listing::Tier::ALL)
}

pub fn encodings() -> Vec<CompletionCandidate> {
    each(crate::core::tokens::Encoding::ALL)
}

pub fn agents() -> Vec<CompletionCandidate> {
    each(crate::core::agents::model::models().map(|m| m.agent.as_str()))
}

/// The model presets with what each factor is, then `none` (no estimate).
pub fn models() -> Vec<CompletionCandidate> {
    let mut out: Vec<CompletionCandidate> = crate::core::pricing::model::PRESETS
        .iter()
        .map(|p| {
            CompletionCandidate::new(p.name)
                .help(Some(format!("× {:.2}: {}", p.factor, p.why).into()))
        })
        .collect();
    out.push(CompletionCandidate::new("none").help(Some("no model estimate".into())));
    out.extend(client_models());
    out
}

/// Every model the modelled clients know (`--model` of `prompt` and `budget`), with its window:
/// the models of the release in use (the installed release's era).
pub fn client_models() -> Vec<CompletionCandidate> {
    crate::core::agents::model::models()
        .filter_map(|m| m.client_in_use().map(|c| (m.name, c)))
        .flat_map(|(name, c)| {
            c.models.iter().map(move |cm| {
                CompletionCandidate::new(cm.id).help(Some(
                    format!(
                        "{name} {}: {}, window {}",
                        c.version,
                        cm.name,
                        crate::core::words::text::thousands(cm.context_window as u64)
                    )
                    .into(),
                ))
            })
        })
        .collect()
}

/// Rule ids (with what each finds) and families, for `--select` and `--ignore`.
pub fn rules() -> Vec<CompletionCandidate> {
    let mut out: Vec<CompletionCandidate> = crate::core::rules::RULES
        .iter()
        .map(|r| CompletionCandidate::new(r.id.as_str()).help(Some(r.summary.into())))
        .collect();
    let ids = out.len();
    for name in crate::core::rules::select::Selector::names()
        .into_iter()
        .skip(ids)
    {
        out.push(CompletionCandidate::new(name).help(Some("every rule of the family".into())));
    }
    out
}

/// The installed skills (the agents' folders and the config's roots) whose name or id starts
/// with what was typed. The library index makes this a warm read.
pub fn skill_names(current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy();
    let spec = crate::core::front::load::LibrarySpec {
        paths: Vec::new(),
        scan: crate::core::scan::ScanOptions {
            resources: crate::core::scan::Resources::Names,
            ..Default::default()
        },
        extra_roots: crate::config::active()
            .map(|c| c.roots.clone())
            .unwrap_or_default(),
        add_dirs: Vec::new(),
        project_only: false,
    };
    let lib = spec.load();
    if lib.demo {
        return Vec::new();
    }
    let mut names: Vec<(&str, Option<&str>)> = Vec::new();
    for s in &lib.skills {
        for n in [s.name.as_str(), s.id.as_str()] {
            if n.starts_with(&*typed) && !names.iter().any(|(x, _)| *x == n) {
                names.push((n, s.frontmatter.description()));
            }
        }
    }
    names.sort_unstable();
    names
        .into_iter()
        // A shell shows one line per candidate: a name with a line break or a control character
        // is left out rather than sent raw.
        .filter(|(n, _)| {
            !n.chars().any(crate::core::words::escape::is_hazard) && !n.contains(['\n', '\t'])
        })
        .map(|(n, d)| {
            let help = d.map(|d| crate::core::words::text::fit(d, 60).into());
            CompletionCandidate::new(n).help(help)
        })
        .collect()
}

/// `skillscope completions SHELL`: the shell code that asks this binary for completions.
pub fn registration(shell: clap_complete::Shell) -> anyhow::Result<Vec<u8>> {
    let name = shell.to_string();
    let shells = clap_complete::env::Shells::builtins();
    let completer = shells
        .completer(&name)
        .ok_or_else(|| anyhow::anyhow!("no dynamic completion for {name}"))?;
    // The binary the shell calls back: the one running now when it was named by a path, else
    // `skillscope` found on PATH.
    let program = std::env::args_os().next().map(std::path::PathBuf::from);
    let bin = match program {
        Some(p) if p.components().count() > 1 => crate::core::files::paths::absolute(&p)
            .to_string_lossy()
            .into_owned(),
        _ => "skillscope".to_string(),
    };
    let mut out = Vec::new();
    completer.write_registration(VAR, "skillscope", "skillscope", &bin, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(c: Vec<CompletionCandidate>) -> Vec<String> {
        c.iter()
            .map(|c| c.get_value().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn every_value_an_option_takes_is_offered() {
        assert_eq!(
            values(profiles()),
            [
                "spec",
                "claude-code",
                "codex",
                "opencode",
                "lazy-skills",
                "qwen-code",
                "github-copilot",
                "cline",
                "openclaw"
            ]
        );
        assert!(values(listings()).contains(&"claude-code".to_string()));
        assert_eq!(values(encodings()), ["o200k_base", "cl100k_base"]);
        assert!(values(models()).contains(&"none".to_string()));
        assert!(values(models()).contains(&"claude".to_string()));
        assert!(values(agents()).contains(&"lazy-skills".to_string()));
        // Every agent with a view, from `Agent::ALL`: a new one is offered without a line here.
        let every: Vec<String> = crate::core::Agent::ALL
            .iter()
            .filter(|a| !matches!(a, crate::core::Agent::Path | crate::core::Agent::Demo))
            .map(|a| a.as_str().to_string())
            .collect();
        assert_eq!(values(agents()), every);
        let rules = values(rules());
        assert!(rules.contains(&"unknown-field".to_string()));
        assert!(rules.contains(&"description".to_string()));
        // Each one parses back.
        for v in values(profiles()) {
            assert!(v.parse::<crate::core::rules::Profile>().is_ok(), "{v}");
        }
        for v in values(listings()) {
            assert!(v.parse::<crate::core::listing::Format>().is_ok(), "{v}");
        }
        for v in values(tiers()) {
            assert!(v.parse::<crate::core::listing::Tier>().is_ok(), "{v}");
        }
        for v in rules {
            assert!(
                v.parse::<crate::core::rules::select::Selector>().is_ok(),
                "{v}"
            );
        }
    }
}
