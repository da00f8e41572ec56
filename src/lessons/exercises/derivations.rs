//! Exercises 28–30: derivations on paper, each checked on numbers the derivation predicts —
//! the λ = 1 telescoping of GAE (lesson 4), the importance-sampling identity behind the ratio
//! (lesson 5) and where the clipped objective's gradient is zero (lesson 5).

use super::{numbers, Exercise};
use crate::{rl, Result};
use std::collections::BTreeMap;

/// Exercise 28: a segment of three steps cut by the buffer's edge (no terminal): its rewards,
/// V(s_0) … V(s_3) (the last is the bootstrap) and γ.
pub const SEGMENT_REWARDS: [f64; 3] = [1.0, 0.0, 2.0];
pub const SEGMENT_VALUES: [f64; 4] = [3.0, 2.0, 2.5, 4.0];
pub const SEGMENT_GAMMA: f64 = 0.9;

/// Exercise 29: the old and the new policy over three actions, and the advantages.
pub const IS_OLD: [f64; 3] = [0.5, 0.3, 0.2];
pub const IS_NEW: [f64; 3] = [0.3, 0.3, 0.4];
pub const IS_ADVANTAGE: [f64; 3] = [1.0, -2.0, 3.0];

/// Exercise 30: six samples' ratios and advantages, and ε.
pub const CLIP_RATIO: [f64; 6] = [1.3, 1.1, 0.7, 0.7, 1.3, 0.9];
pub const CLIP_ADVANTAGE: [f64; 6] = [2.0, 2.0, 2.0, -1.0, -1.0, -1.0];
pub const CLIP_EPSILON: f64 = 0.2;

pub(super) fn add(all: &mut BTreeMap<usize, Exercise>) -> Result<()> {
    all.insert(28, telescoping()?);
    all.insert(29, importance_sampling());
    all.insert(30, clip_gradient()?);
    Ok(())
}

/// GAE with λ = 1 on the segment, with or without the bootstrap at its end.
fn segment(bootstrap: bool) -> Result<(Vec<f64>, Vec<f64>)> {
    let n = SEGMENT_REWARDS.len();
    let values = &SEGMENT_VALUES[..n];
    let mut next_values = SEGMENT_VALUES[1..].to_vec();
    if !bootstrap {
        next_values[n - 1] = 0.0;
    }
    let terminated = vec![false; n];
    let mut cuts = vec![false; n];
    cuts[n - 1] = true;
    let deltas = rl::td_errors(
        &SEGMENT_REWARDS,
        values,
        &next_values,
        &terminated,
        SEGMENT_GAMMA,
    )?;
    let advantages = rl::gae_advantages(
        &SEGMENT_REWARDS,
        values,
        &next_values,
        &terminated,
        &cuts,
        SEGMENT_GAMMA,
        1.0,
    )?;
    Ok((deltas, advantages))
}

/// 28: δ_0, δ_1, δ_2 and Â_0 at λ = 1, which telescopes to the n-step return minus V(s_0).
fn telescoping() -> Result<Exercise> {
    let (deltas, advantages) = segment(true)?;
    let (cut_deltas, cut_advantages) = segment(false)?;
    let n = SEGMENT_REWARDS.len();
    let mut discounted = 0.0;
    let mut factor = 1.0;
    for r in SEGMENT_REWARDS {
        discounted += factor * r;
        factor *= SEGMENT_GAMMA;
    }
    let n_step_return = discounted + factor * SEGMENT_VALUES[n];
    Ok(numbers(
        [deltas.clone(), vec![advantages[0]]].concat(),
        &[
            ("rewards", SEGMENT_REWARDS.to_vec()),
            ("values", SEGMENT_VALUES.to_vec()),
            ("gamma", vec![SEGMENT_GAMMA]),
        ],
    )
    .with_mistake(
        [cut_deltas, vec![cut_advantages[0]]].concat(),
        "Похоже, забыт бутстрэппинг в конце отрезка: эпизод не кончился, и последняя временная разность содержит γ·V(s_3) — после телескопирования он остаётся как γ³·V(s_3).",
    )
    .with_solution("deltas", deltas)
    .with_solution("advantage", vec![advantages[0]])
    .with_solution(
        "telescoped",
        vec![discounted, factor * SEGMENT_VALUES[n], n_step_return],
    ))
}

/// 29: the ratios r(a) = π_new/π_old and E_old[r·A], which equals E_new[A].
fn importance_sampling() -> Exercise {
    let ratio: Vec<f64> = (0..3).map(|a| IS_NEW[a] / IS_OLD[a]).collect();
    let inverse: Vec<f64> = (0..3).map(|a| IS_OLD[a] / IS_NEW[a]).collect();
    let under_old = |w: &[f64]| -> f64 { (0..3).map(|a| IS_OLD[a] * w[a] * IS_ADVANTAGE[a]).sum() };
    let new_mean: f64 = (0..3).map(|a| IS_NEW[a] * IS_ADVANTAGE[a]).sum();
    let old_mean = under_old(&[1.0; 3]);
    numbers(
        [ratio.clone(), vec![under_old(&ratio)]].concat(),
        &[
            ("old", IS_OLD.to_vec()),
            ("new", IS_NEW.to_vec()),
            ("advantage", IS_ADVANTAGE.to_vec()),
        ],
    )
    .with_mistake(
        [inverse.clone(), vec![under_old(&inverse)]].concat(),
        "Похоже, отношение перевёрнуто: r = π_θ/π_old — новая вероятность в числителе, старая (та, что собрала данные) в знаменателе.",
    )
    .with_mistake(
        [ratio.clone(), vec![old_mean]].concat(),
        "Похоже, последнее число — среднее A по старой политике без отношения: оно описывает старую политику; перевзвешенное среднее Σ π_old·r·A равно среднему по новой.",
    )
    .with_solution("reweighted", vec![under_old(&ratio)])
    .with_solution("ratio", ratio.clone())
    .with_solution("new_mean", vec![new_mean])
    .with_solution("old_mean", vec![old_mean])
}

/// The derivative of min(r·A, clip(r, 1 − ε, 1 + ε)·A) by r: A where the unclipped term is
/// the minimum, 0 where the constant clipped term is (clipping active).
fn derivative(ratio: f64, advantage: f64, clip_epsilon: f64) -> f64 {
    let unclipped = ratio * advantage;
    if rl::clipped_objective(ratio, advantage, clip_epsilon) < unclipped {
        0.0
    } else {
        advantage
    }
}

/// 30: each sample's derivative by r; typical mistake: zero wherever r left the band.
fn clip_gradient() -> Result<Exercise> {
    let right: Vec<f64> = (0..6)
        .map(|i| derivative(CLIP_RATIO[i], CLIP_ADVANTAGE[i], CLIP_EPSILON))
        .collect();
    let outside_zero: Vec<f64> = (0..6)
        .map(|i| {
            if (CLIP_RATIO[i] - 1.0).abs() > CLIP_EPSILON {
                0.0
            } else {
                CLIP_ADVANTAGE[i]
            }
        })
        .collect();
    // The same samples through the book's diagnostics: the active fraction is the zeros' share.
    let terms = rl::ppo_clipped_terms(&CLIP_RATIO, &CLIP_ADVANTAGE, CLIP_EPSILON)?;
    Ok(numbers(
        right,
        &[
            ("ratio", CLIP_RATIO.to_vec()),
            ("advantage", CLIP_ADVANTAGE.to_vec()),
            ("clip_epsilon", vec![CLIP_EPSILON]),
            (
                "clip_interval",
                vec![1.0 - CLIP_EPSILON, 1.0 + CLIP_EPSILON],
            ),
        ],
    )
    .with_mistake(
        outside_zero,
        "Похоже, градиент обнулён у каждого отношения вне интервала: пессимистический минимум выбирает постоянный клиппированный член только с «выгодной» стороны; ушедшее в «невыгодную» сторону отношение сохраняет градиент Â.",
    )
    .with_solution("pessimistic", terms.pessimistic))
}
