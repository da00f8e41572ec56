//! What a sequence run reports: per iteration, the first batch, the greedy answers, the
//! evaluation on fresh samples, and the run's summary.

use crate::error::Result;
use crate::rl::GroupStats;
use crate::train::board::{Board, CsvExport};
use crate::train::Trainer;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// One row of the first rollout, kept for display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstBatchRow {
    /// Prompt class.
    pub prompt_class: usize,
    /// The row of `input_ids`.
    pub input_ids: Vec<i64>,
    /// The row decoded, PAD left out.
    pub text: String,
    /// Its prompt decoded without `<bos>`.
    pub prompt: String,
    /// Verifier reward.
    pub reward: f64,
    /// RLOO advantage.
    pub advantage: f64,
    /// Response mask row (0/1), aligned with `input_ids[1..]`.
    pub mask: Vec<u8>,
}

/// The greedy (most probable token at every step) answer to one prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct GreedyAnswer {
    /// Prompt class.
    pub prompt_class: usize,
    /// The prompt decoded without `<bos>` (lesson 8: `q<c>`; copy: `a b =`).
    pub prompt: String,
    /// The whole row decoded: `<bos> q<c> …`.
    pub text: String,
    /// The prompt and its correct answer, decoded.
    pub correct_answer: String,
    /// Verifier reward.
    pub reward: f64,
    /// Fully correct.
    pub correct: bool,
}

/// Evaluation on fresh samples, plus the greedy answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct SampleEvaluation {
    /// Mean verifier reward over the samples.
    pub mean_reward: f64,
    /// Fraction of fully correct sampled answers.
    pub success_rate: f64,
    /// Number of samples (per level × levels).
    pub samples: usize,
    /// Fully correct fraction per difficulty level (lesson 8: per prompt).
    pub success_by_level: Vec<f64>,
    /// The greedy answer to every prompt.
    pub greedy: Vec<GreedyAnswer>,
}

impl SampleEvaluation {
    /// How many prompts the greedy policy answers correctly.
    pub fn greedy_correct(&self) -> usize {
        self.greedy.iter().filter(|g| g.correct).count()
    }
}

/// What one iteration did and how the policy stands after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct IterationReport {
    /// 1-based iteration number.
    pub iteration: usize,
    /// Mean reward of the rollout.
    pub mean_reward: f64,
    /// Fully correct fraction of the rollout.
    pub success_rate: f64,
    /// Mean response length of the rollout, `<eos>` included.
    pub mean_response_length: f64,
    /// Mean length of the rollout's correct responses (`None`: there was none).
    pub mean_length_correct: Option<f64>,
    /// Mean length of the rollout's incorrect responses (`None`: there was none).
    pub mean_length_incorrect: Option<f64>,
    /// KL(π_old ‖ π_ref) to the reference policy (the policy before RL): mean k3 over the
    /// rollout's response tokens.
    pub kl_to_reference: f64,
    /// Non-negative KL estimate mean((r − 1) − log r) over response tokens, before every
    /// epoch's update (the first epoch contributes zeros).
    pub approx_kl: f64,
    /// Fraction of token ratios outside [1 − ε, 1 + ε], same tokens.
    pub ratio_outside_fraction: f64,
    /// Fraction of tokens where clipping changed the pessimistic minimum.
    pub active_clip_fraction: f64,
    /// Loss of the first epoch (−objective at ratio 1: minus the reduced advantages).
    pub policy_loss: f64,
    /// Mean entropy of the policy over the rollout's response tokens (before the update).
    pub entropy: f64,
    /// Mean global gradient norm before clipping.
    pub grad_norm: f64,
    /// Evaluation after the update: mean reward over fresh samples.
    pub eval_mean_reward: f64,
    /// Evaluation after the update: fully correct fraction.
    pub eval_success_rate: f64,
    /// Evaluation after the update: fully correct fraction per difficulty level.
    pub success_by_level: Vec<f64>,
    /// Evaluation after the update: prompts whose greedy answer is correct.
    pub greedy_correct: usize,
    /// The SFT stage, on the first iteration of a run that has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sft: Option<SftStage>,
    /// The statistics of every group drawn this iteration (before dynamic sampling drops
    /// any): the share that teaches nothing. Reported when pass@k is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_stats: Option<GroupStats>,
    /// Groups drawn this iteration (more than the prompts only under dynamic sampling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups_drawn: Option<usize>,
    /// Groups dynamic sampling dropped (every reward alike) and did not train on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups_dropped: Option<usize>,
    /// pass@k of the updated policy on the held-out prompts, every `pass_k_every` iterations
    /// and on the last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_at_k: Option<PassAtK>,
}

/// pass@k of one policy on the task's fixed evaluation prompts (held out from training):
/// `n` answers sampled per prompt, Chen et al.'s unbiased estimate for k = 1 … n.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct PassAtK {
    /// Answers sampled per prompt.
    pub n: usize,
    /// Prompts per difficulty level.
    pub prompts_by_level: Vec<usize>,
    /// pass@k for k = 1 … n, the mean over every prompt.
    pub curve: Vec<f64>,
    /// pass@k for k = 1 … n per difficulty level.
    pub curve_by_level: Vec<Vec<f64>>,
    /// Mean length (tokens, `<eos>` included) of the correct answers (`None`: none).
    pub mean_length_correct: Option<f64>,
    /// Mean length of the wrong answers (`None`: none).
    pub mean_length_incorrect: Option<f64>,
}

/// What the supervised stage did: its loss curve and pass@k before and after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct SftStage {
    /// Demonstrations per step.
    pub batch: usize,
    /// Response tokens seen over the stage.
    pub tokens: usize,
    /// Mean cross-entropy per response token (nats) of every step's batch, before its update.
    pub losses: Vec<f64>,
    /// pass@k of the untrained network (when pass@k is on).
    pub pass_at_k_untrained: Option<PassAtK>,
    /// pass@k of the SFT policy, where RL starts (when pass@k is on).
    pub pass_at_k_sft: Option<PassAtK>,
}

/// Success rate the lesson calls "solved" (together with every greedy answer correct).
pub const SOLVED_SUCCESS: f64 = 0.95;

/// The end-of-run numbers of one sequence run (meaningful mid-run: "so far").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct SequenceSummary {
    /// The run's seed.
    pub seed: u64,
    /// The reduction trained with.
    pub reduction: String,
    /// Mean reward of the latest evaluation.
    pub final_mean_reward: f64,
    /// Fully correct fraction of the latest evaluation.
    pub final_success_rate: f64,
    /// Prompts the greedy policy answers correctly.
    pub greedy_correct: usize,
    /// Showcase prompts of the task (one per difficulty level).
    pub prompts: usize,
    /// Fully correct fraction per difficulty level, latest evaluation.
    pub final_success_by_level: Vec<f64>,
    /// Iterations done.
    pub iterations: usize,
    /// The first iteration after which every greedy answer was correct and the success rate
    /// at least [`SOLVED_SUCCESS`].
    pub solved_iteration: Option<usize>,
    /// The greedy answers now.
    pub greedy: Vec<GreedyAnswer>,
    /// pass@k of the untrained network, of the SFT policy and of the policy now, on the same
    /// held-out prompts (runs with pass@k on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_at_k: Option<PassAtKStages>,
}

/// pass@k at the pipeline's three stages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct PassAtKStages {
    /// Before any training.
    pub untrained: Option<PassAtK>,
    /// After SFT (`None`: the run has no SFT).
    pub sft: Option<PassAtK>,
    /// After the latest RL iteration with a pass@k evaluation.
    pub rl: Option<PassAtK>,
}

impl crate::train::Score for SequenceSummary {
    fn score(&self) -> (f64, Option<u64>) {
        (
            self.final_success_rate,
            self.solved_iteration.map(|i| i as u64),
        )
    }
}

impl SequenceSummary {
    /// Whether a report counts as solved: every one of the `prompts` showcase prompts
    /// answered correctly by the greedy policy, and the success rate high enough.
    pub fn is_solved(report: &IterationReport, prompts: usize) -> bool {
        report.greedy_correct == prompts && report.eval_success_rate >= SOLVED_SUCCESS
    }
}

/// A sequence run's reports as CSV, one row per iteration, every seed's after each other
/// (`runs`: each seed and its reports). Empty lengths: no such answer in that rollout; the
/// success per difficulty level as one column each.
pub fn reports_csv(runs: &[(u64, &[IterationReport])]) -> String {
    let levels = runs
        .iter()
        .flat_map(|(_, r)| r.iter().map(|x| x.success_by_level.len()))
        .max()
        .unwrap_or(0);
    let mut out = String::from(
        "seed,iteration,mean_reward,success_rate,mean_response_length,mean_length_correct,mean_length_incorrect,kl_to_reference,approx_kl,ratio_outside_fraction,active_clip_fraction,policy_loss,entropy,grad_norm,eval_mean_reward,eval_success_rate,greedy_correct",
    );
    for level in 1..=levels {
        let _ = write!(out, ",success_level_{level}");
    }
    out.push('\n');
    let opt = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
    for (seed, reports) in runs {
        for r in reports.iter() {
            let _ = write!(
                out,
                "{seed},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                r.iteration,
                r.mean_reward,
                r.success_rate,
                r.mean_response_length,
                opt(r.mean_length_correct),
                opt(r.mean_length_incorrect),
                r.kl_to_reference,
                r.approx_kl,
                r.ratio_outside_fraction,
                r.active_clip_fraction,
                r.policy_loss,
                r.entropy,
                r.grad_norm,
                r.eval_mean_reward,
                r.eval_success_rate,
                r.greedy_correct
            );
            for level in 0..levels {
                let _ = write!(out, ",{}", opt(r.success_by_level.get(level).copied()));
            }
            out.push('\n');
        }
    }
    out
}

/// A sequence panel exports every seed's reports.
impl<E> CsvExport<E> for IterationReport {
    fn board_csv<T: Trainer<Report = Self, Evaluation = E>>(board: &Board<T>) -> Result<String> {
        let runs: Vec<(u64, &[IterationReport])> = board
            .runs()
            .iter()
            .map(|r| (r.seed, &r.reports[..]))
            .collect();
        Ok(reports_csv(&runs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_csv_has_a_header_and_a_row_per_seed_and_iteration() {
        let mut t = crate::train::sequence::SequenceTrainer::new(
            crate::train::sequence::SequenceConfig::smoke(),
            5,
        )
        .unwrap();
        let reports = vec![t.step().unwrap(), t.step().unwrap()];
        let csv = reports_csv(&[(5, &reports), (6, &reports[..1])]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[1].starts_with("5,1,") && lines[2].starts_with("5,2,"));
        assert!(lines[3].starts_with("6,1,"));
        assert!(lines[0].ends_with("success_level_3"), "{}", lines[0]);
        assert_eq!(lines[0].split(',').count(), lines[2].split(',').count());
    }
}
