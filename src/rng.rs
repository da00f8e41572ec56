//! Seeded, portable randomness: the same seed gives the same stream natively and in wasm.

use crate::math;
use rand::{RngExt, SeedableRng};
pub use rand_chacha::ChaCha8Rng as Rng;

/// A generator seeded from a `u64`.
pub fn seeded(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Uniform in [0, 1) with 53 random bits.
#[inline]
pub fn uniform(rng: &mut Rng) -> f64 {
    rng.random::<f64>()
}

/// Uniform in [lo, hi).
#[inline]
pub fn uniform_in(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * uniform(rng)
}

/// Standard normal sample (Box–Muller; one of the pair is discarded to keep the stream simple).
pub fn normal(rng: &mut Rng) -> f64 {
    let u1 = 1.0 - uniform(rng); // in (0, 1]: ln never sees 0
    let u2 = uniform(rng);
    (-2.0 * math::ln(u1)).sqrt() * math::cos(std::f64::consts::TAU * u2)
}

/// Index drawn from the categorical distribution `probs` (assumed normalised) by inverting the
/// cumulative sum; rounding slack falls on the last index with positive probability.
pub fn categorical(rng: &mut Rng, probs: &[f64]) -> usize {
    let u = uniform(rng);
    let mut cumulative = 0.0;
    let mut last = 0;
    for (i, &p) in probs.iter().enumerate() {
        if p > 0.0 {
            last = i;
        }
        cumulative += p;
        if u < cumulative {
            return i;
        }
    }
    last
}

/// Fisher–Yates shuffle of `xs` in place.
pub fn shuffle<T>(rng: &mut Rng, xs: &mut [T]) {
    for i in (1..xs.len()).rev() {
        let j = rng.random_range(0..=i);
        xs.swap(i, j);
    }
}

/// Uniform integer in `0..n` (n ≥ 1).
pub fn below(rng: &mut Rng, n: usize) -> usize {
    rng.random_range(0..n)
}
