//! The loss of one batch under the current policy — the clipped surrogate (token- or
//! sequence-level ratio, clip-higher) under the configured reduction, plus β times the KL
//! estimator when the KL goes in the loss, minus the annealed entropy bonus reduced the same
//! way — and its exact gradient.

use super::config::{KlPlacement, RatioLevel};
use super::rollout::RolloutBatch;
use super::{Policy, SequenceRun};
use crate::error::{Error, Result};
use crate::math;
use crate::nn::{categorical, PolicyTape, Scalar};
use crate::rl::{self, DiagnosticsAccumulator, Reduction};
use ndarray::Array2;

/// The loss of one batch, its parts, and its gradient (in the network's scalar `S`).
#[derive(Debug, Clone, PartialEq)]
pub struct LossAndGradient<S = f64> {
    /// What the update minimises: `policy_loss + kl_loss − entropy_bonus`.
    pub loss: f64,
    /// −objective of the clipped surrogate under the configured reduction.
    pub policy_loss: f64,
    /// β · the KL estimator reduced like the policy terms (0 unless the KL is in the loss).
    pub kl_loss: f64,
    /// [`SequenceRun::entropy_coef_now`] times the policy's entropy per response token,
    /// reduced like the policy terms (under `token_mean`: times `mean_entropy`).
    pub entropy_bonus: f64,
    /// Mean entropy of the policy over response tokens (the reports' `entropy`, whatever the
    /// reduction).
    pub mean_entropy: f64,
    /// d loss / d parameter, flat like the policy's parameters.
    pub grad: Vec<S>,
}

impl<S: Scalar> LossAndGradient<S> {
    /// The same, the gradient widened to f64 (exactly: f32 widens without rounding).
    pub fn widened(self) -> LossAndGradient<f64> {
        LossAndGradient {
            loss: self.loss,
            policy_loss: self.policy_loss,
            kl_loss: self.kl_loss,
            entropy_bonus: self.entropy_bonus,
            mean_entropy: self.mean_entropy,
            grad: self.grad.into_iter().map(S::to_f64).collect(),
        }
    }
}

impl<P: Policy> SequenceRun<P> {
    /// `[B, T−1]` log-probs of the batch's response tokens under the current policy, 0 off
    /// the mask (the "new" log-probs of PPO).
    pub fn token_log_probs(&self, batch: &RolloutBatch) -> Result<Array2<f64>> {
        Self::log_probs_under(&self.policy, batch)
    }

    /// The entropy weight of the coming iteration: `entropy_coef` annealed linearly to 0.
    pub fn entropy_coef_now(&self) -> f64 {
        let left = self.config.iterations.saturating_sub(self.iteration) as f64;
        self.config.entropy_coef * left / self.config.iterations as f64
    }

    /// The loss of `batch` under the current policy and its gradient with respect to every
    /// parameter; token diagnostics go into `diagnostics`.
    ///
    /// Per response token the policy term is min(r·A, clip(r, 1 − ε, 1 + ε_high)·A) with
    /// r = exp(new − old) (`ratio_level = token`, [`rl::masked_token_ppo_objective`] when
    /// ε_high = ε) or r = the response's [`rl::sequence_level_ratio`], shared by its tokens
    /// (`sequence`); the terms are reduced by `config.reduction` (`w_b` = the weight a token of
    /// row b gets). The derivative of the objective with respect to the new log-prob of token
    /// t of row b is w_b·r_t·A at token level and Σ_t' w_b·A·∂s_b/∂log π_t = w_b·s_b·A at
    /// sequence level (∂s_b/∂log π_t = s_b/n_b), where the unclipped term is the minimum, and 0
    /// where clipping is active. With the KL in the loss, β·k(log π − log π_ref) per token is
    /// reduced the same way; its derivative is β·w_b·k'(d). The total subtracts
    /// [`Self::entropy_coef_now`] times the tokens' entropies reduced the same way again
    /// ([`entropy_token_weight`]): under `constant_length` a long response's entropy counts
    /// as much per token as its policy terms do, so the bonus does not reweigh lengths behind
    /// the reduction's back.
    pub fn loss_and_gradient(
        &self,
        batch: &RolloutBatch,
        diagnostics: Option<&mut DiagnosticsAccumulator>,
    ) -> Result<LossAndGradient<P::Scalar>> {
        let c = &self.config;
        let (eps, eps_high) = (c.clip_epsilon, c.epsilon_high());
        let kl_in_loss = c.kl_placement == KlPlacement::Loss;
        let beta = c.kl_coef;
        let actions = c.task.num_actions();
        let tape = self.policy.forward(&Self::model_inputs(batch)?)?;
        let (rows, steps) = (tape.batch(), tape.steps());
        // mask, old and reference log-probs must be [B, T−1] and advantages [B].
        let shape = |m: &Array2<f64>| vec![m.nrows(), m.ncols()];
        if batch.advantages.len() != rows {
            let got = vec![batch.advantages.len()];
            return Err(Error::shape("advantages", vec![rows], got));
        }
        for (arg, m) in [
            ("mask", &batch.mask),
            ("old_log_probs", &batch.old_log_probs),
            ("ref_log_probs", &batch.ref_log_probs),
        ] {
            if m.dim() != (rows, steps) {
                return Err(Error::shape(arg, vec![rows, steps], shape(m)));
            }
        }
        let counts = rl::row_sums(batch.mask.view());
        let total: f64 = counts.iter().sum();
        let coef = self.entropy_coef_now();
        let mut sums = vec![0.0; rows];
        let mut entropy_rows = vec![0.0; rows];
        let mut kl_sums = vec![0.0; rows];
        let mut entropy_sum = 0.0;
        let mut d_logits = vec![0.0; rows * steps * actions];
        let mut d_log_probs = vec![0.0; actions];
        let mut diagnostics = diagnostics;
        for b in 0..rows {
            let advantage = batch.advantages[b];
            let weight = c
                .reduction
                .token_weight(counts[b], total, rows, c.max_response_len);
            let entropy_weight = entropy_token_weight(
                c.reduction,
                coef,
                counts[b],
                total,
                rows,
                c.max_response_len,
            );
            // GSPO: one log-ratio per row, the mean of its tokens'.
            let sequence_log_ratio = match c.ratio_level {
                RatioLevel::Token => None,
                RatioLevel::Sequence => {
                    let mut sum = 0.0;
                    for k in 0..steps {
                        if batch.mask[[b, k]] == 1.0 {
                            let action = Self::label_action(batch, b, k)?;
                            sum += tape.log_probs(b, k)[action] - batch.old_log_probs[[b, k]];
                        }
                    }
                    Some(sum / counts[b].max(1.0))
                }
            };
            for k in 0..steps {
                if batch.mask[[b, k]] != 1.0 {
                    continue;
                }
                let action = Self::label_action(batch, b, k)?;
                let log_probs = tape.log_probs(b, k);
                let log_ratio = sequence_log_ratio
                    .unwrap_or_else(|| log_probs[action] - batch.old_log_probs[[b, k]]);
                let ratio = math::exp(log_ratio);
                let unclipped = ratio * advantage;
                let pessimistic = rl::asymmetric_clipped_objective(ratio, advantage, eps, eps_high);
                sums[b] += pessimistic;
                if let Some(acc) = diagnostics.as_deref_mut() {
                    acc.add_asymmetric(log_ratio, advantage, eps, eps_high);
                }
                // d loss / d log π(token); where clipping is active the minimum is a
                // constant in r: no gradient from the policy term.
                let mut d_log_prob = (unclipped <= pessimistic).then(|| -weight * unclipped);
                if kl_in_loss {
                    let d = log_probs[action] - batch.ref_log_probs[[b, k]];
                    kl_sums[b] += c.kl_estimator.value(d);
                    let g = beta * weight * c.kl_estimator.derivative(d);
                    d_log_prob = Some(d_log_prob.map_or(g, |x| x + g));
                }
                let i = (b * steps + k) * actions;
                let d = &mut d_logits[i..i + actions];
                if let Some(g) = d_log_prob {
                    d_log_probs.fill(0.0);
                    d_log_probs[action] = g;
                    categorical::log_softmax_backward(log_probs, &d_log_probs, d);
                }
                let entropy = categorical::entropy_of_log_probs(log_probs);
                entropy_sum += entropy;
                entropy_rows[b] += entropy;
                if entropy_weight > 0.0 {
                    categorical::add_negative_entropy_gradient(
                        log_probs,
                        entropy,
                        entropy_weight,
                        d,
                    );
                }
            }
        }
        let length = Some(c.max_response_len);
        let policy_loss = -c.reduction.reduce(&sums, &counts, length)?;
        let kl_loss = if kl_in_loss {
            beta * c.reduction.reduce(&kl_sums, &counts, length)?
        } else {
            0.0
        };
        let mean_entropy = entropy_sum / total.max(1.0);
        let entropy_bonus = coef * c.reduction.reduce(&entropy_rows, &counts, length)?;
        let grad = self.policy.backward(&tape, &d_logits)?;
        let loss = if kl_in_loss {
            policy_loss + kl_loss - entropy_bonus
        } else {
            policy_loss - entropy_bonus
        };
        Ok(LossAndGradient {
            loss,
            policy_loss,
            kl_loss,
            entropy_bonus,
            mean_entropy,
            grad,
        })
    }
}

/// The entropy bonus's weight on one token of a row with `row_count` response tokens:
/// `coef` times the reduction's token weight ([`Reduction::token_weight`]), written as `coef`
/// over the reduction's denominator so that `token_mean` keeps the bits it always had
/// (`coef / total`).
fn entropy_token_weight(
    reduction: Reduction,
    coef: f64,
    row_count: f64,
    total_count: f64,
    batch: usize,
    max_length: usize,
) -> f64 {
    match reduction {
        Reduction::TokenMean => coef / total_count.max(1.0),
        Reduction::SequenceMean => coef / (row_count.max(1.0) * batch as f64),
        Reduction::SequenceSumMean => coef / batch as f64,
        Reduction::ConstantLength => coef / (batch as f64 * max_length as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::sequence::{SequenceConfig, SequenceProfile};
    use crate::train::settings::Settings;

    /// The loss and gradient of one rollout of `reduction` with every advantage 0 and no KL:
    /// the entropy bonus alone.
    fn entropy_only(reduction: Reduction) -> (LossAndGradient, RolloutBatch, SequenceConfig) {
        let config = SequenceConfig {
            iterations: 5,
            group_size: 4,
            prompts_per_iteration: 3,
            embed_dim: 5,
            hidden_dim: 6,
            eval_samples_per_prompt: 4,
            kl_placement: crate::train::sequence::KlPlacement::Off,
            entropy_coef: 0.3,
            reduction,
            ..SequenceConfig::for_profile(SequenceProfile::Grpo)
        };
        let mut trainer = SequenceRun::<crate::nn::Gru>::new(config.clone(), 11).unwrap();
        let mut batch = trainer.collect_rollout().unwrap();
        batch.advantages.fill(0.0);
        let out = trainer.loss_and_gradient(&batch, None).unwrap();
        (out, batch, config)
    }

    /// Under `constant_length` the entropy bonus is Σ H / (B·L), not the token mean: its
    /// gradient is token_mean's scaled by (number of tokens) / (B·L), and the lengths of the
    /// responses differ (else the two would agree for any weighting).
    #[test]
    fn the_entropy_bonus_follows_constant_length() {
        let (mean, batch, config) = entropy_only(Reduction::TokenMean);
        let (constant, same, _) = entropy_only(Reduction::ConstantLength);
        assert_eq!(batch, same, "the rollout does not depend on the reduction");
        let lengths: Vec<usize> = (0..batch.len()).map(|b| batch.response_len(b)).collect();
        assert!(lengths.iter().any(|&l| l != lengths[0]), "{lengths:?}");
        let total = lengths.iter().sum::<usize>() as f64;
        let scale = total / (batch.len() * config.max_response_len) as f64;
        assert!((scale - 1.0).abs() > 0.05, "scale {scale}");
        let worst = mean
            .grad
            .iter()
            .zip(&constant.grad)
            .map(|(m, c)| (m * scale - c).abs() / c.abs().max(1e-9))
            .fold(0.0_f64, f64::max);
        assert!(worst < 1e-9, "relative error {worst:e}");
        assert_eq!(mean.mean_entropy, constant.mean_entropy);
        let bonus = 0.3 * mean.mean_entropy * scale;
        assert!((constant.entropy_bonus - bonus).abs() < 1e-12 * bonus);
        assert_eq!(constant.loss, -constant.entropy_bonus);
    }

    /// Under `sequence_mean` each response's entropy is averaged over its own tokens first.
    #[test]
    fn the_entropy_bonus_follows_sequence_mean() {
        let (seq, _, _) = entropy_only(Reduction::SequenceMean);
        let (mean, _, _) = entropy_only(Reduction::TokenMean);
        let token_mean = 0.3 * mean.mean_entropy;
        assert!((mean.entropy_bonus - token_mean).abs() < 1e-12 * token_mean);
        assert!((seq.entropy_bonus - token_mean).abs() > 1e-6 * token_mean);
    }
}
