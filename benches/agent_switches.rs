//! How long reading the agents' switches and working out every skill's badges takes on the real
//! corpus, and how long one toggle plan takes.

use criterion::{Criterion, criterion_group, criterion_main};
use skillscope::core::Library;
use skillscope::core::agents::{AgentSwitches, SwitchScope};
use skillscope::core::scan::ScanOptions;
use skillscope::core::source::{Agent, Root, Scope};
use std::path::PathBuf;

fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    p.is_dir().then_some(p)
}

/// A home whose settings are busier than most real ones: 200 Claude overrides, 100 Codex entries
/// (half by path), 20 opencode patterns.
fn busy_home(lib: &Library) -> tempfile::TempDir {
    let t = tempfile::tempdir().expect("temp dir");
    let home = t.path();
    let names: Vec<&str> = lib.skills.iter().map(|s| s.name.as_str()).collect();
    let overrides: Vec<String> = names
        .iter()
        .step_by(names.len() / 200 + 1)
        .map(|n| format!("    {n:?}: \"off\""))
        .collect();
    std::fs::create_dir_all(home.join(".claude")).expect("dir");
    std::fs::write(
        home.join(".claude/settings.json"),
        format!(
            "{{\n  \"model\": \"opus\",\n  \"skillOverrides\": {{\n{}\n  }}\n}}\n",
            overrides.join(",\n")
        ),
    )
    .expect("write");
    let mut codex = String::from("model = \"gpt-5\"\n");
    for (i, s) in lib.skills.iter().step_by(lib.len() / 100 + 1).enumerate() {
        if i % 2 == 0 {
            codex.push_str(&format!(
                "\n[[skills.config]]\nname = {:?}\nenabled = false\n",
                s.name
            ));
        } else {
            codex.push_str(&format!(
                "\n[[skills.config]]\npath = {:?}\nenabled = false\n",
                s.skill_md.display().to_string()
            ));
        }
    }
    std::fs::create_dir_all(home.join(".codex")).expect("dir");
    std::fs::write(home.join(".codex/config.toml"), codex).expect("write");
    let patterns: Vec<String> = (0..20).map(|i| format!("\"x{i}-*\": \"deny\"")).collect();
    std::fs::create_dir_all(home.join(".config/opencode")).expect("dir");
    std::fs::write(
        home.join(".config/opencode/opencode.json"),
        format!(
            "{{\"permission\": {{\"skill\": {{\"*\": \"allow\", {}}}}}}}",
            patterns.join(", ")
        ),
    )
    .expect("write");
    t
}

fn bench(c: &mut Criterion) {
    let Some(root) = corpus() else {
        eprintln!("agent_switches: no corpus (set SKILLSCOPE_CORPUS); skipped");
        return;
    };
    let lib = Library::load(
        vec![Root::new(root, Agent::Path, Scope::Path)],
        &ScanOptions::default(),
    );
    let home = busy_home(&lib);
    c.bench_function("agent_switches_load", |b| {
        b.iter(|| AgentSwitches::load(home.path(), None));
    });
    let (switches, _) = AgentSwitches::load(home.path(), None);
    c.bench_function(&format!("badges_all_{}_skills", lib.len()), |b| {
        b.iter(|| {
            lib.skills
                .iter()
                .map(|s| switches.badges(s).len())
                .sum::<usize>()
        });
    });
    // Fresh switches each time: every skill folder is resolved once more (Codex path entries).
    c.bench_function(&format!("badges_all_{}_skills_cold", lib.len()), |b| {
        b.iter(|| {
            let (sw, _) = AgentSwitches::load(home.path(), None);
            lib.skills.iter().map(|s| sw.badges(s).len()).sum::<usize>()
        });
    });
    let skill = &lib.skills[lib.len() / 2];
    c.bench_function("plan_claude_off", |b| {
        b.iter(|| switches.plan(skill, Agent::ClaudeCode, SwitchScope::User, false));
    });
    c.bench_function("plan_codex_off", |b| {
        b.iter(|| switches.plan(skill, Agent::Codex, SwitchScope::User, false));
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
