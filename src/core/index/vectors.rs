//! The semantic matcher's vectors, a section of their own after the index.

use super::records::{MAX_INDEX_BYTES, Stored};
use crate::core::files::codec::{Reader as R, Writer as W};
use std::io::Write;

// The semantic matcher's vectors follow the checksummed index as a section of their own: the
// entries (u32 dimension, u32 count, then per entry a 32-byte key and the vector as float16),
// their blake3 hash, then a footer (u64 length of the section with its hash, VECTORS_MAGIC).
// A read of the index leaves the section in the file; it is read only when the semantic matcher
// asks, so the rest of skillscope pays nothing for it.

const VECTORS_MAGIC: &[u8; 8] = b"SKSCVEC\0";
/// Longest vector read back (all-MiniLM-L6-v2 has 384 floats).
const MAX_VECTOR_DIM: usize = 4096;

/// One remembered sentence vector: the key of the text it is the vector of, and the vector.
pub type VectorEntry = ([u8; 32], Vec<f32>);

/// The vectors to write after the index.
#[derive(Debug)]
pub enum Vectors {
    /// As they are in the index file they were read from.
    Copy(Stored),
    /// Read from the section, or made in this run.
    Entries(Vec<VectorEntry>),
}

/// Where the vector section of an index file of `len` bytes is (offset, length with its hash),
/// and the length of the index before it. A file without one is all index.
pub(super) fn vector_section(file: &std::fs::File, len: u64) -> (u64, Option<(u64, u64)>) {
    let mut footer = [0u8; 16];
    if len < 16 || crate::core::files::fsx::read_exact_at(file, &mut footer, len - 16).is_err() {
        return (len, None);
    }
    if footer[8..] != VECTORS_MAGIC[..] {
        return (len, None);
    }
    let section = u64::from_le_bytes(footer[..8].try_into().unwrap_or_default());
    match (len - 16).checked_sub(section) {
        Some(start) if section >= 32 + 8 => (start, Some((start, section))),
        _ => (len, None),
    }
}

/// The vector section's bytes (with their hash), if its hash is right. The file it was read
/// from is held open: a newer index renamed over it leaves these bytes as they were (though
/// the unlink moves the file's ctime), and the hash vouches for them.
fn section_bytes(stored: &Stored) -> Option<Vec<u8>> {
    if stored.len > MAX_INDEX_BYTES {
        return None;
    }
    let mut bytes = vec![0u8; usize::try_from(stored.len).ok()?];
    crate::core::files::fsx::read_exact_at(&stored.source.file, &mut bytes, stored.offset).ok()?;
    let (body, sum) = bytes.split_at(bytes.len().checked_sub(32)?);
    (blake3::hash(body).as_bytes() == sum).then_some(bytes)
}

/// Reads the vectors an index file holds. `None` when they cannot be read or their hash is
/// wrong: they are then made again.
pub fn read_vectors(stored: &Stored) -> Option<Vec<VectorEntry>> {
    read_vector_section(stored, |key, v| {
        let v = v
            .chunks_exact(2)
            .map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32())
            .collect();
        (key, v)
    })
}

/// The keys of the vectors an index file holds, without widening the vectors themselves (a
/// check needs only to know which texts have one). `None` as for [`read_vectors`].
pub fn read_vector_keys(stored: &Stored) -> Option<Vec<[u8; 32]>> {
    read_vector_section(stored, |key, _| key)
}

/// Each vector of an index file's vector section, its key and its float16 bytes, as `each`
/// makes of them; `None` when the section cannot be read or its hash is wrong.
fn read_vector_section<T>(stored: &Stored, each: impl Fn([u8; 32], &[u8]) -> T) -> Option<Vec<T>> {
    let bytes = section_bytes(stored)?;
    let mut r = R(&bytes[..bytes.len() - 32]);
    let dim = r.u32()? as usize;
    if dim == 0 || dim > MAX_VECTOR_DIM {
        return None;
    }
    let n = r.len(32 + 2 * dim)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let key: [u8; 32] = r.take(32)?.try_into().ok()?;
        out.push(each(key, r.take(2 * dim)?));
    }
    r.0.is_empty().then_some(out)
}

/// Appends the vector section and its footer to an index just written.
pub(super) fn write_vectors(out: &mut impl Write, vectors: &Vectors) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, out);
    let section = match vectors {
        Vectors::Copy(stored) => {
            let Some(bytes) = section_bytes(stored) else {
                return Ok(());
            };
            out.write_all(&bytes)?;
            stored.len
        }
        Vectors::Entries(entries) => {
            let dim = entries.first().map_or(0, |e| e.1.len());
            let mut w = W(Vec::with_capacity(8 + entries.len() * (32 + 2 * dim)));
            w.u32(u32::try_from(dim).unwrap_or(u32::MAX));
            let kept: Vec<&VectorEntry> = entries.iter().filter(|e| e.1.len() == dim).collect();
            w.len(kept.len());
            for (key, v) in kept {
                w.0.extend_from_slice(key);
                for x in v {
                    w.0.extend_from_slice(&half::f16::from_f32(*x).to_le_bytes());
                }
            }
            let sum = blake3::hash(&w.0);
            w.0.extend_from_slice(sum.as_bytes());
            out.write_all(&w.0)?;
            w.0.len() as u64
        }
    };
    out.write_all(&section.to_le_bytes())?;
    out.write_all(VECTORS_MAGIC)?;
    out.flush()
}
