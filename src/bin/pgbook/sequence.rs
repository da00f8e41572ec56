//! What `pgbook train sequence` prints as text and draws as SVG.

use crate::train::{FinishedRun, SvgDiagnostics, TextOutput};
use pgbook::plots::{sequence_curves, to_svg, Theme};
use pgbook::train::registry::Sequence;
use pgbook::train::sequence::{SequenceConfig, SequenceTrainer, SOLVED_SUCCESS};
use pgbook::{Error, Result};
use std::fmt::Write;
use std::path::Path;

impl TextOutput<SequenceTrainer> for Sequence {
    fn header(config: &SequenceConfig, profile: &str, seeds: &[u64]) -> String {
        format!(
            "{} policy ({}), {} advantages, {}-level clipped PPO: profile {profile}, seeds \
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
        let every = (run.reports.len() / 20).max(1);
        for r in &run.reports {
            if r.iteration % every == 0 || r.iteration == 1 {
                let _ = writeln!(
                    s,
                    "{:>5} {:>8.3} {:>8.3} {:>6.2} {:>9.5} {:>7.3} {:>9.3} {:>9.3} {:>5}/3",
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
                    "solved (greedy 3/3 and success >= {SOLVED_SUCCESS}) first at iteration {it}"
                );
            }
            None => {
                let _ = write!(
                    s,
                    "never solved (greedy 3/3 and success >= {SOLVED_SUCCESS})"
                );
            }
        }
        let _ = write!(s, "\nwall time {:.2} s", run.wall_s);
        s
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
