//! The helpers the screens' draws share (`parts.rs`), the tab line and the footer (`header.rs`,
//! `footer.rs`): below the screens, reading only the view (`tui::state::view::View`) and never
//! the app. The frame itself is drawn by `tui::frame`; the wrap cache is `tui::wrapped`.

pub(crate) mod footer;
pub(crate) mod header;
pub(crate) mod parts;

pub use parts::{bar, centered, cost, cost_in, wrap};

pub use crate::core::words::text::{fit as truncate, thousands};

pub use crate::tui::layout::{Areas, WIDE, layout};
