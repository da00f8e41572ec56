//! A tiny autoregressive GRU policy: token embedding → GRU cell → linear head over the actions,
//! with backpropagation through time written out by hand (and checked against finite
//! differences in `tests/policy_contract.rs`, the checks every network behind the sequence
//! trainer's seam passes).
//!
//! The cell follows PyTorch's `nn.GRU` convention, gates stacked in the order r, z, n:
//!
//! ```text
//! r  = σ(W_ir e + b_ir + W_hr h + b_hr)
//! z  = σ(W_iz e + b_iz + W_hz h + b_hz)
//! n  = tanh(W_in e + b_in + r ⊙ (W_hn h + b_hn))
//! h' = (1 − z) ⊙ n + z ⊙ h
//! ```
//!
//! All parameters live in one flat `Vec<f64>` so that Adam and gradient clipping see a single
//! slice; [`GruShape`] knows where each block starts.

use crate::error::{Error, Result, Rule};
use crate::math;
use crate::nn::categorical;
use crate::nn::linear::Linear;
use crate::nn::sequence_policy::{PolicyCost, PolicyTape, SequencePolicy};
use crate::rng::{self, Rng};

/// Sizes of the network: the input vocabulary, the embedding and hidden widths, and the number
/// of output logits (the actions the policy can emit, which may be fewer than the vocabulary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GruShape {
    /// Number of input token ids (embedding rows).
    pub vocab: usize,
    /// Embedding width E.
    pub embed: usize,
    /// Hidden width H.
    pub hidden: usize,
    /// Number of output logits A.
    pub outputs: usize,
}

/// The parameter blocks in their order inside the flat vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GruBlock {
    /// Embedding table `[V, E]`.
    Embedding,
    /// Input-to-hidden weights W_ih `[3H, E]` (gates r, z, n), stored transposed `[E][3H]` as
    /// [`Linear`] lays weights out.
    WeightIh,
    /// Hidden-to-hidden weights W_hh `[3H, H]`, stored `[H][3H]`.
    WeightHh,
    /// Input-side biases `[3H]`.
    BiasIh,
    /// Hidden-side biases `[3H]`.
    BiasHh,
    /// Head weights W_out `[A, H]`, stored `[H][A]`.
    WeightOut,
    /// Head biases `[A]`.
    BiasOut,
}

impl GruBlock {
    /// Every block, in storage order.
    pub const ALL: [GruBlock; 7] = [
        GruBlock::Embedding,
        GruBlock::WeightIh,
        GruBlock::WeightHh,
        GruBlock::BiasIh,
        GruBlock::BiasHh,
        GruBlock::WeightOut,
        GruBlock::BiasOut,
    ];
}

impl GruShape {
    /// Number of parameters in `block`.
    pub fn block_len(&self, block: GruBlock) -> usize {
        let (v, e, h, a) = (self.vocab, self.embed, self.hidden, self.outputs);
        match block {
            GruBlock::Embedding => v * e,
            GruBlock::WeightIh => 3 * h * e,
            GruBlock::WeightHh => 3 * h * h,
            GruBlock::BiasIh | GruBlock::BiasHh => 3 * h,
            GruBlock::WeightOut => a * h,
            GruBlock::BiasOut => a,
        }
    }

    /// The range of `block` inside the flat parameter vector.
    pub fn block_range(&self, block: GruBlock) -> std::ops::Range<usize> {
        let start: usize = GruBlock::ALL
            .iter()
            .take_while(|b| **b != block)
            .map(|b| self.block_len(*b))
            .sum();
        start..start + self.block_len(block)
    }

    /// Total number of parameters.
    pub fn num_params(&self) -> usize {
        GruBlock::ALL.iter().map(|b| self.block_len(*b)).sum()
    }

    fn validate(&self) -> Result<()> {
        for (name, value) in [
            ("vocab", self.vocab),
            ("embed", self.embed),
            ("hidden", self.hidden),
            ("outputs", self.outputs),
        ] {
            if value == 0 {
                return Err(Error::range(name, Rule::at_least(1.0), value));
            }
        }
        Ok(())
    }
}

/// Start offsets of each block, computed once.
#[derive(Debug, Clone, Copy)]
struct Offsets {
    emb: usize,
    w_ih: usize,
    w_hh: usize,
    b_ih: usize,
    b_hh: usize,
    w_out: usize,
    b_out: usize,
}

impl Offsets {
    fn new(shape: &GruShape) -> Self {
        let at = |b| shape.block_range(b).start;
        Offsets {
            emb: at(GruBlock::Embedding),
            w_ih: at(GruBlock::WeightIh),
            w_hh: at(GruBlock::WeightHh),
            b_ih: at(GruBlock::BiasIh),
            b_hh: at(GruBlock::BiasHh),
            w_out: at(GruBlock::WeightOut),
            b_out: at(GruBlock::BiasOut),
        }
    }
}

/// The network: its shape and flat parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Gru {
    shape: GruShape,
    /// All parameters, blocks in [`GruBlock::ALL`] order.
    pub params: Vec<f64>,
}

/// What one cell step leaves behind for the backward pass.
#[derive(Debug, Clone)]
struct StepCache {
    /// Gate activations r, z, n (`3H`).
    gates: Vec<f64>,
    /// W_hn h + b_hn (`H`), the term the reset gate multiplies.
    hn: Vec<f64>,
}

/// Everything [`Gru::forward`] computes that [`Gru::backward`] needs: hidden states, gate
/// activations and log-probabilities for `B` sequences of `S` input tokens.
#[derive(Debug, Clone)]
pub struct GruTape {
    batch: usize,
    steps: usize,
    inputs: Vec<usize>,
    /// `[B, S + 1, H]`: the state before step 0 (zeros) and after every step.
    hidden: Vec<f64>,
    /// `[B, S, 3H]` gate activations r, z, n.
    gates: Vec<f64>,
    /// `[B, S, H]` W_hn h + b_hn.
    hn: Vec<f64>,
    /// `[B, S, A]` log-softmax of the logits.
    log_probs: Vec<f64>,
    outputs: usize,
}

impl GruTape {
    /// Number of sequences.
    pub fn batch(&self) -> usize {
        self.batch
    }

    /// Number of input steps per sequence.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Log-probabilities of the `A` outputs after input step `t` of sequence `b`.
    pub fn log_probs(&self, b: usize, t: usize) -> &[f64] {
        let a = self.outputs;
        let i = (b * self.steps + t) * a;
        &self.log_probs[i..i + a]
    }
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + math::exp(-x))
}

impl Gru {
    /// A network with PyTorch's GRU initialisation U(−1/√H, 1/√H) for the cell, N(0, 1)
    /// embeddings, and a head scaled down by `head_scale` so that the first policy is close to
    /// uniform (every answer gets explored).
    pub fn new(shape: GruShape, head_scale: f64, rng: &mut Rng) -> Result<Self> {
        shape.validate()?;
        let mut params = vec![0.0; shape.num_params()];
        let bound = 1.0 / (shape.hidden as f64).sqrt();
        for block in GruBlock::ALL {
            let range = shape.block_range(block);
            // Weights are drawn row by row of W (one output's inputs after another, as
            // PyTorch lays them out) and stored as [`Linear`] does, transposed.
            let (outputs, inputs) = match block {
                GruBlock::WeightIh => (3 * shape.hidden, shape.embed),
                GruBlock::WeightHh => (3 * shape.hidden, shape.hidden),
                GruBlock::WeightOut => (shape.outputs, shape.hidden),
                _ => (1, range.len()),
            };
            for k in 0..range.len() {
                let (out, inp) = (k / inputs, k % inputs);
                params[range.start + inp * outputs + out] = match block {
                    GruBlock::Embedding => rng::normal(rng),
                    GruBlock::WeightOut | GruBlock::BiasOut => {
                        head_scale * rng::uniform_in(rng, -bound, bound)
                    }
                    _ => rng::uniform_in(rng, -bound, bound),
                };
            }
        }
        Ok(Gru { shape, params })
    }

    /// A network with the given parameters (length must match the shape).
    pub fn from_params(shape: GruShape, params: Vec<f64>) -> Result<Self> {
        shape.validate()?;
        if params.len() != shape.num_params() {
            return Err(Error::shape(
                "params",
                vec![shape.num_params()],
                vec![params.len()],
            ));
        }
        Ok(Gru { shape, params })
    }

    /// The network's sizes.
    pub fn shape(&self) -> GruShape {
        self.shape
    }

    /// The zero state every sequence starts from.
    pub fn initial_state(&self) -> Vec<f64> {
        vec![0.0; self.shape.hidden]
    }

    /// One cell step: reads `token`, turns `state` into the next state in place and writes the
    /// log-probabilities of the next output into `log_probs` (`A` values). Used for sampling;
    /// [`Gru::forward`] runs the same arithmetic, so both give bit-identical log-probs.
    pub fn step(&self, token: usize, state: &mut [f64], log_probs: &mut [f64]) -> Result<()> {
        self.check_token(token)?;
        let mut cache = StepCache {
            gates: vec![0.0; 3 * self.shape.hidden],
            hn: vec![0.0; self.shape.hidden],
        };
        let mut next = vec![0.0; self.shape.hidden];
        self.cell(token, state, &mut next, &mut cache.gates, &mut cache.hn);
        state.copy_from_slice(&next);
        self.head(state, log_probs);
        Ok(())
    }

    fn check_token(&self, token: usize) -> Result<()> {
        if token < self.shape.vocab {
            Ok(())
        } else {
            Err(Error::range(
                "token",
                Rule::IndexBelow(self.shape.vocab),
                token,
            ))
        }
    }

    /// The cell's two dense layers: embedding → three gates, state → three gates.
    fn layers(&self) -> (Linear, Linear) {
        let (e, hd) = (self.shape.embed, self.shape.hidden);
        let gates = 3 * hd;
        (
            Linear {
                inputs: e,
                outputs: gates,
            },
            Linear {
                inputs: hd,
                outputs: gates,
            },
        )
    }

    /// The GRU cell: `h_next` from `token` and `h`, keeping gates and `W_hn h + b_hn`.
    fn cell(&self, token: usize, h: &[f64], h_next: &mut [f64], gates: &mut [f64], hn: &mut [f64]) {
        let (e, hd) = (self.shape.embed, self.shape.hidden);
        let o = Offsets::new(&self.shape);
        let p = &self.params;
        let x = &p[o.emb + token * e..o.emb + (token + 1) * e];
        // Pre-activations from the input and from the state, all three gates at once.
        let mut gi = vec![0.0; 3 * hd];
        let mut gh = vec![0.0; 3 * hd];
        let (input, state) = self.layers();
        input.forward_one(
            &p[o.w_ih..o.w_ih + 3 * hd * e],
            &p[o.b_ih..o.b_ih + 3 * hd],
            x,
            &mut gi,
        );
        state.forward_one(
            &p[o.w_hh..o.w_hh + 3 * hd * hd],
            &p[o.b_hh..o.b_hh + 3 * hd],
            h,
            &mut gh,
        );
        for j in 0..hd {
            let r = sigmoid(gi[j] + gh[j]);
            let z = sigmoid(gi[hd + j] + gh[hd + j]);
            let n = math::tanh(gi[2 * hd + j] + r * gh[2 * hd + j]);
            gates[j] = r;
            gates[hd + j] = z;
            gates[2 * hd + j] = n;
            hn[j] = gh[2 * hd + j];
            h_next[j] = (1.0 - z) * n + z * h[j];
        }
    }

    /// The backward pass of [`Gru::cell`]: given `dh = ∂loss/∂h'`, adds the gradients of the
    /// cell's parameters and of the embedding row of `token` into `grad`, and turns `dh` into
    /// `∂loss/∂h_prev`.
    fn cell_backward(
        &self,
        token: usize,
        h_prev: &[f64],
        gates: &[f64],
        hn: &[f64],
        dh: &mut [f64],
        grad: &mut [f64],
    ) {
        let (e, hd) = (self.shape.embed, self.shape.hidden);
        let o = Offsets::new(&self.shape);
        let p = &self.params;
        let mut d_pre_i = vec![0.0; 3 * hd]; // d loss / d (W_ih e + b_ih)
        let mut d_pre_h = vec![0.0; 3 * hd]; // d loss / d (W_hh h + b_hh)
                                             // h' = (1 − z) n + z h_prev, n = tanh(a_n), a_n = W_in x + b_in + r ⊙ (W_hn h + b_hn).
        for j in 0..hd {
            let (r, z, n) = (gates[j], gates[hd + j], gates[2 * hd + j]);
            let dn = dh[j] * (1.0 - z);
            let dz = dh[j] * (h_prev[j] - n);
            let da_n = dn * (1.0 - n * n);
            let dr = da_n * hn[j];
            d_pre_i[j] = dr * r * (1.0 - r);
            d_pre_i[hd + j] = dz * z * (1.0 - z);
            d_pre_i[2 * hd + j] = da_n;
            d_pre_h[j] = d_pre_i[j];
            d_pre_h[hd + j] = d_pre_i[hd + j];
            d_pre_h[2 * hd + j] = da_n * r;
            // The direct path through z ⊙ h_prev; the matrix path is added below.
            dh[j] *= z;
        }
        // Input side: W_ih, b_ih and the embedding row of the token read.
        let x = &p[o.emb + token * e..o.emb + (token + 1) * e];
        let mut dx = vec![0.0; e];
        let (gw, gb) = grad_pair(grad, o.w_ih, o.b_ih, 3 * hd * e, 3 * hd);
        let (input, state) = self.layers();
        input.backward_one(
            &p[o.w_ih..o.w_ih + 3 * hd * e],
            x,
            &d_pre_i,
            gw,
            gb,
            &mut dx,
        );
        let ge = &mut grad[o.emb + token * e..o.emb + (token + 1) * e];
        ge.iter_mut().zip(&dx).for_each(|(g, d)| *g += d);
        // State side: W_hh, b_hh and the gradient flowing to the previous state.
        let (gw, gb) = grad_pair(grad, o.w_hh, o.b_hh, 3 * hd * hd, 3 * hd);
        state.backward_one(
            &p[o.w_hh..o.w_hh + 3 * hd * hd],
            h_prev,
            &d_pre_h,
            gw,
            gb,
            dh,
        );
    }

    /// The head: log-softmax of `W_out h + b_out`.
    fn head(&self, h: &[f64], log_probs: &mut [f64]) {
        let (hd, a) = (self.shape.hidden, self.shape.outputs);
        let o = Offsets::new(&self.shape);
        let head = Linear {
            inputs: hd,
            outputs: a,
        };
        head.forward_one(
            &self.params[o.w_out..o.w_out + a * hd],
            &self.params[o.b_out..o.b_out + a],
            h,
            log_probs,
        );
        categorical::log_softmax_in_place(log_probs);
    }

    /// Runs `B` sequences of equal length `S` (`inputs[b][t]` is the token read at step `t`)
    /// from the zero state and records everything the backward pass needs.
    pub fn forward(&self, inputs: &[Vec<usize>]) -> Result<GruTape> {
        let batch = inputs.len();
        let steps = inputs.first().map_or(0, Vec::len);
        if inputs.iter().any(|row| row.len() != steps) {
            let b = inputs
                .iter()
                .position(|row| row.len() != steps)
                .unwrap_or(0);
            return Err(Error::shape(
                format!("inputs[{b}]"),
                vec![steps],
                vec![inputs[b].len()],
            ));
        }
        let (hd, a) = (self.shape.hidden, self.shape.outputs);
        let mut tape = GruTape {
            batch,
            steps,
            inputs: Vec::with_capacity(batch * steps),
            hidden: vec![0.0; batch * (steps + 1) * hd],
            gates: vec![0.0; batch * steps * 3 * hd],
            hn: vec![0.0; batch * steps * hd],
            log_probs: vec![0.0; batch * steps * a],
            outputs: a,
        };
        for (b, row) in inputs.iter().enumerate() {
            for (t, &token) in row.iter().enumerate() {
                self.check_token(token)?;
                tape.inputs.push(token);
                let hs = (b * (steps + 1) + t) * hd;
                let (before, after) = tape.hidden.split_at_mut(hs + hd);
                let g = (b * steps + t) * 3 * hd;
                let n = (b * steps + t) * hd;
                self.cell(
                    token,
                    &before[hs..hs + hd],
                    &mut after[..hd],
                    &mut tape.gates[g..g + 3 * hd],
                    &mut tape.hn[n..n + hd],
                );
                let l = (b * steps + t) * a;
                self.head(&after[..hd], &mut tape.log_probs[l..l + a]);
            }
        }
        Ok(tape)
    }

    /// Backpropagation through time. `d_logits` is `[B, S, A]`: the gradient of a scalar loss
    /// with respect to every logit (for a loss on log-probabilities the caller applies the
    /// log-softmax Jacobian). Returns the gradient for every parameter, flat like `params`.
    /// Rows are walked back only from their last step with a non-zero gradient: later steps
    /// (padding) cannot influence earlier ones.
    pub fn backward(&self, tape: &GruTape, d_logits: &[f64]) -> Result<Vec<f64>> {
        let (hd, a) = (self.shape.hidden, self.shape.outputs);
        let (batch, steps) = (tape.batch, tape.steps);
        if d_logits.len() != batch * steps * a {
            return Err(Error::shape(
                "d_logits",
                vec![batch, steps, a],
                vec![d_logits.len()],
            ));
        }
        let o = Offsets::new(&self.shape);
        let p = &self.params;
        let mut grad = vec![0.0; self.params.len()];
        let mut dh = vec![0.0; hd];
        for b in 0..batch {
            let row = &d_logits[b * steps * a..(b + 1) * steps * a];
            let Some(last) = (0..steps)
                .rev()
                .find(|&t| row[t * a..(t + 1) * a].iter().any(|&d| d != 0.0))
            else {
                continue;
            };
            dh.iter_mut().for_each(|x| *x = 0.0);
            for t in (0..=last).rev() {
                let h_prev_at = (b * (steps + 1) + t) * hd;
                let h_prev = &tape.hidden[h_prev_at..h_prev_at + hd];
                let h = &tape.hidden[h_prev_at + hd..h_prev_at + 2 * hd];
                // Head: logits = W_out h + b_out.
                let dl = &row[t * a..(t + 1) * a];
                let (gw, gb) = grad_pair(&mut grad, o.w_out, o.b_out, a * hd, a);
                let head = Linear {
                    inputs: hd,
                    outputs: a,
                };
                head.backward_one(&p[o.w_out..o.w_out + a * hd], h, dl, gw, gb, &mut dh);
                let g = (b * steps + t) * 3 * hd;
                let n = (b * steps + t) * hd;
                self.cell_backward(
                    tape.inputs[b * steps + t],
                    h_prev,
                    &tape.gates[g..g + 3 * hd],
                    &tape.hn[n..n + hd],
                    &mut dh,
                    &mut grad,
                );
            }
        }
        Ok(grad)
    }
}

/// The gradient slices of a weight block and its bias block (`w_at < b_at`, disjoint).
fn grad_pair(
    grad: &mut [f64],
    w_at: usize,
    b_at: usize,
    w_len: usize,
    b_len: usize,
) -> (&mut [f64], &mut [f64]) {
    let (head, tail) = grad.split_at_mut(b_at);
    (&mut head[w_at..w_at + w_len], &mut tail[..b_len])
}

impl PolicyTape for GruTape {
    fn batch(&self) -> usize {
        self.batch
    }
    fn steps(&self) -> usize {
        self.steps
    }
    fn log_probs(&self, b: usize, t: usize) -> &[f64] {
        GruTape::log_probs(self, b, t)
    }
}

/// The GRU behind the sequence trainer's seam: its own methods, unchanged.
impl SequencePolicy for Gru {
    type Scalar = f64;
    type Shape = GruShape;
    type State = Vec<f64>;
    type Tape = GruTape;

    fn init(shape: GruShape, head_scale: f64, rng: &mut Rng) -> Result<Self> {
        Gru::new(shape, head_scale, rng)
    }
    fn cost(shape: &GruShape) -> PolicyCost {
        let (e, h, a) = (shape.embed, shape.hidden, shape.outputs);
        // Three gates over the embedding and the state, then the head: one token at a time,
        // in sampling and in the batched forward alike.
        let macs = (3 * (e + h) * h + h * a) as f64;
        PolicyCost {
            params: shape.num_params() as u64,
            scalar_bytes: 8,
            // The state before and after, three gates, W_hn h, the embedding read, and the
            // log-probabilities with their gradient and the loss's scratch per output.
            tape_per_token: (6 * h + e + 3 * shape.vocab) as u64,
            state: h as u64,
            step_macs: macs,
            forward_macs: macs,
            forward_blocked_share: 0.0,
        }
    }
    fn shape(&self) -> GruShape {
        self.shape
    }
    fn outputs(&self) -> usize {
        self.shape.outputs
    }
    fn params(&self) -> &[f64] {
        &self.params
    }
    fn params_mut(&mut self) -> &mut [f64] {
        &mut self.params
    }
    fn initial_state(&self) -> Vec<f64> {
        Gru::initial_state(self)
    }
    fn step(&self, token: usize, state: &mut Vec<f64>, log_probs: &mut [f64]) -> Result<()> {
        Gru::step(self, token, state, log_probs)
    }
    fn forward(&self, inputs: &[Vec<usize>]) -> Result<GruTape> {
        Gru::forward(self, inputs)
    }
    fn backward(&self, tape: &GruTape, d_logits: &[f64]) -> Result<Vec<f64>> {
        Gru::backward(self, tape, d_logits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_parameter_count_or_an_empty_width_is_an_error() {
        let shape = GruShape {
            vocab: 7,
            embed: 3,
            hidden: 4,
            outputs: 5,
        };
        assert!(Gru::from_params(shape, vec![0.0; 3]).is_err());
        let zero = GruShape { hidden: 0, ..shape };
        assert!(Gru::new(zero, 1.0, &mut crate::rng::seeded(1)).is_err());
    }
}
