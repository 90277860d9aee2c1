//! A finding about a skill: which rule, how bad, what to do, and where.

pub use crate::core::catalogue::{RuleId, Severity};
use serde::Serialize;

/// One diagnostic. `line` and `column` are 1-based positions in `path` (the SKILL.md unless the
/// finding is about another file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub rule: RuleId,
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<std::path::PathBuf>,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

impl Diagnostic {
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

    pub fn at(mut self, line: u32, column: u32) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    pub fn at_line(mut self, line: Option<u32>) -> Self {
        if let Some(l) = line {
            self.line = Some(l);
            self.column = Some(1);
        }
        self
    }

    pub fn in_file(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }
}

/// Error and warning counts of a set of diagnostics.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
}

impl Counts {
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
