//! A multilayer perceptron with tanh hidden layers and a linear output, over minibatches, with
//! a hand-written backward pass.
//!
//! Parameters live in one flat vector (layer by layer: weights `[inputs][outputs]`, then
//! biases, as [`Linear`] lays them out) so that Adam and gradient clipping see a plain slice.

use super::init::orthogonal;
use super::linear::Linear;
use super::scalar::tanh_in_place;
use super::scalar::Scalar;
use crate::error::{Error, Result, Rule};
use crate::rng::Rng;

/// A tanh MLP `sizes[0] → sizes[1] → … → sizes[L]` (tanh after every layer but the last),
/// computing in `S` (f64 unless said otherwise).
#[derive(Debug, Clone, PartialEq)]
pub struct Mlp<S: Scalar = f64> {
    sizes: Vec<usize>,
    /// Start of each layer's weights in `params`; its biases follow the weights.
    offsets: Vec<usize>,
    params: Vec<S>,
}

/// Activations of one forward pass, kept for the backward pass, plus scratch space.
#[derive(Debug, Clone)]
pub struct MlpCache<S: Scalar = f64> {
    batch: usize,
    /// `acts[0]` is the input; `acts[l]` the output of layer l (tanh'ed except the last).
    acts: Vec<Vec<S>>,
    delta: Vec<S>,
    delta_prev: Vec<S>,
    w_t: Vec<S>,
}

impl<S: Scalar> Default for MlpCache<S> {
    fn default() -> Self {
        MlpCache {
            batch: 0,
            acts: Vec::new(),
            delta: Vec::new(),
            delta_prev: Vec::new(),
            w_t: Vec::new(),
        }
    }
}

impl<S: Scalar> Mlp<S> {
    /// Orthogonally initialised network: hidden layers with gain `hidden_gain` (√2 for PPO),
    /// the output layer with `output_gain` (0.01 actor, 1.0 critic); biases zero. The weights
    /// are drawn in f64 and rounded to `S`, so an f32 network starts as the f64 one rounded.
    pub fn new(sizes: &[usize], hidden_gain: f64, output_gain: f64, rng: &mut Rng) -> Result<Self> {
        if sizes.len() < 2 || sizes.contains(&0) {
            // At least the input and output sizes, all positive.
            return Err(match sizes.iter().position(|&s| s == 0) {
                Some(i) => Error::range(format!("sizes[{i}]"), Rule::at_least(1.0), 0usize),
                None => Error::range(
                    "sizes",
                    Rule::Count {
                        min: 2,
                        max: usize::MAX,
                    },
                    sizes.len(),
                ),
            });
        }
        let layers = sizes.len() - 1;
        let mut offsets = Vec::with_capacity(layers);
        let mut params = Vec::new();
        for l in 0..layers {
            let gain = if l + 1 == layers {
                output_gain
            } else {
                hidden_gain
            };
            offsets.push(params.len());
            let w = orthogonal(sizes[l], sizes[l + 1], gain, rng);
            params.extend(w.into_iter().map(S::from_f64));
            params.extend(std::iter::repeat_n(S::ZERO, sizes[l + 1]));
        }
        Ok(Mlp {
            sizes: sizes.to_vec(),
            offsets,
            params,
        })
    }

    /// A network of `sizes` with the given flat parameters (as [`Mlp::params`] lays them out:
    /// each layer's weights, then its biases) — a saved policy loaded back.
    pub fn from_params(sizes: &[usize], params: Vec<S>) -> Result<Self> {
        let mut mlp = Mlp::new(sizes, 1.0, 1.0, &mut crate::rng::seeded(0))?;
        if params.len() != mlp.params.len() {
            let rule = Rule::Count {
                min: mlp.params.len(),
                max: mlp.params.len(),
            };
            return Err(Error::range("params", rule, params.len()));
        }
        if let Some(i) = params.iter().position(|p| !p.is_finite()) {
            return Err(Error::non_finite("params", i));
        }
        mlp.params = params;
        Ok(mlp)
    }

    /// The same network in f64 (exact: every f32 is an f64).
    pub fn to_f64(&self) -> Mlp<f64> {
        Mlp {
            sizes: self.sizes.clone(),
            offsets: self.offsets.clone(),
            params: self.params.iter().map(|p| p.to_f64()).collect(),
        }
    }

    /// The same network rounded to `T` (exact when `T` is at least as wide as `S`).
    pub fn to_scalar<T: Scalar>(&self) -> Mlp<T> {
        Mlp {
            sizes: self.sizes.clone(),
            offsets: self.offsets.clone(),
            params: self
                .params
                .iter()
                .map(|p| T::from_f64(p.to_f64()))
                .collect(),
        }
    }

    /// Layer sizes, input first.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Input width.
    pub fn input_dim(&self) -> usize {
        self.sizes[0]
    }

    /// Output width.
    pub fn output_dim(&self) -> usize {
        self.sizes[self.sizes.len() - 1]
    }

    /// All parameters, flat.
    pub fn params(&self) -> &[S] {
        &self.params
    }

    /// All parameters, flat and mutable (for the optimiser and finite differences).
    pub fn params_mut(&mut self) -> &mut [S] {
        &mut self.params
    }

    fn layer(&self, l: usize) -> (&[S], &[S]) {
        let (i, o) = (self.sizes[l], self.sizes[l + 1]);
        let w = &self.params[self.offsets[l]..self.offsets[l] + i * o];
        let b = &self.params[self.offsets[l] + i * o..self.offsets[l] + i * o + o];
        (w, b)
    }

    /// Forward pass of `batch` rows of `x` (`batch × input_dim`, row-major); returns the output
    /// rows (`batch × output_dim`) and keeps the activations in `cache` for [`Mlp::backward`].
    pub fn forward<'c>(&self, x: &[S], batch: usize, cache: &'c mut MlpCache<S>) -> &'c [S] {
        debug_assert_eq!(x.len(), batch * self.input_dim());
        let layers = self.sizes.len() - 1;
        cache.batch = batch;
        cache.acts.resize_with(layers + 1, Vec::new);
        cache.acts[0].clear();
        cache.acts[0].extend_from_slice(x);
        for l in 0..layers {
            let (w, b) = self.layer(l);
            let (inputs, outputs) = (self.sizes[l], self.sizes[l + 1]);
            let (before, after) = cache.acts.split_at_mut(l + 1);
            let (xin, y) = (&before[l], &mut after[0]);
            Linear { inputs, outputs }.forward(w, b, xin, batch, y);
            if l + 1 < layers {
                tanh_in_place(y);
            }
        }
        &cache.acts[layers]
    }

    /// Backward pass: given dLoss/dOutput `d_out` for the rows of the last forward pass,
    /// **adds** dLoss/dParams into `grads` (same layout as [`Mlp::params`]).
    pub fn backward(&self, cache: &mut MlpCache<S>, d_out: &[S], grads: &mut [S]) {
        let layers = self.sizes.len() - 1;
        let batch = cache.batch;
        debug_assert_eq!(d_out.len(), batch * self.output_dim());
        debug_assert_eq!(grads.len(), self.params.len());
        let MlpCache {
            acts,
            delta,
            delta_prev,
            w_t,
            ..
        } = cache;
        delta.clear();
        delta.extend_from_slice(d_out);
        for l in (0..layers).rev() {
            let (inputs, outputs) = (self.sizes[l], self.sizes[l + 1]);
            let (w, _) = self.layer(l);
            let off = self.offsets[l];
            let (gw, rest) = grads[off..].split_at_mut(inputs * outputs);
            let gb = &mut rest[..outputs];
            let xin = &acts[l];
            let layer = Linear { inputs, outputs };
            layer.backward_params(xin, batch, delta, gw, gb);
            if l == 0 {
                break; // no gradient needed for the input
            }
            // Δ_prev = (Δ Wᵀ) ⊙ (1 − h²), h = tanh output.
            layer.backward_input(w, delta, batch, w_t, delta_prev);
            for (p, &h) in delta_prev.iter_mut().zip(xin.iter()) {
                *p *= S::ONE - h * h;
            }
            std::mem::swap(delta, delta_prev);
        }
    }
}
