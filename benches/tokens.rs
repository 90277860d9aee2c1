//! Token counting costs on the real corpus: every L1, every L2, all levels cold, all levels with a
//! warm cache (in memory and reloaded from disk).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use skillscope::core::Library;
use skillscope::core::listing::{self, Format};
use skillscope::core::scan::ScanOptions;
use skillscope::core::source::path_roots;
use skillscope::core::tokens::{self, Encoding, TokenCache, no_progress};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    p.is_dir().then_some(p)
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = corpus() else {
        eprintln!(
            "skipping the token benchmarks: no corpus at ../shared/corpus (set SKILLSCOPE_CORPUS)"
        );
        return;
    };
    let enc = Encoding::O200kBase;
    let lib = Library::load(path_roots(&[corpus]), &ScanOptions::default());
    let texts = listing::entries(&lib, Format::Xml);

    // The encoder is built once per process, so its cost is taken here, outside criterion.
    let t = Instant::now();
    enc.warm();
    eprintln!("o200k_base encoder build (tiktoken-rs): {:?}", t.elapsed());

    let mut g = c.benchmark_group("tokens");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    g.bench_function("l1_all", |b| {
        b.iter_batched(
            TokenCache::in_memory,
            |cache| tokens::count_l1(&texts, enc, &cache, &no_progress),
            BatchSize::PerIteration,
        );
    });
    g.bench_function("l2_all", |b| {
        b.iter_batched(
            TokenCache::in_memory,
            |cache| tokens::count_l2(&lib, enc, &cache, &no_progress),
            BatchSize::PerIteration,
        );
    });
    g.bench_function("all_levels_cold", |b| {
        b.iter_batched(
            TokenCache::in_memory,
            |cache| tokens::count_library(&lib, &texts, enc, &cache),
            BatchSize::PerIteration,
        );
    });

    let warm = TokenCache::in_memory();
    tokens::count_library(&lib, &texts, enc, &warm);
    g.bench_function("all_levels_warm_cache", |b| {
        b.iter(|| tokens::count_library(&lib, &texts, enc, &warm));
    });

    let dir = tempfile::tempdir().ok();
    if let Some(dir) = &dir {
        let path = dir.path().join("tokens.bin");
        let cache = TokenCache::at(&path);
        tokens::count_library(&lib, &texts, enc, &cache);
        if cache.save().is_ok() {
            g.bench_function("all_levels_cache_from_disk", |b| {
                b.iter(|| {
                    let cache = TokenCache::at(&path);
                    tokens::count_library(&lib, &texts, enc, &cache)
                });
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
