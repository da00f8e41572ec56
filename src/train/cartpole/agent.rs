//! The CartPole agent its trainers share: an actor and a critic (separate tanh MLPs,
//! orthogonally initialised), their Adam states and gradient buffers, the update and
//! transition counters, and the greedy evaluations with their schedule. A trainer embeds one
//! and keeps only its algorithm; [`CartPoleTrainer`] is what the CLI's text, the page's panel
//! and policy files read from any of them.

use super::policy::PolicyFile;
use super::{evaluate, greedy_episode, mean_std, Evaluation, RunSummary};
use crate::envs::cartpole::{NUM_ACTIONS, OBS_DIM};
use crate::error::{Error, Quantity, Result, StepUnit};
use crate::nn::{Adam, Mlp, MlpCache, Scalar};
use crate::rng::Rng;
use crate::train::{Record, Trainer};

/// When and how an agent evaluates its greedy policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvaluationPlan {
    /// Every this many updates (0: only after the last one).
    pub every: usize,
    /// Episodes per evaluation.
    pub episodes: usize,
}

impl EvaluationPlan {
    /// Every `every` updates (0: only after the last one), `episodes` episodes each.
    pub const fn new(every: usize, episodes: usize) -> Self {
        EvaluationPlan { every, episodes }
    }
}

/// Actor, critic, their optimisers and the run's bookkeeping, networks in `S`.
#[derive(Debug, Clone)]
pub struct CartPoleAgent<S: Scalar = f64> {
    /// The policy: logits of the two actions.
    pub actor: Mlp<S>,
    /// V(s).
    pub critic: Mlp<S>,
    /// The actor's Adam state.
    pub actor_adam: Adam<S>,
    /// The critic's Adam state.
    pub critic_adam: Adam<S>,
    /// The actor's gradient buffer.
    pub actor_grads: Vec<S>,
    /// The critic's gradient buffer.
    pub critic_grads: Vec<S>,
    seed: u64,
    plan: EvaluationPlan,
    update: usize,
    env_steps: u64,
    eval_cache: MlpCache<S>,
    evaluations: Vec<Evaluation>,
}

impl<S: Scalar> CartPoleAgent<S> {
    /// Actor (output gain 0.01: the first policy is near uniform), then critic, both with
    /// `hidden_sizes` and drawn from `rng` in that order, and an evaluation of the untrained
    /// policy at 0 transitions.
    pub fn new(
        hidden_sizes: &[usize],
        plan: EvaluationPlan,
        seed: u64,
        rng: &mut Rng,
    ) -> Result<Self> {
        let mut sizes = vec![OBS_DIM];
        sizes.extend(hidden_sizes);
        let root2 = std::f64::consts::SQRT_2;
        let actor = Mlp::new(&[&sizes[..], &[NUM_ACTIONS]].concat(), root2, 0.01, rng)?;
        let critic = Mlp::new(&[&sizes[..], &[1]].concat(), root2, 1.0, rng)?;
        let mut agent = CartPoleAgent {
            actor_adam: Adam::new(actor.params().len()),
            critic_adam: Adam::new(critic.params().len()),
            actor_grads: vec![S::ZERO; actor.params().len()],
            critic_grads: vec![S::ZERO; critic.params().len()],
            actor,
            critic,
            seed,
            plan,
            update: 0,
            env_steps: 0,
            eval_cache: MlpCache::default(),
            evaluations: Vec::new(),
        };
        let first = agent.evaluate();
        agent.evaluations.push(first);
        Ok(agent)
    }

    /// A run's start, the same for every CartPole trainer: the run's generator seeded with
    /// `seed`, the agent drawn from it ([`CartPoleAgent::new`]); the generator then goes on to
    /// the environments.
    pub fn seeded(hidden_sizes: &[usize], plan: EvaluationPlan, seed: u64) -> Result<(Self, Rng)> {
        let mut rng = crate::rng::seeded(seed);
        let agent = Self::new(hidden_sizes, plan, seed, &mut rng)?;
        Ok((agent, rng))
    }

    /// Counts `n` more training transitions.
    pub fn collected(&mut self, n: u64) {
        self.env_steps += n;
    }

    /// Errors if a parameter of either network is no longer finite after `update`.
    pub fn check_finite(&self, update: usize) -> Result<()> {
        let params = self.actor.params().iter().chain(self.critic.params());
        if params.clone().any(|p| !p.is_finite()) {
            return Err(Error::diverged(
                StepUnit::Update,
                update,
                Quantity::Parameters,
            ));
        }
        Ok(())
    }

    /// Records that `update` is done; evaluates when one is due by the plan or when `last`.
    pub fn finish_update(&mut self, update: usize, last: bool) -> Option<Evaluation> {
        self.update = update;
        let due = self.plan.every > 0 && update % self.plan.every == 0;
        (due || last).then(|| {
            crate::train::report_stage(crate::train::Stage::Evaluation);
            let ev = self.evaluate();
            self.evaluations.push(ev.clone());
            ev
        })
    }

    /// Greedy evaluation of the current actor ([`evaluate`]).
    fn evaluate(&mut self) -> Evaluation {
        evaluate(
            &self.actor,
            self.seed,
            self.plan.episodes,
            self.update,
            self.env_steps,
            &mut self.eval_cache,
        )
    }
}

/// What any CartPole agent tells, whatever its networks' scalar (its seed, summary and latest
/// evaluation as the [`Record`] its trainer hands to [`Trainer`]).
pub trait AgentView: Record<Summary = RunSummary, Evaluation = Evaluation> {
    /// Updates done so far.
    fn updates_done(&self) -> usize;
    /// Training transitions collected so far.
    fn env_steps(&self) -> u64;
    /// Every evaluation so far, the untrained policy's first.
    fn evaluations(&self) -> &[Evaluation];
    /// A greedy episode of the current policy (in the networks' own scalar) from a reset
    /// drawn with `reset_seed`.
    fn greedy_episode(&self, reset_seed: u64) -> Vec<[f64; 4]>;
    /// The actor as an f64 network (exact: f32 widens without rounding).
    fn actor_f64(&self) -> Mlp;
    /// The critic as an f64 network.
    fn critic_f64(&self) -> Mlp;
}

/// A CartPole run's progress counts transitions.
impl<S: Scalar> Record for CartPoleAgent<S> {
    type Summary = RunSummary;
    type Evaluation = Evaluation;
    fn seed(&self) -> u64 {
        self.seed
    }
    fn units_done(&self) -> u64 {
        self.env_steps
    }
    fn summary(&self) -> RunSummary {
        RunSummary::of(self.seed, self.env_steps, &self.evaluations)
    }
    fn last_evaluation(&self) -> Option<&Evaluation> {
        self.evaluations.last()
    }
}

impl<S: Scalar> AgentView for CartPoleAgent<S> {
    fn updates_done(&self) -> usize {
        self.update
    }
    fn env_steps(&self) -> u64 {
        self.env_steps
    }
    fn evaluations(&self) -> &[Evaluation] {
        &self.evaluations
    }
    fn greedy_episode(&self, reset_seed: u64) -> Vec<[f64; 4]> {
        greedy_episode(&self.actor, reset_seed)
    }
    fn actor_f64(&self) -> Mlp {
        self.actor.to_f64()
    }
    fn critic_f64(&self) -> Mlp {
        self.critic.to_f64()
    }
}

/// A trainer on CartPole, its record the agent it embeds: what its CLI text, its page panel
/// (curves, animation), its policy file and the tests read, whatever the algorithm.
pub trait CartPoleTrainer:
    Trainer<Summary = RunSummary, Evaluation = Evaluation, Record = dyn AgentView>
{
    /// What runs, in English, for the CLI's first line: the algorithm, the profile and what
    /// sets its size.
    fn headline(config: &Self::Config, profile: &str) -> String;

    /// The agent.
    fn agent(&self) -> &dyn AgentView {
        self.record()
    }
    /// Updates done so far.
    fn updates_done(&self) -> usize {
        self.agent().updates_done()
    }
    /// Training transitions collected so far (over all environments).
    fn env_steps(&self) -> u64 {
        self.agent().env_steps()
    }
    /// Every evaluation so far, the untrained policy's first.
    fn evaluations(&self) -> &[Evaluation] {
        self.agent().evaluations()
    }
    /// The actor's weights as an f64 network (see [`AgentView::actor_f64`]).
    fn actor(&self) -> Mlp {
        self.agent().actor_f64()
    }
    /// The critic's weights as an f64 network.
    fn critic(&self) -> Mlp {
        self.agent().critic_f64()
    }
    /// A greedy episode of the current policy (in the run's precision) from a reset drawn with
    /// `reset_seed`.
    fn greedy_episode(&self, reset_seed: u64) -> Vec<[f64; 4]> {
        self.agent().greedy_episode(reset_seed)
    }
    /// The policy now as a policy file.
    fn policy_file(&self) -> PolicyFile {
        let agent = self.agent();
        PolicyFile::of(
            self,
            &agent.actor_f64(),
            agent.updates_done(),
            agent.env_steps(),
        )
    }
}

/// 1 − Var(y − ŷ)/Var(y); `None` when the targets do not vary.
pub fn explained_variance(pred: &[f64], target: &[f64]) -> Option<f64> {
    let (_, sd_y) = mean_std(target);
    let diff: Vec<f64> = target.iter().zip(pred).map(|(y, p)| y - p).collect();
    let (_, sd_d) = mean_std(&diff);
    (sd_y > 0.0).then(|| 1.0 - (sd_d * sd_d) / (sd_y * sd_y))
}
