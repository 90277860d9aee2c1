//! Key bindings as data: which key does what, where. The footer and the help overlay are built
//! from this table (with the config file's bindings merged over it), so they always tell the
//! truth about the bindings.

use crate::tui::action::{Action, Screen};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::borrow::Cow;

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
    /// The Test screen with the message box left: keys are commands.
    Results,
    Checks,
    Budget,
    Resource,
    Confirm,
    Help,
    AddSource,
    AddPreview,
    Files,
}

impl Context {
    pub const ALL: [Context; 15] = [
        Context::Global,
        Context::List,
        Context::Detail,
        Context::Filter,
        Context::Prompt,
        Context::Test,
        Context::Results,
        Context::Checks,
        Context::Budget,
        Context::Resource,
        Context::Confirm,
        Context::Help,
        Context::AddSource,
        Context::AddPreview,
        Context::Files,
    ];

    /// The context's name in the config file's `[keys.<name>]` tables.
    pub fn name(self) -> &'static str {
        match self {
            Context::Global => "global",
            Context::List => "list",
            Context::Detail => "detail",
            Context::Filter => "filter",
            Context::Prompt => "prompt",
            Context::Test => "test",
            Context::Results => "results",
            Context::Checks => "checks",
            Context::Budget => "budget",
            Context::Resource => "resource",
            Context::Confirm => "confirm",
            Context::Help => "help",
            Context::AddSource => "add_source",
            Context::AddPreview => "add_preview",
            Context::Files => "files",
        }
    }

    pub fn from_name(s: &str) -> Option<Context> {
        Context::ALL.into_iter().find(|c| c.name() == s)
    }

    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::List => "Skills list",
            Context::Detail => "Skill detail",
            Context::Filter => "Filter box",
            Context::Prompt => "Prompt preview",
            Context::Test => "Test box",
            Context::Results => "Test results",
            Context::Checks => "Checks",
            Context::Budget => "Budget",
            Context::Resource => "File viewer",
            Context::Confirm => "Confirmation",
            Context::Help => "Help",
            Context::AddSource => "Add: source",
            Context::AddPreview => "Add: preview",
            Context::Files => "Open files box",
        }
    }

    /// Contexts where printable keys are text, not commands.
    pub fn takes_text(self) -> bool {
        matches!(
            self,
            Context::Filter | Context::Test | Context::AddSource | Context::Files
        )
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
    /// Whether a key event is this key, as terminals send it: Shift is part of an upper-case
    /// letter and of a back-tab, so it is not compared for those (crossterm reports `ESC [ Z` as
    /// `BackTab` with `SHIFT`, and `G` with `SHIFT`; the kitty protocol sends Shift-Tab as `Tab`
    /// with `SHIFT`). Other modifiers must match exactly.
    pub fn matches(&self, ev: &KeyEvent) -> bool {
        let (code, mods) = normalized(ev.code, ev.modifiers);
        let (want_code, want_mods) = normalized(self.code, self.mods);
        let mods_match = match code {
            KeyCode::Char(_) => {
                let relevant = KeyModifiers::CONTROL | KeyModifiers::ALT;
                mods & relevant == want_mods & relevant
            }
            _ => mods == want_mods,
        };
        code == want_code && mods_match
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
        let alt = if self.mods.contains(KeyModifiers::ALT) {
            "A-"
        } else {
            ""
        };
        if self.mods.contains(KeyModifiers::CONTROL) {
            format!("C-{alt}{name}")
        } else {
            format!("{alt}{name}")
        }
    }

    /// A key as the config file writes it: `x`, `G`, `space`, `enter`, `f2`, `ctrl-r`, `alt-x`,
    /// `C-r`. Names and modifiers ignore case; a single character keeps it (`g` is not `G`).
    pub fn parse(spec: &str) -> Result<Key, String> {
        let mut rest = spec;
        let mut mods = KeyModifiers::NONE;
        loop {
            let lower = rest.to_ascii_lowercase();
            let prefix = ["ctrl-", "c-", "alt-", "a-", "m-"]
                .into_iter()
                .find(|p| lower.starts_with(p) && rest.len() > p.len());
            match prefix {
                Some(p) => {
                    mods |= if p.starts_with('c') {
                        KeyModifiers::CONTROL
                    } else {
                        KeyModifiers::ALT
                    };
                    rest = &rest[p.len()..];
                }
                None => break,
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_control() => {
                // Terminals report C-a as the lower-case letter with CONTROL.
                if mods.contains(KeyModifiers::CONTROL) {
                    KeyCode::Char(c.to_ascii_lowercase())
                } else {
                    KeyCode::Char(c)
                }
            }
            _ => match rest.to_ascii_lowercase().as_str() {
                "space" => KeyCode::Char(' '),
                "enter" | "return" => KeyCode::Enter,
                "esc" | "escape" => KeyCode::Esc,
                "tab" => KeyCode::Tab,
                "backtab" | "s-tab" | "shift-tab" => KeyCode::BackTab,
                "backspace" | "bksp" => KeyCode::Backspace,
                "delete" | "del" => KeyCode::Delete,
                "insert" | "ins" => KeyCode::Insert,
                "up" => KeyCode::Up,
                "down" => KeyCode::Down,
                "left" => KeyCode::Left,
                "right" => KeyCode::Right,
                "pageup" | "pgup" => KeyCode::PageUp,
                "pagedown" | "pgdn" => KeyCode::PageDown,
                "home" => KeyCode::Home,
                "end" => KeyCode::End,
                f if f.len() >= 2
                    && f.starts_with('f')
                    && f[1..].parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)) =>
                {
                    KeyCode::F(f[1..].parse().unwrap_or(1))
                }
                _ => {
                    return Err(format!(
                        "{spec:?} is not a key: use a character, space, enter, esc, tab, backtab, \
                         backspace, delete, up, down, left, right, pageup, pagedown, home, end, \
                         f1-f12, with ctrl- or alt- in front if needed"
                    ));
                }
            },
        };
        Ok(Key { code, mods })
    }
}

/// A key with the Shift that its code already says taken out (see [`Key::matches`]).
fn normalized(code: KeyCode, mods: KeyModifiers) -> (KeyCode, KeyModifiers) {
    match code {
        KeyCode::Tab if mods.contains(KeyModifiers::SHIFT) => {
            (KeyCode::BackTab, mods - KeyModifiers::SHIFT)
        }
        KeyCode::BackTab | KeyCode::Char(_) => (code, mods - KeyModifiers::SHIFT),
        _ => (code, mods),
    }
}

/// One binding: keys, the action, where it applies, and how help and the footer describe it.
#[derive(Debug, Clone)]
pub struct Binding {
    pub context: Context,
    pub keys: Cow<'static, [Key]>,
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
        keys: Cow::Borrowed(keys),
        action,
        short,
        help,
        footer,
    }
}

use Context as C;

/// The default key map, one binding a line. A letter means one thing wherever it is bound:
/// `m` model, `a` agents, `e` edit, `y` copy, `s` sort (scope in the confirmation, which is
/// about settings files), `/` filter.
#[rustfmt::skip]
pub const KEYMAP: &[Binding] = &[
    // Confirmation popup.
    b(C::Confirm, &[k('y'), code(KeyCode::Enter)], Action::Confirm, "write", "Write the change shown", true),
    b(C::Confirm, &[k('n'), code(KeyCode::Esc), k('q')], Action::Close, "cancel", "Leave the files as they are", true),
    b(C::Confirm, &[k('s')], Action::CycleScope, "scope", "Use the user, project or local settings file instead", true),
    b(C::Confirm, &[k('j'), code(KeyCode::Down)], Action::Down, "scroll", "Scroll the change down", false),
    b(C::Confirm, &[k('k'), code(KeyCode::Up)], Action::Up, "scroll", "Scroll the change up", false),
    // Add flow.
    b(C::AddSource, &[code(KeyCode::Enter)], Action::Confirm, "fetch", "Fetch the source and price its skills (nothing from it runs)", true),
    b(C::AddSource, &[code(KeyCode::Esc)], Action::Close, "cancel", "Close without adding anything", true),
    b(C::AddSource, &[code(KeyCode::Backspace)], Action::Backspace, "erase", "Erase the last character", false),
    b(C::AddSource, &[code(KeyCode::Tab)], Action::CycleAgent, "agent", "Install into the next agent's folder (each agent in turn)", true),
    b(C::AddSource, &[code(KeyCode::BackTab)], Action::CycleScope, "scope", "Install into the user's folder or the project's", true),
    b(C::AddPreview, &[code(KeyCode::Enter), k('y')], Action::Confirm, "install", "Install the checked skills into the agent's folder", true),
    b(C::AddPreview, &[k(' ')], Action::Toggle, "check", "Check or uncheck the selected skill (the listing change follows)", true),
    b(C::AddPreview, &[k('j'), code(KeyCode::Down)], Action::Down, "down", "Next skill", false),
    b(C::AddPreview, &[k('k'), code(KeyCode::Up)], Action::Up, "up", "Previous skill", false),
    b(C::AddPreview, &[code(KeyCode::Esc), k('n'), k('q')], Action::Close, "cancel", "Close without adding anything", true),
    // Help overlay.
    b(C::Help, &[code(KeyCode::Esc), k('?'), k('q')], Action::Close, "close", "Close this help", true),
    b(C::Help, &[k('j'), code(KeyCode::Down)], Action::Down, "scroll", "Scroll down", true),
    b(C::Help, &[k('k'), code(KeyCode::Up)], Action::Up, "scroll", "Scroll up", false),
    b(C::Help, &[code(KeyCode::PageDown), ctrl('d'), k(' ')], Action::PageDown, "page", "Page down", true),
    b(C::Help, &[code(KeyCode::PageUp), ctrl('u')], Action::PageUp, "page", "Page up", false),
    b(C::Help, &[k('g'), code(KeyCode::Home)], Action::Top, "top", "Back to the top", false),
    b(C::Help, &[k('G'), code(KeyCode::End)], Action::Bottom, "end", "To the end", false),
    // Filter box.
    b(C::Filter, &[code(KeyCode::Enter)], Action::AcceptFilter, "keep", "Keep the filter and go back to the list", true),
    b(C::Filter, &[code(KeyCode::Esc)], Action::ClearFilter, "clear", "Clear the filter and go back to the list", true),
    b(C::Filter, &[code(KeyCode::Backspace)], Action::Backspace, "erase", "Erase the last character", false),
    b(C::Filter, &[code(KeyCode::Down)], Action::Down, "down", "Next skill", false),
    b(C::Filter, &[code(KeyCode::Up)], Action::Up, "up", "Previous skill", false),
    // Test box: typing; digits and q are text here.
    b(C::Test, &[code(KeyCode::Esc)], Action::LeaveMessage, "done", "Leave the message box: keys are commands again (digits switch screens, q quits)", true),
    b(C::Test, &[code(KeyCode::Backspace)], Action::Backspace, "erase", "Erase the last character", false),
    b(C::Test, &[ctrl('u')], Action::ClearMessage, "clear", "Erase the message", true),
    b(C::Test, &[code(KeyCode::Down)], Action::Down, "scroll", "Scroll the results down", false),
    b(C::Test, &[code(KeyCode::Up)], Action::Up, "scroll", "Scroll the results up", false),
    // Test screen with the message box left.
    b(C::Results, &[code(KeyCode::Enter), k('i'), k('/')], Action::EditMessage, "type", "Type in the message box again", true),
    b(C::Results, &[k('x')], Action::ClearMessage, "clear", "Erase the message", true),
    b(C::Results, &[k('a')], Action::CycleAgent, "agent", "Next agent (the Prompt screen's too): its skills compete, and what it injects for the message is shown", true),
    // Skills list.
    b(C::List, &[k(' ')], Action::Toggle, "on/off", "Switch the selected skill for the agent in view: in its own settings (shows the change first), or skillscope's own switch for an agent without any", true),
    b(C::List, &[k('/')], Action::Filter, "filter", "Filter by name (fuzzy), or by id with * (web.*)", true),
    b(C::List, &[k('s')], Action::CycleSort, "sort", "Sort by name, cost, agent, diagnostics", true),
    b(C::List, &[k('S')], Action::ReverseSort, "reverse", "Reverse the sort order", false),
    b(C::List, &[k('p')], Action::CycleProfile, "profile", "Judge by the next profile's rules (spec, then each agent's own)", false),
    b(C::List, &[code(KeyCode::Enter), k('l'), code(KeyCode::Right)], Action::Open, "detail", "Open the detail of the selected skill", true),
    b(C::List, &[k('a')], Action::AgentToggle, "agents", "Switch the skill for every agent that reads it, in their own settings (shows the change first)", true),
    b(C::List, &[k('e')], Action::Edit, "edit", EDIT_HELP, true),
    b(C::List, &[k('y')], Action::CopyName, "copy", "Copy the skill's name (OSC 52: works over SSH)", true),
    b(C::List, &[k('Y')], Action::CopyPath, "copy path", "Copy the path of the skill's SKILL.md", false),
    b(C::List, &[code(KeyCode::Esc)], Action::ClearFilter, "unfilter", "Clear the filter", false),
    b(C::List, &[k('A')], Action::AddSkills, "add", "Add skills from a git URL, folder or archive (priced before they land)", false),
    b(C::List, &[k('D')], Action::RemoveSkill, "remove", "Move the selected skill to skillscope's trash (asks first)", false),
    b(C::List, &[k('u')], Action::UndoRemove, "undo", "Put the skill removed last back where it was", false),
    b(C::List, &[k('U')], Action::CheckUpdates, "updates", "Check the sources of added skills for updates (fetches them now, never at start-up)", false),
    // Detail pane.
    b(C::Detail, &[code(KeyCode::Esc), k('h'), code(KeyCode::Left)], Action::Close, "back", "Back to the list", true),
    b(C::Detail, &[k(']')], Action::NextResource, "file", "Select the next resource file (Enter opens it)", true),
    b(C::Detail, &[k('[')], Action::PrevResource, "file", "Select the previous resource file", false),
    b(C::Detail, &[code(KeyCode::Enter)], Action::OpenResource, "open", "Open the selected resource (back to the list when none is selected)", true),
    b(C::Detail, &[k('n')], Action::NextDiagnostic, "diagnostic", "Select the next diagnostic (e opens the file at its line)", true),
    b(C::Detail, &[k('N')], Action::PrevDiagnostic, "diagnostic", "Select the previous diagnostic", false),
    b(C::Detail, &[k('e')], Action::Edit, "edit", EDIT_HELP, true),
    b(C::Detail, &[k('j'), code(KeyCode::Down)], Action::DetailDown, "scroll", "Scroll the detail down", true),
    b(C::Detail, &[k('k'), code(KeyCode::Up)], Action::DetailUp, "scroll", "Scroll the detail up", false),
    b(C::Detail, &[k(' ')], Action::Toggle, "on/off", "Switch the skill for the agent in view (its own settings, or skillscope's own switch for an agent without any)", true),
    b(C::Detail, &[k('a')], Action::AgentToggle, "agents", "Switch the skill in the agents' own settings (shows the change first)", false),
    b(C::Detail, &[k('y')], Action::CopyName, "copy", "Copy the skill's name (OSC 52: works over SSH)", false),
    b(C::Detail, &[k('Y')], Action::CopyPath, "copy path", "Copy the path of the skill's SKILL.md", false),
    // File viewer.
    b(C::Resource, &[code(KeyCode::Esc), k('h'), code(KeyCode::Left)], Action::Close, "close", "Close the file", true),
    b(C::Resource, &[k('j'), code(KeyCode::Down)], Action::Down, "scroll", "Scroll down", true),
    b(C::Resource, &[k('k'), code(KeyCode::Up)], Action::Up, "scroll", "Scroll up", false),
    b(C::Resource, &[k('e')], Action::Edit, "edit", "Open the file in $VISUAL or $EDITOR at the first line shown", true),
    b(C::Resource, &[k('y')], Action::CopyPath, "copy path", "Copy the file's path (OSC 52: works over SSH)", true),
    // Prompt preview.
    b(C::Prompt, &[k('o')], Action::CycleMode, "offered", "Which skills are offered to the listing: enabled, all, auto (only what the Test box's message makes relevant)", true),
    b(C::Prompt, &[k('a')], Action::CycleAgent, "agent", "View the next agent (its skills, fallbacks, switches and format; every screen follows)", true),
    b(C::Prompt, &[k('f')], Action::CycleFormat, "format", "Next listing format (xml, markdown, claude-code, codex, lazy-skills, gemini, opencode)", true),
    b(C::Prompt, &[k('t')], Action::CycleTier, "tier", "Next tier (auto, full, compact, names)", true),
    b(C::Prompt, &[k('w')], Action::CycleWindow, "window", "Next context window size", true),
    b(C::Prompt, &[k('m')], Action::CycleModel, "model", AGENT_MODEL_HELP, true),
    b(C::Prompt, &[k('y')], Action::CopyListing, "copy", "Copy the listing shown (OSC 52: works over SSH)", true),
    b(C::Prompt, &[k('d')], Action::VerifyDiff, "verify diff", "Show the diff of the last `skillscope verify` of this agent's listing, where the client's differed (again: the listing)", false),
    b(C::Prompt, &[k('p')], Action::EditFiles, "files", "Say which files are open: an agent's conditional skills (`paths:`) whose globs match one are listed", true),
    b(C::Files, &[code(KeyCode::Enter)], Action::Confirm, "apply", "Take these files as the open ones (paths relative to the project, spaces or commas between)", true),
    b(C::Files, &[code(KeyCode::Esc)], Action::Close, "cancel", "Leave the open files as they were", true),
    b(C::Files, &[code(KeyCode::Backspace)], Action::Backspace, "erase", "Erase the last character", false),
    b(C::Files, &[ctrl('u')], Action::ClearMessage, "clear", "Erase every file", true),
    // Checks.
    b(C::Checks, &[k('r')], Action::RunChecks, "run probes", "Run --help-json on every executable skill (sandboxed)", true),
    b(C::Checks, &[k('d')], Action::RunDeps, "deps", "Check declared dependencies against each skill's interpreter (sandboxed; installs nothing)", true),
    b(C::Checks, &[k('x'), code(KeyCode::Esc)], Action::CancelChecks, "stop", "Stop the probes that are running", false),
    b(C::Checks, &[code(KeyCode::Enter)], Action::Open, "whole message", "Show the selected skill's probe message whole (Enter again or Esc: back to the table)", false),
    b(C::Checks, &[k('e')], Action::Edit, "edit", "Open the selected skill's SKILL.md in $VISUAL or $EDITOR", false),
    b(C::Checks, &[k('y')], Action::CopyName, "copy", "Copy the skill's name (OSC 52: works over SSH)", false),
    b(C::Checks, &[k('Y')], Action::CopyPath, "copy path", "Copy the path of the skill's SKILL.md", false),
    // Budget.
    b(C::Budget, &[k('a')], Action::CycleAgent, "agent", "View the next agent's listing, budget and fates", true),
    b(C::Budget, &[k('m')], Action::CycleModel, "model", AGENT_MODEL_HELP, true),
    b(C::Budget, &[k('w')], Action::CycleWindow, "window", "Next context window size (the shares follow it)", true),
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
    b(C::Global, &[ctrl('l')], Action::Redraw, "redraw", "Paint the whole screen again", false),
    b(C::Global, &[k('m')], Action::CycleModel, "model", MODEL_HELP, false),
    b(C::Global, &[k('v')], Action::CycleAgent, "view", "View the next agent: every screen follows it", true),
];

const EDIT_HELP: &str = "Open SKILL.md in $VISUAL or $EDITOR at the selected diagnostic's line, then read the skill again";
const MODEL_HELP: &str = "Next model's estimate beside the tiktoken figures";
/// On the Prompt and Budget screens the key also chooses the client's model, where the agent's
/// listing budget depends on it.
const AGENT_MODEL_HELP: &str = "Next model: the agent in view's own (every model its client knows, from the one its settings set), where its budget follows it; else the estimate beside the figures";

/// The bindings in force: the defaults with the config file's `[keys]` merged over them.
#[derive(Debug, Clone)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap {
            bindings: KEYMAP.to_vec(),
        }
    }
}

impl Keymap {
    pub fn bindings(&self) -> &[Binding] {
        &self.bindings
    }

    /// The action bound to a key in the given contexts, most specific first. When a text box
    /// has the focus, printable keys of the other contexts are text and bind nothing.
    pub fn lookup(&self, contexts: &[Context], ev: &KeyEvent) -> Option<Action> {
        let typing = contexts.first().is_some_and(|c| c.takes_text());
        for (i, ctx) in contexts.iter().enumerate() {
            for binding in self.bindings.iter().filter(|b| b.context == *ctx) {
                for key in binding.keys.iter() {
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
    pub fn footer(&self, contexts: &[Context]) -> Vec<&Binding> {
        let typing = contexts.first().is_some_and(|c| c.takes_text());
        let mut out: Vec<&Binding> = Vec::new();
        for (i, ctx) in contexts.iter().enumerate() {
            for binding in self
                .bindings
                .iter()
                .filter(|b| b.context == *ctx && b.footer && !b.keys.is_empty())
            {
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

    /// Binds `action` to `keys` in `context`, or in every context that binds it when `context`
    /// is `None`. A key taken from another action of the same context is moved, and the returned
    /// notes say so.
    pub fn rebind(
        &mut self,
        context: Option<Context>,
        action: Action,
        keys: &[Key],
    ) -> Result<Vec<String>, String> {
        let mut contexts: Vec<Context> = match context {
            Some(c) => vec![c],
            None => self
                .bindings
                .iter()
                .filter(|b| b.action == action)
                .map(|b| b.context)
                .collect(),
        };
        contexts.dedup();
        if contexts.is_empty() {
            return Err(format!(
                "`{}` has no default key anywhere: name the context, as in [keys.list]",
                action.name()
            ));
        }
        for c in &contexts {
            if c.takes_text()
                && let Some(k) = keys.iter().find(|k| k.is_text())
            {
                return Err(format!(
                    "`{}` would be text in the {}, not a command",
                    k.label(),
                    c.title().to_lowercase()
                ));
            }
        }
        let mut notes = Vec::new();
        for c in contexts {
            for other in self
                .bindings
                .iter_mut()
                .filter(|b| b.context == c && b.action != action)
            {
                let before = other.keys.len();
                let kept: Vec<Key> = other
                    .keys
                    .iter()
                    .filter(|k| !keys.contains(k))
                    .copied()
                    .collect();
                if kept.len() != before {
                    let moved: Vec<Key> = other
                        .keys
                        .iter()
                        .filter(|k| keys.contains(k))
                        .copied()
                        .collect();
                    notes.push(format!(
                        "{} in the {} did `{}`; now it does `{}`, and `{}` {}",
                        keys_label_of(&moved),
                        c.title().to_lowercase(),
                        other.action.name(),
                        action.name(),
                        other.action.name(),
                        if kept.is_empty() {
                            "has no key left there".to_string()
                        } else {
                            format!("keeps {}", keys_label_of(&kept))
                        },
                    ));
                    other.keys = Cow::Owned(kept);
                }
            }
            if let Some(b) = self
                .bindings
                .iter_mut()
                .find(|b| b.context == c && b.action == action)
            {
                b.keys = Cow::Owned(keys.to_vec());
            } else {
                // A binding in a new context: it reads as the action does elsewhere.
                let model = KEYMAP.iter().find(|b| b.action == action);
                self.bindings.push(Binding {
                    context: c,
                    keys: Cow::Owned(keys.to_vec()),
                    action,
                    short: model.map_or(action.name(), |m| m.short),
                    help: model.map_or(action.name(), |m| m.help),
                    footer: c != Context::Global,
                });
            }
        }
        Ok(notes)
    }
}

fn keys_label_of(keys: &[Key]) -> String {
    keys.iter().map(Key::label).collect::<Vec<_>>().join("/")
}

/// The keys of a binding that work where the user is: in a text box, printable keys of other
/// contexts are text.
fn usable(binding: &Binding, typing: bool) -> impl Iterator<Item = &Key> {
    binding
        .keys
        .iter()
        .filter(move |k| !(typing && !binding.context.takes_text() && k.is_text()))
}

/// The keys of a binding as shown to the user, e.g. `j/↓`. In a text box, printable keys of
/// other contexts are left out.
pub fn keys_label(binding: &Binding, typing: bool) -> String {
    usable(binding, typing)
        .map(Key::label)
        .collect::<Vec<_>>()
        .join("/")
}

/// The first key of a binding that works where the user is, for the footer.
pub fn first_key_label(binding: &Binding, typing: bool) -> String {
    usable(binding, typing)
        .next()
        .map(Key::label)
        .unwrap_or_default()
}

/// Every context in the order the help overlay lists them.
pub const HELP_ORDER: &[Context] = &[
    Context::Global,
    Context::List,
    Context::Filter,
    Context::Detail,
    Context::Resource,
    Context::Prompt,
    Context::Files,
    Context::Test,
    Context::Results,
    Context::Checks,
    Context::Budget,
    Context::Confirm,
    Context::AddSource,
    Context::AddPreview,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every context once: the help overlay's order, then the ones it leaves out (its own keys).
    fn doc_contexts() -> Vec<Context> {
        let mut all = HELP_ORDER.to_vec();
        all.extend(Context::ALL.iter().filter(|c| !HELP_ORDER.contains(c)));
        all
    }

    /// A key as a markdown code span, safe inside a table cell.
    fn key_md(key: &Key) -> String {
        let label = key.label().replace('|', "\\|");
        if label.contains('`') {
            format!("`` {label} ``")
        } else {
            format!("`{label}`")
        }
    }

    fn keys_md(binding: &Binding) -> String {
        binding
            .keys
            .iter()
            .map(key_md)
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The README's table: one row per context, its keys with the footer's word for each;
    /// neighbouring bindings described by the same word share it (`j`/`↓`/`k`/`↑` scroll).
    fn summary_md(km: &Keymap) -> String {
        let mut s = String::from("| where | keys |\n|---|---|\n");
        for ctx in doc_contexts() {
            let mut groups: Vec<(String, &str)> = Vec::new();
            for b in km.bindings().iter().filter(|b| b.context == ctx) {
                match groups.last_mut() {
                    Some((keys, short)) if *short == b.short => {
                        keys.push('/');
                        keys.push_str(&keys_md(b));
                    }
                    _ => groups.push((keys_md(b), b.short)),
                }
            }
            let cells: Vec<String> = groups.iter().map(|(k, w)| format!("{k} {w}")).collect();
            s.push_str(&format!("| {} | {} |\n", ctx.title(), cells.join(", ")));
        }
        s
    }

    /// docs/app.md's table: every binding with the help overlay's sentence.
    fn full_md(km: &Keymap) -> String {
        let mut s = String::from("| where | keys | what they do |\n|---|---|---|\n");
        for ctx in doc_contexts() {
            for b in km.bindings().iter().filter(|b| b.context == ctx) {
                s.push_str(&format!(
                    "| {} | {} | {} |\n",
                    ctx.title(),
                    keys_md(b),
                    b.help
                ));
            }
        }
        s
    }

    /// Puts `table` between `<!-- keys:NAME … -->` and `<!-- /keys:NAME -->` in `text`.
    fn with_table(text: &str, name: &str, table: &str) -> Option<String> {
        let open = format!("<!-- keys:{name}");
        let close = format!("<!-- /keys:{name} -->");
        let start = text.find(&open)?;
        let body = start + text[start..].find("-->")? + "-->".len();
        let end = body + text[body..].find(&close)?;
        Some(format!(
            "{}\n\n{table}\n{}",
            text[..body].trim_end(),
            &text[end..]
        ))
    }

    #[test]
    fn keys_doc_matches_the_keymap() {
        let km = Keymap::default();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for (file, name, table) in [
            ("README.md", "summary", summary_md(&km)),
            ("docs/app.md", "full", full_md(&km)),
        ] {
            let path = root.join(file);
            let have = std::fs::read_to_string(&path).unwrap();
            let want = with_table(&have, name, &table)
                .unwrap_or_else(|| panic!("{file} lacks the <!-- keys:{name} --> markers"));
            if std::env::var_os("SKILLSCOPE_WRITE_DOCS").is_some() {
                std::fs::write(&path, &want).unwrap();
                continue;
            }
            assert!(
                have == want,
                "the key table in {file} differs from the key map: regenerate it with \
                 `SKILLSCOPE_WRITE_DOCS=1 cargo test --lib _doc_matches`"
            );
        }
    }

    #[test]
    fn keys_doc_tables_hold_every_binding() {
        let km = Keymap::default();
        let full = full_md(&km);
        let summary = summary_md(&km);
        for b in km.bindings() {
            let row = format!("| {} | {} | {} |", b.context.title(), keys_md(b), b.help);
            assert!(full.contains(&row), "{row} missing from the full table");
            assert!(
                summary.contains(&keys_md(b)),
                "{:?} missing from the summary",
                b.keys
            );
        }
        let escaped = key_md(&Key::parse("|").unwrap());
        assert_eq!(escaped, "`\\|`");
        let mut rebound = km.clone();
        rebound
            .rebind(
                Some(Context::List),
                Action::Toggle,
                &[Key::parse("x").unwrap()],
            )
            .unwrap();
        assert_ne!(
            summary_md(&rebound),
            summary,
            "the table follows the bindings"
        );
    }

    fn press(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn specific_context_wins_and_text_boxes_swallow_letters() {
        let km = Keymap::default();
        let q = press(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(
            km.lookup(&[Context::List, Context::Global], &q),
            Some(Action::Quit)
        );
        assert_eq!(km.lookup(&[Context::Test, Context::Global], &q), None);
        let cc = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(
            km.lookup(&[Context::Test, Context::Global], &cc),
            Some(Action::Quit)
        );
        let esc = press(KeyCode::Esc, KeyModifiers::NONE);
        assert_eq!(
            km.lookup(&[Context::Filter, Context::Global], &esc),
            Some(Action::ClearFilter)
        );
        let space = press(KeyCode::Char(' '), KeyModifiers::NONE);
        assert_eq!(
            km.lookup(&[Context::List, Context::Global], &space),
            Some(Action::Toggle)
        );
        let big_g = press(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(
            km.lookup(&[Context::List, Context::Global], &big_g),
            Some(Action::Bottom)
        );
    }

    #[test]
    fn shift_is_matched_as_terminals_send_it() {
        let km = Keymap::default();
        let at = [Context::Budget, Context::Global];
        // `ESC [ Z` arrives as BackTab with SHIFT; the kitty protocol sends Tab with SHIFT.
        for ev in [
            press(KeyCode::BackTab, KeyModifiers::SHIFT),
            press(KeyCode::BackTab, KeyModifiers::NONE),
            press(KeyCode::Tab, KeyModifiers::SHIFT),
        ] {
            assert_eq!(km.lookup(&at, &ev), Some(Action::PrevScreen), "{ev:?}");
        }
        let tab = press(KeyCode::Tab, KeyModifiers::NONE);
        assert_eq!(km.lookup(&at, &tab), Some(Action::NextScreen));
        for mods in [KeyModifiers::SHIFT, KeyModifiers::NONE] {
            let big_g = press(KeyCode::Char('G'), mods);
            assert_eq!(km.lookup(&at, &big_g), Some(Action::Bottom));
        }
        // Other modifiers still count: Ctrl-Tab and Shift-Up are not Tab and Up.
        let ctrl_tab = press(KeyCode::Tab, KeyModifiers::CONTROL);
        assert_eq!(km.lookup(&at, &ctrl_tab), None);
        let shift_up = press(KeyCode::Up, KeyModifiers::SHIFT);
        assert_eq!(km.lookup(&at, &shift_up), None);
        let alt_g = press(KeyCode::Char('g'), KeyModifiers::ALT);
        assert_eq!(km.lookup(&at, &alt_g), None);
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for a in KEYMAP {
            for b in KEYMAP {
                if std::ptr::eq(a, b) || a.context != b.context {
                    continue;
                }
                for ka in a.keys.iter() {
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
        let km = Keymap::default();
        let f = km.footer(&[Context::Test, Context::Global]);
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
