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
        /// The addition pipeline in seconds, for tests: a tiny SFT, three RL iterations.
        R1Smoke = "r1_smoke", seeds [5], label "r1_smoke — SFT и RL за секунды",
        /// R1-Zero in a tab with GRPO's recipe: SFT of the transformer on the addition task's
        /// demonstrations, then GRPO (std-scaled advantages, `sequence_mean`, k3 KL to the SFT
        /// policy in the loss).
        R1Grpo = "r1_grpo", seeds [1, 2, 3], label "r1_grpo — SFT, затем GRPO",
        /// The same SFT, then Dr. GRPO: advantages minus the group mean, `constant_length`, no KL.
        R1DrGrpo = "r1_dr_grpo", seeds [1, 2, 3], label "r1_dr_grpo — SFT, затем Dr. GRPO",
        /// `r1_grpo` with DAPO's clip-higher: ratios clipped to [1 − 0.2, 1 + 0.28].
        R1ClipHigher = "r1_clip_higher", seeds [1, 2, 3], label "r1_clip_higher — SFT, затем GRPO с clip-higher",
        /// `r1_grpo` with DAPO's dynamic sampling: groups whose answers all scored alike are
        /// dropped and more are drawn, up to three times the prompts.
        R1Dynamic = "r1_dynamic", seeds [1, 2, 3], label "r1_dynamic — SFT, затем GRPO с динамической выборкой",
    }

    fields {
        /// Number of iterations (rollout + PPO epochs).
        iterations: usize = [200; Smoke: 40, Grpo: 150, DrGrpo: 150, Rloo: 150, Transformer: 300, R1Smoke: 3], Optimisation, Kind::Int { min: 1, max: 100_000 },
            "итераций",
            "Сколько раз собрать группы ответов и обновить политику.",
            unit "итераций";
        /// The task: lesson 8's three prompts, or the copy task with four difficulty levels.
        task: TaskKind = [TaskKind::Addition; Smoke: TaskKind::ThreePrompts, Full: TaskKind::ThreePrompts, Grpo: TaskKind::Copy, DrGrpo: TaskKind::Copy, Rloo: TaskKind::Copy, Transformer: TaskKind::Copy], Rollout,
            Kind::Choice(&TaskKind::NAMES),
            "задача",
            "three_prompts — три запроса урока 8; copy — повторить символы запроса (от 1 до 4) и остановиться: награда 1 или 0; addition — сложить два числа (от 1 до 4 цифр), ответ после #: награда 1 или 0.";
        /// Prompts drawn per iteration by the copy task (lesson 8 always answers its three).
        prompts_per_iteration: usize = [8; Smoke: 3, Full: 3, R1Smoke: 4, R1Grpo: 16, R1DrGrpo: 16, R1ClipHigher: 16, R1Dynamic: 16], Rollout, Kind::Int { min: 1, max: 256 },
            "запросов на итерацию",
            "Сколько запросов задачи copy выбирается на каждой итерации (у трёх запросов урока 8 — всегда три).",
            unit "запросов";
        /// Responses sampled per prompt, G ≥ 2 (a leave-one-out baseline needs another response).
        group_size: usize = [8; R1Smoke: 4], Rollout, Kind::Int { min: 2, max: 256 },
            "размер группы G",
            "Сколько ответов выбирается на каждый запрос; опорный уровень RLOO — среднее остальных.",
            unit "ответов";
        /// Most tokens a response may have, `<eos>` included; at least 3 (two symbols + `<eos>`).
        max_response_len: usize = [13; Smoke: 4, Full: 4, Grpo: 8, DrGrpo: 8, Rloo: 8, Transformer: 8], Rollout, Kind::Int { min: 3, max: 32 },
            "предел длины ответа",
            "Наибольшее число токенов ответа вместе с <eos>.",
            unit "токенов";
        /// How token terms are reduced to one objective.
        reduction: Reduction = [Reduction::SequenceMean; Smoke: Reduction::TokenMean, Full: Reduction::TokenMean, DrGrpo: Reduction::ConstantLength, Rloo: Reduction::TokenMean, R1DrGrpo: Reduction::ConstantLength], Loss,
            Kind::Choice(&Reduction::NAMES),
            "редукция",
            "Как слагаемые токенов сводятся к одной цели: по всем токенам, по ответам, суммой или делением на постоянную длину (Dr. GRPO).";
        /// How a group's rewards become advantages.
        advantage_estimator: AdvantageEstimator = [AdvantageEstimator::MeanStdSample; Smoke: AdvantageEstimator::Rloo, Full: AdvantageEstimator::Rloo, DrGrpo: AdvantageEstimator::Mean, Rloo: AdvantageEstimator::Rloo, R1DrGrpo: AdvantageEstimator::Mean], Advantages,
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
        clip_epsilon_high: Option<f64> = [None; R1ClipHigher: Some(0.28)], Loss,
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
        kl_coef: f64 = [0.01; Smoke: 0.0, Full: 0.0, DrGrpo: 0.0, R1DrGrpo: 0.0], Loss, Kind::real(0.0, 10.0),
            "β — вес KL",
            "Вес KL к опорной политике — политике, какой она была до начала обучения.";
        /// Where the KL goes: off, in the reward (per token), or in the loss.
        kl_placement: KlPlacement = [KlPlacement::Loss; Smoke: KlPlacement::Off, Full: KlPlacement::Off, DrGrpo: KlPlacement::Off, Rloo: KlPlacement::Reward, R1DrGrpo: KlPlacement::Off], Loss,
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
        entropy_coef: f64 = [0.0; Smoke: 0.1, Full: 0.1, Grpo: 0.05, DrGrpo: 0.05, Rloo: 0.05, Transformer: 0.05], Loss, Kind::real(0.0, 10.0),
            "вес энтропийного бонуса",
            "Начальный вес энтропийного бонуса; линейно уменьшается до нуля к концу обучения. Энтропия токенов сводится той же редукцией, что и цель.";
        /// Full-batch PPO epochs per rollout.
        ppo_epochs: usize = [4; R1Smoke: 2, R1Grpo: 2, R1DrGrpo: 2, R1ClipHigher: 2, R1Dynamic: 2], Optimisation, Kind::Int { min: 1, max: 100 },
            "эпох PPO",
            "Сколько шагов Adam по одному пакету ответов.";
        /// Adam step size.
        learning_rate: f64 = [3e-3; Transformer: 1e-3, R1Smoke: 5e-4, R1Grpo: 5e-4, R1DrGrpo: 5e-4, R1ClipHigher: 5e-4, R1Dynamic: 5e-4], Optimisation, Kind::real_above(0.0, 1.0),
            "скорость обучения Adam",
            "Скорость обучения оптимизатора (шаг Adam).";
        /// Global gradient-norm limit.
        max_grad_norm: f64 = [1.0], Optimisation, Kind::real_above(0.0, 1000.0),
            "предел нормы градиента",
            "Норма градиента обрезается до этого значения.";
        /// The policy network: the GRU, or the small transformer.
        policy: PolicyKind = [PolicyKind::Transformer; Smoke: PolicyKind::Gru, Full: PolicyKind::Gru, Grpo: PolicyKind::Gru, DrGrpo: PolicyKind::Gru, Rloo: PolicyKind::Gru], Network,
            Kind::Choice(&PolicyKind::NAMES),
            "сеть политики",
            "gru — рекуррентная сеть: эмбеддинг, ячейка GRU, выходной слой; transformer — маленький трансформер-декодер: эмбеддинги токенов и позиций, блоки с причинным многоголовым вниманием и MLP, выходной слой.";
        /// The scalar the network computes in (the GRU: f64 only). The log-probabilities, the
        /// loss and the reports are f64 either way.
        precision: Precision = [Precision::F32; Smoke: Precision::F64, Full: Precision::F64, Grpo: Precision::F64, DrGrpo: Precision::F64, Rloo: Precision::F64], Network,
            Kind::Choice(&["f64", "f32"]),
            "точность вычислений сети",
            "f64 — двойная точность, как в проверках градиентов; f32 — одинарная: вдвое больше чисел в одной SIMD-операции, обучение быстрее (только у трансформера). Логарифмы вероятностей, функция потерь и показатели считаются в f64 в обоих случаях.";
        /// The transformer's blocks (attention + MLP, each with its residual).
        layers: usize = [2; R1Smoke: 1], Network, Kind::Int { min: 1, max: 8 },
            "блоков трансформера",
            "Сколько блоков «внимание + MLP» идёт друг за другом (только у трансформера).",
            unit "блоков";
        /// Attention heads per block; `model_dim` must be a multiple.
        heads: usize = [2; Transformer: 4, R1Grpo: 4, R1DrGrpo: 4, R1ClipHigher: 4, R1Dynamic: 4], Network, Kind::Int { min: 1, max: 16 },
            "голов внимания",
            "На сколько голов делится внимание в каждом блоке; ширина модели должна делиться на их число (только у трансформера).",
            unit "голов";
        /// Width of the transformer's residual stream (d_model), its embeddings included.
        model_dim: usize = [32; R1Smoke: 16, R1Grpo: 64, R1DrGrpo: 64, R1ClipHigher: 64, R1Dynamic: 64], Network, Kind::Int { min: 1, max: 256 },
            "ширина модели трансформера",
            "Размер вектора каждой позиции (d_model): эмбеддинги, внимание и выходы блоков (только у трансформера).";
        /// Width of each block's MLP.
        mlp_dim: usize = [64; R1Smoke: 32, R1Grpo: 128, R1DrGrpo: 128, R1ClipHigher: 128, R1Dynamic: 128], Network, Kind::Int { min: 1, max: 1024 },
            "ширина MLP трансформера",
            "Размер скрытого слоя MLP в каждом блоке, обычно в 2–4 раза больше ширины модели (только у трансформера).";
        /// Positions the transformer has embeddings for: at least a prompt and a response.
        context_len: usize = [16; R1Smoke: 24, R1Grpo: 24, R1DrGrpo: 24, R1ClipHigher: 24, R1Dynamic: 24], Network, Kind::Int { min: 2, max: 64 },
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
        eval_samples_per_prompt: usize = [64; R1Smoke: 4, R1Grpo: 32, R1DrGrpo: 32, R1ClipHigher: 32, R1Dynamic: 32], Evaluation, Kind::Int { min: 1, max: 4096 },
            "выборок оценки на запрос",
            "Сколько свежих ответов на каждый запрос (у задачи copy — на каждый уровень сложности) усредняется в оценке.",
            unit "ответов";
        /// Supervised steps before RL (teacher forcing on the task's demonstrations); 0: RL from
        /// the untrained network. The SFT policy is RL's starting point and its KL reference.
        sft_steps: usize = [0; R1Smoke: 20, R1Grpo: 1500, R1DrGrpo: 1500, R1ClipHigher: 1500, R1Dynamic: 1500], Optimisation, Kind::Int { min: 0, max: 100_000 },
            "шагов SFT",
            "Сколько шагов обучения с учителем (перекрёстная энтропия на образцовых ответах задачи) сделать до RL; 0 — RL с необученной сети. Политика после SFT — начало RL и опорная политика KL.",
            unit "шагов";
        /// Demonstrations per SFT step.
        sft_batch: usize = [32; R1Smoke: 8, R1Grpo: 64, R1DrGrpo: 64, R1ClipHigher: 64, R1Dynamic: 64], Optimisation, Kind::Int { min: 1, max: 1024 },
            "образцов на шаг SFT",
            "Сколько образцовых ответов в одном шаге SFT.",
            unit "ответов";
        /// Adam's step size during SFT (RL starts a fresh Adam with `learning_rate`).
        sft_learning_rate: f64 = [3e-3; R1Grpo: 1e-2, R1DrGrpo: 1e-2, R1ClipHigher: 1e-2, R1Dynamic: 1e-2], Optimisation, Kind::real_above(0.0, 1.0),
            "скорость обучения SFT",
            "Шаг Adam на стадии SFT; RL начинает со свежего Adam и своей скорости обучения.";
        /// Share of the addition task's demonstrations that write the sum's digits lowest
        /// first before the answer (working tokens); the rest answer at once.
        sft_worked_share: f64 = [0.5], Optimisation, Kind::real(0.0, 1.0),
            "доля образцов с вычислением",
            "Какая доля образцовых ответов задачи addition сначала выписывает цифры суммы от младшей к старшей, а потом — ответ после #; остальные отвечают сразу.";
        /// Reward added to every response of the answer's form (`# number <eos>`), right or
        /// wrong (DeepSeek-R1's format reward); 0: the verifier's 0/1 alone.
        format_reward: f64 = [0.0], Rollout, Kind::real(0.0, 1.0),
            "награда за формат",
            "Добавка к награде каждого ответа правильной формы (# число <eos>), верного или нет, как в DeepSeek-R1; 0 — только проверка ответа (1 или 0).";
        /// DAPO's dynamic sampling: groups whose rewards are all equal (they teach nothing)
        /// are dropped and more prompts are drawn, up to `max_draw_factor` × the prompts.
        dynamic_sampling: bool = [false; R1Dynamic: true], Rollout, Kind::Bool,
            "динамическая выборка (DAPO)",
            "Отбрасывать группы, где все ответы получили одну награду (они ничему не учат), и добирать новые запросы — не больше, чем множитель ниже × число запросов.";
        /// The bound of dynamic sampling: at most this many times `prompts_per_iteration`
        /// groups are drawn in one iteration; a batch still short is filled with dropped groups.
        max_draw_factor: usize = [3], Rollout, Kind::Int { min: 1, max: 16 },
            "предел добора (× запросов)",
            "Динамическая выборка тянет не больше стольких групп на каждый запрос итерации; если живых групп всё равно не хватило, пакет дополняется отброшенными.";
        /// n, answers sampled per held-out prompt for pass@k (k = 1 … n); 0: no pass@k (and no
        /// group statistics in the reports).
        pass_k_samples: usize = [0; R1Smoke: 4, R1Grpo: 16, R1DrGrpo: 16, R1ClipHigher: 16, R1Dynamic: 16], Evaluation, Kind::Int { min: 0, max: 1024 },
            "n для pass@k",
            "Сколько ответов выбирается на каждый отложенный запрос, чтобы оценить pass@k при k = 1 … n; 0 — без pass@k.",
            unit "ответов";
        /// Held-out prompts per difficulty level that pass@k is estimated on (the same for the
        /// untrained, SFT and RL policies and for every seed).
        pass_k_prompts: usize = [16; R1Smoke: 2], Evaluation, Kind::Int { min: 1, max: 256 },
            "запросов pass@k на уровень",
            "Сколько отложенных запросов каждого уровня сложности участвует в оценке pass@k — одни и те же для необученной сети, SFT и RL и для всех зёрен.",
            unit "запросов";
        /// Iterations between pass@k evaluations (the last iteration always has one).
        pass_k_every: usize = [50; R1Smoke: 2], Evaluation, Kind::Int { min: 1, max: 100_000 },
            "pass@k каждые",
            "Через сколько итераций оценивать pass@k (на последней — всегда).",
            unit "итераций";
    }

    relations(c) {
        // A response must hold the task's answer, and SFT's demonstrations with working.
        let longest = if c.sft_steps > 0 && c.sft_worked_share > 0.0 {
            c.task.max_worked_len()
        } else {
            c.task.max_answer_len()
        };
        if c.max_response_len < longest {
            let rule = Rule::at_least(longest as f64);
            return Err(Error::range("max_response_len", rule, c.max_response_len));
        }
        if c.dynamic_sampling && c.task == TaskKind::ThreePrompts {
            let rule = Rule::Requires { what: "task = copy | addition".into() };
            return Err(Error::range("dynamic_sampling", rule, "true"));
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
            TaskKind::Copy | TaskKind::Addition => self.prompts_per_iteration,
        }
    }

    /// The verifier's judgement of `response` to `prompt`, plus `format_reward` when the
    /// response has the answer's form.
    pub fn verdict(&self, prompt: &super::Prompt, response: &[i64]) -> super::task::Verdict {
        let mut verdict = self.task.verify(prompt, response);
        if self.format_reward > 0.0 && self.task.well_formed(response) {
            verdict.reward += self.format_reward;
        }
        verdict
    }

    /// Whether the reports carry the group statistics (with pass@k or dynamic sampling on).
    pub fn reports_groups(&self) -> bool {
        self.pass_k_samples > 0 || self.dynamic_sampling
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
