use clap::{CommandFactory, FromArgMatches};
use skillscope::cli::{self, Cli, Command};
use skillscope::config::{self, Config};

/// jemalloc: a warm start is mostly many small allocations made on both cores at once (the
/// index's records, the rules' findings), which it serves from per-thread caches without the
/// heap growth (`mprotect`) and arena locking that glibc's allocator spends a fifth of the time
/// on. See docs/performance.md.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's settings, read before `main`: freed pages go back to the system at once rather
/// than after 10 s, so the peak RSS is what is live, not what was live a while ago (a command's
/// whole run is shorter than the default delay). `_RJEM_MALLOC_CONF` in the environment still
/// overrides it.
#[allow(unsafe_code, reason = "jemalloc reads its settings from this C symbol")]
#[unsafe(export_name = "_rjem_malloc_conf")]
static ALLOCATOR_SETTINGS: AllocatorSettings =
    AllocatorSettings(c"dirty_decay_ms:0,muzzy_decay_ms:0".as_ptr());

/// A C string pointer that jemalloc reads (as `const char *malloc_conf`).
#[repr(transparent)]
struct AllocatorSettings(*const std::ffi::c_char);

// SAFETY: the pointer is to a string literal, which is never written.
#[allow(
    unsafe_code,
    reason = "a static must be Sync, and a raw pointer is not"
)]
unsafe impl Sync for AllocatorSettings {}

/// Tells jemalloc to keep the pages it frees while the sentence model embeds many texts (each
/// batch allocates again what the last one freed: given back at once, they cost a page fault
/// each time, a third of a cold embedding's time) and, when it is done, to give them back and
/// return to freeing at once. Arenas not yet in use refuse the setting, which is harmless: the
/// default for new ones is set too.
fn heap_for_embedding(long_run: bool) {
    let decay: isize = if long_run { -1 } else { 0 };
    let mut narenas: u32 = 0;
    let mut len = std::mem::size_of::<u32>();
    #[allow(
        unsafe_code,
        reason = "jemalloc's control interface is a C function over raw pointers"
    )]
    // SAFETY: each name is a NUL-terminated string; each value pointer and length is that of
    // a local of the type jemalloc documents for the name (unsigned for `arenas.narenas`,
    // ssize_t for the decays, nothing for `purge`).
    unsafe {
        let set = |name: &std::ffi::CStr, value: isize| {
            let mut v = value;
            tikv_jemalloc_sys::mallctl(
                name.as_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                (&raw mut v).cast(),
                std::mem::size_of::<isize>(),
            );
        };
        set(c"arenas.dirty_decay_ms", decay);
        set(c"arenas.muzzy_decay_ms", decay);
        tikv_jemalloc_sys::mallctl(
            c"arenas.narenas".as_ptr(),
            (&raw mut narenas).cast(),
            &raw mut len,
            std::ptr::null_mut(),
            0,
        );
        for i in 0..narenas {
            for what in ["dirty_decay_ms", "muzzy_decay_ms"] {
                if let Ok(name) = std::ffi::CString::new(format!("arena.{i}.{what}")) {
                    set(&name, decay);
                }
            }
        }
        if !long_run {
            // MALLCTL_ARENAS_ALL: every arena gives back what it holds unused.
            tikv_jemalloc_sys::mallctl(
                c"arena.4096.purge".as_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
            );
        }
    }
}

/// candle spreads its element-wise operations over a pool of threads of its own, sized once
/// from `CANDLE_NUM_THREADS` (else the number of cores). The sentence model runs two batches at
/// once, one on each core, and that pool would only make them wait for each other at its
/// barrier, so it is made with no thread of its own: set first thing, while the process has one
/// thread, and taken out of the environment again, so that nothing the process starts inherits
/// it. A `CANDLE_NUM_THREADS` the user set is left as it is. (Built without the `semantic`
/// feature there is no candle.)
#[cfg(feature = "semantic")]
fn candle_pool_without_threads() {
    const NAME: &str = "CANDLE_NUM_THREADS";
    if std::env::var_os(NAME).is_some() {
        return;
    }
    #[allow(
        unsafe_code,
        reason = "changing the environment is unsafe once threads exist"
    )]
    // SAFETY: called first in `main`, before this process starts any thread.
    unsafe {
        std::env::set_var(NAME, "1");
    }
    let _ = candle_core::utils::barrier_pool();
    #[allow(
        unsafe_code,
        reason = "changing the environment is unsafe once threads exist"
    )]
    // SAFETY: as above; the pool made no thread.
    unsafe {
        std::env::remove_var(NAME);
    }
}

fn main() {
    #[cfg(feature = "semantic")]
    candle_pool_without_threads();
    skillscope::tui::note_process_start();
    skillscope::core::matching::sentence::set_heap_hook(heap_for_embedding);
    // The probe sandbox runs this binary again to set itself up: before anything else.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(code) = skillscope::core::probe::sandbox_stage(&args) {
        std::process::exit(code);
    }
    // `verify` runs this binary inside the sandbox too, as the command: mock and client.
    if let Some(code) = skillscope::core::verify::stage(&args) {
        std::process::exit(code);
    }
    skillscope::core::probe::set_sandbox_program("/proc/self/exe");
    let mut config = Config::load();
    // The key bindings are the app's to read; a wrong one is reported by every command, as
    // the rest of the file is.
    let bindings = skillscope::tui::settings::read(&mut config);
    let config = config::activate(config);
    // A shell asking for completions (`COMPLETE=bash skillscope -- …`) is answered here, before
    // anything else is written; the config's roots name the skills `show` and `toggle` complete.
    clap_complete::CompleteEnv::with_factory(|| cli::defaults::apply(config, Cli::command()))
        .var(cli::complete::VAR)
        .complete();
    let command = cli::defaults::apply(config, Cli::command());
    // `skillscope chek` is a typo, not a folder to open: said before clap reads the rest (a
    // subcommand's options would otherwise be refused as the app's).
    if let Some(message) = cli::typo::mistyped_command(&command, &args) {
        eprintln!("skillscope: {message}");
        std::process::exit(2);
    }
    let matches = command.get_matches_from(args);
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    skillscope::color::choose(cli.color);
    let code = match cli.command {
        Some(command) => {
            // Completions and the man page do not read the config; everything else says what
            // is wrong with it (on stderr, never on stdout where the output goes).
            if !matches!(command, Command::Completions { .. } | Command::Man) {
                for w in config.warnings() {
                    eprintln!(
                        "skillscope: warning: {}",
                        skillscope::core::text::line(&w.clone())
                    );
                }
            }
            match cli::run(command) {
                Ok(code) => code,
                // A reader that stops early (`| head`) is not an error.
                Err(e) if is_broken_pipe(&e) => 0,
                Err(e) => {
                    eprintln!(
                        "skillscope: {}",
                        skillscope::core::text::line(&format!("{e:#}"))
                    );
                    2
                }
            }
        }
        None => match skillscope::tui::run(
            cli.library.spec(),
            skillscope::tui::settings::options(config, bindings),
        ) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!(
                    "skillscope: {}",
                    skillscope::core::text::line(&format!("{e:#}"))
                );
                1
            }
        },
    };
    std::process::exit(code);
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
