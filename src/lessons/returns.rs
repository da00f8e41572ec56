//! Lesson 2: reward-to-go and the discounted weights γ^t G_t.

use crate::text::{list, num, Description, Table};
use crate::{rl, Result};
use serde::Serialize;

/// Rewards (1, 0, 2) at γ = 0.5.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Returns {
    pub rewards: Vec<f64>,
    pub gamma: f64,
    pub reward_to_go: Vec<f64>,
    pub discounts: Vec<f64>,
    pub weights: Vec<f64>,
}

/// The lesson's worked example.
pub fn returns() -> Result<Returns> {
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

/// Probability that the chain's policy collects a step's reward (action 1): logit 0.
pub const CHAIN_COLLECT: f64 = 0.5;
/// Largest |r_t| the figure takes.
pub const FIGURE_MAX_REWARD: f64 = 100.0;

/// One estimator over the chain's episodes: its mean, its standard deviation and its value in
/// each of the 2^T episodes (with the episode's probability).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ChainEstimator {
    pub mean: f64,
    pub std: f64,
    pub values: Vec<f64>,
}

/// What the returns figure shows (returned to the page).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReturnsFigure {
    /// The worked example at the figure's rewards and γ.
    #[serde(flatten)]
    pub worked: Returns,
    /// The step t whose logit's gradient the chain estimates.
    pub step: usize,
    /// The exact ∂J_γ/∂θ_t of the chain.
    pub exact: f64,
    /// Full discounted return × score of step t.
    pub chain_full_return: ChainEstimator,
    /// γ^t G_t × score of step t (past rewards dropped).
    pub chain_reward_to_go: ChainEstimator,
    /// Probability of each episode.
    pub episode_probs: Vec<f64>,
    /// Probability that a step's reward is collected.
    pub collect: f64,
}

/// The chain: at each step t the policy collects r_t (action 1) with probability
/// [`CHAIN_COLLECT`] or gets 0; every one of the 2^T episodes is enumerated, so the estimators'
/// means and spreads are exact. Returns (full-return estimator, reward-to-go estimator, exact
/// gradient, episode probabilities) for the logit of step `step`.
fn chain(
    rewards: &[f64],
    gamma: f64,
    step: usize,
) -> (ChainEstimator, ChainEstimator, f64, Vec<f64>) {
    let t_len = rewards.len();
    let p = CHAIN_COLLECT;
    let (mut full, mut rtg, mut probs) = (Vec::new(), Vec::new(), Vec::new());
    for episode in 0..(1usize << t_len) {
        let collected = |k: usize| ((episode >> k) & 1) == 1;
        let prob = (0..t_len).fold(1.0, |acc, k| acc * if collected(k) { p } else { 1.0 - p });
        let score = f64::from(u8::from(collected(step))) - p;
        let (mut ret, mut later) = (0.0, 0.0);
        for (k, &r) in rewards.iter().enumerate() {
            let term = if collected(k) {
                gamma_pow(gamma, k) * r
            } else {
                0.0
            };
            ret += term;
            if k >= step {
                later += term;
            }
        }
        full.push(ret * score);
        rtg.push(later * score);
        probs.push(prob);
    }
    let moments = |values: Vec<f64>| {
        let mean: f64 = values.iter().zip(&probs).map(|(v, q)| v * q).sum();
        let var: f64 = values
            .iter()
            .zip(&probs)
            .map(|(v, q)| q * (v - mean) * (v - mean))
            .sum();
        ChainEstimator {
            mean,
            std: var.max(0.0).sqrt(),
            values,
        }
    };
    // ∂/∂θ_t of E[Σ γ^k r_k 1[collected k]] = γ^t r_t p(1 − p) for a sigmoid policy.
    let exact = gamma_pow(gamma, step) * rewards[step] * p * (1.0 - p);
    (moments(full), moments(rtg), exact, probs)
}

/// The figure at rewards `rewards`, discount `gamma` and chain step `step`.
pub fn figure(
    rewards: [f64; 3],
    gamma: f64,
    step: usize,
) -> Result<super::Figure<ReturnsFigure, crate::plots::returns::Data>> {
    use crate::error::{self as checks, Rule};
    checks::check_finite("rewards", &rewards)?;
    for &r in &rewards {
        checks::check_rule(
            "rewards",
            r,
            Rule::between(-FIGURE_MAX_REWARD, FIGURE_MAX_REWARD),
        )?;
    }
    if step >= rewards.len() {
        let rule = Rule::between(0.0, (rewards.len() - 1) as f64);
        return Err(crate::Error::range("step", rule, step));
    }
    let worked = Returns {
        reward_to_go: rl::reward_to_go(&rewards, gamma)?,
        weights: rl::discounted_score_weights(&rewards, gamma)?,
        discounts: (0..rewards.len()).map(|t| gamma_pow(gamma, t)).collect(),
        rewards: rewards.to_vec(),
        gamma,
    };
    let (full_return, reward_to_go, exact, episode_probs) = chain(&rewards, gamma, step);
    let data = crate::plots::returns::Data {
        reward_to_go: worked.reward_to_go.clone(),
        weights: worked.weights.clone(),
        step,
        exact,
        estimators: [
            (
                full_return.mean,
                full_return.std,
                full_return.values.clone(),
            ),
            (
                reward_to_go.mean,
                reward_to_go.std,
                reward_to_go.values.clone(),
            ),
        ],
    };
    let numbers = ReturnsFigure {
        worked,
        step,
        exact,
        chain_full_return: full_return,
        chain_reward_to_go: reward_to_go,
        episode_probs,
        collect: CHAIN_COLLECT,
    };
    let description = describe(&numbers);
    Ok(super::Figure {
        numbers,
        data,
        description,
    })
}

/// The figure in words: the returns of the worked example and the chain's two estimators.
fn describe(f: &ReturnsFigure) -> Description {
    let w = &f.worked;
    let text = format!(
        "Награды r = {} при γ = {}: возвраты G_t = {}, веса γ^t·G_t = {}. \
         На цепочке для логита шага {}: полный возврат и возврат с текущего шага дают одно среднее \
         ({} и {}; точный градиент {}), но разброс {} против {}.",
        list(&w.rewards, 2),
        num(w.gamma, 2),
        list(&w.reward_to_go, 3),
        list(&w.weights, 3),
        f.step,
        num(f.chain_full_return.mean, 3),
        num(f.chain_reward_to_go.mean, 3),
        num(f.exact, 3),
        num(f.chain_full_return.std, 3),
        num(f.chain_reward_to_go.std, 3),
    );
    let mut table = Table::new(&["t", "r_t", "G_t", "γ^t", "γ^t·G_t"]);
    for t in 0..w.rewards.len() {
        table = table.row([
            t.to_string(),
            num(w.rewards[t], 2),
            num(w.reward_to_go[t], 3),
            num(w.discounts[t], 3),
            num(w.weights[t], 3),
        ]);
    }
    Description { text, table }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{self, Theme};

    #[test]
    fn the_same_mean_a_narrower_spread() {
        let f = figure([1.0, 0.0, 2.0], 0.5, 2).unwrap().numbers;
        assert!((f.chain_full_return.mean - f.exact).abs() < 1e-12);
        assert!((f.chain_reward_to_go.mean - f.exact).abs() < 1e-12);
        assert!(f.chain_reward_to_go.std < f.chain_full_return.std);
        assert_eq!(f.worked.reward_to_go, vec![1.5, 1.0, 2.0]);
        // At the first step the two estimators are one.
        let first = figure([1.0, 0.0, 2.0], 0.5, 0).unwrap().numbers;
        assert_eq!(
            first.chain_full_return.values,
            first.chain_reward_to_go.values
        );
        let total: f64 = first.episode_probs.iter().sum();
        assert!((total - 1.0).abs() < 1e-15);
    }

    #[test]
    fn bad_settings_are_errors_and_the_figure_draws() {
        assert!(figure([f64::NAN, 0.0, 0.0], 0.5, 0).is_err());
        assert!(figure([0.0; 3], 1.5, 0).is_err());
        assert!(figure([0.0; 3], 0.5, 3).is_err());
        assert!(figure([1e9, 0.0, 0.0], 0.5, 0).is_err());
        let f = figure([1.0, 0.0, 2.0], 0.5, 2).unwrap();
        let svg = plots::to_svg(760, 320, |a| {
            plots::returns::draw(a, &f.data, &Theme::default())
        })
        .unwrap();
        assert!(svg.contains("полный возврат") && svg.contains("1,5"));
    }
}
