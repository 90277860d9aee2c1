//! Tells the tests whether the skill corpus is beside the checkout (`../shared/corpus`, or
//! `$SKILLSCOPE_CORPUS`): tests that need it are then run, else reported as ignored. Tells the
//! program whether the sentence model's weights are here to embed (`assets/model`, in a git
//! checkout; the published crate leaves them out, and the program then reads the ones
//! `skillscope model install` puts in its data folder).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(skillscope_corpus)");
    println!("cargo::rustc-check-cfg=cfg(skillscope_embedded_model)");
    // Only the variable is watched: a watched folder is scanned on every build, and a missing
    // one would rebuild the crate every time. A corpus added later is run by
    // `cargo test -- --include-ignored` (as `.ci/run` does when it is there).
    println!("cargo::rerun-if-env-changed=SKILLSCOPE_CORPUS");
    println!("cargo::rerun-if-changed=build.rs");
    // The model's folder is in the crate too (its tokenizer and license), so watching it never
    // watches a missing path.
    println!("cargo::rerun-if-changed=assets/model");
    let manifest =
        std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let corpus = match std::env::var_os("SKILLSCOPE_CORPUS") {
        Some(p) => std::path::PathBuf::from(p),
        None => manifest.join("../shared/corpus"),
    };
    if corpus.is_dir() {
        println!("cargo::rustc-cfg=skillscope_corpus");
    }
    if manifest.join("assets/model/model.safetensors").is_file() {
        println!("cargo::rustc-cfg=skillscope_embedded_model");
    }
}
