//! Every setting of a PPO run, described once (CleanRL style: all arguments first).

use crate::error::{Error, Result, Rule};
use crate::nn::Precision;
use crate::rl::Truncation;
use crate::train::settings::{Kind, Settings};

crate::settings! {
    /// Every hyperparameter of a PPO run on CartPole-v1. Build one from a profile
    /// ([`PpoConfig::smoke`], [`PpoConfig::full`], [`PpoConfig::profile`]) and adjust fields;
    /// [`PpoTrainer::new`](super::PpoTrainer::new) validates it.
    pub struct PpoConfig;

    /// The named PPO configurations.
    pub enum PpoProfile {
        /// The full configuration over a short run (120 updates, about a second), evaluated
        /// every 2 updates.
        Smoke = "smoke", seeds [11, 37], label "smoke — секунды",
        /// Configuration A of the reference runs (8 envs × 32 steps, λ 0.8, no entropy bonus,
        /// lr 1e-3 and ε 0.2 both annealed to 0, no value clipping, grad-norm 0.5) with γ 0.99
        /// (as there) and 10 epochs of four minibatches of 64 instead of 20 epochs of one of
        /// 256: twice the Adam steps for the same computation, in f32. Chosen by a sweep on
        /// held-out seeds (README): every course seed is stable ≥ 475 by 23,040 env steps, and
        /// 190 updates = 48,640 transitions is the shortest run (in tens of updates) that lasts
        /// at least twice as long as its slowest course seed needs; evaluated every 10 updates.
        Full = "full", seeds [11, 37, 71, 101, 131], label "full — полный",
        /// CleanRL's `ppo.py` defaults (4 envs × 128 steps, 4 epochs of 4 minibatches of 128,
        /// lr 2.5e-4 annealed, γ 0.99, λ 0.95, entropy 0.01, value clipping): the benchmark.
        CleanRl = "cleanrl", seeds [11, 37], label "cleanrl — настройки CleanRL",
    }

    fields {
        /// Parallel training environments N.
        num_envs: usize = [8; CleanRl: 4], Rollout, Kind::Int { min: 1, max: 4096 },
            "параллельных сред N",
            "Сколько копий CartPole шагают одновременно; роллаут — N × T переходов.";
        /// Steps per environment in one rollout T (batch = N·T transitions).
        num_steps: usize = [32; CleanRl: 128], Rollout, Kind::Int { min: 1, max: 4096 },
            "шагов на среду T",
            "Длина отрезка траектории, который каждая среда собирает за одно обновление.",
            unit "шагов";
        /// Discount γ.
        gamma: f64 = [0.99], Advantages, Kind::real(0.0, 1.0),
            "γ — коэффициент дисконтирования",
            "Насколько будущие награды весят меньше ближайших.";
        /// GAE λ.
        gae_lambda: f64 = [0.8; CleanRl: 0.95], Advantages, Kind::real(0.0, 1.0),
            "λ — параметр GAE",
            "Смесь одношаговой оценки (λ = 0) и полного возврата (λ = 1).";
        /// A time-limit truncation: bootstrap from V(s_final) (two masks) or treat it as a
        /// terminal (one `done` flag, CleanRL's choice).
        truncation: Truncation = [Truncation::Bootstrap], Advantages,
            Kind::Choice(&Truncation::NAMES),
            "усечение по времени",
            "bootstrap — две маски: после усечения достраивать оценкой V(s); terminal — один флаг done: считать усечение концом эпизода.";
        /// Cut the GAE recursion at the rollout's edge. Without the cut (the mistake of
        /// lesson 4) each environment's last record takes in the advantage of the record that
        /// follows it in the buffer: the next environment's first.
        boundary_trace_cut: bool = [true], Advantages, Kind::Bool,
            "обрыв рекурсии (trace_cut) на границе роллаута",
            "Рекурсия GAE останавливается на последней записи каждой среды; без обрыва в неё утекает преимущество следующей записи буфера.";
        /// Normalise advantages per minibatch (mean 0, std 1).
        norm_adv: bool = [true], Advantages, Kind::Bool,
            "нормировать преимущества",
            "Вычитать среднее и делить на стандартное отклонение (с n − 1 в знаменателе, плюс 10⁻⁸) в каждом мини-пакете.";
        /// Clip range ε of the policy ratio (at the start, if annealed); `None`: no clipping
        /// (the ratio-weighted policy gradient, no pessimistic minimum).
        clip_coef: Option<f64> = [Some(0.2)], Loss,
            Kind::Optional(&Kind::Real { min: Some(crate::error::Bound::open(0.0)), max: Some(crate::error::Bound::open(1.0)) }),
            "ε — порог клиппирования",
            "Отношение вероятностей обрезается до [1 − ε, 1 + ε]; off — без клиппирования.";
        /// Anneal ε linearly to 0 together with the learning rate.
        anneal_clip: bool = [true; CleanRl: false], Loss, Kind::Bool,
            "уменьшать ε до нуля",
            "Линейно уменьшать ε к концу обучения вместе со скоростью обучения.";
        /// Clip the value loss around the old values with the same ε.
        clip_vloss: bool = [false; CleanRl: true], Loss, Kind::Bool,
            "клиппировать функцию ценности",
            "Ограничивать сдвиг V(s) относительно старых значений тем же ε (нужно ε, не off).";
        /// Entropy bonus coefficient.
        ent_coef: f64 = [0.0; CleanRl: 0.01], Loss, Kind::real(0.0, 10.0),
            "вес энтропийного бонуса",
            "Поощрение разнообразия действий; 0 — без бонуса.";
        /// Value loss coefficient.
        vf_coef: f64 = [0.5], Loss, Kind::real(0.0, 10.0),
            "вес потерь ценности",
            "Множитель квадратичной ошибки критика в общей функции потерь.";
        /// PPO updates in the whole run.
        num_updates: usize = [120; Full: 190, CleanRl: 195], Optimisation, Kind::Int { min: 1, max: 100_000 },
            "обновлений",
            "Сколько раз собрать роллаут и обновить политику.",
            unit "обновлений";
        /// Passes over the rollout per update.
        update_epochs: usize = [10; CleanRl: 4], Optimisation, Kind::Int { min: 1, max: 100 },
            "эпох на обновление",
            "Сколько раз пройти по одному роллауту, прежде чем собрать новый.";
        /// Transitions per minibatch (at most N·T).
        minibatch_size: usize = [64; CleanRl: 128], Optimisation, Kind::Int { min: 1, max: 1 << 18 },
            "размер мини-пакета",
            "Сколько переходов входит в один шаг Adam (не больше N × T).",
            unit "переходов";
        /// Adam learning rate at the start.
        learning_rate: f64 = [1e-3; CleanRl: 2.5e-4], Optimisation, Kind::real_above(0.0, 1.0),
            "скорость обучения Adam",
            "Начальная скорость обучения оптимизатора.";
        /// Anneal the learning rate linearly to 0 over the run.
        anneal_lr: bool = [true], Optimisation, Kind::Bool,
            "уменьшать скорость обучения до нуля",
            "Линейно уменьшать скорость обучения к концу обучения.";
        /// Global gradient-norm limit (actor and critic together).
        max_grad_norm: f64 = [0.5], Optimisation, Kind::real_above(0.0, 1000.0),
            "предел нормы градиента",
            "Общая норма градиента актора и критика обрезается до этого значения.";
        /// Stop the update's epochs once an epoch's last minibatch has an approximate KL above
        /// this (CleanRL's `target_kl`); `None`: always run every epoch.
        target_kl: Option<f64> = [None], Optimisation,
            Kind::Optional(&Kind::real_above(0.0, 10.0)),
            "порог KL для остановки эпох",
            "Если приближённая KL последнего мини-пакета эпохи выше порога, оставшиеся эпохи обновления пропускаются; off — без остановки.";
        /// Hidden layer widths of both the actor and the critic (separate networks).
        hidden_sizes: Vec<usize> = [vec![64, 64]], Network,
            Kind::IntList { min: 1, max: 1024, max_len: 4 },
            "скрытые слои",
            "Ширины скрытых слоёв актора и критика через запятую (tanh).";
        /// The scalar the actor and critic compute in: f32 (twice the SIMD lanes) or f64. The
        /// advantages, the loss and the reported numbers are f64 either way.
        precision: Precision = [Precision::F32; CleanRl: Precision::F64], Network,
            Kind::Choice(&["f32", "f64"]),
            "точность вычислений сетей",
            "f32 — одинарная точность: вдвое больше чисел в одной SIMD-операции, обучение быстрее; f64 — двойная, как в проверках градиентов. Преимущества, функция потерь и показатели считаются в f64 в обоих случаях.";
        /// Greedy evaluation every this many updates (0: only after the last update).
        evaluation_every: usize = [2; Full: 10, CleanRl: 0], Evaluation, Kind::Int { min: 0, max: 100_000 },
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
        if c.clip_vloss && c.clip_coef.is_none() {
            let rule = Rule::Requires { what: "clip_coef ≠ off".into() };
            return Err(Error::range("clip_vloss", rule, "true"));
        }
        // Bounds that keep memory and work finite before anything is allocated.
        let max_steps = MAX_BATCH / c.num_envs;
        if c.num_steps > max_steps {
            let rule = Rule::NotAbove { what: format!("{MAX_BATCH} / num_envs"), limit: max_steps as f64 };
            return Err(Error::range("num_steps", rule, c.num_steps));
        }
        if c.minibatch_size > c.batch_size() {
            let rule = Rule::NotAbove { what: "num_envs × num_steps".into(), limit: c.batch_size() as f64 };
            return Err(Error::range("minibatch_size", rule, c.minibatch_size));
        }
        let total = c.total_env_steps();
        if total > MAX_ENV_STEPS {
            let rule = Rule::at_most(MAX_ENV_STEPS as f64);
            return Err(Error::range("num_updates × num_envs × num_steps", rule, total));
        }
        let work = c.total_work();
        if work > MAX_WORK {
            let rule = Rule::at_most(MAX_WORK);
            return Err(Error::range("num_updates × update_epochs × num_envs × num_steps × hidden_sizes", rule, work));
        }
        Ok(())
    }
}

/// Most transitions in one rollout (memory).
pub const MAX_BATCH: usize = 1 << 18;
/// Most training transitions in one run (about half an hour natively).
pub const MAX_ENV_STEPS: u64 = 200_000_000;
/// Most multiply-adds of the updates of one run (≈ 1,000 × the full profile).
pub const MAX_WORK: f64 = 1e13;

impl PpoConfig {
    /// The `smoke` profile.
    pub fn smoke() -> Self {
        Self::for_profile(PpoProfile::Smoke)
    }

    /// The `full` profile.
    pub fn full() -> Self {
        Self::for_profile(PpoProfile::Full)
    }

    /// The `cleanrl` profile.
    pub fn cleanrl() -> Self {
        Self::for_profile(PpoProfile::CleanRl)
    }

    /// What the rollout and its advantages read.
    pub fn rollout_spec(&self) -> crate::train::cartpole::rollout::RolloutSpec {
        crate::train::cartpole::rollout::RolloutSpec {
            num_steps: self.num_steps,
            gamma: self.gamma,
            gae_lambda: self.gae_lambda,
            truncation: self.truncation,
            boundary_trace_cut: self.boundary_trace_cut,
        }
    }

    /// Transitions per rollout, N·T.
    pub fn batch_size(&self) -> usize {
        self.num_envs * self.num_steps
    }

    /// Transitions of the whole run (for a progress bar).
    pub fn total_env_steps(&self) -> u64 {
        self.num_updates as u64 * self.batch_size() as u64
    }

    /// Multiply-adds of all updates: samples passed × weights of both networks (×3 for
    /// forward and backward), a size measure of the run.
    pub fn total_work(&self) -> f64 {
        let mut weights = 0.0;
        let mut prev = crate::envs::cartpole::OBS_DIM as f64;
        for &w in &self.hidden_sizes {
            weights += prev * w as f64;
            prev = w as f64;
        }
        // Actor (2 outputs) and critic (1 output) share the hidden shapes.
        let weights = 2.0 * weights + 3.0 * prev;
        let samples =
            self.num_updates as f64 * self.update_epochs as f64 * self.batch_size() as f64;
        3.0 * samples * weights
    }

    /// Checks every field and relation; the error names the first offending one.
    pub fn validate(&self) -> Result<()> {
        Settings::validate(self)
    }
}
