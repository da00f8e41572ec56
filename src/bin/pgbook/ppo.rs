//! `pgbook train ppo` and `pgbook bench ppo`: the trainer's `step()` in a loop, timed here
//! (the library itself never reads a clock, so that it runs unchanged in a Web Worker).

use crate::args::Args;
use pgbook::plots::{self, Theme};
use pgbook::train::bench::bench_ppo;
use pgbook::train::curves::aggregate;
use pgbook::train::ppo::{Evaluation, PpoConfig, PpoTrainer, RunSummary, UpdateReport};
use pgbook::{Error, Result};
use plots::{learning_curve::Data as LearningCurve, ppo_diagnostics::Data as PpoDiagnostics};
use plotters::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The per-seed JSON line: `kind`, the core summary, then the CLI's timings.
#[derive(Serialize)]
struct Summary {
    kind: &'static str,
    #[serde(flatten)]
    run: RunSummary,
    wall_s: f64,
    env_steps_per_s: f64,
}

fn to_json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::parse("a report", "", e))
}

/// One seed's finished run.
struct Run {
    seed: u64,
    summary: RunSummary,
    history: Vec<UpdateReport>,
    evaluations: Vec<Evaluation>,
    wall_s: f64,
}

pub fn train(args: &Args) -> Result<()> {
    let profile: String = args.get("profile")?.unwrap_or_else(|| "smoke".to_string());
    let mut config = PpoConfig::profile(&profile)?;
    if let Some(raw) = args.get::<String>("set")? {
        config = with_overrides(&config, &raw)?;
    }
    let seeds: Vec<u64> = args
        .list("seeds")?
        .unwrap_or_else(|| PpoConfig::default_seeds(&profile));
    let threads: usize = args.get("threads")?.unwrap_or(2);
    let json = args.flag("json");
    let svg_dir: Option<String> = args.get("svg-dir")?;
    if seeds.is_empty() || threads == 0 {
        return Err(Error::range(
            "threads",
            pgbook::error::Rule::at_least(1.0),
            threads,
        ));
    }
    if !json {
        println!(
            "PPO on CartPole-v1, profile {profile}: {} updates × {} transitions, seeds {seeds:?}",
            config.num_updates,
            config.batch_size()
        );
    }
    let started = Instant::now();
    let runs = run_seeds(&config, &seeds, threads, json)?;
    let total_s = started.elapsed().as_secs_f64();
    for run in &runs {
        let s = &run.summary;
        if json {
            let line = Summary {
                kind: "summary",
                run: s.clone(),
                wall_s: run.wall_s,
                env_steps_per_s: s.env_steps as f64 / run.wall_s,
            };
            println!("{}", to_json(&line)?);
        } else {
            let solved = s
                .solved_from_env_steps
                .map_or("never".to_string(), |v| v.to_string());
            println!(
                "seed {:>4} | final evaluation {:7.2} ± {:6.2} | solved from {solved:>8} | {:6.2} s",
                run.seed, s.final_evaluation_mean, s.final_evaluation_std, run.wall_s
            );
        }
    }
    if !json {
        println!("total wall time {total_s:.2} s on {threads} thread(s)");
    }
    if let Some(dir) = svg_dir {
        write_svgs(&dir, &profile, &runs)?;
    }
    Ok(())
}

/// The profile with some fields replaced from a JSON object, e.g. `{"update_epochs": 10}`.
fn with_overrides(config: &PpoConfig, raw: &str) -> Result<PpoConfig> {
    let bad = |e: serde_json::Error| Error::parse("--set", raw, e);
    let overrides: Value = serde_json::from_str(raw).map_err(bad)?;
    let Value::Object(overrides) = overrides else {
        return Err(Error::parse("--set", raw, "expected a JSON object"));
    };
    let mut merged = serde_json::to_value(config).map_err(bad)?;
    if let Value::Object(map) = &mut merged {
        for (k, v) in overrides {
            if !map.contains_key(&k) {
                return Err(Error::unknown("setting", k, &[]));
            }
            map.insert(k, v);
        }
    }
    let config: PpoConfig = serde_json::from_value(merged).map_err(bad)?;
    config.validate()?;
    Ok(config)
}

/// Runs every seed, `threads` at a time; each run is independent and deterministic.
fn run_seeds(config: &PpoConfig, seeds: &[u64], threads: usize, json: bool) -> Result<Vec<Run>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<Run>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(seeds.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&seed) = seeds.get(i) else { break };
                let run = run_one(config, seed, json);
                if let Ok(mut r) = results.lock() {
                    r.push((i, run));
                }
            });
        }
    });
    let mut results = results
        .into_inner()
        .map_err(|_| Error::plot("a training thread panicked"))?;
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

fn run_one(config: &PpoConfig, seed: u64, json: bool) -> Result<Run> {
    let started = Instant::now();
    let mut trainer = PpoTrainer::new(config.clone(), seed)?;
    let mut history = Vec::with_capacity(config.num_updates);
    while !trainer.is_finished() {
        let report = trainer.step()?;
        if json {
            // `{"kind":"update","seed":S,` then the report's fields in declaration order.
            let fields = to_json(&report)?;
            let rest = fields.strip_prefix('{').unwrap_or(&fields);
            println!("{{\"kind\":\"update\",\"seed\":{seed},{rest}");
        }
        history.push(report);
    }
    Ok(Run {
        seed,
        summary: trainer.summary(),
        history,
        evaluations: trainer.evaluations().to_vec(),
        wall_s: started.elapsed().as_secs_f64(),
    })
}

fn write_svgs(dir: &str, profile: &str, runs: &[Run]) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let evaluations: Vec<Vec<Evaluation>> = runs.iter().map(|r| r.evaluations.clone()).collect();
    let curve = aggregate(&evaluations)?;
    let path = format!("{dir}/ppo_{profile}_learning_curve.svg");
    {
        let root = SVGBackend::new(&path, (900, 500)).into_drawing_area();
        plots::learning_curve::draw(
            &root,
            &LearningCurve {
                curve: &curve,
                profile,
            },
            &Theme::default(),
        )?;
        root.present().map_err(|e| Error::io(&path, e))?;
    }
    if let Some(first) = runs.first() {
        let path = format!("{dir}/ppo_{profile}_diagnostics_seed{}.svg", first.seed);
        let root = SVGBackend::new(&path, (900, 480)).into_drawing_area();
        let data = PpoDiagnostics {
            history: &first.history,
            seed: first.seed,
        };
        plots::ppo_diagnostics::draw(&root, &data, &Theme::default())?;
        root.present().map_err(|e| Error::io(&path, e))?;
    }
    let _ = std::io::stdout().flush();
    Ok(())
}

pub fn bench(args: &Args) -> Result<()> {
    let json = args.flag("json");
    let updates: usize = args.get("updates")?.unwrap_or(60);
    let repeats: usize = args.get("repeats")?.unwrap_or(3);
    // `portable` is the code wasm runs, compiled natively: it separates what the browser costs
    // from what SIMD width buys.
    if let Some(k) = args.get::<String>("kernels")? {
        pgbook::nn::set_widest_kernels(pgbook::nn::Kernels::parse(&k)?);
    }
    let start = Instant::now();
    let r = bench_ppo(updates, repeats, || start.elapsed().as_secs_f64())?;
    let (best_steps_per_s, best_us) = (r.env_steps_per_s, r.minibatch_step_us);
    if json {
        println!(
            "{}",
            json!({"env_steps_per_s": best_steps_per_s, "minibatch_step_us": best_us, "kernels": r.kernels})
        );
    } else {
        println!(
            "CleanRL defaults (4 envs × 128 steps, 4 epochs × 4 minibatches of 128, 64-64 tanh), one thread, {} kernels, best of {repeats}:",
            r.kernels
        );
        println!("  training throughput {best_steps_per_s:>10.0} env steps/s (rollout + updates)");
        println!("  minibatch step      {best_us:>10.1} µs (128 samples, both networks, Adam)");
    }
    Ok(())
}
