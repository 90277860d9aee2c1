//! Why a skill's name cannot be written as a key of opencode's `permission.skill`.

/// What opencode reads in a `permission.skill` key that a rule for the skill's name would turn
/// against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UnsafeName {
    /// `*` or `?`: wildcards it cannot escape.
    #[error(
        "opencode reads `*` and `?` in a permission.skill key as wildcards and has no way to escape them, so a rule for this name would switch other skills too (`*` alone matches every skill)"
    )]
    Wildcard,
    /// `\`: read as `/`.
    #[error(
        "opencode reads `\\` in a permission.skill key as `/`, so a rule for this name would also match the name with `/` in its place"
    )]
    Backslash,
    /// A leading `~` or `$HOME`: replaced with the home folder.
    #[error(
        "opencode replaces a leading `~` or `$HOME` in a permission.skill key with the home folder, so a rule for this name would not match it"
    )]
    HomePrefix,
}
