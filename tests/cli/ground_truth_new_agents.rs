//! Qwen Code 0.24.4, GitHub Copilot CLI 1.0.102, Cline 3.0.65 and OpenClaw 2026.9.6: each case
//! of `tests/fixtures/agents/<client>@<version>/{mixed,folders,budget}/`, laid out as
//! `scripts/capture-more-agents.sh` laid it (the client's folders, its switch of `switch-off`, the
//! working folder `sub/` of the `folders` case, OpenClaw's workspace and install), with
//! `prompt --agent AGENT` compared with `listing.txt` byte for byte and in o200k tokens. Cline
//! lists a folder in the order the file system returns it: its cases are compared name for name
//! in that order (as this machine's file system gives it) and as sets with the capture.

use super::{Layout, agents_fixtures, copy_tree, first_difference, o200k};
use crate::common;
use std::path::{Path, PathBuf};

/// One of the four clients, and where the capture script put its skills.
struct NewClient {
    dir: &'static str,
    agent: &'static str,
    user_skills: &'static str,
    project_skills: &'static str,
    /// The release laid out as npm installs it (its command on `PATH`, its `package.json`
    /// saying its version), so that its era is the one predicted; `None`: no version told.
    installed: Option<&'static str>,
}

const QWEN: NewClient = NewClient {
    dir: "qwen-code@0.24.4",
    agent: "qwen-code",
    user_skills: ".qwen/skills",
    project_skills: ".qwen/skills",
    installed: None,
};
/// Qwen Code 0.23.0: eleven bundled skills, another `skill` tool.
const QWEN_0_23: NewClient = NewClient {
    dir: "qwen-code@0.23.0",
    installed: Some("0.23.0"),
    ..QWEN
};
/// Qwen Code 0.21.10: nine bundled skills, `review` worded otherwise.
const QWEN_0_21: NewClient = NewClient {
    dir: "qwen-code@0.21.10",
    installed: Some("0.21.10"),
    ..QWEN
};
const COPILOT: NewClient = NewClient {
    dir: "copilot@1.0.102",
    agent: "github-copilot",
    user_skills: ".copilot/skills",
    project_skills: ".github/skills",
    installed: None,
};
/// GitHub Copilot CLI 1.0.92: each folder's skills by the path of their SKILL.md, the
/// project's folders one after the other.
const COPILOT_1_0_92: NewClient = NewClient {
    dir: "copilot@1.0.92",
    installed: Some("1.0.92"),
    ..COPILOT
};
/// GitHub Copilot CLI 1.0.83: as 1.0.92, and its `skill` tool worded otherwise.
const COPILOT_1_0_83: NewClient = NewClient {
    dir: "copilot@1.0.83",
    installed: Some("1.0.83"),
    ..COPILOT
};
const CLINE: NewClient = NewClient {
    dir: "cline@3.0.65",
    agent: "cline",
    user_skills: ".cline/skills",
    project_skills: ".cline/skills",
    installed: None,
};
const OPENCLAW: NewClient = NewClient {
    dir: "openclaw@2026.9.6",
    agent: "openclaw",
    user_skills: ".openclaw/skills",
    project_skills: "skills",
    installed: None,
};
/// OpenClaw 2026.7.35: each entry's `<version>`, names only when compact, other built-ins.
#[cfg(target_os = "linux")]
const OPENCLAW_2026_7: NewClient = NewClient {
    dir: "openclaw@2026.7.35",
    installed: Some("2026.7.35"),
    ..OPENCLAW
};

/// The folders of the `folders` case (`FOLDERS_USER`, `FOLDERS_PROJECT`).
const FOLDERS_USER: [&str; 9] = [
    ".agents/skills",
    ".claude/skills",
    ".copilot/skills",
    ".qwen/skills",
    ".cline/skills",
    ".openclaw/skills",
    ".config/agents/skills",
    ".codex/skills",
    ".gemini/skills",
];
const FOLDERS_PROJECT: [&str; 9] = [
    ".agents/skills",
    ".claude/skills",
    ".github/skills",
    ".qwen/skills",
    ".cline/skills",
    ".clinerules/skills",
    "skills",
    ".codex/skills",
    ".opencode/skills",
];

/// The capture's `slug`: the folder with everything but `a-z0-9` made `-`, trimmed of `-`.
fn slug(folder: &str) -> String {
    let s: String = folder
        .chars()
        .map(|c| {
            if c.is_ascii_lowercase() || c.is_ascii_digit() {
                c
            } else {
                '-'
            }
        })
        .collect();
    s.trim_matches('-').to_string()
}

fn write_skill(dir: &Path, name: &str, description: &str) {
    std::fs::create_dir_all(dir.join(name)).unwrap();
    std::fs::write(
        dir.join(name).join("SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: {description}\n---\nBody of {name} in {description}.\n"
        ),
    )
    .unwrap();
}

/// `place_budget`: 200 skills with a 300-character description.
fn place_budget(dir: &Path) {
    for i in 1..=200 {
        let name = format!("budget-{i:03}");
        let head = format!("Budget skill {i:03} for the listing budget. ");
        let mut d = head + &"Filler words to reach three hundred characters. ".repeat(10);
        d.truncate(300);
        let d = d.trim_end().to_string();
        std::fs::create_dir_all(dir.join(&name)).unwrap();
        std::fs::write(
            dir.join(&name).join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {d}\n---\nBody of {name}.\n"),
        )
        .unwrap();
    }
}

/// The case laid out; the folder the client ran in.
fn lay(c: &NewClient, case: &str) -> (Layout, PathBuf) {
    let lib = agents_fixtures().join("library");
    let l = Layout::new();
    std::fs::create_dir_all(l.project.join(".git")).unwrap();
    let mut run = l.project.clone();
    match case {
        "mixed" => {
            copy_tree(&lib.join("user/skills"), &l.home.join(c.user_skills), &l);
            copy_tree(
                &lib.join("project/skills"),
                &l.project.join(c.project_skills),
                &l,
            );
        }
        "folders" => {
            for d in FOLDERS_USER {
                let at = l.home.join(d);
                write_skill(&at, &format!("in-home-{}", slug(d)), &format!("home {d}"));
                write_skill(&at, "clash", &format!("clash copy in home {d}"));
            }
            for d in FOLDERS_PROJECT {
                for (place, base) in [("root", l.project.clone()), ("sub", l.project.join("sub"))] {
                    let at = base.join(d);
                    let what = format!("project {place} {d}");
                    write_skill(&at, &format!("in-{place}-{}", slug(d)), &what);
                    write_skill(&at, "clash", &format!("clash copy in {what}"));
                }
            }
            run = l.project.join("sub");
        }
        "wide" => {
            let wide = lib.join("wide");
            copy_tree(&wide.join("user/skills"), &l.home.join(c.user_skills), &l);
            copy_tree(&wide.join("project"), &l.project, &l);
        }
        _ => place_budget(&l.home.join(c.user_skills)),
    }
    switch_off(c, &l, &run);
    (l, run)
}

/// The client's own switch of `switch-off`, as the capture script set it (and OpenClaw's
/// workspace, the folder it ran in).
fn switch_off(c: &NewClient, l: &Layout, run: &Path) {
    let write = |rel: &str, text: String| {
        let p = l.home.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    match c.agent {
        "qwen-code" => write(
            ".qwen/settings.json",
            r#"{"skills": {"disabled": ["switch-off"]}}"#.to_string(),
        ),
        "github-copilot" => write(
            ".copilot/settings.json",
            "{\n  \"disabledSkills\": [\n    \"switch-off\"\n  ]\n}".to_string(),
        ),
        "openclaw" => write(
            ".openclaw/openclaw.json",
            format!(
                "{{\"agents\": {{\"defaults\": {{\"workspace\": {:?}}}}}, \"skills\": {{\"entries\": {{\"switch-off\": {{\"enabled\": false}}}}}}}}",
                run.display().to_string()
            ),
        ),
        _ => {}
    }
}

/// OpenClaw "installed" below `{CACHE}/openclaw@VERSION` (2026.9.6's folder, its version untold,
/// unless the case's client is an OpenClaw release of its own), and the case's Qwen Code release
/// when it has one, each with its command on a PATH folder.
fn install_clients(c: &NewClient, l: &Layout) -> PathBuf {
    let bin = l.base.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let npm = |folder: &str, package: &str, entry: &str, command: &str, version: Option<&str>| {
        let dir = l
            .base
            .join("cache")
            .join(folder)
            .join("node_modules")
            .join(package);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(entry), "#!/usr/bin/env node\n").unwrap();
        let json = match version {
            Some(v) => format!("{{\"name\": \"{package}\", \"version\": \"{v}\"}}\n"),
            None => format!("{{\"name\": \"{package}\"}}\n"),
        };
        std::fs::write(dir.join("package.json"), json).unwrap();
        common::set_mode(dir.join(entry), 0o755);
        crate::common::symlink(dir.join(entry), bin.join(command)).unwrap();
    };
    let openclaw = c.installed.filter(|_| c.agent == "openclaw");
    let folder = format!("openclaw@{}", openclaw.unwrap_or("2026.9.6"));
    npm(&folder, "openclaw", "openclaw.mjs", "openclaw", openclaw);
    if let Some(v) = c.installed.filter(|_| c.agent == "github-copilot") {
        let folder = format!("copilot@{v}");
        npm(
            &folder,
            "@github/copilot",
            "npm-loader.js",
            "copilot",
            Some(v),
        );
    }
    if let Some(v) = c.installed.filter(|_| c.agent == "qwen-code") {
        let folder = format!("qwen-code@{v}");
        npm(
            &folder,
            "@qwen-code/qwen-code",
            "cli-entry.js",
            "qwen",
            Some(v),
        );
    }
    bin
}

/// `prompt --agent` for the case, run where the client ran, the run's folders as the capture's
/// placeholders; its stderr.
fn predict(c: &NewClient, case: &str) -> (String, String, Layout) {
    run_case(c, case, &["prompt", "--agent", c.agent])
}

/// skillscope with `args` in the case laid out, run where the client ran; its stdout with the
/// run's folders as the capture's placeholders, and its stderr.
fn run_case(c: &NewClient, case: &str, args: &[&str]) -> (String, String, Layout) {
    let (l, run) = lay(c, case);
    run_laid(c, case, l, &run, args)
}

/// [`run_case`] on a case already laid out (and changed).
fn run_laid(
    c: &NewClient,
    case: &str,
    l: Layout,
    run: &Path,
    args: &[&str],
) -> (String, String, Layout) {
    run_laid_exiting(c, case, l, run, args, 0)
}

/// [`run_laid`], the run exiting with `code`.
fn run_laid_exiting(
    c: &NewClient,
    case: &str,
    l: Layout,
    run: &Path,
    args: &[&str],
    code: i32,
) -> (String, String, Layout) {
    let bin = install_clients(c, &l);
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let out = common::bin()
        .args(args)
        .env("HOME", &l.home)
        .env("PATH", path)
        .env("SKILLSCOPE_CONFIG_DIR", l.base.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", l.base.join("skillscope-cache"))
        .env_remove("FAL_KEY")
        .current_dir(run)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}/{case} {args:?}: {stderr}",
        c.dir
    );
    let text = String::from_utf8(out.stdout)
        .unwrap()
        .replace(&l.base.join("cache").display().to_string(), "{CACHE}");
    (l.placeheld(&text), stderr, l)
}

fn captured(c: &NewClient, case: &str) -> String {
    let p = agents_fixtures().join(c.dir).join(case).join("listing.txt");
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The prediction is the captured listing, byte for byte, and costs as many tokens.
fn assert_identical(c: &NewClient, case: &str) {
    let want = captured(c, case);
    let (got, stderr, _) = predict(c, case);
    let who = format!("{}/{case}", c.dir);
    let (real, predicted) = (o200k(&want), o200k(&got));
    eprintln!("{who}: real {real} o200k tokens, skillscope {predicted}");
    if let Some(diff) = first_difference(&want, &got) {
        panic!(
            "{who}: skillscope's listing is not what the real client sent ({} bytes vs {}): {diff}\nstderr: {stderr}",
            want.len(),
            got.len()
        );
    }
    assert_eq!(got.as_bytes(), want.as_bytes(), "{who}");
    assert_eq!(real, predicted, "{who}: o200k tokens");
}

#[test]
fn qwen_code_mixed_is_byte_identical() {
    assert_identical(&QWEN, "mixed");
}

#[test]
fn qwen_code_folders_is_byte_identical() {
    assert_identical(&QWEN, "folders");
}

#[test]
fn qwen_code_budget_is_byte_identical() {
    assert_identical(&QWEN, "budget");
}

#[test]
fn copilot_mixed_is_byte_identical() {
    assert_identical(&COPILOT, "mixed");
}

#[test]
fn copilot_folders_is_byte_identical() {
    assert_identical(&COPILOT, "folders");
}

#[test]
fn copilot_budget_is_byte_identical() {
    assert_identical(&COPILOT, "budget");
}

/// The `wide` library (`library/wide`): Copilot orders the project's skills by name across
/// `.github/skills`, `.agents/skills` and `.claude/skills`, leaves out the skill whose
/// description is over 1,024 characters (and keeps the one of exactly 1,024), falls back to
/// the first two paragraphs of a body joined by a space, and keeps the final line break of a
/// single-quoted description ending in a blank line (`quoted-blank-end`) where it drops a
/// literal block's (`pipe-desc`).
#[test]
fn copilot_wide_is_byte_identical() {
    let want = captured(&COPILOT, "wide");
    assert!(!want.contains("desc-over-1024") && want.contains("<name>desc-1024</name>"));
    assert!(want.contains("two lines. The second paragraph of the body.</description>"));
    assert!(want.contains(
        "<name>quoted-blank-end</name>\n  <description>Single-quoted, ending in a blank line.\n</description>"
    ));
    assert!(want.contains("Its second line.</description>"));
    assert_identical(&COPILOT, "wide");
}

/// The `wide` library on OpenClaw (captured on Linux, without `dokku` and `FAL_KEY`): the skills
/// whose requirements are missing (a binary, an environment variable, another system) are left
/// out, the one whose requirement is met (`sh`) is listed, and the user's `weather` shadows the
/// bundled one.
#[cfg(target_os = "linux")]
#[test]
fn openclaw_wide_is_byte_identical() {
    let want = captured(&OPENCLAW, "wide");
    for absent in ["needs-dokku", "needs-fal-key", "needs-macos"] {
        assert!(!want.contains(absent), "{absent}");
    }
    assert!(want.contains("<name>needs-sh</name>"));
    assert!(want.contains("~/.openclaw/skills/weather/SKILL.md"));
    assert!(!want.contains(
        "openclaw/skills/weather/SKILL.md</location>\n  </skill>\n  <skill>\n    <name>weather"
    ));
    assert_identical(&OPENCLAW, "wide");
}

#[test]
fn openclaw_mixed_is_byte_identical() {
    assert_identical(&OPENCLAW, "mixed");
}

#[test]
fn openclaw_folders_is_byte_identical() {
    assert_identical(&OPENCLAW, "folders");
}

#[test]
fn openclaw_budget_is_byte_identical() {
    assert_identical(&OPENCLAW, "budget");
}

/// The names of a Cline listing, in order.
fn cline_names(listing: &str) -> Vec<String> {
    listing
        .strip_prefix("Available skills: ")
        .and_then(|r| r.strip_suffix('.'))
        .unwrap_or("")
        .split(", ")
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .collect()
}

/// The order of a folder's entries as this machine's file system gives them.
fn dir_order(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Cline's listing: the captured names (the same set, none twice), and in the order of its
/// folders, each folder's entries as this file system returns them; byte for byte with the
/// capture when this file system returns them as the capture's did.
fn assert_cline(case: &str, folders: &[&str]) {
    let want = captured(&CLINE, case);
    let (got, stderr, l) = predict(&CLINE, case);
    let (mut w, mut g) = (cline_names(&want), cline_names(&got));
    assert!(!g.is_empty(), "{case}: {got}\n{stderr}");
    let in_order = g.clone();
    w.sort();
    g.sort();
    assert_eq!(g, w, "{case}: the captured names");
    // Expected order: each folder in Cline's order, its entries as read_dir gives them, a name
    // at its first place only.
    let mut expected: Vec<String> = Vec::new();
    for f in folders {
        let dir = if f.starts_with('~') {
            l.home.join(&f[2..])
        } else {
            l.project.join(f)
        };
        for entry in dir_order(&dir) {
            let name = match (case, entry.as_str()) {
                ("mixed", "folder-differs") => "other-name".to_string(),
                _ => entry,
            };
            if in_order.contains(&name) && !expected.contains(&name) {
                expected.push(name);
            }
        }
    }
    assert_eq!(
        in_order, expected,
        "{case}: folder by folder, file-system order"
    );
    if got == want {
        eprintln!("cline/{case}: byte-identical on this file system");
    } else {
        eprintln!("cline/{case}: same names; this file system orders folders otherwise");
    }
}

#[test]
fn cline_mixed_lists_the_captured_names_in_folder_order() {
    assert_cline("mixed", &[".cline/skills", "~/.cline/skills"]);
}

#[test]
fn cline_folders_lists_the_captured_names_in_folder_order() {
    assert_cline(
        "folders",
        &[
            ".clinerules/skills",
            ".cline/skills",
            ".agents/skills",
            "~/.cline/skills",
            "~/.agents/skills",
        ],
    );
}

#[test]
fn cline_budget_lists_the_captured_names_in_folder_order() {
    assert_cline("budget", &["~/.cline/skills"]);
}

/// A file of the case's capture.
fn capture_file(c: &NewClient, case: &str, file: &str) -> String {
    let p = agents_fixtures().join(c.dir).join(case).join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `inject --agent A NAME --json` in the laid-out case gives the captured tool result
/// (`inject-NAME.txt`) byte for byte, then what the client added after it
/// (`inject-NAME.after.json`, Copilot's `<skill-context>` message) when the capture has it; the
/// text form is the blocks' texts alone.
fn assert_injection(c: &NewClient, case: &str, name: &str) {
    let (json, stderr, _) = run_case(c, case, &["inject", "--agent", c.agent, name, "--json"]);
    let got: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json} {stderr}"));
    let blocks = got["blocks"].as_array().unwrap();
    let mut want = vec![("tool", capture_file(c, case, &format!("inject-{name}.txt")))];
    let after = agents_fixtures()
        .join(c.dir)
        .join(case)
        .join(format!("inject-{name}.after.json"));
    if c.agent == "github-copilot" {
        let added: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&after).unwrap()).unwrap();
        for m in added.as_array().unwrap() {
            want.push(("user", m["content"].as_str().unwrap().to_string()));
        }
    }
    assert_eq!(blocks.len(), want.len(), "{}/{case}: {blocks:?}", c.dir);
    for (i, (b, (role, text))) in blocks.iter().zip(&want).enumerate() {
        assert_eq!(
            b["role"].as_str(),
            Some(*role),
            "{}/{case}: block {i}",
            c.dir
        );
        let got_text = b["text"].as_str().unwrap();
        if let Some(diff) = first_difference(text, got_text) {
            panic!(
                "{}/{case} {name}: block {i} is not what the real client added: {diff}",
                c.dir
            );
        }
        assert!(b["tokens"].as_u64().is_some_and(|t| t > 0), "{b}");
    }
    let (text, _, _) = run_case(c, case, &["inject", "--agent", c.agent, name]);
    let joined: Vec<&str> = want.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(text, joined.join("\n\n"), "{}/{case}: the text form", c.dir);
}

#[test]
fn qwen_code_skill_results_are_what_the_client_added() {
    assert_injection(&QWEN, "mixed", "with-resources");
    assert_injection(&QWEN, "folders", "clash");
    assert_injection(&QWEN, "budget", "budget-001");
}

#[test]
fn copilot_skill_results_and_contexts_are_what_the_client_added() {
    assert_injection(&COPILOT, "mixed", "with-resources");
    assert_injection(&COPILOT, "folders", "clash");
    assert_injection(&COPILOT, "budget", "budget-001");
}

#[test]
fn cline_skill_results_are_what_the_client_added() {
    assert_injection(&CLINE, "mixed", "with-resources");
    assert_injection(&CLINE, "folders", "clash");
    assert_injection(&CLINE, "budget", "budget-001");
}

/// A long body (`wide`'s `long-body`, 11,045 characters of result): Cline hands the model its
/// first and last 3,984 characters around `...[truncated 3077 chars]...`, and so does `inject`.
#[test]
fn cline_cuts_a_long_skill_result_as_the_client_does() {
    let want = capture_file(&CLINE, "wide", "inject-long-body.txt");
    assert!(
        want.contains("\n\n...[truncated 3077 chars]...\n\n"),
        "{want}"
    );
    assert_eq!(want.chars().count(), 8000);
    assert_injection(&CLINE, "wide", "long-body");
}

#[test]
fn cline_wide_lists_the_captured_names_in_folder_order() {
    assert_cline("wide", &[".agents/skills", "~/.cline/skills"]);
}

/// Qwen Code and Copilot hand a long body over whole (`wide`'s `long-body`).
#[test]
fn qwen_code_and_copilot_keep_a_long_skill_result_whole() {
    assert_injection(&QWEN, "wide", "long-body");
    assert_injection(&COPILOT, "wide", "long-body");
}

#[test]
fn qwen_code_wide_is_byte_identical() {
    assert_identical(&QWEN, "wide");
}

/// A skill the client's own switch turned off, called by name: `inject` prints what the client
/// answers — Qwen Code's, Copilot's and Cline's errors (Copilot's names the skills it offers,
/// `copilot@1.0.102/switch-off`), OpenClaw's whole SKILL.md (its model reads the file).
#[test]
fn a_switched_off_skill_gets_each_clients_own_answer() {
    // The client answers with an error: inject exits 1, as for any error result.
    let off = |c: &NewClient, extra: &[&str], write: Option<(&str, &str)>| {
        let (l, run) = lay(c, "mixed");
        if let Some((name, text)) = write {
            let dir = l.home.join(c.user_skills).join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("SKILL.md"), text).unwrap();
        }
        let name = write.map_or("switch-off", |(n, _)| n);
        let mut args = vec!["inject", "--agent", c.agent, name];
        args.extend_from_slice(extra);
        let code = i32::from(c.agent != "openclaw");
        run_laid_exiting(c, "mixed", l, &run, &args, code).0
    };
    assert_eq!(
        off(&QWEN, &[], None),
        "Skill \"switch-off\" is disabled. Re-enable it via /skills or remove it from skills.disabled."
    );
    let json = off(&QWEN, &["--json"], None);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["blocks"][0]["is_error"], true, "{json}");
    let file =
        std::fs::read_to_string(agents_fixtures().join("library/user/skills/switch-off/SKILL.md"))
            .unwrap();
    assert_eq!(off(&OPENCLAW, &[], None), file);
    let copilot = capture_file(&COPILOT, "switch-off", "inject-switch-off.txt");
    assert!(
        copilot.starts_with("Skill \"switch-off\" not found. Available skills: aaa-first, "),
        "{copilot}"
    );
    assert_eq!(off(&COPILOT, &[], None), copilot);
    // Cline's switch is the skill's own frontmatter.
    let cline_off = "---\nname: cline-off\ndescription: Off.\ndisabled: true\n---\nBody.\n";
    assert_eq!(
        off(&CLINE, &[], Some(("cline-off", cline_off))),
        "Skill \"cline-off\" is configured but disabled."
    );
}

/// `prompt --json` for the four newer clients: where each puts its listing, as its capture
/// found it (`placement.json`), and its tool's text as it sends it (`tool.json`; Cline's holds
/// the listing's names, in the file system's order, so the names are compared as a set).
#[test]
fn prompt_json_places_the_new_agents_listings_and_sends_their_tools() {
    for c in [&QWEN, &COPILOT, &CLINE, &OPENCLAW] {
        let placement: serde_json::Value =
            serde_json::from_str(&capture_file(c, "mixed", "placement.json")).unwrap();
        let captured = placement["location"].as_str().unwrap();
        let (json, _, _) = run_case(c, "mixed", &["prompt", "--agent", c.agent, "--json"]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let ours = v["placement"]["location"].as_str().unwrap_or_default();
        let place = ours.split(':').next().unwrap_or_default();
        assert!(
            !place.is_empty() && captured.starts_with(place),
            "{}: captured at {captured}, predicted at {ours}",
            c.dir
        );
        let role = placement["role"].as_str().unwrap_or("tool");
        assert_eq!(v["placement"]["role"].as_str(), Some(role), "{}", c.dir);
        let sent: serde_json::Value =
            serde_json::from_str(&capture_file(c, "mixed", "tool.json")).unwrap();
        let text = v["tool_definition"]["text"].as_str().unwrap_or_default();
        let ours: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        if c.agent == "cline" {
            let names = |t: &serde_json::Value| {
                let d = t["function"]["description"].as_str().unwrap_or_default();
                let (head, list) = d.split_once("Available skills: ").unwrap_or((d, ""));
                let mut n: Vec<String> = cline_names(&format!("Available skills: {list}"));
                n.sort();
                (head.to_string(), n)
            };
            assert_eq!(names(&ours), names(&sent), "{}", c.dir);
            assert!(!names(&sent).1.is_empty());
        } else {
            assert_eq!(ours, sent, "{}", c.dir);
        }
    }
}

/// OpenClaw has no skill tool: its model reads the SKILL.md at the listed location, and the
/// `read` result is the file whole.
#[test]
fn openclaw_read_results_are_what_the_client_added() {
    assert_injection(&OPENCLAW, "mixed", "with-resources");
}

/// `budget --agent A` prices each client's skill tool as captured (`tool.json`): Qwen Code's and
/// Copilot's fixed `skill`, OpenClaw's `read`, and Cline's `skills`, whose description ends with
/// the listing itself (said so, and not added to it).
#[test]
fn budget_prices_the_new_agents_captured_tools() {
    for (c, case, name) in [
        (&QWEN, "mixed", "skill"),
        (&COPILOT, "mixed", "skill"),
        (&OPENCLAW, "mixed", "read"),
        (&CLINE, "mixed", "skills"),
        (&CLINE, "folders", "skills"),
        (&CLINE, "budget", "skills"),
    ] {
        let sent: serde_json::Value =
            serde_json::from_str(&capture_file(c, case, "tool.json")).unwrap();
        let chars = sent.to_string().chars().count();
        let (json, _, _) = run_case(c, case, &["budget", "--agent", c.agent, "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let tool = &v["tool_definition"];
        assert_eq!(tool["name"], name, "{}/{case}: {tool}", c.dir);
        if c.agent == "cline" {
            // Cline lists a folder in the file system's order: the same names, perhaps another
            // order, so the same length.
            assert_eq!(tool["holds_listing"], true, "{tool}");
        } else {
            assert!(tool.get("holds_listing").is_none(), "{tool}");
        }
        assert_eq!(tool["chars"], chars, "{}/{case}: {tool}", c.dir);
        let (text, _, _) = run_case(c, case, &["budget", "--agent", c.agent]);
        assert!(
            text.contains(&format!("tool definition ({name}): ")),
            "{text}"
        );
    }
}

/// `toggle --agent A NAME --off` writes each client's own switch where its settings are plain
/// JSON (Qwen Code's `skills.disabled`, Copilot's `disabledSkills`, OpenClaw's
/// `skills.entries.NAME.enabled`), and the listing then leaves the skill out; Cline, whose only
/// switch is in the skill's frontmatter, is refused with why.
#[test]
fn toggle_writes_the_new_agents_switches_and_refuses_cline() {
    for (c, file, key) in [
        (&QWEN, ".qwen/settings.json", "disabled"),
        (&COPILOT, ".copilot/settings.json", "disabledSkills"),
        (&OPENCLAW, ".openclaw/openclaw.json", "entries"),
    ] {
        let (listing, _, _) = run_case(c, "mixed", &["prompt", "--agent", c.agent]);
        assert!(listing.contains("alpha-basic"), "{}: {listing}", c.dir);
        let (l, run) = lay(c, "mixed");
        let out = common::bin()
            .args([
                "toggle",
                "--yes",
                "--agent",
                c.agent,
                "alpha-basic",
                "--off",
            ])
            .env("HOME", &l.home)
            .env("SKILLSCOPE_CONFIG_DIR", l.base.join("config"))
            .env("SKILLSCOPE_CACHE_DIR", l.base.join("skillscope-cache"))
            .current_dir(&run)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(l.home.join(file)).unwrap();
        assert!(
            text.contains("alpha-basic") && text.contains(key),
            "{file}: {text}"
        );
        // What the capture switched off stays off.
        assert!(text.contains("switch-off"), "{file}: {text}");
        let after = common::bin()
            .args(["prompt", "--agent", c.agent])
            .env("HOME", &l.home)
            .env("SKILLSCOPE_CONFIG_DIR", l.base.join("config"))
            .env("SKILLSCOPE_CACHE_DIR", l.base.join("skillscope-cache"))
            .current_dir(&run)
            .output()
            .unwrap();
        let after = String::from_utf8_lossy(&after.stdout);
        assert!(
            !after.is_empty() && !after.contains("alpha-basic"),
            "{after}"
        );
    }
    let out = common::bin()
        .args([
            "toggle",
            "--yes",
            "--agent",
            "cline",
            "alpha-basic",
            "--off",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("disabled: true"), "{err}");
}

/// The four cases of every capture of the four newer clients.
const CASES: [&str; 4] = ["mixed", "folders", "budget", "wide"];

/// Qwen Code 0.23.0 installed: its era (eleven bundled skills), every case byte for byte; what
/// loading a skill returns is the same as 0.24.4's, and its `skill` tool is its own.
#[test]
fn qwen_code_0_23_0_is_byte_identical_in_every_case() {
    for case in CASES {
        assert_identical(&QWEN_0_23, case);
    }
    assert_injection(&QWEN_0_23, "mixed", "with-resources");
    assert_tool_priced(&QWEN_0_23, "skill");
}

/// Qwen Code 0.21.10 installed: its era (nine bundled skills, `review` worded otherwise).
#[test]
fn qwen_code_0_21_10_is_byte_identical_in_every_case() {
    for case in CASES {
        assert_identical(&QWEN_0_21, case);
    }
    assert_injection(&QWEN_0_21, "wide", "long-body");
    assert_tool_priced(&QWEN_0_21, "skill");
}

/// OpenClaw 2026.7.35 installed: its era, every case byte for byte — each entry's `<version>`
/// (the SHA-256 of its SKILL.md), its intro, its own built-ins, and its names-only compact form
/// behind the truncation note (`budget`).
#[cfg(target_os = "linux")]
#[test]
fn openclaw_2026_7_35_is_byte_identical_in_every_case() {
    let budget = captured(&OPENCLAW_2026_7, "budget");
    assert!(
        budget.starts_with("\u{26a0}\u{fe0f} Skills truncated: included 108 of 217 (compact format, descriptions omitted). Run `openclaw skills check` to audit.\n\n\nThe following skills"),
        "{budget}"
    );
    assert!(!budget.contains("<description>"));
    for case in CASES {
        assert_identical(&OPENCLAW_2026_7, case);
    }
    assert_injection(&OPENCLAW_2026_7, "mixed", "with-resources");
    assert_tool_priced(&OPENCLAW_2026_7, "read");
}

/// GitHub Copilot CLI 1.0.92 installed: its era, every case byte for byte (`mixed`: a folder's
/// skills by the path of their SKILL.md, `codex-disabled-by-path` before `codex-disabled`;
/// `wide`: the project's `.github`, `.agents` and `.claude` folders one after the other); what
/// loading a skill returns and its `skill` tool are 1.0.102's.
#[test]
fn copilot_1_0_92_is_byte_identical_in_every_case() {
    let mixed = captured(&COPILOT_1_0_92, "mixed");
    let at = |name: &str| mixed.find(&format!("<name>{name}</name>")).unwrap();
    assert!(at("codex-disabled-by-path") < at("codex-disabled"));
    for case in CASES {
        assert_identical(&COPILOT_1_0_92, case);
    }
    assert_injection(&COPILOT_1_0_92, "mixed", "with-resources");
    assert_tool_priced(&COPILOT_1_0_92, "skill");
    let (json, _, _) = run_case(
        &COPILOT_1_0_92,
        "mixed",
        &["prompt", "--agent", "github-copilot", "--json"],
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let ours: serde_json::Value =
        serde_json::from_str(v["tool_definition"]["text"].as_str().unwrap()).unwrap();
    let sent: serde_json::Value =
        serde_json::from_str(&capture_file(&COPILOT_1_0_92, "mixed", "tool.json")).unwrap();
    assert_eq!(ours, sent);
}

/// GitHub Copilot CLI 1.0.83 installed: its era, every case byte for byte, and its own `skill`
/// tool as it sends it. (Its `<skill-context>` lists a skill's files in the order the file
/// system returns them, which is not modelled: `inject` gives them sorted, as 1.0.92 on.)
#[test]
fn copilot_1_0_83_is_byte_identical_in_every_case() {
    for case in CASES {
        assert_identical(&COPILOT_1_0_83, case);
    }
    assert_tool_priced(&COPILOT_1_0_83, "skill");
    let (json, _, _) = run_case(
        &COPILOT_1_0_83,
        "mixed",
        &["prompt", "--agent", "github-copilot", "--json"],
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let ours: serde_json::Value =
        serde_json::from_str(v["tool_definition"]["text"].as_str().unwrap()).unwrap();
    let sent: serde_json::Value =
        serde_json::from_str(&capture_file(&COPILOT_1_0_83, "mixed", "tool.json")).unwrap();
    assert_eq!(ours, sent);
    let newer: serde_json::Value =
        serde_json::from_str(&capture_file(&COPILOT, "mixed", "tool.json")).unwrap();
    assert_ne!(ours, newer, "1.0.83 words its tool otherwise");
    let (tool, _, _) = run_case(
        &COPILOT_1_0_83,
        "mixed",
        &[
            "inject",
            "--agent",
            "github-copilot",
            "with-resources",
            "--json",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&tool).unwrap();
    assert_eq!(
        v["blocks"][0]["text"].as_str(),
        Some(capture_file(&COPILOT_1_0_83, "mixed", "inject-with-resources.txt").as_str())
    );
}

/// `budget --agent A` prices the tool the installed release declares, as its capture holds it.
fn assert_tool_priced(c: &NewClient, name: &str) {
    let sent: serde_json::Value =
        serde_json::from_str(&capture_file(c, "mixed", "tool.json")).unwrap();
    let (json, _, _) = run_case(
        c,
        "mixed",
        &["budget", "--agent", c.agent, "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["tool_definition"]["name"], name, "{}", c.dir);
    assert_eq!(
        v["tool_definition"]["chars"],
        sent.to_string().chars().count(),
        "{}",
        c.dir
    );
}

/// OpenClaw's note when it truncates or compacts its catalog is the listing's first line, where
/// the client puts it (2026.9.6's `budget`: 150 of 222, compact without descriptions); without
/// one, the listing begins with the intro, as the client's section does.
#[test]
fn openclaw_prints_its_truncation_note_where_the_client_does() {
    let (got, _, _) = predict(&OPENCLAW, "budget");
    assert!(
        got.starts_with("\u{26a0}\u{fe0f} Skills truncated: included 150 of 222 (compact format, descriptions omitted). Run `openclaw skills check` to audit.\n\n\nThe following skills provide specialized instructions for specific tasks.\nRead a skill's file at its listed location when the task matches its name.\n"),
        "{got}"
    );
    assert_eq!(got, captured(&OPENCLAW, "budget"));
    let (mixed, _, _) = predict(&OPENCLAW, "mixed");
    assert!(
        mixed.starts_with("The following skills provide specialized instructions for specific tasks.\nRead a skill's file at its listed location when the task matches its description.\n"),
        "{mixed}"
    );
}
