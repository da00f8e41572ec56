//! Elementary functions from one portable implementation on every target.
//!
//! `f64::exp` and friends call the platform's libm: glibc natively, a port of musl's libm in
//! wasm. The two differ in the last bit now and then, and training amplifies such differences
//! until runs part ways. Routing every call through the `libm` crate makes the browser and the
//! CLI compute the same bits. (`sqrt` and the basic operations are exactly rounded by IEEE 754
//! everywhere and need no wrapper.) Clippy's `disallowed-methods` (clippy.toml) keeps the std
//! versions out.

/// eˣ.
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// eˣ in single precision.
#[inline]
pub fn exp_f32(x: f32) -> f32 {
    libm::expf(x)
}

/// Natural logarithm.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// Hyperbolic tangent.
#[inline]
pub fn tanh(x: f64) -> f64 {
    libm::tanh(x)
}

/// Sine.
#[inline]
pub fn sin(x: f64) -> f64 {
    libm::sin(x)
}

/// Cosine.
#[inline]
pub fn cos(x: f64) -> f64 {
    libm::cos(x)
}

/// xʸ.
#[inline]
pub fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}
