//! Trigger simulation speed on the real corpus: index build, and one query per matcher as the
//! test box runs it on every keystroke; plus the overlap clustering that `check` runs.

use criterion::{Criterion, criterion_group, criterion_main};
use skillscope::core::Library;
use skillscope::core::matching::{Index, Matcher};
use skillscope::core::rules::overlap;
use skillscope::core::scan::ScanOptions;
use skillscope::core::source;
use std::hint::black_box;
use std::path::PathBuf;

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    dir.is_dir().then_some(dir)
}

/// Messages as typed, keystroke by keystroke: every prefix of a few realistic requests.
fn keystrokes() -> Vec<String> {
    let messages = [
        "fill out the pdf form and merge it with the excel report",
        "Write pytest fixtures and mocks for the payment module",
        "our kubernetes deployment keeps crashing, check the helm chart and the ingress",
        "scan this web application for sql injection and xss vulnerabilities",
    ];
    let mut out = Vec::new();
    for m in messages {
        for (i, _) in m.char_indices().skip(1) {
            out.push(m[..i].to_string());
        }
        out.push(m.to_string());
    }
    out
}

fn matching(c: &mut Criterion) {
    let Some(dir) = corpus() else {
        eprintln!(
            "benches/matching: corpus not found (set SKILLSCOPE_CORPUS or put it at ../shared/corpus); skipping"
        );
        return;
    };
    let lib = Library::load(source::path_roots(&[dir]), &ScanOptions::default());
    eprintln!("benches/matching: {} skills", lib.len());
    let mut g = c.benchmark_group("matching");
    g.sample_size(20);
    // The old index is dropped off the clock: a front end drops it on a worker.
    g.bench_function("index_build", |b| {
        b.iter_with_large_drop(|| Index::build(black_box(&lib)));
    });
    g.bench_function("overlap_clusters", |b| {
        b.iter(|| overlap::clusters(black_box(&lib), &|_| true));
    });
    g.finish();

    let index = Index::build(&lib);
    let keys = keystrokes();
    let enabled = |i: usize| lib.skills[i].shadowed_by.is_none();
    let mut g = c.benchmark_group("query_per_keystroke");
    for &m in Matcher::ALL {
        // One iteration answers every keystroke of the messages; the figure per keystroke is
        // the time divided by their count.
        g.throughput(criterion::Throughput::Elements(keys.len() as u64));
        g.bench_function(m.as_str(), |b| {
            b.iter(|| {
                for k in &keys {
                    black_box(index.query(black_box(k), m, &enabled, 10));
                }
            });
        });
    }
    g.finish();
}

criterion_group!(benches, matching);
criterion_main!(benches);
