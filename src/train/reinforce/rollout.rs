//! Experience for one REINFORCE update: whole episodes of the current policy, run side by side,
//! and the weight of every step computed from each episode's rewards by `rl::`.

use super::config::{Baseline, Weight};
use crate::envs::cartpole::{CartPole, NUM_ACTIONS, OBS_DIM};
use crate::error::Result;
use crate::nn::{categorical, Mlp, MlpCache};
use crate::rl::{
    discounted_score_weights, group_mean_advantages, group_zscore_advantages, reward_to_go,
};
use crate::rng::{self, Rng};
use crate::train::cartpole::observation;
use ndarray::aview1;

/// The episodes of one update, episode after episode: record `k` is one step, and episode `e`
/// is the slice `starts[e]..starts[e + 1]` of every per-step vector.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    /// Observations, row-major `steps × 4`.
    pub obs: Vec<f64>,
    /// Actions taken.
    pub actions: Vec<usize>,
    /// Rewards received.
    pub rewards: Vec<f64>,
    /// Where each episode starts, and the total number of steps last (`episodes + 1` entries).
    pub starts: Vec<usize>,
}

impl Batch {
    /// Steps in the batch.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether the batch has no step.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The number of episodes.
    pub fn episodes(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Episode `e`'s steps as a range of records.
    pub fn episode(&self, e: usize) -> std::ops::Range<usize> {
        self.starts[e]..self.starts[e + 1]
    }

    /// Each episode's undiscounted return (its length, on CartPole).
    pub fn episode_returns(&self) -> Vec<f64> {
        (0..self.episodes())
            .map(|e| self.rewards[self.episode(e)].iter().sum())
            .collect()
    }

    /// Collects `episodes` whole episodes with actions sampled from `policy`: the environments
    /// are reset from `rng` (one after the other), then step side by side — at each time step
    /// every unfinished one samples its action from `rng`, in the order of the environments —
    /// until every episode has ended (terminated or truncated at 500 steps).
    pub fn collect(&mut self, episodes: usize, policy: &Mlp, rng: &mut Rng, cache: &mut MlpCache) {
        let mut envs: Vec<CartPole> = (0..episodes).map(|_| CartPole::new(rng)).collect();
        // Each environment's records, gathered per episode and laid out one after the other.
        let mut own: Vec<Episode> = vec![Episode::default(); episodes];
        let mut active: Vec<usize> = (0..episodes).collect();
        let mut obs = Vec::with_capacity(episodes * OBS_DIM);
        let mut probs = [0.0; NUM_ACTIONS];
        while !active.is_empty() {
            obs.clear();
            obs.extend(active.iter().flat_map(|&e| observation(&envs[e])));
            let logits = policy.forward(&obs, active.len(), cache);
            let mut still = Vec::with_capacity(active.len());
            for (i, (row, &e)) in logits.chunks_exact(NUM_ACTIONS).zip(&active).enumerate() {
                categorical::log_prob_entropy(row, 0, &mut probs); // fills `probs`
                let action = rng::categorical(rng, &probs);
                let t = envs[e].step(action);
                let ep = &mut own[e];
                ep.obs
                    .extend_from_slice(&obs[i * OBS_DIM..(i + 1) * OBS_DIM]);
                ep.actions.push(action);
                ep.rewards.push(t.reward);
                if !(t.terminated || t.truncated) {
                    still.push(e);
                }
            }
            active = still;
            let (done, total) = ((episodes - active.len()) as u64, episodes as u64);
            crate::train::report_stage(crate::train::Stage::Rollout { done, total });
        }
        self.obs.clear();
        self.actions.clear();
        self.rewards.clear();
        self.starts.clear();
        for ep in &own {
            self.starts.push(self.actions.len());
            self.obs.extend_from_slice(&ep.obs);
            self.actions.extend_from_slice(&ep.actions);
            self.rewards.extend_from_slice(&ep.rewards);
        }
        self.starts.push(self.actions.len());
    }

    /// The weight of every step (lesson 2), each episode on its own: G₀ at every step of the
    /// episode, the reward-to-go G_t ([`reward_to_go`]), or γ^t·G_t
    /// ([`discounted_score_weights`]).
    pub fn weights(&self, weight: Weight, gamma: f64) -> Result<Vec<f64>> {
        let mut out = Vec::with_capacity(self.len());
        for e in 0..self.episodes() {
            let rewards = &self.rewards[self.episode(e)];
            match weight {
                Weight::WholeReturn => {
                    let g = reward_to_go(rewards, gamma)?;
                    let g0 = g.first().copied().unwrap_or(0.0);
                    out.extend(std::iter::repeat_n(g0, g.len()));
                }
                Weight::RewardToGo => out.extend(reward_to_go(rewards, gamma)?),
                Weight::Discounted => out.extend(discounted_score_weights(rewards, gamma)?),
            }
        }
        Ok(out)
    }
}

/// One environment's records while the batch is collected.
#[derive(Debug, Clone, Default)]
struct Episode {
    obs: Vec<f64>,
    actions: Vec<usize>,
    rewards: Vec<f64>,
}

/// The advantages the policy step multiplies the scores with: the weights minus the baseline
/// (`values`: V(s) of every step, for [`Baseline::Value`]; the batch mean through
/// [`group_mean_advantages`]), then, when `normalise`, z-scored over the batch
/// ([`group_zscore_advantages`]: mean 0, population standard deviation 1; all zeros when the
/// advantages do not vary).
pub fn advantages(
    weights: &[f64],
    baseline: Baseline,
    values: Option<&[f64]>,
    normalise: bool,
) -> Result<Vec<f64>> {
    let centred = match (baseline, values) {
        (Baseline::None, _) => weights.to_vec(),
        (Baseline::BatchMean, _) => group_mean_advantages(aview1(weights))?.to_vec(),
        (Baseline::Value, Some(v)) => weights.iter().zip(v).map(|(w, v)| w - v).collect(),
        (Baseline::Value, None) => {
            let got = vec![0];
            return Err(crate::Error::shape("values", vec![weights.len()], got));
        }
    };
    if normalise {
        Ok(group_zscore_advantages(aview1(&centred), NORM_EPS)?.to_vec())
    } else {
        Ok(centred)
    }
}

/// Below this standard deviation the normalised advantages are all zero.
pub const NORM_EPS: f64 = 1e-8;
