//! The loss of one batch under the current policy — the clipped surrogate (token- or
//! sequence-level ratio, clip-higher) under the configured reduction, plus β times the KL
//! estimator when the KL goes in the loss, minus the annealed entropy bonus — and its exact
//! gradient.

use super::config::{KlPlacement, RatioLevel};
use super::rollout::RolloutBatch;
use super::SequenceTrainer;
use crate::error::{Error, Result};
use crate::math;
use crate::nn::categorical;
use crate::rl::{self, DiagnosticsAccumulator};
use ndarray::Array2;

/// The loss of one batch, its parts, and its gradient.
#[derive(Debug, Clone, PartialEq)]
pub struct LossAndGradient {
    /// What the update minimises: `policy_loss + kl_loss − entropy_coef_now · mean_entropy`.
    pub loss: f64,
    /// −objective of the clipped surrogate under the configured reduction.
    pub policy_loss: f64,
    /// β · the KL estimator reduced like the policy terms (0 unless the KL is in the loss).
    pub kl_loss: f64,
    /// Mean entropy of the policy over response tokens.
    pub mean_entropy: f64,
    /// d loss / d parameter, flat like the policy's parameters.
    pub grad: Vec<f64>,
}

impl SequenceTrainer {
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
    /// [`Self::entropy_coef_now`] times the mean entropy over response tokens.
    pub fn loss_and_gradient(
        &self,
        batch: &RolloutBatch,
        diagnostics: Option<&mut DiagnosticsAccumulator>,
    ) -> Result<LossAndGradient> {
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
        // Row sums in index order (ndarray's sum would reassociate them).
        let counts: Vec<f64> = batch
            .mask
            .rows()
            .into_iter()
            .map(|m| m.iter().sum())
            .collect();
        let total: f64 = counts.iter().sum();
        let coef = self.entropy_coef_now();
        let entropy_weight = coef / total.max(1.0);
        let mut sums = vec![0.0; rows];
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
        let grad = self.policy.backward(&tape, &d_logits)?;
        let loss = if kl_in_loss {
            policy_loss + kl_loss - coef * mean_entropy
        } else {
            policy_loss - coef * mean_entropy
        };
        Ok(LossAndGradient {
            loss,
            policy_loss,
            kl_loss,
            mean_entropy,
            grad,
        })
    }
}
