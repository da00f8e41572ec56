//! What `pgbook train ppo` prints as text and draws as SVG, and `pgbook bench ppo`.

use crate::args::Args;
use crate::out;
use crate::train::{write_learning_curve, FinishedRun, TextOutput};
use pgbook::plots::{self, Theme};
use pgbook::train::bench::bench_ppo;
use pgbook::train::cartpole::Evaluation;
use pgbook::train::ppo::{PpoConfig, PpoTrainer};
use pgbook::{Error, Result};
use plotters::prelude::*;
use serde_json::json;
use std::path::Path;
use std::time::Instant;

impl TextOutput for PpoTrainer {
    fn header(config: &PpoConfig, profile: &str, seeds: &[u64]) -> String {
        format!(
            "PPO on CartPole-v1, profile {profile}: {} updates × {} transitions, seeds {seeds:?}",
            config.num_updates,
            config.batch_size()
        )
    }

    fn seed_text(run: &FinishedRun<Self>) -> String {
        let s = run.trainer.summary();
        let solved = s
            .solved_from_env_steps
            .map_or("never".to_string(), |v| v.to_string());
        format!(
            "seed {:>4} | final evaluation {:7.2} ± {:6.2} | solved from {solved:>8} | {:6.2} s",
            run.seed, s.final_evaluation_mean, s.final_evaluation_std, run.wall_s
        )
    }

    fn write_svgs(dir: &Path, profile: &str, runs: &[FinishedRun<Self>]) -> Result<()> {
        let evaluations: Vec<Vec<Evaluation>> = runs
            .iter()
            .map(|r| r.trainer.evaluations().to_vec())
            .collect();
        write_learning_curve(dir, "ppo", profile, &evaluations)?;
        if let Some(first) = runs.first() {
            let path = dir.join(format!("ppo_{profile}_diagnostics_seed{}.svg", first.seed));
            let root = SVGBackend::new(&path, (900, 480)).into_drawing_area();
            let data = plots::ppo_diagnostics::Data {
                history: &first.reports,
                seed: first.seed,
                x_end: 0,
            };
            plots::ppo_diagnostics::draw(&root, &data, &Theme::default())?;
            root.present().map_err(|e| Error::io(path.display(), e))?;
        }
        Ok(())
    }
}

pub fn bench(args: Args) -> Result<()> {
    let json = args.flag("json");
    let updates: usize = args.get("updates")?.unwrap_or(60);
    let repeats: usize = args.get("repeats")?.unwrap_or(3);
    // `portable` is the code wasm runs, compiled natively: it separates what the browser costs
    // from what SIMD width buys.
    let kernels = args
        .text("kernels")
        .map(|k| pgbook::nn::Kernels::parse(&k))
        .transpose()?;
    let precision = args
        .text("precision")
        .map(|p| pgbook::nn::Precision::parse(&p))
        .transpose()?
        .unwrap_or(pgbook::nn::Precision::F64);
    args.finish()?;
    if let Some(k) = kernels {
        pgbook::nn::set_widest_kernels(k);
    }
    let start = Instant::now();
    let r = bench_ppo(updates, repeats, precision, || {
        start.elapsed().as_secs_f64()
    })?;
    let (best_steps_per_s, best_us) = (r.env_steps_per_s, r.minibatch_step_us);
    if json {
        out::line(
            &json!({
                "env_steps_per_s": best_steps_per_s,
                "minibatch_step_us": best_us,
                "minibatch_flops": r.minibatch_flops,
                "minibatch_gflop_per_s": r.minibatch_gflop_per_s,
                "kernels": r.kernels,
                "precision": r.precision,
            })
            .to_string(),
        );
    } else {
        out::line(&format!(
            "CleanRL defaults (4 envs × 128 steps, 4 epochs × 4 minibatches of 128, 64-64 tanh), one thread, {} kernels, {} networks, best of {repeats}:",
            r.kernels, r.precision
        ));
        out::line(&format!(
            "  training throughput {best_steps_per_s:>10.0} env steps/s (rollout + updates)"
        ));
        out::line(&format!(
            "  minibatch step      {best_us:>10.1} µs (128 samples, both networks, Adam)"
        ));
        out::line(&format!(
            "  matrix products     {:>10.2} GFLOP/s ({:.2} MFLOP per minibatch step)",
            r.minibatch_gflop_per_s,
            r.minibatch_flops / 1e6
        ));
    }
    Ok(())
}
