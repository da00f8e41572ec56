//! What `pgbook train sequence` prints as text and draws as SVG.

use crate::train::{FinishedRun, SvgDiagnostics, TextOutput};
use pgbook::plots::{sequence_curves, to_svg, Theme};
use pgbook::train::compare::Extra;
use pgbook::train::registry::Sequence;
use pgbook::train::sequence::{IterationReport, SequenceConfig, SequenceTrainer, SOLVED_SUCCESS};
use pgbook::{Error, Result};
use std::fmt::Write;
use std::path::Path;

impl TextOutput<SequenceTrainer> for Sequence {
    fn header(config: &SequenceConfig, profile: &str, seeds: &[u64]) -> String {
        format!(
            "{} policy ({}), {} advantages + {}-level clipped PPO: profile {profile}, seeds \
             {seeds:?}, task {}, reduction {}, {} iterations, group size {}, {} PPO epochs",
            config.policy,
            config.precision.name(),
            config.advantage_estimator,
            config.ratio_level,
            config.task.name(),
            config.reduction,
            config.iterations,
            config.group_size,
            config.ppo_epochs
        )
    }

    fn seed_text(run: &FinishedRun<SequenceTrainer>) -> String {
        let mut s = format!("\nseed {}: first rollout batch:\n", run.seed);
        for row in run.trainer.first_batch().unwrap_or_default() {
            let mask: Vec<String> = row.mask.iter().map(u8::to_string).collect();
            let _ = writeln!(
                s,
                "  prompt {} | {:<26} | reward {:>5.2} | advantage {:>+7.3} | mask [{}]",
                row.prompt_class,
                row.text,
                row.reward,
                row.advantage,
                mask.join(" ")
            );
        }
        let _ = writeln!(
            s,
            "\n{:>5} {:>8} {:>8} {:>6} {:>9} {:>7} {:>9} {:>9} {:>7}",
            "iter",
            "reward",
            "success",
            "length",
            "approx_kl",
            "clip",
            "eval_rew",
            "eval_succ",
            "greedy"
        );
        // The greedy answers are one per difficulty level (copy task) or prompt (lesson 8's).
        let levels = run.trainer.config().task.levels();
        let every = (run.reports.len() / 20).max(1);
        for r in &run.reports {
            if r.iteration % every == 0 || r.iteration == 1 {
                let _ = writeln!(
                    s,
                    "{:>5} {:>8.3} {:>8.3} {:>6.2} {:>9.5} {:>7.3} {:>9.3} {:>9.3} {:>5}/{levels}",
                    r.iteration,
                    r.mean_reward,
                    r.success_rate,
                    r.mean_response_length,
                    r.approx_kl,
                    r.active_clip_fraction,
                    r.eval_mean_reward,
                    r.eval_success_rate,
                    r.greedy_correct
                );
            }
        }
        let summary = run.trainer.summary();
        let _ = writeln!(
            s,
            "\nfinal evaluation ({} samples): mean reward {:.3}, success rate {:.3}",
            summary.prompts * run.trainer.config().eval_samples_per_prompt,
            summary.final_mean_reward,
            summary.final_success_rate
        );
        s.push_str("greedy answers:\n");
        for g in &summary.greedy {
            let verdict = if g.correct { "correct" } else { "wrong" };
            let _ = writeln!(
                s,
                "  prompt {} | {:<24} | reward {:.2} | {verdict}",
                g.prompt_class, g.text, g.reward
            );
        }
        match summary.solved_iteration {
            Some(it) => {
                let _ = write!(
                    s,
                    "solved (greedy {levels}/{levels} and success >= {SOLVED_SUCCESS}) first at iteration {it}"
                );
            }
            None => {
                let _ = write!(
                    s,
                    "never solved (greedy {levels}/{levels} and success >= {SOLVED_SUCCESS})"
                );
            }
        }
        let _ = write!(s, "\nwall time {:.2} s", run.wall_s);
        s
    }

    fn final_extras(finished: &[&[IterationReport]]) -> Vec<Extra> {
        pgbook::train::sequence::lab::final_extras(finished)
    }

    fn write_svgs<D: SvgDiagnostics<SequenceTrainer>>(
        dir: &Path,
        _profile: &str,
        runs: &[FinishedRun<SequenceTrainer>],
    ) -> Result<()> {
        for run in runs {
            let reduction = run.trainer.config().reduction.name();
            let path = dir.join(format!("sequence_curves_{reduction}_seed{}.svg", run.seed));
            let svg = to_svg(800, 450, |area| {
                let data = sequence_curves::Data {
                    reports: &run.reports,
                    x_end: 0,
                };
                sequence_curves::draw(area, &data, &Theme::default())
            })?;
            std::fs::write(&path, svg).map_err(|e| Error::io(path.display(), e))?;
        }
        Ok(())
    }
}

/// `pgbook bench transformer`: the transformer profile's network, one thread.
pub fn bench_transformer(args: crate::args::Args) -> Result<()> {
    use pgbook::nn::{Kernels, Precision};
    use pgbook::train::bench_transformer::bench_transformer;
    let json = args.flag("json");
    let repeats: usize = args.get("repeats")?.unwrap_or(3);
    let kernels = args
        .text("kernels")
        .map(|k| Kernels::parse(&k))
        .transpose()?;
    let precisions = match args.text("precision") {
        Some(p) => vec![Precision::parse(&p)?],
        None => vec![Precision::F32, Precision::F64],
    };
    let cpu_clock = match args.text("clock").as_deref() {
        None | Some("wall") => false,
        Some("cpu") => true,
        Some(other) => {
            let rule = pgbook::error::Rule::one_of(&["wall", "cpu"]);
            return Err(Error::range("clock", rule, other));
        }
    };
    args.finish()?;
    if let Some(k) = kernels {
        pgbook::nn::set_widest_kernels(k);
    }
    let start = std::time::Instant::now();
    // The thread's CPU time (Linux's schedstat, in ns): on a machine shared with other work a
    // wall clock also counts the time this thread waited for a core.
    let cpu_s = || {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
            .map(|ns| ns / 1e9)
    };
    if cpu_clock && cpu_s().is_none() {
        return Err(Error::parse(
            "clock",
            "cpu",
            "no /proc/thread-self/schedstat here",
        ));
    }
    let now = || match cpu_clock {
        true => cpu_s().unwrap_or_default(),
        false => start.elapsed().as_secs_f64(),
    };
    for precision in precisions {
        let r = bench_transformer(repeats, precision, now)?;
        if json {
            let line = serde_json::to_string(&r).map_err(|e| Error::parse("bench", "", e))?;
            crate::out::line(&line);
            continue;
        }
        let s = r.shape;
        crate::out::line(&format!(
            "transformer profile ({} blocks, {} heads, d_model {}, MLP {}, context {}; {} \
             parameters), {} rows, one thread, {} kernels, {}, best of {repeats}, {} time:",
            s.layers,
            s.heads,
            s.model,
            s.mlp,
            s.context,
            r.params,
            r.rows,
            r.kernels,
            r.precision,
            if cpu_clock { "CPU" } else { "wall" }
        ));
        crate::out::line(&format!(
            "  sampling (KV cache)   {:>10.0} tokens/s  {:>6.2} GFLOP/s",
            r.sampling_tokens_per_s, r.sampling_gflop_per_s
        ));
        crate::out::line(&format!(
            "  training (fwd + bwd)  {:>10.0} tokens/s  {:>6.2} GFLOP/s  ({:.2} ms per pass)",
            r.training_tokens_per_s, r.training_gflop_per_s, r.training_pass_ms
        ));
    }
    Ok(())
}
