//! Work that must not block the UI — rescans, token counts, probes — run on worker threads and
//! report back on the event channel.

use crate::cli::LibraryArgs;
use crate::tui::event::{Event, JobEvent};
use std::sync::mpsc::Sender;

/// Reads the library again and sends it back whole.
pub fn rescan(args: LibraryArgs, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let lib = args.load();
        let _ = tx.send(Event::Job(JobEvent::Rescanned(Box::new(lib))));
    });
}
