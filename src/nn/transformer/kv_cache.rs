//! Sampling one token at a time: the keys and values of the positions read so far, per block,
//! and the incremental step that reads the next token through them. Each block's step is the
//! batched forward's arithmetic on one row (the same GEMM kernels, the same [`attend`]), so a
//! sampled token's log-probabilities are bit for bit those the batched forward computes for it
//! — the first PPO epoch's ratio is exactly 1.
//!
//! [`attend`]: super::attention::attend

use super::attention::LayerCache;
use super::Transformer;
use crate::error::{Error, Result, Rule};
use crate::nn::Scalar;

/// What a sampled sequence has read: its length and each block's keys and values.
#[derive(Debug, Clone, PartialEq)]
pub struct KvCache<S> {
    position: usize,
    layers: Vec<LayerCache<S>>,
}

impl<S> KvCache<S> {
    /// Empty, for a network of `layers` blocks.
    pub fn new(layers: usize) -> Self {
        KvCache {
            position: 0,
            layers: (0..layers)
                .map(|_| LayerCache {
                    keys: Vec::new(),
                    values: Vec::new(),
                })
                .collect(),
        }
    }

    /// Tokens read so far (the position the next one takes).
    pub fn position(&self) -> usize {
        self.position
    }
}

impl<S: Scalar> Transformer<S> {
    /// Reads `token` at the cache's next position, extends the cache, and writes the
    /// log-probabilities of the next output into `log_probs`. With `weights`, also each
    /// block's attention weights of this token (`weights[layer]`: `[heads, positions]`, f64).
    pub fn step_traced(
        &self,
        token: usize,
        cache: &mut KvCache<S>,
        log_probs: &mut [f64],
        mut weights: Option<&mut Vec<Vec<f64>>>,
    ) -> Result<()> {
        let shape = self.shape();
        self.check_token(token)?;
        if cache.position >= shape.context {
            let rule = Rule::at_most(shape.context as f64);
            return Err(Error::range("steps", rule, cache.position + 1));
        }
        if cache.layers.len() != shape.layers {
            let (want, got) = (vec![shape.layers], vec![cache.layers.len()]);
            return Err(Error::shape("cache", want, got));
        }
        if log_probs.len() != shape.outputs {
            let (want, got) = (vec![shape.outputs], vec![log_probs.len()]);
            return Err(Error::shape("log_probs", want, got));
        }
        let d = shape.model;
        let mut x = vec![S::ZERO; d];
        let embedding = shape.embedding();
        let table = &self.params[..embedding.num_params()];
        embedding.row(table, token, cache.position, &mut x);
        let block = shape.block();
        let mut probs = Vec::new();
        if let Some(w) = weights.as_deref_mut() {
            w.clear();
        }
        for (l, layer) in cache.layers.iter_mut().enumerate() {
            let at = shape.block_start(l);
            block.step(
                &self.params[at..at + block.num_params()],
                &mut x,
                layer,
                &mut probs,
            );
            if let Some(w) = weights.as_deref_mut() {
                w.push(probs.iter().map(|p| p.to_f64()).collect());
            }
        }
        let (mut normed, mut inv) = (vec![S::ZERO; d], [S::ZERO]);
        self.head(&x, 1, &mut normed, &mut inv, log_probs);
        cache.position += 1;
        Ok(())
    }
}
