//! Experience for one update of an actor–critic (PPO, A2C): T steps from each of N
//! environments with the current policy, the two masks of lesson 4, and GAE advantages and
//! value targets.
//!
//! The networks compute in `S`; observations enter as `S` (exact for f32: CartPole's are f32)
//! and log-probabilities, values, rewards and advantages are stored as f64, the course's math.

use crate::envs::cartpole::{CartPole, NUM_ACTIONS, OBS_DIM};
use crate::error::{Error, Quantity, Result, StepUnit};
use crate::nn::{categorical, Mlp, MlpCache, Scalar};
use crate::rl::{gae_advantages, Truncation};
use crate::rng::{self, Rng};
use crate::train::cartpole::observation_as;

/// The settings a rollout and its advantages read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RolloutSpec {
    /// Steps per environment T.
    pub num_steps: usize,
    /// Discount γ.
    pub gamma: f64,
    /// GAE λ.
    pub gae_lambda: f64,
    /// A time-limit truncation: bootstrap or terminal.
    pub truncation: Truncation,
    /// Cut the GAE recursion at each environment's last record.
    pub boundary_trace_cut: bool,
}

/// The N training environments with their current observations and running returns.
#[derive(Debug, Clone)]
pub(crate) struct Envs<S: Scalar> {
    pub(crate) envs: Vec<CartPole>,
    /// Current observation of each environment, row-major `N × 4`.
    pub(crate) obs: Vec<S>,
    running_returns: Vec<f64>,
    actor_cache: MlpCache<S>,
    critic_cache: MlpCache<S>,
}

impl<S: Scalar> Envs<S> {
    /// `n` environments reset from `rng`.
    pub(crate) fn new(n: usize, rng: &mut Rng) -> Self {
        let envs: Vec<CartPole> = (0..n).map(|_| CartPole::new(rng)).collect();
        Envs {
            obs: envs.iter().flat_map(observation_as).collect(),
            running_returns: vec![0.0; n],
            envs,
            actor_cache: MlpCache::default(),
            critic_cache: MlpCache::default(),
        }
    }
}

/// The rollout buffer, environment-major: record `e·T + t` is env e's step t, so each
/// environment's trajectory is one contiguous slice for GAE.
#[derive(Debug, Clone)]
pub(crate) struct Rollout<S: Scalar> {
    pub(crate) obs: Vec<S>,
    pub(crate) actions: Vec<usize>,
    pub(crate) log_probs: Vec<f64>,
    pub(crate) values: Vec<f64>,
    pub(crate) rewards: Vec<f64>,
    /// V of the observation that followed (the real one, before any reset).
    pub(crate) next_values: Vec<f64>,
    /// True terminal: no bootstrap.
    pub(crate) terminated: Vec<bool>,
    /// The GAE recursion stops here: terminal, truncation, or the end of the buffer.
    pub(crate) trace_cuts: Vec<bool>,
    pub(crate) advantages: Vec<f64>,
    pub(crate) returns: Vec<f64>,
    /// V of the last observation before each time-limit truncation of this rollout, whether
    /// or not the run bootstraps from it: what the critic believes the cut-off future is worth
    /// (lesson 4's one-`done`-flag mistake teaches it that it is worth nothing).
    pub(crate) truncation_values: Vec<f64>,
}

impl<S: Scalar> Default for Rollout<S> {
    fn default() -> Self {
        Rollout {
            obs: Vec::new(),
            actions: Vec::new(),
            log_probs: Vec::new(),
            values: Vec::new(),
            rewards: Vec::new(),
            next_values: Vec::new(),
            terminated: Vec::new(),
            trace_cuts: Vec::new(),
            advantages: Vec::new(),
            returns: Vec::new(),
            truncation_values: Vec::new(),
        }
    }
}

impl<S: Scalar> Rollout<S> {
    /// Collects `num_steps` steps from each environment with actions sampled from `actor`,
    /// storing log π_old and V_old; returns the returns of the training episodes that ended.
    pub(crate) fn collect(
        &mut self,
        envs: &mut Envs<S>,
        actor: &Mlp<S>,
        critic: &Mlp<S>,
        cfg: &RolloutSpec,
        rng: &mut Rng,
    ) -> Vec<f64> {
        let t_len = cfg.num_steps;
        let n_envs = envs.envs.len();
        let size = n_envs * t_len;
        self.obs.resize(size * OBS_DIM, S::ZERO);
        self.actions.resize(size, 0);
        self.log_probs.resize(size, 0.0);
        self.values.resize(size, 0.0);
        self.rewards.resize(size, 0.0);
        self.next_values.resize(size, 0.0);
        self.terminated.resize(size, false);
        self.trace_cuts.resize(size, false);
        let mut finished = Vec::new();
        let mut probs = [0.0; NUM_ACTIONS];
        let mut truncated_obs = Vec::new();
        self.truncation_values.clear();
        for t in 0..t_len {
            let logits = actor.forward(&envs.obs, n_envs, &mut envs.actor_cache);
            let values = critic.forward(&envs.obs, n_envs, &mut envs.critic_cache);
            truncated_obs.clear();
            for e in 0..n_envs {
                let k = e * t_len + t;
                if t > 0 && !self.terminated[k - 1] && !self.trace_cuts[k - 1] {
                    // The previous step continued into this observation: bootstrap from it.
                    self.next_values[k - 1] = values[e].to_f64();
                }
                let row = logits_f64(&logits[e * NUM_ACTIONS..(e + 1) * NUM_ACTIONS]);
                let row = &row[..];
                // Sample a ~ π(·|s), then store log π_old(a|s) computed exactly as the loss
                // recomputes it (so the first minibatch sees ratios of exactly 1).
                categorical::log_prob_entropy(row, 0, &mut probs); // fills `probs`
                let action = rng::categorical(rng, &probs);
                let (log_prob, _) = categorical::log_prob_entropy(row, action, &mut probs);
                self.obs[k * OBS_DIM..(k + 1) * OBS_DIM]
                    .copy_from_slice(&envs.obs[e * OBS_DIM..(e + 1) * OBS_DIM]);
                self.actions[k] = action;
                self.log_probs[k] = log_prob;
                self.values[k] = values[e].to_f64();
                let env = &mut envs.envs[e];
                let tr = env.step(action);
                self.rewards[k] = tr.reward;
                self.terminated[k] = cfg.truncation.no_bootstrap(tr.terminated, tr.truncated);
                // The trace stops at a terminal, at a truncation and at the buffer's edge.
                let edge = cfg.boundary_trace_cut && t + 1 == t_len;
                self.trace_cuts[k] = tr.terminated || tr.truncated || edge;
                self.next_values[k] = 0.0;
                envs.running_returns[e] += tr.reward;
                if tr.truncated && !tr.terminated {
                    // Truncation is not an ending: bootstrap from V of the last real
                    // observation, which the reset below is about to replace (its value is
                    // reported under either convention; only `bootstrap` uses it).
                    truncated_obs.push((k, observation_as::<S>(env)));
                }
                if tr.terminated || tr.truncated {
                    finished.push(envs.running_returns[e]);
                    envs.running_returns[e] = 0.0;
                    env.reset(rng);
                }
                let next = observation_as::<S>(env);
                envs.obs[e * OBS_DIM..(e + 1) * OBS_DIM].copy_from_slice(&next);
            }
            for (k, o) in &truncated_obs {
                let v = critic.forward(o, 1, &mut envs.critic_cache)[0].to_f64();
                self.truncation_values.push(v);
                if !self.terminated[*k] {
                    self.next_values[*k] = v;
                }
            }
            let (done, total) = (((t + 1) * n_envs) as u64, size as u64);
            crate::train::report_stage(crate::train::Stage::Rollout { done, total });
        }
        // The buffer's last record bootstraps from the observation that follows it.
        let values = critic.forward(&envs.obs, n_envs, &mut envs.critic_cache);
        for (e, (&v, env)) in values.iter().zip(&envs.envs).enumerate() {
            let k = e * t_len + t_len - 1;
            // Already set when the episode ended there (terminal: none; truncation: V(final)).
            let cut_by_episode = self.terminated[k] || env.steps() == 0;
            if !cut_by_episode {
                self.next_values[k] = v.to_f64();
            }
        }
        finished
    }

    /// GAE over the whole buffer (environment after environment) with the two masks, then
    /// the value targets R = A + V_old. The cut at each environment's last record keeps the
    /// environments apart; without it (`boundary_trace_cut` off, lesson 4's mistake) the
    /// recursion runs on into the next environment's first record.
    pub(crate) fn compute_advantages(&mut self, cfg: &RolloutSpec, update: usize) -> Result<()> {
        self.advantages = gae_advantages(
            &self.rewards,
            &self.values,
            &self.next_values,
            &self.terminated,
            &self.trace_cuts,
            cfg.gamma,
            cfg.gae_lambda,
        )
        .map_err(|_| Error::diverged(StepUnit::Update, update, Quantity::ValueEstimate))?;
        self.returns.clear();
        self.returns
            .extend(self.advantages.iter().zip(&self.values).map(|(a, v)| a + v));
        Ok(())
    }
}

/// One row of logits as f64, for the categorical head (course math).
#[inline]
pub(crate) fn logits_f64<S: Scalar>(row: &[S]) -> [f64; NUM_ACTIONS] {
    std::array::from_fn(|k| row[k].to_f64())
}

/// Minibatch gather buffers.
#[derive(Debug, Clone)]
pub(crate) struct Gathered<S: Scalar> {
    pub(crate) obs: Vec<S>,
    pub(crate) actions: Vec<usize>,
    pub(crate) log_probs: Vec<f64>,
    pub(crate) values: Vec<f64>,
    pub(crate) advantages: Vec<f64>,
    pub(crate) returns: Vec<f64>,
}

impl<S: Scalar> Default for Gathered<S> {
    fn default() -> Self {
        Gathered {
            obs: Vec::new(),
            actions: Vec::new(),
            log_probs: Vec::new(),
            values: Vec::new(),
            advantages: Vec::new(),
            returns: Vec::new(),
        }
    }
}

impl<S: Scalar> Gathered<S> {
    /// Copies the records `idx` of `ro` and normalises their advantages when asked
    /// (unbiased std, + 1e-8 as CleanRL).
    pub(crate) fn gather(&mut self, ro: &Rollout<S>, idx: &[usize], norm_adv: bool) {
        self.obs.clear();
        self.actions.clear();
        self.log_probs.clear();
        self.values.clear();
        self.advantages.clear();
        self.returns.clear();
        for &k in idx {
            self.obs
                .extend_from_slice(&ro.obs[k * OBS_DIM..(k + 1) * OBS_DIM]);
            self.actions.push(ro.actions[k]);
            self.log_probs.push(ro.log_probs[k]);
            self.values.push(ro.values[k]);
            self.advantages.push(ro.advantages[k]);
            self.returns.push(ro.returns[k]);
        }
        if norm_adv {
            let n = self.advantages.len() as f64;
            let mean = self.advantages.iter().sum::<f64>() / n;
            let var = self
                .advantages
                .iter()
                .map(|a| (a - mean) * (a - mean))
                .sum::<f64>()
                / (n - 1.0).max(1.0);
            let scale = 1.0 / (var.sqrt() + 1e-8);
            self.advantages
                .iter_mut()
                .for_each(|a| *a = (*a - mean) * scale);
        }
    }
}
