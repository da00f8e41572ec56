//! The number type the networks compute in: f64 for the gradient checks and the course's
//! reference math, f32 for training (twice the SIMD lanes: 4 in wasm, 16 in AVX-512).
//!
//! Only what the kernels need: IEEE arithmetic (identical bits on every target), conversions
//! to and from f64 at the boundary (observations in, logits and values out), sqrt (exactly
//! rounded everywhere) and the portable [`Scalar::tanh`]. No fused multiply-add.

use std::fmt::Debug;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// f32 or f64.
pub trait Scalar:
    Copy
    + Default
    + PartialEq
    + PartialOrd
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + Sum
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// `f32` or `f64`.
    const NAME: &'static str;
    /// GEMM tile widths (columns of C kept in registers) on the portable, AVX2 and AVX-512
    /// paths: about two vectors per row of the 4-row tile, so twice as many f32 as f64.
    const TILE_WIDTHS: TileWidths;

    /// The nearest value (exact for f64, and for f32 from any f32-valued f64).
    fn from_f64(x: f64) -> Self;
    /// The exact value as f64.
    fn to_f64(self) -> f64;
    /// Square root, exactly rounded (IEEE 754).
    fn sqrt(self) -> Self;
    /// Whether neither NaN nor infinite.
    fn is_finite(self) -> bool;
    /// tanh, branch-free and vectorisable, the same bits on every path ([`super::tanh`]).
    fn tanh(self) -> Self;
    /// eˣ from the portable `libm` port ([`crate::math`]): the same bits on every target.
    fn exp(self) -> Self;
}

/// Tile widths of one scalar type per kernel path (see `gemm.rs`).
#[derive(Debug, Clone, Copy)]
pub struct TileWidths {
    /// Plain Rust natively (SSE2: 16 xmm registers).
    pub portable: usize,
    /// Plain Rust in wasm (simd128; the browser compiles v128 to 16 xmm registers).
    pub wasm: usize,
    /// 256-bit registers.
    pub avx2: usize,
    /// 512-bit registers.
    pub avx512: usize,
}

impl Scalar for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const NAME: &'static str = "f64";
    const TILE_WIDTHS: TileWidths = TileWidths {
        portable: 8,
        wasm: 4,
        avx2: 8,
        avx512: 16,
    };
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
    #[inline(always)]
    fn is_finite(self) -> bool {
        f64::is_finite(self)
    }
    #[inline(always)]
    fn tanh(self) -> Self {
        super::tanh::fast_tanh(self)
    }
    #[inline(always)]
    fn exp(self) -> Self {
        crate::math::exp(self)
    }
}

impl Scalar for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const NAME: &'static str = "f32";
    // Measured natively (bench ppo, AVX-512): 4 × 16 68k env steps/s, 4 × 32 43k (LLVM kept
    // its accumulators on the stack), 8 × 16 slower than 4 × 16. The wasm width is unmeasured.
    const TILE_WIDTHS: TileWidths = TileWidths {
        portable: 16,
        wasm: 8,
        avx2: 16,
        avx512: 16,
    };
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }
    #[inline(always)]
    fn tanh(self) -> Self {
        super::tanh::fast_tanh_f32(self)
    }
    #[inline(always)]
    fn exp(self) -> Self {
        crate::math::exp_f32(self)
    }
}

/// Which scalar a trainer's networks compute in (a setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Precision {
    /// Single precision: twice the SIMD lanes.
    #[serde(rename = "f32")]
    F32,
    /// Double precision, as the gradient checks.
    #[serde(rename = "f64")]
    F64,
}

impl Precision {
    /// `f32` or `f64`.
    pub fn name(self) -> &'static str {
        match self {
            Precision::F32 => f32::NAME,
            Precision::F64 => f64::NAME,
        }
    }

    /// Parses `f32` or `f64`.
    pub fn parse(s: &str) -> crate::Result<Self> {
        match s {
            "f32" => Ok(Precision::F32),
            "f64" => Ok(Precision::F64),
            _ => Err(crate::Error::unknown(
                crate::error::Name::Precision,
                s,
                &["f32", "f64"],
            )),
        }
    }
}

/// Applies [`Scalar::tanh`] to every element in place (in the widest registers the CPU has;
/// no fused operations, so the result is the same on every path).
pub fn tanh_in_place<S: Scalar>(xs: &mut [S]) {
    #[cfg(target_arch = "x86_64")]
    {
        if super::simd::has_avx512() {
            // SAFETY: the CPU supports the features the function is compiled for.
            unsafe { tanh_avx512(xs) };
            return;
        }
        if super::simd::has_avx2() {
            // SAFETY: the CPU supports the features the function is compiled for.
            unsafe { tanh_avx2(xs) };
            return;
        }
    }
    tanh_loop(xs);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2")]
unsafe fn tanh_avx512<S: Scalar>(xs: &mut [S]) {
    tanh_loop(xs);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn tanh_avx2<S: Scalar>(xs: &mut [S]) {
    tanh_loop(xs);
}

#[inline(always)]
fn tanh_loop<S: Scalar>(xs: &mut [S]) {
    for x in xs {
        *x = x.tanh();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vectorised_slice_tanh_gives_the_scalar_bits() {
        let xs: Vec<f64> = (0..1001).map(|i| (i as f64 - 500.0) * 0.031).collect();
        let mut ys = xs.clone();
        tanh_in_place(&mut ys);
        for (x, y) in xs.iter().zip(&ys) {
            assert_eq!(y.to_bits(), super::super::tanh::fast_tanh(*x).to_bits());
        }
        let xs: Vec<f32> = (0..1001).map(|i| (i as f32 - 500.0) * 0.031).collect();
        let mut ys = xs.clone();
        tanh_in_place(&mut ys);
        for (x, y) in xs.iter().zip(&ys) {
            assert_eq!(y.to_bits(), super::super::tanh::fast_tanh_f32(*x).to_bits());
        }
    }
}
