//! What a sequence run reports: per iteration, the first batch, the greedy answers, the
//! evaluation on fresh samples, and the run's summary.

use crate::error::Result;
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
}

/// Success rate the lesson calls "solved" (together with every greedy answer correct).
pub const SOLVED_SUCCESS: f64 = 0.95;

/// The end-of-run numbers of one sequence run (meaningful mid-run: "so far").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// A sequence run's reports as CSV, one row per iteration.
pub fn reports_csv(reports: &[IterationReport]) -> String {
    let mut out = String::from(
        "iteration,mean_reward,success_rate,mean_response_length,approx_kl,ratio_outside_fraction,active_clip_fraction,policy_loss,entropy,grad_norm,eval_mean_reward,eval_success_rate,greedy_correct\n",
    );
    for r in reports {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.iteration,
            r.mean_reward,
            r.success_rate,
            r.mean_response_length,
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
    }
    out
}

/// A sequence panel exports its first run's reports.
impl CsvExport for IterationReport {
    fn board_csv<T: Trainer<Report = Self>>(board: &Board<T>) -> Result<String> {
        Ok(reports_csv(
            board.runs().first().map_or(&[], |r| &r.reports),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_csv_has_a_header_and_a_row_per_iteration() {
        let mut t = crate::train::sequence::SequenceTrainer::new(
            crate::train::sequence::SequenceConfig::smoke(),
            5,
        )
        .unwrap();
        let reports = vec![t.step().unwrap(), t.step().unwrap()];
        let csv = reports_csv(&reports);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].starts_with("1,") && lines[2].starts_with("2,"));
        assert_eq!(lines[0].split(',').count(), lines[2].split(',').count());
    }
}
