//! `pgbook train sequence`: the tiny GRU policy trained with RLOO and token-level PPO.

use crate::args::Args;
use pgbook::plots::{sequence_curves, to_svg, Theme};
use pgbook::rl::Reduction;
use pgbook::train::sequence::{IterationReport, SequenceConfig, SequenceTrainer};
use pgbook::{Error, Result};
use std::path::PathBuf;
use std::time::Instant;

/// Success rate the lesson calls "solved" (together with all greedy answers correct).
const SOLVED_SUCCESS: f64 = 0.95;

/// Everything the command line asked for, read before anything runs (so that a mistyped
/// option fails at once, not after training).
pub struct Job {
    config: SequenceConfig,
    profile: String,
    seeds: Vec<u64>,
    json: bool,
    svg_dir: Option<PathBuf>,
}

pub fn parse(args: &Args) -> Result<Job> {
    let profile: String = args.get("profile")?.unwrap_or_else(|| "smoke".into());
    let mut config = SequenceConfig::profile(&profile)?;
    if let Some(reduction) = args.get::<Reduction>("reduction")? {
        config.reduction = reduction;
    }
    if let Some(v) = args.get("iterations")? {
        config.iterations = v;
    }
    if let Some(v) = args.get("group-size")? {
        config.group_size = v;
    }
    if let Some(v) = args.get("learning-rate")? {
        config.learning_rate = v;
    }
    if let Some(v) = args.get("epochs")? {
        config.ppo_epochs = v;
    }
    if let Some(v) = args.get("entropy-coef")? {
        config.entropy_coef = v;
    }
    if let Some(v) = args.get("max-response-len")? {
        config.max_response_len = v;
    }
    let seeds: Vec<u64> = match (args.get::<u64>("seed")?, args.list::<u64>("seeds")?) {
        (Some(_), Some(_)) => {
            return Err(Error::parse(
                "--seed",
                "",
                "give either --seed or --seeds, not both",
            ))
        }
        (Some(seed), None) => vec![seed],
        (None, Some(seeds)) => seeds,
        (None, None) => vec![5],
    };
    config.validate()?;
    Ok(Job {
        config,
        profile,
        seeds,
        json: args.flag("json"),
        svg_dir: args.get::<PathBuf>("svg-dir")?,
    })
}

pub fn train(job: &Job) -> Result<()> {
    for &seed in &job.seeds {
        run(
            &job.config,
            &job.profile,
            seed,
            job.json,
            job.svg_dir.as_ref(),
        )?;
    }
    Ok(())
}

fn run(
    config: &SequenceConfig,
    profile: &str,
    seed: u64,
    json: bool,
    svg_dir: Option<&PathBuf>,
) -> Result<()> {
    let start = Instant::now();
    let mut trainer = SequenceTrainer::new(config.clone(), seed)?;
    if !json {
        println!(
            "GRU policy, RLOO + token PPO: profile {profile}, seed {seed}, reduction {}, \
             {} iterations, group size {}, {} PPO epochs",
            config.reduction, config.iterations, config.group_size, config.ppo_epochs
        );
    }
    let mut reports: Vec<IterationReport> = Vec::with_capacity(config.iterations);
    let mut solved_at = None;
    while !trainer.done() {
        let report = trainer.step()?;
        if solved_at.is_none()
            && report.greedy_correct == 3
            && report.eval_success_rate >= SOLVED_SUCCESS
        {
            solved_at = Some((report.iteration, start.elapsed().as_secs_f64()));
        }
        if json {
            let mut line = serde_json::to_value(&report).map_err(json_error)?;
            line["kind"] = "iteration".into();
            line["seed"] = seed.into();
            println!("{line}");
        } else {
            if report.iteration == 1 {
                print_first_batch(&trainer);
                println!(
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
            }
            let every = (config.iterations / 20).max(1);
            if report.iteration % every == 0 || report.iteration == 1 {
                println!(
                    "{:>5} {:>8.3} {:>8.3} {:>6.2} {:>9.5} {:>7.3} {:>9.3} {:>9.3} {:>5}/3",
                    report.iteration,
                    report.mean_reward,
                    report.success_rate,
                    report.mean_response_length,
                    report.approx_kl,
                    report.active_clip_fraction,
                    report.eval_mean_reward,
                    report.eval_success_rate,
                    report.greedy_correct
                );
            }
        }
        reports.push(report);
    }
    let wall_s = start.elapsed().as_secs_f64();
    let last = reports
        .last()
        .ok_or_else(|| Error::range("iterations", pgbook::error::Rule::at_least(1.0), 0usize))?;
    let greedy = trainer.greedy_answers()?;
    if let Some(dir) = svg_dir {
        write_svg(dir, seed, config, &reports)?;
    }
    if json {
        let summary = serde_json::json!({
            "kind": "summary",
            "seed": seed,
            "profile": profile,
            "reduction": config.reduction.name(),
            "final_mean_reward": last.eval_mean_reward,
            "final_success_rate": last.eval_success_rate,
            "greedy_correct": last.greedy_correct,
            "prompts": 3,
            "iterations": last.iteration,
            "solved_iteration": solved_at.map(|s| s.0),
            "solved_wall_s": solved_at.map(|s| s.1),
            "greedy": greedy,
            "wall_s": wall_s,
        });
        println!("{summary}");
    } else {
        println!(
            "\nfinal evaluation ({} samples): mean reward {:.3}, success rate {:.3}",
            3 * config.eval_samples_per_prompt,
            last.eval_mean_reward,
            last.eval_success_rate
        );
        println!("greedy answers:");
        for g in &greedy {
            println!(
                "  prompt {} | {:<24} | reward {:.2} | {}",
                g.prompt_class,
                g.text,
                g.reward,
                if g.correct { "correct" } else { "wrong" }
            );
        }
        match solved_at {
            Some((it, s)) => println!(
                "solved (greedy 3/3 and success >= {SOLVED_SUCCESS}) first at iteration {it}, {s:.2} s"
            ),
            None => println!("never solved (greedy 3/3 and success >= {SOLVED_SUCCESS})"),
        }
        println!("wall time {wall_s:.2} s");
    }
    Ok(())
}

fn print_first_batch(trainer: &SequenceTrainer) {
    let Some(rows) = trainer.first_batch() else {
        return;
    };
    println!("\nfirst rollout batch:");
    for row in rows {
        let mask: Vec<String> = row.mask.iter().map(u8::to_string).collect();
        println!(
            "  prompt {} | {:<26} | reward {:>5.2} | advantage {:>+7.3} | mask [{}]",
            row.prompt_class,
            row.text,
            row.reward,
            row.advantage,
            mask.join(" ")
        );
    }
}

fn json_error(e: serde_json::Error) -> Error {
    Error::parse("a report", "", e)
}

fn write_svg(
    dir: &PathBuf,
    seed: u64,
    config: &SequenceConfig,
    reports: &[IterationReport],
) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir.display(), e))?;
    let path = dir.join(format!(
        "sequence_curves_{}_seed{seed}.svg",
        config.reduction.name()
    ));
    let svg = to_svg(800, 450, |area| {
        sequence_curves::draw(area, &sequence_curves::Data { reports }, &Theme::default())
    })?;
    std::fs::write(&path, svg).map_err(|e| Error::io(path.display(), e))?;
    Ok(())
}
