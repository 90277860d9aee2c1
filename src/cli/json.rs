//! The JSON writer of every report: serde_json's pretty layout (two spaces a level), written
//! straight into one growing buffer, with the characters a terminal acts on escaped inside
//! strings (see [`crate::cli::output::write_json`]).
//!
//! It is a serde serialiser of its own rather than serde_json's with a custom formatter: that
//! one looks at every byte of a string twice (once for JSON's own escapes, once more for the
//! terminal's hazards) and makes a write call per punctuation mark. Here a string is scanned
//! once, sixteen bytes at a time, and copied in runs; numbers are still written by serde_json,
//! so every figure is spelt as before.

use serde::ser::{self, Serialize};
use std::fmt::Write as _;

type Result<T> = serde_json::Result<T>;

/// A line break and `depth` levels of indentation (two spaces each).
#[inline]
pub(crate) fn newline(out: &mut Vec<u8>, depth: usize) {
    const LINE: &[u8; 65] = b"\n                                                                ";
    if let Some(line) = LINE.get(..1 + 2 * depth) {
        out.extend_from_slice(line);
    } else {
        out.push(b'\n');
        out.resize(out.len() + 2 * depth, b' ');
    }
}

/// A JSON writer into `out`, the next value `depth` levels deep.
pub(crate) struct Writer<'o> {
    pub(crate) out: &'o mut Vec<u8>,
    pub(crate) depth: usize,
}

impl<'o> Writer<'o> {
    /// A line break and the indentation of the current depth.
    fn newline(&mut self) {
        newline(self.out, self.depth);
    }

    /// A number (or any value with no string in it) as serde_json spells it.
    fn plain<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        serde_json::to_writer(&mut *self.out, v)
    }

    /// The start of an array or object.
    fn open(&mut self, mark: u8) -> Compound<'_, 'o> {
        self.out.push(mark);
        self.depth += 1;
        Compound {
            w: self,
            first: true,
            variant: false,
        }
    }

    /// `{"variant": ` before the value of an enum variant with data.
    fn variant_key(&mut self, variant: &str) {
        self.out.push(b'{');
        self.depth += 1;
        self.newline();
        write_str(self.out, variant);
        self.out.extend_from_slice(b": ");
    }

    /// The `}` after the value of an enum variant with data.
    fn variant_end(&mut self) {
        self.depth -= 1;
        self.newline();
        self.out.push(b'}');
    }
}

/// Whether a byte can be copied as it is without looking further: printable ASCII other than
/// `"` and `\`, and every byte of a multi-byte character except the four leading bytes that can
/// start a hazard (C1 controls U+0080–U+009F: 0xC2; U+061C: 0xD8; the bidi controls U+200E–U+2069:
/// 0xE2; U+FFFE and U+FFFF: 0xEF). Those are looked at as whole characters.
const fn plain_byte(b: u8) -> bool {
    let mut k = 0;
    while k < SPECIAL.len() {
        if b == SPECIAL[k] {
            return false;
        }
        k += 1;
    }
    b >= 0x20
}

/// [`plain_byte`] of every byte, looked up.
static PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = plain_byte(b as u8);
        b += 1;
    }
    t
};

/// The bytes other than C0 controls that [`plain_byte`] turns away.
const SPECIAL: [u8; 7] = [b'"', b'\\', 0x7f, 0xc2, 0xd8, 0xe2, 0xef];

/// Whether all sixteen bytes are [`plain_byte`]s. Written as one comparison of the whole chunk
/// per special byte (no early exit, no branch), which the compiler turns into eight vector
/// comparisons. Indexed rather than zipped: the release build shares no inlining between its
/// code units, and an iterator adapter from another unit would be a call per chunk.
#[inline]
#[allow(clippy::needless_range_loop)]
fn all_plain(chunk: &[u8; 16]) -> bool {
    let mut bad = [0u8; 16];
    for k in 0..16 {
        bad[k] = u8::from(chunk[k] < 0x20);
    }
    for c in SPECIAL {
        for k in 0..16 {
            bad[k] |= u8::from(chunk[k] == c);
        }
    }
    let mut any = 0;
    for b in bad {
        any |= b;
    }
    any == 0
}

/// `s` as a JSON string: JSON's own escapes as serde_json writes them (`\"`, `\\`, `\n`, `\t`,
/// `\r`, `\b`, `\f`, `\u00XX` for the other C0 controls), and every other hazard of
/// [`crate::core::words::escape::is_hazard`] (DEL, C1 controls, bidi controls, U+FFFE, U+FFFF) as
/// a `\uXXXX` escape.
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    escape_into(out, s);
    out.push(b'"');
}

/// The inside of [`write_str`]: runs of plain bytes are found sixteen at a time, then one at a
/// time, and copied whole.
fn escape_into(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    loop {
        while let Some(chunk) = bytes
            .get(i..i + 16)
            .and_then(|c| <&[u8; 16]>::try_from(c).ok())
        {
            if !all_plain(chunk) {
                break;
            }
            i += 16;
        }
        while i < bytes.len() && PLAIN[usize::from(bytes[i])] {
            i += 1;
        }
        let Some(&b) = bytes.get(i) else {
            break;
        };
        let short: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\t' => b"\\t",
            b'\r' => b"\\r",
            0x08 => b"\\b",
            0x0c => b"\\f",
            _ => b"",
        };
        if !short.is_empty() {
            out.extend_from_slice(&bytes[start..i]);
            out.extend_from_slice(short);
            i += 1;
            start = i;
            continue;
        }
        // A C0 control, DEL, or the first byte of a character that may be a hazard. `i` is on a
        // character boundary: every step above passes whole characters.
        let Some(c) = s.get(i..).and_then(|r| r.chars().next()) else {
            break;
        };
        let next = i + c.len_utf8();
        if crate::core::words::escape::is_hazard(c) {
            out.extend_from_slice(&bytes[start..i]);
            let code = u32::from(c);
            let mut hex = *b"\\u0000";
            for (k, h) in hex[2..].iter_mut().enumerate() {
                let digit = (code >> (12 - 4 * k)) & 0xf;
                *h = b"0123456789abcdef"[digit as usize];
            }
            out.extend_from_slice(&hex);
            start = next;
        }
        i = next;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// A `fmt::Write` that escapes what it is given into a JSON string's inside (`collect_str`).
struct Escaping<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Escaping<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        escape_into(self.0, s);
        Ok(())
    }
}

/// An array or object being written; `first` until its first element.
pub(crate) struct Compound<'a, 'o> {
    w: &'a mut Writer<'o>,
    first: bool,
    /// The value of an enum variant with data: one more `}` to close.
    variant: bool,
}

impl Compound<'_, '_> {
    /// The separator and indentation before an element or a key.
    fn element(&mut self) {
        if !self.first {
            self.w.out.push(b',');
        }
        self.first = false;
        self.w.newline();
    }

    /// The end: `]` or `}` on a line of its own, unless nothing was written (`[]`, `{}`).
    fn close(self, mark: u8) {
        self.w.depth -= 1;
        if !self.first {
            self.w.newline();
        }
        self.w.out.push(mark);
        if self.variant {
            self.w.variant_end();
        }
    }
}

impl<'a, 'o> ser::Serializer for &'a mut Writer<'o> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Compound<'a, 'o>;
    type SerializeTuple = Compound<'a, 'o>;
    type SerializeTupleStruct = Compound<'a, 'o>;
    type SerializeTupleVariant = Compound<'a, 'o>;
    type SerializeMap = Compound<'a, 'o>;
    type SerializeStruct = Compound<'a, 'o>;
    type SerializeStructVariant = Compound<'a, 'o>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.plain(&v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        write_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        write_str(self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        use ser::SerializeSeq as _;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<()> {
        self.variant_key(variant);
        v.serialize(&mut *self)?;
        self.variant_end();
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a, 'o>> {
        Ok(self.open(b'['))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'o>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, 'o>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'o>> {
        self.variant_key(variant);
        let mut c = self.open(b'[');
        c.variant = true;
        Ok(c)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a, 'o>> {
        Ok(self.open(b'{'))
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, 'o>> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'o>> {
        self.variant_key(variant);
        let mut c = self.open(b'{');
        c.variant = true;
        Ok(c)
    }
    fn collect_str<T: std::fmt::Display + ?Sized>(self, v: &T) -> Result<()> {
        self.out.push(b'"');
        write!(Escaping(self.out), "{v}").map_err(ser::Error::custom)?;
        self.out.push(b'"');
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        self.element();
        v.serialize(&mut *self.w)
    }
    fn end(self) -> Result<()> {
        self.close(b']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.element();
        key.serialize(KeyWriter(&mut *self.w.out))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        self.w.out.extend_from_slice(b": ");
        v.serialize(&mut *self.w)
    }
    fn end(self) -> Result<()> {
        self.close(b'}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        self.element();
        write_str(self.w.out, key);
        self.w.out.extend_from_slice(b": ");
        v.serialize(&mut *self.w)
    }
    fn end(self) -> Result<()> {
        self.close(b'}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, v)
    }
    fn end(self) -> Result<()> {
        ser::SerializeStruct::end(self)
    }
}

/// A map key, which JSON writes as a string: strings and characters as they are, numbers and
/// booleans quoted, as serde_json does; anything else is an error.
struct KeyWriter<'o>(&'o mut Vec<u8>);

impl KeyWriter<'_> {
    /// A key with no string escape in it (a number, a boolean), quoted.
    fn quoted<T: Serialize>(self, v: T) -> Result<()> {
        self.0.push(b'"');
        serde_json::to_writer(&mut *self.0, &v)?;
        self.0.push(b'"');
        Ok(())
    }
}

fn key_must_be_a_string() -> serde_json::Error {
    ser::Error::custom("key must be a string")
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = ser::Impossible<(), serde_json::Error>;
    type SerializeTuple = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = ser::Impossible<(), serde_json::Error>;
    type SerializeMap = ser::Impossible<(), serde_json::Error>;
    type SerializeStruct = ser::Impossible<(), serde_json::Error>;
    type SerializeStructVariant = ser::Impossible<(), serde_json::Error>;

    fn serialize_str(self, v: &str) -> Result<()> {
        write_str(self.0, v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        write_str(self.0, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        if v.is_finite() {
            self.quoted(v)
        } else {
            Err(key_must_be_a_string())
        }
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        if v.is_finite() {
            self.quoted(v)
        } else {
            Err(key_must_be_a_string())
        }
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn collect_str<T: std::fmt::Display + ?Sized>(self, v: &T) -> Result<()> {
        self.0.push(b'"');
        write!(Escaping(self.0), "{v}").map_err(ser::Error::custom)?;
        self.0.push(b'"');
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_must_be_a_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::Serialize;
    use serde_json::{Value, json};
    use std::collections::BTreeMap;

    /// The writer this one replaced: serde_json's serialiser with a formatter that lays out as
    /// serde_json's `PrettyFormatter` does and escapes the hazards serde_json leaves raw, one
    /// character at a time. Kept as the slow, obvious reference.
    #[derive(Default)]
    struct Reference {
        depth: usize,
        has_value: bool,
    }

    fn indent<W: ?Sized + std::io::Write>(w: &mut W, depth: usize) -> std::io::Result<()> {
        for _ in 0..depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    impl serde_json::ser::Formatter for Reference {
        fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.depth += 1;
            self.has_value = false;
            w.write_all(b"[")
        }
        fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.depth -= 1;
            if self.has_value {
                w.write_all(b"\n")?;
                indent(w, self.depth)?;
            }
            w.write_all(b"]")
        }
        fn begin_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            w.write_all(if first { b"\n" } else { b",\n" })?;
            indent(w, self.depth)
        }
        fn end_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            _: &mut W,
        ) -> std::io::Result<()> {
            self.has_value = true;
            Ok(())
        }
        fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.depth += 1;
            self.has_value = false;
            w.write_all(b"{")
        }
        fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.depth -= 1;
            if self.has_value {
                w.write_all(b"\n")?;
                indent(w, self.depth)?;
            }
            w.write_all(b"}")
        }
        fn begin_object_key<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            self.begin_array_value(w, first)
        }
        fn begin_object_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            w.write_all(b": ")
        }
        fn end_object_value<W: ?Sized + std::io::Write>(
            &mut self,
            _: &mut W,
        ) -> std::io::Result<()> {
            self.has_value = true;
            Ok(())
        }
        fn write_string_fragment<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            fragment: &str,
        ) -> std::io::Result<()> {
            let mut start = 0;
            for (i, c) in fragment.char_indices() {
                if crate::core::words::escape::is_hazard(c) {
                    w.write_all(&fragment.as_bytes()[start..i])?;
                    write!(w, "\\u{:04x}", u32::from(c))?;
                    start = i + c.len_utf8();
                }
            }
            w.write_all(&fragment.as_bytes()[start..])
        }
    }

    fn reference<T: Serialize + ?Sized>(v: &T, depth: usize) -> serde_json::Result<String> {
        let mut buf = Vec::new();
        let formatter = Reference {
            depth,
            has_value: false,
        };
        v.serialize(&mut serde_json::Serializer::with_formatter(
            &mut buf, formatter,
        ))?;
        Ok(String::from_utf8(buf).unwrap())
    }

    fn ours<T: Serialize + ?Sized>(v: &T, depth: usize) -> serde_json::Result<String> {
        let mut buf = Vec::new();
        v.serialize(&mut Writer {
            out: &mut buf,
            depth,
        })?;
        Ok(String::from_utf8(buf).unwrap())
    }

    /// Characters of every kind the writer treats apart: plain ASCII, JSON's escapes, the other
    /// C0 controls, DEL, C1 controls, the bidi controls and marks, U+FFFE/U+FFFF, characters that
    /// share a hazard's first byte without being one, and anything else.
    fn any_char() -> impl Strategy<Value = char> {
        prop_oneof![
            4 => proptest::char::range(' ', '~'),
            2 => proptest::char::range('\0', '\u{a0}'),
            2 => proptest::sample::select(vec![
                '"', '\\', '\n', '\t', '\r', '\u{8}', '\u{c}', '\u{7f}', '\u{80}', '\u{9f}',
                '\u{a0}', '\u{bf}', '\u{61b}', '\u{61c}', '\u{61d}', '\u{200d}', '\u{200e}',
                '\u{200f}', '\u{2010}', '\u{2029}', '\u{202a}', '\u{202e}', '\u{202f}',
                '\u{2065}', '\u{2066}', '\u{2069}', '\u{206a}', '\u{fffd}', '\u{fffe}',
                '\u{ffff}', '\u{10000}', 'é', '€', '😀',
            ]),
            1 => any::<char>(),
        ]
    }

    fn any_string() -> impl Strategy<Value = String> {
        proptest::collection::vec(any_char(), 0..70).prop_map(|cs| cs.into_iter().collect())
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            any_string().prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
                proptest::collection::vec((any_string(), inner), 0..6)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// A string is escaped byte for byte as the reference escapes it.
        #[test]
        fn a_string_is_written_as_the_reference_writes_it(s in any_string()) {
            prop_assert_eq!(ours(&s, 0).unwrap(), reference(&s, 0).unwrap());
        }

        /// Any JSON value, at any depth, is written as the reference writes it.
        #[test]
        fn a_value_is_written_as_the_reference_writes_it(v in any_value(), depth in 0usize..3) {
            prop_assert_eq!(ours(&v, depth).unwrap(), reference(&v, depth).unwrap());
        }
    }

    #[derive(Serialize)]
    enum Shapes {
        Unit,
        Newtype(u8),
        Tuple(u8, String),
        EmptyTuple(),
        Struct { a: Vec<u8>, b: Option<&'static str> },
        EmptyStruct {},
    }

    #[derive(Serialize)]
    struct Everything {
        shapes: Vec<Shapes>,
        unit: (),
        character: char,
        bytes: serde_bytes_like::Bytes,
        numbers: (i8, i16, i32, i128, u8, u16, u32, u128, f32, f64, f64),
        by_number: BTreeMap<i32, bool>,
        by_bool: BTreeMap<bool, u8>,
        by_char: BTreeMap<char, u8>,
        #[serde(flatten)]
        flat: BTreeMap<String, Value>,
        #[serde(serialize_with = "display")]
        shown: &'static str,
        empty_list: Vec<u8>,
        empty_map: BTreeMap<String, u8>,
    }

    mod serde_bytes_like {
        /// Bytes serialised as bytes (not as a sequence of numbers).
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    fn display<S: serde::Serializer>(
        v: &&'static str,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("<{v}\u{202e}\u{1b}>"))
    }

    /// Every shape serde has (enum variants, tuples, bytes, maps with keys that are not strings,
    /// flattened fields, `collect_str`, non-finite floats) is written as the reference writes it.
    #[test]
    fn every_shape_is_written_as_the_reference_writes_it() {
        let v = Everything {
            shapes: vec![
                Shapes::Unit,
                Shapes::Newtype(7),
                Shapes::Tuple(1, "t\u{7f}".into()),
                Shapes::EmptyTuple(),
                Shapes::Struct {
                    a: vec![1, 2],
                    b: None,
                },
                Shapes::Struct {
                    a: vec![],
                    b: Some("\u{2066}"),
                },
                Shapes::EmptyStruct {},
            ],
            unit: (),
            character: '\u{9b}',
            bytes: serde_bytes_like::Bytes(vec![0, 255]),
            numbers: (
                -8,
                -16,
                -32,
                -128,
                8,
                16,
                32,
                u128::MAX,
                1.5,
                f64::NAN,
                1e300,
            ),
            by_number: [(-1, true), (2, false)].into_iter().collect(),
            by_bool: [(true, 1), (false, 0)].into_iter().collect(),
            by_char: [('\u{85}', 1)].into_iter().collect(),
            flat: [("x\ny".to_string(), json!({"k": [null, {}], "e": []}))]
                .into_iter()
                .collect(),
            shown: "a\"b",
            empty_list: vec![],
            empty_map: BTreeMap::new(),
        };
        let theirs = reference(&v, 0).unwrap();
        assert!(theirs.contains("\\u202e") && theirs.contains("\"-1\": true"));
        assert_eq!(ours(&v, 0).unwrap(), theirs);
        assert_eq!(ours(&v, 2).unwrap(), reference(&v, 2).unwrap());
    }

    /// A key that is not a string, a number, a boolean or a character is an error, as in
    /// serde_json.
    #[test]
    fn a_key_that_cannot_be_a_string_is_an_error() {
        let m: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into_iter().collect();
        assert!(reference(&m, 0).is_err());
        assert!(ours(&m, 0).is_err());
    }
}
