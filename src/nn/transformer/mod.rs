//! A decoder-only transformer policy, written by hand like the GRU: token and learned position
//! embeddings ([`embedding`]), pre-norm blocks ([`block`]: RMSNorm ([`norm`]), causal
//! multi-head self-attention ([`attention`]), a GELU MLP ([`mlp`]), each with its residual),
//! a final RMSNorm and a linear head over the actions. Each layer's backward stands beside its
//! forward; `tests/transformer_gradcheck.rs` checks each against finite differences, and
//! `tests/policy_contract.rs` the whole network (f32 and f64).
//!
//! Generic over the scalar ([`Scalar`]: f32 trains with twice the SIMD lanes); the products
//! run through the blocked GEMM kernels ([`crate::nn::Linear`]), the log-probabilities come
//! out in f64. Sampling reads one token at a time through a KV cache ([`kv_cache`]) with the
//! same arithmetic, in the same order, as the batched forward: the same bits.
//!
//! All parameters live in one flat vector: the embeddings, each block's (norm gain,
//! attention's `W_qkv b_qkv W_o b_o`, norm gain, the MLP's `W_1 b_1 W_2 b_2`), the final
//! norm's gain, the head's `W b`. Weights are stored `[inputs][outputs]` as
//! [`crate::nn::Linear`] lays them out.

pub mod attention;
pub mod block;
pub mod embedding;
pub mod kv_cache;
pub mod mlp;
pub mod norm;

pub use kv_cache::KvCache;

use crate::error::{Error, Result, Rule};
use crate::nn::categorical;
use crate::nn::sequence_policy::{PolicyCost, PolicyTape, SequencePolicy};
use crate::nn::{Linear, Scalar};
use crate::rng::{self, Rng};
use block::{Block, BlockTape};
use embedding::Embedding;
use norm::RmsNorm;

/// The network's sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct TransformerShape {
    /// Input tokens.
    pub vocab: usize,
    /// Output logits (actions).
    pub outputs: usize,
    /// Width of the residual stream, d_model.
    pub model: usize,
    /// Attention heads per block (`model` must be a multiple).
    pub heads: usize,
    /// Blocks.
    pub layers: usize,
    /// Width of each block's MLP.
    pub mlp: usize,
    /// The longest row the network reads (learned positions).
    pub context: usize,
}

impl TransformerShape {
    fn validate(&self) -> Result<()> {
        for (name, value) in [
            ("vocab", self.vocab),
            ("outputs", self.outputs),
            ("model", self.model),
            ("heads", self.heads),
            ("layers", self.layers),
            ("mlp", self.mlp),
            ("context", self.context),
        ] {
            if value == 0 {
                return Err(Error::range(name, Rule::at_least(1.0), value));
            }
        }
        if self.model % self.heads != 0 {
            let rule = Rule::MultipleOf {
                what: "heads".into(),
                of: self.heads as u64,
            };
            return Err(Error::range("model", rule, self.model));
        }
        Ok(())
    }

    fn embedding(&self) -> Embedding {
        Embedding {
            vocab: self.vocab,
            context: self.context,
            dim: self.model,
        }
    }

    fn block(&self) -> Block {
        Block::new(self.model, self.heads, self.mlp)
    }

    fn head(&self) -> Linear {
        Linear {
            inputs: self.model,
            outputs: self.outputs,
        }
    }

    /// Where block `l`'s parameters start.
    fn block_start(&self, l: usize) -> usize {
        self.embedding().num_params() + l * self.block().num_params()
    }

    /// Where the final norm's gain starts (the head follows it).
    fn final_start(&self) -> usize {
        self.block_start(self.layers)
    }

    /// Total number of parameters.
    pub fn num_params(&self) -> usize {
        self.final_start() + self.model + self.head().weights() + self.outputs
    }

    /// Multiply-adds of one token at position `position` (its query reads `position + 1`
    /// keys), and how many of them are the dense layers'.
    fn macs_at(&self, position: f64) -> (f64, f64) {
        let (d, f) = (self.model as f64, self.mlp as f64);
        let dense = self.layers as f64 * (4.0 * d * d + 2.0 * d * f) + d * self.outputs as f64;
        // Scores and the weighted sum of values: 2·d per key read.
        let attention = self.layers as f64 * 2.0 * (position + 1.0) * d;
        (dense + attention, dense)
    }
}

/// The network: its shape and its parameters in the scalar `S`.
#[derive(Debug, Clone, PartialEq)]
pub struct Transformer<S: Scalar = f32> {
    shape: TransformerShape,
    /// All parameters, flat (see the module's doc for their order).
    pub params: Vec<S>,
}

/// What [`Transformer::forward`] keeps for the backward pass.
#[derive(Debug, Clone)]
pub struct TransformerTape<S> {
    batch: usize,
    steps: usize,
    tokens: Vec<usize>,
    blocks: Vec<BlockTape<S>>,
    /// The stream after the last block, its normalised copy and each row's 1/rms.
    x_last: Vec<S>,
    normed: Vec<S>,
    inv: Vec<S>,
    /// `[B, S, A]` log-softmax of the logits, in f64.
    log_probs: Vec<f64>,
    outputs: usize,
}

impl<S> TransformerTape<S> {
    /// Attention weights of block `layer`, head `head`, for query `t` of row `b` over keys
    /// `0..=t`.
    pub fn attention(&self, layer: usize, b: usize, head: usize, t: usize) -> &[S] {
        let heads =
            self.blocks[layer].attention.probs.len() / (self.batch * self.steps * self.steps);
        let at = ((b * heads + head) * self.steps + t) * self.steps;
        &self.blocks[layer].attention.probs[at..at + t + 1]
    }
}

impl<S> PolicyTape for TransformerTape<S> {
    fn batch(&self) -> usize {
        self.batch
    }
    fn steps(&self) -> usize {
        self.steps
    }
    fn log_probs(&self, b: usize, t: usize) -> &[f64] {
        let i = (b * self.steps + t) * self.outputs;
        &self.log_probs[i..i + self.outputs]
    }
}

impl<S: Scalar> Transformer<S> {
    /// A fresh network: embeddings N(0, 1), dense weights U(±1/√fan_in) (the blocks' output
    /// projections scaled by 1/√(2·layers), GPT-2's residual scaling), biases 0, norm gains
    /// 1, and the head scaled by `head_scale`.
    pub fn new(shape: TransformerShape, head_scale: f64, rng: &mut Rng) -> Result<Self> {
        shape.validate()?;
        let mut params = Vec::with_capacity(shape.num_params());
        let normal = |rng: &mut Rng, n: usize, out: &mut Vec<S>| {
            out.extend((0..n).map(|_| S::from_f64(rng::normal(rng))));
        };
        let uniform = |rng: &mut Rng, n: usize, fan_in: usize, scale: f64, out: &mut Vec<S>| {
            let bound = 1.0 / (fan_in as f64).sqrt();
            out.extend((0..n).map(|_| S::from_f64(scale * rng::uniform_in(rng, -bound, bound))));
        };
        let fill = |n: usize, v: f64, out: &mut Vec<S>| out.extend((0..n).map(|_| S::from_f64(v)));
        let (d, f) = (shape.model, shape.mlp);
        normal(rng, shape.embedding().num_params(), &mut params);
        let residual = 1.0 / (2.0 * shape.layers as f64).sqrt();
        for _ in 0..shape.layers {
            fill(d, 1.0, &mut params);
            uniform(rng, 3 * d * d, d, 1.0, &mut params);
            fill(3 * d, 0.0, &mut params);
            uniform(rng, d * d, d, residual, &mut params);
            fill(d, 0.0, &mut params);
            fill(d, 1.0, &mut params);
            uniform(rng, d * f, d, 1.0, &mut params);
            fill(f, 0.0, &mut params);
            uniform(rng, f * d, f, residual, &mut params);
            fill(d, 0.0, &mut params);
        }
        fill(d, 1.0, &mut params);
        uniform(rng, d * shape.outputs, d, head_scale, &mut params);
        fill(shape.outputs, 0.0, &mut params);
        debug_assert_eq!(params.len(), shape.num_params());
        Ok(Transformer { shape, params })
    }

    /// A network with the given parameters (their count must match the shape).
    pub fn from_params(shape: TransformerShape, params: Vec<S>) -> Result<Self> {
        shape.validate()?;
        if params.len() != shape.num_params() {
            let (want, got) = (vec![shape.num_params()], vec![params.len()]);
            return Err(Error::shape("params", want, got));
        }
        Ok(Transformer { shape, params })
    }

    /// The network's sizes.
    pub fn shape(&self) -> TransformerShape {
        self.shape
    }

    fn check_token(&self, token: usize) -> Result<()> {
        if token < self.shape.vocab {
            Ok(())
        } else {
            let rule = Rule::IndexBelow(self.shape.vocab);
            Err(Error::range("token", rule, token))
        }
    }

    /// The final norm and the head on `rows` rows of the stream: log-probabilities in f64
    /// into `log_probs`; the normalised rows and their 1/rms into `normed` and `inv`.
    fn head(&self, x: &[S], rows: usize, normed: &mut [S], inv: &mut [S], log_probs: &mut [f64]) {
        let (d, a) = (self.shape.model, self.shape.outputs);
        let at = self.shape.final_start();
        let norm = RmsNorm { dim: d };
        norm.forward(&self.params[at..at + d], x, normed, inv);
        let head = self.shape.head();
        let w = &self.params[at + d..at + d + head.weights()];
        let b = &self.params[at + d + head.weights()..];
        let mut logits = Vec::new();
        head.forward(w, b, normed, rows, &mut logits);
        for (lp, row) in log_probs.chunks_exact_mut(a).zip(logits.chunks_exact(a)) {
            lp.iter_mut().zip(row).for_each(|(o, &z)| *o = z.to_f64());
            categorical::log_softmax_in_place(lp);
        }
    }

    /// Runs `B` rows of `S` tokens from position 0 and keeps what the backward pass needs.
    pub fn forward(&self, inputs: &[Vec<usize>]) -> Result<TransformerTape<S>> {
        let batch = inputs.len();
        let steps = inputs.first().map_or(0, Vec::len);
        if let Some(b) = inputs.iter().position(|row| row.len() != steps) {
            let got = vec![inputs[b].len()];
            return Err(Error::shape(format!("inputs[{b}]"), vec![steps], got));
        }
        if steps > self.shape.context {
            let rule = Rule::at_most(self.shape.context as f64);
            return Err(Error::range("steps", rule, steps));
        }
        let tokens: Vec<usize> = inputs.iter().flatten().copied().collect();
        for &token in &tokens {
            self.check_token(token)?;
        }
        let (d, n) = (self.shape.model, batch * steps);
        let mut x = vec![S::ZERO; n * d];
        let embedding = self.shape.embedding();
        embedding.forward(
            &self.params[..embedding.num_params()],
            &tokens,
            steps,
            &mut x,
        );
        let block = self.shape.block();
        let blocks = (0..self.shape.layers)
            .map(|l| {
                let at = self.shape.block_start(l);
                block.forward(
                    &self.params[at..at + block.num_params()],
                    &mut x,
                    batch,
                    steps,
                )
            })
            .collect();
        let (mut normed, mut inv) = (vec![S::ZERO; n * d], vec![S::ZERO; n]);
        let mut log_probs = vec![0.0; n * self.shape.outputs];
        self.head(&x, n, &mut normed, &mut inv, &mut log_probs);
        Ok(TransformerTape {
            batch,
            steps,
            tokens,
            blocks,
            x_last: x,
            normed,
            inv,
            log_probs,
            outputs: self.shape.outputs,
        })
    }

    /// The gradient of a loss with respect to every parameter, given `d_logits` `[B, S, A]`.
    pub fn backward(&self, tape: &TransformerTape<S>, d_logits: &[f64]) -> Result<Vec<S>> {
        let (d, a) = (self.shape.model, self.shape.outputs);
        let (batch, steps) = (tape.batch, tape.steps);
        let n = batch * steps;
        if d_logits.len() != n * a {
            let want = vec![batch, steps, a];
            return Err(Error::shape("d_logits", want, vec![d_logits.len()]));
        }
        let mut grad = vec![S::ZERO; self.params.len()];
        let d_logits: Vec<S> = d_logits.iter().map(|&g| S::from_f64(g)).collect();
        // The head, then the final norm.
        let at = self.shape.final_start();
        let head = self.shape.head();
        let (g_norm, g_head) = grad[at..].split_at_mut(d);
        let (gw, gb) = g_head.split_at_mut(head.weights());
        head.backward_params(&tape.normed, n, &d_logits, gw, gb);
        let (mut w_t, mut d_normed) = (Vec::new(), Vec::new());
        let w = &self.params[at + d..at + d + head.weights()];
        head.backward_input(w, &d_logits, n, &mut w_t, &mut d_normed);
        let mut dx = vec![S::ZERO; n * d];
        let g = &self.params[at..at + d];
        RmsNorm { dim: d }.backward(g, &tape.x_last, &tape.inv, &d_normed, g_norm, &mut dx);
        // The blocks, last first, then the embeddings.
        let block = self.shape.block();
        for (l, block_tape) in tape.blocks.iter().enumerate().rev() {
            let range = self.shape.block_start(l)..self.shape.block_start(l + 1);
            let params = &self.params[range.clone()];
            block.backward(params, block_tape, &mut dx, batch, steps, &mut grad[range]);
        }
        let embedding = self.shape.embedding();
        embedding.backward(
            &tape.tokens,
            steps,
            &dx,
            &mut grad[..embedding.num_params()],
        );
        Ok(grad)
    }
}

impl<S: Scalar> SequencePolicy for Transformer<S> {
    type Scalar = S;
    type Shape = TransformerShape;
    type State = KvCache<S>;
    type Tape = TransformerTape<S>;

    fn init(shape: TransformerShape, head_scale: f64, rng: &mut Rng) -> Result<Self> {
        Transformer::new(shape, head_scale, rng)
    }
    fn cost(shape: &TransformerShape) -> PolicyCost {
        let (d, f, h) = (shape.model as u64, shape.mlp as u64, shape.heads as u64);
        let (c, a) = (shape.context as u64, shape.outputs as u64);
        // Per block: the stream in, two normed copies and their 1/rms, q k v, the weights of
        // each head over the row's positions, the heads' outputs, the stream in the middle,
        // the MLP's pre-activations and activations; then the final norm and the logits, and
        // the backward pass's gradients of one block's activations at a time.
        let per_block = 8 * d + 2 * f + 2 + h * c;
        let tape = shape.layers as u64 * per_block + 3 * d + 1 + a + 8 * d + f;
        let (step, dense) = shape.macs_at(shape.context as f64 / 2.0);
        PolicyCost {
            params: shape.num_params() as u64,
            scalar_bytes: std::mem::size_of::<S>() as u64,
            tape_per_token: tape,
            state: 2 * shape.layers as u64 * c * d,
            step_macs: step,
            forward_macs: step,
            forward_blocked_share: dense / step,
        }
    }
    fn shape(&self) -> TransformerShape {
        self.shape
    }
    fn outputs(&self) -> usize {
        self.shape.outputs
    }
    fn params(&self) -> &[S] {
        &self.params
    }
    fn params_mut(&mut self) -> &mut [S] {
        &mut self.params
    }
    fn initial_state(&self) -> KvCache<S> {
        KvCache::new(self.shape.layers)
    }
    fn step(&self, token: usize, state: &mut KvCache<S>, log_probs: &mut [f64]) -> Result<()> {
        self.step_traced(token, state, log_probs, None)
    }
    fn forward(&self, inputs: &[Vec<usize>]) -> Result<TransformerTape<S>> {
        Transformer::forward(self, inputs)
    }
    fn backward(&self, tape: &TransformerTape<S>, d_logits: &[f64]) -> Result<Vec<S>> {
        Transformer::backward(self, tape, d_logits)
    }
}
