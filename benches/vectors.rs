//! Cold sentence vectors: every field of a fixed set of skills embedded with nothing
//! remembered, as a library's first semantic run pays for it (the model loaded once before, as
//! a run loads it once). The set is the first 100 skills of the paraphrase set's library
//! (`tests/eval/paraphrase-library.txt`) when the corpus is there, else the bundled demo
//! library, so that a slower matrix kernel, a buffer zeroed again or a worse batching shows.
//!
//!     SKILLSCOPE_CORPUS=../shared/corpus cargo bench --bench vectors
//!
//! It runs only under `cargo bench` (criterion's `--bench` flag): `cargo test --all-targets`
//! builds this file and runs nothing. `VECTOR_SKILLS` sets how many skills of the paraphrase
//! set to take (default 100, at most 625); `VECTOR_LIST` another list of corpus folders, one a
//! line (`tests/eval/paraphrase-library-2.txt`, the 600 skills of `scripts/bench.sh`'s row).

use criterion::Criterion;
use skillscope::core::Library;
use skillscope::core::matching::semantic::{SkillVectors, field_texts, key};
use skillscope::core::matching::sentence::SentenceModel;
use skillscope::core::scan::ScanOptions;
use skillscope::core::source;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    p.is_dir().then_some(p)
}

/// The skills' folders and the bench's name for them.
fn skill_set() -> (String, Vec<PathBuf>) {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if let Some(corpus) = corpus() {
        let n = std::env::var("VECTOR_SKILLS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(100);
        let other = std::env::var_os("VECTOR_LIST");
        let list_file = other.as_ref().map_or_else(
            || manifest.join("tests/eval/paraphrase-library.txt"),
            |l| manifest.join(l),
        );
        let list = std::fs::read_to_string(&list_file).unwrap_or_default();
        let folders: Vec<PathBuf> = list
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(n)
            .map(|l| corpus.join(l))
            .collect();
        if !folders.is_empty() {
            // The default set keeps its name, so that criterion compares with earlier runs.
            let set = match (&other, list_file.file_stem()) {
                (Some(_), Some(stem)) => stem.to_string_lossy().replace('-', "_"),
                _ => "paraphrase".to_string(),
            };
            return (format!("{set}_first_{}", folders.len()), folders);
        }
    }
    eprintln!("no corpus at ../shared/corpus (set SKILLSCOPE_CORPUS): the demo library instead");
    ("demo".to_string(), vec![manifest.join("assets/skills")])
}

fn main() {
    // `cargo test --all-targets` runs a bench without `--bench`: it is built, and nothing runs.
    if !std::env::args().any(|a| a == "--bench") {
        eprintln!("vectors: runs under `cargo bench` only");
        return;
    }
    let (name, folders) = skill_set();
    // No cache folder given: the library has no index, so nothing is remembered between runs.
    let lib = Library::load(source::path_roots(&folders), &ScanOptions::default());
    let model = SentenceModel::shared().expect("the model loads");
    // Each field's text once, as the build embeds it.
    let texts: std::collections::BTreeMap<_, String> = lib
        .skills
        .iter()
        .flat_map(field_texts)
        .map(|(f, t)| (key(f, &t), t))
        .collect();
    let tokens: usize = texts
        .values()
        .map(|t| model.token_ids(t).map_or(0, |ids| ids.len()))
        .sum();
    eprintln!(
        "{name}: {} skills, {} distinct texts, {tokens} tokens",
        lib.skills.len(),
        texts.len()
    );
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("vectors_cold");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(20));
    g.bench_function(&name, |b| {
        b.iter(|| {
            let v = SkillVectors::build(&lib, &|_, _| {}).expect("vectors");
            assert_eq!(v.embedded, texts.len());
            black_box(v)
        });
    });
    g.finish();
    c.final_summary();
}
