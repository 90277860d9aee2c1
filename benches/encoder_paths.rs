//! Where cold counting's CPU goes: the corpus's SKILL.md and text resources (what L2 and L3 count)
//! through tiktoken-rs's `encode_ordinary` on whole texts, through `tokens::count` (segments past
//! 64 KiB) on one thread and on every core, through `tokens::count_up_to` at the body rule's
//! limit, and the split pattern alone. Prints CPU time (user + system) and wall time of each, and
//! checks that the counts agree. Run: `SKILLSCOPE_CORPUS=../shared/corpus cargo bench --bench
//! encoder_paths` (a few minutes: every path counts about 80 MB).

use rayon::prelude::*;
use skillscope::core::Library;
use skillscope::core::scan::ScanOptions;
use skillscope::core::source::path_roots;
use skillscope::core::tokens::{self, Encoding};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    p.is_dir().then_some(p)
}

/// The process's CPU time so far, where the system tells it (`getrusage` on Unix).
#[cfg(unix)]
fn cpu() -> Option<Duration> {
    use nix::sys::resource::{UsageWho, getrusage};
    getrusage(UsageWho::RUSAGE_SELF).ok().map(|u| {
        let t = |v: nix::sys::time::TimeVal| {
            Duration::new(v.tv_sec() as u64, v.tv_usec() as u32 * 1000)
        };
        t(u.user_time()) + t(u.system_time())
    })
}

#[cfg(not(unix))]
fn cpu() -> Option<Duration> {
    None
}

fn measure(what: &str, f: impl FnOnce() -> usize) -> usize {
    let (c, w) = (cpu(), Instant::now());
    let n = f();
    let used = c.zip(cpu()).map_or_else(
        || "n/a".to_owned(),
        |(c, now)| format!("{:.2}", now.saturating_sub(c).as_secs_f64()),
    );
    println!(
        "{what:<48} {n:>10} tokens  {used:>6} s CPU  {:>6.2} s wall",
        w.elapsed().as_secs_f64()
    );
    n
}

fn main() {
    // cargo bench passes `--bench`; a filter naming another benchmark means "not this one".
    if std::env::args().skip(1).any(|a| !a.starts_with('-')) {
        return;
    }
    let Some(corpus) = corpus() else {
        eprintln!(
            "skipping the encoder paths benchmark: no corpus at ../shared/corpus (set SKILLSCOPE_CORPUS)"
        );
        return;
    };
    let lib = Library::load(path_roots(&[corpus]), &ScanOptions::default());
    let mut texts: Vec<String> = Vec::new();
    for s in &lib.skills {
        texts.extend(std::fs::read(&s.skill_md).ok().map(lossy));
        for r in s.resources.iter().filter(|r| r.text) {
            texts.extend(std::fs::read(s.dir.join(&r.rel)).ok().map(lossy));
        }
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    println!("{} texts, {bytes} bytes, o200k_base", texts.len());
    let enc = Encoding::O200kBase;
    enc.warm();
    let bpe = tiktoken_rs::o200k_base_singleton();
    let whole = measure("encode_ordinary, whole texts, one thread", || {
        texts.iter().map(|t| bpe.encode_ordinary(t).len()).sum()
    });
    let one = measure("tokens::count, one thread", || {
        texts.iter().map(|t| tokens::count(enc, t)).sum()
    });
    let every = measure("tokens::count, every core (as L2/L3 do)", || {
        texts.par_iter().map(|t| tokens::count(enc, t)).sum()
    });
    assert_eq!((one, every), (whole, whole), "the paths disagree");
    measure("tokens::count_up_to(5,000), one thread", || {
        texts
            .iter()
            .map(|t| tokens::count_up_to(enc, t, 5_000))
            .sum()
    });
    let pattern = fancy_regex::Regex::new(tiktoken_rs::O200K_BASE_PAT_STR);
    if let Ok(pattern) = pattern {
        measure("the split pattern alone (pieces), one thread", || {
            texts.iter().map(|t| pattern.find_iter(t).count()).sum()
        });
    }
}

fn lossy(b: Vec<u8>) -> String {
    String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}
