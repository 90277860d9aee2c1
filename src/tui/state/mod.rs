//! What the app holds beside its screens, below them: the small parts of the shared state
//! (`parts.rs`), the matchers' indexes and the Test box's jobs (`matching.rs`), what it waits for from its workers (`work.rs`; what the workers answer with is
//! `tui::answers`, below the event type), and the view of it all a draw reads (`view.rs`). Nothing here names the app
//! or a screen, so the screens draw from a [`view::View`], never from the app.

pub mod in_view;
pub mod matching;
pub(crate) mod parts;
pub mod view;
pub(crate) mod work;
