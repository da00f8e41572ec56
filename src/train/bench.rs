//! The PPO benchmark, one procedure for the CLI and the browser: the clock is passed in
//! (`Instant` natively, `Date.now()` in wasm), since the core reads no clock itself.

use super::ppo::{PpoConfig, PpoTrainer};
use crate::nn::Precision;
use crate::{Error, Result};
use serde::Serialize;

/// Best-of-`repeats` figures at CleanRL's default settings (4 envs × 128 steps, 4 epochs × 4
/// minibatches of 128, 64-64 tanh actor and critic), one thread, no evaluation.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct BenchResult {
    /// Training throughput: rollout + updates.
    pub env_steps_per_s: f64,
    /// One PPO minibatch step of 128: both networks, loss, backward, clipping, Adam.
    pub minibatch_step_us: f64,
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
    Ok(BenchResult {
        env_steps_per_s,
        minibatch_step_us,
        kernels: crate::nn::kernel_path().name(),
        precision: precision.name(),
    })
}
