//! The GELU activation the sentence model's feed-forward layers apply, and the error function it
//! is made of: a scalar form (the reference, in tests) and a vector form the matrix kernel applies
//! as it stores a layer's sums, lane by lane the same operations. Also the exponential of the
//! attention's softmax, on vectors.

/// The GELU the model was trained with, `x · Φ(x)` by the error function, on every value.
#[cfg(test)]
pub(super) fn gelu(values: &mut [f32]) {
    for v in values {
        *v = (erf(*v * std::f32::consts::FRAC_1_SQRT_2) + 1.0) * 0.5 * *v;
    }
}

/// [`gelu`] on a vector of values, each lane the same operations in the same order (so the same
/// bits).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn gelu_f32s<S: pulp::Simd>(simd: S, x: S::f32s) -> S::f32s {
    let e = erf_f32s(
        simd,
        simd.mul_f32s(x, simd.splat_f32s(std::f32::consts::FRAC_1_SQRT_2)),
    );
    simd.mul_f32s(
        simd.mul_f32s(simd.add_f32s(e, simd.splat_f32s(1.0)), simd.splat_f32s(0.5)),
        x,
    )
}

/// The error function's rational approximation (below): the odd polynomial's coefficients,
/// highest first, and the even one's.
const ERF_P: [f32; 7] = [
    -2.726_142_4e-10,
    2.770_681_5e-8,
    -2.101_024e-6,
    -5.692_506_2e-5,
    -7.349_906_4e-4,
    -2.954_6e-3,
    -1.609_603_3e-2,
];
const ERF_Q: [f32; 5] = [
    -1.456_607_15e-5,
    -2.133_740_5e-4,
    -1.682_827e-3,
    -7.373_329_3e-3,
    -1.426_473_9e-2,
];

/// The error function in float32: the rational approximation Eigen and XLA use for it (an odd
/// polynomial of degree 13 over an even one of degree 8, the input clamped to ±4, where erf is
/// 1 to float32's precision). Within 5e-7 of the exact value (4.2e-7 at -3.62)
/// (`erf_is_within_its_bound`).
#[cfg(test)]
pub(super) fn erf(x: f32) -> f32 {
    let x = x.clamp(-4.0, 4.0);
    let x2 = x * x;
    let mut p = ERF_P[0];
    for c in &ERF_P[1..] {
        p = x2 * p + c;
    }
    let mut q = ERF_Q[0];
    for c in &ERF_Q[1..] {
        q = x2 * q + c;
    }
    x * p / q
}

/// [`erf`] on a vector of values, lane by lane the same operations.
#[allow(clippy::inline_always, clippy::needless_range_loop)]
#[inline(always)]
fn erf_f32s<S: pulp::Simd>(simd: S, x: S::f32s) -> S::f32s {
    let x = simd.max_f32s(
        simd.min_f32s(x, simd.splat_f32s(4.0)),
        simd.splat_f32s(-4.0),
    );
    let x2 = simd.mul_f32s(x, x);
    // Loops over the coefficients, not a closure: a closure's body may be left uninlined,
    // compiled without the vector instructions.
    let mut p = simd.splat_f32s(ERF_P[0]);
    for i in 1..ERF_P.len() {
        p = simd.add_f32s(simd.mul_f32s(x2, p), simd.splat_f32s(ERF_P[i]));
    }
    let mut q = simd.splat_f32s(ERF_Q[0]);
    for i in 1..ERF_Q.len() {
        q = simd.add_f32s(simd.mul_f32s(x2, q), simd.splat_f32s(ERF_Q[i]));
    }
    simd.div_f32s(simd.mul_f32s(x, p), q)
}

/// `e^x` for `x ≤ 0` (the softmax's shifted scores), each lane: `x = n·ln 2 + r` with `n` the
/// nearest integer to `x / ln 2`, Cephes' polynomial for `e^r` (`|r| ≤ ln 2 / 2`), times `2^n`
/// made from its bits. Inputs below -87 are taken as -87 (`e^-87`, 1.6e-38, is the least normal
/// float's order; the softmax's weights that small are zero to its sums). Within 2 units in the
/// last place of the exact value (`exp_is_within_its_bound`).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn exp_f32s<S: pulp::Simd>(simd: S, x: S::f32s) -> S::f32s {
    // 1.5 · 2^23: added to a float of magnitude below 2^22, it leaves the nearest integer in
    // the low bits of the sum.
    const ROUND: f32 = 12_582_912.0;
    let x = simd.max_f32s(x, simd.splat_f32s(-87.0));
    let t = simd.add_f32s(
        simd.mul_f32s(x, simd.splat_f32s(std::f32::consts::LOG2_E)),
        simd.splat_f32s(ROUND),
    );
    let n = simd.sub_f32s(t, simd.splat_f32s(ROUND));
    let r = simd.mul_add_e_f32s(n, simd.splat_f32s(-0.693_359_4), x);
    let r = simd.mul_add_e_f32s(n, simd.splat_f32s(2.121_944_4e-4), r);
    let mut p = simd.splat_f32s(EXP_P[0]);
    for c in &EXP_P[1..] {
        p = simd.mul_add_e_f32s(p, r, simd.splat_f32s(*c));
    }
    let r2 = simd.mul_f32s(r, r);
    let e = simd.add_f32s(simd.mul_add_e_f32s(p, r2, r), simd.splat_f32s(1.0));
    // 2^n: n + 127 in the exponent's bits.
    let bits = simd.sub_u32s(
        simd.transmute_u32s_f32s(t),
        simd.splat_u32s(ROUND.to_bits() - 127),
    );
    let two_n = simd.transmute_f32s_u32s(simd.wrapping_dyn_shl_u32s(bits, simd.splat_u32s(23)));
    simd.mul_f32s(e, two_n)
}

/// Cephes' polynomial for `(e^r - 1 - r) / r²`, highest coefficient first.
const EXP_P: [f32; 6] = [
    1.987_569_1e-4,
    1.398_199_9e-3,
    8.333_452e-3,
    4.166_579_6e-2,
    1.666_666_5e-1,
    0.5,
];
