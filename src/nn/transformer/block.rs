//! One pre-norm block: `x + Attention(RMSNorm(x))`, then `+ MLP(RMSNorm(·))`. The residual
//! stream passes through untouched; each sub-layer reads a normalised copy and adds its
//! output back (GPT-2's arrangement: gradients reach the embeddings through the additions
//! whatever the depth).

use super::attention::{Attention, AttentionTape, LayerCache};
use super::mlp::{FeedForward, FeedForwardTape};
use super::norm::RmsNorm;
use crate::nn::Scalar;

/// A block's sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// The norm before attention.
    pub norm1: RmsNorm,
    /// Causal self-attention.
    pub attention: Attention,
    /// The norm before the MLP.
    pub norm2: RmsNorm,
    /// The MLP.
    pub mlp: FeedForward,
}

/// What a block's forward pass keeps.
#[derive(Debug, Clone)]
pub struct BlockTape<S> {
    /// The stream entering the block `[N, model]`.
    pub x_in: Vec<S>,
    /// Its normalised copy and each row's 1/rms.
    pub h1: Vec<S>,
    inv1: Vec<S>,
    /// Attention's own record.
    pub attention: AttentionTape<S>,
    /// The stream after attention's residual.
    x_mid: Vec<S>,
    h2: Vec<S>,
    inv2: Vec<S>,
    mlp: FeedForwardTape<S>,
}

/// `out[i] = a[i] + b[i]`, the residual addition (stream first).
fn add<S: Scalar>(a: &[S], b: &[S]) -> Vec<S> {
    a.iter().zip(b).map(|(&x, &y)| x + y).collect()
}

impl Block {
    /// A block of `model` features, `heads` heads and an MLP `hidden` wide.
    pub fn new(model: usize, heads: usize, hidden: usize) -> Self {
        Block {
            norm1: RmsNorm { dim: model },
            attention: Attention { model, heads },
            norm2: RmsNorm { dim: model },
            mlp: FeedForward { model, hidden },
        }
    }

    /// The norm's gain, attention's four blocks, the norm's gain, the MLP's four blocks.
    pub fn num_params(&self) -> usize {
        self.norm1.num_params()
            + self.attention.num_params()
            + self.norm2.num_params()
            + self.mlp.num_params()
    }

    /// The parameter ranges of the four sub-layers, in storage order.
    pub fn ranges(&self) -> [std::ops::Range<usize>; 4] {
        let sizes = [
            self.norm1.num_params(),
            self.attention.num_params(),
            self.norm2.num_params(),
            self.mlp.num_params(),
        ];
        let mut at = 0;
        sizes.map(|len| {
            at += len;
            at - len..at
        })
    }

    /// The stream `x` (`[batch · steps, model]`) through the block, in place.
    pub fn forward<S: Scalar>(
        &self,
        params: &[S],
        x: &mut Vec<S>,
        batch: usize,
        steps: usize,
    ) -> BlockTape<S> {
        let [g1, pa, g2, pm] = self.ranges().map(|r| &params[r]);
        let n = batch * steps;
        let mut h1 = vec![S::ZERO; x.len()];
        let mut inv1 = vec![S::ZERO; n];
        self.norm1.forward(g1, x, &mut h1, &mut inv1);
        let mut out = Vec::new();
        let attention = self.attention.forward(pa, &h1, batch, steps, &mut out);
        let x_mid = add(x, &out);
        let mut h2 = vec![S::ZERO; x.len()];
        let mut inv2 = vec![S::ZERO; n];
        self.norm2.forward(g2, &x_mid, &mut h2, &mut inv2);
        let mlp = self.mlp.forward(pm, &h2, n, &mut out);
        let x_in = std::mem::replace(x, add(&x_mid, &out));
        BlockTape {
            x_in,
            h1,
            inv1,
            attention,
            x_mid,
            h2,
            inv2,
            mlp,
        }
    }

    /// One row of a sampled sequence through the block, in place: the same arithmetic as
    /// [`Block::forward`], reading the keys and values `cache` holds; `probs` receives the
    /// attention weights of this row (`[heads, positions]`).
    pub fn step<S: Scalar>(
        &self,
        params: &[S],
        x: &mut Vec<S>,
        cache: &mut LayerCache<S>,
        probs: &mut Vec<S>,
    ) {
        let [g1, pa, g2, pm] = self.ranges().map(|r| &params[r]);
        let mut h = vec![S::ZERO; x.len()];
        let mut inv = [S::ZERO];
        self.norm1.forward(g1, x, &mut h, &mut inv);
        let mut out = Vec::new();
        self.attention.step(pa, &h, cache, probs, &mut out);
        let x_mid = add(x, &out);
        self.norm2.forward(g2, &x_mid, &mut h, &mut inv);
        self.mlp.forward(pm, &h, 1, &mut out);
        *x = add(&x_mid, &out);
    }

    /// The backward pass: `dx` holds ∂L/∂(the block's output) and becomes ∂L/∂(its input);
    /// the parameters' gradient is added into `grad`.
    pub fn backward<S: Scalar>(
        &self,
        params: &[S],
        tape: &BlockTape<S>,
        dx: &mut Vec<S>,
        batch: usize,
        steps: usize,
        grad: &mut [S],
    ) {
        let [g1, pa, g2, pm] = self.ranges().map(|r| &params[r]);
        let [r1, ra, r2, rm] = self.ranges();
        let n = batch * steps;
        // out = x_mid + MLP(norm2(x_mid)): the residual carries dx to x_mid unchanged.
        let mut d_mid = dx.clone();
        let mut d_h = vec![S::ZERO; dx.len()];
        self.mlp
            .backward(pm, &tape.h2, &tape.mlp, dx, n, &mut grad[rm], &mut d_h);
        self.norm2
            .backward(g2, &tape.x_mid, &tape.inv2, &d_h, &mut grad[r2], &mut d_mid);
        // x_mid = x_in + Attention(norm1(x_in)).
        let mut d_in = d_mid.clone();
        d_h.iter_mut().for_each(|v| *v = S::ZERO);
        self.attention.backward(
            pa,
            &tape.h1,
            &tape.attention,
            &d_mid,
            batch,
            steps,
            &mut grad[ra],
            &mut d_h,
        );
        self.norm1
            .backward(g1, &tape.x_in, &tape.inv1, &d_h, &mut grad[r1], &mut d_in);
        *dx = d_in;
    }
}
