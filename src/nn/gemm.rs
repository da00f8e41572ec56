//! The one matrix kernel the networks need: C += A·B with A read through strides (so that
//! Xᵀ·Δ needs no transposed copy), B and C row-major.
//!
//! Generic over the scalar (f32, f64). Register-blocked: a 4-row tile of C about two vectors
//! wide (f64: 4 × 8, AVX-512 4 × 16; f32 twice as many columns, [`Scalar::TILE_WIDTHS`])
//! stays in registers while k runs, so each loaded row of B feeds four rows of A. On x86-64 with AVX2 (checked at run time, std
//! only) the same code is compiled again with wider vectors. Every path does a plain multiply
//! then add (never a fused multiply-add, which wasm lacks) and sums each element's k terms in
//! the same order, so every path — AVX-512, AVX2, plain, wasm — gives the same bits, and a
//! run in the browser equals the same run in the CLI. Measured here, giving up FMA cost no
//! measurable throughput (bench ppo: 160k env steps/s and 181 µs per minibatch with FMA,
//! 161k and 178 µs without).

use super::scalar::Scalar;

const MR: usize = 4;

/// `c[r·n + j] += Σ_k a[r·a_rs + k·a_ks] · b[k·n + j]` for r < m, j < n.
#[allow(clippy::too_many_arguments)] // BLAS-style: shapes and strides
pub fn gemm_acc<S: Scalar>(
    m: usize,
    n: usize,
    k: usize,
    a: &[S],
    a_rs: usize,
    a_ks: usize,
    b: &[S],
    c: &mut [S],
) {
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    assert!(a.len() > (m - 1) * a_rs + (k - 1) * a_ks, "A is too short");
    assert!(b.len() >= k * n && c.len() >= m * n, "B or C is too short");
    #[cfg(target_arch = "x86_64")]
    {
        use super::simd::{has_avx2, has_avx512};
        if has_avx512() {
            // SAFETY: the CPU supports the features the function is compiled for.
            unsafe { gemm_avx512(m, n, k, a, a_rs, a_ks, b, c) };
            return;
        }
        if has_avx2() {
            // SAFETY: as above.
            unsafe { gemm_avx2(m, n, k, a, a_rs, a_ks, b, c) };
            return;
        }
    }
    let nr = if cfg!(target_arch = "wasm32") {
        S::TILE_WIDTHS.wasm
    } else {
        S::TILE_WIDTHS.portable
    };
    gemm_tiled(nr, m, n, k, a, a_rs, a_ks, b, c);
}

// Tile widths of the wasm path, measured in Chromium (`node e2e/bench.mjs`), f64: 4 × 2 36k,
// 4 × 4 55k, 4 × 6 31k and 4 × 8 47k env steps/s (4 × 8 takes all 16 of the x86-64 registers
// the browser compiles v128 values to, and spills).

// The same multiply-adds in the same order as the other paths, in 512-bit registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_avx512<S: Scalar>(
    m: usize,
    n: usize,
    k: usize,
    a: &[S],
    a_rs: usize,
    a_ks: usize,
    b: &[S],
    c: &mut [S],
) {
    gemm_tiled(S::TILE_WIDTHS.avx512, m, n, k, a, a_rs, a_ks, b, c);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_avx2<S: Scalar>(
    m: usize,
    n: usize,
    k: usize,
    a: &[S],
    a_rs: usize,
    a_ks: usize,
    b: &[S],
    c: &mut [S],
) {
    gemm_tiled(S::TILE_WIDTHS.avx2, m, n, k, a, a_rs, a_ks, b, c);
}

/// [`gemm_impl`] with a tile width known only per scalar type (a constant after inlining, so
/// only one arm survives).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn gemm_tiled<S: Scalar>(
    nr: usize,
    m: usize,
    n: usize,
    k: usize,
    a: &[S],
    a_rs: usize,
    a_ks: usize,
    b: &[S],
    c: &mut [S],
) {
    match nr {
        4 => gemm_impl::<S, 4>(m, n, k, a, a_rs, a_ks, b, c),
        8 => gemm_impl::<S, 8>(m, n, k, a, a_rs, a_ks, b, c),
        16 => gemm_impl::<S, 16>(m, n, k, a, a_rs, a_ks, b, c),
        32 => gemm_impl::<S, 32>(m, n, k, a, a_rs, a_ks, b, c),
        _ => unreachable!("tile widths are 4, 8, 16 or 32"),
    }
}

/// The blocked product; `NR` columns per tile (a 4 × 8 tile fills 8 of AVX2's 16 registers,
/// 4 × 16 fills 8 of AVX-512's 32; measured here, 4 × 16 beat 4 × 8 and 4 × 32). The tile width does not change any result: every element of
/// C still sums its k terms in order.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn gemm_impl<S: Scalar, const NR: usize>(
    m: usize,
    n: usize,
    k: usize,
    a: &[S],
    a_rs: usize,
    a_ks: usize,
    b: &[S],
    c: &mut [S],
) {
    // SAFETY (for every `get_unchecked` below): `gemm_acc` asserted
    // a.len() > (m−1)·a_rs + (k−1)·a_ks, and every index used is r·a_rs + kk·a_ks with r < m,
    // kk < k. Bounds checks there would cost more than the multiply-adds they guard.
    let at = |r: usize, kk: usize| unsafe { *a.get_unchecked(r * a_rs + kk * a_ks) };
    let n_full = n / NR * NR;
    let mut r = 0;
    while r + MR <= m {
        let mut j = 0;
        while j < n_full {
            let mut acc = [[S::ZERO; NR]; MR];
            for kk in 0..k {
                let brow: &[S; NR] = b[kk * n + j..kk * n + j + NR].try_into().unwrap();
                for (rr, acc_row) in acc.iter_mut().enumerate() {
                    let av = at(r + rr, kk);
                    for q in 0..NR {
                        acc_row[q] = av * brow[q] + acc_row[q];
                    }
                }
            }
            for (rr, acc_row) in acc.iter().enumerate() {
                let crow = &mut c[(r + rr) * n + j..(r + rr) * n + j + NR];
                for q in 0..NR {
                    crow[q] += acc_row[q];
                }
            }
            j += NR;
        }
        for rr in r..r + MR {
            tail_columns(rr, n_full, n, k, &at, b, c);
        }
        r += MR;
    }
    for rr in r..m {
        // Leftover rows: one row of C at a time.
        let mut j = 0;
        while j < n_full {
            let mut acc = [S::ZERO; NR];
            for kk in 0..k {
                let brow: &[S; NR] = b[kk * n + j..kk * n + j + NR].try_into().unwrap();
                let av = at(rr, kk);
                for q in 0..NR {
                    acc[q] = av * brow[q] + acc[q];
                }
            }
            let crow = &mut c[rr * n + j..rr * n + j + NR];
            for q in 0..NR {
                crow[q] += acc[q];
            }
            j += NR;
        }
        tail_columns(rr, n_full, n, k, &at, b, c);
    }
}

/// Columns `from..n` of row `r` of C, one dot product each (the narrow output heads).
#[inline(always)]
fn tail_columns<S: Scalar>(
    r: usize,
    from: usize,
    n: usize,
    k: usize,
    at: &impl Fn(usize, usize) -> S,
    b: &[S],
    c: &mut [S],
) {
    for j in from..n {
        let mut s = S::ZERO;
        for kk in 0..k {
            s = at(r, kk) * b[kk * n + j] + s;
        }
        c[r * n + j] += s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches_the_naive_product<S: Scalar>(tol: f64) {
        for (m, n, k) in [
            (1, 1, 1),
            (5, 9, 3),
            (8, 16, 7),
            (13, 2, 64),
            (4, 64, 4),
            (9, 17, 1),
            (5, 70, 9),
        ] {
            let a: Vec<S> = (0..m * k)
                .map(|i| S::from_f64(((i * 7 % 11) as f64 - 5.0) / 4.0))
                .collect();
            let b: Vec<S> = (0..k * n)
                .map(|i| S::from_f64(((i * 5 % 13) as f64 - 6.0) / 8.0))
                .collect();
            for transposed in [false, true] {
                // A stored as m×k (strides k, 1) or as its transpose k×m (strides 1, m).
                let (a_store, rs, ks) = if transposed {
                    let mut t = vec![S::ZERO; m * k];
                    for r in 0..m {
                        for kk in 0..k {
                            t[kk * m + r] = a[r * k + kk];
                        }
                    }
                    (t, 1, m)
                } else {
                    (a.clone(), k, 1)
                };
                // The dispatching entry point, and the portable path (what wasm runs) directly.
                let mut c = vec![S::ONE; m * n];
                gemm_acc(m, n, k, &a_store, rs, ks, &b, &mut c);
                let mut plain = vec![S::ONE; m * n];
                gemm_impl::<S, 8>(m, n, k, &a_store, rs, ks, &b, &mut plain);
                for r in 0..m {
                    for j in 0..n {
                        let want: f64 = 1.0
                            + (0..k)
                                .map(|kk| a[r * k + kk].to_f64() * b[kk * n + j].to_f64())
                                .sum::<f64>();
                        let (got, plain) = (c[r * n + j].to_f64(), plain[r * n + j].to_f64());
                        assert!((got - want).abs() < tol, "{m}x{n}x{k}");
                        assert!((plain - want).abs() < tol, "{m}x{n}x{k}");
                    }
                }
            }
        }
    }

    #[test]
    fn matches_the_naive_product_for_all_shapes_and_strides() {
        // The inputs are multiples of 1/32: every product and sum is exact in f32 too.
        matches_the_naive_product::<f64>(1e-12);
        matches_the_naive_product::<f32>(1e-12);
    }

    /// A, B and C of a product with awkward sizes (tiles, tails, leftover rows).
    fn operands<S: Scalar>() -> (usize, usize, usize, Vec<S>, Vec<S>) {
        let (m, n, k) = (13, 70, 33);
        let a = (0..m * k)
            .map(|i| S::from_f64(crate::math::sin(i as f64 * 0.37)))
            .collect();
        let b = (0..k * n)
            .map(|i| S::from_f64(crate::math::cos(i as f64 * 0.11)))
            .collect();
        (m, n, k, a, b)
    }

    fn same_bits<S: Scalar>(x: &[S], y: &[S]) -> bool {
        x.len() == y.len()
            && x.iter()
                .zip(y)
                .all(|(p, q)| p.to_f64().to_bits() == q.to_f64().to_bits())
    }

    #[cfg(target_arch = "x86_64")]
    fn avx2_and_avx512_agree<S: Scalar>() {
        let (m, n, k, a, b) = operands::<S>();
        let half = S::from_f64(0.5);
        let (mut c2, mut c5) = (vec![half; m * n], vec![half; m * n]);
        // SAFETY: the caller detected both feature sets.
        unsafe {
            gemm_avx2(m, n, k, &a, k, 1, &b, &mut c2);
            gemm_avx512(m, n, k, &a, k, 1, &b, &mut c5);
        }
        assert!(same_bits(&c2, &c5), "{}", S::NAME);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_and_avx512_tiles_give_identical_bits() {
        if !std::arch::is_x86_feature_detected!("avx512f") {
            // Said on stderr itself (not captured by the test runner): a pass here checked nothing.
            use std::io::Write;
            let note =
                "avx2_and_avx512_tiles_give_identical_bits: SKIPPED, this CPU has no AVX-512\n";
            std::io::stderr().write_all(note.as_bytes()).ok();
            return;
        }
        avx2_and_avx512_agree::<f64>();
        avx2_and_avx512_agree::<f32>();
    }

    fn dispatched_equals_every_tile_width<S: Scalar>() {
        let (m, n, k, a, b) = operands::<S>();
        let half = S::from_f64(0.5);
        let mut dispatched = vec![half; m * n];
        gemm_acc(m, n, k, &a, k, 1, &b, &mut dispatched);
        for nr in [4, 8, 16, 32] {
            let mut tiled = vec![half; m * n];
            gemm_tiled(nr, m, n, k, &a, k, 1, &b, &mut tiled);
            assert!(same_bits(&dispatched, &tiled), "{} 4 × {nr}", S::NAME);
        }
    }

    #[test]
    fn every_path_gives_the_bits_of_the_portable_path() {
        // What wasm runs (the portable path, 4 or 8 columns) must equal what this CPU
        // dispatches to, bit for bit: that is what makes a browser run equal to the CLI's.
        dispatched_equals_every_tile_width::<f64>();
        dispatched_equals_every_tile_width::<f32>();
    }
}
