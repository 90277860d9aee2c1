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
    /// Next view on the Prompt screen: every skill, then each agent's own.
    CycleAgent,
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
    /// Show the next model's estimate beside the tiktoken figures.
    CycleModel,
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
    /// Leave the Test box's message (keys are commands again).
    LeaveMessage,
    /// Type in the Test box's message again.
    EditMessage,
    /// Say which files are open (conditional `paths:` skills follow them).
    EditFiles,
}

impl Action {
    /// Every action that a key can be bound to, by its name in the config file's `[keys]`.
    pub const NAMED: &[(&'static str, Action)] = &[
        ("quit", Action::Quit),
        ("help", Action::Help),
        ("close", Action::Close),
        ("next_screen", Action::NextScreen),
        ("prev_screen", Action::PrevScreen),
        ("show_skills", Action::Show(Screen::Skills)),
        ("show_prompt", Action::Show(Screen::Prompt)),
        ("show_test", Action::Show(Screen::Test)),
        ("show_checks", Action::Show(Screen::Checks)),
        ("show_budget", Action::Show(Screen::Budget)),
        ("up", Action::Up),
        ("down", Action::Down),
        ("page_up", Action::PageUp),
        ("page_down", Action::PageDown),
        ("top", Action::Top),
        ("bottom", Action::Bottom),
        ("toggle", Action::Toggle),
        ("filter", Action::Filter),
        ("accept_filter", Action::AcceptFilter),
        ("clear_filter", Action::ClearFilter),
        ("cycle_sort", Action::CycleSort),
        ("cycle_profile", Action::CycleProfile),
        ("open", Action::Open),
        ("detail_up", Action::DetailUp),
        ("detail_down", Action::DetailDown),
        ("next_resource", Action::NextResource),
        ("prev_resource", Action::PrevResource),
        ("open_resource", Action::OpenResource),
        ("cycle_format", Action::CycleFormat),
        ("cycle_agent", Action::CycleAgent),
        ("cycle_tier", Action::CycleTier),
        ("cycle_window", Action::CycleWindow),
        ("cycle_mode", Action::CycleMode),
        ("cycle_model", Action::CycleModel),
        ("run_checks", Action::RunChecks),
        ("cancel_checks", Action::CancelChecks),
        ("run_deps", Action::RunDeps),
        ("agent_toggle", Action::AgentToggle),
        ("confirm", Action::Confirm),
        ("cycle_scope", Action::CycleScope),
        ("rescan", Action::Rescan),
        ("backspace", Action::Backspace),
        ("clear_message", Action::ClearMessage),
        ("add_skills", Action::AddSkills),
        ("remove_skill", Action::RemoveSkill),
        ("undo_remove", Action::UndoRemove),
        ("check_updates", Action::CheckUpdates),
        ("reverse_sort", Action::ReverseSort),
        ("next_diagnostic", Action::NextDiagnostic),
        ("prev_diagnostic", Action::PrevDiagnostic),
        ("edit", Action::Edit),
        ("copy_name", Action::CopyName),
        ("copy_path", Action::CopyPath),
        ("copy_listing", Action::CopyListing),
        ("leave_message", Action::LeaveMessage),
        ("edit_message", Action::EditMessage),
        ("edit_files", Action::EditFiles),
    ];

    pub fn name(self) -> &'static str {
        Action::NAMED
            .iter()
            .find(|(_, a)| *a == self)
            .map_or("?", |(n, _)| n)
    }

    pub fn from_name(s: &str) -> Option<Action> {
        Action::NAMED.iter().find(|(n, _)| *n == s).map(|(_, a)| *a)
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
        let mut names: Vec<&str> = Action::NAMED.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Action::NAMED.len());
    }
}
