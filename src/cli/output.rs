//! How the subcommands print: warnings on stderr, JSON with nothing raw, columns that fit a
//! terminal, colour only where wanted, and notes on how the library was read.

use crate::core::findings::diagnostic::{Diagnostic, RuleId, Severity};
use crate::core::front::load;
use crate::core::library::GroupedResources;
use crate::core::listing::Fate;
use crate::core::manage::preview::{Preview, Priced};
use crate::core::skill::{KindSource, Skill};
use crate::core::tokens::{Encoding, ResourceTokens};
use crate::core::{Agent, Library, Scope};
use serde::Serialize;
use std::borrow::Cow;
use std::io::IsTerminal;
use std::path::Path;

/// `12.3 % of the 200,000-token context window`, with a warning past the whole window.
pub fn window_share(tokens: usize, window: usize) -> String {
    let pct = if window == 0 {
        0.0
    } else {
        tokens as f64 * 100.0 / window as f64
    };
    let over = if tokens > window {
        ": MORE THAN THE WHOLE WINDOW"
    } else {
        ""
    };
    format!(
        "{pct:.1} % of the {}-token context window{over}",
        crate::core::words::text::thousands(window as u64)
    )
}

/// `tokens` as a share of `window`, in percent with one decimal (for JSON).
pub fn window_percent(tokens: usize, window: usize) -> f64 {
    if window == 0 {
        return 0.0;
    }
    (tokens as f64 * 1000.0 / window as f64).round() / 10.0
}

/// Says on stderr that the demo library is in use, so no figure is mistaken for the user's own,
/// and what else is worth knowing about how the library was read (an index file not used).
pub fn note_demo(lib: &Library) {
    for note in &lib.notes {
        warn(note);
    }
    if let Some(p) = load::demo_problem() {
        warn(p);
    }
    if lib.demo {
        let dir = lib.roots.first().map(|r| r.path.display().to_string());
        warn(format_args!(
            "no skills installed; showing the bundled demo library ({})",
            dir.unwrap_or_default()
        ));
    }
}

/// A path as a text report shows it, escaped: relative to the current folder when it is below it,
/// `~/…` when it is below the home folder (`~\…` on Windows), else as it is. A report pasted into
/// a pull request or a ticket carries no one's home folder (JSON and SARIF keep absolute paths).
pub fn shown_path(p: &Path) -> String {
    static PLACES: std::sync::OnceLock<(Option<std::path::PathBuf>, Option<std::path::PathBuf>)> =
        std::sync::OnceLock::new();
    let (cwd, home) = PLACES.get_or_init(|| {
        (
            std::env::current_dir().ok(),
            dirs::home_dir().filter(|h| h.parent().is_some()),
        )
    });
    let abs = crate::core::files::paths::absolute(p);
    let strip = crate::core::files::paths::strip_prefix;
    if let Some(rest) = cwd.as_deref().and_then(|c| strip(&abs, c)) {
        if rest.as_os_str().is_empty() {
            return ".".to_string();
        }
        return crate::core::words::text::path(rest);
    }
    if let Some(rest) = home.as_deref().and_then(|h| strip(&abs, h)) {
        // `~/…` on Unix, `~\…` on Windows: one separator throughout.
        let sep = std::path::MAIN_SEPARATOR;
        return crate::core::words::text::line(&format!("~{sep}{}", rest.display())).into_owned();
    }
    crate::core::words::text::path(&abs)
}

/// A line on stderr, `skillscope: …`, with every hazard of the message escaped: messages quote
/// names, paths and file contents.
pub fn warn(msg: impl std::fmt::Display) {
    eprintln!(
        "skillscope: {}",
        crate::core::words::text::line(&msg.to_string())
    );
}

/// Says on stderr what could not be read (a missing root, a root that is a file, a folder the walk
/// could not enter, a skill file that is not a regular file or cannot be opened). Returns the
/// exit code `check` would give for it: 1 when any of it is an error, else 0.
pub fn note_unread(lib: &Library) -> i32 {
    let mut code = 0;
    for (path, d) in lib.unread() {
        let shown = path.display().to_string();
        if d.message.contains(&shown) {
            warn(format_args!("{}: {}", d.severity, d.message));
        } else {
            warn(format_args!("{}: {shown}: {}", d.severity, d.message));
        }
        if d.severity == crate::core::Severity::Error {
            code = 1;
        }
    }
    code
}

/// Keeps what a command built alive until the process exits, which is about to happen: freeing a
/// library of thousands of skills piece by piece costs milliseconds and returns nothing useful.
pub fn keep_until_exit<T>(what: T) {
    std::mem::forget(what);
}

/// Standard output for a report: locked, and buffered 64 KiB at a time (a report of thousands of
/// findings is megabytes; the default buffer would make a write call every 8 KiB).
pub fn report_out() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock())
}

/// Pretty JSON in which the characters a terminal acts on (DEL, C1 controls, bidi controls; JSON
/// already escapes C0) are written as `\uXXXX` escapes: the same JSON value, nothing raw. The
/// layout is serde_json's pretty one (two spaces a level); the document is built in memory and
/// written in one go.
pub fn write_json<W: std::io::Write, T: serde::Serialize + ?Sized>(
    mut out: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut buf = Vec::new();
    json_into(&mut buf, value, 0)?;
    out.write_all(&buf).map_err(serde_json::Error::io)
}

/// [`write_json`] into a string.
pub fn json_string<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut buf = Vec::new();
    json_into(&mut buf, value, 0)?;
    // The writer writes only what it was given and ASCII escapes: valid UTF-8.
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// `value` as [`write_json`] writes it `depth` levels deep, appended to `buf`.
fn json_into<T: serde::Serialize + ?Sized>(
    buf: &mut Vec<u8>,
    value: &T,
    depth: usize,
) -> serde_json::Result<()> {
    value.serialize(&mut crate::cli::json::Writer { out: buf, depth })
}

/// What [`write_json`] writes for `items` as a JSON array nested `depth` levels deep (0: the
/// whole document), each item serialised on every core, already indented to its depth.
pub fn write_json_array<W: std::io::Write, T: serde::Serialize + Sync>(
    out: &mut W,
    items: &[T],
    depth: usize,
) -> serde_json::Result<()> {
    let mut array = JsonArray::new(depth);
    array.write(out, items)?;
    array.finish(out)
}

/// Items serialised one after another by one core.
const CHUNK: usize = 64;

/// Chunks serialised at once, on every core, before they are written.
const WAVE_CHUNKS: usize = 8;

/// A JSON array written as [`write_json`] writes it, its items given a run at a time and
/// serialised on every core a wave of [`JsonArray::WAVE`] items at a time: each wave is written
/// out before the next is made, into the same buffers, so a report of megabytes is never held
/// whole and its memory is a few pages used again and again, not thousands of fresh ones.
pub struct JsonArray {
    depth: usize,
    /// Items written so far.
    written: usize,
    /// One buffer per chunk of a wave, kept from wave to wave.
    bufs: Vec<Vec<u8>>,
}

impl JsonArray {
    /// Items serialised at once: a caller that makes its items as it goes gives this many a time.
    pub const WAVE: usize = CHUNK * WAVE_CHUNKS;

    /// An array nested `depth` levels deep (0: the whole document), nothing written yet.
    pub fn new(depth: usize) -> JsonArray {
        JsonArray {
            depth,
            written: 0,
            bufs: Vec::new(),
        }
    }

    /// Writes `items` after those already written, opening the array with the first.
    pub fn write<W: std::io::Write, T: serde::Serialize + Sync>(
        &mut self,
        out: &mut W,
        items: &[T],
    ) -> serde_json::Result<()> {
        self.write_with(out, items, |item| item)
    }

    /// Writes what `view` makes of each of `items` after those already written: each view is
    /// made where it is serialised, on every core, and never held beside the others.
    pub fn write_with<'s, W: std::io::Write, S: Sync, T: serde::Serialize>(
        &mut self,
        out: &mut W,
        items: &'s [S],
        view: impl Fn(&'s S) -> T + Sync,
    ) -> serde_json::Result<()> {
        use rayon::prelude::*;
        let io = serde_json::Error::io;
        for wave in items.chunks(Self::WAVE) {
            let n = wave.len().div_ceil(CHUNK);
            if self.bufs.len() < n {
                self.bufs.resize_with(n, Vec::new);
            }
            let (depth, before) = (self.depth, self.written);
            self.bufs[..n]
                .par_iter_mut()
                .zip(wave.par_chunks(CHUNK))
                .enumerate()
                .try_for_each(|(c, (buf, chunk))| -> serde_json::Result<()> {
                    buf.clear();
                    for (k, item) in chunk.iter().enumerate() {
                        if before != 0 || c != 0 || k != 0 {
                            buf.push(b',');
                        }
                        crate::cli::json::newline(buf, depth + 1);
                        json_into(buf, &view(item), depth + 1)?;
                    }
                    Ok(())
                })?;
            if before == 0 {
                out.write_all(b"[").map_err(io)?;
            }
            write_all_vectored(out, &self.bufs[..n]).map_err(io)?;
            self.written += wave.len();
        }
        Ok(())
    }

    /// Closes the array: `[]` when no item was written.
    pub fn finish<W: std::io::Write>(self, out: &mut W) -> serde_json::Result<()> {
        let io = serde_json::Error::io;
        if self.written == 0 {
            return out.write_all(b"[]").map_err(io);
        }
        let mut end = b"\n".to_vec();
        push_indent(&mut end, self.depth);
        end.push(b']');
        out.write_all(&end).map_err(io)
    }
}

/// Writes every byte of `bufs`, in order, in as few write calls as `out` takes them in: a wave
/// of a report is a few hundred kilobytes, which a buffered standard output passes on in one
/// call (`writev`) instead of copying them into its buffer first.
fn write_all_vectored<W: std::io::Write>(out: &mut W, bufs: &[Vec<u8>]) -> std::io::Result<()> {
    let mut slices: Vec<std::io::IoSlice<'_>> = bufs
        .iter()
        .filter(|b| !b.is_empty())
        .map(|b| std::io::IoSlice::new(b))
        .collect();
    let mut left = &mut slices[..];
    while !left.is_empty() {
        match out.write_vectored(left) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => std::io::IoSlice::advance_slices(&mut left, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// `depth` levels of serde_json's pretty layout (two spaces each).
fn push_indent(out: &mut Vec<u8>, depth: usize) {
    out.resize(out.len() + 2 * depth, b' ');
}

/// A column of names in a text report. On a terminal a long name is cut to the column with `…`
/// so the table keeps its shape; into a pipe or a file every character is kept and the column
/// is as wide as its longest entry, so the columns still line up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub width: usize,
    cut: bool,
}

impl Column {
    /// A column for entries up to `widest` characters: at most `max` wide on a terminal
    /// (`terminal`), else `widest` (and never narrower than `min`).
    pub fn new(widest: usize, min: usize, max: usize, terminal: bool) -> Column {
        if terminal {
            Column {
                width: widest.clamp(min, max.max(min)),
                cut: true,
            }
        } else {
            Column {
                width: widest.max(min),
                cut: false,
            }
        }
    }

    /// The text as one escaped line, cut at its end on a terminal.
    pub fn fit(&self, s: &str) -> String {
        if self.cut {
            crate::core::words::text::fit(s, self.width)
        } else {
            crate::core::words::text::line(s).into_owned()
        }
    }

    /// The text as one escaped line, cut at its start on a terminal (a path's end says most).
    pub fn fit_left(&self, s: &str) -> String {
        if self.cut {
            crate::core::words::text::fit_left(s, self.width)
        } else {
            crate::core::words::text::line(s).into_owned()
        }
    }

    /// `s` (already fitted) padded to the column.
    pub fn pad(&self, s: &str) -> String {
        let n = s.chars().count();
        format!("{s}{}", " ".repeat(self.width.saturating_sub(n)))
    }
}

/// The width of `s` as a column shows it (escaped, in characters).
pub fn shown_width(s: &str) -> usize {
    crate::core::words::text::line(s).chars().count()
}

/// Whether standard output is a terminal.
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Whether to colour standard output: `--color`, else only on a terminal and never when
/// `NO_COLOR` is set.
pub fn use_color() -> bool {
    crate::color::enabled(std::io::stdout().is_terminal())
}

/// The version of [`SkillJson`]'s shape: raised when a field is renamed, removed or changes
/// meaning (a new optional field does not raise it). Documented in `docs/cli.md`.
pub const SKILL_SCHEMA_VERSION: u32 = 1;

/// One skill as every JSON document shows it (`list --json`, `budget --format json`, the
/// previews of `add`, `update`, `move` and `copy`): the same names for the same facts, whichever
/// command prints it. The fields every command knows are always there; the rest are filled by
/// the commands that know them and left out elsewhere (the table in `docs/cli.md` says which).
/// What one agent does with a skill: `on`, `name-only`, `off`, `shadowed`, `conditional`, with
/// the setting or rule that decided.
#[derive(Serialize, Clone)]
pub struct AgentStateJson {
    pub agent: Agent,
    pub state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl AgentStateJson {
    /// The state of a skill `agent` reads; `None` for one it does not read.
    pub fn of(agent: Agent, seen: &crate::core::agents::view::Seen) -> Option<AgentStateJson> {
        use crate::core::agents::view::Seen;
        let (state, why) = match seen {
            Seen::NotRead => return None,
            Seen::On => ("on", None),
            Seen::NameOnly(w) => ("name-only", Some(w.clone())),
            Seen::Off(w) => ("off", Some(w.clone())),
            Seen::Shadowed => (
                "shadowed",
                Some("another copy of its name wins".to_string()),
            ),
            Seen::Dormant => (
                "conditional",
                Some("listed once a file matching its paths: is open (--files)".to_string()),
            ),
        };
        Some(AgentStateJson { agent, state, why })
    }

    /// The list's first column for it.
    pub fn glyph(&self) -> &'static str {
        match self.state {
            "on" => "●",
            "name-only" => "◐",
            "shadowed" | "conditional" => "◌",
            _ => "○",
        }
    }
}

#[derive(Serialize)]
pub struct SkillJson<'a> {
    pub schema_version: u32,
    pub name: &'a str,
    /// The name with its namespace (`web.scraper`, `plugin:skill`).
    pub id: &'a str,
    pub namespace: &'a str,
    pub description: Option<&'a str>,
    /// `contextual`, `executable` or `composite`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub dir: Cow<'a, str>,
    pub skill_md: Cow<'a, str>,
    pub agent: Agent,
    pub scope: Scope,
    pub tokens: TokensJson,
    /// The spec's optional fields as written (any JSON value), `null` when absent (`list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<Option<&'a serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compatibility: Option<Option<&'a serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Option<&'a serde_json::Value>>,
    /// On in skillscope's state (`list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// What the agent asked for with `--agent` does with it (`list --agent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_state: Option<AgentStateJson>,
    /// The folder of the skill that shadows it, `null` when none does (`list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shadowed_by: Option<Option<Cow<'a, str>>>,
    /// Its files by Conjure's groups (design 004): scripts, references, assets, other (`list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<GroupedResources<'a>>,
    /// The findings of the profile's rules (`list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Vec<DiagnosticJson<'a>>>,
    /// Where `skillscope add` took it from (its `skills.lock` entry), when it did (`list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<crate::core::manage::manifest::Entry>,
    /// What another installer recorded of it (`npx skills`, ClawHub) and whether its files
    /// still match, when one did (`list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub installed: Option<InstalledJson>,
    /// The other places its folder is reached at, through links from other agents' folders
    /// (`list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linked: Option<Vec<PlaceJson<'a>>>,
    /// Every agent that reads it, at any of its places (`list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readers: Option<Vec<Agent>>,
    /// Its fate in the listing; `null` when it is off (`budget`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fate: Option<Option<Fate>>,
    /// What decided its type: `type`, `entry`, `execute.py` or `default` (`budget`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_source: Option<KindSource>,
    /// Tokens in context once the skill is used, by its type (`budget`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub used: Option<Option<u64>>,
    /// The skills a composite loads along (`budget`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub used_loads: Option<Vec<&'a str>>,
    /// An executable never probed: its tool schema is not in `used` (`budget`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema_unknown: Option<bool>,
    /// Every file other than SKILL.md with its size and tokens (`budget`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_tokens: Option<&'a [ResourceTokens]>,
    /// The folder it is installed as, and where it sits in its source (previews).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folder: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subfolder: Option<&'a str>,
    /// Whether the profile lets it in, and why not (previews).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<&'a crate::core::manage::preview::Verdict>,
    /// Files that could run, never run by skillscope (previews).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executables: Option<&'a [String]>,
    /// What the copy left out (previews).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<&'a [String]>,
    /// What is at its place in the agent's folder now, `null` when nothing is (previews).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clash: Option<Option<&'a Path>>,
}

/// An installer's record of a skill, with what its files say now.
#[derive(Serialize)]
pub struct InstalledJson {
    #[serde(flatten)]
    pub record: crate::core::installers::Record,
    pub files: crate::core::installers::Files,
}

impl InstalledJson {
    /// `record`, its files compared in `dir`.
    pub fn of(record: crate::core::installers::Record, dir: &Path) -> InstalledJson {
        let files = record.files(dir);
        InstalledJson { record, files }
    }
}

/// One place a skill folder is reached at through a link.
#[derive(Serialize)]
pub struct PlaceJson<'a> {
    pub dir: Cow<'a, str>,
    pub agent: Agent,
    pub scope: Scope,
}

impl<'a> PlaceJson<'a> {
    /// Every linked place of `skill`.
    pub fn all(skill: &'a Skill) -> Vec<PlaceJson<'a>> {
        skill
            .linked
            .iter()
            .map(|p| PlaceJson {
                dir: p.dir.to_string_lossy(),
                agent: p.agent,
                scope: p.scope,
            })
            .collect()
    }
}

/// A skill's tokens per level in one encoding; `null` for a level not counted.
#[derive(Serialize)]
pub struct TokensJson {
    pub encoding: Encoding,
    pub l1: Option<u32>,
    pub l2: Option<u32>,
    /// Its resources, the tool schema of an executable included when known.
    pub l3: Option<u32>,
    /// The tool schema's tokens, when probed.
    pub schema: Option<u32>,
}

/// One finding about a skill.
#[derive(Serialize)]
pub struct DiagnosticJson<'a> {
    pub rule: RuleId,
    pub severity: Severity,
    pub message: &'a str,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

impl<'a> DiagnosticJson<'a> {
    /// The finding `d`.
    pub fn of(d: &'a Diagnostic) -> DiagnosticJson<'a> {
        DiagnosticJson {
            rule: d.rule,
            severity: d.severity,
            message: &d.message,
            line: d.line,
            column: d.column,
        }
    }
}

impl<'a> SkillJson<'a> {
    /// What every command knows of `skill`, with its `tokens`; the command fills the rest.
    pub fn of(skill: &'a Skill, tokens: TokensJson) -> SkillJson<'a> {
        SkillJson::bare(
            &skill.name,
            &skill.id,
            &skill.namespace,
            skill.frontmatter.description(),
            skill.kind().as_str(),
            skill.dir.to_string_lossy(),
            skill.skill_md.to_string_lossy(),
            (skill.agent, skill.scope),
            tokens,
        )
    }

    /// A skill priced before it is installed into `preview`'s folder: its place there is its
    /// `dir`, and a skill installed as a folder of an agent's skills folder has no namespace.
    pub fn priced(p: &'a Priced, preview_dir: &Path, place: (Agent, Scope), enc: Encoding) -> Self {
        let dir = preview_dir.join(&p.folder);
        let skill_md = dir.join("SKILL.md");
        SkillJson {
            folder: Some(&p.folder),
            subfolder: Some(&p.subfolder),
            verdict: Some(&p.verdict),
            executables: Some(&p.executables),
            notes: Some(&p.notes),
            clash: Some(p.clash.as_deref()),
            ..SkillJson::bare(
                &p.name,
                &p.name,
                "",
                Some(&p.description),
                p.kind,
                Cow::Owned(dir.to_string_lossy().into_owned()),
                Cow::Owned(skill_md.to_string_lossy().into_owned()),
                place,
                TokensJson {
                    encoding: enc,
                    l1: p.tokens.l1,
                    l2: p.tokens.l2,
                    l3: p.tokens.l3,
                    schema: None,
                },
            )
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn bare(
        name: &'a str,
        id: &'a str,
        namespace: &'a str,
        description: Option<&'a str>,
        kind: &'static str,
        dir: Cow<'a, str>,
        skill_md: Cow<'a, str>,
        (agent, scope): (Agent, Scope),
        tokens: TokensJson,
    ) -> SkillJson<'a> {
        SkillJson {
            schema_version: SKILL_SCHEMA_VERSION,
            name,
            id,
            namespace,
            description,
            kind,
            dir,
            skill_md,
            agent,
            scope,
            tokens,
            license: None,
            compatibility: None,
            metadata: None,
            enabled: None,
            shadowed_by: None,
            resources: None,
            diagnostics: None,
            source: None,
            installed: None,
            linked: None,
            readers: None,
            fate: None,
            type_source: None,
            used: None,
            used_loads: None,
            schema_unknown: None,
            resource_tokens: None,
            folder: None,
            subfolder: None,
            verdict: None,
            agent_state: None,
            executables: None,
            notes: None,
            clash: None,
        }
    }
}

/// An install preview (`add`, `move`, `copy`) with its skills in the one [`SkillJson`] view.
#[derive(Serialize)]
pub struct PreviewJson<'a> {
    pub agent: Agent,
    pub scope: Scope,
    pub dir: &'a Path,
    pub profile: &'static str,
    pub encoding: &'static str,
    pub skills: Vec<SkillJson<'a>>,
    pub listing: &'a crate::core::manage::preview::ListingChange,
}

impl<'a> PreviewJson<'a> {
    /// `p` as printed.
    pub fn of(p: &'a Preview) -> PreviewJson<'a> {
        let enc = p.encoding.parse().unwrap_or_default();
        PreviewJson {
            agent: p.agent,
            scope: p.scope,
            dir: &p.dir,
            profile: p.profile,
            encoding: p.encoding,
            skills: p
                .skills
                .iter()
                .map(|s| SkillJson::priced(s, &p.dir, (p.agent, p.scope), enc))
                .collect(),
            listing: &p.listing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn items() -> Vec<serde_json::Value> {
        (0..1200)
            .map(|i| {
                json!({
                    "i": i,
                    "empty": [],
                    "none": {},
                    "nested": {"a": [1, {"b": [], "c": [true, null]}], "s": format!("x{i}\u{202e}y\n\u{7f}")},
                })
            })
            .collect()
    }

    /// The layout is serde_json's pretty one wherever nothing needs escaping.
    #[test]
    fn the_layout_is_serde_jsons_pretty_one() {
        let doc = json!({"a": [1, [], {}, {"b": [[]], "c": "d"}], "e": {"f": []}, "g": "h"});
        let mut ours = Vec::new();
        write_json(&mut ours, &doc).unwrap();
        assert_eq!(
            String::from_utf8(ours).unwrap(),
            serde_json::to_string_pretty(&doc).unwrap()
        );
    }

    /// An array written on every core, alone or as the last field of an object, is the array
    /// written whole, hazards escaped the same.
    #[test]
    fn an_array_written_on_every_core_is_the_array_written_whole() {
        let items = items();
        for n in [0, 1, 64, 65, 300, 511, 512, 513, 1200] {
            let part = &items[..n];
            let mut whole = Vec::new();
            write_json(&mut whole, part).unwrap();
            let mut each = Vec::new();
            write_json_array(&mut each, part, 0).unwrap();
            assert_eq!(
                String::from_utf8(each).unwrap(),
                String::from_utf8(whole).unwrap()
            );
        }
        let doc = json!({"a": 1, "list": items});
        let mut whole = Vec::new();
        write_json(&mut whole, &doc).unwrap();
        let mut head = Vec::new();
        write_json(&mut head, &json!({"a": 1, "list": []})).unwrap();
        let mut each = head.strip_suffix(b"[]\n}").unwrap().to_vec();
        write_json_array(&mut each, &items, 1).unwrap();
        each.extend_from_slice(b"\n}");
        assert!(String::from_utf8_lossy(&whole).contains("\\u202e"));
        assert_eq!(
            String::from_utf8(each).unwrap(),
            String::from_utf8(whole).unwrap()
        );
    }

    /// A writer that takes at most `most` bytes a call, from the first of the slices it is given.
    struct Dribble {
        got: Vec<u8>,
        most: usize,
    }

    impl std::io::Write for Dribble {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.most);
            self.got.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Slices written by as many calls as the writer needs, each taking part of one, arrive
    /// whole and in order; a writer that takes nothing is an error, not a loop.
    #[test]
    fn vectored_writes_arrive_whole_through_short_writes() {
        let bufs: Vec<Vec<u8>> = (0..9u8)
            .map(|i| (0..(i as usize * 37) % 101).map(|k| i ^ k as u8).collect())
            .collect();
        let whole = bufs.concat();
        for most in [1, 3, 64, 1000] {
            let mut out = Dribble {
                got: Vec::new(),
                most,
            };
            write_all_vectored(&mut out, &bufs).unwrap();
            assert_eq!(out.got, whole, "{most} bytes a call");
        }
        let mut stuck = Dribble {
            got: Vec::new(),
            most: 0,
        };
        let e = write_all_vectored(&mut stuck, &bufs).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::WriteZero);
        let mut through = std::io::BufWriter::with_capacity(16, Vec::new());
        write_all_vectored(&mut through, &bufs).unwrap();
        assert_eq!(through.into_inner().unwrap(), whole);
    }

    /// An array given in runs of any length, across waves or inside one, is the array written
    /// whole; one given nothing is `[]`.
    #[test]
    fn an_array_given_in_runs_is_the_array_written_whole() {
        let items = items();
        for runs in [
            &[0usize][..],
            &[0, 0],
            &[1, 0, 1],
            &[JsonArray::WAVE, JsonArray::WAVE, 176],
            &[3, 700, 0, 497],
            &[511, 2, 687],
        ] {
            let n: usize = runs.iter().sum();
            let mut whole = Vec::new();
            write_json(&mut whole, &items[..n]).unwrap();
            let mut each = Vec::new();
            let mut array = JsonArray::new(0);
            let mut at = 0;
            for &run in runs {
                array.write(&mut each, &items[at..at + run]).unwrap();
                at += run;
            }
            array.finish(&mut each).unwrap();
            assert_eq!(
                String::from_utf8(each).unwrap(),
                String::from_utf8(whole).unwrap(),
                "{runs:?}"
            );
        }
    }
}
