//! Scan and check costs on the real corpus: walk + frontmatter read, frontmatter rules, all rules.

use criterion::{Criterion, criterion_group, criterion_main};
use skillscope::core::Library;
use skillscope::core::rules::{self, CheckOptions, Profile};
use skillscope::core::scan::ScanOptions;
use skillscope::core::source::path_roots;
use std::path::PathBuf;
use std::time::Duration;

fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    p.is_dir().then_some(p)
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = corpus() else {
        eprintln!("skipping: no corpus at ../shared/corpus (set SKILLSCOPE_CORPUS)");
        return;
    };
    let roots = path_roots(&[corpus]);
    let mut g = c.benchmark_group("corpus");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.bench_function("scan_to_metadata", |b| {
        b.iter(|| Library::load(roots.clone(), &ScanOptions::default()));
    });
    let lib = Library::load(roots.clone(), &ScanOptions::default());
    g.bench_function("frontmatter_rules", |b| {
        b.iter(|| {
            rules::check_library(
                &lib,
                &CheckOptions {
                    per_agent: false,
                    profile: Profile::Spec,
                    body: false,
                    tokens: None,
                    enabled: None,
                    selection: None,
                    vectors: None,
                    shadowed: None,
                },
            )
        });
    });
    g.bench_function("all_rules_with_bodies", |b| {
        b.iter(|| {
            rules::check_library(
                &lib,
                &CheckOptions {
                    per_agent: false,
                    profile: Profile::Spec,
                    body: true,
                    tokens: None,
                    enabled: None,
                    selection: None,
                    vectors: None,
                    shadowed: None,
                },
            )
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
