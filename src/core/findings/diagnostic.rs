//! A finding about a skill: which rule, how bad, what to do, and where.

pub use crate::core::findings::catalogue::{RuleId, Severity};
use serde::Serialize;

/// One diagnostic. `line` and `column` are 1-based positions in `path` (the SKILL.md unless the
/// finding is about another file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Which rule found it.
    pub rule: RuleId,
    /// How much it matters under the profile it was judged by.
    pub severity: Severity,
    /// What is wrong, for people.
    pub message: String,
    /// The file it is about, when it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<std::path::PathBuf>,
    /// 1-based line in that file, when known.
    pub line: Option<u32>,
    /// 1-based column, when known.
    pub column: Option<u32>,
}

impl Diagnostic {
    /// A finding with no place yet.
    pub fn new(rule: RuleId, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity,
            message: message.into(),
            path: None,
            line: None,
            column: None,
        }
    }

    /// The finding at `line` and `column`.
    pub fn at(mut self, line: u32, column: u32) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// The finding at `line`, when there is one.
    pub fn at_line(mut self, line: Option<u32>) -> Self {
        if let Some(l) = line {
            self.line = Some(l);
            self.column = Some(1);
        }
        self
    }

    /// The finding about the file `path`.
    pub fn in_file(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }
}

/// Error and warning counts of a set of diagnostics.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Findings at error level.
    pub errors: usize,
    /// Findings at warning level.
    pub warnings: usize,
}

impl Counts {
    /// The counts of `diags`.
    pub fn of<'a>(diags: impl IntoIterator<Item = &'a Diagnostic>) -> Self {
        let mut c = Counts::default();
        for d in diags {
            match d.severity {
                Severity::Error => c.errors += 1,
                Severity::Warning => c.warnings += 1,
                Severity::Info => {}
            }
        }
        c
    }
}
