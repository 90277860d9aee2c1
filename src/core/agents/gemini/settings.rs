//! What Gemini CLI 0.61.0's settings say of its skills: whether the folder it runs in is
//! trusted (its project skills are read only then), which skills `skills.disabled` switches off,
//! and whether `skills.enabled` turns skills off altogether. Read the way the client reads them
//! (`checkPathTrust`, `isWorkspaceTrusted`, `SkillManager.setDisabledSkills`; see
//! `tests/fixtures/agents/FINDINGS.md`).

use crate::core::agents::plugin::{settings_warning, show_path};
use crate::core::findings::diagnostic::Diagnostic;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The environment variable that trusts (`true`) or distrusts (`false`) every folder.
pub const TRUST_ENV: &str = "GEMINI_CLI_TRUST_WORKSPACE";
/// The environment variable that distrusts every folder when `true`.
pub const RESTRICTED_ENV: &str = "GEMINI_RESTRICTED_MODE";
/// The environment variable naming another trusted-folders file.
pub const TRUSTED_FOLDERS_ENV: &str = "GEMINI_CLI_TRUSTED_FOLDERS_PATH";

/// Gemini CLI's settings as they bear on its skills.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeminiSettings {
    /// The folder Gemini CLI runs in (its project skills are this folder's `.gemini/skills`
    /// and `.agents/skills`); `None`: any project folder.
    pub workspace: Option<PathBuf>,
    /// Whether that folder is trusted.
    pub trusted: bool,
    /// What decided it, for people.
    pub trust_source: String,
    /// `skills.disabled` of the user's settings and, in a trusted folder, the project's: each
    /// name lower-cased (the client compares without regard to case) with the file naming it.
    pub disabled: Vec<(String, String)>,
    /// `skills.enabled: false`, with the file that says it: no skill at all, built-ins included.
    pub skills_off: Option<String>,
}

impl Default for GeminiSettings {
    /// Nothing read: every folder taken as trusted, nothing switched off.
    fn default() -> Self {
        GeminiSettings {
            workspace: None,
            trusted: true,
            trust_source: "no settings read".to_string(),
            disabled: Vec::new(),
            skills_off: None,
        }
    }
}

impl GeminiSettings {
    /// Reads `~/.gemini/settings.json` and the trusted-folders file under `home` for the folder
    /// `workspace`, and, when that folder is trusted, its `.gemini/settings.json`; `env` gives
    /// the environment. A file that cannot be parsed is reported and counts as empty.
    pub fn read(
        home: &Path,
        workspace: Option<&Path>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> (GeminiSettings, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let user_file = home.join(".gemini/settings.json");
        let user = read_json(&user_file, &mut diags);
        let (trusted, trust_source) = trust(home, workspace, user.as_ref(), env, &mut diags);
        let mut files = vec![(user_file, user)];
        if trusted && let Some(w) = workspace.filter(|&w| w != home) {
            let f = w.join(".gemini/settings.json");
            let v = read_json(&f, &mut diags);
            files.push((f, v));
        }
        let mut disabled = Vec::new();
        let mut skills_off = None;
        for (file, value) in &files {
            let Some(skills) = value.as_ref().and_then(|v| v.get("skills")) else {
                continue;
            };
            let shown = show_path(file, home);
            if let Some(names) = skills.get("disabled").and_then(Value::as_array) {
                disabled.extend(
                    names
                        .iter()
                        .filter_map(Value::as_str)
                        .map(|n| (n.to_lowercase(), format!("{shown} skills.disabled"))),
                );
            }
            if skills.get("enabled") == Some(&Value::Bool(false)) {
                skills_off = Some(format!("{shown} skills.enabled = false"));
            }
        }
        let settings = GeminiSettings {
            workspace: workspace.map(Path::to_path_buf),
            trusted,
            trust_source,
            disabled,
            skills_off,
        };
        (settings, diags)
    }

    /// The setting that switches off the skill called `name`, if one does.
    pub fn disabled_by(&self, name: &str) -> Option<&str> {
        let lower = name.to_lowercase();
        self.disabled
            .iter()
            .find(|(n, _)| *n == lower)
            .map(|(_, source)| source.as_str())
    }

    /// Every file these settings come from: what a watcher keeps an eye on.
    pub fn files(home: &Path, workspace: Option<&Path>) -> Vec<PathBuf> {
        let mut out = vec![
            home.join(".gemini/settings.json"),
            home.join(".gemini/trustedFolders.json"),
        ];
        out.extend(workspace.map(|w| w.join(".gemini/settings.json")));
        out
    }
}

/// A JSON (with comments) settings file's value; `None` when it is missing or does not parse
/// (reported).
fn read_json(path: &Path, diags: &mut Vec<Diagnostic>) -> Option<Value> {
    let bytes = crate::core::files::fsx::read_settings(path)
        .ok()
        .flatten()?;
    let text = String::from_utf8_lossy(&bytes);
    match crate::core::agents::json::parse(&text) {
        Ok(node) => Some(node.to_value()),
        Err(e) => {
            diags.push(
                settings_warning(
                    path,
                    format!("not valid JSON ({e}); Gemini CLI's settings in it are ignored"),
                )
                .at(e.line, e.column),
            );
            None
        }
    }
}

/// Whether Gemini CLI trusts `workspace` and why: the environment first (`GEMINI_RESTRICTED_MODE`,
/// `GEMINI_CLI_TRUST_WORKSPACE`), then `security.folderTrust.enabled: false` in the user's
/// settings (every folder trusted), then the longest rule of the trusted-folders file that holds
/// the folder (`TRUST_FOLDER`, `TRUST_PARENT`: trusted; `DO_NOT_TRUST`: not); no rule, not
/// trusted.
fn trust(
    home: &Path,
    workspace: Option<&Path>,
    user: Option<&Value>,
    env: &dyn Fn(&str) -> Option<String>,
    diags: &mut Vec<Diagnostic>,
) -> (bool, String) {
    let is = |k: &str, v: &str| env(k).is_some_and(|x| x == v);
    if is(RESTRICTED_ENV, "true") {
        return (false, format!("{RESTRICTED_ENV}=true"));
    }
    if is(TRUST_ENV, "false") {
        return (false, format!("{TRUST_ENV}=false"));
    }
    if is(TRUST_ENV, "true") {
        return (true, format!("{TRUST_ENV}=true"));
    }
    let folder_trust = user
        .and_then(|u| u.pointer("/security/folderTrust/enabled"))
        .and_then(Value::as_bool);
    if folder_trust == Some(false) {
        return (
            true,
            "security.folderTrust.enabled = false in ~/.gemini/settings.json".to_string(),
        );
    }
    let Some(workspace) = workspace else {
        return (true, "no project folder".to_string());
    };
    let file = env(TRUSTED_FOLDERS_ENV)
        .map_or_else(|| home.join(".gemini/trustedFolders.json"), PathBuf::from);
    let shown = show_path(&file, home);
    let rules = read_json(&file, diags);
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let here = real(workspace);
    let mut best: Option<(usize, &str, &str)> = None;
    for (rule, level) in rules
        .as_ref()
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let Some(level) = level.as_str() else {
            continue;
        };
        let path = Path::new(rule);
        let effective = match level {
            "TRUST_PARENT" => path.parent().unwrap_or(path),
            "TRUST_FOLDER" | "DO_NOT_TRUST" => path,
            _ => continue,
        };
        if here.starts_with(real(effective)) && best.is_none_or(|(len, _, _)| rule.len() > len) {
            best = Some((rule.len(), rule.as_str(), level));
        }
    }
    match best {
        Some((_, rule, "DO_NOT_TRUST")) => (false, format!("{shown}: {rule} is DO_NOT_TRUST")),
        Some((_, rule, level)) => (true, format!("{shown}: {rule} is {level}")),
        None => (
            false,
            format!(
                "not trusted: no rule of {shown} holds {} (trust it in Gemini CLI, or set {TRUST_ENV}=true)",
                workspace.display()
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_string())
        }
    }

    #[test]
    fn trust_comes_from_the_environment_then_the_settings_then_the_trusted_folders() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let project = t.path().join("work/project");
        std::fs::create_dir_all(home.join(".gemini")).unwrap();
        std::fs::create_dir_all(project.join(".gemini")).unwrap();
        let read =
            |e: &dyn Fn(&str) -> Option<String>| GeminiSettings::read(&home, Some(&project), e).0;
        let none = env(&[]);
        assert!(!read(&none).trusted, "no rule: not trusted");
        assert!(read(&env(&[(TRUST_ENV, "true")])).trusted);
        assert!(!read(&env(&[(TRUST_ENV, "true"), (RESTRICTED_ENV, "true")])).trusted);
        std::fs::write(
            home.join(".gemini/trustedFolders.json"),
            format!(
                "{{ // comments are allowed\n  {:?}: \"TRUST_PARENT\",\n  {:?}: \"DO_NOT_TRUST\" }}",
                project.join("x").display().to_string(),
                t.path().join("work").display().to_string()
            ),
        )
        .unwrap();
        // The longer rule (the parent of `project/x`, that is `project`) wins over `work`.
        let s = read(&none);
        assert!(s.trusted, "{}", s.trust_source);
        assert!(!read(&env(&[(TRUST_ENV, "false")])).trusted);
        std::fs::write(home.join(".gemini/trustedFolders.json"), "{}").unwrap();
        std::fs::write(
            home.join(".gemini/settings.json"),
            r#"{"security": {"folderTrust": {"enabled": false}}, "skills": {"disabled": ["PDF"]}}"#,
        )
        .unwrap();
        std::fs::write(
            project.join(".gemini/settings.json"),
            r#"{"skills": {"disabled": ["docx"], "enabled": false}}"#,
        )
        .unwrap();
        let s = read(&none);
        assert!(s.trusted);
        assert_eq!(
            s.disabled_by("pdf"),
            Some("~/.gemini/settings.json skills.disabled")
        );
        assert!(
            s.disabled_by("Docx")
                .is_some_and(|w| w.ends_with("project/.gemini/settings.json skills.disabled"))
        );
        assert!(s.skills_off.is_some());
        // An untrusted folder's settings are not read.
        let s = read(&env(&[(TRUST_ENV, "false")]));
        assert_eq!(s.disabled_by("docx"), None);
        assert_eq!(s.skills_off, None);
    }
}
