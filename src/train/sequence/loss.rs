//! The loss of one batch under the current policy — the token-level clipped surrogate under
//! the configured reduction, minus the annealed entropy bonus — and its exact gradient.

use super::rollout::RolloutBatch;
use super::task::NUM_ACTIONS;
use super::SequenceTrainer;
use crate::error::{Error, Result};
use crate::math;
use crate::nn::categorical;
use crate::rl::{self, DiagnosticsAccumulator};
use ndarray::Array2;

/// The loss of one batch, its parts, and its gradient.
#[derive(Debug, Clone, PartialEq)]
pub struct LossAndGradient {
    /// What the update minimises: `policy_loss − entropy_coef_now · mean_entropy`.
    pub loss: f64,
    /// −objective of the token-level clipped surrogate under the configured reduction.
    pub policy_loss: f64,
    /// Mean entropy of the policy over response tokens.
    pub mean_entropy: f64,
    /// d loss / d parameter, flat like the policy's parameters.
    pub grad: Vec<f64>,
}

impl SequenceTrainer {
    /// `[B, T−1]` log-probs of the batch's response tokens under the current policy, 0 off
    /// the mask (the "new" log-probs of PPO).
    pub fn token_log_probs(&self, batch: &RolloutBatch) -> Result<Array2<f64>> {
        let tape = self.policy.forward(&Self::model_inputs(batch)?)?;
        let mut out = Array2::zeros((batch.len(), tape.steps()));
        for ((b, k), value) in out.indexed_iter_mut() {
            if batch.mask[[b, k]] == 1.0 {
                *value = tape.log_probs(b, k)[Self::label_action(batch, b, k)?];
            }
        }
        Ok(out)
    }

    /// The entropy weight of the coming iteration: `entropy_coef` annealed linearly to 0.
    pub fn entropy_coef_now(&self) -> f64 {
        let left = self.config.iterations.saturating_sub(self.iteration) as f64;
        self.config.entropy_coef * left / self.config.iterations as f64
    }

    /// The loss of `batch` under the current policy and its gradient with respect to every
    /// parameter; token diagnostics go into `diagnostics`.
    ///
    /// The policy part is −objective of [`rl::masked_token_ppo_objective`]: per response token
    /// min(r·A, clip(r, 1 − ε, 1 + ε)·A) with r = exp(new − old), reduced by
    /// `config.reduction`. Its derivative with respect to the new log-prob is
    /// weight · r · A where the unclipped term is the minimum, and 0 where clipping is active.
    /// The total subtracts [`Self::entropy_coef_now`] times the mean entropy over response
    /// tokens.
    pub fn loss_and_gradient(
        &self,
        batch: &RolloutBatch,
        diagnostics: Option<&mut DiagnosticsAccumulator>,
    ) -> Result<LossAndGradient> {
        let eps = self.config.clip_epsilon;
        let tape = self.policy.forward(&Self::model_inputs(batch)?)?;
        let (rows, steps) = (tape.batch(), tape.steps());
        // mask and old_log_probs must be [B, T−1] and advantages [B].
        let shape = |m: &Array2<f64>| vec![m.nrows(), m.ncols()];
        if batch.advantages.len() != rows {
            let got = vec![batch.advantages.len()];
            return Err(Error::shape("advantages", vec![rows], got));
        }
        for (arg, m) in [
            ("mask", &batch.mask),
            ("old_log_probs", &batch.old_log_probs),
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
        let mut entropy_sum = 0.0;
        let mut d_logits = vec![0.0; rows * steps * NUM_ACTIONS];
        let mut d_log_probs = [0.0; NUM_ACTIONS];
        let mut diagnostics = diagnostics;
        for b in 0..rows {
            let advantage = batch.advantages[b];
            let weight = self.config.reduction.token_weight(
                counts[b],
                total,
                rows,
                self.config.max_response_len,
            );
            for k in 0..steps {
                if batch.mask[[b, k]] != 1.0 {
                    continue;
                }
                let action = Self::label_action(batch, b, k)?;
                let log_probs = tape.log_probs(b, k);
                let log_ratio = log_probs[action] - batch.old_log_probs[[b, k]];
                let ratio = math::exp(log_ratio);
                let unclipped = ratio * advantage;
                let pessimistic = rl::clipped_objective(ratio, advantage, eps);
                sums[b] += pessimistic;
                if let Some(acc) = diagnostics.as_deref_mut() {
                    acc.add(log_ratio, advantage, eps);
                }
                let i = (b * steps + k) * NUM_ACTIONS;
                let d = &mut d_logits[i..i + NUM_ACTIONS];
                // Where clipping is active the minimum is a constant in r: no gradient.
                if unclipped <= pessimistic {
                    d_log_probs.fill(0.0);
                    // Loss = −objective.
                    d_log_probs[action] = -weight * unclipped;
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
        let policy_loss =
            -self
                .config
                .reduction
                .reduce(&sums, &counts, Some(self.config.max_response_len))?;
        let mean_entropy = entropy_sum / total.max(1.0);
        let grad = self.policy.backward(&tape, &d_logits)?;
        Ok(LossAndGradient {
            loss: policy_loss - coef * mean_entropy,
            policy_loss,
            mean_entropy,
            grad,
        })
    }
}
