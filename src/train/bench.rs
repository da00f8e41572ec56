//! The PPO benchmark, one procedure for the CLI and the browser: the clock is passed in
//! (`Instant` natively, `Date.now()` in wasm), since the core reads no clock itself.

use super::cartpole::CartPoleTrainer;
use super::ppo::{PpoConfig, PpoTrainer};
use super::Trainer;
use crate::nn::Precision;
use crate::{Error, Result};
use serde::Serialize;

/// Best-of-`repeats` figures at CleanRL's default settings (4 envs × 128 steps, 4 epochs × 4
/// minibatches of 128, 64-64 tanh actor and critic), one thread, no evaluation.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct BenchResult {
    /// Training throughput: rollout + updates.
    pub env_steps_per_s: f64,
    /// One PPO minibatch step of 128: both networks, loss, backward, clipping, Adam.
    pub minibatch_step_us: f64,
    /// Floating-point operations of one minibatch step's matrix products (forward and
    /// backward of both networks, [`minibatch_flops`]), the work a FLOP limit bounds.
    pub minibatch_flops: f64,
    /// `minibatch_flops` per second of a minibatch step, in GFLOP/s.
    pub minibatch_gflop_per_s: f64,
    /// The SIMD path the kernels took ([`crate::nn::kernel_path`]).
    pub kernels: &'static str,
    /// The networks' scalar, `f32` or `f64`.
    pub precision: &'static str,
}

/// Minibatch steps timed per repeat.
const MINIBATCH_STEPS: usize = 2000;

/// Runs the benchmark with the networks in `precision`; `now_s` returns the current time in
/// seconds.
pub fn bench_ppo(
    updates: usize,
    repeats: usize,
    precision: Precision,
    mut now_s: impl FnMut() -> f64,
) -> Result<BenchResult> {
    if updates == 0 || repeats == 0 {
        let arg = if updates == 0 { "updates" } else { "repeats" };
        return Err(Error::range(arg, crate::error::Rule::at_least(1.0), 0usize));
    }
    let config = PpoConfig {
        num_updates: updates * (repeats + 1),
        precision,
        ..PpoConfig::cleanrl()
    };
    let mut trainer = PpoTrainer::new(config, 1)?;
    trainer.step()?; // warm-up: caches and allocations
    let mut env_steps_per_s = 0.0f64;
    for _ in 0..repeats {
        let (t0, before) = (now_s(), trainer.env_steps());
        for _ in 0..updates {
            trainer.step()?;
        }
        let rate = (trainer.env_steps() - before) as f64 / (now_s() - t0).max(1e-9);
        env_steps_per_s = env_steps_per_s.max(rate);
    }
    let mut minibatch_step_us = f64::INFINITY;
    for _ in 0..repeats {
        let t0 = now_s();
        trainer.train_minibatches(MINIBATCH_STEPS)?;
        minibatch_step_us = minibatch_step_us.min((now_s() - t0) * 1e6 / MINIBATCH_STEPS as f64);
    }
    let flops = minibatch_flops(trainer.config());
    Ok(BenchResult {
        env_steps_per_s,
        minibatch_step_us,
        minibatch_flops: flops,
        minibatch_gflop_per_s: flops / minibatch_step_us / 1e3,
        kernels: crate::nn::kernel_path().name(),
        precision: precision.name(),
    })
}

/// Floating-point operations of the matrix products in one minibatch step: per layer of
/// `fan_in × fan_out` and `m` samples, 2·m·fan_in·fan_out for the forward product, the same for
/// the weights' gradient and for the inputs' gradient (which the first layer does not need).
/// The tanh, the loss and Adam are left out: they are linear in the weights, not in m·weights.
pub fn minibatch_flops(config: &PpoConfig) -> f64 {
    let m = config.minibatch_size as f64;
    let mut flops = 0.0;
    for outputs in [2, 1] {
        // Actor (two logits) and critic (one value) share the hidden shapes.
        let mut fan_in = crate::envs::cartpole::OBS_DIM;
        let widths = config.hidden_sizes.iter().copied().chain([outputs]);
        for (layer, fan_out) in widths.enumerate() {
            let products = if layer == 0 { 2.0 } else { 3.0 };
            flops += products * 2.0 * m * (fan_in * fan_out) as f64;
            fan_in = fan_out;
        }
    }
    flops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minibatch_flops_count_every_product() {
        // CleanRL's shapes by hand: actor 4·64 + 64·64 + 64·2, critic 4·64 + 64·64 + 64·1,
        // the first layers without an input gradient.
        let actor = 2.0 * 256.0 + 3.0 * (4096.0 + 128.0);
        let critic = 2.0 * 256.0 + 3.0 * (4096.0 + 64.0);
        let got = minibatch_flops(&PpoConfig::cleanrl());
        assert_eq!(got, 2.0 * 128.0 * (actor + critic));
        assert_eq!(got, 6_701_056.0);
    }
}
