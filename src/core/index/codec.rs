//! One skill's record on the shared codec, with the findings, frontmatters and YAML values it
//! carries.

use super::records::{ResourceRecord, SkillRecord};
use crate::core::files::codec::{Reader as R, Writer as W};
use crate::core::findings::diagnostic::{Diagnostic, RuleId, Severity};
use crate::core::frontmatter::{self, Field, Frontmatter};
use crate::core::skill::{BodyFacts, Link, Skill};
use serde_json::Value;

/// Deepest frontmatter value nesting read back (the YAML parser stops far earlier).
const MAX_VALUE_DEPTH: usize = 256;

/// One skill's record in the index file.
pub(super) fn skill_record(w: &mut W, s: &Skill, taken_ns: u128) {
    w.path(&s.dir);
    w.path(&s.skill_md);
    w.stamp(&s.stamp.settled(taken_ns));
    w.frontmatter(&s.frontmatter);
    w.diags(&s.parse_diagnostics);
    w.u32(s.body_line);
    w.u64(s.body_offset);
    w.len(s.resources.len());
    for r in &s.resources {
        w.str(&r.rel);
        w.stamp(&r.stamp().settled(taken_ns));
        w.u8(u8::from(r.text));
        match r.links.get() {
            Some(links) => {
                w.u8(1);
                w.strs(links);
            }
            None => w.u8(0),
        }
        for slot in &r.tokens {
            w.opt_u32(slot.get().copied());
        }
    }
    match s.facts.body.get() {
        Some(b) => {
            w.u8(1);
            w.u32(b.lines);
            w.u64(b.bytes);
            w.len(b.links.len());
            for l in &b.links {
                w.str(&l.target);
                w.u32(l.line);
                w.u32(l.column);
            }
        }
        None => w.u8(0),
    }
    for slot in &s.facts.body_tokens {
        w.opt_u32(slot.get().copied());
    }
    for slot in &s.facts.l2_tokens {
        w.opt_u32(slot.get().copied());
    }
    let l1 = s
        .facts
        .l1_tokens
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    w.len(l1.len());
    for (hash, enc, n) in l1.iter() {
        w.0.extend_from_slice(hash);
        w.u8(*enc);
        w.u32(*n);
    }
    drop(l1);
    readings(w, &s.facts.readings);
    let rules = s
        .facts
        .rules
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let unread = s
        .facts
        .rules_unread
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match unread.as_deref() {
        // Never decoded: written back as read.
        Some(bytes) => w.0.extend_from_slice(bytes),
        None => rule_findings(w, &rules),
    }
}

/// A skill's kept readings (`Facts::readings`): per slot 0 when unset, 1 when read and empty, 2
/// and what it holds when read and found.
fn readings(w: &mut W, r: &crate::core::skill::Readings) {
    fn slot<T>(w: &mut W, slot: &std::sync::OnceLock<Option<T>>, put: impl FnOnce(&mut W, &T)) {
        match slot.get() {
            None => w.u8(0),
            Some(None) => w.u8(1),
            Some(Some(v)) => {
                w.u8(2);
                put(w, v);
            }
        }
    }
    slot(w, &r.gemini_lines, |w, (name, description)| {
        w.str(name);
        w.str(description);
    });
    slot(w, &r.opencode_again, |w, (name, description)| {
        w.str(name);
        match description {
            Some(d) => {
                w.u8(1);
                w.str(d);
            }
            None => w.u8(0),
        }
    });
    slot(w, &r.claude_fallback, |w, text| w.str(text));
    slot(w, &r.first_paragraphs, |w, text| w.str(text));
}

/// Reads back what [`readings`] writes; `None` on anything malformed.
fn readings_from(r: &mut R) -> Option<crate::core::skill::Readings> {
    fn slot<'a, T>(
        r: &mut R<'a>,
        slot: &std::sync::OnceLock<Option<T>>,
        get: impl FnOnce(&mut R<'a>) -> Option<T>,
    ) -> Option<()> {
        match r.u8()? {
            0 => {}
            1 => {
                let _ = slot.set(None);
            }
            2 => {
                let v = get(r)?;
                let _ = slot.set(Some(v));
            }
            _ => return None,
        }
        Some(())
    }
    let out = crate::core::skill::Readings::default();
    slot(r, &out.gemini_lines, |r| Some((r.string()?, r.string()?)))?;
    slot(r, &out.opencode_again, |r| {
        let name = r.string()?;
        let description = match r.u8()? {
            0 => None,
            1 => Some(r.string()?),
            _ => return None,
        };
        Some((name, description))
    })?;
    slot(r, &out.claude_fallback, R::string)?;
    slot(r, &out.first_paragraphs, R::string)?;
    Some(out)
}

/// A skill's per-skill rules' findings (the last part of its record).
pub(super) fn rule_findings(w: &mut W, rules: &[crate::core::skill::RuleFindings]) {
    w.len(rules.len());
    for (key, found) in rules {
        w.0.extend_from_slice(key);
        w.diags(found);
    }
}

/// Reads back what [`rule_findings`] writes; `None` on anything malformed or left over (a rule
/// the catalogue does not list comes from another build).
pub(super) fn rule_findings_from(bytes: &[u8]) -> Option<Vec<crate::core::skill::RuleFindings>> {
    let mut r = R(bytes);
    let nr = r.len(36)?;
    let mut rules = Vec::with_capacity(nr);
    for _ in 0..nr {
        let key: [u8; 32] = r.take(32)?.try_into().ok()?;
        rules.push((key, r.diags()?));
    }
    r.0.is_empty().then_some(rules)
}

/// The findings [`rule_findings_from`] holds for `key` (the first judgement of that key), read
/// straight out of `bytes`: the other judgements are only checked as it checks them, not
/// decoded. `None` where [`rule_findings_from`] is `None` or holds no judgement of `key`.
pub(super) fn rule_findings_for(bytes: &[u8], key: &[u8; 32]) -> Option<Vec<Diagnostic>> {
    let mut r = R(bytes);
    let nr = r.len(36)?;
    let mut found = None;
    for _ in 0..nr {
        let k = r.take(32)?;
        if found.is_none() && k == key {
            found = Some(r.diags()?);
        } else {
            skip_diags(&mut r)?;
        }
    }
    if r.0.is_empty() { found } else { None }
}

/// Reads past what [`WriteRecords::diags`] writes, failing where [`ReadRecords::diags`] fails,
/// without making the findings.
fn skip_diags(r: &mut R) -> Option<()> {
    let n = r.len(16)?;
    for _ in 0..n {
        rule_id(std::str::from_utf8(r.bytes()?).ok()?)?;
        if r.u8()? > 2 {
            return None;
        }
        std::str::from_utf8(r.bytes()?).ok()?;
        if r.u8()? != 0 {
            r.bytes()?;
        }
        r.opt_u32()?;
        r.opt_u32()?;
    }
    Some(())
}

/// One skill's record read back; `None` when it is not whole or holds more.
pub(super) fn skill_record_from(r: &mut R) -> Option<(Vec<u8>, Box<SkillRecord>)> {
    let dir = r.bytes()?.to_vec();
    let file = r.path()?;
    let stamp = r.stamp()?;
    let frontmatter = r.frontmatter()?;
    let parse_diagnostics = r.diags()?;
    let body_line = r.u32()?;
    let body_offset = r.u64()?;
    let nr = r.len(30)?;
    let mut resources = Vec::with_capacity(nr);
    for _ in 0..nr {
        let rel = r.string()?;
        let stamp = r.stamp()?;
        let text = r.u8()? != 0;
        let links = match r.u8()? {
            0 => None,
            _ => Some(r.strs()?),
        };
        let tokens = [r.opt_u32()?, r.opt_u32()?];
        resources.push(ResourceRecord {
            rel,
            stamp,
            text,
            links,
            tokens,
        });
    }
    let body = if r.u8()? == 0 {
        None
    } else {
        let lines = r.u32()?;
        let bytes = r.u64()?;
        let nl = r.len(12)?;
        let mut links = Vec::with_capacity(nl);
        for _ in 0..nl {
            links.push(Link {
                target: r.string()?,
                line: r.u32()?,
                column: r.u32()?,
            });
        }
        Some(BodyFacts {
            lines,
            bytes,
            links,
        })
    };
    let body_tokens = [r.opt_u32()?, r.opt_u32()?];
    let l2_tokens = [r.opt_u32()?, r.opt_u32()?];
    let n1 = r.len(37)?;
    let mut l1_tokens = Vec::with_capacity(n1);
    for _ in 0..n1 {
        let hash: [u8; 32] = r.take(32)?.try_into().ok()?;
        l1_tokens.push((hash, r.u8()?, r.u32()?));
    }
    let readings = readings_from(r)?;
    // The rules' findings end the record: kept as bytes, checked only for their count here,
    // decoded when a rule asks.
    let rules: Box<[u8]> = r.0.into();
    let mut count = R(r.0);
    count.len(36)?;
    r.0 = &[];
    let record = (
        dir,
        Box::new(SkillRecord {
            file,
            stamp,
            frontmatter,
            parse_diagnostics,
            body_line,
            body_offset,
            resources,
            body,
            body_tokens,
            l2_tokens,
            l1_tokens,
            rules,
            readings,
        }),
    );
    r.0.is_empty().then_some(record)
}

/// The index's own records on the shared codec: findings, frontmatters and YAML values.
pub(super) trait WriteRecords {
    fn diags(&mut self, ds: &[Diagnostic]);
    fn frontmatter(&mut self, fm: &Frontmatter);
    fn value(&mut self, v: &Value);
}

impl WriteRecords for W {
    fn diags(&mut self, ds: &[Diagnostic]) {
        self.len(ds.len());
        for d in ds {
            self.str(d.rule.as_str());
            self.u8(match d.severity {
                Severity::Info => 0,
                Severity::Warning => 1,
                Severity::Error => 2,
            });
            self.str(&d.message);
            match &d.path {
                Some(p) => {
                    self.u8(1);
                    self.path(p);
                }
                None => self.u8(0),
            }
            self.opt_u32(d.line);
            self.opt_u32(d.column);
        }
    }
    fn frontmatter(&mut self, fm: &Frontmatter) {
        self.u8(u8::from(fm.parsed));
        self.len(fm.fields.len());
        for f in &fm.fields {
            self.str(&f.key);
            self.value(&f.value);
            self.u32(f.line);
        }
        self.len(fm.flow_style_lines.len());
        for l in &fm.flow_style_lines {
            self.u32(*l);
        }
        self.u8(fm.description_style.code());
        self.len(fm.opt_outs.len());
        for o in &fm.opt_outs {
            self.u32(o.at);
            self.opt_u32(o.line);
            self.len(o.rules.len());
            for r in &o.rules {
                self.str(r);
            }
        }
    }
    fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.u8(0),
            Value::Bool(false) => self.u8(1),
            Value::Bool(true) => self.u8(2),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    self.u8(3);
                    self.i64(i);
                } else if let Some(u) = n.as_u64() {
                    self.u8(4);
                    self.u64(u);
                } else {
                    self.u8(5);
                    self.u64(n.as_f64().unwrap_or(0.0).to_bits());
                }
            }
            Value::String(s) => {
                self.u8(6);
                self.str(s);
            }
            Value::Array(a) => {
                self.u8(7);
                self.len(a.len());
                for x in a {
                    self.value(x);
                }
            }
            Value::Object(m) => {
                self.u8(8);
                self.len(m.len());
                for (k, x) in m {
                    self.str(k);
                    self.value(x);
                }
            }
        }
    }
}

/// Reads back what [`WriteRecords`] writes; `None` on anything malformed.
pub(super) trait ReadRecords {
    fn diags(&mut self) -> Option<Vec<Diagnostic>>;
    fn frontmatter(&mut self) -> Option<Frontmatter>;
    fn value(&mut self, depth: usize) -> Option<Value>;
}

impl ReadRecords for R<'_> {
    fn diags(&mut self) -> Option<Vec<Diagnostic>> {
        let n = self.len(16)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let rule = rule_id(std::str::from_utf8(self.bytes()?).ok()?)?;
            let severity = match self.u8()? {
                0 => Severity::Info,
                1 => Severity::Warning,
                2 => Severity::Error,
                _ => return None,
            };
            let message = self.string()?;
            let path = match self.u8()? {
                0 => None,
                _ => Some(self.path()?),
            };
            let line = self.opt_u32()?;
            let column = self.opt_u32()?;
            out.push(Diagnostic {
                rule,
                severity,
                message,
                path,
                line,
                column,
            });
        }
        Some(out)
    }
    fn frontmatter(&mut self) -> Option<Frontmatter> {
        let parsed = self.u8()? != 0;
        let n = self.len(10)?;
        let mut fields = Vec::with_capacity(n);
        for _ in 0..n {
            fields.push(Field {
                key: self.string()?,
                value: self.value(0)?,
                line: self.u32()?,
            });
        }
        let n = self.len(4)?;
        let flow_style_lines = (0..n).map(|_| self.u32()).collect::<Option<Vec<_>>>()?;
        let style = frontmatter::ScalarStyle::from_code(self.u8()?)?;
        let mut fm = frontmatter::from_fields(parsed, fields, flow_style_lines, style);
        let n = self.len(9)?;
        for _ in 0..n {
            let at = self.u32()?;
            let line = self.opt_u32()?;
            let k = self.len(4)?;
            let rules = (0..k).map(|_| self.string()).collect::<Option<Vec<_>>>()?;
            fm.opt_outs.push(frontmatter::OptOut { at, line, rules });
        }
        Some(fm)
    }
    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_VALUE_DEPTH {
            return None;
        }
        Some(match self.u8()? {
            0 => Value::Null,
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => Value::from(self.i64()?),
            4 => Value::from(self.u64()?),
            5 => serde_json::Number::from_f64(f64::from_bits(self.u64()?))
                .map_or(Value::Null, Value::Number),
            6 => Value::String(self.string()?),
            7 => {
                let n = self.len(1)?;
                let mut a = Vec::with_capacity(n);
                for _ in 0..n {
                    a.push(self.value(depth + 1)?);
                }
                Value::Array(a)
            }
            8 => {
                let n = self.len(5)?;
                let mut m = serde_json::Map::with_capacity(n);
                for _ in 0..n {
                    let k = self.string()?;
                    let v = self.value(depth + 1)?;
                    m.insert(k, v);
                }
                Value::Object(m)
            }
            _ => return None,
        })
    }
}

/// The rule id for a name read back: one the catalogue does not list comes from another build,
/// and the whole index is then discarded.
fn rule_id(name: &str) -> Option<RuleId> {
    name.parse().ok()
}
