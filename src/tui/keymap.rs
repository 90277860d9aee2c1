//! Key bindings as data: which key does what, where. The footer and the help overlay are built
//! from this table, so they always tell the truth about the bindings.

use crate::tui::action::{Action, Screen};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Where a binding applies. The app asks for the contexts active in its current mode, most
/// specific first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Global,
    List,
    Detail,
    Filter,
    Prompt,
    Test,
    Checks,
    Budget,
    Resource,
    Confirm,
    Help,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::List => "Skills list",
            Context::Detail => "Skill detail",
            Context::Filter => "Filter box",
            Context::Prompt => "Prompt preview",
            Context::Test => "Test box",
            Context::Checks => "Checks",
            Context::Budget => "Budget",
            Context::Resource => "File viewer",
            Context::Confirm => "Confirmation",
            Context::Help => "Help",
        }
    }

    /// Contexts where printable keys are text, not commands.
    pub fn takes_text(self) -> bool {
        matches!(self, Context::Filter | Context::Test)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const fn k(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::NONE,
    }
}

const fn code(code: KeyCode) -> Key {
    Key {
        code,
        mods: KeyModifiers::NONE,
    }
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::CONTROL,
    }
}

impl Key {
    /// Whether a key event is this key. Shift is ignored for characters, whose case already
    /// says it (terminals differ in reporting it).
    pub fn matches(&self, ev: &KeyEvent) -> bool {
        let relevant = KeyModifiers::CONTROL | KeyModifiers::ALT;
        let mods_match = match self.code {
            KeyCode::Char(_) => ev.modifiers & relevant == self.mods & relevant,
            _ => ev.modifiers == self.mods,
        };
        self.code == ev.code && mods_match
    }

    /// Printable keys are text when a text box has the focus.
    pub fn is_text(&self) -> bool {
        matches!(self.code, KeyCode::Char(_)) && (self.mods - KeyModifiers::SHIFT).is_empty()
    }

    pub fn label(&self) -> String {
        let name = match self.code {
            KeyCode::Char(' ') => "space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Backspace => "Bksp".into(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        if self.mods.contains(KeyModifiers::CONTROL) {
            format!("C-{name}")
        } else {
            name
        }
    }
}

/// One binding: keys, the action, where it applies, and how help and the footer describe it.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    pub context: Context,
    pub keys: &'static [Key],
    pub action: Action,
    /// A word or two for the footer.
    pub short: &'static str,
    /// The sentence for the help overlay.
    pub help: &'static str,
    /// Shown in the footer (the rest only in help).
    pub footer: bool,
}

const fn b(
    context: Context,
    keys: &'static [Key],
    action: Action,
    short: &'static str,
    help: &'static str,
    footer: bool,
) -> Binding {
    Binding {
        context,
        keys,
        action,
        short,
        help,
        footer,
    }
}

use Context as C;

/// The default key map, one binding a line.
#[rustfmt::skip]
pub const KEYMAP: &[Binding] = &[
    // Confirmation popup.
    b(C::Confirm, &[k('y'), code(KeyCode::Enter)], Action::Confirm, "write", "Write the change shown", true),
    b(C::Confirm, &[k('n'), code(KeyCode::Esc), k('q')], Action::Close, "cancel", "Leave the files as they are", true),
    b(C::Confirm, &[k('s')], Action::CycleScope, "scope", "Use the user, project or local settings file instead", true),
    b(C::Confirm, &[k('j'), code(KeyCode::Down)], Action::Down, "scroll", "Scroll the change down", false),
    b(C::Confirm, &[k('k'), code(KeyCode::Up)], Action::Up, "scroll", "Scroll the change up", false),
    // Help overlay.
    b(C::Help, &[code(KeyCode::Esc), k('?'), k('q')], Action::Close, "close", "Close this help", true),
    b(C::Help, &[k('j'), code(KeyCode::Down)], Action::Down, "down", "Scroll down", false),
    b(C::Help, &[k('k'), code(KeyCode::Up)], Action::Up, "up", "Scroll up", false),
    // Filter box.
    b(C::Filter, &[code(KeyCode::Enter)], Action::AcceptFilter, "keep", "Keep the filter and go back to the list", true),
    b(C::Filter, &[code(KeyCode::Esc)], Action::ClearFilter, "clear", "Clear the filter and go back to the list", true),
    b(C::Filter, &[code(KeyCode::Backspace)], Action::Backspace, "erase", "Erase the last character", false),
    b(C::Filter, &[code(KeyCode::Down)], Action::Down, "down", "Next skill", false),
    b(C::Filter, &[code(KeyCode::Up)], Action::Up, "up", "Previous skill", false),
    // Test box: always typing.
    b(C::Test, &[code(KeyCode::Backspace)], Action::Backspace, "erase", "Erase the last character", false),
    b(C::Test, &[code(KeyCode::Esc), ctrl('u')], Action::ClearMessage, "clear", "Erase the message", true),
    b(C::Test, &[code(KeyCode::Down)], Action::Down, "scroll", "Scroll the results down", false),
    b(C::Test, &[code(KeyCode::Up)], Action::Up, "scroll", "Scroll the results up", false),
    // Skills list.
    b(C::List, &[k(' ')], Action::Toggle, "on/off", "Switch the selected skill on or off (saved at once)", true),
    b(C::List, &[k('/')], Action::Filter, "filter", "Filter by name (fuzzy), or by id with * (web.*)", true),
    b(C::List, &[k('s')], Action::CycleSort, "sort", "Sort by name, cost, agent, diagnostics", true),
    b(C::List, &[k('p')], Action::CycleProfile, "profile", "Judge by the next profile's rules (spec, claude-code, codex, opencode, lazy-skills)", false),
    b(C::List, &[code(KeyCode::Enter), k('l'), code(KeyCode::Right)], Action::Open, "detail", "Open the detail of the selected skill", true),
    b(C::List, &[k('a')], Action::AgentToggle, "agents", "Switch the skill in the agents' own settings (shows the change first)", true),
    b(C::List, &[code(KeyCode::Esc)], Action::ClearFilter, "unfilter", "Clear the filter", false),
    // Detail pane.
    b(C::Detail, &[code(KeyCode::Esc), k('h'), code(KeyCode::Left)], Action::Close, "back", "Back to the list", true),
    b(C::Detail, &[k(']')], Action::NextResource, "file", "Select the next resource file (Enter opens it)", true),
    b(C::Detail, &[k('[')], Action::PrevResource, "file", "Select the previous resource file", false),
    b(C::Detail, &[code(KeyCode::Enter)], Action::OpenResource, "open", "Open the selected resource (back to the list when none is selected)", true),
    b(C::Detail, &[k('j'), code(KeyCode::Down)], Action::DetailDown, "scroll", "Scroll the detail down", true),
    b(C::Detail, &[k('k'), code(KeyCode::Up)], Action::DetailUp, "scroll", "Scroll the detail up", false),
    b(C::Detail, &[k(' ')], Action::Toggle, "on/off", "Switch the skill on or off (saved at once)", true),
    b(C::Detail, &[k('a')], Action::AgentToggle, "agents", "Switch the skill in the agents' own settings (shows the change first)", false),
    // File viewer.
    b(C::Resource, &[code(KeyCode::Esc), k('h'), code(KeyCode::Left)], Action::Close, "close", "Close the file", true),
    b(C::Resource, &[k('j'), code(KeyCode::Down)], Action::Down, "scroll", "Scroll down", true),
    b(C::Resource, &[k('k'), code(KeyCode::Up)], Action::Up, "scroll", "Scroll up", false),
    // Prompt preview.
    b(C::Prompt, &[k('m')], Action::CycleMode, "mode", "Next listing mode (enabled, all, auto: only what the Test box's message makes relevant)", true),
    b(C::Prompt, &[k('f')], Action::CycleFormat, "format", "Next listing format (xml, markdown, claude-code, codex)", true),
    b(C::Prompt, &[k('t')], Action::CycleTier, "tier", "Next tier (auto, full, compact, names)", true),
    b(C::Prompt, &[k('w')], Action::CycleWindow, "window", "Next context window size", true),
    // Checks.
    b(C::Checks, &[k('r')], Action::RunChecks, "run probes", "Run --help-json on every executable skill (sandboxed)", true),
    b(C::Checks, &[k('d')], Action::RunDeps, "deps", "Check declared dependencies against each skill's interpreter (sandboxed; installs nothing)", true),
    b(C::Checks, &[k('x'), code(KeyCode::Esc)], Action::CancelChecks, "stop", "Stop the probes that are running", false),
    // Budget has only the global keys.
    // Everywhere.
    b(C::Global, &[k('?'), code(KeyCode::F(1))], Action::Help, "help", "Show every key", true),
    b(C::Global, &[k('q'), ctrl('c')], Action::Quit, "quit", "Quit", true),
    b(C::Global, &[code(KeyCode::Tab)], Action::NextScreen, "screen", "Next screen", true),
    b(C::Global, &[code(KeyCode::BackTab)], Action::PrevScreen, "prev", "Previous screen", false),
    b(C::Global, &[k('1')], Action::Show(Screen::Skills), "skills", "Skills list", false),
    b(C::Global, &[k('2')], Action::Show(Screen::Prompt), "prompt", "Prompt preview", false),
    b(C::Global, &[k('3')], Action::Show(Screen::Test), "test", "Test box", false),
    b(C::Global, &[k('4')], Action::Show(Screen::Checks), "checks", "Checks", false),
    b(C::Global, &[k('5')], Action::Show(Screen::Budget), "budget", "Budget", false),
    b(C::Global, &[k('j'), code(KeyCode::Down)], Action::Down, "down", "Next row", false),
    b(C::Global, &[k('k'), code(KeyCode::Up)], Action::Up, "up", "Previous row", false),
    b(C::Global, &[code(KeyCode::PageDown), ctrl('d')], Action::PageDown, "page", "Page down", false),
    b(C::Global, &[code(KeyCode::PageUp), ctrl('u')], Action::PageUp, "page", "Page up", false),
    b(C::Global, &[k('g'), code(KeyCode::Home)], Action::Top, "top", "First row", false),
    b(C::Global, &[k('G'), code(KeyCode::End)], Action::Bottom, "bottom", "Last row", false),
    b(C::Global, &[ctrl('r')], Action::Rescan, "rescan", "Read the library again", false),
];

/// The action bound to a key in the given contexts, most specific first. When a text box has
/// the focus, printable keys of the other contexts are text and bind nothing.
pub fn lookup(contexts: &[Context], ev: &KeyEvent) -> Option<Action> {
    let typing = contexts.first().is_some_and(|c| c.takes_text());
    for (i, ctx) in contexts.iter().enumerate() {
        for binding in KEYMAP.iter().filter(|b| b.context == *ctx) {
            for key in binding.keys {
                if typing && i > 0 && key.is_text() {
                    continue;
                }
                if key.matches(ev) {
                    return Some(binding.action);
                }
            }
        }
    }
    None
}

/// The bindings of the given contexts for the footer, without repeating an action.
pub fn footer(contexts: &[Context]) -> Vec<&'static Binding> {
    let typing = contexts.first().is_some_and(|c| c.takes_text());
    let mut out: Vec<&'static Binding> = Vec::new();
    for (i, ctx) in contexts.iter().enumerate() {
        for binding in KEYMAP.iter().filter(|b| b.context == *ctx && b.footer) {
            if typing && i > 0 && binding.keys.iter().all(Key::is_text) {
                continue;
            }
            if !out.iter().any(|o| o.action == binding.action) {
                out.push(binding);
            }
        }
    }
    out
}

/// The keys of a binding as shown to the user, e.g. `j/↓`. In a text box, printable keys of
/// other contexts are left out.
pub fn keys_label(binding: &Binding, typing: bool) -> String {
    binding
        .keys
        .iter()
        .filter(|k| {
            !(typing
                && binding.context != Context::Filter
                && binding.context != Context::Test
                && k.is_text())
        })
        .map(Key::label)
        .collect::<Vec<_>>()
        .join("/")
}

/// Every context in the order the help overlay lists them.
pub const HELP_ORDER: &[Context] = &[
    Context::Global,
    Context::List,
    Context::Filter,
    Context::Detail,
    Context::Resource,
    Context::Prompt,
    Context::Test,
    Context::Checks,
    Context::Confirm,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn specific_context_wins_and_text_boxes_swallow_letters() {
        let q = press(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(
            lookup(&[Context::List, Context::Global], &q),
            Some(Action::Quit)
        );
        assert_eq!(lookup(&[Context::Test, Context::Global], &q), None);
        let cc = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(
            lookup(&[Context::Test, Context::Global], &cc),
            Some(Action::Quit)
        );
        let esc = press(KeyCode::Esc, KeyModifiers::NONE);
        assert_eq!(
            lookup(&[Context::Filter, Context::Global], &esc),
            Some(Action::ClearFilter)
        );
        let space = press(KeyCode::Char(' '), KeyModifiers::NONE);
        assert_eq!(
            lookup(&[Context::List, Context::Global], &space),
            Some(Action::Toggle)
        );
        let big_g = press(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(
            lookup(&[Context::List, Context::Global], &big_g),
            Some(Action::Bottom)
        );
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for a in KEYMAP {
            for b in KEYMAP {
                if std::ptr::eq(a, b) || a.context != b.context {
                    continue;
                }
                for ka in a.keys {
                    assert!(
                        !b.keys.contains(ka),
                        "{:?} bound twice in {:?}",
                        ka,
                        a.context
                    );
                }
            }
        }
    }

    #[test]
    fn footer_in_a_text_box_offers_no_printable_global_keys() {
        let f = footer(&[Context::Test, Context::Global]);
        let labels: Vec<(Action, String)> =
            f.iter().map(|b| (b.action, keys_label(b, true))).collect();
        assert!(
            labels.contains(&(Action::Quit, "C-c".to_string())),
            "{labels:?}"
        );
        assert!(
            labels.contains(&(Action::Help, "F1".to_string())),
            "{labels:?}"
        );
        assert!(
            f.iter().all(|b| b.action != Action::Show(Screen::Skills)),
            "digits are text in the test box"
        );
    }
}
