//! Namespaces: a skill's id from where it sits (`web/scraper/SKILL.md` below the root is
//! `web.scraper`; a Claude Code plugin's skill is `plugin:skill`), which agents keep two
//! same-named skills of different namespaces apart, and the patterns that select by namespace
//! (`web`, `web.*`, `*scraper`).

use crate::core::files::paths;
use std::path::{Path, PathBuf};

/// A plugin manifest larger than this is not read for the plugin's name.
const MAX_MANIFEST_BYTES: u64 = 256 * 1024;

/// Where a skill sits: its namespace (empty at the top of a root) and its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The namespace (`""` for a skill directly below its root).
    pub namespace: String,
    /// The name with its namespace: `web.scraper`, `plugin:skill`.
    pub id: String,
    /// The skill belongs to a Claude Code plugin, which always namespaces its skills.
    pub plugin: bool,
}

/// The namespace and id of the skill named `name` in folder `dir` found under `root`. A skill in
/// `<plugin>/skills/<skill>/` next to `<plugin>/.claude-plugin/plugin.json` is the plugin's;
/// otherwise the folders between the root and the skill's own folder are its namespace.
pub fn place(root: &Path, dir: &Path, name: &str) -> Placed {
    place_in(root, dir, name, &Manifests::default())
}

/// The plugin manifests read so far (by plugin folder: the name they give, if any), so that the
/// skills of one plugin share one read of its manifest.
#[derive(Debug, Default)]
pub struct Manifests(std::sync::Mutex<rustc_hash::FxHashMap<PathBuf, Option<String>>>);

/// [`place`], reading each plugin's manifest once per `manifests`.
pub fn place_in(root: &Path, dir: &Path, name: &str, manifests: &Manifests) -> Placed {
    if let Some(plugin) = plugin_of(dir, manifests) {
        return Placed {
            id: format!("{plugin}:{name}"),
            namespace: plugin,
            plugin: true,
        };
    }
    // The folders between the root and the skill folder, joined with dots (one string built,
    // every skill is placed).
    let mut namespace = String::new();
    let parent = paths::strip_prefix(dir, root).and_then(paths::parent);
    // A plain path's names are its text's pieces between `/`s.
    if let Some(text) = parent.and_then(paths::plain_text) {
        namespace = text.replace('/', ".");
    } else if let Some(parent) = parent {
        for c in parent.components() {
            let c = c.as_os_str().to_string_lossy();
            if c.is_empty() || c == "." {
                continue;
            }
            if !namespace.is_empty() {
                namespace.push('.');
            }
            namespace.push_str(&c);
        }
    }
    let id = if namespace.is_empty() {
        name.to_string()
    } else {
        let mut id = String::with_capacity(namespace.len() + 1 + name.len());
        id.push_str(&namespace);
        id.push('.');
        id.push_str(name);
        id
    };
    Placed {
        namespace,
        id,
        plugin: false,
    }
}

/// The plugin a skill folder belongs to: the manifest's `name`, else the plugin's folder name.
/// The manifest is optional for Claude Code, so a marketplace's `plugins/<plugin>/skills/<skill>`
/// layout marks a plugin too.
fn plugin_of(dir: &Path, manifests: &Manifests) -> Option<String> {
    let skills = paths::parent(dir)?;
    if paths::file_name(skills)? != "skills" {
        return None;
    }
    let plugin_dir = paths::parent(skills)?;
    let known = || {
        manifests
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(plugin) = known().get(plugin_dir) {
        return plugin.clone();
    }
    let plugin = plugin_named(plugin_dir);
    known().insert(plugin_dir.to_path_buf(), plugin.clone());
    plugin
}

/// The plugin whose folder is `plugin_dir`: its manifest's `name`, else the folder's name when it
/// has a manifest or sits in a marketplace's `plugins/`; `None` when it is no plugin.
fn plugin_named(plugin_dir: &Path) -> Option<String> {
    let folder_name = || Some(plugin_dir.file_name()?.to_string_lossy().into_owned());
    let manifest = plugin_dir.join(".claude-plugin").join("plugin.json");
    let Some(meta) = std::fs::metadata(&manifest)
        .ok()
        .filter(std::fs::Metadata::is_file)
    else {
        let in_marketplace = plugin_dir.parent()?.file_name()? == "plugins";
        return if in_marketplace { folder_name() } else { None };
    };
    // Read without blocking and only while it is still a regular file of a sane size: it
    // could be swapped for a FIFO between the check above and the read.
    let from_manifest = (meta.len() <= MAX_MANIFEST_BYTES)
        .then(|| crate::core::files::fsx::read_capped(&manifest, MAX_MANIFEST_BYTES).ok())
        .flatten()
        .flatten()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_string))
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty() && !n.contains([':', '/', '\n']));
    from_manifest.or_else(folder_name)
}

/// Whether a skill of `namespace` is in the scope `scope`: the namespace itself or one below
/// it (`web` holds `web` and `web.search`); `web.*` is read as `web`.
pub fn in_scope(namespace: &str, scope: &str) -> bool {
    let scope = scope.trim();
    let scope = scope
        .strip_suffix(".*")
        .or_else(|| scope.strip_suffix(":*"))
        .unwrap_or(scope)
        .trim_end_matches(['.', ':']);
    if scope.is_empty() {
        return namespace.is_empty();
    }
    namespace.eq_ignore_ascii_case(scope)
        || (namespace
            .get(..scope.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(scope))
            && namespace[scope.len()..].starts_with('.'))
}

/// Whether a filter pattern is a glob (`web.*`, `*-pdf`), matched against ids, rather than a
/// fuzzy pattern.
pub fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?'])
}

/// Glob match, case-insensitive: `*` any run of characters, `?` any one.
pub fn glob(pattern: &str, text: &str) -> bool {
    crate::core::words::text::wildcard(
        &pattern.trim().to_lowercase().chars().collect::<Vec<_>>(),
        &text.to_lowercase().chars().collect::<Vec<_>>(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_the_folders_below_the_root() {
        let root = Path::new("/lib");
        assert_eq!(place(root, Path::new("/lib/pdf"), "pdf").id, "pdf");
        let p = place(root, Path::new("/lib/web/scraper"), "scraper");
        assert_eq!(
            (p.namespace.as_str(), p.id.as_str()),
            ("web", "web.scraper")
        );
        let p = place(root, Path::new("/lib/a/b/c"), "c");
        assert_eq!(p.id, "a.b.c");
        // A root that is the skill folder itself, or a SKILL.md given directly.
        assert_eq!(
            place(Path::new("/lib/pdf"), Path::new("/lib/pdf"), "pdf").id,
            "pdf"
        );
        assert_eq!(
            place(Path::new("/lib/pdf/SKILL.md"), Path::new("/lib/pdf"), "pdf").id,
            "pdf"
        );
    }

    #[test]
    fn plugin_skills_are_plugin_colon_skill() {
        let t = tempfile::tempdir().unwrap();
        let plugin = t.path().join("market/plugins/doc-tools");
        std::fs::create_dir_all(plugin.join(".claude-plugin")).unwrap();
        std::fs::create_dir_all(plugin.join("skills/pdf")).unwrap();
        std::fs::write(
            plugin.join(".claude-plugin/plugin.json"),
            r#"{"name": "documents", "version": "1.0.0"}"#,
        )
        .unwrap();
        let p = place(t.path(), &plugin.join("skills/pdf"), "pdf");
        assert_eq!(p.id, "documents:pdf");
        assert!(p.plugin);
        // Without a usable name in the manifest, the plugin's folder names it.
        std::fs::write(plugin.join(".claude-plugin/plugin.json"), "{").unwrap();
        assert_eq!(
            place(t.path(), &plugin.join("skills/pdf"), "pdf").id,
            "doc-tools:pdf"
        );
        // A `skills` folder without a manifest is an ordinary namespace, unless it sits in a
        // marketplace's `plugins/<plugin>/`.
        let plain = t.path().join("repo/skills/pdf");
        assert_eq!(place(t.path(), &plain, "pdf").id, "repo.skills.pdf");
        let listed = t.path().join("market/plugins/sheets/skills/xlsx");
        assert_eq!(place(t.path(), &listed, "xlsx").id, "sheets:xlsx");
    }

    #[test]
    fn scopes_hold_their_namespace_and_the_ones_below() {
        assert!(in_scope("web", "web"));
        assert!(in_scope("web.search", "web"));
        assert!(in_scope("web.search", "web.*"));
        assert!(in_scope("Web", "web"));
        assert!(!in_scope("webby", "web"));
        assert!(!in_scope("", "web"));
        assert!(in_scope("documents", "documents:*"));
        assert!(in_scope("", ""));
    }

    #[test]
    fn globs_match_whole_ids() {
        assert!(glob("web.*", "web.scraper"));
        assert!(glob("web.*", "web.a.b"));
        assert!(!glob("web.*", "web"));
        assert!(!glob("web.*", "docs.web.x"));
        assert!(glob("*pdf*", "documents:pdf-forms"));
        assert!(glob("w?b.*", "WEB.x"));
        assert!(!glob("a*b*c*d*e*f*g", &"ab".repeat(5000)), "no blow-up");
        assert!(is_glob("web.*") && !is_glob("web"));
    }
}
