//! The block's MLP: `W_2 · GELU(W_1 x + b_1) + b_2`, widening the stream to `hidden` features
//! and back. GELU in GPT-2's tanh form, through the crate's own tanh ([`Scalar::tanh`]: the
//! same bits on every path, unlike a platform's libm): smooth, so finite differences check
//! its backward as they do the rest.

use crate::nn::{Linear, Scalar};

/// √(2/π).
const GELU_K: f64 = 0.797_884_560_802_865_4;
/// The cubic term's weight in GELU's tanh form.
const GELU_C: f64 = 0.044_715;

/// GELU(u) = ½ u (1 + tanh(√(2/π) (u + 0.044715 u³))).
#[inline]
pub fn gelu<S: Scalar>(u: S) -> S {
    let (k, c, half) = (S::from_f64(GELU_K), S::from_f64(GELU_C), S::from_f64(0.5));
    let t = (k * (u + c * u * u * u)).tanh();
    half * u * (S::ONE + t)
}

/// dGELU/du = ½ (1 + t) + ½ u (1 − t²) √(2/π) (1 + 3·0.044715 u²), with t as in [`gelu`].
#[inline]
pub fn gelu_derivative<S: Scalar>(u: S) -> S {
    let (k, c, half) = (S::from_f64(GELU_K), S::from_f64(GELU_C), S::from_f64(0.5));
    let t = (k * (u + c * u * u * u)).tanh();
    let three_c = S::from_f64(3.0 * GELU_C);
    half * (S::ONE + t) + half * u * (S::ONE - t * t) * k * (S::ONE + three_c * u * u)
}

/// The MLP's sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeedForward {
    /// Width of the residual stream.
    pub model: usize,
    /// Width of the hidden layer.
    pub hidden: usize,
}

/// What the forward pass keeps: the hidden pre-activations and activations.
#[derive(Debug, Clone)]
pub struct FeedForwardTape<S> {
    /// `[N, hidden]`: `W_1 x + b_1`.
    pub pre: Vec<S>,
    /// `[N, hidden]`: GELU of it.
    pub act: Vec<S>,
}

impl FeedForward {
    fn up(&self) -> Linear {
        Linear {
            inputs: self.model,
            outputs: self.hidden,
        }
    }

    fn down(&self) -> Linear {
        Linear {
            inputs: self.hidden,
            outputs: self.model,
        }
    }

    /// `W_1 [model, hidden]`, `b_1`, `W_2 [hidden, model]`, `b_2`.
    pub fn num_params(&self) -> usize {
        let (u, d) = (self.up(), self.down());
        u.weights() + u.outputs + d.weights() + d.outputs
    }

    fn split<'a, S>(&self, p: &'a [S]) -> [&'a [S]; 4] {
        let (u, d) = (self.up(), self.down());
        let (w1, rest) = p.split_at(u.weights());
        let (b1, rest) = rest.split_at(u.outputs);
        let (w2, b2) = rest.split_at(d.weights());
        [w1, b1, w2, &b2[..d.outputs]]
    }

    /// `rows` rows of `x` (`[N, model]`) → `out` (`[N, model]`).
    pub fn forward<S: Scalar>(
        &self,
        params: &[S],
        x: &[S],
        rows: usize,
        out: &mut Vec<S>,
    ) -> FeedForwardTape<S> {
        let [w1, b1, w2, b2] = self.split(params);
        let mut pre = Vec::new();
        self.up().forward(w1, b1, x, rows, &mut pre);
        let act: Vec<S> = pre.iter().map(|&u| gelu(u)).collect();
        self.down().forward(w2, b2, &act, rows, out);
        FeedForwardTape { pre, act }
    }

    /// Adds the parameters' gradient into `grad` and the input's into `dx`, given
    /// `d_out = ∂L/∂out`.
    #[allow(clippy::too_many_arguments)] // the layer's inputs, its tape and both gradients
    pub fn backward<S: Scalar>(
        &self,
        params: &[S],
        x: &[S],
        tape: &FeedForwardTape<S>,
        d_out: &[S],
        rows: usize,
        grad: &mut [S],
        dx: &mut [S],
    ) {
        let [w1, _, w2, _] = self.split(params);
        let (up, down) = (self.up(), self.down());
        let (g_up, g_down) = grad.split_at_mut(up.weights() + up.outputs);
        let (gw1, gb1) = g_up.split_at_mut(up.weights());
        let (gw2, gb2) = g_down.split_at_mut(down.weights());
        down.backward_params(&tape.act, rows, d_out, gw2, gb2);
        let (mut w_t, mut d_act) = (Vec::new(), Vec::new());
        down.backward_input(w2, d_out, rows, &mut w_t, &mut d_act);
        for (d, &u) in d_act.iter_mut().zip(&tape.pre) {
            *d *= gelu_derivative(u);
        }
        up.backward_params(x, rows, &d_act, gw1, gb1);
        let mut d_x = Vec::new();
        up.backward_input(w1, &d_act, rows, &mut w_t, &mut d_x);
        dx.iter_mut().zip(&d_x).for_each(|(a, &b)| *a += b);
    }
}
