//! Tells the tests whether the skill corpus is beside the checkout (`../shared/corpus`, or
//! `$SKILLSCOPE_CORPUS`): tests that need it are then run, else reported as ignored.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(skillscope_corpus)");
    // Only the variable is watched: a watched folder is scanned on every build, and a missing
    // one would rebuild the crate every time. A corpus added later is run by
    // `cargo test -- --include-ignored` (as `.ci/run` does when it is there).
    println!("cargo::rerun-if-env-changed=SKILLSCOPE_CORPUS");
    println!("cargo::rerun-if-changed=build.rs");
    let corpus = match std::env::var_os("SKILLSCOPE_CORPUS") {
        Some(p) => std::path::PathBuf::from(p),
        None => {
            std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default())
                .join("../shared/corpus")
        }
    };
    if corpus.is_dir() {
        println!("cargo::rustc-cfg=skillscope_corpus");
    }
}
