//! Matrix products on float32 slices, for the sentence model's layers and the overlap rule's
//! comparisons of every pair of vectors.
//!
//! The right-hand matrix is laid out once in [`Panels`]: its columns [`PANEL`] at a time, each
//! panel's rows one after the other, so the kernel reads it front to back. The left-hand rows
//! are read where they are (copied first only when a row's elements are not next to each
//! other). The kernel keeps a tile of rows times a panel of columns in vector registers, with
//! the vector instructions the processor has (chosen when the program runs, through `pulp`'s
//! safe dispatch: AVX-512, AVX2 with FMA, NEON, or plain floats). The steps of the sums are
//! taken [`DEPTH_BLOCK`] at a time for every tile of a block of rows, so that the panel's rows
//! for them stay in the core's first cache; a sum carried from one block of steps to the next
//! is a float32 kept as it is, so the order of the additions does not change. A dense layer's
//! bias (and the sentence model's GELU) is applied as the sums are stored, not in a pass of
//! its own.
//!
//! Every element of a product is summed in one order, `k` from first to last, whatever the
//! tile, the panel or the number of rows: a row's product does not depend on the rows beside it
//! (so a text's vector is the same alone or in a batch).

use pulp::{Simd, WithSimd};
use std::cell::RefCell;
use std::sync::LazyLock;

/// Columns of the right-hand matrix in one panel: two AVX-512 registers, four AVX2 ones (taken
/// two at a time).
pub(crate) const PANEL: usize = 32;
/// Rows of the left-hand matrix taken at a time: they stay in the core's cache while every
/// panel goes past them.
const BLOCK_ROWS: usize = 96;
/// Steps of the sums taken for every tile of a block before the next steps: the panel's rows
/// for them stay in the core's first cache while the tiles go past.
const DEPTH_BLOCK: usize = 128;

/// The rows of `a` one after the other into `copy`, `a.columns` floats each.
fn copy_rows(a: Matrix, copy: &mut Vec<f32>) {
    copy.clear();
    copy.reserve(a.rows * a.columns);
    for i in 0..a.rows {
        copy.extend((0..a.columns).map(|k| a.at(i, k)));
    }
}

/// The vector instructions this processor has, found once.
pub(super) static ARCH: LazyLock<pulp::Arch> = LazyLock::new(pulp::Arch::new);

/// Why a product could not be taken: the shapes do not match, or a matrix does not fit in its
/// slice.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MatrixError {
    #[cfg(feature = "semantic")]
    #[error("a bias of {len} values for {columns} columns")]
    Bias { len: usize, columns: usize },
    #[error("matrix shapes: {a_rows}×{a_columns} times {b_rows}×{b_columns}")]
    Shapes {
        a_rows: usize,
        a_columns: usize,
        b_rows: usize,
        b_columns: usize,
    },
    #[error(
        "matrix shapes: {rows}×{columns} with steps {row_step} and {column_step} does not fit in {len} floats"
    )]
    Layout {
        rows: usize,
        columns: usize,
        row_step: usize,
        column_step: usize,
        len: usize,
    },
}

/// A matrix inside a slice: element `(i, j)` at `i * row_step + j * column_step`.
#[derive(Clone, Copy)]
pub(crate) struct Matrix<'a> {
    pub(crate) data: &'a [f32],
    pub(crate) rows: usize,
    pub(crate) columns: usize,
    pub(crate) row_step: usize,
    pub(crate) column_step: usize,
}

impl<'a> Matrix<'a> {
    pub(crate) fn new(
        data: &'a [f32],
        rows: usize,
        columns: usize,
        row_step: usize,
        column_step: usize,
    ) -> Matrix<'a> {
        Matrix {
            data,
            rows,
            columns,
            row_step,
            column_step,
        }
    }

    /// An error unless every element lies inside the slice.
    fn check(&self) -> Result<(), MatrixError> {
        fits(
            self.data.len(),
            self.rows,
            self.columns,
            self.row_step,
            self.column_step,
        )
    }

    fn at(&self, i: usize, j: usize) -> f32 {
        self.data[i * self.row_step + j * self.column_step]
    }
}

/// Whether a `rows × columns` matrix with these steps fits in `len` floats.
fn fits(
    len: usize,
    rows: usize,
    columns: usize,
    row_step: usize,
    column_step: usize,
) -> Result<(), MatrixError> {
    let last = if rows == 0 || columns == 0 {
        Some(0)
    } else {
        (rows - 1)
            .checked_mul(row_step)
            .zip((columns - 1).checked_mul(column_step))
            .and_then(|(r, c)| r.checked_add(c))
            .and_then(|l| l.checked_add(1))
    };
    match last {
        Some(last) if last <= len => Ok(()),
        _ => Err(MatrixError::Layout {
            rows,
            columns,
            row_step,
            column_step,
            len,
        }),
    }
}

/// A right-hand matrix laid out for the kernel: panel `p` holds columns `p * PANEL ..` of every
/// row, row after row, [`PANEL`] floats each (the last panel's missing columns are zeros).
#[derive(Default)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(crate) struct Panels {
    data: Vec<f32>,
    rows: usize,
    columns: usize,
}

impl Panels {
    /// The panels of `rows × columns` values, `value(k, j)` the element of row `k`, column `j`.
    #[cfg(any(test, feature = "semantic"))]
    pub(crate) fn from_fn(
        rows: usize,
        columns: usize,
        mut value: impl FnMut(usize, usize) -> f32,
    ) -> Panels {
        let mut p = Panels::default();
        p.fill_with(rows, columns, &mut value);
        p
    }

    /// Lays out `m`, reusing this one's memory. A matrix whose rows (the attention's values) or
    /// whose columns (its keys, read as columns) lie next to each other is copied a row or a
    /// column at a time, reading it front to back.
    pub(crate) fn fill(&mut self, m: Matrix) -> Result<(), MatrixError> {
        m.check()?;
        if m.rows == 0 || m.columns == 0 {
            self.zeroed(m.rows, m.columns);
        } else if m.column_step == 1 {
            self.sized(m.rows, m.columns);
            for (p, panel) in self.data.chunks_exact_mut(m.rows * PANEL).enumerate() {
                let width = PANEL.min(m.columns - p * PANEL);
                for (k, line) in panel.chunks_exact_mut(PANEL).enumerate() {
                    let at = k * m.row_step + p * PANEL;
                    line[..width].copy_from_slice(&m.data[at..at + width]);
                }
            }
        } else if m.row_step == 1 {
            self.sized(m.rows, m.columns);
            let rows = m.rows;
            for j in 0..m.columns {
                let column = &m.data[j * m.column_step..j * m.column_step + rows];
                let first = (j / PANEL) * rows * PANEL + j % PANEL;
                let panel = &mut self.data[first..=first + (rows - 1) * PANEL];
                for k in 0..rows {
                    panel[k * PANEL] = column[k];
                }
            }
        } else {
            self.fill_with(m.rows, m.columns, &mut |k, j| m.at(k, j));
        }
        Ok(())
    }

    /// Room for `rows × columns` in panels, reusing this one's memory: the last panel's
    /// columns past the matrix's zeros, every other element left to be written.
    fn sized(&mut self, rows: usize, columns: usize) {
        let panels = columns.div_ceil(PANEL);
        self.data.resize(panels * rows * PANEL, 0.0);
        let width = columns - (panels.max(1) - 1) * PANEL;
        if width < PANEL {
            let last = &mut self.data[(panels.max(1) - 1) * rows * PANEL..];
            for line in last.chunks_exact_mut(PANEL) {
                line[width..].fill(0.0);
            }
        }
        self.rows = rows;
        self.columns = columns;
    }

    /// `rows × columns` of zeros in panels, reusing this one's memory.
    fn zeroed(&mut self, rows: usize, columns: usize) {
        self.data.clear();
        self.data
            .resize(columns.div_ceil(PANEL) * rows * PANEL, 0.0);
        self.rows = rows;
        self.columns = columns;
    }

    fn fill_with(
        &mut self,
        rows: usize,
        columns: usize,
        value: &mut impl FnMut(usize, usize) -> f32,
    ) {
        self.zeroed(rows, columns);
        if rows == 0 {
            return;
        }
        for (p, panel) in self.data.chunks_exact_mut(rows * PANEL).enumerate() {
            let width = PANEL.min(columns - p * PANEL);
            for (k, line) in panel.chunks_exact_mut(PANEL).enumerate() {
                for (j, v) in line[..width].iter_mut().enumerate() {
                    *v = value(k, p * PANEL + j);
                }
            }
        }
    }

    #[cfg(any(test, feature = "semantic"))]
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    #[cfg(any(test, feature = "semantic"))]
    pub(crate) fn columns(&self) -> usize {
        self.columns
    }

    /// Panel `p`, `rows * PANEL` floats.
    fn panel(&self, p: usize) -> &[f32] {
        &self.data[p * self.rows * PANEL..(p + 1) * self.rows * PANEL]
    }
}

/// What a product does with the output's elements.
#[derive(Clone, Copy)]
pub(crate) enum Store<'a> {
    /// `out = a · b` (the sentence model's products)
    #[cfg(any(test, feature = "semantic"))]
    Set,
    /// `out = a · b + bias`, `bias` one value per column, added to each row's sums (a dense
    /// layer)
    #[cfg(feature = "semantic")]
    Bias(&'a [f32]),
    /// `out = gelu(a · b + bias)`, the sentence model's GELU on each element (its feed-forward
    /// layer)
    #[cfg(feature = "semantic")]
    BiasGelu(&'a [f32]),
    /// `out += alpha · a · b`
    Add(f32),
    /// Holds the lifetime in a build without the sentence model's products; never made.
    #[cfg(not(feature = "semantic"))]
    #[allow(dead_code)]
    Unused(std::marker::PhantomData<&'a ()>),
}

/// `a · b` into `out`, an `a.rows × b.columns` matrix whose rows start `out_row_step` apart
/// (its columns next to each other), as `store` says. A shape that does not match, or a
/// matrix that does not fit in its slice, is an error.
pub(crate) fn product(
    a: Matrix,
    b: &Panels,
    out: &mut [f32],
    out_row_step: usize,
    store: Store,
) -> Result<(), MatrixError> {
    #[cfg(feature = "semantic")]
    if let Store::Bias(bias) = store
        && bias.len() != b.columns
    {
        return Err(MatrixError::Bias {
            len: bias.len(),
            columns: b.columns,
        });
    }
    #[cfg(feature = "semantic")]
    if let Store::BiasGelu(bias) = store
        && bias.len() != b.columns
    {
        return Err(MatrixError::Bias {
            len: bias.len(),
            columns: b.columns,
        });
    }
    if a.columns != b.rows {
        return Err(MatrixError::Shapes {
            a_rows: a.rows,
            a_columns: a.columns,
            b_rows: b.rows,
            b_columns: b.columns,
        });
    }
    a.check()?;
    fits(out.len(), a.rows, b.columns, out_row_step, 1)?;
    if a.rows == 0 || b.columns == 0 {
        return Ok(());
    }
    ARCH.dispatch(Product {
        a,
        b,
        out,
        out_row_step,
        store,
    });
    Ok(())
}

/// `out += alpha · a · b`, `b` any strided matrix (laid out in panels first).
pub(crate) fn gemm(
    a: Matrix,
    b: Matrix,
    alpha: f32,
    out: &mut [f32],
    out_row_step: usize,
) -> Result<(), MatrixError> {
    let mut panels = Panels::default();
    panels.fill(b)?;
    product(a, &panels, out, out_row_step, Store::Add(alpha))
}

thread_local! {
    /// The left-hand rows, copied one after the other when they are not so already.
    static TILES: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// One product, checked, waiting for the vector instructions to run it with.
struct Product<'a, 'b> {
    a: Matrix<'a>,
    b: &'b Panels,
    out: &'b mut [f32],
    out_row_step: usize,
    store: Store<'b>,
}

impl WithSimd for Product<'_, '_> {
    type Output = ();

    // Inlined into pulp's function compiled with the vector instructions, as is everything it
    // calls: a call not inlined would run without them.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        // Tiles of rows × vectors per panel row: as many running sums as the registers hold,
        // beside the panel's vectors and the broadcast element. AVX2's 16 registers hold 6 × 2
        // sums, 2 vectors and the broadcast: each panel is taken in two halves (3 × 4 left
        // two sums and the panel's 4 vectors with no register, spilled to the stack on every
        // step, at half the speed).
        match S::F32_LANES {
            16 => self.run::<S, 8, 2, 2>(simd),
            8 => self.run::<S, 6, 2, 4>(simd),
            4 => self.run::<S, 3, 8, 8>(simd),
            _ => self.run::<S, 1, PANEL, PANEL>(simd),
        }
    }
}

impl Product<'_, '_> {
    /// The product in tiles of `R` rows, each a part of a panel row: `V` vectors of `S`, the
    /// panel's `W` vectors taken `V` at a time.
    #[allow(clippy::inline_always, clippy::needless_range_loop)]
    #[inline(always)]
    fn run<S: Simd, const R: usize, const V: usize, const W: usize>(self, simd: S) {
        let Product {
            a,
            b,
            out,
            out_row_step,
            store,
        } = self;
        // The other arms of the match above, compiled for this `S` but never run.
        if W * S::F32_LANES != PANEL || !W.is_multiple_of(V) {
            return;
        }
        // A panel's row is `W` vectors, taken in `parts` of `V`, `part_width` columns each.
        let parts = W / V;
        let part_width = V * S::F32_LANES;
        let depth = a.columns;
        // Taken out of the thread's slot, not borrowed in a closure: a closure's body would be
        // compiled without the vector instructions this function has.
        let mut copy = TILES.take();
        // The left-hand rows, each `depth` floats in a row: read in place when they are so.
        let (data, row_step) = if a.column_step == 1 {
            (a.data, a.row_step)
        } else {
            copy_rows(a, &mut copy);
            (copy.as_slice(), depth)
        };
        let row = |i: usize| &data[i * row_step..i * row_step + depth];
        let zero = [[simd.splat_f32s(0.0); V]; R];
        // A tile's sums between two steps' blocks, when the depth takes more than one: tile `t`,
        // part `h` at `t * parts + h`.
        let mut partial: Vec<[[S::f32s; V]; R]> = Vec::new();
        for first in (0..a.rows).step_by(BLOCK_ROWS) {
            let rows = BLOCK_ROWS.min(a.rows - first);
            let count = rows.div_ceil(R);
            if depth > DEPTH_BLOCK {
                partial.clear();
                partial.resize(count * parts, zero);
            }
            for p in 0..b.columns.div_ceil(PANEL) {
                let (panel, _) = S::as_simd_f32s(b.panel(p));
                let (panel, _) = panel.as_chunks::<W>();
                let mut start = 0;
                while start < depth {
                    let end = depth.min(start + DEPTH_BLOCK);
                    let last = end == depth;
                    // The steps' block of every tile for one part of the panel, then the next
                    // part: a part's columns of the block's steps stay in the first cache. A
                    // part wholly past the last column (padding) is not multiplied.
                    for h in 0..parts {
                        let c0 = p * PANEL + h * part_width;
                        if c0 >= b.columns {
                            break;
                        }
                        let width = part_width.min(b.columns - c0);
                        for t in 0..count {
                            let top = first + t * R;
                            let here = R.min(rows - t * R);
                            // A tile's rows past the end repeat its first, their sums unused.
                            let mut tile: [&[f32]; R] = [&[]; R];
                            for r in 0..R {
                                let i = if r < here { top + r } else { top };
                                tile[r] = &row(i)[start..end];
                            }
                            let init = if start == 0 {
                                zero
                            } else {
                                partial[t * parts + h]
                            };
                            let sums = tile_product::<S, R, V, W>(
                                simd,
                                tile,
                                &panel[start..end],
                                h * V,
                                init,
                            );
                            if !last {
                                partial[t * parts + h] = sums;
                                continue;
                            }
                            for r in 0..here {
                                let at = (top + r) * out_row_step + c0;
                                let o = &mut out[at..at + width];
                                store_row(simd, store, &sums[r], o, c0..c0 + width);
                            }
                        }
                    }
                    start = end;
                }
            }
        }
        TILES.set(copy);
    }
}

/// One row's sums of a part of a panel into the output's columns `columns` (the `V` vectors'
/// width, or fewer at the end: then through a line).
#[allow(clippy::inline_always, clippy::needless_range_loop)]
#[inline(always)]
fn store_row<S: Simd, const V: usize>(
    simd: S,
    store: Store,
    sums: &[S::f32s; V],
    o: &mut [f32],
    columns: std::ops::Range<usize>,
) {
    let width = columns.len();
    if width == V * S::F32_LANES {
        // A whole part: the sums stored as they are.
        let (o, _) = S::as_mut_simd_f32s(o);
        store_sums(simd, store, sums, &mut o[..V], columns);
        return;
    }
    let mut line = [0f32; PANEL];
    let (vectors, _) = S::as_mut_simd_f32s(&mut line);
    if let Store::Add(alpha) = store {
        for v in 0..V {
            let alpha = simd.splat_f32s(alpha);
            vectors[v] = simd.mul_f32s(alpha, sums[v]);
        }
        for j in 0..width {
            o[j] += line[j];
        }
    } else {
        store_sums(simd, store, sums, &mut vectors[..V], columns);
        o.copy_from_slice(&line[..width]);
    }
}

/// One row's sums of a part of a panel into `o`, its `V` vectors' columns (`columns` of the
/// product, fewer at the last; then `o` is a line of zeros, copied or added to the output's
/// columns after).
#[allow(clippy::inline_always, clippy::needless_range_loop)]
#[cfg_attr(not(feature = "semantic"), allow(unused_variables))]
#[inline(always)]
fn store_sums<S: Simd, const V: usize>(
    simd: S,
    store: Store,
    sums: &[S::f32s; V],
    o: &mut [S::f32s],
    columns: std::ops::Range<usize>,
) {
    match store {
        #[cfg(any(test, feature = "semantic"))]
        Store::Set => o.copy_from_slice(sums),
        #[cfg(feature = "semantic")]
        Store::Bias(bias) => add_bias(simd, sums, o, bias, columns),
        #[cfg(feature = "semantic")]
        Store::BiasGelu(bias) => {
            add_bias(simd, sums, o, bias, columns);
            for v in o.iter_mut().take(V) {
                *v = super::gelu::gelu_f32s(simd, *v);
            }
        }
        Store::Add(alpha) => {
            let alpha = simd.splat_f32s(alpha);
            for v in 0..V {
                o[v] = simd.add_f32s(o[v], simd.mul_f32s(alpha, sums[v]));
            }
        }
        #[cfg(not(feature = "semantic"))]
        Store::Unused(_) => {}
    }
}

/// `o = sums + bias[columns]` (`columns` the `V` vectors' width, or fewer at the end).
#[cfg(feature = "semantic")]
#[allow(clippy::inline_always, clippy::needless_range_loop)]
#[inline(always)]
fn add_bias<S: Simd, const V: usize>(
    simd: S,
    sums: &[S::f32s; V],
    o: &mut [S::f32s],
    bias: &[f32],
    columns: std::ops::Range<usize>,
) {
    let mut line = [0f32; PANEL];
    let bias = if columns.len() == V * S::F32_LANES {
        &bias[columns]
    } else {
        line[..columns.len()].copy_from_slice(&bias[columns]);
        &line
    };
    let (bias, _) = S::as_simd_f32s(bias);
    for v in 0..V {
        o[v] = simd.add_f32s(sums[v], bias[v]);
    }
}

/// A tile of `R` rows (each step's `R` elements together) times `V` vectors of a panel from
/// vector `off` of each step's `W`: `R × V` running sums, each added to in order of the steps.
#[allow(clippy::inline_always, clippy::needless_range_loop)]
#[inline(always)]
fn tile_product<S: Simd, const R: usize, const V: usize, const W: usize>(
    simd: S,
    rows: [&[f32]; R],
    panel: &[[S::f32s; W]],
    off: usize,
    mut sums: [[S::f32s; V]; R],
) -> [[S::f32s; V]; R] {
    let n = panel.len();
    // Every row cut to the panel's steps, and the part's vectors inside the row, so that no
    // index below is checked.
    let mut tile: [&[f32]; R] = [&[]; R];
    for r in 0..R {
        tile[r] = &rows[r][..n];
    }
    let off = off.min(W - V);
    // Indices, not iterators: the iterators' helpers are functions the compiler may leave
    // uninlined, compiled without the vector instructions.
    for k in 0..n {
        let ws = &panel[k][off..off + V];
        for r in 0..R {
            let x = simd.splat_f32s(tile[r][k]);
            for v in 0..V {
                sums[r][v] = simd.mul_add_e_f32s(x, ws[v], sums[r][v]);
            }
        }
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The product of a strided matrix and a transposed one, against the schoolbook loops.
    #[test]
    fn gemm_with_steps_equals_the_loops() {
        let a: Vec<f32> = (0..7 * 5).map(|i| (i % 11) as f32 - 5.0).collect();
        let b: Vec<f32> = (0..6 * 5).map(|i| (i % 7) as f32 * 0.5).collect();
        // a: 3 × 4 taken from a 7 × 5 block (rows 0, 2, 4; columns 1..5); b: its 6 × 5 rows
        // read as columns (4 × 6 from columns 1..5).
        let am = Matrix::new(&a[1..], 3, 4, 10, 1);
        let bm = Matrix::new(&b[1..], 4, 6, 1, 5);
        let mut out = vec![1.0; 3 * 8];
        gemm(am, bm, 2.0, &mut out, 8).unwrap();
        for i in 0..3 {
            for j in 0..8 {
                let want = if j < 6 {
                    1.0 + 2.0
                        * (0..4)
                            .map(|k| a[1 + i * 10 + k] * b[1 + j * 5 + k])
                            .sum::<f32>()
                } else {
                    1.0
                };
                assert_eq!(out[i * 8 + j], want, "({i}, {j})");
            }
        }
    }

    /// Shapes past a tile, a panel and a block of rows each (and not a multiple of any):
    /// every element is the schoolbook sum, and every row's bits are those of the same row
    /// multiplied alone, wherever it sits in the block.
    #[test]
    fn a_large_product_equals_the_loops_and_a_row_does_not_depend_on_its_neighbours() {
        let (m, k, n) = (BLOCK_ROWS + 13, 70, 2 * PANEL + 5);
        let a: Vec<f32> = (0..m * k)
            .map(|i| ((i * 7919) % 1000) as f32 / 500.0 - 1.0)
            .collect();
        let b: Vec<f32> = (0..k * n)
            .map(|i| ((i * 104_729) % 997) as f32 / 498.5 - 1.0)
            .collect();
        let panels = Panels::from_fn(k, n, |r, c| b[r * n + c]);
        assert_eq!((panels.rows(), panels.columns()), (k, n));
        let mut out = vec![f32::NAN; m * n];
        product(
            Matrix::new(&a, m, k, k, 1),
            &panels,
            &mut out,
            n,
            Store::Set,
        )
        .unwrap();
        for i in 0..m {
            let mut alone = vec![0f32; n];
            product(
                Matrix::new(&a[i * k..(i + 1) * k], 1, k, k, 1),
                &panels,
                &mut alone,
                n,
                Store::Set,
            )
            .unwrap();
            for j in 0..n {
                let want: f64 = (0..k)
                    .map(|t| f64::from(a[i * k + t]) * f64::from(b[t * n + j]))
                    .sum();
                let got = out[i * n + j];
                assert!(
                    (f64::from(got) - want).abs() < 1e-4,
                    "({i}, {j}): {got} vs {want}"
                );
                assert_eq!(
                    got.to_bits(),
                    alone[j].to_bits(),
                    "row {i} alone, column {j}"
                );
            }
        }
    }

    /// Each arm of the kernel that this processor can run (AVX2's tiles of 6 rows × half a
    /// panel, AVX-512's 8 × 2, and plain floats), for every way of storing the sums, gives each
    /// element the bits of its sum taken step by step, `k` from first to last (fused
    /// multiply-adds where the arm has them): shapes with a last tile of fewer rows, a last
    /// panel of fewer columns than a half and than a whole panel, and more steps than a block.
    #[test]
    #[allow(clippy::needless_range_loop)]
    #[cfg_attr(not(feature = "semantic"), allow(unused_variables))]
    fn every_arm_sums_each_element_in_order_of_the_steps() {
        /// The product through one arm, if this processor has its instructions.
        fn run_with(arm: &str, a: Matrix, b: &Panels, out: &mut [f32], store: Store) -> bool {
            let product = Product {
                a,
                b,
                out_row_step: b.columns,
                out,
                store,
            };
            match arm {
                "plain floats" => pulp::Scalar::new().vectorize(product),
                #[cfg(target_arch = "x86_64")]
                "AVX2" => match pulp::x86::V3::try_new() {
                    Some(simd) => Simd::vectorize(simd, product),
                    None => return false,
                },
                #[cfg(target_arch = "x86_64")]
                "AVX-512" => match pulp::x86::V4::try_new() {
                    Some(simd) => Simd::vectorize(simd, product),
                    None => return false,
                },
                _ => return false,
            }
            true
        }
        let mut ran = Vec::new();
        for (m, k, n) in [
            (13, 5, 9),
            (7, DEPTH_BLOCK + 37, PANEL + 20),
            (BLOCK_ROWS + 1, 40, 2 * PANEL + 3),
        ] {
            let a: Vec<f32> = (0..m * k)
                .map(|i| ((i * 7919) % 1000) as f32 / 377.0 - 1.3)
                .collect();
            let b: Vec<f32> = (0..k * n)
                .map(|i| ((i * 104_729) % 997) as f32 / 311.0 - 1.6)
                .collect();
            let bias: Vec<f32> = (0..n).map(|j| j as f32 * 0.37 - 2.0).collect();
            let panels = Panels::from_fn(k, n, |r, c| b[r * n + c]);
            let am = Matrix::new(&a, m, k, k, 1);
            // The element's sum in order, fused or not.
            let sum = |i: usize, j: usize, fused: bool| {
                (0..k).fold(0f32, |s, t| {
                    let (x, w) = (a[i * k + t], b[t * n + j]);
                    if fused { x.mul_add(w, s) } else { x * w + s }
                })
            };
            let start: Vec<f32> = (0..m * n).map(|i| (i % 17) as f32 - 8.0).collect();
            for (arm, fused) in [("plain floats", false), ("AVX2", true), ("AVX-512", true)] {
                let mut set = vec![f32::NAN; m * n];
                if !run_with(arm, am, &panels, &mut set, Store::Set) {
                    continue;
                }
                ran.push(arm);
                #[cfg(feature = "semantic")]
                let (mut biased, mut gelu) = (vec![f32::NAN; m * n], vec![f32::NAN; m * n]);
                #[cfg(feature = "semantic")]
                {
                    run_with(arm, am, &panels, &mut biased, Store::Bias(&bias));
                    run_with(arm, am, &panels, &mut gelu, Store::BiasGelu(&bias));
                }
                let mut added = start.clone();
                run_with(arm, am, &panels, &mut added, Store::Add(0.75));
                for i in 0..m {
                    for j in 0..n {
                        let e = i * n + j;
                        let want = sum(i, j, fused);
                        let at = format!("{arm}, {m}×{k}×{n}, ({i}, {j})");
                        assert_eq!(set[e].to_bits(), want.to_bits(), "{at}");
                        #[cfg(feature = "semantic")]
                        {
                            let mut g = [want + bias[j]];
                            super::super::gelu::gelu(&mut g);
                            assert_eq!(biased[e].to_bits(), (want + bias[j]).to_bits(), "{at}");
                            assert_eq!(gelu[e].to_bits(), g[0].to_bits(), "{at}");
                        }
                        let add = start[e] + 0.75 * want;
                        assert_eq!(added[e].to_bits(), add.to_bits(), "{at}");
                    }
                }
            }
        }
        // The plain arm everywhere, and on x86 with FMA (this project's machines) AVX2's.
        assert!(ran.contains(&"plain floats"), "{ran:?}");
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            assert!(ran.contains(&"AVX2"), "{ran:?}");
        }
    }

    /// A matrix whose rows lie next to each other, one whose columns do, and one with neither,
    /// are laid out as the element-by-element layout lays them out, panel padding included.
    #[test]
    fn a_matrix_is_laid_out_the_same_whichever_way_its_elements_lie() {
        let data: Vec<f32> = (0..40 * 90).map(|i| i as f32 * 0.5 - 7.0).collect();
        for (rows, columns) in [(32, 45), (45, 32), (3, 70), (70, 3), (1, 1), (0, 5), (5, 0)] {
            for (row_step, column_step) in [(90, 1), (1, 80), (3, 170)] {
                let m = Matrix::new(&data, rows, columns, row_step, column_step);
                if m.check().is_err() {
                    continue;
                }
                let mut got = Panels::default();
                // Another matrix first: what it left in the memory must not show through.
                got.fill(Matrix::new(&data, 40, 90, 90, 1)).unwrap();
                got.fill(m).unwrap();
                let want = Panels::from_fn(rows, columns, |k, j| m.at(k, j));
                assert_eq!((got.rows, got.columns), (rows, columns));
                assert_eq!(
                    got.data, want.data,
                    "{rows}×{columns}, steps {row_step} and {column_step}"
                );
            }
        }
    }

    #[test]
    fn gemm_refuses_a_matrix_past_its_slice_or_a_shape_that_does_not_match() {
        let a = vec![0.0; 4];
        let mut out = vec![0.0; 6];
        let e = gemm(
            Matrix::new(&a, 2, 2, 2, 1),
            Matrix::new(&a, 2, 3, 2, 1),
            1.0,
            &mut out,
            3,
        )
        .unwrap_err();
        assert!(matches!(e, MatrixError::Layout { .. }), "{e}");
        assert!(e.to_string().starts_with("matrix shapes"), "{e}");
        let e = gemm(
            Matrix::new(&a, 2, 2, 2, 1),
            Matrix::new(&a, 1, 2, 2, 1),
            1.0,
            &mut out,
            2,
        )
        .unwrap_err();
        assert!(matches!(e, MatrixError::Shapes { .. }), "{e}");
        assert!(e.to_string().contains("2×2 times 1×2"), "{e}");
        // An output too short for the product, and steps whose sum overflows.
        let e = gemm(
            Matrix::new(&a, 2, 2, 2, 1),
            Matrix::new(&a, 2, 2, 2, 1),
            1.0,
            &mut out[..3],
            2,
        )
        .unwrap_err();
        assert!(matches!(e, MatrixError::Layout { len: 3, .. }), "{e}");
        let e = gemm(
            Matrix::new(&a, 2, 2, usize::MAX, 1),
            Matrix::new(&a, 2, 2, 2, 1),
            1.0,
            &mut out,
            2,
        )
        .unwrap_err();
        assert!(matches!(e, MatrixError::Layout { .. }), "{e}");
    }
}
