//! Budget baselines through the real binary, on a fixture git repository with two commits: a
//! skill added, a description lengthened, a skill made invalid. The figures are checked against
//! counts made here from the files themselves.

use crate::common;
use common::*;
use skillscope::core::tokens::{Encoding, count};
use std::path::Path;
use std::process::{Command, Output};

const ALPHA: &str = "---\nname: alpha\ndescription: Formats SQL queries. Use when the user pastes SQL.\n---\n# Alpha\n\nIndent every clause.\n";
const BETA_OLD: &str =
    "---\nname: beta\ndescription: Writes release notes.\n---\n# Beta\n\nGroup by area.\n";
const BETA_NEW: &str = "---\nname: beta\ndescription: Writes release notes from merged pull requests, grouped by area, with breaking changes first. Use when the user asks for a changelog or release notes.\n---\n# Beta\n\nGroup by area.\n";
const GAMMA_OLD: &str = "---\nname: gamma\ndescription: Reviews Terraform plans for risky changes. Use when a plan is pasted.\n---\n# Gamma\n";
const GAMMA_BROKEN: &str =
    "---\nname: gamma\ndescription: Reviews Terraform plans: risky [changes\n---\n# Gamma\n";
const DELTA: &str = "---\nname: delta\ndescription: Drafts incident post-mortems with a timeline, impact, root cause and follow-up actions. Use after an outage.\n---\n# Delta\n\n1. Timeline\n2. Impact\n";

fn git_available() -> bool {
    let ok = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipping: git is not installed");
    }
    ok
}

fn git(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The repository: `skills/{alpha,beta,gamma}` in the first commit; the second adds delta,
/// lengthens beta's description and breaks gamma's YAML.
fn fixture(repo: &Path) {
    git(repo, &["init", "-q"]);
    write(&repo.join("skills/alpha/SKILL.md"), ALPHA);
    write(&repo.join("skills/beta/SKILL.md"), BETA_OLD);
    write(&repo.join("skills/gamma/SKILL.md"), GAMMA_OLD);
    write(&repo.join("README.md"), "team skills\n");
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "three skills"]);
}

fn second_commit(repo: &Path) {
    write(&repo.join("skills/beta/SKILL.md"), BETA_NEW);
    write(&repo.join("skills/gamma/SKILL.md"), GAMMA_BROKEN);
    write(&repo.join("skills/delta/SKILL.md"), DELTA);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "delta, longer beta, broken gamma"]);
}

fn run_in(repo: &Path, home: &Path, args: &[&str]) -> Output {
    bin()
        .args(args)
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("HOME", home)
        .current_dir(repo)
        .output()
        .unwrap()
}

fn tokens(s: &str) -> i64 {
    count(Encoding::O200kBase, s) as i64
}

/// The markdown listing as `prompt` prints it (no paths in it: the same wherever it runs).
fn prompt_tokens(repo: &Path, home: &Path, format: &str) -> i64 {
    let out = run_in(repo, home, &["prompt", "skills", "--format", format]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    tokens(text.strip_suffix('\n').unwrap_or(&text))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Everything the test knows about the change, from the files.
struct Expected {
    markdown_before: i64,
    markdown_after: i64,
    claude_before: i64,
    claude_after: i64,
}

fn check_diff(v: &serde_json::Value, e: &Expected) {
    let per_turn = &v["per_turn"];
    assert_eq!(per_turn["markdown"]["before"], e.markdown_before, "{v:#}");
    assert_eq!(per_turn["markdown"]["after"], e.markdown_after, "{v:#}");
    assert_eq!(
        per_turn["markdown"]["change"],
        e.markdown_after - e.markdown_before
    );
    assert_eq!(per_turn["claude-code"]["before"], e.claude_before);
    assert_eq!(per_turn["claude-code"]["after"], e.claude_after);

    let added = v["added"].as_array().unwrap();
    assert_eq!(added.len(), 1);
    assert_eq!(added[0]["key"], "skills/delta");
    assert_eq!(added[0]["l2"]["after"], tokens(DELTA));
    assert_eq!(added[0]["fates"]["claude-code"]["after"], "listed");
    assert!(v["removed"].as_array().unwrap().is_empty());

    let changed = v["changed"].as_array().unwrap();
    let keys: Vec<&str> = changed.iter().map(|c| c["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["skills/beta", "skills/gamma"]);
    let beta = &changed[0];
    assert_eq!(beta["l2"]["before"], tokens(BETA_OLD));
    assert_eq!(beta["l2"]["after"], tokens(BETA_NEW));
    let md_entry = |d: &str| format!("- **beta**: {d}");
    assert_eq!(
        beta["l1"]["markdown"]["before"],
        tokens(&md_entry("Writes release notes."))
    );
    assert_eq!(
        beta["l1"]["markdown"]["after"],
        tokens(&md_entry(
            "Writes release notes from merged pull requests, grouped by area, with breaking changes first. Use when the user asks for a changelog or release notes."
        ))
    );
    assert!(
        beta["fates"].as_object().unwrap().is_empty(),
        "beta stays listed"
    );
    let gamma = &changed[1];
    // Copilot's and Cline's clients skip a skill whose YAML does not parse.
    for f in ["xml", "markdown", "lazy-skills", "copilot", "cline"] {
        assert_eq!(gamma["fates"][f]["before"], "listed", "{f}");
        assert_eq!(gamma["fates"][f]["after"], "dropped", "{f}");
        assert!(gamma["l1"][f]["after"].is_null(), "not listable: no L1");
    }
    // Claude Code 2.1.332, Codex 0.171.0, Qwen Code 0.24.4 and OpenClaw 2026.9.6 read a
    // frontmatter that is not valid YAML line by line: gamma stays.
    for f in ["claude-code", "codex", "qwen-code", "openclaw"] {
        assert!(gamma["fates"][f].is_null(), "{f}: {gamma}");
    }
    let drops = v["drops"].as_array().unwrap();
    assert_eq!(
        drops.len(),
        5,
        "gamma leaves every listing but those of the clients that read it line by line"
    );
    assert!(drops.iter().all(|d| d["key"] == "skills/gamma"));
    assert_eq!(v["skills"]["before"], 3);
    assert_eq!(v["skills"]["after"], 4);
}

fn index_bytes(repo: &Path) -> Vec<u8> {
    std::fs::read(repo.join(".git/index")).unwrap()
}

#[test]
fn baseline_file_and_git_ref_give_the_same_checked_diff_and_gates() {
    if !git_available() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let repo = home.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    fixture(&repo);
    let markdown_before = prompt_tokens(&repo, home.path(), "markdown");
    let claude_before = prompt_tokens(&repo, home.path(), "claude-code");

    let saved = run_in(
        &repo,
        home.path(),
        &["budget", "skills", "--save-baseline", "../base.json"],
    );
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    assert!(stdout(&saved).is_empty());
    let base = std::fs::read_to_string(home.path().join("base.json")).unwrap();
    assert!(
        base.contains("\"skills/gamma\": {\"name\":\"gamma\""),
        "{base}"
    );
    // Saving again gives the same bytes: a committed baseline only changes with the library.
    run_in(
        &repo,
        home.path(),
        &["budget", "skills", "--save-baseline", "../base2.json"],
    );
    assert_eq!(
        std::fs::read_to_string(home.path().join("base2.json")).unwrap(),
        base
    );

    second_commit(&repo);
    let e = Expected {
        markdown_before,
        markdown_after: prompt_tokens(&repo, home.path(), "markdown"),
        claude_before,
        claude_after: prompt_tokens(&repo, home.path(), "claude-code"),
    };
    assert!(
        e.markdown_after > e.markdown_before,
        "the change grows the listing"
    );
    let status_before = git(&repo, &["status", "--porcelain"]).stdout;
    let index_before = index_bytes(&repo);

    let by_file = run_in(
        &repo,
        home.path(),
        &[
            "budget",
            "skills",
            "--baseline",
            "../base.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(by_file.status.code(), Some(0), "{}", stderr(&by_file));
    let by_file = json(&by_file);
    check_diff(&by_file, &e);
    assert_eq!(by_file["against"], "../base.json");

    let by_ref = run_in(
        &repo,
        home.path(),
        &[
            "budget",
            "skills",
            "--baseline-ref",
            "HEAD~1",
            "--format",
            "json",
        ],
    );
    assert_eq!(by_ref.status.code(), Some(0), "{}", stderr(&by_ref));
    let mut by_ref = json(&by_ref);
    check_diff(&by_ref, &e);
    assert_eq!(by_ref["against"], "git HEAD~1");
    by_ref["against"] = by_file["against"].clone();
    assert_eq!(by_ref, by_file, "a saved baseline and the commit agree");
    // Reading the old commit left the work tree and the index alone.
    assert_eq!(git(&repo, &["status", "--porcelain"]).stdout, status_before);
    assert_eq!(index_bytes(&repo), index_before);

    // The markdown table for a pull-request comment.
    for against in [
        &["--baseline", "../base.json"][..],
        &["--baseline-ref", "HEAD~1"][..],
    ] {
        let mut args = vec![
            "budget",
            "skills",
            "--format",
            "markdown",
            "--listing",
            "markdown",
        ];
        args.extend_from_slice(against);
        let out = run_in(&repo, home.path(), &args);
        assert_eq!(out.status.code(), Some(0));
        let md = stdout(&out);
        let d = e.markdown_after - e.markdown_before;
        assert!(
            md.contains(&format!(
                "| markdown | {} | {} | **+{d}** |",
                e.markdown_before, e.markdown_after
            )),
            "{md}"
        );
        assert!(
            md.contains(&format!(
                "**+{d} tokens per turn (markdown listing, {} → {}); 1 added, 0 removed, 2 changed; 1 left a listing**",
                e.markdown_before, e.markdown_after
            )),
            "{md}"
        );
        let row = |name: &str| {
            md.lines()
                .find(|l| l.starts_with(&format!("| {name} |")))
                .unwrap_or_else(|| panic!("no row for {name}:\n{md}"))
                .to_string()
        };
        assert!(row("gamma").contains("| changed |"), "{md}");
        assert!(
            row("gamma")
                .ends_with("| cline, copilot, lazy-skills, markdown, xml: listed → dropped |"),
            "{md}"
        );
        assert!(row("delta").contains("| added |"), "{md}");
        assert!(
            row("delta").contains(&format!("| +{} |", tokens(DELTA))),
            "{md}"
        );
        assert!(row("delta").ends_with("| listed (all) |"), "{md}");
        let beta_l2 = tokens(BETA_NEW) - tokens(BETA_OLD);
        assert!(row("beta").contains(&format!("| +{beta_l2} |")), "{md}");
        assert!(!md.contains(":x:"), "no gate asked for: {md}");
        // Table rows all have the same number of cells as their header.
        for table in md.split("\n\n").filter(|b| b.starts_with('|')) {
            let cells: Vec<usize> = table
                .lines()
                .map(|l| l.matches(" |").count() + l.matches("|-").count())
                .collect();
            assert!(cells.windows(2).all(|w| w[0] == w[1]), "{table}");
        }
    }

    // Exit codes: each gate alone, on both sources.
    let growth = e.markdown_after - e.markdown_before;
    for against in [
        &["--baseline", "../base.json"][..],
        &["--baseline-ref", "HEAD~1"][..],
    ] {
        let gate = |extra: &[&str]| {
            let mut args = vec!["budget", "skills"];
            args.extend_from_slice(against);
            args.extend_from_slice(extra);
            run_in(&repo, home.path(), &args)
        };
        let drop = gate(&["--fail-on-drop"]);
        assert_eq!(drop.status.code(), Some(1));
        assert!(
            stderr(&drop).contains(
                "1 skill left a listing (--fail-on-drop): gamma (cline, copilot, lazy-skills, markdown, xml)"
            ),
            "{}",
            stderr(&drop)
        );
        assert!(stdout(&drop).contains("FAILED: 1 skill left a listing"));
        // Every format grew; the biggest growth decides.
        let max_growth = by_file["per_turn"]
            .as_object()
            .unwrap()
            .values()
            .map(|f| f["change"].as_i64().unwrap())
            .max()
            .unwrap();
        assert!(max_growth >= growth);
        let at = max_growth.to_string();
        assert_eq!(gate(&["--fail-on-increase", &at]).status.code(), Some(0));
        let below = (max_growth - 1).to_string();
        let over = gate(&["--fail-on-increase", &below]);
        assert_eq!(over.status.code(), Some(1));
        assert!(
            stderr(&over).contains(&format!("grow by more than --fail-on-increase {below}")),
            "{}",
            stderr(&over)
        );
        assert_eq!(
            gate(&["--fail-on-increase", "100000"]).status.code(),
            Some(0)
        );
    }
}

#[test]
fn baseline_ref_compares_the_uncommitted_work_tree_and_reports_bad_input() {
    if !git_available() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let repo = home.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    fixture(&repo);
    // An unstaged change: a pre-commit hook sees it against HEAD.
    write(&repo.join("skills/beta/SKILL.md"), BETA_NEW);
    let out = run_in(
        &repo,
        home.path(),
        &[
            "budget",
            "skills",
            "--baseline-ref",
            "HEAD",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    let changed = v["changed"].as_array().unwrap();
    assert_eq!(changed.len(), 1);
    assert_eq!(changed[0]["key"], "skills/beta");
    assert_eq!(
        git(&repo, &["status", "--porcelain"]).stdout,
        b" M skills/beta/SKILL.md\n"
    );
    // From a subfolder, with the root given relative to it: the same keys.
    let sub = run_in(
        &repo.join("skills"),
        home.path(),
        &["budget", ".", "--baseline-ref", "HEAD", "--format", "json"],
    );
    let sv = json(&sub);
    assert_eq!(sv["changed"][0]["key"], "beta");

    // A root that did not exist at the commit: everything is added, and stderr says why.
    write(
        &repo.join("more/zeta/SKILL.md"),
        ALPHA.replace("alpha", "zeta").as_str(),
    );
    let out = run_in(
        &repo,
        home.path(),
        &[
            "budget",
            "more",
            "--baseline-ref",
            "HEAD",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("did not exist at HEAD"),
        "{}",
        stderr(&out)
    );
    assert_eq!(json(&out)["added"][0]["key"], "more/zeta");

    // Bad input exits 2 with a reason, never 1 (which means a gate failed).
    for (args, why) in [
        (
            vec!["budget", "skills", "--baseline-ref", "no-such-ref"],
            "not a commit-ish",
        ),
        (
            vec!["budget", "skills", "--baseline-ref=--upload-pack=x"],
            "not a commit-ish",
        ),
        (
            vec!["budget", "skills", "--baseline", "missing.json"],
            "cannot read the baseline",
        ),
        (
            vec!["budget", "skills", "--fail-on-drop"],
            "need --baseline",
        ),
        (
            vec!["budget", "skills", "--baseline", "README.md"],
            "not a skillscope baseline",
        ),
    ] {
        let out = run_in(&repo, home.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
    }
    let outside = tempfile::tempdir().unwrap();
    write(&outside.path().join("s/a/SKILL.md"), ALPHA);
    let out = run_in(
        outside.path(),
        home.path(),
        &["budget", "s", "--baseline-ref", "HEAD"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not inside a git work tree"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_hostile_tree_at_the_commit_stays_inside_the_copy() {
    if !git_available() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let repo = home.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    write(&repo.join("skills/a/SKILL.md"), ALPHA);
    // A link out of the library.
    crate::common::symlink("/etc", repo.join("skills/a/etc")).unwrap();
    // A name with a control character and a table-breaking bar.
    write(
        &repo.join("skills/b/SKILL.md"),
        "---\nname: \"b|\\e[31mred\"\ndescription: Hostile name. Use when testing.\n---\n",
    );
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "links"]);
    write(
        &repo.join("skills/b/SKILL.md"),
        "---\nname: \"b|\\e[31mred\"\ndescription: Hostile name, now with a longer description. Use when testing.\n---\n",
    );
    let out = run_in(
        &repo,
        home.path(),
        &[
            "budget",
            "skills",
            "--baseline-ref",
            "HEAD",
            "--format",
            "markdown",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("1 symlink at HEAD left out of skills: a/etc -> /etc (leads outside)"),
        "{}",
        stderr(&out)
    );
    let md = stdout(&out);
    assert!(!md.contains('\x1b'), "{md}");
    assert!(
        md.lines()
            .any(|l| l.starts_with("| b\\|\\u{1b}\\[31mred (skills/b) |")),
        "the name is one escaped cell:\n{md}"
    );
}

/// A git command that reads `input` and answers one line (an object id).
fn git_object(repo: &Path, args: &[&str], input: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new("git")
        .args(args)
        .current_dir(repo)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "git {args:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A commit made with git's plumbing, as an attacker would push it: `skills/a` (a skill), a
/// chain `a1/…/a30/up -> ../…/..` (30 steps up: lexically inside, physically the top of the
/// copy), and `x -> a1/…/a30/up/` + 31 × `../` + `target`, which counts as inside on paper and
/// leads, followed for real, to `target` anywhere on the disk. `x_folder` adds a folder `x`
/// beside the link `x` (a duplicate entry), holding `pwned.md`.
fn crafted_commit(repo: &Path, target: &Path, x_folder: bool) -> String {
    let blob = |bytes: &[u8]| git_object(repo, &["hash-object", "-w", "--stdin"], bytes);
    let tree = |lines: &[String]| git_object(repo, &["mktree"], lines.join("\n").as_bytes());
    let up = blob(vec![".."; 30].join("/").as_bytes());
    let mut chain = tree(&[format!("120000 blob {up}\tup")]);
    for i in (1..30).rev() {
        chain = tree(&[format!("040000 tree {chain}\ta{}", i + 1)]);
    }
    let steps: Vec<String> = (1..=30).map(|i| format!("a{i}")).collect();
    let x = blob(
        format!(
            "{}/up/{}{}",
            steps.join("/"),
            "../".repeat(31),
            target.to_str().unwrap().trim_start_matches('/')
        )
        .as_bytes(),
    );
    let skill = tree(&[format!("100644 blob {}\tSKILL.md", blob(ALPHA.as_bytes()))]);
    let mut skills = vec![
        format!("040000 tree {skill}\ta"),
        format!("040000 tree {chain}\ta1"),
        format!("120000 blob {x}\tx"),
    ];
    if x_folder {
        let pwned = blob(b"written outside the copy\n");
        skills.push(format!(
            "040000 tree {}\tx",
            tree(&[format!("100644 blob {pwned}\tpwned.md")])
        ));
    }
    let root = tree(&[format!("040000 tree {}\tskills", tree(&skills))]);
    git_object(repo, &["commit-tree", &root, "-m", "crafted"], b"")
}

/// Every file below `dir`, links included, with its bytes (a link's target).
fn files_below(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                todo.push(p);
            } else if meta.is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.push((p, t.into_os_string().into_encoded_bytes()));
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// `budget --baseline-ref` with a private temporary folder, so that what it leaves can be seen.
fn baseline_ref(repo: &Path, home: &Path, reference: &str) -> Output {
    let tmp = home.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    bin()
        .args([
            "budget",
            "skills",
            "--baseline-ref",
            reference,
            "--format",
            "json",
        ])
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("HOME", home)
        .env("TMPDIR", &tmp)
        .current_dir(repo)
        .output()
        .unwrap()
}

fn crafted_repo(home: &Path) -> std::path::PathBuf {
    let repo = home.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    write(&repo.join("skills/a/SKILL.md"), ALPHA);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "one skill"]);
    repo
}

#[test]
fn a_link_chain_at_the_commit_cannot_make_the_before_side_read_outside() {
    if !git_available() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let repo = crafted_repo(home.path());
    // A skill outside the repository that the link would bring in.
    let outside = home.path().join("outside/secret");
    write(
        &outside.join("SKILL.md"),
        "---\nname: outside-secret\ndescription: Lives outside the repository. Use never.\n---\nSECRET BODY\n",
    );
    let before = files_below(&home.path().join("outside"));
    let commit = crafted_commit(&repo, &outside, false);
    let out = baseline_ref(&repo, home.path(), &commit);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = v.to_string();
    assert!(!text.contains("outside-secret"), "read outside:\n{v:#}");
    assert_eq!(v["skills"]["before"], 1, "{v:#}");
    assert_eq!(v["skills"]["after"], 1, "{v:#}");
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "1 symlink at {commit} left out of skills: x -> a1/a2/"
        )) && err.contains("(leads outside)"),
        "{err}"
    );
    assert_eq!(files_below(&home.path().join("outside")), before);
    assert!(
        files_below(&home.path().join("tmp")).is_empty(),
        "the copy is removed"
    );
}

#[test]
fn a_link_beside_a_folder_of_the_same_name_is_refused_and_writes_nothing() {
    if !git_available() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let repo = crafted_repo(home.path());
    let target = home.path().join("outside/target");
    std::fs::create_dir_all(&target).unwrap();
    let commit = crafted_commit(&repo, &target, true);
    let out = baseline_ref(&repo, home.path(), &commit);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the tree is refused: `x` is both a file or link and a folder"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
    assert!(
        files_below(&home.path().join("outside")).is_empty(),
        "written outside"
    );
    assert!(
        files_below(&home.path().join("tmp")).is_empty(),
        "the copy is removed"
    );
}

#[test]
fn json_and_markdown_reports_escape_c1_and_bidi_controls() {
    if !git_available() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let repo = crafted_repo(home.path());
    // A folder and a name holding a bidi override, a C1 CSI and a C1 next-line (YAML `\N`).
    let folder = "rlo\u{202e}csi\u{9b}nel\u{85}";
    write(
        &repo.join("skills").join(folder).join("SKILL.md"),
        "---\nname: \"evil\\u202E\\x9b\\Nend\"\ndescription: Hostile name. Use when testing reports.\n---\nBody\n",
    );
    let report = |format: &str| {
        let out = run_in(
            &repo,
            home.path(),
            &[
                "budget",
                "skills",
                "--baseline-ref",
                "HEAD",
                "--format",
                format,
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        for (what, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            let raw: Vec<char> = text
                .chars()
                .filter(|&c| c != '\n' && skillscope::core::words::text::is_hazard(c))
                .collect();
            assert!(raw.is_empty(), "{format} {what}: raw {raw:?}:\n{text}");
        }
        out
    };
    let out = report("json");
    let raw = stdout(&out);
    for escaped in ["\\u202e", "\\u009b", "\\u0085"] {
        assert!(raw.contains(escaped), "{escaped} missing:\n{raw}");
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let added = &v["added"][0];
    assert_eq!(added["name"], "evil\u{202e}\u{9b}\u{85}end", "{v:#}");
    assert_eq!(added["key"], format!("skills/{folder}"), "{v:#}");
    let md = stdout(&report("markdown"));
    assert!(
        md.contains(
            "| evil\\u{202e}\\u{9b}\\u{85}end (skills/rlo\\u{202e}csi\\u{9b}nel\\u{85}) | added |"
        ),
        "{md}"
    );
}

/// A project (`.claude/skills/alpha`, `.agents/skills/beta`) with a personal skill beside it in
/// `~/.claude/skills`, outside any git work tree.
fn project_with_personal_skills(home: &Path) -> std::path::PathBuf {
    let repo = home.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    write(&repo.join(".claude/skills/alpha/SKILL.md"), ALPHA);
    write(&repo.join(".agents/skills/beta/SKILL.md"), BETA_OLD);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "project skills"]);
    write(&home.join(".claude/skills/delta/SKILL.md"), DELTA);
    repo
}

fn changed_names(v: &serde_json::Value) -> Vec<String> {
    v["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn personal_folders_outside_git_have_no_baseline_and_count_the_same_on_both_sides() {
    if !git_available() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let repo = project_with_personal_skills(home.path());
    // Nothing changed yet: every row stays, the personal folder included.
    let out = run_in(
        &repo,
        home.path(),
        &["budget", "--baseline-ref", "HEAD", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "no baseline for ~/.claude/skills: not in a git work tree; counted as unchanged"
        ),
        "{}",
        stderr(&out)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    for (format, t) in v["per_turn"].as_object().unwrap() {
        assert_eq!(t["change"], 0, "{format}: {v:#}");
    }
    assert!(changed_names(&v).is_empty(), "{v:#}");
    assert!(v["added"].as_array().unwrap().is_empty(), "{v:#}");
    assert!(v["removed"].as_array().unwrap().is_empty(), "{v:#}");
    assert_eq!(v["skills"]["before"], 3, "delta counts on both sides");
    assert_eq!(v["skills"]["after"], 3);

    // A change in the project moves the rows of the agents that read it, and only them.
    write(&repo.join(".agents/skills/beta/SKILL.md"), BETA_NEW);
    let out = run_in(
        &repo,
        home.path(),
        &["budget", "--baseline-ref", "HEAD", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(changed_names(&v), ["beta"], "{v:#}");
    let change = |f: &str| v["per_turn"][f]["change"].as_i64().unwrap();
    assert!(change("codex") > 0, "Codex reads .agents/skills: {v:#}");
    assert_eq!(
        change("claude-code"),
        0,
        "Claude Code does not read .agents/skills: {v:#}"
    );
}

#[test]
fn with_paths_only_the_agents_that_read_them_move() {
    if !git_available() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let repo = project_with_personal_skills(home.path());
    write(
        &repo.join(".claude/skills/alpha/SKILL.md"),
        &ALPHA.replace(
            "Formats SQL queries.",
            "Formats SQL queries with joins aligned, keywords upper-cased and one clause a line.",
        ),
    );
    let out = run_in(
        &repo,
        home.path(),
        &[
            "budget",
            ".claude/skills",
            "--baseline-ref",
            "HEAD",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let change = |f: &str| v["per_turn"][f]["change"].as_i64().unwrap();
    assert!(change("claude-code") > 0, "{v:#}");
    assert!(change("markdown") > 0, "{v:#}");
    // Codex and Gemini CLI never read .claude/skills: their figure stays what it was.
    for f in ["codex", "gemini"] {
        assert_eq!(change(f), 0, "{f}: {v:#}");
        assert_eq!(v["per_turn"][f]["before"], v["per_turn"][f]["after"]);
    }
    let alpha = &v["changed"][0];
    assert_eq!(alpha["name"], "alpha");
    assert!(alpha["fates"]["codex"].is_null(), "{alpha}");

    // The same path outside any work tree still has nothing to compare with.
    let outside = tempfile::tempdir().unwrap();
    write(&outside.path().join(".claude/skills/a/SKILL.md"), ALPHA);
    let out = run_in(
        outside.path(),
        home.path(),
        &["budget", ".claude/skills", "--baseline-ref", "HEAD"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not inside a git work tree"));
}
