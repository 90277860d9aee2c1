//! The app's start options: what the config file and the command line chose, and the
//! isolated options of tests and benchmarks.

use super::{ENCODING, WINDOWS};
use crate::core::listing::{Format, Tier};
use crate::core::pricing::model::Model;
use crate::core::probe::SandboxPreference;
use crate::core::rules::Profile;
use crate::tui::keymap::Keymap;
use crate::tui::theme::Theme;
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct Options {
    pub theme: Theme,
    /// Watch the roots for changes (off in tests that want a still library).
    pub watch: bool,
    /// skillscope's state file; `None`: the default place (`$SKILLSCOPE_CONFIG_DIR/state.json`).
    pub state_path: Option<PathBuf>,
    /// The home folder whose agent settings are read; `None`: the user's.
    pub home: Option<PathBuf>,
    /// The token cache file; `None`: the default place (`$SKILLSCOPE_CACHE_DIR/tokens.bin`).
    pub cache_path: Option<PathBuf>,
    /// The listing format L1 and the prompt preview start with.
    pub format: Format,
    /// Which sandbox probes ask for (`SKILLSCOPE_SANDBOX` by default).
    pub sandbox: SandboxPreference,
    /// The rules the skills are judged by at first; `None`: the ones fitting the library
    /// (lazy-skills for the demo library, else spec).
    pub profile: Option<Profile>,
    pub tier: Tier,
    /// The context window the preview starts with; it joins the window key's cycle.
    pub context_window: u64,
    /// The window was chosen (in the config file): an agent whose budget follows its client's
    /// model is priced on it, not on its model's window.
    pub window_chosen: bool,
    /// The encoding of every figure the app shows.
    pub encoding: crate::core::tokens::Encoding,
    /// The model whose estimate is shown beside the figures at first; `None`: no estimate.
    pub model: Option<Model>,
    pub keymap: Keymap,
    /// Problems with the config file, shown when the app starts and in the help overlay.
    pub config_notes: Vec<String>,
    /// The config file read, for the help overlay.
    pub config_path: Option<PathBuf>,
    /// What the config's key bindings moved, for the help overlay.
    pub config_info: Vec<String>,
    /// skillscope's data folder (the trash of removed skills); `None`: the default place.
    pub data_path: Option<PathBuf>,
    /// Where each key press is logged with the context it came in and the action it chose
    /// (`SKILLSCOPE_KEY_LOG`): what a terminal's bytes became, for tests and bug reports.
    pub key_log: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            theme: Theme::from_env(),
            watch: true,
            state_path: None,
            home: None,
            cache_path: None,
            format: Format::default(),
            sandbox: SandboxPreference::from_env(),
            profile: None,
            tier: Tier::default(),
            context_window: WINDOWS[0],
            window_chosen: false,
            encoding: ENCODING,
            model: None,
            keymap: Keymap::default(),
            config_notes: Vec::new(),
            config_path: None,
            config_info: Vec::new(),
            data_path: None,
            key_log: None,
        }
    }
}

impl Options {
    /// Plain styles, no watcher, and state and agent settings under `dir`: for tests and
    /// benchmarks that must not touch the user's files.
    pub fn isolated(dir: &std::path::Path) -> Options {
        Options {
            theme: Theme::plain(),
            watch: false,
            state_path: Some(dir.join("config/state.json")),
            home: Some(dir.join("home")),
            cache_path: Some(dir.join("cache/tokens.bin")),
            data_path: Some(dir.join("data")),
            // Tests choose their sandbox themselves, whatever the environment says.
            sandbox: SandboxPreference::Strongest,
            ..Options::default()
        }
    }
}
