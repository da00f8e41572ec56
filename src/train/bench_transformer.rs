//! The transformer's benchmark, one procedure for the CLI (`pgbook bench transformer`) and the
//! browser (`e2e/bench.mjs transformer`): the clock is passed in. At the `transformer`
//! profile's shapes and batch, one thread: tokens per second sampled through the KV cache
//! (one token of one sequence at a time, as the rollout and the evaluation read them), and
//! tokens per second through the batched forward and backward (as each PPO epoch trains), each
//! with the GFLOP/s of its arithmetic.

use super::sequence::{SequenceConfig, SequenceProfile};
use super::settings::Settings;
use crate::nn::{Precision, Scalar, SequencePolicy, Transformer, TransformerShape};
use crate::rng::{self, Rng};
use crate::{Error, Result};
use serde::Serialize;

/// Best-of-`repeats` figures.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct TransformerBench {
    /// The network's sizes (the `transformer` profile's, on the copy task).
    pub shape: TransformerShape,
    /// Its parameters.
    pub params: usize,
    /// Rows sampled and trained per repeat (prompts × group size).
    pub rows: usize,
    /// Tokens per second read by the cached step (prompt and response).
    pub sampling_tokens_per_s: f64,
    /// GFLOP/s of those steps' arithmetic ([`sampling_flops`]).
    pub sampling_gflop_per_s: f64,
    /// Tokens per second through one batched forward and its backward pass.
    pub training_tokens_per_s: f64,
    /// GFLOP/s of the forward and backward passes' arithmetic ([`training_flops`]).
    pub training_gflop_per_s: f64,
    /// Milliseconds of one forward and backward pass over the batch.
    pub training_pass_ms: f64,
    /// The SIMD path the kernels took.
    pub kernels: &'static str,
    /// The network's scalar.
    pub precision: &'static str,
}

/// Timed rounds of sampling and of training per repeat (each round is the whole batch).
const ROUNDS: usize = 10;

/// Multiply-adds of one token at position `t` through the network's dense layers and its
/// attention (reading `t + 1` keys: scores and weighted values, 2·d per key and layer).
fn token_macs(shape: &TransformerShape, t: usize) -> f64 {
    let (d, f, l) = (shape.model as f64, shape.mlp as f64, shape.layers as f64);
    l * (4.0 * d * d + 2.0 * d * f) + d * shape.outputs as f64 + l * 2.0 * (t as f64 + 1.0) * d
}

/// FLOPs of sampling tokens at positions `0..len`, one at a time.
pub fn sampling_flops(shape: &TransformerShape, len: usize) -> f64 {
    (0..len).map(|t| 2.0 * token_macs(shape, t)).sum()
}

/// FLOPs of one batched forward and backward over `rows` rows of `steps` tokens: the backward
/// computes two products for each of the forward's (the weights' and the inputs' gradients;
/// at attention, the gradients of the weights' scores, values, queries and keys).
pub fn training_flops(shape: &TransformerShape, rows: usize, steps: usize) -> f64 {
    3.0 * rows as f64 * sampling_flops(shape, steps)
}

/// Runs the benchmark in `precision`; `now_s` returns the current time in seconds.
pub fn bench_transformer(
    repeats: usize,
    precision: Precision,
    now_s: impl FnMut() -> f64,
) -> Result<TransformerBench> {
    if repeats == 0 {
        return Err(Error::range(
            "repeats",
            crate::error::Rule::at_least(1.0),
            0usize,
        ));
    }
    let config = SequenceConfig {
        precision,
        ..SequenceConfig::for_profile(SequenceProfile::Transformer)
    };
    match precision {
        Precision::F32 => run::<f32>(&config, repeats, now_s),
        Precision::F64 => run::<f64>(&config, repeats, now_s),
    }
}

fn run<S: Scalar>(
    config: &SequenceConfig,
    repeats: usize,
    mut now_s: impl FnMut() -> f64,
) -> Result<TransformerBench> {
    let shape = config.transformer_shape();
    let mut rng = rng::seeded(1);
    let net = Transformer::<S>::new(shape, config.head_init_scale, &mut rng)?;
    let rows = config.prompts() * config.group_size;
    let len = config.sequence_len();
    let tokens =
        |rng: &mut Rng| -> Vec<usize> { (0..len).map(|_| rng::below(rng, shape.vocab)).collect() };
    let batch: Vec<Vec<usize>> = (0..rows)
        .map(|_| tokens(&mut rng)[..len - 1].to_vec())
        .collect();
    let d_logits: Vec<f64> = (0..rows * (len - 1) * shape.outputs)
        .map(|_| 0.01 * rng::normal(&mut rng))
        .collect();
    let mut log_probs = vec![0.0; shape.outputs];
    let mut sample = |rng: &mut Rng| -> Result<()> {
        for _ in 0..rows {
            let mut cache = net.initial_state();
            for token in tokens(rng) {
                net.step(token, &mut cache, &mut log_probs)?;
            }
        }
        Ok(())
    };
    let train = || -> Result<Vec<S>> {
        let tape = net.forward(&batch)?;
        net.backward(&tape, &d_logits)
    };
    sample(&mut rng)?; // warm-up: caches and allocations
    train()?;
    let (mut sampling_s, mut training_s) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..repeats {
        let t0 = now_s();
        for _ in 0..ROUNDS {
            sample(&mut rng)?;
        }
        let t1 = now_s();
        for _ in 0..ROUNDS {
            train()?;
        }
        let t2 = now_s();
        sampling_s = sampling_s.min((t1 - t0).max(1e-9) / ROUNDS as f64);
        training_s = training_s.min((t2 - t1).max(1e-9) / ROUNDS as f64);
    }
    let sampled = (rows * len) as f64;
    let trained = (rows * (len - 1)) as f64;
    Ok(TransformerBench {
        shape,
        params: shape.num_params(),
        rows,
        sampling_tokens_per_s: sampled / sampling_s,
        sampling_gflop_per_s: rows as f64 * sampling_flops(&shape, len) / sampling_s / 1e9,
        training_tokens_per_s: trained / training_s,
        training_gflop_per_s: training_flops(&shape, rows, len - 1) / training_s / 1e9,
        training_pass_ms: training_s * 1e3,
        kernels: crate::nn::kernel_path().name(),
        precision: S::NAME,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flop_counts_add_up_by_hand() {
        let shape = TransformerShape {
            vocab: 7,
            outputs: 4,
            model: 8,
            heads: 2,
            layers: 1,
            mlp: 16,
            context: 4,
        };
        // Dense: 4·64 + 2·128 + 8·4 = 544 multiply-adds per token; attention 2·(t+1)·8.
        let by_hand: f64 = (0..3)
            .map(|t| 2.0 * (544.0 + 16.0 * (t as f64 + 1.0)))
            .sum();
        assert_eq!(sampling_flops(&shape, 3), by_hand);
        assert_eq!(training_flops(&shape, 5, 3), 15.0 * by_hand);
    }

    #[test]
    fn it_runs_and_refuses_zero_repeats() {
        let mut t = 0.0;
        let clock = move || {
            t += 0.25;
            t
        };
        let r = bench_transformer(1, Precision::F32, clock).unwrap();
        assert!(r.sampling_tokens_per_s > 0.0 && r.training_tokens_per_s > 0.0);
        assert_eq!(r.precision, "f32");
        assert!(bench_transformer(0, Precision::F64, || 0.0).is_err());
    }
}
