//! One run of the R1-Zero pipeline (lesson 10) as the panel shows it: the SFT loss per step,
//! pass@k for k = 1 … n of the untrained, SFT and RL policies on the held-out prompts, the
//! success per difficulty level at the end, and per iteration the share of groups whose
//! rewards were all alike (drawn, and trained on) — gathered from the run's reports, and the
//! same in words ([`PipelineRun::describe`]).

use super::lab::dead_trained_share;
use super::{IterationReport, PassAtK};
use crate::text::{count, num, Description, Table};

/// What the pipeline's figure draws for one run.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineRun {
    /// Mean cross-entropy per response token (nats) of each SFT step, before its update.
    pub sft_losses: Vec<f64>,
    /// pass@k curves by stage, in order: «до обучения», «после SFT», «после RL» (those run).
    pub pass_at_k: Vec<(&'static str, PassAtK)>,
    /// The RL pass@k's iteration.
    pub rl_iteration: Option<usize>,
    /// Fully correct share per level at the last iteration (the evaluation's fresh samples).
    pub levels: Vec<f64>,
    /// (iteration, share of every drawn group whose rewards were all alike).
    pub dead_drawn: Vec<(usize, f64)>,
    /// (iteration, that share among the groups trained on: below `dead_drawn` only under
    /// dynamic sampling).
    pub dead_trained: Vec<(usize, f64)>,
    /// Iterations so far.
    pub iterations: usize,
}

/// The stages' names, in the figure's legend and the words.
pub const STAGES: [&str; 3] = ["до обучения", "после SFT", "после RL"];

impl PipelineRun {
    /// The pipeline of `reports` (one run's, in order); `None` when the run has neither an SFT
    /// stage nor pass@k (lessons 8 and 9's runs).
    pub fn of(reports: &[IterationReport]) -> Option<Self> {
        let sft = reports.first().and_then(|r| r.sft.as_ref());
        let rl = reports
            .iter()
            .rev()
            .find_map(|r| r.pass_at_k.clone().map(|p| (r.iteration, p)));
        if sft.is_none() && rl.is_none() {
            return None;
        }
        let mut pass_at_k = Vec::new();
        if let Some(s) = sft {
            let stages = [&s.pass_at_k_untrained, &s.pass_at_k_sft];
            for (name, p) in STAGES.iter().zip(stages) {
                if let Some(p) = p {
                    pass_at_k.push((*name, p.clone()));
                }
            }
        }
        let rl_iteration = rl.as_ref().map(|(i, _)| *i);
        if let Some((_, p)) = rl {
            pass_at_k.push((STAGES[2], p));
        }
        let series = |f: fn(&IterationReport) -> Option<f64>| {
            reports
                .iter()
                .filter_map(|r| f(r).map(|y| (r.iteration, y)))
                .collect()
        };
        Some(PipelineRun {
            sft_losses: sft.map(|s| s.losses.clone()).unwrap_or_default(),
            pass_at_k,
            rl_iteration,
            levels: reports
                .last()
                .map(|r| r.success_by_level.clone())
                .unwrap_or_default(),
            dead_drawn: series(|r| r.group_stats.map(|g| g.zero_variance_share)),
            dead_trained: series(dead_trained_share),
            iterations: reports.last().map_or(0, |r| r.iteration),
        })
    }

    /// The figure in words: the SFT loss from first to last step, pass@1 and pass@n of each
    /// stage, the success per level, the dead groups' mean share over the run.
    pub fn describe(&self) -> Description {
        let mut parts = Vec::new();
        if let (Some(first), Some(last)) = (self.sft_losses.first(), self.sft_losses.last()) {
            parts.push(format!(
                "функция потерь SFT за {} — от {} до {} нат на токен",
                count(self.sft_losses.len() as f64, 0, ["шаг", "шага", "шагов"]),
                num(*first, 2),
                num(*last, 2)
            ));
        }
        let mut table = Table::new(&["этап", "pass@1", "pass@n", "n"]);
        let mut stages = Vec::new();
        for (name, p) in &self.pass_at_k {
            let (Some(one), Some(all)) = (p.curve.first(), p.curve.last()) else {
                continue;
            };
            let name = match (*name == STAGES[2], self.rl_iteration) {
                (true, Some(i)) => format!("{name} (итерация {i})"),
                _ => name.to_string(),
            };
            stages.push(format!(
                "{name}: pass@1 {}, pass@{} {}",
                num(*one, 2),
                p.n,
                num(*all, 2)
            ));
            table = table.row([name, num(*one, 3), num(*all, 3), p.n.to_string()]);
        }
        if !stages.is_empty() {
            parts.push(format!("на отложенных запросах {}", stages.join("; ")));
        }
        if !self.levels.is_empty() {
            let levels: Vec<String> = self
                .levels
                .iter()
                .enumerate()
                .map(|(l, x)| format!("уровень {} — {}", l + 1, num(*x, 2)))
                .collect();
            parts.push(format!(
                "доля верных ответов после итерации {}: {}",
                self.iterations,
                levels.join(", ")
            ));
        }
        let mean = |xs: &[(usize, f64)]| {
            (!xs.is_empty()).then(|| xs.iter().map(|(_, y)| y).sum::<f64>() / xs.len() as f64)
        };
        if let (Some(drawn), Some(trained)) = (mean(&self.dead_drawn), mean(&self.dead_trained)) {
            let trained = if (drawn - trained).abs() < 5e-3 {
                String::new()
            } else {
                format!(
                    ", среди групп, на которых шло обучение, — {}",
                    num(trained, 2)
                )
            };
            parts.push(format!(
                "групп без разброса наград в среднем за итерацию {}{trained}",
                num(drawn, 2)
            ));
        }
        let text = if parts.is_empty() {
            "Конвейер R1-Zero: ни SFT, ни pass@k этот запуск ещё не посчитал.".to_string()
        } else {
            format!("Конвейер R1-Zero этого запуска: {}.", parts.join("; "))
        };
        Description { text, table }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::check_shape;
    use crate::train::sequence::{SequenceConfig, SequenceProfile, SequenceTrainer};
    use crate::train::settings::Settings;

    fn run(profile: SequenceProfile, dynamic: bool) -> Vec<IterationReport> {
        let config = SequenceConfig {
            dynamic_sampling: dynamic,
            ..SequenceConfig::for_profile(profile)
        };
        let mut t = SequenceTrainer::new(config.clone(), 5).unwrap();
        (0..config.iterations.min(3))
            .map(|_| t.step().unwrap())
            .collect()
    }

    #[test]
    fn a_pipeline_run_has_every_stage_and_says_so() {
        let reports = run(SequenceProfile::R1Smoke, true);
        let p = PipelineRun::of(&reports).unwrap();
        let sft = reports[0].sft.as_ref().unwrap();
        assert_eq!(p.sft_losses, sft.losses);
        let names: Vec<&str> = p.pass_at_k.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, STAGES);
        assert_eq!(p.rl_iteration, Some(reports.len()));
        assert_eq!(p.dead_drawn.len(), reports.len());
        assert!(p
            .dead_trained
            .iter()
            .zip(&p.dead_drawn)
            .all(|(t, d)| t.0 == d.0 && t.1 <= d.1 + 1e-12));
        assert_eq!(p.levels, reports.last().unwrap().success_by_level);
        let d = p.describe();
        check_shape(&d);
        assert!(d.text.contains("функция потерь SFT"), "{}", d.text);
        assert!(d.text.contains("после SFT: pass@1"), "{}", d.text);
        assert!(d.text.contains("уровень 1 — "), "{}", d.text);
        assert_eq!(d.table.rows.len(), 3);
    }

    #[test]
    fn lessons_8_and_9_runs_have_no_pipeline() {
        let config = SequenceConfig {
            iterations: 2,
            hidden_dim: 6,
            embed_dim: 4,
            ..SequenceConfig::for_profile(SequenceProfile::Smoke)
        };
        let mut t = SequenceTrainer::new(config, 1).unwrap();
        let reports: Vec<_> = (0..2).map(|_| t.step().unwrap()).collect();
        assert_eq!(PipelineRun::of(&reports), None);
        assert_eq!(PipelineRun::of(&[]), None);
    }
}
