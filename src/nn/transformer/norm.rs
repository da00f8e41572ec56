//! RMSNorm (Zhang & Sennrich 2019), the pre-norm of every block and the final norm:
//! `y = x / √(mean(x²) + ε) ⊙ g`, one learned gain per feature, no bias and no mean.
//!
//! Why RMSNorm and not LayerNorm: the language models the course's GRPO recipes train
//! (LLaMA, Qwen, DeepSeek) use it; it has half the parameters and one reduction per row
//! instead of two, and re-centring is what the residual stream's learned biases do anyway.

use crate::nn::Scalar;

/// ε inside the root: keeps a zero row finite.
pub const EPS: f64 = 1e-5;

/// The norm of rows of `dim` features.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RmsNorm {
    /// Features per row.
    pub dim: usize,
}

impl RmsNorm {
    /// Its parameters: the gain `g`.
    pub fn num_params(&self) -> usize {
        self.dim
    }

    /// Every row of `x`: `y = x · r · g` with `r = 1/√(Σx²/dim + ε)` (the sum in index
    /// order); `inv` keeps each row's `r` for the backward pass.
    pub fn forward<S: Scalar>(&self, g: &[S], x: &[S], y: &mut [S], inv: &mut [S]) {
        let dim = S::from_f64(self.dim as f64);
        let eps = S::from_f64(EPS);
        for ((xr, yr), r) in x
            .chunks_exact(self.dim)
            .zip(y.chunks_exact_mut(self.dim))
            .zip(inv.iter_mut())
        {
            let mut ss = S::ZERO;
            for &v in xr {
                ss += v * v;
            }
            *r = S::ONE / (ss / dim + eps).sqrt();
            for ((o, &v), &gi) in yr.iter_mut().zip(xr).zip(g) {
                *o = v * *r * gi;
            }
        }
    }

    /// Adds the gain's gradient into `dg` and the input's into `dx`, given `dy = ∂L/∂y`:
    /// `∂L/∂g_i = Σ_rows dy_i x_i r` and `∂L/∂x_i = r g_i dy_i − x_i r³ (Σ_j g_j dy_j x_j)/dim`.
    pub fn backward<S: Scalar>(
        &self,
        g: &[S],
        x: &[S],
        inv: &[S],
        dy: &[S],
        dg: &mut [S],
        dx: &mut [S],
    ) {
        let dim = S::from_f64(self.dim as f64);
        for (((xr, dyr), dxr), &r) in x
            .chunks_exact(self.dim)
            .zip(dy.chunks_exact(self.dim))
            .zip(dx.chunks_exact_mut(self.dim))
            .zip(inv)
        {
            let mut c = S::ZERO;
            for ((&v, &d), &gi) in xr.iter().zip(dyr).zip(g) {
                c += gi * d * v;
            }
            let k = r * r * r * c / dim;
            for (i, ((&v, &d), o)) in xr.iter().zip(dyr).zip(dxr.iter_mut()).enumerate() {
                dg[i] += d * v * r;
                *o += r * g[i] * d - v * k;
            }
        }
    }
}
