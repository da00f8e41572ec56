//! The A2C loss of one rollout and its exact gradients: the policy-gradient surrogate
//! −mean log π(a|s)·A (no ratio, no clip: the data is the current policy's), the critic's
//! ½·mean (V − R)², and an optional entropy bonus.

use crate::envs::cartpole::NUM_ACTIONS;
use crate::nn::{categorical, Mlp, MlpCache};
use crate::train::cartpole::value::value_term;

/// The inputs of the loss; slices are aligned, `obs` is `n × 4`.
#[derive(Debug, Clone, Copy)]
pub struct Batch<'a> {
    /// Observations, row-major.
    pub obs: &'a [f64],
    /// Actions taken.
    pub actions: &'a [usize],
    /// Advantages (constants: no gradient flows into them).
    pub advantages: &'a [f64],
    /// Value targets R = A + V_old.
    pub returns: &'a [f64],
}

/// Coefficients of the loss.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossCoefficients {
    /// Entropy bonus coefficient.
    pub ent_coef: f64,
    /// Value loss coefficient.
    pub vf_coef: f64,
}

/// The loss and its parts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossParts {
    /// policy_loss − ent_coef·entropy + vf_coef·value_loss (what is minimised).
    pub loss: f64,
    /// −mean log π(a|s)·A.
    pub policy_loss: f64,
    /// ½ mean (V − R)².
    pub value_loss: f64,
    /// Mean entropy of the policy.
    pub entropy: f64,
}

/// Scratch space of [`a2c_loss_and_gradients`], reused between calls.
#[derive(Debug, Clone, Default)]
pub struct LossWorkspace {
    actor_cache: MlpCache,
    critic_cache: MlpCache,
    d_logits: Vec<f64>,
    d_values: Vec<f64>,
}

/// The loss of a batch and its exact gradients, **written** into `actor_grads` and
/// `critic_grads`.
pub fn a2c_loss_and_gradients(
    actor: &Mlp,
    critic: &Mlp,
    batch: &Batch<'_>,
    coef: &LossCoefficients,
    ws: &mut LossWorkspace,
    actor_grads: &mut [f64],
    critic_grads: &mut [f64],
) -> LossParts {
    let n = batch.actions.len();
    let nf = n as f64;
    let LossWorkspace {
        actor_cache,
        critic_cache,
        d_logits,
        d_values,
    } = ws;
    let logits = actor.forward(batch.obs, n, actor_cache);
    let values = critic.forward(batch.obs, n, critic_cache);
    d_logits.clear();
    d_logits.resize(n * NUM_ACTIONS, 0.0);
    d_values.clear();
    d_values.resize(n, 0.0);
    let (mut policy_sum, mut value_sum, mut entropy_sum) = (0.0, 0.0, 0.0);
    let mut probs = [0.0; NUM_ACTIONS];
    for i in 0..n {
        let row = &logits[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
        let (log_prob, entropy) = categorical::log_prob_entropy(row, batch.actions[i], &mut probs);
        let adv = batch.advantages[i];
        policy_sum -= log_prob * adv;
        entropy_sum += entropy;
        categorical::backward(
            &probs,
            batch.actions[i],
            entropy,
            -adv / nf,
            -coef.ent_coef / nf,
            &mut d_logits[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS],
        );
        let (half_sq, d_v) = value_term(values[i], batch.returns[i], None);
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng;

    /// Central differences of the loss in every parameter of both networks against the
    /// analytic gradients, with an entropy bonus so that every term is checked.
    #[test]
    fn gradients_match_finite_differences() {
        let mut r = rng::seeded(3);
        let mut actor = Mlp::new(&[4, 5, 2], 1.0, 1.0, &mut r).unwrap();
        let mut critic = Mlp::new(&[4, 5, 1], 1.0, 1.0, &mut r).unwrap();
        let n = 6;
        let obs: Vec<f64> = (0..n * 4)
            .map(|k| ((k * 7 % 11) as f64 - 5.0) / 4.0)
            .collect();
        let actions: Vec<usize> = (0..n).map(|k| k % 2).collect();
        let advantages: Vec<f64> = (0..n).map(|k| (k as f64 - 2.5) / 2.0).collect();
        let returns: Vec<f64> = (0..n).map(|k| 1.0 + k as f64 / 3.0).collect();
        let batch = Batch {
            obs: &obs,
            actions: &actions,
            advantages: &advantages,
            returns: &returns,
        };
        let coef = LossCoefficients {
            ent_coef: 0.05,
            vf_coef: 0.7,
        };
        let mut ws = LossWorkspace::default();
        let mut ga = vec![0.0; actor.params().len()];
        let mut gc = vec![0.0; critic.params().len()];
        a2c_loss_and_gradients(&actor, &critic, &batch, &coef, &mut ws, &mut ga, &mut gc);
        let loss = |a: &Mlp, c: &Mlp| {
            let (mut x, mut y) = (vec![0.0; ga.len()], vec![0.0; gc.len()]);
            let mut ws = LossWorkspace::default();
            a2c_loss_and_gradients(a, c, &batch, &coef, &mut ws, &mut x, &mut y).loss
        };
        let h = 1e-6;
        let mut worst: f64 = 0.0;
        for k in 0..ga.len() {
            let p = actor.params()[k];
            actor.params_mut()[k] = p + h;
            let up = loss(&actor, &critic);
            actor.params_mut()[k] = p - h;
            let down = loss(&actor, &critic);
            actor.params_mut()[k] = p;
            worst = worst.max(((up - down) / (2.0 * h) - ga[k]).abs());
        }
        for k in 0..gc.len() {
            let p = critic.params()[k];
            critic.params_mut()[k] = p + h;
            let up = loss(&actor, &critic);
            critic.params_mut()[k] = p - h;
            let down = loss(&actor, &critic);
            critic.params_mut()[k] = p;
            worst = worst.max(((up - down) / (2.0 * h) - gc[k]).abs());
        }
        assert!(worst < 1e-7, "largest gradient error {worst:e}");
        assert!(ga.iter().any(|g| g.abs() > 1e-3) && gc.iter().any(|g| g.abs() > 1e-3));
    }
}
