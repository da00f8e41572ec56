//! The one matrix kernel the networks need: C += A·B with A read through strides (so that
//! Xᵀ·Δ needs no transposed copy), B and C row-major.
//!
//! Register-blocked: a 4 × 8 (AVX-512: 4 × 16) tile of C stays in registers while k runs, so
//! each loaded row of B feeds four rows of A. On x86-64 with AVX2 (checked at run time, std
//! only) the same code is compiled again with wider vectors. Every path does a plain multiply
//! then add (never a fused multiply-add, which wasm lacks) and sums each element's k terms in
//! the same order, so every path — AVX-512, AVX2, plain, wasm — gives the same bits, and a
//! run in the browser equals the same run in the CLI. Measured here, giving up FMA cost no
//! measurable throughput (bench ppo: 160k env steps/s and 181 µs per minibatch with FMA,
//! 161k and 178 µs without).

/// a · b + c as two roundings (Rust never contracts this into a fused multiply-add).
trait MulAdd {
    fn mul_add(a: f64, b: f64, c: f64) -> f64;
}

struct Plain;
impl MulAdd for Plain {
    #[inline(always)]
    fn mul_add(a: f64, b: f64, c: f64) -> f64 {
        a * b + c
    }
}

const MR: usize = 4;

/// `c[r·n + j] += Σ_k a[r·a_rs + k·a_ks] · b[k·n + j]` for r < m, j < n.
#[allow(clippy::too_many_arguments)] // BLAS-style: shapes and strides
pub fn gemm_acc(
    m: usize,
    n: usize,
    k: usize,
    a: &[f64],
    a_rs: usize,
    a_ks: usize,
    b: &[f64],
    c: &mut [f64],
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
    gemm_impl::<Plain, PORTABLE_NR>(m, n, k, a, a_rs, a_ks, b, c);
}

/// Tile width of the portable path. In wasm a 4 × 4 tile is 8 SIMD accumulators; 4 × 8 would
/// take all 16 of the x86-64 registers the browser compiles v128 values to, and spill.
/// Measured in Chromium (`node e2e/bench.mjs`): 4 × 2 36k, 4 × 4 55k, 4 × 6 31k and 4 × 8 47k
/// env steps/s.
#[cfg(target_arch = "wasm32")]
const PORTABLE_NR: usize = 4;
#[cfg(not(target_arch = "wasm32"))]
const PORTABLE_NR: usize = 8;

// The same multiply-adds in the same order as the other paths, in 8-lane registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_avx512(
    m: usize,
    n: usize,
    k: usize,
    a: &[f64],
    a_rs: usize,
    a_ks: usize,
    b: &[f64],
    c: &mut [f64],
) {
    gemm_impl::<Plain, 16>(m, n, k, a, a_rs, a_ks, b, c);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_avx2(
    m: usize,
    n: usize,
    k: usize,
    a: &[f64],
    a_rs: usize,
    a_ks: usize,
    b: &[f64],
    c: &mut [f64],
) {
    gemm_impl::<Plain, 8>(m, n, k, a, a_rs, a_ks, b, c);
}

/// The blocked product; `NR` columns per tile (a 4 × 8 tile fills 8 of AVX2's 16 registers,
/// 4 × 16 fills 8 of AVX-512's 32; measured here, 4 × 16 beat 4 × 8 and 4 × 32). The tile width does not change any result: every element of
/// C still sums its k terms in order.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn gemm_impl<F: MulAdd, const NR: usize>(
    m: usize,
    n: usize,
    k: usize,
    a: &[f64],
    a_rs: usize,
    a_ks: usize,
    b: &[f64],
    c: &mut [f64],
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
            let mut acc = [[0.0f64; NR]; MR];
            for kk in 0..k {
                let brow: &[f64; NR] = b[kk * n + j..kk * n + j + NR].try_into().unwrap();
                for (rr, acc_row) in acc.iter_mut().enumerate() {
                    let av = at(r + rr, kk);
                    for q in 0..NR {
                        acc_row[q] = F::mul_add(av, brow[q], acc_row[q]);
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
            tail_columns::<F>(rr, n_full, n, k, &at, b, c);
        }
        r += MR;
    }
    for rr in r..m {
        // Leftover rows: one row of C at a time.
        let mut j = 0;
        while j < n_full {
            let mut acc = [0.0f64; NR];
            for kk in 0..k {
                let brow: &[f64; NR] = b[kk * n + j..kk * n + j + NR].try_into().unwrap();
                let av = at(rr, kk);
                for q in 0..NR {
                    acc[q] = F::mul_add(av, brow[q], acc[q]);
                }
            }
            let crow = &mut c[rr * n + j..rr * n + j + NR];
            for q in 0..NR {
                crow[q] += acc[q];
            }
            j += NR;
        }
        tail_columns::<F>(rr, n_full, n, k, &at, b, c);
    }
}

/// Columns `from..n` of row `r` of C, one dot product each (the narrow output heads).
#[inline(always)]
fn tail_columns<F: MulAdd>(
    r: usize,
    from: usize,
    n: usize,
    k: usize,
    at: &impl Fn(usize, usize) -> f64,
    b: &[f64],
    c: &mut [f64],
) {
    for j in from..n {
        let mut s = 0.0;
        for kk in 0..k {
            s = F::mul_add(at(r, kk), b[kk * n + j], s);
        }
        c[r * n + j] += s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_naive_product_for_all_shapes_and_strides() {
        for (m, n, k) in [
            (1, 1, 1),
            (5, 9, 3),
            (8, 16, 7),
            (13, 2, 64),
            (4, 64, 4),
            (9, 17, 1),
        ] {
            let a: Vec<f64> = (0..m * k)
                .map(|i| ((i * 7 % 11) as f64 - 5.0) / 3.0)
                .collect();
            let b: Vec<f64> = (0..k * n)
                .map(|i| ((i * 5 % 13) as f64 - 6.0) / 7.0)
                .collect();
            for transposed in [false, true] {
                // A stored as m×k (strides k, 1) or as its transpose k×m (strides 1, m).
                let (a_store, rs, ks) = if transposed {
                    let mut t = vec![0.0; m * k];
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
                let mut c = vec![1.0; m * n];
                gemm_acc(m, n, k, &a_store, rs, ks, &b, &mut c);
                let mut plain = vec![1.0; m * n];
                gemm_impl::<Plain, 8>(m, n, k, &a_store, rs, ks, &b, &mut plain);
                for r in 0..m {
                    for j in 0..n {
                        let want: f64 =
                            1.0 + (0..k).map(|kk| a[r * k + kk] * b[kk * n + j]).sum::<f64>();
                        assert!((c[r * n + j] - want).abs() < 1e-12, "{m}x{n}x{k}");
                        assert!((plain[r * n + j] - want).abs() < 1e-12, "{m}x{n}x{k}");
                    }
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_and_avx512_tiles_give_identical_bits() {
        if !std::arch::is_x86_feature_detected!("avx512f") {
            return; // nothing to compare on this CPU
        }
        let (m, n, k) = (13, 70, 33);
        let a: Vec<f64> = (0..m * k)
            .map(|i| crate::math::sin(i as f64 * 0.37))
            .collect();
        let b: Vec<f64> = (0..k * n)
            .map(|i| crate::math::cos(i as f64 * 0.11))
            .collect();
        let (mut c2, mut c5) = (vec![0.5; m * n], vec![0.5; m * n]);
        // SAFETY: both feature sets were just detected.
        unsafe {
            gemm_avx2(m, n, k, &a, k, 1, &b, &mut c2);
            gemm_avx512(m, n, k, &a, k, 1, &b, &mut c5);
        }
        assert!(c2.iter().zip(&c5).all(|(x, y)| x.to_bits() == y.to_bits()));
    }

    #[test]
    fn every_path_gives_the_bits_of_the_portable_path() {
        // What wasm runs (the portable path) must equal what this CPU dispatches to, bit for
        // bit: that is what makes a browser run equal to the CLI's.
        let (m, n, k) = (13, 70, 33);
        let a: Vec<f64> = (0..m * k)
            .map(|i| crate::math::sin(i as f64 * 0.37))
            .collect();
        let b: Vec<f64> = (0..k * n)
            .map(|i| crate::math::cos(i as f64 * 0.11))
            .collect();
        let (mut dispatched, mut portable) = (vec![0.5; m * n], vec![0.5; m * n]);
        gemm_acc(m, n, k, &a, k, 1, &b, &mut dispatched);
        gemm_impl::<Plain, 8>(m, n, k, &a, k, 1, &b, &mut portable);
        assert!(dispatched
            .iter()
            .zip(&portable)
            .all(|(x, y)| x.to_bits() == y.to_bits()));
    }
}
