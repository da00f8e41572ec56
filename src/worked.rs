//! The lessons' worked examples, computed by the core (the page shows these numbers; none is
//! typed into the text). Inputs are the ones the lessons state.

use crate::plots::clipping::four_rows;
use crate::plots::gae::{analyse_trajectory, GaeAnalysis, GaeTrajectory};
use crate::rl::{self, Reduction};
use crate::{math, Result};
use serde::Serialize;

/// All worked examples, keyed as the lessons' `data-worked` paths.
#[derive(Debug, Clone, Serialize)]
pub struct WorkedExamples {
    pub score: Score,
    pub returns: Returns,
    pub bstar: BStar,
    pub rloo: Rloo,
    pub simulation: Simulation,
    pub simulation_exact: SimulationExact,
    pub gae: Gae,
    pub ppo: Ppo,
    pub tokens: Tokens,
    pub verifier: Verifier,
}

/// Lesson 8: the verifier's rule and what it pays for sample answers to prompt q0.
#[derive(Debug, Clone, Serialize)]
pub struct Verifier {
    pub first_symbol: f64,
    pub second_symbol: f64,
    pub stop: f64,
    pub overlong_penalty: f64,
    /// The correct answer to q0.
    pub correct_q0: String,
    pub examples: Vec<VerifierExample>,
}

/// One answer and its verdict.
#[derive(Debug, Clone, Serialize)]
pub struct VerifierExample {
    pub answer: String,
    pub reward: f64,
    pub correct: bool,
}

fn verifier() -> Verifier {
    use crate::train::sequence::task::{self, EOS, FIRST_SYMBOL};
    let [a, c, b, d] = [0, 2, 1, 3].map(|k| FIRST_SYMBOL + k);
    let answers: [&[i64]; 7] = [
        &[a, c, EOS],
        &[a, b, EOS],
        &[c, a, EOS],
        &[a, EOS],
        &[a, c, d, EOS],
        &[a, c, d, b],
        &[EOS],
    ];
    let tenths = |t: i32| f64::from(t) / 10.0;
    Verifier {
        first_symbol: tenths(task::FIRST_SYMBOL_TENTHS),
        second_symbol: tenths(task::SECOND_SYMBOL_TENTHS),
        stop: tenths(task::STOP_TENTHS),
        overlong_penalty: tenths(task::OVERLONG_TENTHS),
        correct_q0: task::decode(&task::correct_response(0)),
        examples: answers
            .iter()
            .map(|r| {
                let v = task::verify(0, r);
                VerifierExample {
                    answer: task::decode(r),
                    reward: v.reward,
                    correct: v.correct,
                }
            })
            .collect(),
    }
}

/// Lesson 1: the score of a softmax policy.
#[derive(Debug, Clone, Serialize)]
pub struct Score {
    pub logits: Vec<f64>,
    pub action: usize,
    pub probs: Vec<f64>,
    pub grad: Vec<f64>,
    pub grad_sum: f64,
}

/// Lesson 2: reward-to-go and the discounted weights γ^t G_t.
#[derive(Debug, Clone, Serialize)]
pub struct Returns {
    pub rewards: Vec<f64>,
    pub gamma: f64,
    pub reward_to_go: Vec<f64>,
    pub discounts: Vec<f64>,
    pub weights: Vec<f64>,
}

/// Lesson 3: the variance-optimal baseline against the value V.
#[derive(Debug, Clone, Serialize)]
pub struct BStar {
    pub probs: Vec<f64>,
    pub q: Vec<f64>,
    pub grad_norm_sq: Vec<f64>,
    pub value: f64,
    pub b_star: f64,
}

/// Lesson 3: a group of four under the three baselines.
#[derive(Debug, Clone, Serialize)]
pub struct Rloo {
    pub rewards: Vec<f64>,
    pub group_mean: f64,
    pub centered: Vec<f64>,
    pub loo_baselines: Vec<f64>,
    pub rloo: Vec<f64>,
    pub ratio: f64,
    pub same_group_scale: f64,
}

/// Lesson 3: the notebook's baseline-bias experiment and its z-scores.
#[derive(Debug, Clone, Serialize)]
pub struct Simulation {
    pub group_size: usize,
    pub groups: usize,
    pub seed: u64,
    /// The eight quantities (flattened: `simulation.exact`, `simulation.rloo_mean`, …).
    #[serde(flatten)]
    pub result: rl::BaselineBias,
    pub z_plain: f64,
    pub z_same: f64,
    pub z_rloo: f64,
    pub z_same_vs_exact: f64,
}

/// Exact stds of the three estimators at the experiment's group size.
#[derive(Debug, Clone, Serialize)]
pub struct SimulationExact {
    pub plain_std: f64,
    pub same_group_std: f64,
    pub rloo_std: f64,
}

/// Lesson 4: the two-record GAE example, with two masks and with a single `done` (both
/// flattened: `gae.rewards`, `gae.advantages`, `gae.single_done_advantages`, …).
#[derive(Debug, Clone, Serialize)]
pub struct Gae {
    #[serde(flatten)]
    pub trajectory: GaeTrajectory,
    #[serde(flatten)]
    pub analysis: GaeAnalysis,
}

/// Lesson 5: the four PPO rows at ε = 0.2.
#[derive(Debug, Clone, Serialize)]
pub struct Ppo {
    pub clip_epsilon: f64,
    pub ratio: Vec<f64>,
    pub advantage: Vec<f64>,
    pub unclipped: Vec<f64>,
    pub clipped: Vec<f64>,
    pub pessimistic: Vec<f64>,
    pub mean_objective: f64,
    pub ratio_outside_fraction: f64,
    pub active_clip_fraction: f64,
    pub approx_kl: f64,
    pub mean_log_ratio: f64,
    pub kl_terms: Vec<f64>,
}

/// Lesson 7: the two-row token example.
#[derive(Debug, Clone, Serialize)]
pub struct Tokens {
    pub input_ids: Vec<Vec<i64>>,
    pub prompt_lengths: Vec<usize>,
    pub advantages: Vec<f64>,
    pub clip_epsilon: f64,
    pub mask: Vec<Vec<f64>>,
    pub mask_without_eos: Vec<Vec<f64>>,
    pub ratio: Vec<Vec<f64>>,
    pub unclipped: Vec<Vec<f64>>,
    pub pessimistic: Vec<Vec<f64>>,
    pub tokens_per_row: Vec<f64>,
    pub sequence_log_ratio: Vec<f64>,
    pub sequence_ratio: Vec<f64>,
    pub token_mean: f64,
    pub sequence_mean: f64,
    pub sequence_sum_mean: f64,
}

/// The token example's inputs (PAD = 0, EOS = 2). Off-mask log-probs hold large junk on
/// purpose: it must never reach `exp`.
pub struct TokenExample {
    pub input_ids: Vec<Vec<i64>>,
    pub prompt_lengths: Vec<usize>,
    pub old_log_probs: Vec<Vec<f64>>,
    pub new_log_probs: Vec<Vec<f64>>,
    pub advantages: Vec<f64>,
}

/// PAD token of the token example.
pub const TOKEN_PAD: i64 = 0;
/// EOS token of the token example.
pub const TOKEN_EOS: i64 = 2;

/// The lesson's two-row token batch.
pub fn token_example() -> TokenExample {
    TokenExample {
        input_ids: vec![vec![1, 10, 11, 20, 21, 2, 0], vec![1, 12, 30, 2, 0, 0, 0]],
        prompt_lengths: vec![3, 2],
        old_log_probs: vec![
            vec![-9.0, -8.0, -1.0, -1.2, -0.8, -20.0],
            vec![-7.0, -0.7, -0.9, -30.0, -40.0, -50.0],
        ],
        new_log_probs: vec![
            vec![9.0, 8.0, -0.7, -1.5, -0.9, 20.0],
            vec![7.0, -0.5, -1.2, 30.0, 40.0, 50.0],
        ],
        advantages: vec![1.5, -0.8],
    }
}

/// The token example at clip range `clip_epsilon`.
pub fn tokens(clip_epsilon: f64) -> Result<Tokens> {
    let ex = token_example();
    let mask = rl::response_token_mask(
        &ex.input_ids,
        &ex.prompt_lengths,
        TOKEN_PAD,
        TOKEN_EOS,
        true,
    )?;
    let mask_without_eos = rl::response_token_mask(
        &ex.input_ids,
        &ex.prompt_lengths,
        TOKEN_PAD,
        TOKEN_EOS,
        false,
    )?;
    let terms = rl::masked_token_ppo_terms(
        &ex.new_log_probs,
        &ex.old_log_probs,
        &ex.advantages,
        &mask,
        clip_epsilon,
    )?;
    let sequence_log_ratio =
        rl::sequence_log_probability_ratio(&ex.new_log_probs, &ex.old_log_probs, &mask)?;
    let objective = |r| {
        rl::masked_token_ppo_objective(
            &ex.new_log_probs,
            &ex.old_log_probs,
            &ex.advantages,
            &mask,
            clip_epsilon,
            r,
        )
    };
    Ok(Tokens {
        tokens_per_row: mask.iter().map(|row| row.iter().sum()).collect(),
        sequence_ratio: sequence_log_ratio.iter().map(|&x| math::exp(x)).collect(),
        sequence_log_ratio,
        token_mean: objective(Reduction::TokenMean)?,
        sequence_mean: objective(Reduction::SequenceMean)?,
        sequence_sum_mean: objective(Reduction::SequenceSumMean)?,
        input_ids: ex.input_ids,
        prompt_lengths: ex.prompt_lengths,
        advantages: ex.advantages,
        clip_epsilon,
        mask,
        mask_without_eos,
        ratio: terms.ratio,
        unclipped: terms.unclipped,
        pessimistic: terms.pessimistic,
    })
}

fn score() -> Result<Score> {
    let logits = vec![1.0, 0.0, -1.0];
    let action = 2;
    let grad = rl::grad_log_softmax(&logits, action)?;
    Ok(Score {
        probs: rl::stable_softmax(&logits)?,
        grad_sum: grad.iter().sum(),
        grad,
        logits,
        action,
    })
}

fn returns() -> Result<Returns> {
    let (rewards, gamma) = (vec![1.0, 0.0, 2.0], 0.5);
    let discounts = (0..rewards.len()).map(|t| gamma_pow(gamma, t)).collect();
    Ok(Returns {
        reward_to_go: rl::reward_to_go(&rewards, gamma)?,
        weights: rl::discounted_score_weights(&rewards, gamma)?,
        discounts,
        rewards,
        gamma,
    })
}

fn gamma_pow(gamma: f64, t: usize) -> f64 {
    (0..t).fold(1.0, |acc, _| acc * gamma)
}

/// b* = Σ_a p_a ‖∇log π(a)‖² q_a / Σ_a p_a ‖∇log π(a)‖² for a softmax policy over logits.
pub fn optimal_baseline(logits: &[f64], q: &[f64]) -> Result<(Vec<f64>, f64, f64)> {
    let probs = rl::stable_softmax(logits)?;
    let norms: Vec<f64> = (0..probs.len())
        .map(|a| rl::grad_log_softmax(logits, a).map(|g| g.iter().map(|x| x * x).sum()))
        .collect::<Result<_>>()?;
    let value = probs.iter().zip(q).map(|(p, q)| p * q).sum();
    let num: f64 = (0..probs.len()).map(|a| probs[a] * norms[a] * q[a]).sum();
    let den: f64 = (0..probs.len()).map(|a| probs[a] * norms[a]).sum();
    Ok((norms, value, num / den))
}

fn bstar() -> Result<BStar> {
    // Logits (ln 4, 0) give probabilities (0.8, 0.2): action 1 is the rare one.
    let logits = [math::ln(4.0), 0.0];
    let q = vec![1.0, 3.0];
    let (grad_norm_sq, value, b_star) = optimal_baseline(&logits, &q)?;
    Ok(BStar {
        probs: rl::stable_softmax(&logits)?,
        q,
        grad_norm_sq,
        value,
        b_star,
    })
}

fn rloo() -> Result<Rloo> {
    let rewards = vec![1.0, 0.0, 0.5, 0.0];
    let centered = rl::group_mean_advantages(&rewards)?;
    let rloo = rl::rloo_advantages(&rewards)?;
    let g = rewards.len() as f64;
    Ok(Rloo {
        group_mean: rewards.iter().sum::<f64>() / g,
        loo_baselines: rl::leave_one_out_baselines(&rewards)?,
        ratio: rloo[0] / centered[0],
        same_group_scale: (g - 1.0) / g,
        centered,
        rloo,
        rewards,
    })
}

/// The notebook's experiment: G = 8, 80 000 groups, seed 2026.
pub fn simulation(group_size: usize, groups: usize, seed: u64) -> Result<Simulation> {
    let r = rl::simulate_group_baseline_bias(group_size, groups, seed)?;
    let m = (groups as f64).sqrt();
    let z = |mean: f64, expected: f64, std: f64| {
        if std > 0.0 {
            (mean - expected) / (std / m)
        } else {
            0.0
        }
    };
    Ok(Simulation {
        group_size,
        groups,
        seed,
        z_plain: z(r.plain_mean, r.exact, r.plain_std),
        z_same: z(r.same_group_mean, r.predicted_same_group, r.same_group_std),
        z_rloo: z(r.rloo_mean, r.exact, r.rloo_std),
        z_same_vs_exact: z(r.same_group_mean, r.exact, r.same_group_std),
        result: r,
    })
}

fn gae() -> Result<Gae> {
    // Record 0 is a buffer boundary (bootstrap, cut), record 1 a terminal. One `done` flag
    // answers both questions at once: record 0 ends the data, so it is also treated as terminal.
    let trajectory = GaeTrajectory {
        rewards: vec![1.0, 100.0],
        values: vec![2.0, 0.0],
        next_values: vec![10.0, 0.0],
        terminated: vec![false, true],
        trace_cuts: vec![true, true],
        done: vec![true, true],
    };
    let analysis = analyse_trajectory(&trajectory, 0.9, 1.0)?;
    Ok(Gae {
        trajectory,
        analysis,
    })
}

fn ppo() -> Result<Ppo> {
    let rows = four_rows(0.2)?;
    let kl_terms = rows
        .ratio
        .iter()
        .map(|r| (r - 1.0) - math::ln(*r))
        .collect();
    Ok(Ppo {
        clip_epsilon: rows.clip_epsilon,
        ratio: rows.ratio.to_vec(),
        advantage: rows.advantage.to_vec(),
        mean_objective: rows.mean_objective,
        ratio_outside_fraction: rows.diagnostics.ratio_outside_fraction,
        active_clip_fraction: rows.diagnostics.active_clip_fraction,
        approx_kl: rows.diagnostics.approx_kl_nonnegative,
        mean_log_ratio: rows.diagnostics.mean_log_ratio,
        kl_terms,
        unclipped: rows.terms.unclipped,
        clipped: rows.terms.clipped,
        pessimistic: rows.terms.pessimistic,
    })
}

/// Computes every worked example.
pub fn worked_examples() -> Result<WorkedExamples> {
    let (plain_std, same_group_std, rloo_std) = rl::bandit_exact_stds(8);
    Ok(WorkedExamples {
        score: score()?,
        returns: returns()?,
        bstar: bstar()?,
        rloo: rloo()?,
        simulation: simulation(8, 80_000, 2026)?,
        simulation_exact: SimulationExact {
            plain_std,
            same_group_std,
            rloo_std,
        },
        gae: gae()?,
        ppo: ppo()?,
        tokens: tokens(0.2)?,
        verifier: verifier(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * (1.0 + b.abs())
    }

    #[test]
    fn the_lessons_numbers() {
        let w = worked_examples().unwrap();
        assert_eq!(w.gae.analysis.advantages, vec![8.0, 100.0]);
        assert!(close(w.gae.analysis.value_targets[0], 10.0));
        assert!(
            close(w.gae.analysis.single_done_advantages[0], -1.0),
            "{:?}",
            w.gae.analysis.single_done_advantages
        );
        assert!(close(w.rloo.ratio, 4.0 / 3.0));
        assert!(close(w.rloo.same_group_scale, 0.75));
        assert!(close(w.ppo.approx_kl, 0.14384103622589045));
        assert_eq!(
            (w.ppo.ratio_outside_fraction, w.ppo.active_clip_fraction),
            (1.0, 0.5)
        );
        // b*: (0.8·0.08·1 + 0.2·1.28·3) / (0.8·0.08 + 0.2·1.28) = 2.6 against V = 1.4.
        assert!(close(w.bstar.b_star, 2.6), "{}", w.bstar.b_star);
        assert!(close(w.bstar.value, 1.4));
        assert!(close(w.bstar.grad_norm_sq[0], 0.08) && close(w.bstar.grad_norm_sq[1], 1.28));
        assert_eq!(w.returns.reward_to_go, vec![1.5, 1.0, 2.0]);
        assert_eq!(w.returns.weights, vec![1.5, 0.5, 0.5]);
        assert!(w.score.grad_sum.abs() < 1e-15);
        assert!(close(w.tokens.token_mean, 0.530272250309676));
        assert!(close(w.tokens.sequence_mean, 0.3071333580473853));
        assert!(close(w.tokens.sequence_sum_mean, 1.32568062577419));
        assert_eq!(w.tokens.tokens_per_row, vec![3.0, 2.0]);
        assert!(w.simulation.z_same_vs_exact < -30.0);
        let json = serde_json::to_value(&w).unwrap();
        assert!(
            json["simulation"]["rloo_mean"].is_number(),
            "flattened paths stay as the lessons use them"
        );
        assert!(w.simulation.z_rloo.abs() < 4.0 && w.simulation.z_same.abs() < 4.0);
        let rewards: Vec<f64> = w.verifier.examples.iter().map(|e| e.reward).collect();
        assert_eq!(rewards, vec![1.0, 0.7, 0.4, 0.3, 0.5, 0.4, 0.0]);
        assert_eq!(w.verifier.examples[0].answer, "A C <eos>");
        assert!(w.verifier.examples[0].correct && !w.verifier.examples[1].correct);
    }
}
