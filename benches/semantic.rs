//! The semantic and hybrid matchers on the paraphrase set's 625-skill library: one query with
//! the vectors made (what the test box's worker pays per message), the lexical matchers beside
//! them (what the test box pays per keystroke on the UI thread), the message embedding alone,
//! and embedding a batch of skill descriptions cold (the first start's cost per skill).
//!
//! The corpus-wide cold embedding (4,791 skills) and whole-process figures are in
//! `scripts/bench-semantic.sh`.

use criterion::{Criterion, criterion_group, criterion_main};
use skillscope::core::Library;
use skillscope::core::matching::semantic::{SkillVectors, field_texts};
use skillscope::core::matching::sentence::SentenceModel;
use skillscope::core::matching::{Index, Matcher};
use skillscope::core::scan::ScanOptions;
use skillscope::core::source;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    dir.is_dir().then_some(dir)
}

const MESSAGES: [&str; 4] = [
    "my pager week ends tonight, how do I brief the next person",
    "this article reads like a chatbot wrote it",
    "charge customers every month automatically and chase declined cards",
    "good morning!",
];

fn semantic(c: &mut Criterion) {
    let Some(corpus) = corpus() else {
        eprintln!("skipping: the skill corpus is not there (set SKILLSCOPE_CORPUS)");
        return;
    };
    let list = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/eval/paraphrase-library.txt");
    let folders: Vec<PathBuf> = std::fs::read_to_string(list)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| corpus.join(l))
        .collect();
    let lib = Library::load(source::path_roots(&folders), &ScanOptions::default());
    let model = SentenceModel::shared().expect("the model loads");
    let index = Index::build(&lib);
    let vectors = SkillVectors::build(&lib, &|_, _| {}).expect("vectors");
    index.set_vectors(Arc::new(vectors));

    let mut g = c.benchmark_group("semantic_625");
    g.bench_function("embed_message", |b| {
        b.iter(|| black_box(model.embed(black_box(MESSAGES[0])).unwrap()));
    });
    for matcher in [Matcher::Semantic, Matcher::Hybrid] {
        g.bench_function(format!("query_{matcher}"), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % MESSAGES.len();
                black_box(index.query(MESSAGES[i], matcher, &|_| true, 5))
            });
        });
    }
    // Every matcher of the test box on one message (the message embedded once).
    g.bench_function("query_all", |b| {
        b.iter(|| black_box(index.query_all(MESSAGES[1], &|_| true, 8)));
    });
    // The test box's columns answered on the UI thread; the semantic ones are a worker's.
    g.bench_function("query_lexical", |b| {
        b.iter(|| black_box(index.query_many(MESSAGES[1], &Matcher::LEXICAL, &|_| true, 8)));
    });
    g.finish();

    // Cold embedding, 64 descriptions a sample: seconds per thousand skills.
    let texts: Vec<String> = lib
        .skills
        .iter()
        .flat_map(field_texts)
        .map(|(_, t)| t)
        .take(64)
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut g = c.benchmark_group("semantic_embed");
    g.sample_size(10);
    g.bench_function("64_fields", |b| {
        b.iter(|| black_box(model.embed_many(&refs, &|_| {}).unwrap()));
    });
    g.finish();
}

criterion_group!(benches, semantic);
criterion_main!(benches);
