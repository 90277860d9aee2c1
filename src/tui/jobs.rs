//! Work that must not block the UI — rescans, token counts, probes — run on worker threads and
//! report back on the event channel.

use crate::cli::LibraryArgs;
use crate::core::Library;
use crate::core::rules::{self, CheckOptions, Profile};
use crate::tui::event::{Event, JobEvent};
use std::sync::Arc;
use std::sync::mpsc::Sender;

/// Reads the library again and sends it back whole.
pub fn rescan(args: LibraryArgs, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let lib = args.load();
        let _ = tx.send(Event::Job(JobEvent::Rescanned(Box::new(lib))));
    });
}

/// Runs every rule of `profile`, the body rules included (they read every body, so never on the
/// UI thread).
pub fn check(lib: Arc<Library>, profile: Profile, generation: u64, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let opts = CheckOptions {
            profile,
            body: true,
            count_tokens: None,
        };
        let diagnostics = rules::check_library(&lib, &opts);
        let _ = tx.send(Event::Job(JobEvent::Checked {
            generation,
            profile,
            diagnostics,
        }));
    });
}
