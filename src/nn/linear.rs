//! The dense layer `y = x W + b`, once for every network: the MLP's layers run it over
//! minibatches through the GEMM kernels, the GRU's gates and head one vector at a time.
//!
//! Layout: `W` row-major `[inputs][outputs]` (the outputs of one input contiguous), then `b`.
//! The batched forward product and the weight gradient then run their inner loop over
//! contiguous outputs, which LLVM vectorises.

use super::gemm::gemm_acc;
use super::scalar::Scalar;

/// The sizes of one dense layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Linear {
    /// Inputs per row.
    pub inputs: usize,
    /// Outputs per row.
    pub outputs: usize,
}

impl Linear {
    /// Number of weights (`inputs × outputs`; the biases follow them).
    pub fn weights(&self) -> usize {
        self.inputs * self.outputs
    }

    /// `y = b + x W` for `batch` rows of `x` (`batch × inputs`); `y` is overwritten.
    pub fn forward<S: Scalar>(&self, w: &[S], b: &[S], x: &[S], batch: usize, y: &mut Vec<S>) {
        y.clear();
        for _ in 0..batch {
            y.extend_from_slice(b);
        }
        gemm_acc(batch, self.outputs, self.inputs, x, self.inputs, 1, w, y);
    }

    /// Adds the parameter gradients of a batch: `gw += xᵀ Δ` (x read transposed through its
    /// strides) and `gb += Σ_rows Δ`, for `delta = ∂loss/∂y` (`batch × outputs`).
    pub fn backward_params<S: Scalar>(
        &self,
        x: &[S],
        batch: usize,
        delta: &[S],
        gw: &mut [S],
        gb: &mut [S],
    ) {
        gemm_acc(
            self.inputs,
            self.outputs,
            batch,
            x,
            1,
            self.inputs,
            delta,
            gw,
        );
        for dr in delta.chunks_exact(self.outputs) {
            gb.iter_mut().zip(dr).for_each(|(g, &d)| *g += d);
        }
    }

    /// `dx = Δ Wᵀ` (`batch × inputs`); `w_t` is scratch for the transposed weights, copied once
    /// so that the product runs over contiguous rows.
    pub fn backward_input<S: Scalar>(
        &self,
        w: &[S],
        delta: &[S],
        batch: usize,
        w_t: &mut Vec<S>,
        dx: &mut Vec<S>,
    ) {
        let (inputs, outputs) = (self.inputs, self.outputs);
        w_t.resize(inputs * outputs, S::ZERO);
        for (i, wr) in w.chunks_exact(outputs).enumerate() {
            for (o, &v) in wr.iter().enumerate() {
                w_t[o * inputs + i] = v;
            }
        }
        dx.clear();
        dx.resize(batch * inputs, S::ZERO);
        gemm_acc(batch, inputs, outputs, delta, outputs, 1, w_t, dx);
    }

    /// One vector: `out_j = b_j + Σ_i x_i W_ij`, each sum in index order.
    #[inline]
    pub fn forward_one<S: Scalar>(&self, w: &[S], b: &[S], x: &[S], out: &mut [S]) {
        let n = self.outputs;
        for (j, o) in out.iter_mut().enumerate() {
            *o = b[j] + (0..self.inputs).map(|i| w[i * n + j] * x[i]).sum::<S>();
        }
    }

    /// One vector backward, for `d = ∂loss/∂out`: `gw += x dᵀ`, `gb += d` and `dx += W d`.
    /// Outputs with a zero gradient are skipped (they add nothing).
    #[inline]
    pub fn backward_one<S: Scalar>(
        &self,
        w: &[S],
        x: &[S],
        d: &[S],
        gw: &mut [S],
        gb: &mut [S],
        dx: &mut [S],
    ) {
        let n = self.outputs;
        for (j, &dj) in d.iter().enumerate() {
            if dj == S::ZERO {
                continue;
            }
            gb[j] += dj;
            for i in 0..self.inputs {
                gw[i * n + j] += dj * x[i];
                dx[i] += dj * w[i * n + j];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_vector_and_a_batch_of_one_agree_with_the_definition() {
        let layer = Linear {
            inputs: 3,
            outputs: 2,
        };
        let w = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // rows: inputs
        let b = [0.5, -0.5];
        let x = [1.0, -1.0, 2.0];
        let mut one = [0.0; 2];
        layer.forward_one(&w, &b, &x, &mut one);
        assert_eq!(one, [0.5 + 1.0 - 3.0 + 10.0, -0.5 + 2.0 - 4.0 + 12.0]);
        let mut batch = Vec::new();
        layer.forward(&w, &b, &x, 1, &mut batch);
        assert_eq!(batch, one.to_vec());
        let d = [1.0, 2.0];
        let (mut gw, mut gb, mut dx) = ([0.0; 6], [0.0; 2], [0.0; 3]);
        layer.backward_one(&w, &x, &d, &mut gw, &mut gb, &mut dx);
        assert_eq!(gb, d);
        assert_eq!(gw, [1.0, 2.0, -1.0, -2.0, 2.0, 4.0]);
        assert_eq!(dx, [5.0, 11.0, 17.0]);
        let (mut gw2, mut gb2, mut w_t, mut dx2) = ([0.0; 6], [0.0; 2], Vec::new(), Vec::new());
        layer.backward_params(&x, 1, &d, &mut gw2, &mut gb2);
        layer.backward_input(&w, &d, 1, &mut w_t, &mut dx2);
        assert_eq!((gw2, gb2, dx2), (gw, gb, dx.to_vec()));
    }
}
