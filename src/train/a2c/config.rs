//! Every setting of an A2C run, described once (CleanRL style: all arguments first).

use crate::error::{Error, Result, Rule};
use crate::rl::Truncation;
use crate::train::cartpole::rollout::RolloutSpec;
use crate::train::settings::{Kind, Settings};

crate::settings! {
    /// Every hyperparameter of an A2C run on CartPole-v1. Build one from a profile
    /// ([`A2cConfig::smoke`], [`A2cConfig::full`], [`A2cConfig::profile`]) and adjust fields;
    /// [`A2cTrainer::new`](super::A2cTrainer::new) validates it.
    pub struct A2cConfig;

    /// The named A2C configurations.
    pub enum A2cProfile {
        /// The full configuration over a short run (800 updates, a second or two), evaluated
        /// every 10 updates.
        Smoke = "smoke", seeds [11, 37], label "smoke — секунды",
        /// 8 environments × 8 steps, γ 0.99, λ 0.95, advantages normalised per rollout, Adam
        /// 3e-3 annealed to 0, grad-norm 0.5, entropy bonus 0.01, value weight 1.0; 2,000
        /// updates = 128,000 transitions, evaluated every 25. Chosen by a sweep on held-out
        /// seeds 1–17 (README): shorter rollouts (more steps per transition) and the entropy
        /// bonus with a heavier value loss were what helped; a longer run at this rate
        /// collapses more often than it gains.
        Full = "full", seeds [11, 37, 71, 101, 131], label "full — полный",
    }

    fields {
        /// Parallel training environments N.
        num_envs: usize = [8], Rollout, Kind::Int { min: 1, max: 4096 },
            "параллельных сред N",
            "Сколько копий CartPole шагают одновременно; роллаут — N × T переходов.";
        /// Steps per environment in one rollout T.
        num_steps: usize = [8], Rollout, Kind::Int { min: 1, max: 4096 },
            "шагов на среду T",
            "Длина отрезка траектории, который каждая среда собирает перед одним шагом градиента.",
            unit "шагов";
        /// Discount γ.
        gamma: f64 = [0.99], Advantages, Kind::real(0.0, 1.0),
            "γ — коэффициент дисконтирования",
            "Насколько будущие награды весят меньше ближайших.";
        /// GAE λ.
        gae_lambda: f64 = [0.95], Advantages, Kind::real(0.0, 1.0),
            "λ — параметр GAE",
            "Смесь одношаговой оценки (λ = 0) и полного возврата (λ = 1).";
        /// Normalise the advantages of each rollout (mean 0, std 1).
        norm_adv: bool = [true], Advantages, Kind::Bool,
            "нормировать преимущества",
            "Вычитать среднее по роллауту и делить на стандартное отклонение.";
        /// Entropy bonus coefficient.
        ent_coef: f64 = [0.01], Loss, Kind::real(0.0, 10.0),
            "вес энтропийного бонуса",
            "Поощрение разнообразия действий; 0 — без бонуса.";
        /// Value loss coefficient.
        vf_coef: f64 = [1.0], Loss, Kind::real(0.0, 10.0),
            "вес потерь ценности",
            "Множитель квадратичной ошибки критика в общей функции потерь.";
        /// Updates (rollouts, each followed by one gradient step) in the whole run.
        num_updates: usize = [800; Full: 2000], Optimisation, Kind::Int { min: 1, max: 1_000_000 },
            "обновлений",
            "Сколько раз собрать роллаут и сделать по нему один шаг градиента.",
            unit "обновлений";
        /// Adam learning rate at the start (actor and critic).
        learning_rate: f64 = [3e-3], Optimisation, Kind::real_above(0.0, 1.0),
            "скорость обучения Adam",
            "Начальная скорость обучения оптимизатора актора и критика.";
        /// Anneal the learning rate linearly to 0 over the run.
        anneal_lr: bool = [true], Optimisation, Kind::Bool,
            "уменьшать скорость обучения до нуля",
            "Линейно уменьшать скорость обучения к концу обучения.";
        /// Global gradient-norm limit (actor and critic together).
        max_grad_norm: f64 = [0.5], Optimisation, Kind::real_above(0.0, 1000.0),
            "предел нормы градиента",
            "Общая норма градиента актора и критика обрезается до этого значения.";
        /// Hidden layer widths of both the actor and the critic (separate networks).
        hidden_sizes: Vec<usize> = [vec![64, 64]], Network,
            Kind::IntList { min: 1, max: 1024, max_len: 4 },
            "скрытые слои",
            "Ширины скрытых слоёв актора и критика через запятую (tanh).";
        /// Greedy evaluation every this many updates (0: only after the last update).
        evaluation_every: usize = [10; Full: 25], Evaluation, Kind::Int { min: 0, max: 1_000_000 },
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
        // Bounds that keep memory and work finite before anything is allocated.
        let max_steps = MAX_BATCH / c.num_envs;
        if c.num_steps > max_steps {
            let rule = Rule::NotAbove { what: format!("{MAX_BATCH} / num_envs"), limit: max_steps as f64 };
            return Err(Error::range("num_steps", rule, c.num_steps));
        }
        let total = c.total_env_steps();
        if total > MAX_ENV_STEPS {
            let rule = Rule::at_most(MAX_ENV_STEPS as f64);
            return Err(Error::range("num_updates × num_envs × num_steps", rule, total));
        }
        Ok(())
    }
}

/// Most transitions in one rollout (memory).
pub const MAX_BATCH: usize = 1 << 18;
/// Most training transitions in one run.
pub const MAX_ENV_STEPS: u64 = 200_000_000;

impl A2cConfig {
    /// The `smoke` profile.
    pub fn smoke() -> Self {
        Self::for_profile(A2cProfile::Smoke)
    }

    /// The `full` profile.
    pub fn full() -> Self {
        Self::for_profile(A2cProfile::Full)
    }

    /// Transitions per rollout, N·T.
    pub fn batch_size(&self) -> usize {
        self.num_envs * self.num_steps
    }

    /// Transitions of the whole run (for a progress bar).
    pub fn total_env_steps(&self) -> u64 {
        self.num_updates as u64 * self.batch_size() as u64
    }

    /// What the rollout and its advantages read: time limits bootstrap, and the trace is cut
    /// at each environment's last record (lesson 4's two masks, done right).
    pub fn rollout_spec(&self) -> RolloutSpec {
        RolloutSpec {
            num_steps: self.num_steps,
            gamma: self.gamma,
            gae_lambda: self.gae_lambda,
            truncation: Truncation::Bootstrap,
            boundary_trace_cut: true,
        }
    }

    /// Checks every field and relation; the error names the first offending one.
    pub fn validate(&self) -> Result<()> {
        Settings::validate(self)
    }
}
