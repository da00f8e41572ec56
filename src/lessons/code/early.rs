//! Lessons 2–5's exercises: reward-to-go, the RLOO baselines, GAE with both masks, PPO's
//! clipped terms and diagnostics.

use super::{outputs, value, Case, CodeExercise, Named};
use crate::{lessons, math, rl, Result};
use ndarray::aview1;
use serde_json::{json, Value};

type Out = Result<Named>;
/// What, new log-probs, old log-probs, advantages, ε.
type DiagCase = (&'static str, Vec<f64>, Vec<f64>, Vec<f64>, f64);

pub(super) fn reward_to_go() -> Result<CodeExercise> {
    let mut ex = CodeExercise::new(
        "reward_to_go",
        "Накопленная награда",
        "returns.html",
        "Напишите `reward_to_go(rewards, gamma)`: для наград одного эпизода верните массив \
         G_t = r_t + γ·G_(t+1) (после последнего шага G = 0) за один проход с конца. \
         Отвергайте γ вне [0, 1] (raise ValueError).",
    );
    let f = "reward_to_go";
    let run =
        |r: &[f64], g: f64| -> Out { Ok(outputs(&[("returns", value(rl::reward_to_go(r, g)?))])) };
    const FORWARD: &str = "Похоже, награда накоплена слева направо — это прошлые награды. \
        G_t собирает будущие: идите с конца массива, G_t = r_t + γ·G_(t+1).";
    const WEIGHTS: &str = "Похоже, возвращены веса γ^t·G_t. Здесь нужна сама накопленная \
        награда G_t, без внешнего множителя γ^t.";
    const NO_DISCOUNT: &str = "Похоже, γ не применяется: вышли простые суммы наград до конца \
        эпизода. Умножайте накопитель на γ на каждом шаге назад.";
    let forward = |r: &[f64], g: f64| -> Out {
        let rev: Vec<f64> = r.iter().rev().copied().collect();
        let out: Vec<f64> = rl::reward_to_go(&rev, g)?.into_iter().rev().collect();
        Ok(outputs(&[("returns", value(out))]))
    };
    let weights = |r: &[f64], g: f64| -> Out {
        Ok(outputs(&[(
            "returns",
            value(rl::discounted_score_weights(r, g)?),
        )]))
    };
    let worked = lessons::returns::returns()?;
    let cases: [(&str, Vec<f64>, f64); 6] = [
        ("пример урока 2", worked.rewards.clone(), worked.gamma),
        ("награда только в конце", vec![0.0, 1.0, 1.0], 0.9),
        ("γ = 0: каждая G_t — своя награда", vec![1.0, 2.0, 3.0], 0.0),
        (
            "γ = 1: суммы до конца эпизода",
            vec![1.0, -1.0, 2.0, 0.5],
            1.0,
        ),
        ("один шаг", vec![5.0], 0.9),
        ("пустой эпизод: пустой массив", vec![], 0.9),
    ];
    for (about, r, g) in cases {
        let inputs = [("rewards", json!(r)), ("gamma", json!(g))];
        ex.add(
            Case::new(f, about, &inputs, run(&r, g))
                .mistake(FORWARD, forward(&r, g))
                .mistake(WEIGHTS, weights(&r, g))
                .mistake(NO_DISCOUNT, run(&r, 1.0)),
        );
    }
    for g in [1.5, -0.1] {
        let r = [1.0, 2.0];
        let about = format!("γ = {g} вне [0, 1]: ошибка");
        ex.add(Case::new(
            f,
            about,
            &[("rewards", json!(r)), ("gamma", json!(g))],
            run(&r, g),
        ));
    }
    Ok(ex)
}

pub(super) fn leave_one_out_baselines() -> Result<CodeExercise> {
    let mut ex = CodeExercise::new(
        "leave_one_out_baselines",
        "Опорные уровни RLOO",
        "baselines.html",
        "Напишите `leave_one_out_baselines(rewards)`: для наград одной группы из G ответов \
         верните b_i = (S − R_i)/(G − 1) — среднее наград остальных ответов — за O(G) через \
         общую сумму S. Группа меньше двух ответов — ошибка (raise ValueError).",
    );
    let f = "leave_one_out_baselines";
    let run = |r: &[f64]| -> Out {
        Ok(outputs(&[(
            "baselines",
            value(rl::leave_one_out_baselines(aview1(r))?.to_vec()),
        )]))
    };
    const WITH_SELF: &str = "Похоже, в опорный уровень вошла и награда самого ответа (общее \
        среднее группы). RLOO исключает текущий ответ: b_i = (S − R_i)/(G − 1).";
    const OVER_G: &str = "Похоже, сумма остальных наград разделена на G, а остальных ответов \
        G − 1.";
    let with_self = |r: &[f64]| -> Out {
        let mean = rl::group_mean_advantages(aview1(r))?;
        let b: Vec<f64> = r.iter().zip(&mean).map(|(x, a)| x - a).collect();
        Ok(outputs(&[("baselines", value(b))]))
    };
    let over_g = |r: &[f64]| -> Out {
        let b = rl::leave_one_out_baselines(aview1(r))?.to_vec();
        let g = r.len() as f64;
        let b: Vec<f64> = b.iter().map(|x| x * (g - 1.0) / g).collect();
        Ok(outputs(&[("baselines", value(b))]))
    };
    let worked = lessons::baselines::rloo()?;
    let cases: [(&str, Vec<f64>); 4] = [
        ("группа урока 3", worked.rewards.clone()),
        ("два ответа", vec![1.0, 0.0]),
        ("все награды равны", vec![0.5, 0.5, 0.5]),
        (
            "один успех из восьми",
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        ),
    ];
    for (about, r) in cases {
        ex.add(
            Case::new(f, about, &[("rewards", json!(r))], run(&r))
                .mistake(WITH_SELF, with_self(&r))
                .mistake(OVER_G, over_g(&r)),
        );
    }
    for r in [vec![1.0], vec![]] {
        let about = format!("{} ответ(ов): ошибка", r.len());
        ex.add(Case::new(f, about, &[("rewards", json!(r))], run(&r)));
    }
    Ok(ex)
}

/// A GAE case: rewards, values, next values, terminated, trace cuts, γ, λ.
struct Gae {
    about: &'static str,
    rewards: Vec<f64>,
    values: Vec<f64>,
    next_values: Vec<f64>,
    terminated: Vec<bool>,
    trace_cuts: Vec<bool>,
    gamma: f64,
    lambda: f64,
}

impl Gae {
    fn run(&self, terminated: &[bool], trace_cuts: &[bool]) -> Out {
        let a = rl::gae_advantages(
            &self.rewards,
            &self.values,
            &self.next_values,
            terminated,
            trace_cuts,
            self.gamma,
            self.lambda,
        )?;
        Ok(outputs(&[("advantages", value(a))]))
    }

    fn inputs(&self) -> [(&'static str, Value); 7] {
        [
            ("rewards", json!(self.rewards)),
            ("values", json!(self.values)),
            ("next_values", json!(self.next_values)),
            ("terminated", json!(self.terminated)),
            ("trace_cuts", json!(self.trace_cuts)),
            ("gamma", json!(self.gamma)),
            ("gae_lambda", json!(self.lambda)),
        ]
    }
}

pub(super) fn gae_advantages() -> Result<CodeExercise> {
    let mut ex = CodeExercise::new(
        "gae_advantages",
        "GAE с двумя масками",
        "gae.html",
        "Напишите `gae_advantages(rewards, values, next_values, terminated, trace_cuts, gamma, \
         gae_lambda)`: δ_t = r_t + γ·(1 − terminated_t)·V(s_(t+1)) − V(s_t) и с конца \
         Â_t = δ_t + γλ·(1 − trace_cuts_t)·Â_(t+1). `terminated` решает только бутстрэппинг, \
         `trace_cuts` — только обрыв рекурсии. Массивы разной длины, γ или λ вне [0, 1] — \
         ошибка (raise ValueError).",
    );
    const ONE_FLAG: &str = "Похоже, обрыв рекурсии посчитан завершением (один флаг done): на \
        усечённом шаге или на границе буфера эпизод не кончился, прогноз γ·V(s_(t+1)) нужен. \
        terminated решает бутстрэппинг, trace_cuts — только обрыв рекурсии.";
    const NO_CUT: &str = "Похоже, рекурсия не обрывается на trace_cuts: преимущество \
        «перетекает» через границу эпизода или буфера из записей другого эпизода.";
    const BOOTSTRAP_TERMINAL: &str = "Похоже, после терминального шага взят прогноз V(s_(t+1)): \
        после завершения будущего нет, бутстрэппинга там нет.";
    let worked = lessons::gae::worked()?;
    let tr = &worked.trajectory;
    let fig = lessons::gae::trajectory();
    let n = fig.rewards.len();
    let cases = [
        Gae {
            about: "пример урока 4: граница буфера, затем завершение",
            rewards: tr.rewards.clone(),
            values: tr.values.clone(),
            next_values: tr.next_values.clone(),
            terminated: tr.terminated.clone(),
            trace_cuts: tr.trace_cuts.clone(),
            gamma: worked.analysis.gamma,
            lambda: worked.analysis.lambda,
        },
        Gae {
            about: "буфер рисунка урока 4: завершение, усечение по времени, край буфера",
            rewards: fig.rewards.clone(),
            values: fig.values.clone(),
            next_values: fig.next_values.clone(),
            terminated: fig.terminated.clone(),
            trace_cuts: fig.trace_cuts.clone(),
            gamma: 0.99,
            lambda: 0.95,
        },
        Gae {
            about: "усечённый эпизод: последний шаг не терминален, но рекурсия обрывается",
            rewards: vec![1.0, 1.0, 1.0],
            values: vec![5.0, 4.0, 3.0],
            next_values: vec![4.0, 3.0, 6.0],
            terminated: vec![false, false, false],
            trace_cuts: vec![false, false, true],
            gamma: 0.9,
            lambda: 0.8,
        },
        Gae {
            about: "после завершения в буфере — начало следующего эпизода: его V не берётся",
            rewards: vec![1.0, 1.0, 1.0, 1.0],
            values: vec![3.0, 2.0, 1.0, 4.0],
            next_values: vec![2.0, 1.0, 4.0, 3.5],
            terminated: vec![false, false, true, false],
            trace_cuts: vec![false, false, true, true],
            gamma: 0.9,
            lambda: 0.95,
        },
        Gae {
            about: "λ = 0: преимущество — одна временная разность",
            rewards: vec![1.0, 0.0, 2.0],
            values: vec![0.5, 1.5, 1.0],
            next_values: vec![1.5, 1.0, 0.0],
            terminated: vec![false, false, true],
            trace_cuts: vec![false, false, true],
            gamma: 0.9,
            lambda: 0.0,
        },
    ];
    for c in &cases {
        let either: Vec<bool> = c
            .terminated
            .iter()
            .zip(&c.trace_cuts)
            .map(|(a, b)| a | b)
            .collect();
        let never = vec![false; c.rewards.len()];
        ex.add(
            Case::new(
                "gae_advantages",
                c.about,
                &c.inputs(),
                c.run(&c.terminated, &c.trace_cuts),
            )
            .mistake(ONE_FLAG, c.run(&either, &either))
            .mistake(NO_CUT, c.run(&c.terminated, &never))
            .mistake(BOOTSTRAP_TERMINAL, c.run(&never, &c.trace_cuts)),
        );
    }
    let short = Gae {
        about: "values короче rewards: ошибка",
        values: fig.values[..n - 1].to_vec(),
        ..clone_gae(&cases[1])
    };
    let gamma = Gae {
        about: "γ = 1,5: ошибка",
        gamma: 1.5,
        ..clone_gae(&cases[2])
    };
    for c in [short, gamma] {
        ex.add(Case::new(
            "gae_advantages",
            c.about,
            &c.inputs(),
            c.run(&c.terminated, &c.trace_cuts),
        ));
    }
    Ok(ex)
}

fn clone_gae(g: &Gae) -> Gae {
    Gae {
        about: g.about,
        rewards: g.rewards.clone(),
        values: g.values.clone(),
        next_values: g.next_values.clone(),
        terminated: g.terminated.clone(),
        trace_cuts: g.trace_cuts.clone(),
        gamma: g.gamma,
        lambda: g.lambda,
    }
}

pub(super) fn ppo() -> Result<CodeExercise> {
    let mut ex = CodeExercise::new(
        "ppo",
        "Клиппированные члены и диагностики PPO",
        "clipping.html",
        "Напишите `ppo_clipped_terms(ratio, advantage, clip_epsilon)` — кортеж (unclipped, \
         clipped, pessimistic): r·Â, clip(r, 1 − ε, 1 + ε)·Â и их поэлементный минимум; \
         отношения ≤ 0 или массивы разной длины — ошибка. Затем `ppo_diagnostics(new_log_prob, \
         old_log_prob, advantage, clip_epsilon)` — dict с ratio_outside_fraction (доля r вне \
         [1 − ε, 1 + ε]), active_clip_fraction (доля, где клиппирование изменило минимум), \
         approx_kl_nonnegative = mean((r − 1) − log r) и mean_log_ratio; пустой пакет — ошибка.",
    );
    const MAX: &str = "Похоже, взят максимум из r·Â и clip(r)·Â. Цель PPO пессимистична: \
        минимум, чтобы клиппирование не давало выигрыша от ухода r из коридора.";
    const ALWAYS_CLIPPED: &str = "Похоже, pessimistic — это просто клиппированный член. Нужен \
        минимум: при r·Â < clip(r)·Â остаётся неклиппированный член и его градиент.";
    let terms = |r: &[f64], a: &[f64], eps: f64| -> Out {
        let t = rl::ppo_clipped_terms(r, a, eps)?;
        Ok(outputs(&[
            ("unclipped", value(&t.unclipped)),
            ("clipped", value(&t.clipped)),
            ("pessimistic", value(&t.pessimistic)),
        ]))
    };
    let variant = |r: &[f64], a: &[f64], eps: f64, max: bool| -> Out {
        let t = rl::ppo_clipped_terms(r, a, eps)?;
        let p: Vec<f64> = t
            .unclipped
            .iter()
            .zip(&t.clipped)
            .map(|(u, c)| if max { u.max(*c) } else { *c })
            .collect();
        Ok(outputs(&[
            ("unclipped", value(&t.unclipped)),
            ("clipped", value(&t.clipped)),
            ("pessimistic", value(p)),
        ]))
    };
    let worked = lessons::clipping::ppo()?;
    let cases: [(&str, Vec<f64>, Vec<f64>, f64); 4] = [
        (
            "четыре строки урока 5",
            worked.ratio.clone(),
            worked.advantage.clone(),
            worked.clip_epsilon,
        ),
        (
            "те же строки при ε = 0,5: все отношения на краях коридора",
            worked.ratio.clone(),
            worked.advantage.clone(),
            0.5,
        ),
        (
            "отношения внутри коридора: клиппирование ничего не меняет",
            vec![0.9, 1.0, 1.1],
            vec![2.0, -1.0, 0.5],
            0.2,
        ),
        (
            "ε = 0: любое r ≠ 1 клиппируется до 1",
            vec![0.5, 1.5, 1.0],
            vec![1.0, -1.0, 3.0],
            0.0,
        ),
    ];
    let f = "ppo_clipped_terms";
    for (about, r, a, eps) in &cases {
        let inputs = [
            ("ratio", json!(r)),
            ("advantage", json!(a)),
            ("clip_epsilon", json!(eps)),
        ];
        ex.add(
            Case::new(f, *about, &inputs, terms(r, a, *eps))
                .mistake(MAX, variant(r, a, *eps, true))
                .mistake(ALWAYS_CLIPPED, variant(r, a, *eps, false)),
        );
    }
    for (about, r) in [
        ("отношение 0: ошибка", vec![1.0, 0.0]),
        ("отрицательное отношение: ошибка", vec![-0.5, 1.0]),
    ] {
        let inputs = [
            ("ratio", json!(r)),
            ("advantage", json!([1.0, 1.0])),
            ("clip_epsilon", json!(0.2)),
        ];
        ex.add(Case::new(f, about, &inputs, terms(&r, &[1.0, 1.0], 0.2)));
    }

    const BY_POSITION: &str = "Похоже, active_clip_fraction посчитана по положению r вне \
        коридора. Активно клиппирование только там, где оно изменило минимум (pessimistic < \
        unclipped): при r > 1 + ε и Â < 0 минимум остаётся неклиппированным.";
    const NAIVE_KL: &str = "Похоже, approx_kl_nonnegative посчитана как −mean(log r): эта \
        наивная оценка бывает отрицательной. Нужно mean((r − 1) − log r) ≥ 0.";
    let diag = |new: &[f64], old: &[f64], a: &[f64], eps: f64, mistake: u8| -> Out {
        let d = rl::ppo_diagnostics(new, old, a, eps)?;
        let active = if mistake == 1 {
            d.ratio_outside_fraction
        } else {
            d.active_clip_fraction
        };
        let kl = if mistake == 2 {
            -d.mean_log_ratio
        } else {
            d.approx_kl_nonnegative
        };
        Ok(outputs(&[
            ("ratio_outside_fraction", value(d.ratio_outside_fraction)),
            ("active_clip_fraction", value(active)),
            ("approx_kl_nonnegative", value(kl)),
            ("mean_log_ratio", value(d.mean_log_ratio)),
        ]))
    };
    let ln = |xs: &[f64]| -> Vec<f64> { xs.iter().map(|&x| math::ln(x)).collect() };
    let old = vec![-1.0, -0.5, -2.0, -1.2];
    let shifted = |r: &[f64]| -> Vec<f64> { old.iter().zip(ln(r)).map(|(o, l)| o + l).collect() };
    let diag_cases: [DiagCase; 3] = [
        (
            "четыре строки урока 5 по логарифмам",
            shifted(&worked.ratio),
            old.clone(),
            worked.advantage.clone(),
            worked.clip_epsilon,
        ),
        (
            "r вне коридора, но Â против ухода: клиппирование не активно",
            shifted(&[1.5, 0.5, 1.3, 0.7]),
            old.clone(),
            vec![-1.0, 1.0, -2.0, 0.5],
            0.2,
        ),
        (
            "политика не изменилась: всё по нулям",
            old.clone(),
            old.clone(),
            vec![1.0, -1.0, 0.5, 2.0],
            0.2,
        ),
    ];
    let f = "ppo_diagnostics";
    for (about, new, old, a, eps) in &diag_cases {
        let inputs = [
            ("new_log_prob", json!(new)),
            ("old_log_prob", json!(old)),
            ("advantage", json!(a)),
            ("clip_epsilon", json!(eps)),
        ];
        ex.add(
            Case::new(f, *about, &inputs, diag(new, old, a, *eps, 0))
                .mistake(BY_POSITION, diag(new, old, a, *eps, 1))
                .mistake(NAIVE_KL, diag(new, old, a, *eps, 2)),
        );
    }
    let empty: [f64; 0] = [];
    let inputs = [
        ("new_log_prob", json!(empty)),
        ("old_log_prob", json!(empty)),
        ("advantage", json!(empty)),
        ("clip_epsilon", json!(0.2)),
    ];
    ex.add(Case::new(
        f,
        "пустой пакет: ошибка",
        &inputs,
        diag(&empty, &empty, &empty, 0.2, 0),
    ));
    Ok(ex)
}
