//! The little-endian byte codec of skillscope's cache files (the library index and the token
//! cache): fixed-width integers, length-prefixed bytes, and a file's [`Stamp`], written one way
//! and read back with every length checked, so a torn or foreign file reads as `None`, never as
//! a panic or a huge allocation.

use crate::core::files::fsx::{Stamp, bytes_path, path_bytes};
use std::path::{Path, PathBuf};

/// The bytes of a stamp: length, mtime and ctime (nanoseconds), inode, device.
pub const STAMP_BYTES: usize = 8 + 16 + 16 + 8 + 8;

/// A stamp as [`Reader::stamp`] reads it back; for writers that stream (the token cache).
#[inline]
pub fn stamp_bytes(s: &Stamp) -> [u8; STAMP_BYTES] {
    let mut out = [0u8; STAMP_BYTES];
    out[..8].copy_from_slice(&s.len.to_le_bytes());
    out[8..24].copy_from_slice(&s.mtime_ns.to_le_bytes());
    out[24..40].copy_from_slice(&s.ctime_ns.to_le_bytes());
    out[40..48].copy_from_slice(&s.ino.to_le_bytes());
    out[48..].copy_from_slice(&s.dev.to_le_bytes());
    out
}

/// Bytes being written; the inner vector is the result.
pub struct Writer(pub Vec<u8>);

impl Writer {
    /// One byte.
    #[inline]
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    /// Four bytes.
    #[inline]
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// Eight bytes.
    #[inline]
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// Eight bytes, signed.
    #[inline]
    pub fn i64(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// A count, as four bytes (saturated: no file holds four billion of anything).
    #[inline]
    pub fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
    /// Bytes after their count.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b);
    }
    /// A string, as its UTF-8 bytes.
    #[inline]
    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    /// Strings after their count.
    pub fn strs(&mut self, v: &[String]) {
        self.len(v.len());
        for s in v {
            self.str(s);
        }
    }
    /// A path, as its bytes.
    pub fn path(&mut self, p: &Path) {
        self.bytes(&path_bytes(p));
    }
    /// A flag byte, then the number when there is one.
    #[inline]
    pub fn opt_u32(&mut self, v: Option<u32>) {
        match v {
            Some(v) => {
                self.u8(1);
                self.u32(v);
            }
            None => self.u8(0),
        }
    }
    /// A file's stamp ([`stamp_bytes`]).
    #[inline]
    pub fn stamp(&mut self, s: &Stamp) {
        self.0.extend_from_slice(&stamp_bytes(s));
    }
}

/// Bytes being read; the slice is what is left.
pub struct Reader<'a>(pub &'a [u8]);

impl<'a> Reader<'a> {
    /// The next `n` bytes, if there are that many.
    #[inline]
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }
    /// The next `N` bytes as an array (a hash).
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }
    /// One byte.
    #[inline]
    pub fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    /// Four bytes.
    #[inline]
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }
    /// Eight bytes.
    #[inline]
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }
    /// Eight bytes, signed.
    #[inline]
    pub fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.array()?))
    }
    /// Sixteen bytes.
    #[inline]
    pub fn u128(&mut self) -> Option<u128> {
        Some(u128::from_le_bytes(self.array()?))
    }
    /// A count of items each at least `min_size` bytes long: one the rest of the file cannot hold
    /// is a corrupt file, caught before anything is allocated for it.
    #[inline]
    pub fn len(&mut self, min_size: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.saturating_mul(min_size.max(1)) <= self.0.len()).then_some(n)
    }
    /// Bytes after their count.
    #[inline]
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.len(1)?;
        self.take(n)
    }
    /// A string; `None` when it is not UTF-8.
    #[inline]
    pub fn string(&mut self) -> Option<String> {
        Some(std::str::from_utf8(self.bytes()?).ok()?.to_string())
    }
    /// Strings after their count.
    pub fn strs(&mut self) -> Option<Vec<String>> {
        let n = self.len(4)?;
        (0..n).map(|_| self.string()).collect()
    }
    /// A path.
    pub fn path(&mut self) -> Option<PathBuf> {
        Some(bytes_path(self.bytes()?))
    }
    /// What [`Writer::opt_u32`] wrote.
    #[inline]
    pub fn opt_u32(&mut self) -> Option<Option<u32>> {
        match self.u8()? {
            0 => Some(None),
            1 => Some(Some(self.u32()?)),
            _ => None,
        }
    }
    /// What [`Writer::stamp`] wrote.
    #[inline]
    pub fn stamp(&mut self) -> Option<Stamp> {
        Some(Stamp {
            len: self.u64()?,
            mtime_ns: self.u128()?,
            ctime_ns: self.u128()?,
            ino: self.u64()?,
            dev: self.u64()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_written_reads_back_and_a_cut_file_reads_as_none() {
        let stamp = Stamp {
            len: 7,
            mtime_ns: 1 << 70,
            ctime_ns: 3,
            ino: 9,
            dev: 11,
        };
        let mut w = Writer(Vec::new());
        w.u8(1);
        w.i64(-5);
        w.strs(&["a".into(), "é".into()]);
        w.path(Path::new("/x/y"));
        w.opt_u32(Some(4));
        w.opt_u32(None);
        w.stamp(&stamp);
        assert_eq!(w.0[w.0.len() - STAMP_BYTES..], stamp_bytes(&stamp));
        let mut r = Reader(&w.0);
        assert_eq!(r.u8(), Some(1));
        assert_eq!(r.i64(), Some(-5));
        assert_eq!(r.strs(), Some(vec!["a".to_string(), "é".to_string()]));
        assert_eq!(r.path(), Some(PathBuf::from("/x/y")));
        assert_eq!(r.opt_u32(), Some(Some(4)));
        assert_eq!(r.opt_u32(), Some(None));
        assert_eq!(r.stamp(), Some(stamp));
        assert!(r.0.is_empty());
        let cut = &w.0[..w.0.len() - 1];
        let mut r = Reader(&cut[cut.len() - (STAMP_BYTES - 1)..]);
        assert_eq!(r.stamp(), None);
        // A count larger than what is left is refused before anything is allocated.
        let mut r = Reader(&[0xff, 0xff, 0xff, 0x7f, 0]);
        assert_eq!(r.len(1), None);
    }
}
