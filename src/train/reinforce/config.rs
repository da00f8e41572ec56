//! Every setting of a REINFORCE run, described once (CleanRL style: all arguments first).

use crate::envs::cartpole::MAX_EPISODE_STEPS;
use crate::error::{Error, Result, Rule};
use crate::train::settings::{Kind, Settings};

crate::choice! {
    /// What multiplies the score ∇log π(a_t|s_t) at step t (lesson 2).
    pub enum Weight {
        /// The whole episode's discounted return G₀ at every step: the estimator straight from
        /// the log-derivative trick, without the causal cut.
        WholeReturn = "whole_return",
        /// The reward-to-go G_t = Σ_{k≥t} γ^{k−t} r_k: only the rewards that follow the action
        /// (the causal cut).
        RewardToGo = "reward_to_go",
        /// γ^t · G_t: the literal gradient of the discounted objective (later steps count less).
        Discounted = "discounted",
    }
}

crate::choice! {
    /// What is subtracted from the weight before it multiplies the score (lesson 3).
    pub enum Baseline {
        /// Nothing.
        None = "none",
        /// The mean of the weights over every step of the batch.
        BatchMean = "batch_mean",
        /// A learned value V(s): a separate critic fitted to the weights of each batch for
        /// `value_steps` Adam steps before the policy step uses it.
        Value = "value",
    }
}

crate::settings! {
    /// Every hyperparameter of a REINFORCE run on CartPole-v1. Build one from a profile
    /// ([`ReinforceConfig::smoke`], [`ReinforceConfig::full`], [`ReinforceConfig::profile`])
    /// and adjust fields; [`ReinforceTrainer::new`](super::ReinforceTrainer::new) validates it.
    pub struct ReinforceConfig;

    /// The named REINFORCE configurations.
    pub enum ReinforceProfile {
        /// The full configuration over a short budget (about a second natively): 30,000
        /// environment steps, evaluated every 2 updates.
        Smoke = "smoke", seeds [11, 37], label "smoke — секунды",
        /// Reward-to-go with the learned value baseline, no advantage normalisation, 300,000
        /// environment steps, evaluated every 5 updates: the course's REINFORCE. The NumPy
        /// reference's design (64-64 tanh, 8 episodes, lr 1e-3, grad-norm 0.5, critic lr 1e-3)
        /// with 20 critic steps per batch instead of 10: chosen on seeds 1–6 (mean stable-from
        /// 38k against 75k; more critic steps or a higher critic lr help, a higher policy lr,
        /// 4 or 16 episodes per update or 32-32 networks do not).
        Full = "full", seeds [11, 37, 71, 101, 131], label "full — полный",
    }

    fields {
        /// Whole episodes collected per update (run side by side).
        episodes_per_update: usize = [8], Rollout, Kind::Int { min: 1, max: 256 },
            "эпизодов на обновление",
            "Сколько целых эпизодов собрать текущей политикой перед одним шагом градиента.",
            unit "эпизодов";
        /// The run's budget of environment steps: no update starts that could take the run
        /// past it (each episode may last up to 500 steps).
        env_step_budget: usize = [30_000; Full: 300_000], Rollout, Kind::Int { min: 500, max: 100_000_000 },
            "бюджет шагов среды",
            "Сколько шагов среды отпущено на всё обучение; обновление, которое могло бы выйти за бюджет, не начинается.",
            unit "шагов";
        /// What multiplies the score at each step.
        weight: Weight = [Weight::RewardToGo], Advantages,
            Kind::Choice(&Weight::NAMES),
            "вес шага",
            "whole_return — возврат всего эпизода G₀ на каждом шаге; reward_to_go — возврат с шага t (накопленная награда от текущего шага), G_t; discounted — γ^t · G_t, буквальный градиент дисконтированной цели.";
        /// What is subtracted from the weight.
        baseline: Baseline = [Baseline::Value], Advantages,
            Kind::Choice(&Baseline::NAMES),
            "опорный уровень",
            "none — без опорного уровня; batch_mean — среднее весов по пакету; value — обученная оценка V(s), отдельная сеть, подогнанная к весам пакета.";
        /// Normalise the advantages of each batch (mean 0, standard deviation 1).
        norm_adv: bool = [false], Advantages, Kind::Bool,
            "нормировать преимущества",
            "Вычитать среднее по пакету и делить на стандартное отклонение (вычитание среднего — тоже опорный уровень).";
        /// Discount γ.
        gamma: f64 = [0.99], Advantages, Kind::real(0.0, 1.0),
            "γ — коэффициент дисконтирования",
            "Насколько будущие награды весят меньше ближайших.";
        /// Adam learning rate of the policy.
        learning_rate: f64 = [1e-3], Optimisation, Kind::real_above(0.0, 1.0),
            "скорость обучения политики",
            "Скорость обучения Adam для сети политики: один шаг на обновление.";
        /// Global gradient-norm limit of the policy's step (and of each critic step).
        max_grad_norm: f64 = [0.5], Optimisation, Kind::real_above(0.0, 1000.0),
            "предел нормы градиента",
            "Норма градиента политики (и каждого шага критика) обрезается до этого значения.";
        /// Adam steps of the critic on each batch, before the policy step.
        value_steps: usize = [20], Optimisation, Kind::Int { min: 1, max: 1000 },
            "шагов критика на пакет",
            "Сколько шагов Adam подгоняют V(s) к весам пакета перед шагом политики (только для baseline = value).";
        /// Adam learning rate of the critic.
        value_learning_rate: f64 = [1e-3], Optimisation, Kind::real_above(0.0, 1.0),
            "скорость обучения критика",
            "Скорость обучения Adam для сети V(s) (только для baseline = value).";
        /// Hidden layer widths of the policy and of the critic (separate networks).
        hidden_sizes: Vec<usize> = [vec![64, 64]], Network,
            Kind::IntList { min: 1, max: 1024, max_len: 4 },
            "скрытые слои",
            "Ширины скрытых слоёв политики и критика через запятую (tanh).";
        /// Greedy evaluation every this many updates (0: only after the last update).
        evaluation_every: usize = [2; Full: 5], Evaluation, Kind::Int { min: 0, max: 100_000 },
            "оценка каждые",
            "Жадная оценка политики через столько обновлений; 0 — только в конце.",
            unit "обновлений";
        /// Episodes per evaluation (run side by side on their own seeded environments).
        evaluation_episodes: usize = [10], Evaluation, Kind::Int { min: 1, max: 100 },
            "эпизодов оценки",
            "Сколько эпизодов жадной политики усредняется в одной оценке.",
            unit "эпизодов";
    }

    relations(c) {
        // At least one update fits the budget.
        let batch = c.max_batch_steps();
        if c.env_step_budget < batch {
            let rule = Rule::at_least(batch as f64);
            return Err(Error::range("env_step_budget", rule, c.env_step_budget));
        }
        let work = c.total_work();
        if work > MAX_WORK {
            let rule = Rule::at_most(MAX_WORK);
            return Err(Error::range("env_step_budget × value_steps × hidden_sizes", rule, work));
        }
        Ok(())
    }
}

/// Most multiply-adds of the updates of one run (≈ 1,000 × the full profile).
pub const MAX_WORK: f64 = 1e13;

impl ReinforceConfig {
    /// The `smoke` profile.
    pub fn smoke() -> Self {
        Self::for_profile(ReinforceProfile::Smoke)
    }

    /// The `full` profile.
    pub fn full() -> Self {
        Self::for_profile(ReinforceProfile::Full)
    }

    /// The most environment steps one update can take: every episode to the time limit.
    pub fn max_batch_steps(&self) -> usize {
        self.episodes_per_update * MAX_EPISODE_STEPS as usize
    }

    /// Multiply-adds of a whole run at most: every budgeted step passes the policy forward
    /// (rollout), forward and backward (update), and the critic forward and backward
    /// `value_steps` times — a size measure of the run.
    pub fn total_work(&self) -> f64 {
        let mut weights = 0.0;
        let mut prev = crate::envs::cartpole::OBS_DIM as f64;
        for &w in &self.hidden_sizes {
            weights += prev * w as f64;
            prev = w as f64;
        }
        let (policy, critic) = (weights + 2.0 * prev, weights + prev);
        let passes = 4.0 * policy + 3.0 * critic * (self.value_steps as f64 + 1.0);
        self.env_step_budget as f64 * passes
    }

    /// Checks every field and relation; the error names the first offending one.
    pub fn validate(&self) -> Result<()> {
        Settings::validate(self)
    }
}
