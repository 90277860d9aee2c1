//! Work that must not block the UI — rescans, token counts, probes — run on worker threads and
//! report back on the event channel.

use crate::cli::LibraryArgs;
use crate::core::Library;
use crate::core::agents::{self, AgentSwitches};
use crate::core::probe::{self, ProbeOptions};
use crate::core::rules::{self, CheckOptions, Profile};
use crate::tui::event::{Event, JobEvent};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;

/// Reads the library again and sends it back whole.
pub fn rescan(args: LibraryArgs, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let lib = args.load();
        let _ = tx.send(Event::Job(JobEvent::Rescanned(Box::new(lib))));
    });
}

/// Runs every rule of `profile`, the body rules included (they read every body, so never on the
/// UI thread). `enabled` says which skills are switched on: only those compete in the overlap rule.
pub fn check(
    lib: Arc<Library>,
    profile: Profile,
    enabled: Vec<bool>,
    generation: u64,
    tx: Sender<Event>,
) {
    std::thread::spawn(move || {
        let on = |i: usize| enabled.get(i).copied().unwrap_or(false);
        let opts = CheckOptions {
            profile,
            body: true,
            count_tokens: None,
            enabled: Some(&on),
        };
        let diagnostics = rules::check_library(&lib, &opts);
        let _ = tx.send(Event::Job(JobEvent::Checked {
            generation,
            profile,
            diagnostics,
        }));
    });
}

/// Runs `--help-json` on the given skills (several at once, each sandboxed by the probe module)
/// and reports each as it finishes. Setting `cancel` kills the running ones.
pub fn probe(
    lib: Arc<Library>,
    indices: Vec<usize>,
    cancel: Arc<AtomicBool>,
    generation: u64,
    tx: Sender<Event>,
) {
    std::thread::spawn(move || {
        let opts = ProbeOptions {
            cancel: Some(cancel),
            ..ProbeOptions::default()
        };
        let report_tx = tx.clone();
        probe::probe_all(&lib, &indices, &opts, &move |_, report| {
            let _ = report_tx.send(Event::Job(JobEvent::Probed {
                generation,
                report: Box::new(report.clone()),
            }));
        });
        let _ = tx.send(Event::Job(JobEvent::ProbesDone { generation }));
    });
}

/// Reads every agent's settings files (home and project) for the per-agent badges and toggles.
pub fn load_switches(home: Option<std::path::PathBuf>, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let result = match home {
            Some(home) => {
                let cwd = std::env::current_dir().unwrap_or_else(|_| home.clone());
                let project = agents::project_root(&cwd, Some(&home));
                let (switches, diags) = AgentSwitches::load(&home, project.as_deref());
                Ok((Box::new(switches), diags))
            }
            None => {
                Err("cannot tell where the home folder is: agents' switches not read".to_string())
            }
        };
        let _ = tx.send(Event::Job(JobEvent::Switches(result)));
    });
}

/// Builds the matchers' index (keyword, triggers, BM25, fuzzy) over the library.
pub fn index(lib: Arc<Library>, generation: u64, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let index = Arc::new(crate::core::matching::Index::build(&lib));
        let _ = tx.send(Event::Job(JobEvent::Indexed { generation, index }));
    });
}
