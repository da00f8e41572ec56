//! The PPO loss of one minibatch and its exact gradients: clipped policy surrogate,
//! (optionally clipped) value loss and entropy bonus.

use crate::envs::cartpole::NUM_ACTIONS;
use crate::math;
use crate::nn::{categorical, Mlp, MlpCache};
use crate::rl::DiagnosticsAccumulator;
use serde::{Deserialize, Serialize};

/// The inputs of one minibatch loss; slices are aligned, `obs` is `n × 4`.
#[derive(Debug, Clone, Copy)]
pub struct Minibatch<'a> {
    /// Observations (as f64 of the f32 observation), row-major.
    pub obs: &'a [f64],
    /// Actions taken.
    pub actions: &'a [usize],
    /// log π_old(a|s), stored at collection time.
    pub old_log_probs: &'a [f64],
    /// V_old(s), stored at collection time.
    pub old_values: &'a [f64],
    /// Advantages (already normalised if that is wanted).
    pub advantages: &'a [f64],
    /// Value targets (advantage + old value).
    pub returns: &'a [f64],
}

/// Coefficients of the PPO loss.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LossCoefficients {
    /// Policy ratio clip range ε; `f64::INFINITY` for no clipping (the clamp then leaves
    /// every ratio as it is and the objective is r·A).
    pub clip_epsilon: f64,
    /// Value clip range (the value moves at most this far from V_old), or none.
    pub value_clip: Option<f64>,
    /// Entropy bonus coefficient.
    pub ent_coef: f64,
    /// Value loss coefficient.
    pub vf_coef: f64,
}

/// The loss and its parts for one minibatch.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LossParts {
    /// policy_loss − ent_coef·entropy + vf_coef·value_loss (what is minimised).
    pub loss: f64,
    /// −mean min(r·A, clip(r)·A).
    pub policy_loss: f64,
    /// ½ mean of the (possibly clipped) squared value error.
    pub value_loss: f64,
    /// Mean entropy of the policy.
    pub entropy: f64,
    /// This minibatch's approximate KL mean((r − 1) − log r) before the step.
    pub approx_kl: f64,
}

/// Scratch space of [`ppo_loss_and_gradients`], reused between calls.
#[derive(Debug, Clone, Default)]
pub struct LossWorkspace {
    actor_cache: MlpCache,
    critic_cache: MlpCache,
    d_logits: Vec<f64>,
    d_values: Vec<f64>,
}

/// The full PPO loss of a minibatch (clipped policy loss, optionally clipped value loss,
/// entropy bonus) and its exact gradients, **written** into `actor_grads` and `critic_grads`.
/// Samples are also added to `diagnostics` when given.
#[allow(clippy::too_many_arguments)]
pub fn ppo_loss_and_gradients(
    actor: &Mlp,
    critic: &Mlp,
    mb: &Minibatch<'_>,
    coef: &LossCoefficients,
    ws: &mut LossWorkspace,
    actor_grads: &mut [f64],
    critic_grads: &mut [f64],
    mut diagnostics: Option<&mut DiagnosticsAccumulator>,
) -> LossParts {
    let n = mb.actions.len();
    let nf = n as f64;
    let LossWorkspace {
        actor_cache,
        critic_cache,
        d_logits,
        d_values,
    } = ws;
    let logits = actor.forward(mb.obs, n, actor_cache);
    let values = critic.forward(mb.obs, n, critic_cache);
    d_logits.clear();
    d_logits.resize(n * NUM_ACTIONS, 0.0);
    d_values.clear();
    d_values.resize(n, 0.0);
    let (eps, mut policy_sum, mut value_sum, mut entropy_sum) = (coef.clip_epsilon, 0.0, 0.0, 0.0);
    let mut kl_sum = 0.0;
    let mut probs = [0.0; NUM_ACTIONS];
    for i in 0..n {
        let row = &logits[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
        let (log_prob, entropy) = categorical::log_prob_entropy(row, mb.actions[i], &mut probs);
        // Clipped policy objective: min(r·A, clip(r, 1−ε, 1+ε)·A). Where the clipped branch is
        // the minimum the ratio is outside the range and the gradient is zero.
        let log_ratio = log_prob - mb.old_log_probs[i];
        let ratio = math::exp(log_ratio);
        let adv = mb.advantages[i];
        let unclipped = ratio * adv;
        let clipped = ratio.clamp(1.0 - eps, 1.0 + eps) * adv;
        policy_sum -= unclipped.min(clipped);
        let d_log_prob = if unclipped <= clipped {
            -adv * ratio / nf
        } else {
            0.0
        };
        entropy_sum += entropy;
        kl_sum += (ratio - 1.0) - log_ratio;
        let d_entropy = -coef.ent_coef / nf;
        categorical::backward(
            &probs,
            mb.actions[i],
            entropy,
            d_log_prob,
            d_entropy,
            &mut d_logits[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS],
        );
        if let Some(acc) = diagnostics.as_deref_mut() {
            acc.add(log_ratio, adv, eps);
        }
        // Value loss ½(V − R)², or with clipping ½ max((V − R)², (V_clip − R)²) where
        // V_clip = V_old + clip(V − V_old, −ε_v, ε_v): the value may not jump far in one update.
        let (v, target) = (values[i], mb.returns[i]);
        let err = v - target;
        let (half_sq, d_v) = match coef.value_clip {
            Some(c) => {
                let moved = v - mb.old_values[i];
                let v_clip = mb.old_values[i] + moved.clamp(-c, c);
                let err_clip = v_clip - target;
                if err * err >= err_clip * err_clip {
                    (0.5 * err * err, err)
                } else if moved.abs() < c {
                    (0.5 * err_clip * err_clip, err_clip)
                } else {
                    (0.5 * err_clip * err_clip, 0.0)
                }
            }
            None => (0.5 * err * err, err),
        };
        value_sum += half_sq;
        d_values[i] = coef.vf_coef * d_v / nf;
    }
    actor_grads.fill(0.0);
    critic_grads.fill(0.0);
    actor.backward(actor_cache, d_logits, actor_grads);
    critic.backward(critic_cache, d_values, critic_grads);
    let (policy_loss, value_loss, entropy) = (policy_sum / nf, value_sum / nf, entropy_sum / nf);
    LossParts {
        loss: policy_loss - coef.ent_coef * entropy + coef.vf_coef * value_loss,
        policy_loss,
        value_loss,
        entropy,
        approx_kl: kl_sum / nf,
    }
}
