//! Causal multi-head self-attention with its input and output projections: every position
//! reads the positions up to itself, one softmax per head.
//!
//! `[q k v] = h W_qkv + b_qkv`; per head, `p_j = softmax_j(q·k_j / √d_head)` over `j ≤ t` and
//! `o = Σ_j p_j v_j`; the heads side by side go through `W_o, b_o`. The batched forward and
//! the KV cache's step call the same [`attend`]: the dot products, the softmax's maximum, its
//! sum and the weighted sum of values run in the same order in both, so sampling and training
//! see the same bits.

use crate::nn::{Linear, Scalar};

/// The layer's sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attention {
    /// Width of the residual stream.
    pub model: usize,
    /// Heads (each `model / heads` wide).
    pub heads: usize,
}

/// What the batched forward keeps for the backward pass.
#[derive(Debug, Clone)]
pub struct AttentionTape<S> {
    /// `[N, 3·model]`: queries, keys and values of every row.
    pub qkv: Vec<S>,
    /// `[B, heads, steps, steps]`: the attention weights of each query over the keys (zero
    /// above the diagonal).
    pub probs: Vec<S>,
    /// `[N, model]`: the heads' outputs side by side, before `W_o`.
    pub mixed: Vec<S>,
}

/// The keys and values a sampled sequence has read so far, for one layer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LayerCache<S> {
    /// `[positions, model]`.
    pub keys: Vec<S>,
    /// `[positions, model]`.
    pub values: Vec<S>,
}

/// The attention of one query over `n` keys: `probs[j] = softmax_j(q·k_j · scale)`,
/// `out = Σ_j probs[j] v_j`. Every sum runs in index order.
#[inline]
pub fn attend<'a, S: Scalar>(
    q: &[S],
    key: impl Fn(usize) -> &'a [S],
    value: impl Fn(usize) -> &'a [S],
    scale: S,
    probs: &mut [S],
    out: &mut [S],
) {
    let mut max = S::ZERO;
    for (j, p) in probs.iter_mut().enumerate() {
        let mut s = S::ZERO;
        for (&a, &b) in q.iter().zip(key(j)) {
            s += a * b;
        }
        *p = s * scale;
        if j == 0 || *p > max {
            max = *p;
        }
    }
    let mut sum = S::ZERO;
    for p in probs.iter_mut() {
        *p = (*p - max).exp();
        sum += *p;
    }
    out.iter_mut().for_each(|o| *o = S::ZERO);
    for (j, p) in probs.iter_mut().enumerate() {
        *p = *p / sum;
        for (o, &v) in out.iter_mut().zip(value(j)) {
            *o += *p * v;
        }
    }
}

impl Attention {
    /// Width of one head.
    pub fn head_dim(&self) -> usize {
        self.model / self.heads
    }

    fn qkv_layer(&self) -> Linear {
        Linear {
            inputs: self.model,
            outputs: 3 * self.model,
        }
    }

    fn out_layer(&self) -> Linear {
        Linear {
            inputs: self.model,
            outputs: self.model,
        }
    }

    /// `W_qkv [model, 3·model]`, `b_qkv`, `W_o [model, model]`, `b_o`.
    pub fn num_params(&self) -> usize {
        let (a, b) = (self.qkv_layer(), self.out_layer());
        a.weights() + a.outputs + b.weights() + b.outputs
    }

    fn scale<S: Scalar>(&self) -> S {
        S::from_f64(1.0 / (self.head_dim() as f64).sqrt())
    }

    /// The four parameter blocks.
    fn split<'a, S>(&self, p: &'a [S]) -> [&'a [S]; 4] {
        let (a, b) = (self.qkv_layer(), self.out_layer());
        let (w_qkv, rest) = p.split_at(a.weights());
        let (b_qkv, rest) = rest.split_at(a.outputs);
        let (w_o, b_o) = rest.split_at(b.weights());
        [w_qkv, b_qkv, w_o, &b_o[..b.outputs]]
    }

    /// `batch` sequences of `steps` rows of `h` (`[N, model]`) → `out` (`[N, model]`).
    pub fn forward<S: Scalar>(
        &self,
        params: &[S],
        h: &[S],
        batch: usize,
        steps: usize,
        out: &mut Vec<S>,
    ) -> AttentionTape<S> {
        let [w_qkv, b_qkv, w_o, b_o] = self.split(params);
        let (d, dh, heads) = (self.model, self.head_dim(), self.heads);
        let n = batch * steps;
        let mut qkv = Vec::new();
        self.qkv_layer().forward(w_qkv, b_qkv, h, n, &mut qkv);
        let mut probs = vec![S::ZERO; batch * heads * steps * steps];
        let mut mixed = vec![S::ZERO; n * d];
        let scale = self.scale::<S>();
        for b in 0..batch {
            let rows = &qkv[b * steps * 3 * d..(b + 1) * steps * 3 * d];
            for t in 0..steps {
                let q_row = &rows[t * 3 * d..t * 3 * d + d];
                for head in 0..heads {
                    let at = head * dh;
                    let p = ((b * heads + head) * steps + t) * steps;
                    let o = (b * steps + t) * d + at;
                    attend(
                        &q_row[at..at + dh],
                        |j| &rows[j * 3 * d + d + at..j * 3 * d + d + at + dh],
                        |j| &rows[j * 3 * d + 2 * d + at..j * 3 * d + 2 * d + at + dh],
                        scale,
                        &mut probs[p..p + t + 1],
                        &mut mixed[o..o + dh],
                    );
                }
            }
        }
        self.out_layer().forward(w_o, b_o, &mixed, n, out);
        AttentionTape { qkv, probs, mixed }
    }

    /// One new row `h` of a sampled sequence: its key and value join `cache`, its query reads
    /// every key so far; `probs` receives the weights (`[heads, positions]`), `out` the
    /// layer's output row.
    pub fn step<S: Scalar>(
        &self,
        params: &[S],
        h: &[S],
        cache: &mut LayerCache<S>,
        probs: &mut Vec<S>,
        out: &mut Vec<S>,
    ) {
        let [w_qkv, b_qkv, w_o, b_o] = self.split(params);
        let (d, dh, heads) = (self.model, self.head_dim(), self.heads);
        let mut qkv = Vec::new();
        self.qkv_layer().forward(w_qkv, b_qkv, h, 1, &mut qkv);
        cache.keys.extend_from_slice(&qkv[d..2 * d]);
        cache.values.extend_from_slice(&qkv[2 * d..]);
        let n = cache.keys.len() / d;
        probs.clear();
        probs.resize(heads * n, S::ZERO);
        let mut mixed = vec![S::ZERO; d];
        let scale = self.scale::<S>();
        let (keys, values) = (&cache.keys, &cache.values);
        for head in 0..heads {
            let at = head * dh;
            attend(
                &qkv[at..at + dh],
                |j| &keys[j * d + at..j * d + at + dh],
                |j| &values[j * d + at..j * d + at + dh],
                scale,
                &mut probs[head * n..(head + 1) * n],
                &mut mixed[at..at + dh],
            );
        }
        self.out_layer().forward(w_o, b_o, &mixed, 1, out);
    }

    /// Adds the parameters' gradient into `grad` and the input's into `dh`, given
    /// `d_out = ∂L/∂out`. Through the softmax: `∂L/∂s_j = p_j (∂L/∂p_j − Σ_k p_k ∂L/∂p_k)`.
    #[allow(clippy::too_many_arguments)] // the layer's inputs, its tape and both gradients
    pub fn backward<S: Scalar>(
        &self,
        params: &[S],
        h: &[S],
        tape: &AttentionTape<S>,
        d_out: &[S],
        batch: usize,
        steps: usize,
        grad: &mut [S],
        dh: &mut [S],
    ) {
        let [w_qkv, _, w_o, _] = self.split(params);
        let (d, hd, heads) = (self.model, self.head_dim(), self.heads);
        let n = batch * steps;
        let (qkv_layer, out_layer) = (self.qkv_layer(), self.out_layer());
        let (g_qkv, g_out) = grad.split_at_mut(qkv_layer.weights() + qkv_layer.outputs);
        let (gw_qkv, gb_qkv) = g_qkv.split_at_mut(qkv_layer.weights());
        let (gw_o, gb_o) = g_out.split_at_mut(out_layer.weights());
        out_layer.backward_params(&tape.mixed, n, d_out, gw_o, gb_o);
        let (mut w_t, mut d_mixed) = (Vec::new(), Vec::new());
        out_layer.backward_input(w_o, d_out, n, &mut w_t, &mut d_mixed);
        let mut d_qkv = vec![S::ZERO; n * 3 * d];
        let scale = self.scale::<S>();
        let mut dp = vec![S::ZERO; steps];
        for b in 0..batch {
            let base = b * steps * 3 * d;
            for head in 0..heads {
                let at = head * hd;
                for t in 0..steps {
                    let p_at = ((b * heads + head) * steps + t) * steps;
                    let p = &tape.probs[p_at..p_at + t + 1];
                    let o = (b * steps + t) * d + at;
                    let d_o = &d_mixed[o..o + hd];
                    let mut weighted = S::ZERO;
                    for j in 0..=t {
                        let v = base + j * 3 * d + 2 * d + at;
                        let mut s = S::ZERO;
                        for (&g, &vv) in d_o.iter().zip(&tape.qkv[v..v + hd]) {
                            s += g * vv;
                        }
                        dp[j] = s;
                        weighted += p[j] * s;
                        for (dv, &g) in d_qkv[v..v + hd].iter_mut().zip(d_o) {
                            *dv += p[j] * g;
                        }
                    }
                    let q = base + t * 3 * d + at;
                    for j in 0..=t {
                        let ds = p[j] * (dp[j] - weighted) * scale;
                        let k = base + j * 3 * d + d + at;
                        for i in 0..hd {
                            d_qkv[q + i] += ds * tape.qkv[k + i];
                            d_qkv[k + i] += ds * tape.qkv[q + i];
                        }
                    }
                }
            }
        }
        qkv_layer.backward_params(h, n, &d_qkv, gw_qkv, gb_qkv);
        let mut d_h = Vec::new();
        qkv_layer.backward_input(w_qkv, &d_qkv, n, &mut w_t, &mut d_h);
        dh.iter_mut().zip(&d_h).for_each(|(a, &b)| *a += b);
    }
}
