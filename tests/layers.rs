//! The core and the CLI are layered: no import circle among the files of `src/core`, nor among
//! those of `src/cli`. The graphs are built from the source text, so a new circle fails here
//! with the files and lines that close it.
//!
//! A node is one `.rs` file (a folder's `mod.rs` is its own node). An edge runs from a file to
//! the file that *defines* what one of its paths names: `use` trees and `crate::…`, `super::…`,
//! `self::…` or child-module paths in code, followed through `use`/`pub use` re-exports. A
//! `mod x;` declaration is not an edge. Items under `#[cfg(test)]` (test modules, test-only
//! files) are left out: they are not part of the layered program.
// The source reader is one tokenizer loop and one item loop, kept whole for reading.
#![allow(clippy::too_many_lines)]

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Punct(char),
    PathSep,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
}

/// Splits Rust source into identifiers, `::` and single punctuation, with comments, strings and
/// character literals removed (their contents are not paths).
fn tokenize(src: &str) -> Vec<Token> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let n = chars.len();
    while i < n {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && i + 1 < n && chars[i + 1] == '/' {
            while i < n && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && i + 1 < n && chars[i + 1] == '*' {
            let mut depth = 0;
            while i < n {
                if chars[i] == '/' && i + 1 < n && chars[i + 1] == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && i + 1 < n && chars[i + 1] == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if (c == 'r' || c == 'b')
            && raw_string_start(&chars, i).is_some()
            && (i == 0 || !is_ident_char(chars[i - 1]))
        {
            let (hashes, body) = raw_string_start(&chars, i).unwrap_or((0, i));
            i = body;
            loop {
                if i >= n {
                    break;
                }
                if chars[i] == '\n' {
                    line += 1;
                }
                if chars[i] == '"' && (0..hashes).all(|h| chars.get(i + 1 + h) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < n && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if i < n && chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if i + 1 < n && chars[i + 1] == '\\' {
                i += 2;
                while i < n && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if i + 2 < n && chars[i + 2] == '\'' {
                i += 3;
            } else {
                i += 1;
            }
        } else if is_ident_char(c) {
            let start = i;
            while i < n && is_ident_char(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // A string prefix such as b"..." is handled above; a number is a harmless ident.
            out.push(Token {
                tok: Tok::Ident(word),
                line,
            });
        } else if c == ':' && i + 1 < n && chars[i + 1] == ':' {
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// At `r"`, `r#"`, `br"`, `b"`: the number of `#`s and where the body starts.
fn raw_string_start(chars: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
        if chars.get(j) == Some(&'"') {
            return None; // b"..." is an ordinary (escaped) string: let the '"' arm take it
        }
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (chars.get(j) == Some(&'"')).then_some((hashes, j + 1))
}

type ModPath = Vec<String>;

/// One path written in a file, to be resolved once every module is known.
#[derive(Debug, Clone)]
struct Reference {
    from_file: PathBuf,
    module: ModPath,
    path: Vec<String>,
    line: usize,
    in_use: bool,
}

#[derive(Default, Debug)]
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
    defs: BTreeSet<String>,
    /// Names brought in by `use` (private or public), to their absolute path.
    imports: BTreeMap<String, ModPath>,
    globs: Vec<ModPath>,
}

#[derive(Default)]
struct Crate {
    modules: BTreeMap<ModPath, Module>,
    refs: Vec<Reference>,
}

const ITEM_KEYWORDS: &[&str] = &[
    "struct", "enum", "fn", "trait", "type", "const", "static", "union",
];

fn ident(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(s)) => Some(s.as_str()),
        _ => None,
    }
}

fn punct(t: Option<&Token>, c: char) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Punct(p)) if *p == c)
}

fn path_sep(t: Option<&Token>) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::PathSep))
}

/// Index just past the item starting at `i` (the end of its first `{}` group, or its `;`).
fn skip_item(toks: &[Token], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < toks.len() {
        match &toks[i].tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']') => depth -= 1,
            Tok::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

/// Reads one attribute `#[...]` at `i`; returns its end and whether it is `#[cfg(test)]`.
fn read_attribute(toks: &[Token], i: usize) -> (usize, bool) {
    let mut j = i + 1;
    if punct(toks.get(j), '!') {
        j += 1;
    }
    let start = j;
    let mut depth = 0;
    while j < toks.len() {
        match &toks[j].tok {
            Tok::Punct('[' | '(') => depth += 1,
            Tok::Punct(']' | ')') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        j += 1;
    }
    let body: Vec<&Tok> = toks[start..=j.min(toks.len() - 1)]
        .iter()
        .map(|t| &t.tok)
        .collect();
    let is_test = body.len() == 6
        && body[1] == &Tok::Ident("cfg".into())
        && body[3] == &Tok::Ident("test".into());
    (j + 1, is_test)
}

/// Parses a use tree at `i` into (path, alias) leaves; `*` leaves have alias `*`.
fn parse_use_tree(
    toks: &[Token],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, String)>,
) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(s)) if s == "as" => {
                let alias = ident(toks.get(i + 1)).unwrap_or("_").to_string();
                out.push((path, alias));
                return i + 2;
            }
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                i += 1;
            }
            Some(Tok::Punct('$')) => i += 1, // $crate
            Some(Tok::PathSep) => i += 1,
            Some(Tok::Punct('*')) => {
                out.push((path, "*".into()));
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                loop {
                    if punct(toks.get(i), '}') {
                        return i + 1;
                    }
                    if punct(toks.get(i), ',') {
                        i += 1;
                        continue;
                    }
                    if i >= toks.len() {
                        return i;
                    }
                    i = parse_use_tree(toks, i, &path, out);
                }
            }
            _ => {
                let alias = match path.last() {
                    Some(s) if s == "self" => {
                        path.pop();
                        path.last().cloned().unwrap_or_default()
                    }
                    Some(s) => s.clone(),
                    None => String::new(),
                };
                if !path.is_empty() {
                    out.push((path, alias));
                }
                return i;
            }
        }
    }
}

fn child_file(parent_file: &Path, name: &str) -> Option<PathBuf> {
    let stem = parent_file.file_stem()?.to_str()?;
    let dir = parent_file.parent()?;
    let base = if matches!(stem, "mod" | "lib" | "main") {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let flat = base.join(format!("{name}.rs"));
    if flat.is_file() {
        return Some(flat);
    }
    let nested = base.join(name).join("mod.rs");
    nested.is_file().then_some(nested)
}

/// Reads one file as module `module`, recording its items, imports, references and children.
fn read_file(krate: &mut Crate, file: &Path, module: ModPath) {
    let src = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let toks = tokenize(&src);
    krate.modules.entry(module.clone()).or_default().file = file.to_path_buf();
    // Inline modules open at a brace depth: (name, depth).
    let mut inline: Vec<(String, i32)> = Vec::new();
    let mut depth = 0i32;
    let mut file_children = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let here: ModPath = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        match &toks[i].tok {
            Tok::Punct('#') if punct(toks.get(i + 1), '[') || punct(toks.get(i + 1), '!') => {
                let (end, is_test) = read_attribute(&toks, i);
                if is_test {
                    // Skip further attributes, then the item itself.
                    i = end;
                    while punct(toks.get(i), '#') {
                        i = read_attribute(&toks, i).0;
                    }
                    i = skip_item(&toks, i);
                } else {
                    // Paths inside other attributes (clap's `#[arg(add = …)]`) are read.
                    i += 1;
                }
                continue;
            }
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    let name = name.to_string();
                    krate
                        .modules
                        .entry(here.clone())
                        .or_default()
                        .children
                        .insert(name.clone());
                    if punct(toks.get(i + 2), '{') {
                        let mut sub = here.clone();
                        sub.push(name.clone());
                        krate.modules.entry(sub).or_default().file = file.to_path_buf();
                        inline.push((name, depth));
                        depth += 1;
                        i += 3;
                        continue;
                    }
                    if inline.is_empty() {
                        file_children.push(name);
                    }
                    i += 2;
                    continue;
                }
            }
            Tok::Ident(w) if w == "use" => {
                let mut leaves = Vec::new();
                let end = parse_use_tree(&toks, i + 1, &[], &mut leaves);
                let line = toks[i].line;
                for (path, alias) in leaves {
                    if alias == "*" {
                        krate
                            .modules
                            .entry(here.clone())
                            .or_default()
                            .globs
                            .push(path.clone());
                    } else if !alias.is_empty() && alias != "_" {
                        // Stored raw; made absolute in `absolute` once every module is known.
                        krate
                            .modules
                            .entry(here.clone())
                            .or_default()
                            .imports
                            .insert(alias, path.clone());
                    }
                    krate.refs.push(Reference {
                        from_file: file.to_path_buf(),
                        module: here.clone(),
                        path,
                        line,
                        in_use: true,
                    });
                }
                i = end;
                continue;
            }
            Tok::Ident(w) if w == "macro_rules" => {
                if let Some(name) = ident(toks.get(i + 2)) {
                    let name = name.to_string();
                    krate.modules.entry(here).or_default().defs.insert(name);
                }
            }
            Tok::Ident(w) if ITEM_KEYWORDS.contains(&w.as_str()) => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    let name = name.to_string();
                    krate.modules.entry(here).or_default().defs.insert(name);
                }
            }
            Tok::Ident(w) if w == "in" && punct(toks.get(i.wrapping_sub(1)), '(') => {
                // `pub(in path)` names a module for visibility, not a dependency.
                let mut j = i + 1;
                while ident(toks.get(j)).is_some() || path_sep(toks.get(j)) {
                    j += 1;
                }
                i = j;
                continue;
            }
            Tok::Ident(first)
                if path_sep(toks.get(i + 1)) && !path_sep(toks.get(i.wrapping_sub(1))) =>
            {
                let mut path = vec![first.clone()];
                let mut j = i + 1;
                while path_sep(toks.get(j)) {
                    match ident(toks.get(j + 1)) {
                        Some(s) => path.push(s.to_string()),
                        None => break,
                    }
                    j += 2;
                }
                krate.refs.push(Reference {
                    from_file: file.to_path_buf(),
                    module: here.clone(),
                    path,
                    line: toks[i].line,
                    in_use: false,
                });
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    for name in file_children {
        let Some(child) = child_file(file, &name) else {
            continue; // a module defined elsewhere (a generated or cfg'd file)
        };
        let mut sub = module.clone();
        sub.push(name);
        read_file(krate, &child, sub);
    }
}

impl Crate {
    fn load(root: &Path) -> Crate {
        let mut krate = Crate::default();
        read_file(&mut krate, &root.join("src/lib.rs"), Vec::new());
        krate
    }

    fn is_module(&self, path: &[String]) -> bool {
        self.modules.contains_key(path)
    }

    /// Makes a written path absolute (from the crate root), or None when it leaves the crate.
    fn absolute(&self, module: &[String], path: &[String], in_use: bool) -> Option<ModPath> {
        let mut segs = path.iter().peekable();
        let mut base: ModPath;
        match segs.peek().map(|s| s.as_str()) {
            Some("crate") => {
                segs.next();
                base = Vec::new();
            }
            Some("self") => {
                segs.next();
                base = module.to_vec();
            }
            Some("super") => {
                base = module.to_vec();
                while segs.peek().map(|s| s.as_str()) == Some("super") {
                    segs.next();
                    base.pop();
                }
            }
            Some(first) => {
                let mut child = module.to_vec();
                child.push(first.to_string());
                if self.is_module(&child) {
                    base = module.to_vec();
                } else if let Some(m) = self.modules.get(module)
                    && !in_use
                    && let Some(target) = m.imports.get(first)
                {
                    // `scan::x` after `use crate::core::scan;` — the use already made the
                    // edge to the module; deeper names are followed from its target.
                    let mut abs = self.absolute(module, target, true)?;
                    segs.next();
                    abs.extend(segs.cloned());
                    return Some(abs);
                } else {
                    return None;
                }
            }
            None => return None,
        }
        base.extend(segs.cloned());
        Some(base)
    }

    /// The module whose file defines what the absolute `path` names.
    fn defining_module(&self, path: &[String], seen: &mut BTreeSet<ModPath>) -> Option<ModPath> {
        if !seen.insert(path.to_vec()) {
            return None;
        }
        let mut module: ModPath = Vec::new();
        let mut rest = path;
        while let Some((first, tail)) = rest.split_first() {
            let mut sub = module.clone();
            sub.push(first.clone());
            if self.is_module(&sub) {
                module = sub;
                rest = tail;
                continue;
            }
            let m = self.modules.get(&module)?;
            if m.defs.contains(first) {
                return Some(module);
            }
            if let Some(target) = m.imports.get(first) {
                let mut abs = self.absolute(&module, target, true)?;
                abs.extend(tail.iter().cloned());
                return self.defining_module(&abs, seen);
            }
            for glob in &m.globs {
                if let Some(mut abs) = self.absolute(&module, glob, true) {
                    abs.extend(rest.iter().cloned());
                    if let Some(found) = self.defining_module(&abs, seen) {
                        return Some(found);
                    }
                }
            }
            return None;
        }
        Some(module)
    }

    /// File edges: (from, to) → the first line that makes each.
    fn edges(&self) -> BTreeMap<(PathBuf, PathBuf), (usize, String)> {
        self.all_edges()
            .into_iter()
            .map(|(k, v)| (k, v[0].clone()))
            .collect()
    }

    /// File edges: (from, to) → every line that makes each.
    fn all_edges(&self) -> BTreeMap<(PathBuf, PathBuf), Vec<(usize, String)>> {
        let mut edges = BTreeMap::new();
        for r in &self.refs {
            let Some(abs) = self.absolute(&r.module, &r.path, r.in_use) else {
                continue;
            };
            let Some(def) = self.defining_module(&abs, &mut BTreeSet::new()) else {
                continue;
            };
            let Some(to) = self.modules.get(&def).map(|m| m.file.clone()) else {
                continue;
            };
            if to != r.from_file {
                edges
                    .entry((r.from_file.clone(), to))
                    .or_insert_with(Vec::new)
                    .push((r.line, r.path.join("::")));
            }
        }
        edges
    }
}

/// The circles among the files under `dir`: each as its files in order, with the line that
/// makes each step.
fn circles(
    edges: &BTreeMap<(PathBuf, PathBuf), (usize, String)>,
    dir: &Path,
) -> Vec<Vec<(PathBuf, usize, String)>> {
    let mut next: BTreeMap<&PathBuf, Vec<&PathBuf>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        if from.starts_with(dir) && to.starts_with(dir) {
            next.entry(from).or_default().push(to);
        }
    }
    let nodes: BTreeSet<&PathBuf> = next
        .iter()
        .flat_map(|(f, ts)| std::iter::once(*f).chain(ts.iter().copied()))
        .collect();
    // Strongly connected components by mutual reachability (the graphs are small).
    let reach = |start: &PathBuf| -> BTreeSet<&PathBuf> {
        let mut seen = BTreeSet::new();
        let mut queue: VecDeque<&PathBuf> = next.get(start).cloned().unwrap_or_default().into();
        while let Some(n) = queue.pop_front() {
            if seen.insert(n) {
                queue.extend(next.get(n).cloned().unwrap_or_default());
            }
        }
        seen
    };
    let reaches: BTreeMap<&PathBuf, BTreeSet<&PathBuf>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in &nodes {
        if done.contains(n) || !reaches[n].contains(n) {
            continue;
        }
        let component: BTreeSet<&PathBuf> = nodes
            .iter()
            .filter(|m| reaches[n].contains(*m) && reaches[*m].contains(n))
            .copied()
            .collect();
        done.extend(component.iter().copied());
        // One shortest circle through `n`, inside its component, to name in the failure.
        let mut prev: BTreeMap<&PathBuf, &PathBuf> = BTreeMap::new();
        let mut queue = VecDeque::from([*n]);
        'bfs: while let Some(m) = queue.pop_front() {
            for t in next.get(m).cloned().unwrap_or_default() {
                if !component.contains(t) {
                    continue;
                }
                if t == *n {
                    prev.insert(t, m);
                    break 'bfs;
                }
                if !prev.contains_key(t) {
                    prev.insert(t, m);
                    queue.push_back(t);
                }
            }
        }
        let mut cycle = vec![*n];
        let mut at = prev[*n];
        while at != *n {
            cycle.push(at);
            at = prev[at];
        }
        cycle.reverse();
        let mut steps = Vec::new();
        for (k, from) in cycle.iter().enumerate() {
            let to = cycle[(k + 1) % cycle.len()];
            let (line, path) = &edges[&((*from).clone(), to.clone())];
            steps.push(((*from).clone(), *line, format!("{path} → {}", to.display())));
        }
        let mut members = String::new();
        for m in &component {
            let _ = write!(members, " {}", m.display());
        }
        steps.push((
            PathBuf::from(format!("[{} files:{members}]", component.len())),
            0,
            String::new(),
        ));
        out.push(steps);
    }
    out
}

fn report(circles: &[Vec<(PathBuf, usize, String)>]) -> String {
    let root = format!("{}/", env!("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    for circle in circles {
        text.push_str("circle:\n");
        for (file, line, what) in circle {
            if what.is_empty() {
                let _ = writeln!(text, "  {}", file.display());
            } else {
                let _ = writeln!(text, "  {}:{line} uses {what}", file.display());
            }
        }
    }
    text.replace(&root, "")
}
/// The import graph among the files under one folder: its rooms (files), arrows (file → file
/// it imports) and, by strongly connected components, its circles and floors.
struct House {
    rooms: BTreeSet<PathBuf>,
    next: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
    /// Each room's component: rooms in one circle share one.
    component: BTreeMap<PathBuf, usize>,
}

impl House {
    fn of(edges: &BTreeMap<(PathBuf, PathBuf), (usize, String)>, dir: &Path) -> House {
        let mut rooms = BTreeSet::new();
        let mut next: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
        for (from, to) in edges.keys() {
            if from.starts_with(dir) && to.starts_with(dir) {
                next.entry(from.clone()).or_default().insert(to.clone());
            }
            for f in [from, to] {
                if f.starts_with(dir) {
                    rooms.insert(f.clone());
                }
            }
        }
        let reach = |start: &PathBuf| -> BTreeSet<PathBuf> {
            let mut seen = BTreeSet::new();
            let mut queue: VecDeque<PathBuf> =
                next.get(start).into_iter().flatten().cloned().collect();
            while let Some(n) = queue.pop_front() {
                if seen.insert(n.clone()) {
                    queue.extend(next.get(&n).into_iter().flatten().cloned());
                }
            }
            seen
        };
        let reaches: BTreeMap<&PathBuf, BTreeSet<PathBuf>> =
            rooms.iter().map(|n| (n, reach(n))).collect();
        let mut component = BTreeMap::new();
        for (k, n) in rooms.iter().enumerate() {
            if component.contains_key(n) {
                continue;
            }
            for m in &rooms {
                if m == n || (reaches[n].contains(m) && reaches[m].contains(n)) {
                    component.insert(m.clone(), k);
                }
            }
        }
        House {
            rooms,
            next,
            component,
        }
    }

    fn arrows(&self) -> usize {
        self.next.values().map(BTreeSet::len).sum()
    }

    /// The circles' members, each circle's rooms in order.
    fn circles(&self) -> Vec<Vec<&PathBuf>> {
        let mut by: BTreeMap<usize, Vec<&PathBuf>> = BTreeMap::new();
        for (room, c) in &self.component {
            by.entry(*c).or_default().push(room);
        }
        by.into_values().filter(|rooms| rooms.len() > 1).collect()
    }

    /// Each room's floor: 0 for a room that imports no other room, else one above the highest
    /// floor it imports; the rooms of one circle share a floor (the circle is one room here).
    fn floors(&self) -> BTreeMap<usize, Vec<&PathBuf>> {
        fn floor(c: usize, house: &House, memo: &mut BTreeMap<usize, usize>) -> usize {
            if let Some(f) = memo.get(&c) {
                return *f;
            }
            let below: BTreeSet<usize> = house
                .component
                .iter()
                .filter(|(_, k)| **k == c)
                .flat_map(|(room, _)| house.next.get(room).into_iter().flatten())
                .map(|to| house.component[to])
                .filter(|k| *k != c)
                .collect();
            let f = below
                .into_iter()
                .map(|k| floor(k, house, memo) + 1)
                .max()
                .unwrap_or(0);
            memo.insert(c, f);
            f
        }
        let mut memo = BTreeMap::new();
        let mut out: BTreeMap<usize, Vec<&PathBuf>> = BTreeMap::new();
        for room in &self.rooms {
            out.entry(floor(self.component[room], self, &mut memo))
                .or_default()
                .push(room);
        }
        out
    }

    /// One line of figures: rooms, floors, arrows, circles (and the rooms in them).
    fn figures(&self) -> String {
        let circles = self.circles();
        format!(
            "{} rooms, {} floors, {} arrows, {} circles ({} rooms in circles)",
            self.rooms.len(),
            self.floors().len(),
            self.arrows(),
            circles.len(),
            circles.iter().map(Vec::len).sum::<usize>()
        )
    }
}

/// The floor table of the files under `dir` as `docs/architecture.md` writes it.
fn floor_table(edges: &BTreeMap<(PathBuf, PathBuf), (usize, String)>, dir: &Path) -> String {
    let house = House::of(edges, dir);
    let mut text = String::new();
    for (floor, rooms) in house.floors() {
        let names: Vec<String> = rooms
            .iter()
            .map(|f| format!("`{}`", f.strip_prefix(dir).unwrap_or(f).display()))
            .collect();
        let _ = writeln!(text, "| {floor} | {} |", names.join(", "));
    }
    text
}

fn graph_of(dir: &str) -> Vec<Vec<(PathBuf, usize, String)>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let krate = Crate::load(root);
    if std::env::var_os("LAYERS_EDGES").is_some() {
        for ((from, to), uses) in krate.all_edges() {
            if from.starts_with(root.join(dir)) && to.starts_with(root.join(dir)) {
                let uses: Vec<String> = uses.iter().map(|(l, p)| format!("{l}: {p}")).collect();
                eprintln!(
                    "{} -> {} ({})",
                    from.display(),
                    to.display(),
                    uses.join(", ")
                );
            }
        }
    }
    let edges = krate.edges();
    if std::env::var_os("LAYERS_FLOORS").is_some() {
        eprint!("{}", floor_table(&edges, &root.join(dir)));
    }
    if std::env::var_os("LAYERS_FIGURES").is_some() {
        eprintln!("{dir}: {}", House::of(&edges, &root.join(dir)).figures());
        let folders = folder_edges(&edges, &root.join(dir));
        eprintln!(
            "{dir} by folder: {}",
            House::of(&folders, &root.join(dir)).figures()
        );
    }
    circles(&edges, &root.join(dir))
}

/// The import graph of `edges` among the folders directly under `dir`: each file under `dir`
/// stands for the folder it lies in one level below `dir` (or for itself, a file of `dir`'s own),
/// and an arrow inside one folder is dropped. A name a file takes through a folder's re-export
/// (`crate::core::listing::BuiltinEntry`, defined in `listing/format.rs`) is an arrow to that
/// folder either way, so a circle a re-export hides among the files shows here.
fn folder_edges(
    edges: &BTreeMap<(PathBuf, PathBuf), (usize, String)>,
    dir: &Path,
) -> BTreeMap<(PathBuf, PathBuf), (usize, String)> {
    let room = |f: &Path| -> Option<PathBuf> {
        let first = f.strip_prefix(dir).ok()?.components().next()?;
        Some(dir.join(first))
    };
    let mut out = BTreeMap::new();
    for ((from, to), (line, path)) in edges {
        let (Some(a), Some(b)) = (room(from), room(to)) else {
            continue;
        };
        if a != b {
            out.entry((a, b))
                .or_insert_with(|| (*line, format!("{path} (in {})", from.display())));
        }
    }
    out
}

/// The circles among the folders directly under `dir` (see [`folder_edges`]).
fn folder_circles(dir: &str) -> Vec<Vec<(PathBuf, usize, String)>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let edges = Crate::load(root).edges();
    circles(&folder_edges(&edges, &root.join(dir)), &root.join(dir))
}

#[test]
fn core_files_import_no_circle() {
    let found = graph_of("src/core");
    assert!(
        found.is_empty(),
        "src/core has import circles:\n{}",
        report(&found)
    );
}

#[test]
fn cli_files_import_no_circle() {
    let found = graph_of("src/cli");
    assert!(
        found.is_empty(),
        "src/cli has import circles:\n{}",
        report(&found)
    );
}

#[test]
fn tui_files_import_no_circle() {
    let found = graph_of("src/tui");
    assert!(
        found.is_empty(),
        "src/tui has import circles:\n{}",
        report(&found)
    );
}

#[test]
fn crate_files_import_no_circle() {
    let found = graph_of("src");
    assert!(
        found.is_empty(),
        "src has import circles:\n{}",
        report(&found)
    );
}

#[test]
fn cli_folders_import_no_circle() {
    let found = folder_circles("src/cli");
    assert!(
        found.is_empty(),
        "src/cli's folders import in a circle:\n{}",
        report(&found)
    );
}

#[test]
fn crate_folders_import_no_circle() {
    let found = folder_circles("src");
    assert!(
        found.is_empty(),
        "src's folders import in a circle:\n{}",
        report(&found)
    );
}

#[test]
fn tui_folders_import_no_circle() {
    let found = folder_circles("src/tui");
    assert!(
        found.is_empty(),
        "src/tui's folders import in a circle:\n{}",
        report(&found)
    );
}

#[test]
fn core_folders_import_no_circle() {
    let found = folder_circles("src/core");
    assert!(
        found.is_empty(),
        "src/core's folders import in a circle:\n{}",
        report(&found)
    );
}

/// A circle among folders that no circle among files shows: `a/x.rs` takes `Beta` through
/// `b/mod.rs`'s re-export of `b/y.rs`, and `b/z.rs` takes `a/w.rs`. The file graph is a line; the
/// folder graph must close the circle.
#[test]
fn the_folder_graph_sees_a_planted_folder_circle() {
    let dir = planted(
        "folders",
        &[
            ("src/lib.rs", "pub mod core;\n"),
            ("src/core/mod.rs", "pub mod a;\npub mod b;\n"),
            ("src/core/a/mod.rs", "pub mod w;\npub mod x;\n"),
            ("src/core/a/w.rs", "pub struct Alpha;\n"),
            (
                "src/core/a/x.rs",
                "use crate::core::b::Beta;\npub fn f(_: Beta) {}\n",
            ),
            (
                "src/core/b/mod.rs",
                "mod y;\npub mod z;\npub use y::Beta;\n",
            ),
            ("src/core/b/y.rs", "pub struct Beta;\n"),
            (
                "src/core/b/z.rs",
                "pub fn g() -> crate::core::a::w::Alpha { crate::core::a::w::Alpha }\n",
            ),
        ],
    );
    let edges = Crate::load(&dir).edges();
    let core = dir.join("src/core");
    let by_file = circles(&edges, &core);
    let folders = folder_edges(&edges, &core);
    let by_folder = circles(&folders, &core);
    let house = House::of(&folders, &core);
    let _ = fs::remove_dir_all(&dir);
    assert!(by_file.is_empty(), "{}", report(&by_file));
    assert_eq!(by_folder.len(), 1, "{}", report(&by_folder));
    let text = report(&by_folder);
    assert!(text.contains("crate::core::b::Beta"), "{text}");
    assert!(text.contains("crate::core::a::w::Alpha"), "{text}");
    assert_eq!(
        house.figures(),
        "2 rooms, 1 floors, 2 arrows, 1 circles (2 rooms in circles)"
    );
}

/// Each agent (its `Agent` variant) and its home: the files and folders under `src/` that hold
/// what the agent is. An agent with no home yet has an empty list.
const AGENT_HOMES: &[(&str, &[&str])] = &[
    ("ClaudeCode", &["src/core/agents/claude/"]),
    ("Codex", &["src/core/agents/codex/"]),
    ("Opencode", &["src/core/agents/opencode/"]),
    ("Gemini", &["src/core/agents/gemini/"]),
    ("Goose", &["src/core/agents/goose/"]),
    ("Openclaw", &["src/core/agents/openclaw/"]),
    ("Copilot", &["src/core/agents/copilot/"]),
    ("Cline", &["src/core/agents/cline/"]),
    ("QwenCode", &["src/core/agents/qwen/"]),
    ("LazySkills", &["src/core/agents/lazy.rs"]),
];

/// The agents' registry, which names every agent: the enum and its folder tables, and the one
/// match from an agent to its home's record (`Agent::home`).
const AGENT_REGISTRY: &[&str] = &["src/core/source.rs", "src/core/agents/registry.rs"];

/// `src` up to its first `#[cfg(test)]` or `#[cfg(all(test, …))]` line: the program's code.
fn program_code(src: &str) -> String {
    src.split_inclusive('\n')
        .take_while(|l| {
            let l = l.trim();
            l != "#[cfg(test)]" && !l.starts_with("#[cfg(all(test,")
        })
        .collect()
}

/// The `Agent::VARIANT` paths in `src`'s code (comments, strings and whatever follows the first
/// `#[cfg(test)]` or `#[cfg(all(test, …))]` line left out), each variant once.
fn agents_named(src: &str) -> BTreeSet<String> {
    let toks = tokenize(&program_code(src));
    let mut out = BTreeSet::new();
    for w in toks.windows(3) {
        if w[0].tok == Tok::Ident("Agent".into())
            && w[1].tok == Tok::PathSep
            && let Tok::Ident(v) = &w[2].tok
        {
            out.insert(v.clone());
        }
    }
    out
}

/// For each agent, the files under `root`'s `src/` (the program's: test-only files left out)
/// that name it outside its home and the registry.
fn named_outside(root: &Path) -> BTreeMap<&'static str, Vec<String>> {
    named_outside_of(root, AGENT_HOMES)
}

/// [`named_outside`] for the agents and homes of `homes`.
fn named_outside_of<'h>(
    root: &Path,
    homes: &[(&'h str, &[&str])],
) -> BTreeMap<&'h str, Vec<String>> {
    let krate = Crate::load(root);
    let files: BTreeSet<&PathBuf> = krate.modules.values().map(|m| &m.file).collect();
    let mut out: BTreeMap<&str, Vec<String>> =
        homes.iter().map(|(a, _)| (*a, Vec::new())).collect();
    for file in files {
        let rel = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string()
            .replace('\\', "/");
        if AGENT_REGISTRY.contains(&rel.as_str()) {
            continue;
        }
        let named = agents_named(&fs::read_to_string(file).unwrap_or_default());
        for (agent, places) in homes {
            let home = places
                .iter()
                .any(|h| rel == *h || (h.ends_with('/') && rel.starts_with(h)));
            if named.contains(*agent) && !home {
                out.entry(agent).or_default().push(rel.clone());
            }
        }
    }
    out
}

/// No agent is named in any file outside its home and the registry: what an agent is lives on
/// its record (every `match` on the agent is the registry's or inside a home); every variant of
/// `Agent` with a view is in [`AGENT_HOMES`]. `LAYERS_FIGURES=1` prints the count per agent and
/// the files.
#[test]
fn agents_are_named_only_in_their_homes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let outside = named_outside(root);
    let figures = std::env::var_os("LAYERS_FIGURES").is_some();
    for (agent, files) in &outside {
        if figures {
            eprintln!("{agent}: named in {} files outside its home", files.len());
            for file in files {
                eprintln!("    {file}");
            }
        }
    }
    let named: Vec<_> = outside.iter().filter(|(_, f)| !f.is_empty()).collect();
    assert!(
        named.is_empty(),
        "agents named outside their homes and the registry: {named:#?}"
    );
    let source = fs::read_to_string(root.join("src/core/source.rs")).unwrap();
    let enum_body = source
        .split("pub enum Agent {")
        .nth(1)
        .and_then(|b| b.split("\n}").next())
        .unwrap_or_default();
    for (agent, _) in AGENT_HOMES {
        assert!(
            enum_body.contains(&format!("    {agent},")),
            "{agent} is no variant of Agent"
        );
    }
}

/// The count sees a variant named in code, and neither one in a comment or string nor one in a
/// test module.
#[test]
fn the_agent_count_sees_code_only() {
    let src = "// Agent::Cline\nfn f() -> Agent { let _ = \"Agent::Goose\"; Agent::QwenCode }\n\
               fn g() { crate::core::source::Agent::Codex; }\n#[cfg(test)]\nmod tests { Agent::Gemini; }\n";
    let named: Vec<String> = agents_named(src).into_iter().collect();
    assert_eq!(named, ["Codex", "QwenCode"]);
    // A test module for one platform is a test module too.
    let src = "fn f() { Agent::Codex; }\n#[cfg(all(test, unix))]\nmod tests { Agent::Gemini; }\n";
    let named: Vec<String> = agents_named(src).into_iter().collect();
    assert_eq!(named, ["Codex"]);
}

/// The lines of `src`'s code (comments, strings and tests left out, as in [`agents_named`]) where
/// an error is only a string: a `Result<…, String>` (two type arguments, the last `String`) or
/// an `Err(format!(…))`.
fn string_errors(src: &str) -> Vec<usize> {
    let toks = tokenize(&program_code(src));
    let is = |i: usize, w: &str| ident(toks.get(i)) == Some(w);
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if is(i, "Err") && punct(toks.get(i + 1), '(') && is(i + 2, "format") {
            out.push(toks[i].line);
            continue;
        }
        if !is(i, "Result") || !punct(toks.get(i + 1), '<') {
            continue;
        }
        // The last type argument at the top level of `Result<…>`.
        let (mut depth, mut commas, mut last, mut j) = (0usize, 0, i + 2, i + 1);
        while j < toks.len() {
            match toks[j].tok {
                // The `>` of `->` closes nothing.
                Tok::Punct('>') if punct(toks.get(j - 1), '-') => {}
                Tok::Punct('<' | '(' | '[') => depth += 1,
                Tok::Punct('>' | ')' | ']') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Punct(',') if depth == 1 => {
                    commas += 1;
                    last = j + 1;
                }
                _ => {}
            }
            j += 1;
        }
        let words: Vec<Option<&str>> = toks[last..j.min(toks.len())]
            .iter()
            .map(|t| match &t.tok {
                Tok::Ident(w) => Some(w.as_str()),
                Tok::PathSep => Some("::"),
                Tok::Punct(_) => None,
            })
            .collect();
        let string = [
            &[Some("String")][..],
            &[
                Some("std"),
                Some("::"),
                Some("string"),
                Some("::"),
                Some("String"),
            ],
            &[
                Some("alloc"),
                Some("::"),
                Some("string"),
                Some("::"),
                Some("String"),
            ],
        ];
        if commas > 0 && string.contains(&words.as_slice()) {
            out.push(toks[i].line);
        }
    }
    out
}

/// No error in the core is only a string: each is a `thiserror` type saying what went wrong,
/// with its data (`Result<…, String>` and `Err(format!(…))` are refused in the program's code).
#[test]
fn core_errors_are_typed_not_strings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let krate = Crate::load(root);
    let files: BTreeSet<&PathBuf> = krate.modules.values().map(|m| &m.file).collect();
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(root).unwrap_or(file);
        if !rel.starts_with("src/core") {
            continue;
        }
        for line in string_errors(&fs::read_to_string(file).unwrap_or_default()) {
            found.push(format!("{}:{line}", rel.display()));
        }
    }
    if std::env::var_os("LAYERS_FIGURES").is_some() {
        eprintln!("core: {} string errors", found.len());
    }
    assert!(
        found.is_empty(),
        "errors that are only a string in src/core (make each a thiserror type): {found:#?}"
    );
}

/// The check sees a string error in code, in a signature, an alias or a closure's type, and
/// neither one in a comment, a string or a test module, nor a `Result` whose error is typed.
#[test]
fn the_string_error_check_sees_a_string_error() {
    let src = "fn a() -> Result<(), String> {}\n\
               type Raw = Result<Vec<(u8, String)>, std::string::String>;\n\
               fn b(f: impl FnOnce() -> Result<Vec<u8>, String>) {}\n\
               fn c() { return Err(format!(\"no {x}\")); }\n\
               fn d() -> io::Result<String> {}\n\
               fn e() -> Result<String, Error> {}\n\
               fn f(g: impl Fn(u8) -> String) -> Result<Box<dyn Fn() -> String>, E> {}\n\
               // fn g() -> Result<(), String>\n\
               const H: &str = \"Result<(), String>\";\n\
               #[cfg(test)]\nmod tests { fn t() -> Result<(), String> {} }\n";
    assert_eq!(string_errors(src), [1, 2, 3, 4]);
}

/// Copies the files of `from` into `to`, folders and all.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// `text` with `add` written before the first line that is `line` once trimmed.
fn before_line(text: &str, line: &str, add: &str) -> String {
    let at = text
        .split_inclusive('\n')
        .scan(0, |end, l| {
            let start = *end;
            *end += l.len();
            Some((start, l))
        })
        .find(|(_, l)| l.trim() == line)
        .map_or_else(|| panic!("no line `{line}`"), |(start, _)| start);
    format!("{}{add}{}", &text[..at], &text[at..])
}

/// A throwaway agent added to a copy of the program the way docs/architecture.md's recipe adds
/// one: its home folder with its `HOME`, its variant, folders and badge in the registry's
/// `source.rs`, its line in `Agent::home` (`registry.rs`) and its `mod` in `agents/mod.rs`.
/// Nothing else names it: the count finds it in no file outside its home and the registry, and
/// the core's files and folders still import in no circle.
#[test]
fn a_throwaway_agent_is_its_home_and_the_registry_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("layers-throwaway-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    copy_tree(&root.join("src"), &dir.join("src"));
    let edit = |rel: &str, f: &dyn Fn(&str) -> String| {
        let path = dir.join(rel);
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, f(&text)).unwrap();
    };
    let home = "src/core/agents/throwaway/mod.rs";
    fs::create_dir_all(dir.join("src/core/agents/throwaway")).unwrap();
    fs::write(
        dir.join(home),
        "//! Throwaway: an agent with a home and nothing else.\n\n\
         use crate::core::agents::home::Home;\n\
         use crate::core::agents::model::{AgentModel, Injection};\n\
         use crate::core::source::Agent;\n\n\
         pub static HOME: Home = Home {\n    model: AgentModel {\n        \
         agent: Agent::Throwaway,\n        name: \"Throwaway\",\n        \
         folders: Agent::Throwaway.skill_folders(),\n        \
         injection: Injection::SkillTool,\n        source: \"a test\",\n        \
         ..crate::core::agents::model::AS_GIVEN\n    },\n    ..Home::AS_GIVEN\n};\n",
    )
    .unwrap();
    edit("src/core/source.rs", &|t| {
        let t = before_line(t, "Generic,", "    Throwaway,\n");
        let t = before_line(
            &t,
            "Agent::Path | Agent::Demo => &[],",
            "            Agent::Throwaway => &[&[\".throwaway\", \"skills\"]],\n",
        );
        before_line(
            &t,
            "Agent::Path => \"path\",",
            "            Agent::Throwaway => \"throwaway\",\n",
        )
    });
    edit("src/core/agents/registry.rs", &|t| {
        let t = before_line(
            t,
            "use crate::core::source::Agent;",
            "use super::throwaway;\n",
        );
        before_line(
            &t,
            "Agent::Generic => &generic::HOME,",
            "            Agent::Throwaway => &throwaway::HOME,\n",
        )
    });
    edit("src/core/agents/mod.rs", &|t| {
        before_line(t, "mod goose;", "mod throwaway;\n")
    });
    let named = named_outside_of(&dir, &[("Throwaway", &["src/core/agents/throwaway/"])]);
    // With no home, the count sees the agent in its home: it would see it anywhere else.
    let homeless = named_outside_of(&dir, &[("Throwaway", &[])]);
    let edges = Crate::load(&dir).edges();
    let core = dir.join("src/core");
    let by_file = circles(&edges, &core);
    let by_folder = circles(&folder_edges(&edges, &core), &core);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(named["Throwaway"], Vec::<String>::new());
    assert_eq!(homeless["Throwaway"], [home]);
    assert!(by_file.is_empty(), "{}", report(&by_file));
    assert!(by_folder.is_empty(), "{}", report(&by_folder));
}

/// Writes a small crate under a temporary folder: `files` as (path, text).
fn planted(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("layers-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn the_graph_sees_a_planted_circle() {
    // The reader must see an edge through a re-export, a child path and `super`, or an empty
    // result above would prove nothing.
    let dir = planted(
        "core",
        &[
            ("src/lib.rs", "pub mod core;\n"),
            (
                "src/core/mod.rs",
                "pub mod a;\npub mod b;\npub use a::Alpha;\n",
            ),
            (
                "src/core/a.rs",
                "use crate::core::b::Beta; // comment crate::core::b::Nothing\npub struct Alpha;\n\
                 #[cfg(test)]\nmod tests { use crate::core::b::tested; }\n",
            ),
            (
                "src/core/b/mod.rs",
                "mod inner;\npub struct Beta;\npub fn tested() {}\npub fn g() { inner::h(); }\n",
            ),
            (
                "src/core/b/inner.rs",
                "pub fn h() -> super::super::Alpha { let s = \"crate::core::b::Beta\"; todo!() }\n",
            ),
        ],
    );
    let krate = Crate::load(&dir);
    let edges = krate.edges();
    let names: BTreeSet<(String, String)> = edges
        .keys()
        .map(|(f, t)| {
            let rel = |p: &PathBuf| p.strip_prefix(&dir).unwrap().display().to_string();
            (rel(f), rel(t))
        })
        .collect();
    let _ = fs::remove_dir_all(&dir);
    let expected: BTreeSet<(String, String)> = [
        ("src/core/a.rs", "src/core/b/mod.rs"),
        ("src/core/b/inner.rs", "src/core/a.rs"),
        ("src/core/b/mod.rs", "src/core/b/inner.rs"),
        ("src/core/mod.rs", "src/core/a.rs"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(names, expected);
    let found = circles(&edges, &dir.join("src/core"));
    assert_eq!(found.len(), 1, "{}", report(&found));
    assert_eq!(
        found[0].len(),
        4,
        "three steps and the member list: {}",
        report(&found)
    );
    let house = House::of(&edges, &dir.join("src/core"));
    assert_eq!(house.circles().len(), 1);
    assert_eq!(house.circles()[0].len(), 3);
    // mod.rs sits one floor above the circle, which is one room on floor 0.
    assert_eq!(house.floors().len(), 2);
}

#[test]
fn the_graph_sees_a_planted_app_circle() {
    // The app's old shape: a screen draws from `&App`, the app holds the screens' state. The
    // test for `src/tui` must fail on it, and a screen drawing from a view of its own must not.
    let app_circle = [
        ("src/lib.rs", "pub mod tui;\n"),
        ("src/tui/mod.rs", "pub mod app;\npub mod screens;\n"),
        (
            "src/tui/app/mod.rs",
            "mod routing;\nuse crate::tui::screens::Screens;\npub struct App { pub screens: Screens }\n",
        ),
        (
            "src/tui/app/routing.rs",
            "impl super::App { fn go(&mut self) { self.screens.skills.row = 1; } }\n",
        ),
        (
            "src/tui/screens/mod.rs",
            "pub mod skills;\npub use skills::Skills;\npub struct Screens { pub skills: Skills }\n",
        ),
        (
            "src/tui/screens/skills.rs",
            "pub struct Skills { pub row: usize }\npub fn draw(app: &crate::tui::app::App) {}\n",
        ),
    ];
    let dir = planted("app", &app_circle);
    let edges = Crate::load(&dir).edges();
    let found = circles(&edges, &dir.join("src/tui"));
    let text = report(&found);
    let house = House::of(&edges, &dir.join("src/tui"));
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(found.len(), 1, "{text}");
    assert!(text.contains("screens/skills.rs"), "{text}");
    assert_eq!(house.circles()[0].len(), 3, "{}", house.figures());
    // Drawing from a view instead breaks it.
    let mut layered = app_circle;
    layered[5].1 = "pub struct Skills { pub row: usize }\npub struct View { pub row: usize }\n\
                    pub fn draw(view: &View) {}\n";
    let dir = planted("app-layered", &layered);
    let edges = Crate::load(&dir).edges();
    let found = circles(&edges, &dir.join("src/tui"));
    let house = House::of(&edges, &dir.join("src/tui"));
    let _ = fs::remove_dir_all(&dir);
    assert!(found.is_empty(), "{}", report(&found));
    assert_eq!(
        house.figures(),
        "4 rooms, 4 floors, 3 arrows, 0 circles (0 rooms in circles)"
    );
}

/// Replaces, in `doc`, the rows of the table headed `| floor | files (under `DIR/`) |` with
/// `rows`; `None` when the doc has no such table.
fn with_floor_table(doc: &str, dir: &str, rows: &str) -> Option<String> {
    let header = format!("| floor | files (under `{dir}/`) |\n|---|---|\n");
    let start = doc.find(&header)? + header.len();
    let len: usize = doc[start..]
        .split_inclusive('\n')
        .take_while(|l| l.starts_with('|'))
        .map(str::len)
        .sum();
    Some(format!("{}{rows}{}", &doc[..start], &doc[start + len..]))
}

/// docs/architecture.md's floor tables of the core, the CLI and the app are the ones the code
/// makes; `SKILLSCOPE_WRITE_DOCS=1 cargo test --test layers floor_tables` writes them.
#[test]
fn the_floor_tables_in_the_docs_are_the_codes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("docs/architecture.md");
    let doc = fs::read_to_string(&path).unwrap();
    let edges = Crate::load(root).edges();
    let mut new = doc.clone();
    for dir in ["src/core", "src/cli", "src/tui"] {
        let rows = floor_table(&edges, &root.join(dir));
        new = with_floor_table(&new, dir, &rows)
            .unwrap_or_else(|| panic!("docs/architecture.md has no floor table for {dir}"));
    }
    if std::env::var_os("SKILLSCOPE_WRITE_DOCS").is_some() {
        fs::write(&path, &new).unwrap();
    } else {
        assert!(
            new == doc,
            "docs/architecture.md's floor tables differ from the code: \
             SKILLSCOPE_WRITE_DOCS=1 cargo test --test layers floor_tables"
        );
    }
}

#[test]
fn a_floor_table_is_replaced_whole_and_alone() {
    let doc = "intro\n| floor | files (under `src/x/`) |\n|---|---|\n| 0 | `a.rs` |\n| 1 | `b.rs` |\n\nafter\n";
    let new = with_floor_table(doc, "src/x", "| 0 | `c.rs` |\n").unwrap();
    assert_eq!(
        new,
        "intro\n| floor | files (under `src/x/`) |\n|---|---|\n| 0 | `c.rs` |\n\nafter\n"
    );
    assert!(with_floor_table(doc, "src/y", "").is_none());
}
