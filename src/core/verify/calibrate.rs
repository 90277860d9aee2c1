//! What `verify` learns from a client release skillscope has no captures of, from the listing
//! it sent: its built-in entries (Claude Code's: the entries of its listing that are none of the
//! library's, in its order) and the context window that makes the budget its listing shows,
//! fitted where the listing was cut (the smallest window whose listing is as long as the
//! client's, kept when it is the client's byte for byte). The result is a
//! [`Calibration`](crate::core::agents::calibration::Calibration) the views lay over the era.

use crate::core::agents::calibration::{self, Builtin, Calibration};
use crate::core::agents::client::ClientModel;
use crate::core::library::Library;
use crate::core::listing::{self, Format, ListingOptions};

/// What became of the budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WindowFit {
    /// The window the prediction used made the client's listing (or its budget cut nothing
    /// the prediction did not).
    Held(usize),
    /// Another window makes the client's listing: `from` the one used, `to` the fitted one.
    Fitted {
        /// The window the prediction used.
        from: usize,
        /// The window fitted.
        to: usize,
    },
    /// Not fitted, and why.
    NotFitted(&'static str),
}

/// What one client run taught.
#[derive(Debug, Clone)]
pub struct Learned {
    /// What is kept.
    pub calibration: Calibration,
    /// Built-ins the client listed that the prediction did not hold, by name.
    pub new_builtins: Vec<String>,
    /// Built-ins the prediction held that the client listed otherwise, by name.
    pub changed_builtins: Vec<String>,
    /// Built-ins the prediction held that the client did not list, by name.
    pub gone_builtins: Vec<String>,
    /// The budget.
    pub window: WindowFit,
    /// The model the window is for, when the budget follows one.
    pub model: Option<&'static str>,
    /// The first line (1-based) where the calibrated prediction still differs from the client's
    /// listing; `None` when it is the client's byte for byte.
    pub first_difference: Option<usize>,
}

/// Learns from `real`, the listing the client `agent` at `version` sent, what the prediction
/// made with `opts` (of `lib`'s skills `enabled`, for `model` when its budget follows one that
/// the client knows) did not know. `at` is now, in seconds since the epoch.
pub fn learn(
    (agent, version, at): (&str, &str, u64),
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    opts: ListingOptions,
    model: Option<&'static ClientModel>,
    real: &str,
) -> Learned {
    // The bytes the client would send, as `real` holds them: nothing escaped.
    let show = |o: &ListingOptions| listing::render(lib, enabled, o).text;
    let mut opts = opts;
    let before: Vec<Builtin> = opts.builtins.iter().map(builtin_of).collect();
    let builtins = (opts.format == Format::ClaudeCode).then(|| claude_builtins(&show, opts, real));
    if let Some(b) = &builtins {
        opts.builtins = calibration::leak_builtins(b);
    }
    let (new_builtins, changed_builtins, gone_builtins) = match &builtins {
        Some(after) => changes(&before, after),
        None => Default::default(),
    };
    let free =
        model.filter(|m| opts.budget_chars.is_none() && opts.context_window == m.context_window);
    let window = match free {
        None if model.is_none() => {
            WindowFit::NotFitted("its budget does not follow a model the client knows")
        }
        None => WindowFit::NotFitted(
            "its budget or window is set outright (by the environment or the settings), not by the model",
        ),
        Some(_) => fit_window(&show, &mut opts, real),
    };
    let kept_window = match window {
        WindowFit::Held(w) | WindowFit::Fitted { to: w, .. } => Some(w),
        WindowFit::NotFitted(_) => None,
    };
    let again = show(&opts);
    let first_difference = (again != real).then(|| {
        let (a, b): (Vec<&str>, Vec<&str>) =
            (real.split('\n').collect(), again.split('\n').collect());
        (0..a.len().max(b.len()))
            .find(|&i| a.get(i) != b.get(i))
            .map_or(1, |i| i + 1)
    });
    Learned {
        calibration: Calibration {
            agent: agent.to_string(),
            version: version.to_string(),
            at,
            builtins,
            model: kept_window.and(free).map(|m| m.id.to_string()),
            window: kept_window,
            reproduced: first_difference.is_none(),
        },
        new_builtins,
        changed_builtins,
        gone_builtins,
        window,
        model: free.map(|m| m.id),
        first_difference,
    }
}

fn builtin_of(b: &listing::BuiltinEntry) -> Builtin {
    Builtin {
        name: b.name.to_string(),
        description: b.description.to_string(),
        fixed: b.fixed,
    }
}

/// The names new, changed and gone from `before` to `after`.
fn changes(before: &[Builtin], after: &[Builtin]) -> (Vec<String>, Vec<String>, Vec<String>) {
    let find = |list: &[Builtin], name: &str| list.iter().position(|b| b.name == name);
    let new = after
        .iter()
        .filter(|a| find(before, &a.name).is_none())
        .map(|a| a.name.clone())
        .collect();
    let changed = after
        .iter()
        .filter(|a| find(before, &a.name).is_some_and(|i| before[i] != **a))
        .map(|a| a.name.clone())
        .collect();
    let gone = before
        .iter()
        .filter(|b| find(after, &b.name).is_none())
        .map(|b| b.name.clone())
        .collect();
    (new, changed, gone)
}

/// The entries of a Claude Code listing: each `- ` line with the lines after it up to the next.
fn entries(listing: &str) -> Vec<&str> {
    let Some(start) = listing.find("\n\n- ") else {
        return Vec::new();
    };
    listing[start + 4..].split("\n- ").collect()
}

/// What an entry is listed by: its first line up to `: `, or all of it (a name alone).
fn key(entry: &str) -> &str {
    let first = entry.split('\n').next().unwrap_or(entry);
    first.split_once(": ").map_or(first, |(k, _)| k)
}

/// Claude Code's built-ins in `real`: its entries that are none of the library's (the keys of
/// the prediction's own entries, every one listed in full, no built-in), in its order. A
/// built-in listed by its name alone, or cut, that the prediction knows keeps what the
/// prediction knows of it; a new one listed in full is taken for a bundled skill (listed in full
/// whatever the budget).
fn claude_builtins(
    show: &dyn Fn(&ListingOptions) -> String,
    opts: ListingOptions,
    real: &str,
) -> Vec<Builtin> {
    let ours = show(&ListingOptions {
        builtins: &[],
        budget_chars: Some(1 << 40),
        ..opts
    });
    let user: std::collections::HashSet<&str> = entries(&ours).into_iter().map(key).collect();
    entries(real)
        .into_iter()
        .filter(|e| !user.contains(key(e)))
        .map(|e| {
            let name = key(e);
            let seen = e[name.len()..].strip_prefix(": ");
            let known = opts.builtins.iter().find(|b| b.name == name);
            match (seen, known) {
                (None, Some(k)) => builtin_of(k),
                (Some(d), Some(k)) if !k.fixed && is_cut_of(d, k.description) => builtin_of(k),
                (None, None) => Builtin {
                    name: name.to_string(),
                    description: String::new(),
                    fixed: false,
                },
                (Some(d), k) => Builtin {
                    name: name.to_string(),
                    description: d.to_string(),
                    fixed: k.is_none_or(|k| k.fixed),
                },
            }
        })
        .collect()
}

/// `seen` is `full` cut with `…`.
fn is_cut_of(seen: &str, full: &str) -> bool {
    seen.strip_suffix('…')
        .is_some_and(|p| p != full && full.starts_with(p))
}

/// The window that makes `real`: the one in `opts` when it does, else the smallest whose
/// listing is as long as `real` (a listing grows with its budget), kept in `opts` when its
/// listing is `real` byte for byte.
fn fit_window(
    show: &dyn Fn(&ListingOptions) -> String,
    opts: &mut ListingOptions,
    real: &str,
) -> WindowFit {
    let from = opts.context_window;
    if show(opts) == real {
        return WindowFit::Held(from);
    }
    let at = |w: usize| {
        show(&ListingOptions {
            context_window: w,
            ..*opts
        })
    };
    let target = real.chars().count();
    let long_enough = |w: usize| at(w).chars().count() >= target;
    let (mut lo, mut hi) = (1, calibration::MAX_WINDOW);
    if !long_enough(hi) {
        return WindowFit::NotFitted("no window makes a listing as long as the client's");
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if long_enough(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if at(lo) != real {
        return WindowFit::NotFitted("no window makes the client's listing: it differs otherwise");
    }
    opts.context_window = lo;
    if lo == from {
        WindowFit::Held(from)
    } else {
        WindowFit::Fitted { from, to: lo }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_and_their_keys() {
        let l = "The following skills are available for use with the Skill tool:\n\n- a: one\n- f (b): two\nmore\n- c";
        let e = entries(l);
        assert_eq!(e, ["a: one", "f (b): two\nmore", "c"]);
        assert_eq!(
            e.iter().map(|x| key(x)).collect::<Vec<_>>(),
            ["a", "f (b)", "c"]
        );
        assert!(entries("no entries").is_empty());
    }

    #[test]
    fn a_cut_description_is_known_by_its_start() {
        assert!(is_cut_of("Does a…", "Does a thing."));
        assert!(!is_cut_of("Does b…", "Does a thing."));
        assert!(!is_cut_of("Does a thing.", "Does a thing."));
    }

    /// `n` skills with descriptions of 200 characters, in a folder of their own.
    fn library(n: usize) -> (tempfile::TempDir, Library) {
        use crate::core::scan::ScanOptions;
        use crate::core::source::{Agent, Root, Scope};
        let t = tempfile::tempdir().unwrap();
        for i in 0..n {
            let d = t.path().join(format!("skill-{i:03}"));
            std::fs::create_dir_all(&d).unwrap();
            let desc = "Does one thing well. ".repeat(10);
            std::fs::write(
                d.join("SKILL.md"),
                format!(
                    "---\nname: skill-{i:03}\ndescription: {}\n---\nBody.\n",
                    desc.trim()
                ),
            )
            .unwrap();
        }
        let lib = Library::load(
            vec![Root::new(t.path(), Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        (t, lib)
    }

    static MODEL: ClientModel = ClientModel {
        id: "model-a",
        name: "Model A",
        context_window: 1_000_000,
        chars_per_token: 4,
        family: "claude",
        skills_usage: false,
    };

    fn entry(name: &str, description: &str, fixed: bool) -> Builtin {
        Builtin {
            name: name.into(),
            description: description.into(),
            fixed,
        }
    }

    #[test]
    fn the_client_s_built_ins_and_window_are_learned_from_its_cut_listing() {
        let (_t, lib) = library(60);
        let all = |_: usize| true;
        let modelled = [
            entry("kept", "Listed as before.", true),
            entry("changed", "The old text.", true),
            entry("gone", "No longer listed.", true),
            entry(
                "init",
                "Initialize a new CLAUDE.md file with codebase documentation",
                false,
            ),
        ];
        let client = [
            entry("kept", "Listed as before.", true),
            entry("changed", "The text of the new release.", true),
            entry("brand-new", "Bundled from this release on.", true),
            entry(
                "init",
                "Initialize a new CLAUDE.md file with codebase documentation",
                false,
            ),
        ];
        let base = ListingOptions {
            format: Format::ClaudeCode,
            context_window: MODEL.context_window,
            chars_per_token: MODEL.chars_per_token,
            builtins: calibration::leak_builtins(&modelled),
            ..ListingOptions::default()
        };
        // The client's own listing: its built-ins and a window a sixth of the model's, where
        // the library no longer fits in full.
        let real_opts = ListingOptions {
            context_window: 160_000,
            builtins: calibration::leak_builtins(&client),
            ..base
        };
        let real = listing::render(&lib, &all, &real_opts).text;
        let uncut = listing::render(&lib, &all, &base).text;
        assert_ne!(real.len(), uncut.len(), "the client's window must cut");
        let l = learn(
            ("claude-code", "2.1.340", 5),
            &lib,
            &all,
            base,
            Some(&MODEL),
            &real,
        );
        assert_eq!(l.calibration.builtins.as_deref(), Some(&client[..]));
        assert_eq!(l.new_builtins, ["brand-new"]);
        assert_eq!(l.changed_builtins, ["changed"]);
        assert_eq!(l.gone_builtins, ["gone"]);
        let WindowFit::Fitted { from, to } = l.window else {
            panic!("{:?}", l.window)
        };
        assert_eq!(from, 1_000_000);
        assert!(to <= 160_000, "{to}");
        assert_eq!(l.first_difference, None);
        assert!(l.calibration.reproduced);
        assert_eq!(l.calibration.model.as_deref(), Some("model-a"));
        // What is kept makes the client's listing again.
        let again = ListingOptions {
            context_window: l.calibration.window.unwrap(),
            builtins: calibration::leak_builtins(l.calibration.builtins.as_deref().unwrap()),
            ..base
        };
        assert_eq!(listing::render(&lib, &all, &again).text, real);
        assert_eq!(l.calibration.check("claude-code"), Ok(()));
    }

    #[test]
    fn a_listing_the_prediction_makes_keeps_the_window_and_a_set_budget_is_not_fitted() {
        let (_t, lib) = library(5);
        let all = |_: usize| true;
        let base = ListingOptions {
            format: Format::ClaudeCode,
            context_window: MODEL.context_window,
            chars_per_token: MODEL.chars_per_token,
            ..ListingOptions::default()
        };
        let real = listing::render(&lib, &all, &base).text;
        let l = learn(
            ("claude-code", "2.1.340", 5),
            &lib,
            &all,
            base,
            Some(&MODEL),
            &real,
        );
        assert_eq!(l.window, WindowFit::Held(1_000_000));
        assert_eq!(l.calibration.builtins.as_deref(), Some(&[][..]));
        assert!(l.calibration.reproduced);
        // A budget set outright does not follow the window: nothing fitted, nothing kept.
        let set = ListingOptions {
            budget_chars: Some(500),
            ..base
        };
        let l = learn(
            ("claude-code", "2.1.340", 5),
            &lib,
            &all,
            set,
            Some(&MODEL),
            &real,
        );
        assert!(
            matches!(l.window, WindowFit::NotFitted(_)),
            "{:?}",
            l.window
        );
        assert_eq!(l.calibration.window, None);
        assert!(!l.calibration.reproduced);
        // A listing no window makes (another wording) is said to differ still.
        let other = real.replace("Does one thing", "Does two things");
        let l = learn(
            ("claude-code", "2.1.340", 5),
            &lib,
            &all,
            base,
            Some(&MODEL),
            &other,
        );
        assert!(
            matches!(l.window, WindowFit::NotFitted(_)),
            "{:?}",
            l.window
        );
        assert!(l.first_difference.is_some());
    }
}
