//! The two losses of a REINFORCE update and their exact gradients: the policy-gradient
//! surrogate −mean log π(a|s)·A, and the critic's squared error ½·mean (V(s) − target)².

use crate::envs::cartpole::NUM_ACTIONS;
use crate::nn::{categorical, Mlp, MlpCache};
use serde::{Deserialize, Serialize};

/// The inputs of the policy loss; slices are aligned, `obs` is `n × 4`.
#[derive(Debug, Clone, Copy)]
pub struct PolicyBatch<'a> {
    /// Observations (as f64 of the f32 observation), row-major.
    pub obs: &'a [f64],
    /// Actions taken.
    pub actions: &'a [usize],
    /// What multiplies each step's score: the weight minus the baseline (normalised if asked).
    pub advantages: &'a [f64],
}

/// The policy loss and what it says about the policy.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PolicyLossParts {
    /// −(1/n) Σ_k log π(a_k|s_k)·A_k (what is minimised).
    pub loss: f64,
    /// Mean entropy of the policy over the steps (nats).
    pub entropy: f64,
}

/// Scratch space of the losses, reused between calls.
#[derive(Debug, Clone, Default)]
pub struct LossWorkspace {
    cache: MlpCache,
    d_out: Vec<f64>,
}

/// The REINFORCE surrogate of a batch, L(θ) = −(1/n) Σ_k log π_θ(a_k|s_k) · A_k, where the
/// mean runs over all n steps of all the batch's episodes (not over episodes), and its exact
/// gradient, **written** into `grads`. Its gradient is the estimate −ĝ of the policy
/// gradient; A is a constant (no gradient flows into the weights or the baseline).
pub fn policy_loss_and_gradients(
    policy: &Mlp,
    batch: &PolicyBatch<'_>,
    ws: &mut LossWorkspace,
    grads: &mut [f64],
) -> PolicyLossParts {
    let n = batch.actions.len();
    let nf = n as f64;
    let LossWorkspace { cache, d_out } = ws;
    let logits = policy.forward(batch.obs, n, cache);
    d_out.clear();
    d_out.resize(n * NUM_ACTIONS, 0.0);
    let (mut loss_sum, mut entropy_sum) = (0.0, 0.0);
    let mut probs = [0.0; NUM_ACTIONS];
    for k in 0..n {
        let row = &logits[k * NUM_ACTIONS..(k + 1) * NUM_ACTIONS];
        let (log_prob, entropy) = categorical::log_prob_entropy(row, batch.actions[k], &mut probs);
        let adv = batch.advantages[k];
        loss_sum -= log_prob * adv;
        entropy_sum += entropy;
        // dL/d log π(a_k|s_k) = −A_k / n; no entropy term.
        categorical::backward(
            &probs,
            batch.actions[k],
            entropy,
            -adv / nf,
            0.0,
            &mut d_out[k * NUM_ACTIONS..(k + 1) * NUM_ACTIONS],
        );
    }
    grads.fill(0.0);
    policy.backward(cache, d_out, grads);
    PolicyLossParts {
        loss: loss_sum / nf,
        entropy: entropy_sum / nf,
    }
}

/// The critic's loss ½·(1/n) Σ_k (V(s_k) − target_k)² over the n steps of `obs` (`n × 4`),
/// its exact gradient **written** into `grads`; `values` receives V(s_k) before the step.
pub fn value_loss_and_gradients(
    critic: &Mlp,
    obs: &[f64],
    targets: &[f64],
    ws: &mut LossWorkspace,
    grads: &mut [f64],
    values: &mut Vec<f64>,
) -> f64 {
    let n = targets.len();
    let nf = n as f64;
    let LossWorkspace { cache, d_out } = ws;
    let v = critic.forward(obs, n, cache);
    values.clear();
    values.extend_from_slice(v);
    d_out.clear();
    d_out.resize(n, 0.0);
    let mut sum = 0.0;
    for k in 0..n {
        let err = values[k] - targets[k];
        sum += 0.5 * err * err;
        d_out[k] = err / nf;
    }
    grads.fill(0.0);
    critic.backward(cache, d_out, grads);
    sum / nf
}
