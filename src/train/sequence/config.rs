//! Every setting of a sequence run, described once.

use super::task;
use crate::error::{Bound, Error, Result, Rule};
use crate::rl::Reduction;
use crate::train::settings::{Kind, Settings};

crate::settings! {
    /// Every setting of a sequence run. Build one with [`SequenceConfig::profile`] and adjust
    /// fields; [`SequenceTrainer::new`](super::SequenceTrainer::new) validates it.
    pub struct SequenceConfig;

    /// The named sequence configurations.
    pub enum SequenceProfile {
        /// A few seconds' worth of learning, enough to see the reward rise.
        Smoke = "smoke", seeds [5], label "smoke — секунды",
        /// The profile the lesson runs: all three prompts answered correctly.
        Full = "full", seeds [5], label "full — полный",
    }

    fields {
        /// Number of iterations (rollout + PPO epochs).
        iterations: usize = [40, 200], Optimisation, Kind::Int { min: 1, max: 100_000 },
            "итераций",
            "Сколько раз собрать группы ответов и обновить политику.",
            unit "итераций";
        /// Responses sampled per prompt, G ≥ 2 (a leave-one-out baseline needs another response).
        group_size: usize = [8, 8], Rollout, Kind::Int { min: 2, max: 256 },
            "размер группы G",
            "Сколько ответов выбирается на каждый запрос; опорный уровень RLOO — среднее остальных.",
            unit "ответов";
        /// Most tokens a response may have, `<eos>` included; at least 3 (two symbols + `<eos>`).
        max_response_len: usize = [4, 4], Rollout, Kind::Int { min: task::ANSWER_LENGTH as u64, max: 32 },
            "предел длины ответа",
            "Наибольшее число токенов ответа вместе с <eos>.",
            unit "токенов";
        /// How token terms are reduced to one objective.
        reduction: Reduction = [Reduction::TokenMean, Reduction::TokenMean], Loss,
            Kind::Choice(&["token_mean", "sequence_mean", "sequence_sum_mean", "constant_length"]),
            "редукция",
            "Как слагаемые токенов сводятся к одной цели: по всем токенам, по ответам или суммой.";
        /// Whether the response mask keeps the `<eos>` label: without it the loss gives the policy
        /// no direct signal for stopping (lesson 8's mistake; softmax and shared weights still
        /// move p(<eos>) indirectly).
        include_eos: bool = [true, true], Loss, Kind::Bool,
            "<eos> в маске ответа",
            "Учитывать ли метку <eos> в маске: без неё потеря не даёт политике прямого сигнала, когда остановиться.";
        /// PPO clip range ε.
        clip_epsilon: f64 = [0.2, 0.2], Loss,
            Kind::Real { min: Some(Bound::closed(0.0)), max: Some(Bound::open(1.0)) },
            "ε — порог клиппирования",
            "Отношение вероятностей токена обрезается до [1 − ε, 1 + ε].";
        /// Initial weight of the entropy bonus (mean entropy of the policy over response tokens),
        /// annealed linearly to 0 over the run: early on it keeps a group's answers diverse long
        /// enough to find both symbols, at the end it lets the policy become sharp. 0 turns it off.
        entropy_coef: f64 = [0.1, 0.1], Loss, Kind::real(0.0, 10.0),
            "вес бонуса энтропии",
            "Начальный вес бонуса энтропии; линейно уменьшается до нуля к концу обучения.";
        /// Full-batch PPO epochs per rollout.
        ppo_epochs: usize = [4, 4], Optimisation, Kind::Int { min: 1, max: 100 },
            "эпох PPO",
            "Сколько шагов Adam по одному пакету ответов.";
        /// Adam step size.
        learning_rate: f64 = [3e-3, 3e-3], Optimisation, Kind::real_above(0.0, 1.0),
            "шаг обучения Adam",
            "Шаг оптимизатора.";
        /// Global gradient-norm limit.
        max_grad_norm: f64 = [1.0, 1.0], Optimisation, Kind::real_above(0.0, 1000.0),
            "предел нормы градиента",
            "Норма градиента обрезается до этого значения.";
        /// Embedding width.
        embed_dim: usize = [16, 16], Network, Kind::Int { min: 1, max: 256 },
            "ширина эмбеддинга",
            "Размер вектора, которым представлен каждый токен.";
        /// GRU hidden width.
        hidden_dim: usize = [32, 32], Network, Kind::Int { min: 1, max: 256 },
            "ширина скрытого состояния GRU",
            "Размер скрытого состояния рекуррентной сети.";
        /// Scale of the output head at initialisation: small values start near the uniform policy.
        head_init_scale: f64 = [0.1, 0.1], Network, Kind::real(0.0, 10.0),
            "масштаб выходного слоя",
            "Малые значения начинают с почти равномерной политики.";
        /// Fresh samples per prompt for every evaluation.
        eval_samples_per_prompt: usize = [64, 64], Evaluation, Kind::Int { min: 1, max: 4096 },
            "выборок оценки на запрос",
            "Сколько свежих ответов на каждый запрос усредняется в оценке.",
            unit "ответов";
    }

    relations(c) {
        let work = c.total_work();
        if work > MAX_WORK {
            let rule = Rule::at_most(MAX_WORK);
            return Err(Error::range("iterations × group_size × ppo_epochs × hidden_dim", rule, work));
        }
        Ok(())
    }
}

/// Most multiply-adds of one run (≈ 10,000 × the full profile).
pub const MAX_WORK: f64 = 1e13;

impl SequenceConfig {
    /// The `smoke` profile.
    pub fn smoke() -> Self {
        Self::for_profile(SequenceProfile::Smoke)
    }

    /// The `full` profile.
    pub fn full() -> Self {
        Self::for_profile(SequenceProfile::Full)
    }

    /// Parses a whole config written as JSON (every field); unknown fields and an unknown
    /// reduction are errors, and the result is validated. (Partial overrides go through
    /// [`Settings::with_json`].)
    pub fn from_json(json: &str) -> Result<Self> {
        let config: SequenceConfig =
            serde_json::from_str(json).map_err(|e| Error::parse("sequence config", json, e))?;
        config.validate()?;
        Ok(config)
    }

    /// Checks every field and relation; the error names the field and the rule.
    pub fn validate(&self) -> Result<()> {
        Settings::validate(self)
    }

    /// `T`: tokens per row of `input_ids`.
    pub fn sequence_len(&self) -> usize {
        task::PROMPT_LENGTH + self.max_response_len
    }

    /// Multiply-adds of the run: every token of every sampled, evaluated and trained row
    /// through the GRU cell (3 gates over input and state) and the head.
    pub fn total_work(&self) -> f64 {
        let (h, e) = (self.hidden_dim as f64, self.embed_dim as f64);
        let per_token = 3.0 * h * (h + e) + h * task::NUM_ACTIONS as f64;
        let rows = (task::NUM_PROMPTS * self.group_size) as f64;
        let eval_rows = (task::NUM_PROMPTS * self.eval_samples_per_prompt) as f64;
        // Sampling, then each epoch's forward and backward (≈ 3 forward passes).
        let trained = rows * (1.0 + 3.0 * self.ppo_epochs as f64);
        let tokens = self.sequence_len() as f64 * (trained + eval_rows);
        self.iterations as f64 * tokens * per_token
    }
}
