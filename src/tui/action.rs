//! Everything a key, a click or a wheel turn can ask the app to do.

/// The screens, in tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    Skills,
    Prompt,
    Test,
    Checks,
    Budget,
}

impl Screen {
    pub const ALL: [Screen; 5] = [
        Screen::Skills,
        Screen::Prompt,
        Screen::Test,
        Screen::Checks,
        Screen::Budget,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Skills => "Skills",
            Screen::Prompt => "Prompt",
            Screen::Test => "Test",
            Screen::Checks => "Checks",
            Screen::Budget => "Budget",
        }
    }

    pub fn index(self) -> usize {
        Screen::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    Help,
    Close,
    NextScreen,
    PrevScreen,
    Show(Screen),
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    /// Switch the selected skill on or off (persisted at once).
    Toggle,
    /// Start typing a fuzzy filter over the list.
    Filter,
    /// Leave the filter box, keeping what was typed.
    AcceptFilter,
    /// Leave the filter box and clear the filter.
    ClearFilter,
    CycleSort,
    /// Judge the skills by the next agent profile's rules.
    CycleProfile,
    /// Open the detail (narrow terminals) or move the focus into it (wide ones).
    Open,
    /// Select the next or previous resource in the detail pane.
    NextResource,
    PrevResource,
    /// Open the selected resource in a scrollable view (back to the list when none is selected).
    OpenResource,
    /// Scroll the detail pane.
    DetailUp,
    DetailDown,
    CycleFormat,
    CycleTier,
    /// Next listing mode: enabled, all, auto (the Test box's message).
    CycleMode,
    CycleWindow,
    /// Run the `--help-json` probe on executable skills.
    RunChecks,
    /// Check declared dependencies against each skill's interpreter (sandboxed).
    RunDeps,
    /// Stop the probes that are running.
    CancelChecks,
    /// Write a toggle through to an agent's own settings file (after a confirmation).
    AgentToggle,
    Confirm,
    /// In the confirmation: plan the change for the next settings scope (user, project, local).
    CycleScope,
    Rescan,
    /// Delete the last character of the text being typed.
    Backspace,
    /// Erase what was typed in the test box.
    ClearMessage,
}
