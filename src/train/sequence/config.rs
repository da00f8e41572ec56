//! Every setting of a sequence run, described once.

use super::tasks::TaskKind;
use crate::error::{Bound, Error, Result, Rule};
use crate::nn::Precision;
use crate::rl::{AdvantageEstimator, KlEstimator, Reduction};
use crate::train::settings::{Kind, Settings};

crate::choice! {
    /// Whose probability ratio the clip acts on.
    pub enum RatioLevel {
        /// Every token's own ratio π/π_old (PPO, GRPO, DAPO).
        Token = "token",
        /// One ratio per response, exp of the mean token log-ratio, shared by its tokens (GSPO).
        Sequence = "sequence",
    }
}

crate::choice! {
    /// Where the KL to the reference policy goes.
    pub enum KlPlacement {
        /// No KL term.
        Off = "off",
        /// −β·(log π − log π_ref) per token in the reward (RLHF-PPO, RLOO): it reaches the update
        /// only through the advantages.
        Reward = "reward",
        /// β times the chosen estimator, reduced like the policy terms, added to the loss (GRPO).
        Loss = "loss",
    }
}

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
        /// GRPO (DeepSeekMath) on the copy task: advantages scaled by the group's sample std,
        /// each response's tokens averaged (`sequence_mean`), k3 KL to the reference in the
        /// loss.
        Grpo = "grpo", seeds [1, 2, 3, 4, 5], label "grpo — GRPO",
        /// Dr. GRPO on the copy task: no std (`mean`), Dr. GRPO's constant length, no KL.
        DrGrpo = "dr_grpo", seeds [1, 2, 3, 4, 5], label "dr_grpo — Dr. GRPO",
        /// RLOO on the copy task: leave-one-out baseline, `token_mean`, k1 KL in the reward.
        Rloo = "rloo", seeds [1, 2, 3, 4, 5], label "rloo — RLOO",
        /// GRPO's recipe on the copy task with the transformer policy (f32): two blocks of four
        /// heads, d_model 32, a slower learning rate over twice the iterations (chosen on
        /// held-out seeds 6–21, docs/notes.md).
        Transformer = "transformer", seeds [1, 2, 3, 4, 5], label "transformer — трансформер",
    }

    fields {
        /// Number of iterations (rollout + PPO epochs).
        iterations: usize = [150; Smoke: 40, Full: 200, Transformer: 300], Optimisation, Kind::Int { min: 1, max: 100_000 },
            "итераций",
            "Сколько раз собрать группы ответов и обновить политику.",
            unit "итераций";
        /// The task: lesson 8's three prompts, or the copy task with four difficulty levels.
        task: TaskKind = [TaskKind::Copy; Smoke: TaskKind::ThreePrompts, Full: TaskKind::ThreePrompts], Rollout,
            Kind::Choice(&TaskKind::NAMES),
            "задача",
            "three_prompts — три запроса урока 8; copy — повторить символы запроса (от 1 до 4) и остановиться: награда 1 или 0.";
        /// Prompts drawn per iteration by the copy task (lesson 8 always answers its three).
        prompts_per_iteration: usize = [8; Smoke: 3, Full: 3], Rollout, Kind::Int { min: 1, max: 256 },
            "запросов на итерацию",
            "Сколько запросов задачи copy выбирается на каждой итерации (у трёх запросов урока 8 — всегда три).",
            unit "запросов";
        /// Responses sampled per prompt, G ≥ 2 (a leave-one-out baseline needs another response).
        group_size: usize = [8], Rollout, Kind::Int { min: 2, max: 256 },
            "размер группы G",
            "Сколько ответов выбирается на каждый запрос; опорный уровень RLOO — среднее остальных.",
            unit "ответов";
        /// Most tokens a response may have, `<eos>` included; at least 3 (two symbols + `<eos>`).
        max_response_len: usize = [8; Smoke: 4, Full: 4], Rollout, Kind::Int { min: 3, max: 32 },
            "предел длины ответа",
            "Наибольшее число токенов ответа вместе с <eos>.",
            unit "токенов";
        /// How token terms are reduced to one objective.
        reduction: Reduction = [Reduction::TokenMean; Grpo: Reduction::SequenceMean, DrGrpo: Reduction::ConstantLength, Transformer: Reduction::SequenceMean], Loss,
            Kind::Choice(&Reduction::NAMES),
            "редукция",
            "Как слагаемые токенов сводятся к одной цели: по всем токенам, по ответам, суммой или делением на постоянную длину (Dr. GRPO).";
        /// How a group's rewards become advantages.
        advantage_estimator: AdvantageEstimator = [AdvantageEstimator::Rloo; Grpo: AdvantageEstimator::MeanStdSample, DrGrpo: AdvantageEstimator::Mean, Transformer: AdvantageEstimator::MeanStdSample], Advantages,
            Kind::Choice(&AdvantageEstimator::NAMES),
            "оцениватель преимущества",
            "Как награды группы превращаются в преимущества: без опорного уровня, минус среднее (Dr. GRPO), минус среднее остальных (RLOO), делённые на ст. откл. группы (GRPO).";
        /// Whether the response mask keeps the `<eos>` label: without it the loss gives the policy
        /// no direct signal for stopping (lesson 8's mistake; softmax and shared weights still
        /// move p(<eos>) indirectly).
        include_eos: bool = [true], Loss, Kind::Bool,
            "<eos> в маске ответа",
            "Учитывать ли метку <eos> в маске: без неё потеря не даёт политике прямого сигнала, когда остановиться.";
        /// PPO clip range ε.
        clip_epsilon: f64 = [0.2], Loss,
            Kind::Real { min: Some(Bound::closed(0.0)), max: Some(Bound::open(1.0)) },
            "ε — порог клиппирования",
            "Отношение вероятностей токена обрезается до [1 − ε, 1 + ε].";
        /// The upper clip ε_high (DAPO's clip-higher): ratios are clipped to
        /// [1 − ε, 1 + ε_high]; off means ε_high = ε.
        clip_epsilon_high: Option<f64> = [None], Loss,
            Kind::Optional(&Kind::real(0.0, 10.0)),
            "ε_high — верхний порог",
            "Отношение обрезается до [1 − ε, 1 + ε_high] (clip-higher из DAPO); off — ε_high = ε.";
        /// Whose ratio is clipped: each token's, or the response's length-normalised one (GSPO).
        ratio_level: RatioLevel = [RatioLevel::Token], Loss,
            Kind::Choice(&RatioLevel::NAMES),
            "уровень отношения",
            "token — отношение вероятностей каждого токена; sequence — одно на ответ, exp среднего логарифма отношений его токенов (GSPO).";
        /// β, the weight of the KL to the reference policy (the policy as it was when RL
        /// started).
        kl_coef: f64 = [0.0; Grpo: 0.01, Rloo: 0.01, Transformer: 0.01], Loss, Kind::real(0.0, 10.0),
            "β — вес KL",
            "Вес KL к опорной политике — политике, какой она была до начала обучения.";
        /// Where the KL goes: off, in the reward (per token), or in the loss.
        kl_placement: KlPlacement = [KlPlacement::Off; Grpo: KlPlacement::Loss, Rloo: KlPlacement::Reward, Transformer: KlPlacement::Loss], Loss,
            Kind::Choice(&KlPlacement::NAMES),
            "куда входит KL",
            "off — без KL; reward — −β·(log π − log π_ref) в награде каждого токена (через преимущество); loss — β·оценка KL в функции потерь.";
        /// The estimator of the KL in the loss (and of `kl_to_reference` in the reports: k3).
        kl_estimator: KlEstimator = [KlEstimator::K3; Rloo: KlEstimator::K1], Loss,
            Kind::Choice(&KlEstimator::NAMES),
            "оценка KL",
            "k1 = d, k2 = d²/2, k3 = e^(−d) − 1 + d при d = log π − log π_ref; в награде всегда k1.";
        /// Initial weight of the entropy bonus (the policy's entropy per response token, reduced
        /// by `reduction` like the policy terms), annealed linearly to 0 over the run: early on
        /// it keeps a group's answers diverse long enough to find both symbols, at the end it
        /// lets the policy become sharp. 0 turns it off.
        entropy_coef: f64 = [0.05; Smoke: 0.1, Full: 0.1], Loss, Kind::real(0.0, 10.0),
            "вес энтропийного бонуса",
            "Начальный вес энтропийного бонуса; линейно уменьшается до нуля к концу обучения. Энтропия токенов сводится той же редукцией, что и цель.";
        /// Full-batch PPO epochs per rollout.
        ppo_epochs: usize = [4], Optimisation, Kind::Int { min: 1, max: 100 },
            "эпох PPO",
            "Сколько шагов Adam по одному пакету ответов.";
        /// Adam step size.
        learning_rate: f64 = [3e-3; Transformer: 1e-3], Optimisation, Kind::real_above(0.0, 1.0),
            "скорость обучения Adam",
            "Скорость обучения оптимизатора (шаг Adam).";
        /// Global gradient-norm limit.
        max_grad_norm: f64 = [1.0], Optimisation, Kind::real_above(0.0, 1000.0),
            "предел нормы градиента",
            "Норма градиента обрезается до этого значения.";
        /// The policy network: the GRU, or the small transformer.
        policy: PolicyKind = [PolicyKind::Gru; Transformer: PolicyKind::Transformer], Network,
            Kind::Choice(&PolicyKind::NAMES),
            "сеть политики",
            "gru — рекуррентная сеть: эмбеддинг, ячейка GRU, выходной слой; transformer — маленький трансформер-декодер: эмбеддинги токенов и позиций, блоки с причинным многоголовым вниманием и MLP, выходной слой.";
        /// The scalar the network computes in (the GRU: f64 only). The log-probabilities, the
        /// loss and the reports are f64 either way.
        precision: Precision = [Precision::F64; Transformer: Precision::F32], Network,
            Kind::Choice(&["f64", "f32"]),
            "точность вычислений сети",
            "f64 — двойная точность, как в проверках градиентов; f32 — одинарная: вдвое больше чисел в одной SIMD-операции, обучение быстрее (только у трансформера). Логарифмы вероятностей, функция потерь и показатели считаются в f64 в обоих случаях.";
        /// The transformer's blocks (attention + MLP, each with its residual).
        layers: usize = [2], Network, Kind::Int { min: 1, max: 8 },
            "блоков трансформера",
            "Сколько блоков «внимание + MLP» идёт друг за другом (только у трансформера).",
            unit "блоков";
        /// Attention heads per block; `model_dim` must be a multiple.
        heads: usize = [2; Transformer: 4], Network, Kind::Int { min: 1, max: 16 },
            "голов внимания",
            "На сколько голов делится внимание в каждом блоке; ширина модели должна делиться на их число (только у трансформера).",
            unit "голов";
        /// Width of the transformer's residual stream (d_model), its embeddings included.
        model_dim: usize = [32], Network, Kind::Int { min: 1, max: 256 },
            "ширина модели трансформера",
            "Размер вектора каждой позиции (d_model): эмбеддинги, внимание и выходы блоков (только у трансформера).";
        /// Width of each block's MLP.
        mlp_dim: usize = [64], Network, Kind::Int { min: 1, max: 1024 },
            "ширина MLP трансформера",
            "Размер скрытого слоя MLP в каждом блоке, обычно в 2–4 раза больше ширины модели (только у трансформера).";
        /// Positions the transformer has embeddings for: at least a prompt and a response.
        context_len: usize = [16], Network, Kind::Int { min: 2, max: 64 },
            "длина контекста трансформера",
            "Сколько позиций знает трансформер (обучаемые эмбеддинги позиций); не меньше, чем запрос и ответ вместе (только у трансформера).",
            unit "токенов";
        /// Embedding width.
        embed_dim: usize = [16], Network, Kind::Int { min: 1, max: 256 },
            "ширина эмбеддинга",
            "Размер вектора, которым представлен каждый токен.";
        /// GRU hidden width.
        hidden_dim: usize = [32], Network, Kind::Int { min: 1, max: 256 },
            "ширина скрытого состояния GRU",
            "Размер скрытого состояния рекуррентной сети.";
        /// Scale of the output head at initialisation: small values start near the uniform policy.
        head_init_scale: f64 = [0.1], Network, Kind::real(0.0, 10.0),
            "масштаб выходного слоя",
            "Малые значения начинают с почти равномерной политики.";
        /// Fresh samples per prompt (lesson 8) or per difficulty level (copy) for every
        /// evaluation.
        eval_samples_per_prompt: usize = [64], Evaluation, Kind::Int { min: 1, max: 4096 },
            "выборок оценки на запрос",
            "Сколько свежих ответов на каждый запрос (у задачи copy — на каждый уровень сложности) усредняется в оценке.",
            unit "ответов";
    }

    relations(c) {
        if c.max_response_len < c.task.max_answer_len() {
            let rule = Rule::at_least(c.task.max_answer_len() as f64);
            return Err(Error::range("max_response_len", rule, c.max_response_len));
        }
        match c.policy {
            PolicyKind::Gru if c.precision != Precision::F64 => {
                let rule = Rule::Requires { what: "policy = transformer".into() };
                return Err(Error::range("precision", rule, c.precision.name()));
            }
            PolicyKind::Gru => {}
            PolicyKind::Transformer => {
                if c.model_dim % c.heads != 0 {
                    let rule = Rule::MultipleOf { what: "heads".into(), of: c.heads as u64 };
                    return Err(Error::range("model_dim", rule, c.model_dim));
                }
                // A row is the longest prompt and the longest response.
                if c.context_len < c.sequence_len() {
                    let rule = Rule::at_least(c.sequence_len() as f64);
                    return Err(Error::range("context_len", rule, c.context_len));
                }
            }
        }
        let work = c.total_work();
        if work > MAX_WORK {
            let rule = Rule::at_most(MAX_WORK);
            let what = match c.policy {
                PolicyKind::Gru => "iterations × group_size × ppo_epochs × hidden_dim",
                PolicyKind::Transformer => "iterations × group_size × ppo_epochs × model_dim × layers",
            };
            return Err(Error::range(what, rule, work));
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
        self.task.max_prompt_len() + self.max_response_len
    }

    /// Prompts per iteration: lesson 8's three, or `prompts_per_iteration` of the copy task.
    pub fn prompts(&self) -> usize {
        match self.task {
            TaskKind::ThreePrompts => super::task::NUM_PROMPTS,
            TaskKind::Copy => self.prompts_per_iteration,
        }
    }

    /// ε_high: `clip_epsilon_high`, or ε when it is off.
    pub fn epsilon_high(&self) -> f64 {
        self.clip_epsilon_high.unwrap_or(self.clip_epsilon)
    }
}

crate::choice! {
    /// The networks a sequence run can train.
    pub enum PolicyKind {
        /// A recurrent network: embedding → GRU cell → head ([`crate::nn::Gru`]).
        Gru = "gru",
        /// A decoder-only transformer with causal self-attention ([`crate::nn::Transformer`]).
        Transformer = "transformer",
    }
}
