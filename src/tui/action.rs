//! Everything a key, a click or a wheel turn can ask the app to do.

use strum::IntoEnumIterator as _;

/// The screens, in tab order. Their string form is the name of the action that shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case", prefix = "show_")]
pub enum Screen {
    /// The screen the app opens on.
    #[default]
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

/// Named in the config file by the derived snake_case form of each variant (see [`Action::name`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
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
    /// Scroll the detail pane.
    DetailUp,
    DetailDown,
    /// Select the next or previous resource in the detail pane.
    NextResource,
    PrevResource,
    /// Open the selected resource in a scrollable view (back to the list when none is selected).
    OpenResource,
    CycleFormat,
    /// Next view on the Prompt screen: every skill, then each agent's own.
    CycleAgent,
    CycleTier,
    CycleWindow,
    /// Next listing mode: enabled, all, auto (the Test box's message).
    CycleMode,
    /// Show the next model's estimate beside the tiktoken figures.
    CycleModel,
    /// Run the `--help-json` probe on executable skills.
    RunChecks,
    /// Stop the probes that are running.
    CancelChecks,
    /// Check declared dependencies against each skill's interpreter (sandboxed).
    RunDeps,
    /// Write a toggle through to an agent's own settings file (after a confirmation).
    AgentToggle,
    Confirm,
    /// In the confirmation: plan the change for the next settings scope (user, project, local).
    CycleScope,
    Rescan,
    /// Paint the whole screen again (after another program wrote over it).
    Redraw,
    /// Delete the last character of the text being typed.
    Backspace,
    /// Erase what was typed in the test box.
    ClearMessage,
    /// Open the Add flow: a source, then its skills priced before they land.
    AddSkills,
    /// Move the selected skill to skillscope's trash (after a confirmation).
    RemoveSkill,
    /// Put the skill removed last back where it was.
    UndoRemove,
    /// Fetch the sources of added skills and say which have updates.
    CheckUpdates,
    /// Reverse the order of the skills list.
    ReverseSort,
    /// Select the next or previous diagnostic in the detail pane (what `Edit` opens).
    NextDiagnostic,
    PrevDiagnostic,
    /// Open the file shown in `$VISUAL`/`$EDITOR`, at the selected diagnostic's line.
    Edit,
    /// Copy the selected skill's name (OSC 52: works over SSH).
    CopyName,
    /// Copy the path of the file shown, or of the selected skill's SKILL.md.
    CopyPath,
    /// Copy the listing shown on the Prompt screen.
    CopyListing,
    /// The Prompt screen: show the last `skillscope verify` diff of the listing (again: the
    /// listing).
    VerifyDiff,
    /// Leave the Test box's message (keys are commands again).
    LeaveMessage,
    /// Type in the Test box's message again.
    EditMessage,
    /// Say which files are open (conditional `paths:` skills follow them).
    EditFiles,
}

impl Action {
    /// Every action a key can be bound to, one per screen for `Show`, in declaration order (the
    /// order the config file's warning lists them in).
    pub fn named() -> impl Iterator<Item = Action> {
        Action::iter().flat_map(|a| {
            let (one, screens): (Option<Action>, &[Screen]) = match a {
                Action::Show(_) => (None, &Screen::ALL),
                a => (Some(a), &[]),
            };
            one.into_iter()
                .chain(screens.iter().map(|&s| Action::Show(s)))
        })
    }

    /// The action's name in the config file's `[keys]`: the variant in snake_case, and
    /// `show_<screen>` for `Show`.
    pub fn name(self) -> &'static str {
        match self {
            Action::Show(s) => s.into(),
            a => a.into(),
        }
    }

    pub fn from_name(s: &str) -> Option<Action> {
        Action::named().find(|a| a.name() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bound_action_has_a_unique_name() {
        for b in crate::tui::keymap::KEYMAP {
            let n = b.action.name();
            assert_ne!(n, "?", "{:?} has no name", b.action);
            assert_eq!(Action::from_name(n), Some(b.action));
        }
        let mut names: Vec<&str> = Action::named().map(Action::name).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
        assert!(names.contains(&"show_skills") && names.contains(&"page_up"));
    }
}
