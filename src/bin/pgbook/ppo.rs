//! PPO's diagnostics figure for `pgbook train ppo --svg-dir`, and `pgbook bench ppo`.

use crate::args::Args;
use crate::out;
use crate::train::{FinishedRun, SvgDiagnostics};
use pgbook::plots::{self, Theme};
use pgbook::train::bench::bench_ppo;
use pgbook::train::ppo::PpoTrainer;
use pgbook::train::registry::PpoDiagnostics;
use pgbook::{Error, Result};
use plotters::prelude::*;
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// PPO's diagnostics figure of the first seed's run.
impl SvgDiagnostics<PpoTrainer> for PpoDiagnostics {
    fn write(dir: &Path, profile: &str, first: &FinishedRun<PpoTrainer>) -> Result<()> {
        let path = dir.join(format!("ppo_{profile}_diagnostics_seed{}.svg", first.seed));
        let root =
            plots::marks::Recording::new(SVGBackend::new(&path, (900, 480))).into_drawing_area();
        let data = plots::ppo_diagnostics::Data {
            history: &first.reports,
            seed: first.seed,
            x_end: 0,
        };
        plots::ppo_diagnostics::draw(&root, &data, &Theme::default())?;
        root.present().map_err(|e| Error::io(path.display(), e))
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
