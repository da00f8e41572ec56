//! The PPO loss of one minibatch and its exact gradients: clipped policy surrogate,
//! (optionally clipped) value loss and entropy bonus.
//!
//! The networks run in `S`; the loss itself (log-softmax, ratios, clipping, entropy, value
//! error) is f64 course math on their outputs, and its gradients go back as `S`.

use crate::envs::cartpole::NUM_ACTIONS;
use crate::math;
use crate::nn::{categorical, Mlp, MlpCache, Scalar};
use crate::rl::DiagnosticsAccumulator;
use crate::train::cartpole::value::value_term;
use serde::{Deserialize, Serialize};

/// The inputs of one minibatch loss; slices are aligned, `obs` is `n × 4`.
#[derive(Debug, Clone, Copy)]
pub struct Minibatch<'a, S: Scalar = f64> {
    /// Observations (CartPole's f32 observation as `S`), row-major.
    pub obs: &'a [S],
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
#[derive(Debug, Clone)]
pub struct LossWorkspace<S: Scalar = f64> {
    actor_cache: MlpCache<S>,
    critic_cache: MlpCache<S>,
    d_logits: Vec<S>,
    d_values: Vec<S>,
}

impl<S: Scalar> Default for LossWorkspace<S> {
    fn default() -> Self {
        LossWorkspace {
            actor_cache: MlpCache::default(),
            critic_cache: MlpCache::default(),
            d_logits: Vec::new(),
            d_values: Vec::new(),
        }
    }
}

/// The full PPO loss of a minibatch (clipped policy loss, optionally clipped value loss,
/// entropy bonus) and its exact gradients, **written** into `actor_grads` and `critic_grads`.
/// Samples are also added to `diagnostics` when given.
#[allow(clippy::too_many_arguments)]
pub fn ppo_loss_and_gradients<S: Scalar>(
    actor: &Mlp<S>,
    critic: &Mlp<S>,
    mb: &Minibatch<'_, S>,
    coef: &LossCoefficients,
    ws: &mut LossWorkspace<S>,
    actor_grads: &mut [S],
    critic_grads: &mut [S],
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
    d_logits.resize(n * NUM_ACTIONS, S::ZERO);
    d_values.clear();
    d_values.resize(n, S::ZERO);
    let (eps, mut policy_sum, mut value_sum, mut entropy_sum) = (coef.clip_epsilon, 0.0, 0.0, 0.0);
    let mut kl_sum = 0.0;
    let mut probs = [0.0; NUM_ACTIONS];
    for i in 0..n {
        let row = crate::train::cartpole::rollout::logits_f64(
            &logits[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS],
        );
        let (log_prob, entropy) = categorical::log_prob_entropy(&row, mb.actions[i], &mut probs);
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
        let mut d_row = [0.0; NUM_ACTIONS];
        categorical::backward(
            &probs,
            mb.actions[i],
            entropy,
            d_log_prob,
            d_entropy,
            &mut d_row,
        );
        for (d, &g) in d_logits[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS]
            .iter_mut()
            .zip(&d_row)
        {
            *d = S::from_f64(g);
        }
        if let Some(acc) = diagnostics.as_deref_mut() {
            acc.add(log_ratio, adv, eps);
        }
        // Value loss ½(V − R)², or with clipping ½ max((V − R)², (V_clip − R)²) where
        // V_clip = V_old + clip(V − V_old, −ε_v, ε_v): the value may not jump far in one update.
        let clip = coef.value_clip.map(|c| (mb.old_values[i], c));
        let (half_sq, d_v) = value_term(values[i].to_f64(), mb.returns[i], clip);
        value_sum += half_sq;
        d_values[i] = S::from_f64(coef.vf_coef * d_v / nf);
    }
    actor_grads.fill(S::ZERO);
    critic_grads.fill(S::ZERO);
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
