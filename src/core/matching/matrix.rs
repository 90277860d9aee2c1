//! Matrix products on float32 slices, for the sentence model's layers and the overlap rule's
//! comparisons of every pair of vectors: ndarray's `general_mat_mul` (matrixmultiply's kernel,
//! with the vector instructions the processor has) over views of the slices, so that no copy is
//! made to transpose or to take a head's columns.

use ndarray::{ArrayView2, ArrayViewMut2, ShapeBuilder, linalg::general_mat_mul};

/// Why a product could not be taken: the shapes do not match, or a matrix does not fit in its
/// slice.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MatrixError {
    #[error("matrix shapes: {a_rows}×{a_columns} times {b_rows}×{b_columns}")]
    Shapes {
        a_rows: usize,
        a_columns: usize,
        b_rows: usize,
        b_columns: usize,
    },
    #[error("matrix shapes: {0}")]
    Layout(#[from] ndarray::ShapeError),
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

    fn view(&self) -> Result<ArrayView2<'a, f32>, MatrixError> {
        Ok(ArrayView2::from_shape(
            (self.rows, self.columns).strides((self.row_step, self.column_step)),
            self.data,
        )?)
    }
}

/// `out += alpha · a · b`, with `out` a `a.rows × b.columns` matrix whose rows start
/// `out_row_step` apart (its columns next to each other). A shape that does not match, or a
/// matrix that does not fit in its slice, is an error.
pub(crate) fn gemm(
    a: Matrix,
    b: Matrix,
    alpha: f32,
    out: &mut [f32],
    out_row_step: usize,
) -> Result<(), MatrixError> {
    if a.columns != b.rows {
        return Err(MatrixError::Shapes {
            a_rows: a.rows,
            a_columns: a.columns,
            b_rows: b.rows,
            b_columns: b.columns,
        });
    }
    let mut c = ArrayViewMut2::from_shape((a.rows, b.columns).strides((out_row_step, 1)), out)?;
    general_mat_mul(alpha, &a.view()?, &b.view()?, 1.0, &mut c);
    Ok(())
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
        assert!(matches!(e, MatrixError::Layout(_)), "{e}");
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
    }
}
