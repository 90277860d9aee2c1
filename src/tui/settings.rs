//! The app's settings from the config file: its start options, and the `[keys]` bindings read
//! over the default keymap, their action and context names judged here, where they are known.

use crate::config::{Config, KeySpecs, Problem};
use crate::tui::action::Action;
use crate::tui::app::Options;
use crate::tui::keymap::{Context, Key, Keymap};

/// The keymap the config's `[keys]` make, and what the bindings did besides what they say.
#[derive(Debug, Clone, Default)]
pub struct Bindings {
    pub keymap: Keymap,
    /// Keys moved from another action: not problems (the file asked for it), so shown in the
    /// app's help only.
    pub notes: Vec<Problem>,
}

/// Reads the config's key bindings over the default keymap. Their problems join the config's
/// where the file has them, so every command reports them in the file's order.
pub fn read(config: &mut Config) -> Bindings {
    let mut out = Bindings::default();
    let mut problems = Vec::new();
    for table in &config.keys {
        let context = match &table.context {
            None => None,
            Some(name) => {
                if let Some(c) = Context::from_name(name) {
                    Some(c)
                } else {
                    let names: Vec<&str> = Context::ALL.iter().map(|c| c.name()).collect();
                    problems.push(Problem {
                        line: table.line,
                        message: format!(
                            "unknown key context {name:?} in [keys]{}; contexts are {}",
                            crate::config::meant(name, names.iter().copied()),
                            names.join(", ")
                        ),
                    });
                    continue;
                }
            }
        };
        for b in &table.bindings {
            for message in bind(&mut out, context, b) {
                problems.push(Problem {
                    line: b.line,
                    message,
                });
            }
        }
    }
    let at = config.keys_at.min(config.problems.len());
    config.problems.splice(at..at, problems);
    out
}

/// One binding over the keymap; what is wrong with it, if anything (each bad key).
fn bind(
    out: &mut Bindings,
    context: Option<Context>,
    b: &crate::config::KeyBinding,
) -> Vec<String> {
    let name = &b.action;
    let Some(action) = Action::from_name(name) else {
        return vec![format!(
            "unknown action {name:?} in [keys]{}; actions are {}",
            crate::config::meant(name, Action::named().map(Action::name)),
            Action::named()
                .map(Action::name)
                .collect::<Vec<_>>()
                .join(", ")
        )];
    };
    let specs = match &b.keys {
        KeySpecs::Keys(v) => v,
        KeySpecs::NotAllStrings => return vec![format!("`{name}`: every key must be a string")],
        KeySpecs::NotKeys => {
            return vec![format!(
                "`{name}` must be a key (\"x\") or a list of keys ([\"x\", \"ctrl-x\"])"
            )];
        }
    };
    let mut keys = Vec::new();
    let mut bad = Vec::new();
    for spec in specs {
        match Key::parse(spec) {
            Ok(k) if !keys.contains(&k) => keys.push(k),
            Ok(_) => {}
            Err(e) => bad.push(format!("`{name}`: {e}")),
        }
    }
    if !bad.is_empty() {
        return bad;
    }
    match out.keymap.rebind(context, action, &keys) {
        Ok(notes) => {
            for message in notes {
                out.notes.push(Problem {
                    line: b.line,
                    message,
                });
            }
            Vec::new()
        }
        Err(e) => vec![format!("`{name}`: {e}")],
    }
}

/// The app's starting options: the config's settings over the defaults, with its keymap.
pub fn options(config: &Config, bindings: Bindings) -> Options {
    let d = Options::default();
    Options {
        format: config.listing.unwrap_or(d.format),
        profile: config.profile.or(d.profile),
        tier: config.tier.unwrap_or(d.tier),
        context_window: config.context_window.map_or(d.context_window, |n| n as u64),
        window_chosen: config.context_window.is_some(),
        encoding: config.encoding.unwrap_or(d.encoding),
        model: config.model.clone(),
        keymap: bindings.keymap,
        config_notes: config.problems.iter().map(Problem::to_string).collect(),
        config_info: bindings.notes.iter().map(Problem::to_string).collect(),
        config_path: config.path.clone(),
        ..d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn ev(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn the_bindings_go_over_the_default_keymap() {
        let mut c = Config::parse_text(
            "[keys]\ncycle_model = \"M\"\n\n[keys.list]\ntoggle = [\"x\", \"space\"]\n",
            None,
        );
        let km = read(&mut c).keymap;
        assert_eq!(c.problems, vec![]);
        assert_eq!(
            km.lookup(&[Context::Budget, Context::Global], &ev('M')),
            Some(Action::CycleModel)
        );
        assert_eq!(
            km.lookup(&[Context::Budget, Context::Global], &ev('m')),
            None
        );
        assert_eq!(
            km.lookup(&[Context::List, Context::Global], &ev('x')),
            Some(Action::Toggle)
        );
        assert_eq!(
            km.lookup(&[Context::List, Context::Global], &ev(' ')),
            Some(Action::Toggle)
        );
        // The detail pane keeps its own toggle key: only [keys.list] was changed.
        assert_eq!(
            km.lookup(&[Context::Detail, Context::Global], &ev('x')),
            None
        );
    }

    #[test]
    fn the_bindings_problems_take_their_place_in_the_file() {
        let text = "profile = \"claud\"\nfoo = 1\ncontext_window = 12\n[keys]\nfly = \"f\"\ntoggle = \"ctrl-\"\n[keys.nowhere]\nquit = \"q\"\n[keys.filter]\naccept_filter = \"k\"\n[rules]\nnope = \"off\"\n";
        let mut c = Config::parse_text(text, None);
        read(&mut c);
        let got: Vec<(Option<u32>, &str)> = c
            .problems
            .iter()
            .map(|p| (p.line, p.message.split(' ').next().unwrap_or("")))
            .collect();
        assert_eq!(
            got,
            vec![
                (Some(1), "`profile`"),
                (Some(2), "unknown"),
                (Some(3), "`context_window`"),
                (Some(5), "unknown"),
                (Some(6), "`toggle`:"),
                (Some(7), "unknown"),
                (Some(10), "`accept_filter`:"),
                (Some(12), "[rules]:"),
            ],
            "{:?}",
            c.problems
        );
    }

    #[test]
    fn a_taken_key_moves_and_the_move_is_reported() {
        let mut c = Config::parse_text("[keys.list]\ntoggle = \"s\"\n", None);
        let b = read(&mut c);
        assert!(c.problems.is_empty(), "{:?}", c.problems);
        assert_eq!(b.notes.len(), 1, "{:?}", b.notes);
        assert_eq!(b.notes[0].line, Some(2));
        assert!(b.notes[0].message.contains("cycle_sort"), "{:?}", b.notes);
        assert_eq!(
            b.keymap.lookup(&[Context::List, Context::Global], &ev('s')),
            Some(Action::Toggle)
        );
        let opts = options(&c, b);
        assert_eq!(opts.config_info.len(), 1);
    }
}
