//! The table: every live figure's parameters, each declared once — the name the draw call
//! reads, the page's control (id, label, URL key) and its range or switch. Where a figure
//! starts from a worked example, its starting values are that example's inputs (checked in
//! the tests).

use super::{Control, FigureSpec, Param};
use crate::lessons::{attention, baselines, clipping, gae, grpo, r1zero, returns, score, tokens};

const fn slider(min: f64, max: f64, step: f64, value: f64) -> Control {
    Control::Slider(super::Slider {
        min,
        max,
        step,
        value,
    })
}

/// A control with its page id, the label before (slider) or after (switch) it, the short
/// label the page's messages use (`data-label`) and the URL key.
const fn param(
    name: &'static str,
    id: &'static str,
    label: &'static str,
    short: &'static str,
    url: &'static str,
    control: Control,
) -> Param {
    Param {
        name,
        id,
        label,
        short,
        url,
        digits: None,
        described_by: None,
        control,
    }
}

const OFF: Control = Control::Switch { checked: false };
const ON: Control = Control::Switch { checked: true };
const RECORDS: Control = Control::Flags {
    records: gae::RECORDS,
};

live! {
    Score: score::ScoreFigure => score,
    Returns: returns::ReturnsFigure => returns,
    BStar: baselines::BStarFigure => bstar,
    Baselines: baselines::BaselineFigure => baselines,
    Gae: gae::GaeAnalysis => gae,
    Clipping: clipping::FourRows => clipping,
    Drift: clipping::Drift => drift,
    SequenceRatio: tokens::SequenceRatio => sequence_ratio,
    Tokens: tokens::Tokens => tokens,
    Attention: attention::AttentionNumbers => attention,
    Difficulty: grpo::Difficulty => difficulty,
    LengthWeights: grpo::LengthWeights => length_weights,
    KlEstimators: grpo::KlFigure => kl_estimators,
    PassAtK: r1zero::PassAtKFigure => pass_at_k,
}

/// Every live figure of the lessons, in the order of the book: its parameters, then how it is
/// computed and drawn from their checked values.
pub const FIGURES: &[FigureSpec] = &[
    FigureSpec {
        name: "score",
        params: &[
            param(
                "z0",
                "score-z0",
                "логит z₀",
                "z₀",
                "z0",
                slider(-3.0, 3.0, 0.1, 1.0),
            ),
            param(
                "z1",
                "score-z1",
                "логит z₁",
                "z₁",
                "z1",
                slider(-3.0, 3.0, 0.1, 0.0),
            ),
            param(
                "z2",
                "score-z2",
                "логит z₂",
                "z₂",
                "z2",
                slider(-3.0, 3.0, 0.1, -1.0),
            ),
            param(
                "action",
                "score-a",
                "действие a",
                "a",
                "a",
                slider(0.0, 2.0, 1.0, 2.0),
            ),
            param(
                "c",
                "score-c",
                "сдвиг награды c",
                "c",
                "c",
                slider(-100.0, 100.0, 1.0, 0.0),
            ),
            param(
                "n",
                "score-n",
                "размер выборки N",
                "N",
                "n",
                slider(1.0, score::FIGURE_MAX_N as f64, 1.0, 10.0),
            ),
        ],
        draw: |v, _| {
            let z = [v.x("z0")?, v.x("z1")?, v.x("z2")?];
            Ok(score::figure(z, v.n("action")?, v.x("c")?, v.n("n")?)?.into())
        },
    },
    FigureSpec {
        name: "returns",
        params: &[
            param(
                "r0",
                "returns-r0",
                "награда r₀",
                "r₀",
                "r0",
                slider(-3.0, 3.0, 0.5, 1.0),
            ),
            param(
                "r1",
                "returns-r1",
                "награда r₁",
                "r₁",
                "r1",
                slider(-3.0, 3.0, 0.5, 0.0),
            ),
            param(
                "r2",
                "returns-r2",
                "награда r₂",
                "r₂",
                "r2",
                slider(-3.0, 3.0, 0.5, 2.0),
            ),
            param(
                "gamma",
                "returns-gamma",
                "γ",
                "γ",
                "rgamma",
                slider(0.0, 1.0, 0.01, 0.5),
            ),
            param(
                "t",
                "returns-t",
                "шаг t цепочки",
                "t",
                "rt",
                slider(0.0, 2.0, 1.0, 2.0),
            ),
        ],
        draw: |v, _| {
            let r = [v.x("r0")?, v.x("r1")?, v.x("r2")?];
            Ok(returns::figure(r, v.x("gamma")?, v.n("t")?)?.into())
        },
    },
    FigureSpec {
        name: "bstar",
        params: &[
            param(
                "p0",
                "bstar-p",
                "вероятность действия 0",
                "p₀",
                "p0",
                slider(0.05, 0.95, 0.01, 0.8),
            ),
            param(
                "q0",
                "bstar-q0",
                "значение q₀",
                "q₀",
                "q0",
                slider(-3.0, 5.0, 0.1, 1.0),
            ),
            param(
                "q1",
                "bstar-q1",
                "значение q₁",
                "q₁",
                "q1",
                slider(-3.0, 5.0, 0.1, 3.0),
            ),
        ],
        draw: |v, _| Ok(baselines::bstar_figure(v.x("p0")?, [v.x("q0")?, v.x("q1")?])?.into()),
    },
    FigureSpec {
        name: "baselines",
        params: &[
            param(
                "group_size",
                "baselines-g",
                "размер группы G",
                "G",
                "g",
                slider(2.0, baselines::MAX_GROUP as f64, 1.0, 8.0),
            ),
            param(
                "zscore",
                "baselines-z",
                r#"делить на <span class="math">\sigma</span> группы (z-оценка)"#,
                "z-нормировка",
                "z",
                OFF,
            ),
        ],
        draw: |v, _| Ok(baselines::figure(v.n("group_size")?, v.on("zscore")?)?.into()),
    },
    FigureSpec {
        name: "gae",
        params: &[
            param(
                "gamma",
                "gae-gamma",
                "γ",
                "γ",
                "gamma",
                slider(0.0, 1.0, 0.01, 0.9),
            ),
            param(
                "lambda",
                "gae-lambda",
                "λ",
                "λ",
                "lambda",
                slider(0.0, 1.0, 0.01, 0.95),
            ),
            param(
                "forgot_cut",
                "gae-forgot",
                "забыть <code>trace_cut</code> на усечении",
                "«забыт trace_cut»",
                "forgot",
                OFF,
            ),
            // The buffer's flags: one switch per record in the page's own table (data-flag),
            // read as a bit mask (bit t = record t).
            param("terminated", "", "", "terminated", "term", RECORDS),
            param("trace_cut", "", "", "trace_cut", "cut", RECORDS),
        ],
        draw: |v, _| {
            let flags = gae::Flags {
                terminated: v.n("terminated")? as u32,
                trace_cut: v.n("trace_cut")? as u32,
                forgot_trace_cut: v.on("forgot_cut")?,
            };
            Ok(gae::figure(v.x("gamma")?, v.x("lambda")?, flags)?.into())
        },
    },
    FigureSpec {
        name: "clipping",
        params: &[Param {
            described_by: Some("clip-caption"),
            ..param(
                "eps",
                "clip-eps",
                "ε",
                "ε",
                "eps",
                slider(0.05, 0.7, 0.01, 0.2),
            )
        }],
        draw: |v, _| Ok(clipping::figure(v.x("eps")?)?.into()),
    },
    FigureSpec {
        name: "drift",
        params: &[
            param(
                "eps",
                "drift-eps",
                "ε",
                "ε",
                "deps",
                slider(0.05, 0.5, 0.01, 0.2),
            ),
            param(
                "steps",
                "drift-steps",
                "шагов Adam",
                "шагов",
                "dsteps",
                slider(1.0, clipping::DRIFT_MAX_STEPS as f64, 1.0, 40.0),
            ),
        ],
        draw: |v, _| Ok(clipping::drift(v.x("eps")?, v.n("steps")?)?.into()),
    },
    FigureSpec {
        name: "seqratio",
        params: &[
            param(
                "length",
                "seqratio-n",
                "длина ответа n",
                "n",
                "n",
                slider(1.0, tokens::SEQUENCE_MAX_LENGTH as f64, 1.0, 1000.0),
            ),
            Param {
                digits: Some(3),
                ..param(
                    "delta",
                    "seqratio-delta",
                    "сдвиг логарифма на токен δ",
                    "δ",
                    "delta",
                    slider(-0.05, 0.05, 0.001, 0.01),
                )
            },
            param(
                "eps",
                "seqratio-eps",
                "ε",
                "ε",
                "reps",
                slider(0.05, 0.5, 0.01, 0.2),
            ),
        ],
        draw: |v, _| {
            let (n, delta, eps) = (v.n("length")?, v.x("delta")?, v.x("eps")?);
            Ok(tokens::sequence_ratio_figure(n, delta, eps)?.into())
        },
    },
    FigureSpec {
        name: "tokens",
        params: &[
            param(
                "eps",
                "tokens-eps",
                "ε",
                "ε",
                "teps",
                slider(0.05, 0.5, 0.01, 0.2),
            ),
            param(
                "prompt",
                "tokens-prompt",
                "длина запроса ответа 1 (с BOS)",
                "длина запроса",
                "tprompt",
                slider(1.0, 6.0, 1.0, 3.0),
            ),
            param(
                "eos",
                "tokens-eos",
                "EOS в маске",
                "«EOS в маске»",
                "teos",
                ON,
            ),
            param(
                "shift",
                "tokens-shift",
                "ошибка: маска без сдвига на одну позицию",
                "«маска без сдвига»",
                "tshift",
                OFF,
            ),
        ],
        draw: |v, _| {
            let opts = tokens::TokenOptions {
                first_prompt_length: v.n("prompt")?,
                include_eos: v.on("eos")?,
                off_by_one: v.on("shift")?,
            };
            Ok(tokens::figure(v.x("eps")?, opts)?.into())
        },
    },
    FigureSpec {
        name: "attention",
        params: &[
            param(
                "level",
                "attention-level",
                "длина запроса",
                "длина запроса",
                "alevel",
                slider(
                    1.0,
                    crate::train::sequence::copy_task::MAX_LEVEL as f64,
                    1.0,
                    3.0,
                ),
            ),
            param(
                "sample",
                "attention-sample",
                "пример",
                "пример",
                "asample",
                slider(1.0, attention::SAMPLES as f64, 1.0, 1.0),
            ),
        ],
        draw: |v, network| {
            let (level, sample) = (v.n("level")?, v.n("sample")? as u64);
            Ok(attention::figure(level, sample, network)?.into())
        },
    },
    FigureSpec {
        name: "difficulty",
        params: &[param(
            "group_size",
            "difficulty-g",
            "размер группы G",
            "G",
            "dg",
            slider(2.0, grpo::MAX_GROUP as f64, 1.0, 8.0),
        )],
        draw: |v, _| Ok(grpo::difficulty_figure(v.n("group_size")?)?.into()),
    },
    FigureSpec {
        name: "length_weights",
        params: &[
            param(
                "short",
                "length-short",
                "длина ответа 1",
                "длина ответа 1",
                "lshort",
                slider(1.0, grpo::LENGTH_SLIDER_MAX as f64, 1.0, 2.0),
            ),
            param(
                "long",
                "length-long",
                "длина ответа 2",
                "длина ответа 2",
                "llong",
                slider(1.0, grpo::LENGTH_SLIDER_MAX as f64, 1.0, 6.0),
            ),
            param(
                "max",
                "length-max",
                "наибольшая длина L",
                "L",
                "lmax",
                slider(
                    grpo::LENGTH_SLIDER_MAX as f64,
                    grpo::MAX_LENGTH as f64,
                    1.0,
                    16.0,
                ),
            ),
        ],
        draw: |v, _| {
            let (short, long, max) = (v.n("short")?, v.n("long")?, v.n("max")?);
            Ok(grpo::length_figure(short, long, max)?.into())
        },
    },
    FigureSpec {
        name: "kl_estimators",
        params: &[param(
            "shift",
            "kl-shift",
            "сдвиг логитов",
            "сдвиг",
            "klshift",
            slider(0.0, grpo::KL_MAX_SHIFT, 0.05, 1.0),
        )],
        draw: |v, _| Ok(grpo::kl_figure(v.x("shift")?)?.into()),
    },
    FigureSpec {
        name: "pass_at_k",
        params: &[
            param(
                "p",
                "passk-p",
                "вероятность успеха p",
                "p",
                "pkp",
                slider(0.01, r1zero::MAX_P, 0.01, 0.05),
            ),
            param(
                "samples",
                "passk-n",
                "ответов на запрос n",
                "n",
                "pkn",
                slider(2.0, r1zero::MAX_SAMPLES as f64, 1.0, 16.0),
            ),
        ],
        draw: |v, _| Ok(r1zero::pass_at_k_figure(v.n("samples")?, v.x("p")?)?.into()),
    },
];
