//! Declared Python dependencies: pip-style requirements (PEP 508 basics), versions and how they
//! compare (PEP 440 basics), and `requirements.txt` files. Pure parsing: nothing here runs.

use serde::Serialize;
use std::cmp::Ordering;
use std::fmt;
use std::path::Path;

/// The file a skill folder may hold its requirements in.
pub const REQUIREMENTS_FILE: &str = "requirements.txt";
/// A requirements file larger than this is not read (real ones are a few hundred bytes).
const MAX_REQUIREMENTS_BYTES: u64 = 1024 * 1024;

/// Why a requirement or a version does not parse; each message names the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("the requirement is empty")]
    Empty,
    #[error(
        "`{0}` is not a package name: use letters, digits, `.`, `_` and `-`, starting and ending with a letter or digit"
    )]
    BadName(String),
    #[error("`{0}` has an unclosed `[` of extras: write `name[extra1,extra2]`")]
    BadExtras(String),
    #[error(
        "`{0}` is not a version specifier: use `==`, `!=`, `>=`, `<=`, `>`, `<`, `~=` or `===` followed by a version"
    )]
    BadOperator(String),
    #[error("`{0}` is not a version: write it as in `1.2`, `1.2.3`, `2.0rc1` or `1.0.post1`")]
    BadVersion(String),
    #[error("`{0}`: `{1}` needs a version with at least two parts, such as `~=1.4`")]
    ShortCompatible(String, String),
    #[error("`{0}`: `.*` is only allowed after `==` and `!=`")]
    MisplacedWildcard(String),
    #[error("`{0}`: a local version (`+…`) is only allowed after `==`, `!=` and `===`")]
    MisplacedLocal(String),
    #[error("`{0}`: a requirement by URL (`name @ url`) needs a URL after `@`")]
    BadUrl(String),
    #[error("`{0}` is not a list of requirements: write one specifier per list item")]
    NotText(String),
}

/// A comparison operator of a version specifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Op {
    #[serde(rename = "==")]
    Eq,
    #[serde(rename = "!=")]
    Ne,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = "<")]
    Lt,
    /// `~=`, the compatible release.
    #[serde(rename = "~=")]
    Compatible,
    /// `===`, string equality.
    #[serde(rename = "===")]
    Arbitrary,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Ge => ">=",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Lt => "<",
            Op::Compatible => "~=",
            Op::Arbitrary => "===",
        }
    }

    /// The operator at the start of `s` and the rest; longest first so `===` is not `==`.
    fn split(s: &str) -> Option<(Op, &str)> {
        const OPS: [(&str, Op); 8] = [
            ("===", Op::Arbitrary),
            ("==", Op::Eq),
            ("!=", Op::Ne),
            (">=", Op::Ge),
            ("<=", Op::Le),
            ("~=", Op::Compatible),
            (">", Op::Gt),
            ("<", Op::Lt),
        ];
        OPS.iter()
            .find_map(|(text, op)| s.strip_prefix(text).map(|rest| (*op, rest)))
    }
}

/// One `op version` clause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Specifier {
    pub op: Op,
    /// The version as written (without `.*`).
    pub version: String,
    /// `==1.2.*` / `!=1.2.*`: a prefix match.
    pub wildcard: bool,
    #[serde(skip)]
    parsed: Option<Version>,
}

impl fmt::Display for Specifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let star = if self.wildcard { ".*" } else { "" };
        write!(f, "{}{}{star}", self.op.as_str(), self.version)
    }
}

impl Specifier {
    fn parse(clause: &str, whole: &str) -> Result<Specifier, SpecError> {
        let clause = clause.trim();
        let (op, rest) = Op::split(clause).ok_or_else(|| SpecError::BadOperator(clause.into()))?;
        let text = rest.trim();
        if text.is_empty() {
            return Err(SpecError::BadVersion(clause.to_string()));
        }
        if op == Op::Arbitrary {
            if text.chars().any(char::is_whitespace) {
                return Err(SpecError::BadVersion(text.to_string()));
            }
            return Ok(Specifier {
                op,
                version: text.to_string(),
                wildcard: false,
                parsed: None,
            });
        }
        let (text, wildcard) = match text.strip_suffix(".*") {
            Some(t) => (t, true),
            None => (text, false),
        };
        if wildcard && !matches!(op, Op::Eq | Op::Ne) {
            return Err(SpecError::MisplacedWildcard(whole.to_string()));
        }
        let v: Version = text
            .parse()
            .map_err(|_| SpecError::BadVersion(text.to_string()))?;
        if !v.local.is_empty() && (wildcard || !matches!(op, Op::Eq | Op::Ne)) {
            return Err(SpecError::MisplacedLocal(whole.to_string()));
        }
        if op == Op::Compatible && v.release.len() < 2 {
            return Err(SpecError::ShortCompatible(
                whole.to_string(),
                format!("~={text}"),
            ));
        }
        Ok(Specifier {
            op,
            version: text.to_string(),
            wildcard,
            parsed: Some(v),
        })
    }

    /// Whether an installed version satisfies this clause. Pre-releases count like any version,
    /// as `pip check` judges what is installed.
    pub fn contains(&self, installed: &str) -> bool {
        let Some(spec) = &self.parsed else {
            return installed.trim().eq_ignore_ascii_case(self.version.trim());
        };
        let Ok(cand) = installed.parse::<Version>() else {
            // An installed version that is not PEP 440 only ever equals itself.
            return self.op == Op::Ne;
        };
        // Local labels of the installed version are ignored except by an `==` that names one.
        let public = cand.public();
        match self.op {
            Op::Eq if self.wildcard => prefix_match(spec, &cand),
            Op::Ne if self.wildcard => !prefix_match(spec, &cand),
            Op::Eq if spec.local.is_empty() => public == *spec,
            Op::Eq => cand == *spec,
            Op::Ne if spec.local.is_empty() => public != *spec,
            Op::Ne => cand != *spec,
            Op::Ge => public >= *spec,
            Op::Le => public <= *spec,
            Op::Gt => {
                public > *spec
                    // `>1.0` excludes 1.0's post-releases unless it names a post-release itself.
                    && !(spec.post.is_none() && public.post.is_some() && public.base() == spec.base())
            }
            Op::Lt => {
                public < *spec
                    // `<2.0` excludes 2.0's pre-releases unless it names a pre-release itself.
                    && !(!spec.is_pre() && public.is_pre() && public.base() == spec.base())
            }
            Op::Compatible => {
                let mut prefix = spec.clone();
                prefix.release.pop();
                prefix.pre = None;
                prefix.post = None;
                prefix.dev = None;
                public >= *spec && prefix_match(&prefix, &cand)
            }
            Op::Arbitrary => installed.trim().eq_ignore_ascii_case(self.version.trim()),
        }
    }
}

/// `==1.2.*`: same epoch, and the installed release padded with zeros starts with 1.2.
fn prefix_match(spec: &Version, cand: &Version) -> bool {
    if spec.epoch != cand.epoch {
        return false;
    }
    spec.release
        .iter()
        .enumerate()
        .all(|(i, n)| cand.release.get(i).copied().unwrap_or(0) == *n)
}

/// One requirement: `name[extras] specifiers ; marker`, or `name @ url`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Requirement {
    /// As written.
    pub raw: String,
    pub name: String,
    /// The name normalised as package indexes compare names (PEP 503): lowercase, runs of
    /// `-`, `_`, `.` as one `-`.
    pub key: String,
    pub extras: Vec<String>,
    pub specifiers: Vec<Specifier>,
    /// The environment marker after `;`, kept as written (not evaluated).
    pub marker: Option<String>,
    pub url: Option<String>,
}

impl Requirement {
    /// Whether the installed version satisfies every clause.
    pub fn satisfied_by(&self, installed: &str) -> bool {
        self.specifiers.iter().all(|s| s.contains(installed))
    }

    /// The clauses as one string (`>=1.0,<2`), empty when any version will do.
    pub fn wanted(&self) -> String {
        self.specifiers
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// PEP 503 name normalisation.
pub fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

fn valid_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'))
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
}

/// Parses one pip-style requirement.
pub fn parse_requirement(text: &str) -> Result<Requirement, SpecError> {
    let raw = text.trim();
    if raw.is_empty() {
        return Err(SpecError::Empty);
    }
    let (body, marker) = match raw.split_once(';') {
        Some((b, m)) => (
            b.trim(),
            Some(m.trim().to_string()).filter(|m| !m.is_empty()),
        ),
        None => (raw, None),
    };
    let name_end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        .unwrap_or(body.len());
    let name = &body[..name_end];
    if !valid_name(name) {
        let shown = if name.is_empty() { body } else { name };
        return Err(SpecError::BadName(shown.to_string()));
    }
    let mut rest = body[name_end..].trim_start();
    let mut extras = Vec::new();
    if let Some(r) = rest.strip_prefix('[') {
        let Some((inside, after)) = r.split_once(']') else {
            return Err(SpecError::BadExtras(raw.to_string()));
        };
        for e in inside.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            if !valid_name(e) {
                return Err(SpecError::BadName(e.to_string()));
            }
            extras.push(e.to_string());
        }
        rest = after.trim_start();
    }
    let mut url = None;
    let mut specifiers = Vec::new();
    if let Some(u) = rest.strip_prefix('@') {
        let u = u.trim();
        if u.is_empty() || !u.contains(':') || u.chars().any(char::is_whitespace) {
            return Err(SpecError::BadUrl(raw.to_string()));
        }
        url = Some(u.to_string());
    } else {
        let clauses = match rest.strip_prefix('(') {
            Some(r) => r
                .strip_suffix(')')
                .ok_or_else(|| SpecError::BadOperator(rest.to_string()))?,
            None => rest,
        };
        if !clauses.trim().is_empty() {
            for clause in clauses.split(',') {
                specifiers.push(Specifier::parse(clause, raw)?);
            }
        }
    }
    Ok(Requirement {
        raw: raw.to_string(),
        key: normalize_name(name),
        name: name.to_string(),
        extras,
        specifiers,
        marker,
        url,
    })
}

/// One line of a requirements file that holds a requirement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequirementLine {
    /// 1-based line in the file (the first line of a continued one).
    pub line: u32,
    pub parsed: Result<Requirement, SpecError>,
}

/// The requirements of a `requirements.txt`: comments, blank lines and pip options (`-r`, `-e`,
/// `--index-url`, …) are skipped, as are local paths and VCS URLs, which name no version.
pub fn parse_requirements_txt(text: &str) -> Vec<RequirementLine> {
    let mut out = Vec::new();
    let mut pending = String::new();
    let mut start = 0u32;
    for (i, line) in text.lines().enumerate() {
        let line_no = i as u32 + 1;
        if pending.is_empty() {
            start = line_no;
        }
        match line.strip_suffix('\\') {
            Some(head) => {
                pending.push_str(head);
                pending.push(' ');
                continue;
            }
            None => pending.push_str(line),
        }
        let logical = std::mem::take(&mut pending);
        let text = strip_comment(&logical).trim();
        // Options after a requirement (`--hash=…`) belong to pip, not to the specifier.
        let text = match text.find(" --").or_else(|| text.find("\t--")) {
            Some(i) => text[..i].trim(),
            None => text,
        };
        if text.is_empty() || text.starts_with('-') || is_path_or_vcs(text) {
            continue;
        }
        out.push(RequirementLine {
            line: start,
            parsed: parse_requirement(text),
        });
    }
    out
}

/// `#` starts a comment at the start of a line or after white space.
fn strip_comment(line: &str) -> &str {
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        if c == '#' && prev_space {
            return &line[..i];
        }
        prev_space = c.is_whitespace();
    }
    line
}

fn is_path_or_vcs(text: &str) -> bool {
    text.starts_with('.')
        || text.starts_with('/')
        || text.starts_with('~')
        || text.contains("://") && !text.contains('@')
        || ["git+", "hg+", "svn+", "bzr+", "file:"]
            .iter()
            .any(|p| text.starts_with(p))
}

/// Where a skill declares a requirement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum Origin {
    /// The `dependencies:` list in SKILL.md (`index` is the 0-based position in the list).
    Frontmatter { index: usize },
    /// A line of the skill's `requirements.txt`.
    RequirementsTxt { line: u32 },
}

/// Every requirement a skill declares, parsed, with where it comes from.
#[derive(Debug, Clone, Default)]
pub struct Declared {
    pub items: Vec<(Origin, Result<Requirement, SpecError>)>,
    /// The skill folder holds a `requirements.txt`.
    pub has_requirements_txt: bool,
    /// It could not be read (or is not a regular file); the reason.
    pub requirements_txt_error: Option<String>,
}

impl Declared {
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && !self.has_requirements_txt
    }

    pub fn valid(&self) -> impl Iterator<Item = (&Origin, &Requirement)> {
        self.items
            .iter()
            .filter_map(|(o, r)| r.as_ref().ok().map(|r| (o, r)))
    }

    pub fn invalid(&self) -> impl Iterator<Item = (&Origin, &SpecError)> {
        self.items
            .iter()
            .filter_map(|(o, r)| r.as_ref().err().map(|e| (o, e)))
    }
}

/// The frontmatter `dependencies:` value, item by item: each must be a string.
pub fn from_frontmatter(
    value: &serde_json::Value,
) -> Vec<(Origin, Result<Requirement, SpecError>)> {
    let items: Vec<&serde_json::Value> = match value {
        serde_json::Value::Array(a) => a.iter().collect(),
        serde_json::Value::Null => Vec::new(),
        other => vec![other],
    };
    items
        .into_iter()
        .enumerate()
        .map(|(index, v)| {
            let r = match v {
                serde_json::Value::String(s) => parse_requirement(s),
                other => Err(SpecError::NotText(crate::core::frontmatter::compact(other))),
            };
            (Origin::Frontmatter { index }, r)
        })
        .collect()
}

/// What a skill folder declares: its frontmatter's `dependencies` and its `requirements.txt`.
/// Reads only that one file, and only when it is a regular file of reasonable size.
pub fn declared(dir: &Path, dependencies: Option<&serde_json::Value>) -> Declared {
    let mut out = Declared {
        items: dependencies.map(from_frontmatter).unwrap_or_default(),
        ..Declared::default()
    };
    if std::fs::symlink_metadata(dir.join(REQUIREMENTS_FILE)).is_err() {
        return out;
    }
    out.has_requirements_txt = true;
    match crate::core::resource::read_inside(dir, REQUIREMENTS_FILE, MAX_REQUIREMENTS_BYTES) {
        Ok(text) => {
            for l in parse_requirements_txt(&text) {
                out.items
                    .push((Origin::RequirementsTxt { line: l.line }, l.parsed));
            }
        }
        Err(e) => out.requirements_txt_error = Some(e.to_string()),
    }
    out
}

/// A PEP 440 version: `[N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local]`.
#[derive(Debug, Clone)]
pub struct Version {
    pub epoch: u64,
    pub release: Vec<u64>,
    /// 0 = a, 1 = b, 2 = rc.
    pub pre: Option<(u8, u64)>,
    pub post: Option<u64>,
    pub dev: Option<u64>,
    pub local: Vec<Local>,
}

/// Epoch, trimmed release, then the pre-, post- and dev-release ranks (each a kind and a number).
type SortKey<'a> = (u64, &'a [u64], (i8, u8, u64), (i8, u64), (i8, u64));

/// A segment of a local version label: numbers sort after words.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Local {
    Text(String),
    Number(u64),
}

impl Version {
    fn public(&self) -> Version {
        Version {
            local: Vec::new(),
            ..self.clone()
        }
    }

    /// Epoch and release only.
    fn base(&self) -> Version {
        Version {
            epoch: self.epoch,
            release: self.release.clone(),
            pre: None,
            post: None,
            dev: None,
            local: Vec::new(),
        }
    }

    fn is_pre(&self) -> bool {
        self.pre.is_some() || self.dev.is_some()
    }

    /// The release with trailing zeros dropped: 1.0 == 1.0.0.
    fn trimmed(&self) -> &[u64] {
        let end = self
            .release
            .iter()
            .rposition(|&n| n != 0)
            .map_or(0, |i| i + 1);
        &self.release[..end]
    }

    fn key(&self) -> SortKey<'_> {
        // A dev release of a final version sorts before its pre-releases: 1.0.dev0 < 1.0a1.
        let pre = match (self.pre, self.post, self.dev) {
            (None, None, Some(_)) => (-1, 0, 0),
            (None, _, _) => (1, 0, 0),
            (Some((k, n)), _, _) => (0, k, n),
        };
        let post = self.post.map_or((-1, 0), |n| (0, n));
        let dev = self.dev.map_or((1, 0), |n| (0, n));
        (self.epoch, self.trimmed(), pre, post, dev)
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Version {}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key()
            .cmp(&other.key())
            .then_with(|| self.local.cmp(&other.local))
    }
}

impl std::str::FromStr for Version {
    type Err = SpecError;

    /// Accepts the normalisations PEP 440 allows: any case, a leading `v`, `-`/`_` separators,
    /// `alpha`/`beta`/`c`/`pre`/`preview` spellings, `rev`/`r` for post, and `1.0-1`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || SpecError::BadVersion(s.to_string());
        let text = s.trim().to_ascii_lowercase();
        let text = text.strip_prefix('v').unwrap_or(&text);
        let (public, local) = match text.split_once('+') {
            Some((p, l)) => (p, Some(l)),
            None => (text, None),
        };
        let mut v = Version {
            epoch: 0,
            release: Vec::new(),
            pre: None,
            post: None,
            dev: None,
            local: Vec::new(),
        };
        let mut rest = public;
        if let Some((e, r)) = rest.split_once('!') {
            v.epoch = e.parse().map_err(|_| bad())?;
            rest = r;
        }
        let digits_end = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        loop {
            let n = digits_end(rest);
            if n == 0 {
                return Err(bad());
            }
            v.release.push(rest[..n].parse().map_err(|_| bad())?);
            rest = &rest[n..];
            match rest.strip_prefix('.') {
                Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => rest = r,
                _ => break,
            }
        }
        let sep = |s: &str| -> usize { usize::from(s.starts_with(['.', '-', '_'])) };
        // Pre-release.
        let after = &rest[sep(rest)..];
        const PRE: [(&str, u8); 7] = [
            ("alpha", 0),
            ("a", 0),
            ("beta", 1),
            ("b", 1),
            ("rc", 2),
            ("c", 2),
            ("preview", 2),
        ];
        let pre = PRE
            .iter()
            .chain(std::iter::once(&("pre", 2u8)))
            .find(|(w, _)| after.starts_with(w) && !after.starts_with("post"));
        if let Some((word, kind)) = pre {
            let r = &after[word.len()..];
            let r = &r[sep(r)..];
            let n = digits_end(r);
            let num = if n == 0 {
                0
            } else {
                r[..n].parse().map_err(|_| bad())?
            };
            v.pre = Some((*kind, num));
            rest = &r[n..];
        }
        // Post-release, including the implicit `1.0-1`.
        let after = &rest[sep(rest)..];
        let post_word = ["post", "rev", "r"].iter().find(|w| after.starts_with(**w));
        if let Some(word) = post_word {
            let r = &after[word.len()..];
            let r = &r[sep(r)..];
            let n = digits_end(r);
            v.post = Some(if n == 0 {
                0
            } else {
                r[..n].parse().map_err(|_| bad())?
            });
            rest = &r[n..];
        } else if let Some(r) = rest.strip_prefix('-') {
            let n = digits_end(r);
            if n > 0 {
                v.post = Some(r[..n].parse().map_err(|_| bad())?);
                rest = &r[n..];
            }
        }
        let after = &rest[sep(rest)..];
        if let Some(r) = after.strip_prefix("dev") {
            let r = &r[sep(r)..];
            let n = digits_end(r);
            v.dev = Some(if n == 0 {
                0
            } else {
                r[..n].parse().map_err(|_| bad())?
            });
            rest = &r[n..];
        }
        if !rest.is_empty() {
            return Err(bad());
        }
        if let Some(l) = local {
            v.local = local_segments(l).ok_or_else(bad)?;
        }
        Ok(v)
    }
}

/// A local version label's segments (`ubuntu.1`), numbers and words; `None` for an empty or
/// non-alphanumeric one.
fn local_segments(label: &str) -> Option<Vec<Local>> {
    label
        .split(['.', '-', '_'])
        .map(|seg| {
            if seg.is_empty() || !seg.chars().all(|c| c.is_ascii_alphanumeric()) {
                return None;
            }
            Some(match seg.parse() {
                Ok(n) => Local::Number(n),
                Err(_) => Local::Text(seg.to_string()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        s.parse().unwrap()
    }

    fn sat(req: &str, installed: &str) -> bool {
        parse_requirement(req).unwrap().satisfied_by(installed)
    }

    #[test]
    fn versions_order_as_pep_440_says() {
        let ordered = [
            "1.0.dev0",
            "1.0a1",
            "1.0a2.dev1",
            "1.0a2",
            "1.0b1",
            "1.0rc1",
            "1.0",
            "1.0+local",
            "1.0.post1.dev0",
            "1.0.post1",
            "1.1",
            "1.10",
            "2!0.1",
        ];
        for w in ordered.windows(2) {
            assert!(v(w[0]) < v(w[1]), "{} < {}", w[0], w[1]);
        }
        assert_eq!(v("1.0"), v("1.0.0"));
        assert_eq!(v("v1.0-ALPHA.1"), v("1.0a1"));
        assert_eq!(v("1.0-1"), v("1.0.post1"));
        assert_eq!(v("1.0c1"), v("1.0rc1"));
        for bad in ["", "x", "1..2", "1.0+", "1.0 beta", "1.0++a"] {
            assert!(bad.parse::<Version>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn specifiers_match_like_pip() {
        assert!(sat("pip>=23.0", "23.2.1"));
        assert!(!sat("pip>=24", "23.2.1"));
        assert!(sat("pip>=20,<24", "23.2.1"));
        assert!(!sat("pip>=20,!=23.2.1", "23.2.1"));
        assert!(sat("pip==23.2.*", "23.2.1"));
        assert!(!sat("pip==23.3.*", "23.2.1"));
        assert!(sat("pip!=23.3.*", "23.2.1"));
        assert!(sat("pip~=23.1", "23.2.1"));
        assert!(!sat("pip~=23.1.0", "23.2.1"));
        assert!(sat("pip~=23.2.0", "23.2.1"));
        assert!(!sat("pip~=24.0", "23.2.1"));
        assert!(sat("pip==23.2.1", "23.2.1+ubuntu1"));
        assert!(!sat("pip==23.2.1+ubuntu1", "23.2.1"));
        assert!(!sat("pip>1.0", "1.0.post1"));
        assert!(sat("pip>1.0.post1", "1.0.post2"));
        assert!(!sat("pip<2.0", "2.0rc1"));
        assert!(sat("pip<2.0rc2", "2.0rc1"));
        assert!(sat("pip<=2.0", "2.0"));
        assert!(sat("pip===23.2.1", "23.2.1"));
        assert!(sat("pip", "0.0.1"));
        assert!(sat("pip (>=1.0)", "1.0"));
    }

    #[test]
    fn requirements_parse_with_extras_markers_and_urls() {
        let r = parse_requirement(
            "Beautiful_Soup4[lxml, html5lib] >= 4.12.0 ; python_version >= '3.8'",
        )
        .unwrap();
        assert_eq!(r.key, "beautiful-soup4");
        assert_eq!(r.extras, vec!["lxml", "html5lib"]);
        assert_eq!(r.wanted(), ">=4.12.0");
        assert_eq!(r.marker.as_deref(), Some("python_version >= '3.8'"));
        let u = parse_requirement("pkg @ https://example.com/pkg.whl").unwrap();
        assert_eq!(u.url.as_deref(), Some("https://example.com/pkg.whl"));
        assert!(u.specifiers.is_empty());
    }

    #[test]
    fn malformed_requirements_name_the_fix() {
        type Is = fn(&SpecError) -> bool;
        let cases: &[(&str, Is)] = &[
            ("", |e| matches!(e, SpecError::Empty)),
            ("-pkg", |e| matches!(e, SpecError::BadName(_))),
            ("pkg=1.0", |e| matches!(e, SpecError::BadOperator(_))),
            ("pkg>=", |e| matches!(e, SpecError::BadVersion(_))),
            ("pkg>=one", |e| matches!(e, SpecError::BadVersion(_))),
            ("pkg~=1", |e| matches!(e, SpecError::ShortCompatible(..))),
            ("pkg>=1.*", |e| matches!(e, SpecError::MisplacedWildcard(_))),
            ("pkg>=1.0+local", |e| {
                matches!(e, SpecError::MisplacedLocal(_))
            }),
            ("pkg[extra", |e| matches!(e, SpecError::BadExtras(_))),
            ("pkg @", |e| matches!(e, SpecError::BadUrl(_))),
            ("pkg 1.0", |e| matches!(e, SpecError::BadOperator(_))),
        ];
        for (text, want) in cases {
            let e = parse_requirement(text).unwrap_err();
            assert!(want(&e), "{text:?} gave {e:?}");
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn requirements_txt_skips_options_comments_and_paths() {
        let text = "# tools\nrequests>=2.31  # http\n-r other.txt\n--index-url https://x\n\nnumpy==1.26.* \\\n    --hash=sha256:abc\n./local/pkg\ngit+https://github.com/a/b\nbad==\n";
        let got: Vec<(u32, Result<String, ()>)> = parse_requirements_txt(text)
            .into_iter()
            .map(|l| (l.line, l.parsed.map(|r| r.raw).map_err(|_| ())))
            .collect();
        assert_eq!(
            got,
            vec![
                (2, Ok("requests>=2.31".to_string())),
                (6, Ok("numpy==1.26.*".to_string())),
                (10, Err(())),
            ]
        );
    }

    #[test]
    fn names_normalise_per_pep_503() {
        assert_eq!(normalize_name("Foo.Bar__baz-"), "foo-bar-baz");
        assert_eq!(normalize_name("zope.interface"), "zope-interface");
    }

    #[test]
    fn frontmatter_items_that_are_not_text_are_errors() {
        let items = from_frontmatter(&serde_json::json!(["requests>=2", 3, "x y"]));
        assert!(items[0].1.is_ok());
        assert!(matches!(items[1].1, Err(SpecError::NotText(_))));
        assert!(items[2].1.is_err());
    }
}
