//! Which SIMD path the kernels (GEMM, tanh) take. Natively they dispatch at run time to
//! AVX-512 or AVX2; `bench ppo --kernels portable|avx2` caps that to time narrower paths —
//! `portable` is the very code wasm runs. Every path gives the same bits, so the cap changes
//! speed only.

use crate::{Error, Result};
use std::sync::atomic::{AtomicU8, Ordering};

/// The kernel paths, narrowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kernels {
    /// Plain Rust, auto-vectorised for the target's baseline (SSE2 on x86-64, simd128 in wasm).
    Portable = 0,
    /// 4-lane f64 (x86-64 with AVX2, checked at run time).
    Avx2 = 1,
    /// 8-lane f64 (x86-64 with AVX-512F, checked at run time).
    Avx512 = 2,
}

impl Kernels {
    pub fn name(self) -> &'static str {
        match self {
            Kernels::Portable if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) => {
                "wasm-simd128"
            }
            Kernels::Portable => "portable",
            Kernels::Avx2 => "avx2",
            Kernels::Avx512 => "avx512",
        }
    }

    /// Parses `portable`, `avx2` or `avx512`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "portable" => Ok(Kernels::Portable),
            "avx2" => Ok(Kernels::Avx2),
            "avx512" => Ok(Kernels::Avx512),
            _ => Err(Error::unknown(
                crate::error::Name::Kernels,
                s,
                &["portable", "avx2", "avx512"],
            )),
        }
    }
}

static WIDEST: AtomicU8 = AtomicU8::new(Kernels::Avx512 as u8);

/// Caps the kernels at `widest` for every later call (the CPU still decides what it has).
pub fn set_widest_kernels(widest: Kernels) {
    WIDEST.store(widest as u8, Ordering::Relaxed);
}

/// The path the kernels take now.
pub fn kernel_path() -> Kernels {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            return Kernels::Avx512;
        }
        if has_avx2() {
            return Kernels::Avx2;
        }
    }
    Kernels::Portable
}

/// Whether the kernels may use AVX2 (std caches the CPU check).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx2() -> bool {
    WIDEST.load(Ordering::Relaxed) >= Kernels::Avx2 as u8
        && std::arch::is_x86_feature_detected!("avx2")
}

/// Whether the kernels may use AVX-512F besides AVX2.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx512() -> bool {
    WIDEST.load(Ordering::Relaxed) >= Kernels::Avx512 as u8
        && has_avx2()
        && std::arch::is_x86_feature_detected!("avx512f")
}
