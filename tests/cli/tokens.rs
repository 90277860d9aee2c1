//! Token counts equal Python tiktoken's `encode_ordinary`, per level, and the cache makes an
//! unchanged library free to count again.
//!
//! Every expected count below was produced by Python tiktoken 0.14 (`len(enc.encode_ordinary(t))`,
//! files decoded with `errors="replace"`), not by this crate.

use skillscope::core::Library;
use skillscope::core::listing::{self, Format};
use skillscope::core::scan::ScanOptions;
use skillscope::core::source::path_roots;
use skillscope::core::tokens::{self, Encoding, TokenCache};
use std::path::{Path, PathBuf};
use std::process::Command;

/// (text, o200k_base, cl100k_base)
const STRINGS: &[(&str, usize, usize)] = &[
    ("hello world", 2, 2),
    (
        "<|endoftext|> and <|im_start|> are ordinary text here",
        18,
        17,
    ),
    (
        "Ünïcödé — 日本語テキスト 🎉 emoji 👩\u{200d}👩\u{200d}👧",
        22,
        31,
    ),
    ("   \n\n\t  indented\r\n\r\nCRLF lines", 8, 8),
    ("fn main() {\n    println!(\"{}\", 1 + 2);\n}\n", 14, 14),
    ("I'm sure they'll've DONE it'S", 7, 9),
    ("12345678901234567890", 7, 7),
    ("", 0, 0),
];

/// (fixture file, o200k_base, cl100k_base)
const FILES: &[(&str, u32, u32)] = &[
    ("plain.md", 108, 109),
    ("crlf_bom.md", 41, 40),
    ("not_utf8.md", 30, 33),
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tokens")
        .join(name)
}

#[test]
fn counts_match_python_tiktoken_on_fixed_strings() {
    for (text, o200k, cl100k) in STRINGS {
        assert_eq!(
            tokens::count(Encoding::O200kBase, text),
            *o200k,
            "o200k {text:?}"
        );
        assert_eq!(
            tokens::count(Encoding::Cl100kBase, text),
            *cl100k,
            "cl100k {text:?}"
        );
    }
}

#[test]
fn counts_match_python_tiktoken_on_files_including_bad_utf8() {
    let cache = TokenCache::in_memory();
    for (name, o200k, cl100k) in FILES {
        let p = fixture(name);
        let stat = skillscope::core::files::fsx::Stamp {
            mtime_ns: 0, // unknown: always read
            ..skillscope::core::files::fsx::Stamp::of(&std::fs::metadata(&p).unwrap())
        };
        let got = |enc| tokens::count_file(&p, &stat, enc, &cache).unwrap();
        assert_eq!(got(Encoding::O200kBase), *o200k, "o200k {name}");
        assert_eq!(got(Encoding::Cl100kBase), *cl100k, "cl100k {name}");
    }
}

/// Texts of every kind: each file of the demo library and of the fixtures, and made-up ones.
fn varied_texts() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut dirs = vec![
        root.join("assets/skills"),
        root.join("tests/fixtures/tokens"),
    ];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 20, "the demo library is missing");
    let mut texts: Vec<String> = files
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect();
    texts.extend(STRINGS.iter().map(|(t, ..)| t.to_string()));
    texts.extend([
        // Whitespace runs of every kind and length, alone and before text.
        " ".repeat(40_000),
        format!("a{}b", " ".repeat(12_345)),
        format!("{}x", "\t \n".repeat(3_000)),
        "\r\n".repeat(5_000),
        format!("line{}end", "\u{3000}\u{a0} ".repeat(500)),
        // Code, punctuation runs and numbers.
        "fn f<'a>(x: &'a [u8]) -> Option<&'a u8> { x.get(0) } // 1_000_000\n".repeat(50),
        "==== ---- //// **** ~~~~ ".repeat(200),
        "=".repeat(5_000),
        "3.14159265358979323846264338327950288419716939937510".repeat(20),
        // Unicode: scripts, combining marks, emoji sequences, contractions in capitals.
        "Привет, мир! Γειά σου Κόσμε! مرحبا بالعالم שלום עולם ".repeat(30),
        "中文文本的分词测试，日本語のテキスト、한국어 텍스트。".repeat(30),
        "e\u{301}\u{302}\u{303} n\u{303} 👩‍👩‍👧‍👦🏳️‍🌈🇫🇷 ".repeat(40),
        "DON'T YOU'LL WE'VE they'RE I'M ".repeat(40),
        // A long word that is not a token: merged with the heap.
        "Pneumonoultramicroscopicsilicovolcanoconiosis".repeat(30),
        "aGVsbG8gd29ybGQgdGhpcyBpcyBiYXNlNjQ=".repeat(100),
    ]);
    texts
}

#[test]
fn counts_match_tiktoken_rs_on_varied_texts() {
    let references = [
        (Encoding::O200kBase, tiktoken_rs::o200k_base_singleton()),
        (Encoding::Cl100kBase, tiktoken_rs::cl100k_base_singleton()),
    ];
    for text in varied_texts() {
        for (enc, reference) in references {
            assert_eq!(
                tokens::count(enc, &text),
                reference.encode_ordinary(&text).len(),
                "{enc} {:?}",
                text.chars().take(60).collect::<String>()
            );
        }
    }
}

/// Writes a file dated an hour back: the cache does not trust the stat of a file modified in the
/// last seconds.
fn write(p: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
    backdate(p, 3_600);
}

fn backdate(p: &Path, secs: u64) {
    let f = std::fs::File::options().write(true).open(p).unwrap();
    f.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(secs))
        .unwrap();
}

/// A library of one skill: SKILL.md = plain.md (108 tokens), two text resources (41 + 108) and a
/// binary one.
fn small_library(root: &Path) -> PathBuf {
    let skill = root.join("pdf-reader");
    write(
        &skill.join("SKILL.md"),
        &std::fs::read(fixture("plain.md")).unwrap(),
    );
    write(
        &skill.join("references/guide.md"),
        &std::fs::read(fixture("crlf_bom.md")).unwrap(),
    );
    write(
        &skill.join("references/copy.md"),
        &std::fs::read(fixture("plain.md")).unwrap(),
    );
    write(&skill.join("assets/logo.png"), b"\x89PNG\0\0\0\x01");
    skill
}

fn load(root: &Path) -> Library {
    Library::load(path_roots(&[root.to_path_buf()]), &ScanOptions::default())
}

#[test]
fn every_level_of_a_small_library() {
    let t = tempfile::tempdir().unwrap();
    small_library(t.path());
    let lib = load(t.path());
    let texts = listing::entries(&lib, Format::Markdown);
    assert_eq!(
        texts,
        vec![
            "- **pdf-reader**: Extracts text and tables from PDF files. Use when the user mentions PDFs, forms or document extraction."
        ]
    );
    let cache = TokenCache::in_memory();
    let got = tokens::count_library(&lib, &texts, Encoding::O200kBase, &cache);
    assert_eq!(got.len(), 1);
    let s = &got[0];
    assert_eq!(s.l1, Some(27));
    assert_eq!(s.l2, Some(108));
    assert_eq!(s.l3, Some(41 + 108));
    assert_eq!(s.schema, None);
    let res: Vec<_> = s
        .resources
        .iter()
        .map(|r| (r.rel.as_str(), r.size, r.text, r.tokens))
        .collect();
    assert_eq!(
        res,
        vec![
            ("assets/logo.png", 8, false, None),
            ("references/copy.md", 396, true, Some(108)),
            ("references/guide.md", 142, true, Some(41)),
        ]
    );
    // Two files with the same content are encoded once.
    assert_eq!(cache.encoded(), 3);
}

#[test]
fn an_unchanged_library_is_neither_read_nor_encoded_again() {
    let t = tempfile::tempdir().unwrap();
    let lib_dir = t.path().join("lib");
    small_library(&lib_dir);
    let cache_file = t.path().join("cache/tokens.bin");
    let lib = load(&lib_dir);
    let texts = listing::entries(&lib, Format::Xml);

    let first = TokenCache::at(&cache_file);
    let a = tokens::count_library(&lib, &texts, Encoding::O200kBase, &first);
    assert!(first.files_read() > 0 && first.encoded() > 0);
    first.save().unwrap();

    let lib = load(&lib_dir);
    let second = TokenCache::at(&cache_file);
    let b = tokens::count_library(&lib, &texts, Encoding::O200kBase, &second);
    assert_eq!(a, b);
    assert_eq!(second.files_read(), 0);
    assert_eq!(second.encoded(), 0);

    // Another encoding is counted afresh, and differs where the encodings do.
    let cl = tokens::count_library(&lib, &texts, Encoding::Cl100kBase, &second);
    assert_eq!(cl[0].l2, Some(109));
    assert!(second.encoded() > 0);
}

#[test]
fn a_changed_file_is_recounted_and_a_touched_one_only_rehashed() {
    let t = tempfile::tempdir().unwrap();
    let lib_dir = t.path().join("lib");
    let skill = small_library(&lib_dir);
    let cache = TokenCache::at(t.path().join("tokens.bin"));
    let lib = load(&lib_dir);
    tokens::count_library(&lib, &[String::new()], Encoding::O200kBase, &cache);

    // New content: read and encoded again.
    let guide = skill.join("references/guide.md");
    let mut text = std::fs::read(&guide).unwrap();
    text.extend_from_slice(b"\r\nOne more line.");
    write(&guide, &text);
    let before = (cache.files_read(), cache.encoded());
    let lib = load(&lib_dir);
    let got = tokens::count_library(&lib, &[String::new()], Encoding::O200kBase, &cache);
    assert_eq!(
        (cache.files_read() - before.0, cache.encoded() - before.1),
        (1, 1)
    );
    assert!(got[0].l3.unwrap() > 41 + 108);

    // Modified seconds ago: counted, but read again next time rather than trusted by its stat.
    std::fs::write(&guide, b"Fresh.").unwrap();
    let lib = load(&lib_dir);
    tokens::count_library(&lib, &[String::new()], Encoding::O200kBase, &cache);
    let before = cache.files_read();
    tokens::count_library(&lib, &[String::new()], Encoding::O200kBase, &cache);
    assert_eq!(cache.files_read() - before, 1);
    backdate(&guide, 3_600);
    let lib = load(&lib_dir);
    tokens::count_library(&lib, &[String::new()], Encoding::O200kBase, &cache);

    // Same content, new mtime: read and hashed, not encoded.
    backdate(&skill.join("SKILL.md"), 7_200);
    let before = (cache.files_read(), cache.encoded());
    let lib = load(&lib_dir);
    let again = tokens::count_library(&lib, &[String::new()], Encoding::O200kBase, &cache);
    assert_eq!(
        (cache.files_read() - before.0, cache.encoded() - before.1),
        (1, 0)
    );
    assert_eq!(again[0].l2, Some(108));
}

#[test]
fn an_unreadable_skill_file_has_no_l2_and_no_panic() {
    let t = tempfile::tempdir().unwrap();
    let skill = small_library(t.path());
    let lib = load(t.path());
    std::fs::remove_file(skill.join("SKILL.md")).unwrap();
    let got = tokens::count_library(
        &lib,
        &[String::new()],
        Encoding::O200kBase,
        &TokenCache::in_memory(),
    );
    assert_eq!(got[0].l2, None);
    assert_eq!(got[0].l1, None);
    assert_eq!(got[0].l3, Some(41 + 108));
}

fn budget_json(lib: &Path, cache_dir: &Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .args(["budget", "--format", "json"])
        .arg(lib)
        .env("SKILLSCOPE_CACHE_DIR", cache_dir)
        .env("SKILLSCOPE_CONFIG_DIR", cache_dir.join("config"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_budget_command_uses_the_cache_dir_and_survives_a_corrupt_cache() {
    let t = tempfile::tempdir().unwrap();
    let lib = t.path().join("lib");
    small_library(&lib);
    let cache_dir = t.path().join("cache");
    let first = budget_json(&lib, &cache_dir);
    let cache_file = cache_dir.join("tokens.bin");
    assert!(cache_file.is_file());
    assert_eq!(first["encoding"], "o200k_base");
    assert_eq!(first["totals"]["skills"], 1);
    assert_eq!(first["totals"]["l2"], 108);
    assert_eq!(first["totals"]["l3"], 149);
    assert_eq!(first["totals"]["binary_resources"], 1);
    assert_eq!(first["listing"]["format"], "xml");
    assert_eq!(first["listing"]["tier"], "full");
    assert_eq!(first["listing"]["fates"]["full"], 1);
    let skill = &first["skills"][0];
    assert_eq!(skill["name"], "pdf-reader");
    assert_eq!(skill["fate"], "full");
    assert_eq!(skill["resource_tokens"][0]["rel"], "assets/logo.png");
    assert_eq!(
        skill["resource_tokens"][0]["tokens"],
        serde_json::Value::Null
    );

    assert_eq!(budget_json(&lib, &cache_dir), first);
    std::fs::write(&cache_file, b"garbage").unwrap();
    assert_eq!(budget_json(&lib, &cache_dir), first);
}

#[test]
fn the_budget_command_can_fail_a_ci_gate() {
    let t = tempfile::tempdir().unwrap();
    let lib = t.path().join("lib");
    small_library(&lib);
    let run = |max: &str| {
        Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .args(["budget", "--max-listing-tokens", max])
            .arg(&lib)
            .env("SKILLSCOPE_CACHE_DIR", t.path().join("cache"))
            .env("SKILLSCOPE_CONFIG_DIR", t.path().join("config"))
            .output()
            .unwrap()
    };
    let over = run("5");
    assert_eq!(over.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&over.stderr).contains("over the limit of 5"));
    assert_eq!(run("100000").status.code(), Some(0));
}
