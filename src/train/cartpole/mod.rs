//! What every CartPole trainer shares: the greedy evaluation protocol, "stable ≥ 475", the
//! greedy episode the page animates, the agent (actor, critic, counters, evaluations:
//! [`agent`]), the N × T rollout with GAE ([`rollout`]) and the critic's loss term
//! ([`value`]).

pub mod agent;
pub mod board;
pub mod policy;
pub mod rollout;
pub mod value;

pub use agent::{CartPoleAgent, CartPoleTrainer};

use crate::envs::cartpole::{CartPole, NUM_ACTIONS, OBS_DIM};
use crate::nn::{categorical, Mlp, MlpCache, Scalar};
use crate::rng;
use crate::train::compare::{Extra, Quartiles};
use serde::{Deserialize, Serialize};

/// CartPole-v1's "solved" level of an evaluation mean.
pub const SOLVED_THRESHOLD: f64 = 475.0;

/// CartPole's time step (seconds per environment step): the animation plays at this pace.
pub const TIME_STEP_S: f64 = 0.02;

/// One greedy evaluation of the current policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Evaluation {
    /// Updates done when evaluated.
    pub update: usize,
    /// Training transitions collected so far (the learning curve's x).
    pub env_steps: u64,
    /// Mean undiscounted return over the episodes.
    pub mean: f64,
    /// Population standard deviation of the returns.
    pub std: f64,
    /// Each episode's return.
    pub returns: Vec<f64>,
}

/// The end-of-run numbers of one seed (also meaningful mid-run: "so far").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
#[cfg_attr(target_arch = "wasm32", tsify(rename = "CartPoleSummary"))]
pub struct RunSummary {
    /// The run's seed.
    pub seed: u64,
    /// Mean return of the latest evaluation.
    pub final_evaluation_mean: f64,
    /// Its population standard deviation.
    pub final_evaluation_std: f64,
    /// Training transitions collected.
    pub env_steps: u64,
    /// The first evaluation from which every later one is ≥ [`SOLVED_THRESHOLD`].
    pub solved_from_env_steps: Option<u64>,
}

impl super::Score for RunSummary {
    fn score(&self) -> (f64, Option<u64>) {
        (self.final_evaluation_mean, self.solved_from_env_steps)
    }
}

impl RunSummary {
    /// The summary of a run's evaluations so far.
    pub fn of(seed: u64, env_steps: u64, evaluations: &[Evaluation]) -> Self {
        let (mean, std) = evaluations.last().map_or((0.0, 0.0), |e| (e.mean, e.std));
        RunSummary {
            seed,
            final_evaluation_mean: mean,
            final_evaluation_std: std,
            env_steps,
            solved_from_env_steps: solved_from_env_steps(evaluations, SOLVED_THRESHOLD),
        }
    }
}

/// Greedy (argmax) evaluation of `actor`: `episodes` episodes side by side on environments
/// reset from `seed`'s evaluation stream ([`super::evaluation_seed`]) — the same starts every
/// time, so evaluations differ only through the policy.
pub fn evaluate<S: Scalar>(
    actor: &Mlp<S>,
    seed: u64,
    episodes: usize,
    update: usize,
    env_steps: u64,
    cache: &mut MlpCache<S>,
) -> Evaluation {
    let mut rng = rng::seeded(super::evaluation_seed(seed));
    let mut envs: Vec<CartPole> = (0..episodes).map(|_| CartPole::new(&mut rng)).collect();
    let mut returns = vec![0.0; episodes];
    let mut active: Vec<usize> = (0..episodes).collect();
    let mut obs = Vec::with_capacity(episodes * OBS_DIM);
    while !active.is_empty() {
        obs.clear();
        obs.extend(active.iter().flat_map(|&e| observation_as::<S>(&envs[e])));
        let logits = actor.forward(&obs, active.len(), cache);
        let mut still = Vec::with_capacity(active.len());
        for (row, &e) in logits.chunks_exact(NUM_ACTIONS).zip(&active) {
            let t = envs[e].step(categorical::argmax(row));
            returns[e] += t.reward;
            if !(t.terminated || t.truncated) {
                still.push(e);
            }
        }
        active = still;
    }
    let (mean, std) = mean_std(&returns);
    Evaluation {
        update,
        env_steps,
        mean,
        std,
        returns,
    }
}

/// A step report of a CartPole trainer: it may carry a greedy evaluation (what a panel's
/// learning curve and CSV are made of).
pub trait CartPoleReport {
    /// The evaluation after this step, if one was due.
    fn evaluation(&self) -> Option<&Evaluation>;
    /// Training transitions collected by the end of this step.
    fn env_steps(&self) -> u64;
    /// Whether the trainer has a critic that bootstraps at the time limit (PPO, A2C): its
    /// results table then has the column [`VALUE_AT_LIMIT`].
    const CRITIC_AT_LIMIT: bool = false;
    /// The critic's mean value at this step's time-limit truncations (actor–critics only).
    fn value_at_truncation(&self) -> Option<f64> {
        None
    }
}

/// The results table's column of an actor–critic: what its critic predicts at the time limit.
pub const VALUE_AT_LIMIT: &str = "прогноз критика у лимита времени";

/// The results table's own columns of a CartPole trainer's configuration (`finished`: each
/// finished seed's reports): for an actor–critic, [`VALUE_AT_LIMIT`] — per seed the mean over
/// its updates of the critic's mean V at their time-limit truncations (none before the policy
/// first lasts to the limit), median and IQR over the seeds that have one.
pub fn final_extras<R: CartPoleReport>(finished: &[&[R]]) -> Vec<Extra> {
    if !R::CRITIC_AT_LIMIT {
        return Vec::new();
    }
    let per_seed: Vec<f64> = finished
        .iter()
        .filter_map(|reports| {
            let values: Vec<f64> = reports.iter().filter_map(R::value_at_truncation).collect();
            mean_return(&values)
        })
        .collect();
    vec![Extra {
        name: VALUE_AT_LIMIT.to_string(),
        digits: 1,
        value: Quartiles::of(&per_seed),
    }]
}

/// A CartPole panel exports its evaluation curves.
impl<R: CartPoleReport> crate::train::board::CsvExport<Evaluation> for R {
    fn board_csv<T: crate::train::Trainer<Report = Self, Evaluation = Evaluation>>(
        board: &crate::train::board::Board<T>,
    ) -> crate::error::Result<String> {
        board.curves_csv()
    }
}

/// The seed of the greedy episode shown after `update` of the run with `seed`: a fresh start
/// every time, the same in the CLI and the page.
pub fn animation_seed(seed: u64, update: usize) -> u64 {
    seed.wrapping_mul(1_000_003).wrapping_add(update as u64)
}

/// A greedy episode of `actor` from a reset drawn with `reset_seed`: the CartPole states from
/// the initial one to the last (for an animation).
pub fn greedy_episode<S: Scalar>(actor: &Mlp<S>, reset_seed: u64) -> Vec<[f64; 4]> {
    let mut rng = rng::seeded(reset_seed);
    let mut env = CartPole::new(&mut rng);
    let mut cache = MlpCache::default();
    let mut states = vec![env.state()];
    loop {
        let logits = actor.forward(&observation_as::<S>(&env), 1, &mut cache);
        let t = env.step(categorical::argmax(logits));
        states.push(env.state());
        if t.terminated || t.truncated {
            return states;
        }
    }
}

/// The first evaluation from which every later evaluation mean is ≥ `threshold`, as its
/// transition count (`None` if the last one is below).
pub fn solved_from_env_steps(evaluations: &[Evaluation], threshold: f64) -> Option<u64> {
    let mut first = None;
    for ev in evaluations.iter().rev() {
        if ev.mean >= threshold {
            first = Some(ev.env_steps);
        } else {
            break;
        }
    }
    first
}

/// The observation as the networks read it: f64 of CartPole's f32 observation.
pub fn observation(env: &CartPole) -> [f64; OBS_DIM] {
    env.observation().map(f64::from)
}

/// The observation in the networks' scalar (exact: CartPole's observation is f32).
pub fn observation_as<S: Scalar>(env: &CartPole) -> [S; OBS_DIM] {
    env.observation().map(|x| S::from_f64(f64::from(x)))
}

/// The mean return of the training episodes that ended during a step, if any did.
pub fn mean_return(returns: &[f64]) -> Option<f64> {
    (!returns.is_empty()).then(|| returns.iter().sum::<f64>() / returns.len() as f64)
}

/// Mean and population standard deviation.
pub(crate) fn mean_std(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An evaluation at `env_steps` with mean `mean` (one episode), for tests of curves.
    pub(crate) fn ev(env_steps: u64, mean: f64) -> Evaluation {
        Evaluation {
            update: 0,
            env_steps,
            mean,
            std: 0.0,
            returns: vec![mean],
        }
    }

    #[test]
    fn solved_from_is_the_start_of_the_final_run_above_the_threshold() {
        let evs = [
            ev(0, 20.0),
            ev(10, 480.0),
            ev(20, 300.0),
            ev(30, 475.0),
            ev(40, 500.0),
        ];
        assert_eq!(solved_from_env_steps(&evs, 475.0), Some(30));
        assert_eq!(solved_from_env_steps(&evs[..3], 475.0), None);
        assert_eq!(solved_from_env_steps(&[], 475.0), None);
    }
}
